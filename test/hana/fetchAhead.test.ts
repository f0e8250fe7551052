import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { realHana, uniqueName, useServer, withConnection } from "./support.ts"

// The HANA driver sends a result's next FETCH_NEXT when it hands out a page, so the server prepares page n+1 while
// the client decodes page n (layers/hana/README.md). The test server reports each FETCH_NEXT it receives.
const server = useServer()

// hdb's MessageType.FETCH_NEXT
const FETCH_NEXT = 71

describe.skipIf(realHana)("HANA read: the next page is fetched ahead", () => {
  it.live("reading only the first batch has already sent the second page's FETCH; closing the reader leaves no result set open", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const table = uniqueName("AHEAD")
      const data = new Arrow.Table({ N: Arrow.vectorFromArray(Array.from({ length: 100 }, (_, i) => i), new Arrow.Int32()) })
      yield* conn.ingest(fromTable(data), { targetTable: table })
      // five rows per FETCH and per batch; the first page (of the server's own size) comes with the EXECUTE reply
      const options = { "dba.statement.fetch_size": "5", "dba.statement.read_batch_rows": "5" }
      let fetches = 0
      server.server!.faults.holdReplies = {
        messageTypes: [FETCH_NEXT],
        until: Promise.resolve(),
        onHeld: () => void ++fetches
      }
      const first = yield* Stream.runCollect(Stream.take(conn.query(`SELECT "N" FROM "${table}" ORDER BY "N"`, options), 1))
      expect(first.length).toBe(1)
      expect(first[0]!.numRows).toBeLessThan(100)
      // the reader asked for one page only; the FETCH of the second went out with the first
      expect(fetches).toBe(1)
      expect(server.server!.openResultSets()).toBe(0)
      const all = yield* Stream.runCollect(conn.query(`SELECT "N" FROM "${table}" ORDER BY "N"`, options))
      expect(new Arrow.Table(all).getChild("N")!.toArray()).toEqual(Int32Array.from({ length: 100 }, (_, i) => i))
    }).pipe(Effect.ensuring(Effect.sync(() => {
      server.server!.faults.holdReplies = undefined
    })))), 30_000)
})
