import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Fiber, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { failure } from "../conformance/harness.ts"
import { realOracle, uniqueName, useServer, withConnection } from "./support.ts"

// Connection.cancel while a fetch is in flight breaks it on the server (ORA-01013). The test server holds the FETCH
// reply (`replyDelayMs`) as a server still producing rows would, and answers the break at once. A cancel between two
// reads of a reader is the conformance rule "cancel while reading" (test/conformance/rules/cancel.ts).
const server = useServer()

const setReplyDelay = (ms: number) =>
  Effect.sync(() => {
    server.server!.faults.replyDelayMs = ms
  })

describe.skipIf(realOracle)("Connection.cancel while a fetch is in flight", () => {
  it.live("the fetch is broken: the stream fails ORA-01013 (CANCELLED) at once, not after the held reply; no cursor stays open", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const table = uniqueName("CNL")
      const data = new Arrow.Table({ N: Arrow.vectorFromArray(Array.from({ length: 50 }, (_, i) => i), new Arrow.Int32()) })
      yield* conn.ingest(fromTable(data), { targetTable: table })
      // five rows per round trip and per batch: ten fetches
      const options = {
        "redo.statement.fetch_array_size": "5",
        "redo.statement.prefetch_rows": "5",
        "redo.statement.read_batch_rows": "5"
      }
      let batches = 0
      // the server asks holdReplies before each reply (faults.ts): asked after batch 1, the next FETCH has reached it
      let fetchArrived!: () => void
      const nextFetch = new Promise<void>((r) => (fetchArrived = r))
      const reading = yield* Effect.forkChild(Stream.runCollect(conn.query(`SELECT "N" FROM "${table}" ORDER BY "N"`, options).pipe(
        Stream.tap(() =>
          Effect.sync(() => {
            // every reply from now on is held 3 s: the next fetch is in flight when the cancel comes
            if (++batches === 1) {
              server.server!.faults.replyDelayMs = 3000
              server.server!.faults.holdReplies = () => (fetchArrived(), undefined)
            }
          })
        )
      )))
      // synchronised on the server, not on a timer: on a loaded machine 300 ms could pass before that fetch was sent
      yield* Effect.promise(() => nextFetch)
      delete server.server!.faults.holdReplies
      expect(batches).toBe(1)
      const started = Date.now()
      yield* conn.cancel
      // the held fetch stays held; the replies after it (the cursor's release) are not
      yield* setReplyDelay(0)
      const error = failure(yield* Fiber.await(reading))
      // within the answer budget, far below the 3 s the reply was held
      expect(Date.now() - started).toBeLessThan(1000)
      expect(batches).toBe(1)
      expect(error.status).toBe("CANCELLED")
      expect(error.vendorCode).toBe(1013)
      expect(error.message).toMatch(/^ORA-01013/)
      const next = new Arrow.Table(yield* Stream.runCollect(conn.query("SELECT 7 AS X FROM DUAL")))
      expect(Number(next.getChild("X")!.get(0))).toBe(7)
      expect(server.server!.openResultSets()).toBe(0)
    }).pipe(Effect.ensuring(setReplyDelay(0)))), 30_000)
})
