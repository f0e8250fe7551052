/**
 * Faults injected by the driver's test server: each must end in a typed error within a bounded time, never a short
 * success, a hang or a process crash, and a failed ingest leaves its target as it was. A rule is registered only when
 * the driver's record says its server can inject the fault (`faults`). The switches act on every session of the
 * server, so each rule turns its fault off before it uses another connection.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer, Stream } from "effect"
import * as Connection from "../../../src/Connection.ts"
import { fromTable, type IngestData } from "../../../src/Ingest.ts"
import {
  type ConformanceDriver,
  type ConformanceEnv,
  countOf,
  failure,
  hundreds,
  idsOf,
  numbers,
  rowsOf,
  uniqueTable
} from "../harness.ts"

/** Runs `effect` and how long it took. */
const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const started = Date.now()
    const exit = yield* Effect.exit(effect)
    return { exit, ms: Date.now() - started }
  })

/**
 * Errors the process reports outside any fiber (an uncaught exception or an unhandled rejection of a client
 * library), while `effect` runs.
 */
export const uncaughtDuring = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const seen: Array<unknown> = []
      const onError = (e: unknown) => seen.push(e)
      process.on("uncaughtException", onError)
      process.on("unhandledRejection", onError)
      return { seen, onError }
    }),
    ({ seen }) => Effect.map(effect, (value) => ({ value, uncaught: seen })),
    ({ onError }) =>
      Effect.sync(() => {
        process.off("uncaughtException", onError)
        process.off("unhandledRejection", onError)
      })
  )

/** A new table of `rows` rows of `numbers`, ingested on a connection of its own (closed before the fault starts). */
const seeded = (env: () => ConformanceEnv, prefix: string, rows: number) =>
  Effect.gen(function*() {
    const table = uniqueTable(prefix)
    yield* Effect.flatMap(Connection.Connection, (conn) => conn.ingest(fromTable(numbers(rows)), { targetTable: table })).pipe(
      Effect.provide(env().layer())
    )
    return table
  })

/** The ingest modes the drop-mid-ingest rule cycles through (create into a table of its own each time). */
const MODES_UNDER_DROP = ["replace", "append", "create"] as const

/** 30 batches of 100 rows, ids from 1000: an ingest that takes many round trips. */
const manyBatches = (): IngestData => ({ schema: numbers(0).schema, batches: hundreds(30, 1000) })

