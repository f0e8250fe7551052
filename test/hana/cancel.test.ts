import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Fiber, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { failure } from "../conformance/harness.ts"
import { realHana, uniqueName, useServer, withConnection } from "./support.ts"

// Connection.cancel while a FETCH is in flight: the server is asked to cancel it (ALTER SYSTEM CANCEL SESSION), and
// the read fails CANCELLED even when the FETCH was answered anyway (the test server holds its reply all the same; a
// real HANA cancels the FETCH itself). A cancel between two reads of a reader is the conformance rule "cancel while
// reading" (test/conformance/rules/cancel.ts).
const server = useServer()

const setReplyDelay = (ms: number) =>
  Effect.sync(() => {
    server.server!.faults.replyDelayMs = ms
  })

describe.skipIf(realHana)("Connection.cancel while a FETCH is in flight", () => {
  it.live("the stream fails CANCELLED (139) instead of reading on; the connection reads on, no result set stays open", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const table = uniqueName("CNL")
      const data = new Arrow.Table({ N: Arrow.vectorFromArray(Array.from({ length: 50 }, (_, i) => i), new Arrow.Int32()) })
      yield* conn.ingest(fromTable(data), { targetTable: table })
      // five rows per FETCH and per batch: ten fetches
      const options = { "dba.statement.fetch_size": "5", "dba.statement.read_batch_rows": "5" }
      let batches = 0
      const reading = yield* Effect.forkChild(Stream.runCollect(conn.query(`SELECT "N" FROM "${table}" ORDER BY "N"`, options).pipe(
        Stream.tap(() =>
          Effect.sync(() => {
            // the next FETCH's reply is held 1.5 s: it is in flight when the cancel comes
            if (++batches === 1) server.server!.faults.replyDelayMs = 1500
          })
        )
      )))
      yield* Effect.sleep("300 millis")
      expect(batches).toBe(1)
      // the cancel's own session is not held
      const cancelling = yield* Effect.forkChild(conn.cancel)
      yield* setReplyDelay(0)
      yield* Fiber.join(cancelling)
      const error = failure(yield* Fiber.await(reading))
      expect(batches).toBe(1)
      expect(error.status).toBe("CANCELLED")
      expect(error.vendorCode).toBe(139)
      const next = new Arrow.Table(yield* Stream.runCollect(conn.query("SELECT 7 AS X FROM DUMMY")))
      expect(Number(next.getChild("X")!.get(0))).toBe(7)
      expect(server.server!.openResultSets()).toBe(0)
    }).pipe(Effect.ensuring(setReplyDelay(0)))), 30_000)
})
