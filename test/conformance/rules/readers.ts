/** ADBC rules of readers: batch caps, complete results, cursors released on every path. */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Fiber, Stream } from "effect"
import * as Connection from "../../../src/Connection.ts"
import { fromTable } from "../../../src/Ingest.ts"
import { type ConformanceDriver, type ConformanceEnv, failure, idsOf, numbers, rowsOf, uniqueTable } from "../harness.ts"

/** The latest moment the random-interruption rule interrupts a read at (a full read can take seconds when loaded). */
const MAX_INTERRUPT_AFTER_MS = 500
/** How many runs the random-interruption rule cuts short, and the most runs it makes to get there. */
const INTERRUPTED_RUNS = 30
const MAX_RUNS = 120

/**
 * `count()` once it reads 0, polled every 5 ms for at most `boundMs` (then its last value): a server count read after
 * the server handled what was already on its way to it.
 */
const countOnceZero = (count: () => number, boundMs: number): Effect.Effect<number> =>
  Effect.gen(function*() {
    const deadline = Date.now() + boundMs
    let now = count()
    while (now !== 0 && Date.now() < deadline) {
      yield* Effect.sleep("5 millis")
      now = count()
    }
    return now
  })

export const readerRules = (driver: ConformanceDriver, env: () => ConformanceEnv) =>
  describe(`${driver.name}: readers`, () => {
    const seeded = (rows: number) =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const table = uniqueTable("RD")
        yield* conn.ingest(fromTable(numbers(rows)), { targetTable: table })
        return table
      })

    it.effect("batches hold every row once, in order, each within the row cap", () =>
      Effect.gen(function*() {
        const table = yield* seeded(45)
        const batches = yield* rowsOf(driver.sql.selectAll(table, "id"), { ...driver.smallPages, [driver.batchRows.key]: "10" })
        expect(idsOf(batches)).toEqual(Array.from({ length: 45 }, (_, i) => i))
        expect(batches.length).toBeGreaterThan(1)
        if (driver.batchRows.mode === "hard") {
          for (const batch of batches) expect(batch.numRows).toBeLessThanOrEqual(10)
        }
      }).pipe(Effect.provide(env().layer())))

    it.effect("the statement's row cap beats the connection's, which beats the database's", () =>
      Effect.gen(function*() {
        const table = yield* seeded(100)
        const conn = yield* Connection.Connection
        const sql = driver.sql.selectAll(table, "id")
        const fromDatabase = yield* rowsOf(sql)
        yield* conn.setOption(driver.batchRows.key, "20")
        const fromConnection = yield* rowsOf(sql)
        const fromStatement = yield* rowsOf(sql, { [driver.batchRows.key]: "100" })
        expect(fromDatabase.length).toBeGreaterThan(fromConnection.length)
        expect(fromConnection.length).toBeGreaterThan(fromStatement.length)
        expect(fromStatement).toHaveLength(1)
        for (const batches of [fromDatabase, fromConnection, fromStatement]) expect(idsOf(batches)).toHaveLength(100)
      }).pipe(Effect.provide(env().layer({ ...driver.smallPages, [driver.batchRows.key]: "5" }))))

    if (driver.batchBytes !== undefined) {
      const bytesKey = driver.batchBytes.key
      it.effect("an approximate byte cap makes batches smaller than the row cap alone, and loses no row", () =>
        Effect.gen(function*() {
          const table = yield* seeded(200)
          const sql = driver.sql.selectAll(table, "id")
          const rowsOnly = yield* rowsOf(sql, { ...driver.smallPages, [driver.batchRows.key]: "200" })
          const capped = yield* rowsOf(sql, { ...driver.smallPages, [driver.batchRows.key]: "200", [bytesKey]: "64" })
          expect(rowsOnly).toHaveLength(1)
          expect(capped.length).toBeGreaterThan(1)
          expect(idsOf(capped)).toEqual(Array.from({ length: 200 }, (_, i) => i))
          // 0 means no byte cap
          expect(yield* rowsOf(sql, { [driver.batchRows.key]: "200", [bytesKey]: "0" })).toHaveLength(1)
        }).pipe(Effect.provide(env().layer())))
    }

    it.effect("a zero-row result has the schema and no rows", () =>
      Effect.gen(function*() {
        const table = yield* seeded(0)
        const conn = yield* Connection.Connection
        const reader = yield* conn.executeQuery(driver.sql.selectAll(table))
        expect(reader.schema.fields.map((f) => f.name)).toEqual(["id", "name"])
        const batches = yield* Stream.runCollect(reader.batches)
        expect(batches.reduce((n, b) => n + b.numRows, 0)).toBe(0)
      }).pipe(Effect.scoped, Effect.provide(env().layer())))

    it.live("the cursor is released when the stream ends, is cut short or is interrupted", () =>
      Effect.gen(function*() {
        const table = yield* seeded(40)
        const conn = yield* Connection.Connection
        const sql = driver.sql.selectAll(table, "id")
        const options = { [driver.batchRows.key]: "4" }
        yield* Stream.runDrain(conn.query(sql, options))
        const first = yield* Stream.runCollect(conn.query(sql, options).pipe(Stream.take(1)))
        expect(first).toHaveLength(1)
        const fiber = yield* Stream.runDrain(conn.query(sql, options).pipe(Stream.tap(() => Effect.never))).pipe(
          Effect.forkChild
        )
        yield* Effect.sleep("50 millis")
        yield* Fiber.interrupt(fiber)
        const open = env().openCursors
        if (open !== undefined) expect(yield* countOnceZero(open, 10_000)).toBe(0)
        // the connection is usable afterwards
        expect(idsOf(yield* rowsOf(sql))).toHaveLength(40)
        yield* conn.close
      }).pipe(Effect.provide(env().layer())))

    if (driver.countsCursors && driver.overSocket) {
      it.live("interrupting running streams at random moments (Effect.timeout within one full read time) leaves no server cursor open", () =>
        Effect.gen(function*() {
          const table = yield* seeded(3000)
          const conn = yield* Connection.Connection
          const sql = driver.sql.selectAll(table, "id")
          const options = { ...driver.smallPages, [driver.batchRows.key]: "8" }
          const openCursors = env().openCursors!
          const leaks: Array<string> = []
          let interrupted = 0
          let runs = 0
          // Timeouts are spread over the time a whole read takes, so that most runs are cut short somewhere between
          // the execute and the last fetch. That time is learnt as the runs go, not measured once: every run that
          // finished before its timeout narrows the spread to its own duration, so a machine that gets faster or
          // slower meanwhile still has most runs interrupted. A read is hundreds of round trips (small pages) and takes
          // seconds on a loaded machine: the spread starts at MAX_INTERRUPT_AFTER_MS, which still hits the execute and
          // many fetches. The rule runs until INTERRUPTED_RUNS runs were cut short (at most MAX_RUNS runs).
          let spreadMs = MAX_INTERRUPT_AFTER_MS
          while (interrupted < INTERRUPTED_RUNS && runs < MAX_RUNS) {
            const run = runs++
            const ms = 1 + Math.floor(Math.random() * spreadMs)
            const started = Date.now()
            const exit = yield* Effect.exit(Stream.runDrain(conn.query(sql, options)).pipe(Effect.timeout(`${ms} millis`)))
            if (Exit.isFailure(exit)) {
              const reason = exit.cause.reasons[0]
              expect(reason?._tag === "Fail" && Cause.isTimeoutError(reason.error), `run ${run}: ${Cause.pretty(exit.cause)}`).toBe(true)
              interrupted++
            } else {
              spreadMs = Math.max(2, Math.min(spreadMs, Date.now() - started))
            }
            // The server's own count, once it has handled what the interrupted call sent (on a loaded machine the
            // cancel and the cursor close may still be on the socket when the fiber returns). Nothing else runs on
            // this connection meanwhile, so a cursor the driver forgot stays open, and is reported after 10 s.
            const open = yield* countOnceZero(openCursors, 10_000)
            if (open !== 0) {
              leaks.push(`run ${run}, timeout ${ms} ms: ${open} cursor(s) open`)
              break
            }
          }
          // the runs must really have been cut short, or the rule proves nothing
          expect(interrupted).toBe(INTERRUPTED_RUNS)
          expect(leaks).toEqual([])
          // the connection is usable afterwards and reads the whole result
          expect(idsOf(yield* rowsOf(sql, options))).toHaveLength(3000)
          expect(openCursors()).toBe(0)
        }).pipe(Effect.provide(env().layer())), 120_000)
    }

    it.effect("a query stream opens its cursor when it runs: each run executes again and reads the whole result", () =>
      Effect.gen(function*() {
        const table = yield* seeded(9)
        const stream = Connection.query(driver.sql.selectAll(table, "id"))
        const conn = yield* Connection.Connection
        yield* conn.ingest(fromTable(numbers(2, 9)), { targetTable: table, mode: "append" })
        // built before the append, run after it: the stream sees the table as it is when it runs
        expect(idsOf(yield* Stream.runCollect(stream))).toEqual(Array.from({ length: 11 }, (_, i) => i))
        expect(idsOf(yield* Stream.runCollect(stream))).toHaveLength(11)
        const open = env().openCursors
        if (open !== undefined) expect(open()).toBe(0)
      }).pipe(Effect.provide(env().layer())))

    it.effect("a reader's stream runs once: a second run fails INVALID_STATE instead of yielding nothing", () =>
      Effect.gen(function*() {
        const table = yield* seeded(12)
        const conn = yield* Connection.Connection
        const reader = yield* conn.executeQuery(driver.sql.selectAll(table, "id"))
        expect(idsOf(yield* Stream.runCollect(reader.batches))).toHaveLength(12)
        const again = failure(yield* Effect.exit(Stream.runCollect(reader.batches)))
        expect(again.status).toBe("INVALID_STATE")
      }).pipe(Effect.scoped, Effect.provide(env().layer())))

    it.effect("a reader run after its scope closed fails INVALID_STATE", () =>
      Effect.gen(function*() {
        const table = yield* seeded(12)
        const conn = yield* Connection.Connection
        const reader = yield* Effect.scoped(conn.executeQuery(driver.sql.selectAll(table, "id")))
        const late = failure(yield* Effect.exit(Stream.runCollect(reader.batches)))
        expect(late.status).toBe("INVALID_STATE")
      }).pipe(Effect.provide(env().layer())))
  })