export const faultRules = (driver: ConformanceDriver, env: () => ConformanceEnv) =>
  describe(`${driver.name}: faults`, () => {
    if (driver.faults.dropMidFetch) {
      it.live("a connection lost in the middle of a result fails the stream with IO, not a short success", () =>
        Effect.gen(function*() {
          const conn = yield* Connection.Connection
          const table = uniqueTable("FLT")
          yield* conn.ingest(fromTable(numbers(2000)), { targetTable: table })
          env().faults.dropMidFetch!(true)
          const exit = yield* Effect.exit(
            Stream.runCollect(conn.query(driver.sql.selectAll(table, "id"), driver.smallPages)).pipe(
              Effect.ensuring(Effect.sync(() => env().faults.dropMidFetch!(false)))
            )
          )
          const error = failure(exit)
          expect(error.status).toBe("IO")
        }).pipe(Effect.provide(env().layer())))
    }

    if (driver.faults.dropMidIngest) {
      it.live("a connection lost in the middle of an ingest, at 8 different points, fails IO; the target keeps its rows (create: no table is left); no crash", () =>
        Effect.gen(function*() {
          const conn = yield* Connection.Connection
          const table = uniqueTable("FLI")
          yield* conn.ingest(fromTable(numbers(10)), { targetTable: table })
          const before = idsOf(yield* rowsOf(driver.sql.selectAll(table, "id")))
          const dropAt = [2, 3, 4, 5, 7, 9, 12, 16]
          const { value: outcomes, uncaught } = yield* uncaughtDuring(Effect.forEach(dropAt, (replies, run) =>
            Effect.gen(function*() {
              let started = false
              const mode = MODES_UNDER_DROP[run % MODES_UNDER_DROP.length]!
              const target = mode === "create" ? uniqueTable("FLC") : table
              env().faults.dropMidIngest!(replies)
              const exit = yield* Effect.exit(
                Effect.flatMap(Connection.Connection, (fresh) =>
                  Effect.andThen(
                    Effect.sync(() => {
                      started = true
                    }),
                    fresh.ingest(manyBatches(), { targetTable: target, mode })
                  )).pipe(Effect.provide(env().layer(driver.smallIngestCalls ?? {})))
              ).pipe(Effect.ensuring(Effect.sync(() => env().faults.dropMidIngest!(undefined))))
              // let a late callback of the client fire before looking
              yield* Effect.sleep("20 millis")
              expect(failure(exit).status).toBe("IO")
              expect(idsOf(yield* rowsOf(driver.sql.selectAll(table, "id")))).toEqual(before)
              if (mode === "create") {
                const conn = yield* Connection.Connection
                expect(failure(yield* Effect.exit(conn.getTableSchema(undefined, undefined, target))).status).toBe("NOT_FOUND")
              }
              return started
            })))
          expect(uncaught.map(String)).toEqual([])
          // most drops must have come during the ingest, not while connecting, or the rule proves little
          expect(outcomes.filter((started) => started).length).toBeGreaterThanOrEqual(dropAt.length / 2)
        }).pipe(Effect.provide(env().layer())), 60_000)
    }

    if (driver.faults.stallAfterHandshake) {
      it.live("a server that goes silent after the handshake: Effect.timeout returns within 1 s and closing does not hang", () =>
        Effect.gen(function*() {
          const table = yield* seeded(env, "FLS", 5)
          const whole = yield* timed(Effect.scoped(Effect.gen(function*() {
            const context = yield* Layer.build(env().layer())
            const conn = Effect.provide(Connection.Connection, context)
            env().faults.stallAfterHandshake!(true)
            return yield* timed(Effect.flatMap(conn, () => countOf(driver, table)).pipe(
              Effect.provide(context),
              Effect.timeout("200 millis")
            ))
          })).pipe(Effect.ensuring(Effect.sync(() => env().faults.stallAfterHandshake!(false)))))
          expect(whole.exit._tag).toBe("Success")
          if (whole.exit._tag === "Success") {
            expect(whole.exit.value.exit._tag).toBe("Failure")
            expect(whole.exit.value.ms).toBeLessThan(1200)
          }
          // the statement's return plus closing the connection
          expect(whole.ms).toBeLessThan(3000)
        }), 30_000)

      it.live("a server that goes silent inside withTransaction: interrupting it returns within 1 s, the connection is dropped and nothing is committed", () =>
        Effect.gen(function*() {
          const table = yield* seeded(env, "FLT", 5)
          const whole = yield* timed(Effect.scoped(Effect.gen(function*() {
            const conn = yield* Effect.provide(Connection.Connection, yield* Layer.build(env().layer()))
            const inside = yield* Deferred.make<void>()
            const fiber = yield* Effect.forkChild(conn.withTransaction(
              conn.ingest(fromTable(numbers(3, 100)), { targetTable: table, mode: "append" }).pipe(
                Effect.andThen(Deferred.succeed(inside, undefined)),
                Effect.andThen(Effect.never)
              )
            ))
            yield* Deferred.await(inside)
            env().faults.stallAfterHandshake!(true)
            const interrupted = yield* timed(Fiber.interrupt(fiber))
            return { interruptMs: interrupted.ms, usable: yield* conn.isUsable }
          })).pipe(Effect.ensuring(Effect.sync(() => env().faults.stallAfterHandshake!(false)))))
          expect(whole.exit._tag).toBe("Success")
          if (whole.exit._tag === "Success") {
            // the contract says 1 s; the margin is for a loaded machine (a fault test, not a timing test)
            expect(whole.exit.value.interruptMs).toBeLessThan(3000)
            expect(whole.exit.value.usable).toBe(false)
          }
          expect(whole.ms).toBeLessThan(5000)
          expect(yield* countOf(driver, table).pipe(Effect.provide(env().layer()))).toBe(5)
        }), 30_000)

      it.live("a server that goes silent while a fiber holds autocommit off: interrupting it returns within 1 s and nothing is committed", () =>
        Effect.gen(function*() {
          const table = yield* seeded(env, "FLA", 5)
          const whole = yield* timed(Effect.scoped(Effect.gen(function*() {
            const conn = yield* Effect.provide(Connection.Connection, yield* Layer.build(env().layer()))
            const inside = yield* Deferred.make<void>()
            const fiber = yield* Effect.forkChild(
              conn.setOption("adbc.connection.autocommit", "false").pipe(
                Effect.andThen(conn.ingest(fromTable(numbers(3, 100)), { targetTable: table, mode: "append" })),
                Effect.andThen(Deferred.succeed(inside, undefined)),
                Effect.andThen(Effect.never)
              )
            )
            yield* Deferred.await(inside)
            env().faults.stallAfterHandshake!(true)
            const interrupted = yield* timed(Fiber.interrupt(fiber))
            return { interruptMs: interrupted.ms }
          })).pipe(Effect.ensuring(Effect.sync(() => env().faults.stallAfterHandshake!(false)))))
          expect(whole.exit._tag).toBe("Success")
          if (whole.exit._tag === "Success") {
            // the contract says 1 s; the margin is for a loaded machine (a fault test, not a timing test)
            expect(whole.exit.value.interruptMs).toBeLessThan(3000)
          }
          expect(whole.ms).toBeLessThan(5000)
          expect(yield* countOf(driver, table).pipe(Effect.provide(env().layer()))).toBe(5)
        }), 30_000)

      it.live("a server that goes silent during an ingest: Effect.timeout returns within 1 s and the target keeps its rows", () =>
        Effect.gen(function*() {
          const table = yield* seeded(env, "FLG", 5)
          const goSilent = Stream.fromEffect(Effect.sync(() => env().faults.stallAfterHandshake!(true)))
          const source: IngestData = {
            schema: numbers(0).schema,
            batches: Stream.concat(hundreds(2, 1000), goSilent.pipe(Stream.flatMap(() => Stream.never)))
          }
          const whole = yield* timed(Effect.scoped(Effect.gen(function*() {
            const conn = yield* Effect.provide(Connection.Connection, yield* Layer.build(env().layer()))
            return yield* timed(conn.ingest(source, { targetTable: table, mode: "replace" }).pipe(Effect.timeout("300 millis")))
          })).pipe(Effect.ensuring(Effect.sync(() => env().faults.stallAfterHandshake!(false)))))
          expect(whole.exit._tag).toBe("Success")
          if (whole.exit._tag === "Success") {
            expect(whole.exit.value.exit._tag).toBe("Failure")
            expect(whole.exit.value.ms).toBeLessThan(3000)
          }
          expect(whole.ms).toBeLessThan(5000)
          expect(idsOf(yield* rowsOf(driver.sql.selectAll(table, "id")).pipe(Effect.provide(env().layer())))).toEqual([0, 1, 2, 3, 4])
        }), 30_000)
    }

    if (driver.faults.stallMidResult) {
      it.live("a server that goes silent in the middle of a result: interrupting the stream returns within 1 s and closing does not hang", () =>
        Effect.gen(function*() {
          const table = yield* seeded(env, "FLM", 2000)
          let batches = 0
          const whole = yield* timed(Effect.gen(function*() {
            const conn = yield* Connection.Connection
            const stream = conn.query(driver.sql.selectAll(table, "id"), { ...driver.smallPages, [driver.batchRows.key]: "4" }).pipe(
              Stream.tap(() =>
                Effect.sync(() => {
                  batches++
                  env().faults.stallMidResult!(true)
                })
              )
            )
            return yield* timed(Stream.runDrain(stream).pipe(Effect.timeout("300 millis")))
          }).pipe(
            Effect.provide(env().layer()),
            Effect.ensuring(Effect.sync(() => env().faults.stallMidResult!(false)))
          ))
          expect(batches).toBeGreaterThan(0)
          expect(whole.exit._tag).toBe("Success")
          if (whole.exit._tag === "Success") {
            expect(whole.exit.value.exit._tag).toBe("Failure")
            expect(whole.exit.value.ms).toBeLessThan(1300)
          }
          expect(whole.ms).toBeLessThan(4000)
        }), 30_000)
    }
  })
