import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Cause, Effect, type Exit, Fiber, Stream } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { failure } from "../conformance/harness.ts"
import { realHana, uniqueName, useServer, withConnection } from "./support.ts"

// Connection.cancel while a query's result is being read: a FETCH in flight is cancelled on the server (ALTER SYSTEM
// CANCEL SESSION), and a reader between two reads is cancelled, so its next read fails CANCELLED (error 139) and
// closes its result set on the server instead of reading on.
const server = useServer()

/** Five rows per FETCH and per batch: a 50-row table is read in ten fetches. */
const SMALL_FETCHES = { "dba.statement.fetch_size": "5", "dba.statement.read_batch_rows": "5" }

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

/** The cancel failed the read with error 139, the connection reads on, and no result stays open on the server. */
const expectCancelled = (exit: Exit.Exit<unknown, AdbcError>) =>
  Effect.gen(function*() {
    const error = failure(exit)
    expect(error.status).toBe("CANCELLED")
    expect(error.vendorCode).toBe(139)
    const conn = yield* Connection.Connection
    const next = new Arrow.Table(yield* Stream.runCollect(conn.query("SELECT 7 AS X FROM DUMMY")))
    expect(Number(next.getChild("X")!.get(0))).toBe(7)
    expect(server.server!.openResultSets()).toBe(0)
  })

describe.skipIf(realHana)("Connection.cancel while a result is read", () => {
  it.live("a cancel while a FETCH is in flight fails the stream CANCELLED instead of reading on", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const sql = yield* fiftyRows
      let batches = 0
      const reading = yield* Effect.forkChild(Stream.runCollect(conn.query(sql, SMALL_FETCHES).pipe(
        Stream.tap(() =>
          Effect.sync(() => {
            // the next FETCH's reply is held 1.5 s: it is in flight when the cancel comes
            if (++batches === 1) server.server!.faults.replyDelayMs = 1500
          })
        )
      )))
      yield* Effect.sleep("300 millis")
      expect(batches).toBe(1)
      // the cancel's own session is not held (the test server holds the FETCH reply all the same, so the stream
      // ends when it comes: a real HANA cancels the FETCH itself)
      const cancelling = yield* Effect.forkChild(conn.cancel)
      yield* setReplyDelay(0)
      yield* Fiber.join(cancelling)
      const exit = yield* Fiber.await(reading)
      expect(batches).toBe(1)
      yield* expectCancelled(exit)
    }).pipe(Effect.ensuring(setReplyDelay(0)))), 30_000)

  it.live("a reader between two pulls is cancelled: its next pull fails CANCELLED and its result set is closed", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const sql = yield* fiftyRows
      const exit = yield* Effect.scoped(Effect.gen(function*() {
        const stmt = yield* conn.statement()
        yield* stmt.setSqlQuery(sql)
        for (const [key, value] of Object.entries(SMALL_FETCHES)) yield* stmt.setOption(key, value)
        const reader = yield* stmt.executeQuery
        const pull = yield* Stream.toPull(reader.batches)
        expect((yield* pull).length).toBeGreaterThan(0)
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
      const sql = yield* fiftyRows
      expect(new Arrow.Table(yield* Stream.runCollect(conn.query(sql, SMALL_FETCHES))).numRows).toBe(50)
      expect(failure(yield* Effect.exit(conn.cancel)).status).toBe("INVALID_STATE")
      expect(new Arrow.Table(yield* Stream.runCollect(conn.query(sql, SMALL_FETCHES))).numRows).toBe(50)
    })), 30_000)
})
