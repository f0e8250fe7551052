/** ADBC rules of connections: options and their errors, close while a reader is active, scope closing under a reader. */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Context, Effect, Exit, Layer, Scope, Stream } from "effect"
import { READER_ACTIVE_MESSAGE } from "../../../src/AdbcError.ts"
import * as Connection from "../../../src/Connection.ts"
import * as Database from "../../../src/Database.ts"
import { fromTable } from "../../../src/Ingest.ts"
import {
  type ConformanceDriver,
  type ConformanceEnv,
  countOf,
  failure,
  numbers,
  uniqueTable
} from "../harness.ts"

/** The server's session count once sessions of earlier tests have finished closing (servers notice a moment later). */
const settledSessions = (env: () => ConformanceEnv) =>
  Effect.gen(function*() {
    let last = env().openSessions()
    for (let i = 0; i < 50; i++) {
      yield* Effect.sleep("50 millis")
      const now = env().openSessions()
      if (now === last) return now
      last = now
    }
    return last
  })

export const connectionRules = (driver: ConformanceDriver, env: () => ConformanceEnv) => {
  describe(`${driver.name}: options`, () => {
    it.effect("getOption never reads a secret back: every secret key the driver declares fails NOT_FOUND, the URI's password is masked", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const database = yield* Database.Database
        const secrets = [...database.driver.options.filter((spec) => spec.secret === true).map((spec) => spec.key), "password"]
        for (const key of secrets.filter((key) => key !== "uri")) {
          expect(failure(yield* Effect.exit(conn.getOption(key))).status).toBe("NOT_FOUND")
        }
        const uri = yield* conn.getOption("uri")
        const password = /^[^:]+:\/\/[^:@/]+:([^@/]*)@/.exec(uri)?.[1]
        if (password !== undefined) expect(password).toBe("***")
      }).pipe(Effect.provide(env().layer())))

    it.effect("an unknown key fails NOT_IMPLEMENTED on set and NOT_FOUND on get, naming the key", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const set = failure(yield* Effect.exit(conn.setOption("conformance.no_such_key", "1")))
        expect(set.status).toBe("NOT_IMPLEMENTED")
        expect(set.message).toContain("conformance.no_such_key")
        expect(failure(yield* Effect.exit(conn.getOption("conformance.no_such_key"))).status).toBe("NOT_FOUND")
        // a known key that was never set is NOT_FOUND too
        expect(failure(yield* Effect.exit(conn.getOption("adbc.connection.readonly"))).status).toBe("NOT_FOUND")
      }).pipe(Effect.provide(env().layer())))

    it.effect("a bad value fails INVALID_ARGUMENT naming the key and keeps the previous value", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        yield* conn.setOption(driver.batchRows.key, "7")
        const error = failure(yield* Effect.exit(conn.setOption(driver.batchRows.key, "zero")))
        expect(error.status).toBe("INVALID_ARGUMENT")
        expect(error.message).toContain(driver.batchRows.key)
        expect(yield* conn.getOption(driver.batchRows.key)).toBe("7")
      }).pipe(Effect.provide(env().layer())))

    it.effect("a bad database option fails before any session is opened", () =>
      Effect.gen(function*() {
        const before = env().openSessions()
        const exit = yield* Effect.exit(
          Layer.build(env().layer({ [driver.badOption.key]: driver.badOption.value })).pipe(Effect.scoped)
        )
        const error = failure(exit)
        expect(error.status).toBe("INVALID_ARGUMENT")
        expect(error.message).toContain(driver.badOption.key)
        expect(env().openSessions()).toBe(before)
      }))
  })

  describe(`${driver.name}: close`, () => {
    it.effect("close fails while a reader is active, succeeds once it is released; later use is INVALID_STATE", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const table = uniqueTable("CL")
        yield* conn.ingest(fromTable(numbers(10)), { targetTable: table })
        const readerScope = yield* Scope.make()
        yield* conn.executeQuery(driver.sql.selectAll(table)).pipe(Scope.provide(readerScope))
        const error = failure(yield* Effect.exit(conn.close))
        expect(error.status).toBe("INVALID_STATE")
        expect(error.text).toBe(READER_ACTIVE_MESSAGE)
        expect(yield* countOf(driver, table)).toBe(10)
        yield* Scope.close(readerScope, Exit.void)
        yield* conn.close
        const after = failure(yield* Effect.exit(Stream.runCollect(conn.query(driver.sql.selectAll(table)))))
        expect(after.status).toBe("INVALID_STATE")
      }).pipe(Effect.provide(env().layer())))

    it.effect("a prepared statement's open reader also blocks close; releasing it lets close succeed", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const stmt = yield* conn.statement()
        yield* stmt.setSqlQuery(driver.sql.selectParameters(1))
        yield* stmt.prepare
        yield* stmt.bind(new Arrow.Table({ p: Arrow.vectorFromArray([7], new Arrow.Int32()) }).batches[0]!)
        yield* Effect.scoped(Effect.gen(function*() {
          const reader = yield* stmt.executeQuery
          expect(failure(yield* Effect.exit(conn.close)).text).toBe(READER_ACTIVE_MESSAGE)
          const rows = yield* Stream.runCollect(reader.batches)
          expect(Number(rows[0]!.getChildAt(0)!.get(0))).toBe(7)
        }))
        yield* conn.close
      }).pipe(Effect.provide(env().layer())))

    it.effect("a fully read reader no longer blocks close", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const table = uniqueTable("CL")
        yield* conn.ingest(fromTable(numbers(5)), { targetTable: table })
        const reader = yield* conn.executeQuery(driver.sql.selectAll(table))
        yield* Stream.runDrain(reader.batches)
        yield* conn.close
      }).pipe(Effect.scoped, Effect.provide(env().layer())))

    it.effect("closing the connection's scope under a reader held by an outer scope releases the reader first", () =>
      Effect.gen(function*() {
        const connectionScope = yield* Scope.make()
        const context = yield* Layer.buildWithScope(env().layer(driver.smallPages), connectionScope)
        const conn = Context.get(context, Connection.Connection)
        const table = uniqueTable("CL")
        yield* conn.ingest(fromTable(numbers(40)), { targetTable: table })
        const reader = yield* conn.executeQuery(driver.sql.selectAll(table)) // in the test's scope, outside the connection's
        yield* Scope.close(connectionScope, Exit.void)
        const error = failure(yield* Effect.exit(Stream.runCollect(reader.batches)))
        expect(error.status).toBe("INVALID_STATE")
        expect(error.message).toContain("connection was closed before its result was read to the end")
      }).pipe(Effect.scoped))

    it.live("releasing the layer closes the session", () =>
      Effect.gen(function*() {
        const before = yield* settledSessions(env)
        yield* Effect.scoped(
          Layer.build(env().layer()).pipe(Effect.tap(() => Effect.sync(() => expect(env().openSessions()).toBe(before + 1))))
        )
        // the server may notice the disconnect a moment later
        for (let i = 0; i < 50 && env().openSessions() !== before; i++) yield* Effect.sleep("20 millis")
        expect(env().openSessions()).toBe(before)
      }))
  })
}
