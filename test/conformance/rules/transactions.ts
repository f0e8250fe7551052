/**
 * ADBC rules of transactions on a connection shared by several fibers: a transaction (`withTransaction`, or
 * autocommit switched off by a fiber) or an ingest holds the connection for its whole duration; other fibers'
 * statements wait for it to end, so their writes neither land inside it nor are undone by its rollback.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Stream } from "effect"
import { adbcError } from "../../../src/AdbcError.ts"
import * as Connection from "../../../src/Connection.ts"
import { fromTable, type IngestData } from "../../../src/Ingest.ts"
import { type ConformanceDriver, type ConformanceEnv, countOf, failure, hundreds, numbers, uniqueTable } from "../harness.ts"

const AUTOCOMMIT = "adbc.connection.autocommit"

/** Appends `n` rows to `table`. */
const append = (table: string, n: number, offset = 0) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    conn.ingest(fromTable(numbers(n, offset)), { targetTable: table, mode: "append" }))

/** Creates two empty tables: the transaction's target and a neighbour's. */
const twoTables = Effect.gen(function*() {
  const conn = yield* Connection.Connection
  const target = uniqueTable("TXT")
  const neighbour = uniqueTable("TXN")
  yield* conn.ingest(fromTable(numbers(0)), { targetTable: target })
  yield* conn.ingest(fromTable(numbers(0)), { targetTable: neighbour })
  return { target, neighbour }
})

/** Whether a fiber is still running (waiting). */
const running = (fiber: Fiber.Fiber<unknown, unknown>) => fiber.pollUnsafe() === undefined

/**
 * Batches of 100 rows from offset 1000 that open `inside` after the first one and then fail; each waits a moment
 * so neighbours have time to try to run in between.
 */
const slowFailing = (inside: Deferred.Deferred<void>): IngestData => {
  return {
    schema: numbers(0).schema,
    batches: hundreds(5, 1000).pipe(
      Stream.tap((batch) =>
        Effect.andThen(
          (batch.getChild("id")!.get(0) as number) === 1100 ? Deferred.succeed(inside, undefined) : Effect.void,
          Effect.sleep("30 millis")
        )
      ),
      Stream.concat(Stream.fail(adbcError("IO", "source broke")))
    )
  }
}

