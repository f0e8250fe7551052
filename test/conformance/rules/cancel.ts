/**
 * ADBC rules of Connection.cancel while a result is being read: a reader between two reads is cancelled (its next read
 * fails CANCELLED, as does every read after it, and its server cursor is released), and a cancel with nothing running
 * and no reader open is INVALID_STATE. Registered where the driver's record says its cancel reaches readers (`cancelledRead`). A cancel of
 * a fetch in flight needs a server that holds a FETCH reply and stops it on cancel: that is in the drivers' own tests.
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Stream } from "effect"
import * as Connection from "../../../src/Connection.ts"
import { fromTable } from "../../../src/Ingest.ts"
import { type ConformanceDriver, type ConformanceEnv, countOf, failure, numbers, uniqueTable } from "../harness.ts"

export const cancelRules = (driver: ConformanceDriver, env: () => ConformanceEnv) => {
  const cancelled = driver.cancelledRead
  if (cancelled === undefined) return
  describe(`${driver.name}: cancel while reading`, () => {
    /** A table of 200 rows and the options that read it in batches of 4 rows. */
    const seeded = Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const table = uniqueTable("CNR")
      yield* conn.ingest(fromTable(numbers(200)), { targetTable: table })
      return { table, options: { ...driver.smallPages, [driver.batchRows.key]: "4" } }
    })

    it.live("a cancel between two pulls of a reader fails its next pull CANCELLED, and every later pull the same; the connection reads on, no cursor stays open", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const { table, options } = yield* seeded
        const next = yield* Effect.scoped(Effect.gen(function*() {
          const stmt = yield* conn.statement()
          yield* stmt.setSqlQuery(driver.sql.selectAll(table, "id"))
          for (const [key, value] of Object.entries(options)) yield* stmt.setOption(key, value)
          const reader = yield* stmt.executeQuery
          const pull = yield* Stream.toPull(reader.batches)
          expect((yield* pull).length).toBeGreaterThan(0)
          const started = Date.now()
          yield* conn.cancel
          const pullNotEnded = Effect.catchIf(pull, Cause.isDone, () => Effect.die(new Error("the result ended")))
          const exit = yield* Effect.exit(pullNotEnded)
          const ms = Date.now() - started
          // the reader stays failed: pulling on yields no rows it had already taken from the driver, nor more
          const later = yield* Effect.forEach([1, 2], () => Effect.exit(pullNotEnded))
          return { exit, ms, later }
        }))
        // the pull reads nothing more: it only releases the server cursor
        expect(next.ms).toBeLessThan(1000)
        const error = failure(next.exit)
        expect(error.status).toBe(cancelled.status)
        expect(error.vendorCode).toBe(cancelled.vendorCode)
        expect(error.sqlState).toBe(cancelled.sqlState)
        for (const later of next.later) expect(failure(later)).toBe(error)
        expect(yield* countOf(driver, table)).toBe(200)
        if (driver.countsCursors) expect(env().openCursors!()).toBe(0)
      }).pipe(Effect.provide(env().layer())))

    it.live("cancel with nothing running and no reader open is INVALID_STATE, also after a result read to its end", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        expect(failure(yield* Effect.exit(conn.cancel)).status).toBe("INVALID_STATE")
        const { table, options } = yield* seeded
        const sql = driver.sql.selectAll(table, "id")
        const whole = (batches: ReadonlyArray<{ readonly numRows: number }>) => batches.reduce((n, b) => n + b.numRows, 0)
        expect(whole(yield* Stream.runCollect(conn.query(sql, options)))).toBe(200)
        expect(failure(yield* Effect.exit(conn.cancel)).status).toBe("INVALID_STATE")
        // a refused cancel leaves nothing behind for the next result
        expect(whole(yield* Stream.runCollect(conn.query(sql, options)))).toBe(200)
      }).pipe(Effect.provide(env().layer())))
  })
}
