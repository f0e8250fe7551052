import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Deferred, Effect, Exit, Fiber, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { failure } from "../conformance/harness.ts"
import { realHana, uniqueName, useServer, withConnection } from "./support.ts"

// Connection.cancel while a FETCH is in flight: the server is asked to cancel it (ALTER SYSTEM CANCEL SESSION), and
// the read fails CANCELLED even when the FETCH was answered anyway (the test server holds its reply all the same; a
// real HANA cancels the FETCH itself). A cancel between two reads of a reader is the conformance rule "cancel while
// reading" (test/conformance/rules/cancel.ts).
const server = useServer()

// hdb's MessageType.FETCH_NEXT
const FETCH_NEXT = 71

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
      // the first page comes with the EXECUTE reply; every FETCH's reply is held until the cancel is done, so the
      // FETCH of the second page (sent ahead by the driver while the first batch is read, or on demand) is in flight
      // when the cancel comes, and the test learns so from the server, not from a sleep
      const fetchHeld = yield* Deferred.make<void>()
      const cancelDone = yield* Deferred.make<void>()
      server.server!.faults.holdReplies = {
        messageTypes: [FETCH_NEXT],
        until: Effect.runPromise(Deferred.await(cancelDone)),
        onHeld: () => Deferred.doneUnsafe(fetchHeld, Exit.void)
      }
      const reading = yield* Effect.forkChild(Stream.runCollect(conn.query(`SELECT "N" FROM "${table}" ORDER BY "N"`, options).pipe(
        Stream.tap(() => Effect.sync(() => void ++batches))
      )))
      yield* Deferred.await(fetchHeld)
      // the cancel's own session runs no FETCH, so it is not held
      yield* conn.cancel
      yield* Deferred.succeed(cancelDone, undefined)
      const error = failure(yield* Fiber.await(reading))
      expect(batches).toBe(1)
      expect(error.status).toBe("CANCELLED")
      expect(error.vendorCode).toBe(139)
      const next = new Arrow.Table(yield* Stream.runCollect(conn.query("SELECT 7 AS X FROM DUMMY")))
      expect(Number(next.getChild("X")!.get(0))).toBe(7)
      expect(server.server!.openResultSets()).toBe(0)
    }).pipe(Effect.ensuring(Effect.sync(() => {
      server.server!.faults.holdReplies = undefined
    })))), 30_000)
})