export const transactionRules = (driver: ConformanceDriver, env: () => ConformanceEnv) => {
  describe(`${driver.name}: transactions`, () => {
    it.effect("autocommit is on by default; commit and rollback then fail INVALID_STATE", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        expect(yield* conn.getOption(AUTOCOMMIT)).toBe("true")
        expect(failure(yield* Effect.exit(conn.commit)).status).toBe("INVALID_STATE")
        expect(failure(yield* Effect.exit(conn.rollback)).status).toBe("INVALID_STATE")
      }).pipe(Effect.provide(env().layer())))

    it.effect("with autocommit off, rollback discards and commit keeps", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const table = uniqueTable("TX")
        yield* conn.ingest(fromTable(numbers(0)), { targetTable: table })
        yield* conn.setOption(AUTOCOMMIT, "false")
        expect(yield* conn.getOption(AUTOCOMMIT)).toBe("false")
        yield* append(table, 3)
        yield* conn.rollback
        expect(yield* countOf(driver, table)).toBe(0)
        yield* append(table, 2)
        yield* conn.commit
        expect(yield* countOf(driver, table)).toBe(2)
        yield* conn.setOption(AUTOCOMMIT, "true")
      }).pipe(Effect.provide(env().layer())))

    it.effect("withTransaction commits on success and switches autocommit back on", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const { target } = yield* twoTables
        const inserted = yield* Connection.withTransaction(
          Effect.gen(function*() {
            expect(yield* conn.getOption(AUTOCOMMIT)).toBe("false")
            return (yield* append(target, 3)) + (yield* append(target, 2, 3))
          })
        )
        expect(inserted).toBe(5)
        expect(yield* conn.getOption(AUTOCOMMIT)).toBe("true")
        expect(yield* countOf(driver, target)).toBe(5)
      }).pipe(Effect.provide(env().layer())))

    it.effect("withTransaction rolls back on failure, keeps the error, and switches autocommit back on", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const { target } = yield* twoTables
        const error = yield* Effect.flip(Connection.withTransaction(
          Effect.andThen(append(target, 3), Effect.fail("business rule broken" as const))
        ))
        expect(error).toBe("business rule broken")
        expect(yield* conn.getOption(AUTOCOMMIT)).toBe("true")
        expect(yield* countOf(driver, target)).toBe(0)
      }).pipe(Effect.provide(env().layer())))

    it.live("withTransaction rolls back when its fiber is interrupted, and the connection stays usable", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const { target } = yield* twoTables
        const inside = yield* Deferred.make<void>()
        const fiber = yield* Effect.forkChild(Connection.withTransaction(
          append(target, 3).pipe(Effect.andThen(Deferred.succeed(inside, undefined)), Effect.andThen(Effect.never))
        ))
        yield* Deferred.await(inside)
        const started = Date.now()
        yield* Fiber.interrupt(fiber)
        expect(Date.now() - started).toBeLessThan(1000)
        expect(yield* conn.getOption(AUTOCOMMIT)).toBe("true")
        expect(yield* countOf(driver, target)).toBe(0)
        yield* append(target, 1)
        expect(yield* countOf(driver, target)).toBe(1)
      }).pipe(Effect.provide(env().layer())))
  })

  describe(`${driver.name}: one connection shared by fibers`, () => {
    it.live("another fiber's write waits for a transaction and is not rolled back with it", () =>
      Effect.gen(function*() {
        const { target, neighbour } = yield* twoTables
        const inside = yield* Deferred.make<void>()
        const finish = yield* Deferred.make<void>()
        const transaction = yield* Effect.forkChild(Effect.flip(Connection.withTransaction(
          Effect.gen(function*() {
            yield* append(target, 3)
            yield* Deferred.succeed(inside, undefined)
            yield* Deferred.await(finish)
            return yield* Effect.fail("undo" as const)
          })
        )))
        yield* Deferred.await(inside)
        const write = yield* Effect.forkChild(append(neighbour, 2))
        const read = yield* Effect.forkChild(countOf(driver, target))
        yield* Effect.sleep("100 millis")
        // neither statement ran inside the open transaction
        expect(running(write)).toBe(true)
        expect(running(read)).toBe(true)
        yield* Deferred.succeed(finish, undefined)
        expect(yield* Fiber.join(transaction)).toBe("undo")
        expect(yield* Fiber.join(write)).toBe(2)
        // the neighbour's read ran after the rollback: it never saw the transaction's uncommitted rows
        expect(yield* Fiber.join(read)).toBe(0)
        expect(yield* countOf(driver, neighbour)).toBe(2)
        expect(yield* countOf(driver, target)).toBe(0)
      }).pipe(Effect.provide(env().layer())))

    it.live("another fiber's commit during a transaction does not commit the transaction's rows", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const { target } = yield* twoTables
        const inside = yield* Deferred.make<void>()
        const finish = yield* Deferred.make<void>()
        const transaction = yield* Effect.forkChild(Effect.exit(Connection.withTransaction(
          append(target, 3).pipe(
            Effect.andThen(Deferred.succeed(inside, undefined)),
            Effect.andThen(Deferred.await(finish)),
            Effect.andThen(Effect.fail("undo" as const))
          )
        )))
        yield* Deferred.await(inside)
        // the neighbour asks while autocommit is off for the transaction: its commit waits for the transaction
        const commit = yield* Effect.forkChild(Effect.exit(conn.commit))
        yield* Effect.sleep("100 millis")
        expect(running(commit)).toBe(true)
        yield* Deferred.succeed(finish, undefined)
        yield* Fiber.join(transaction)
        yield* Fiber.join(commit)
        expect(yield* countOf(driver, target)).toBe(0)
      }).pipe(Effect.provide(env().layer())))

    it.live("a neighbour's write during a failing ingest waits for it and is not rolled back with it", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const { target, neighbour } = yield* twoTables
        const inside = yield* Deferred.make<void>()
        const ingest = yield* Effect.forkChild(
          Effect.flip(conn.ingest(slowFailing(inside), { targetTable: target, mode: "append" }))
        )
        yield* Deferred.await(inside)
        const write = yield* Effect.forkChild(append(neighbour, 1))
        const commit = yield* Effect.forkChild(Effect.exit(conn.commit))
        yield* Effect.sleep("50 millis")
        expect(running(write)).toBe(true)
        expect((yield* Fiber.join(ingest)).message).toContain("source broke")
        expect(yield* Fiber.join(write)).toBe(1)
        yield* Fiber.join(commit)
        expect(yield* countOf(driver, neighbour)).toBe(1)
        expect(yield* countOf(driver, target)).toBe(0)
      }).pipe(Effect.provide(env().layer())))

    it.live("autocommit switched off by a fiber holds the connection for that fiber until it switches it back on", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const { target, neighbour } = yield* twoTables
        const inside = yield* Deferred.make<void>()
        const finish = yield* Deferred.make<void>()
        const owner = yield* Effect.forkChild(Effect.gen(function*() {
          yield* conn.setOption(AUTOCOMMIT, "false")
          yield* append(target, 3)
          yield* Deferred.succeed(inside, undefined)
          yield* Deferred.await(finish)
          // fibers the owner forks share its hold: their statements run rather than wait for the owner
          const forked = yield* Effect.forkChild(countOf(driver, target))
          expect(yield* Fiber.join(forked).pipe(Effect.timeout("5 seconds"))).toBeGreaterThanOrEqual(0)
          yield* conn.rollback
          yield* conn.setOption(AUTOCOMMIT, "true")
        }))
        yield* Deferred.await(inside)
        const write = yield* Effect.forkChild(append(neighbour, 2))
        yield* Effect.sleep("100 millis")
        expect(running(write)).toBe(true)
        yield* Deferred.succeed(finish, undefined)
        yield* Fiber.join(owner)
        expect(yield* Fiber.join(write)).toBe(2)
        expect(yield* countOf(driver, neighbour)).toBe(2)
        expect(yield* countOf(driver, target)).toBe(0)
      }).pipe(Effect.provide(env().layer())))

    it.live("a fiber that ends with autocommit off leaves nothing uncommitted and frees the connection", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const { target, neighbour } = yield* twoTables
        yield* Effect.forkChild(Effect.andThen(conn.setOption(AUTOCOMMIT, "false"), append(target, 3))).pipe(
          Effect.flatMap(Fiber.join)
        )
        expect(yield* append(neighbour, 1).pipe(Effect.timeout("5 seconds"))).toBe(1)
        expect(yield* conn.getOption(AUTOCOMMIT)).toBe("true")
        expect(yield* countOf(driver, target)).toBe(0)
        expect(yield* countOf(driver, neighbour)).toBe(1)
      }).pipe(Effect.provide(env().layer())))
  })
}
