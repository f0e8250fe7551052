import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Cause, Effect, type Exit, Fiber, Stream } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { failure } from "../conformance/harness.ts"
import { realOracle, uniqueName, useServer, withConnection } from "./support.ts"

// Connection.cancel while a query's result is being read: a fetch in flight is broken on the server (ORA-01013), and
// a reader between two reads is cancelled, so its next read fails ORA-01013 and releases the server cursor. The
// test server holds every reply after the first batch (`replyDelayMs`), as a server still producing rows would.
const server = useServer()

/** Five rows per round trip and per batch: a 50-row table is read in ten fetches. */
const SMALL_FETCHES = {
  "redo.statement.fetch_array_size": "5",
  "redo.statement.prefetch_rows": "5",
  "redo.statement.read_batch_rows": "5"
}

const fiftyRows = Effect.gen(function*() {
  const conn = yield* Connection.Connection
  const table = uniqueName("CNL")
  const data = new Arrow.Table({ N: Arrow.vectorFromArray(Array.from({ length: 50 }, (_, i) => i), new Arrow.Int32()) })
  yield* conn.ingest(fromTable(data), { targetTable: table })
  return `SELECT "N" FROM "${table}" ORDER BY "N"`
})

const setReplyDelay = (ms: number) =>
  Effect.sync(() => {
    server.server!.faults.replyDelayMs = ms
  })

/** The cancel failed the read with ORA-01013, the connection reads on, and no result stays open on the server. */
const expectCancelled = (exit: Exit.Exit<unknown, AdbcError>) =>
  Effect.gen(function*() {
    const error = failure(exit)
    expect(error.status).toBe("CANCELLED")
    expect(error.vendorCode).toBe(1013)
    expect(error.message).toMatch(/^ORA-01013/)
    const conn = yield* Connection.Connection
    const next = new Arrow.Table(yield* Stream.runCollect(conn.query("SELECT 7 AS X FROM DUAL")))
    expect(Number(next.getChild("X")!.get(0))).toBe(7)
    expect(server.server!.openResultSets()).toBe(0)
  })

describe.skipIf(realOracle)("Connection.cancel while a result is read", () => {
  it.live("a fetch in flight is broken: the stream fails ORA-01013 (CANCELLED) at once, not after the held reply", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const sql = yield* fiftyRows
      let batches = 0
      const reading = yield* Effect.forkChild(Stream.runCollect(conn.query(sql, SMALL_FETCHES).pipe(
        Stream.tap(() =>
          Effect.sync(() => {
            // every reply from now on is held 3 s: the next fetch is in flight when the cancel comes
            if (++batches === 1) server.server!.faults.replyDelayMs = 3000
          })
        )
      )))
      yield* Effect.sleep("300 millis")
      expect(batches).toBe(1)
      const started = Date.now()
      yield* conn.cancel
      // the held fetch stays held; the replies after it (the cursor's release) are not
      yield* setReplyDelay(0)
      const exit = yield* Fiber.await(reading)
      const ms = Date.now() - started
      // within the answer budget, far below the 3 s the reply was held
      expect(ms).toBeLessThan(1000)
      expect(batches).toBe(1)
      yield* expectCancelled(exit)
    }).pipe(Effect.ensuring(setReplyDelay(0)))), 30_000)

  it.live("a reader between two pulls is cancelled: its next pull fails ORA-01013 (CANCELLED) and its cursor is released", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const sql = yield* fiftyRows
      const exit = yield* Effect.scoped(Effect.gen(function*() {
        const stmt = yield* conn.statement()
        yield* stmt.setSqlQuery(sql)
        for (const [key, value] of Object.entries(SMALL_FETCHES)) yield* stmt.setOption(key, value)
        const reader = yield* stmt.executeQuery
        const pull = yield* Stream.toPull(reader.batches)
        const first = yield* pull
        expect(first.length).toBeGreaterThan(0)
        // the server still holds the rest of the result
        expect(server.server!.openResultSets()).toBe(1)
        yield* conn.cancel
        return yield* Effect.exit(Effect.catchIf(pull, Cause.isDone, () => Effect.die(new Error("the result ended"))))
      }))
      yield* expectCancelled(exit)
    })), 30_000)

  it.live("with nothing running and no reader open, cancel is INVALID_STATE; a result read to its end is not cancelled afterwards", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      expect(failure(yield* Effect.exit(conn.cancel)).status).toBe("INVALID_STATE")
      const sql = yield* fiftyRows
      const rows = new Arrow.Table(yield* Stream.runCollect(conn.query(sql, SMALL_FETCHES)))
      expect(rows.numRows).toBe(50)
      expect(failure(yield* Effect.exit(conn.cancel)).status).toBe("INVALID_STATE")
      expect(new Arrow.Table(yield* Stream.runCollect(conn.query(sql, SMALL_FETCHES))).numRows).toBe(50)
    })), 30_000)
})
