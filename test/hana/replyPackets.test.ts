import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import { BatchAssembler } from "../../src/arrow/index.ts"
import * as Connection from "../../src/Connection.ts"
import { mapColumns } from "../../layers/hana/Cursor.ts"
import * as Hdb from "../../layers/hana/DbCalls.ts"
import { releasePage } from "../../layers/hana/DbPatches.ts"
import { hanaPage } from "../../layers/hana/WirePage.ts"
import { rechunkingProxy } from "../support/hanaPackets.ts"
import { realHana, uniqueName, useServer, withConnection } from "./support.ts"

// How the driver takes hdb's reply packets (layers/hana/DbPatches.ts): whole packets assembled from the socket's
// chunks, large RESULT_SET parts read in place, and a page's packet freed once its rows are decoded.
const server = useServer()

const ROWS = 6000
const createTable = (name: string) =>
  `CREATE COLUMN TABLE "${name}" AS (SELECT CAST(GENERATED_PERIOD_START AS INTEGER) AS ID,
    'value number ' || GENERATED_PERIOD_START AS TXT FROM SERIES_GENERATE_INTEGER(1, 0, ${ROWS}))`

const hdbOptions = (uri: string) => {
  const url = new URL(uri.replace(/^hdb:/, "http:"))
  return { host: url.hostname, port: Number(url.port), user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
}

const readAll = (uri: string, sql: string) =>
  withConnection(uri, Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(Stream.runCollect(conn.query(sql, { "dba.statement.fetch_size": "2500" })), (batches) => new Arrow.Table(batches))))

describe.skipIf(realHana)("HANA reply packets", () => {
  it.live("replies cut into chunks of 1 to 4,099 bytes after the connect (packet headers split too) decode to the same rows", () =>
    Effect.gen(function*() {
      const table = uniqueName("CHUNKED")
      yield* withConnection(server.uri, Effect.flatMap(Connection.Connection, (conn) => conn.execute(createTable(table))))
      const sql = `SELECT ID, TXT FROM "${table}" ORDER BY ID`
      const direct = yield* readAll(server.uri, sql)
      const chunked = yield* Effect.acquireUseRelease(
        Effect.promise(() => rechunkingProxy(server.uri, [1, 5, 31, 4099, 17, 2048, 3, 1000])),
        (proxy) => readAll(proxy.uri, sql),
        (proxy) => Effect.promise(() => proxy.close())
      )
      expect(chunked.numRows).toBe(ROWS)
      expect(chunked.getChild("ID")!.toArray()).toEqual(direct.getChild("ID")!.toArray())
      expect(chunked.getChild("TXT")!.toArray()).toEqual(direct.getChild("TXT")!.toArray())
      expect(chunked.getChild("TXT")!.get(ROWS - 1)).toBe(`value number ${ROWS - 1}`)
    }), 60_000)

  it.live("a large page is read in place and its packet's memory freed once decoded; the decoded rows stay intact", () =>
    Effect.acquireUseRelease(
      Hdb.connect(hdbOptions(server.uri), 10_000),
      (client) =>
        Effect.gen(function*() {
          const table = uniqueName("INPLACE")
          yield* Hdb.executeDirect(client, createTable(table))
          const outcome = yield* Hdb.executeDirect(client, `SELECT ID, TXT FROM "${table}" ORDER BY ID`)
          if (outcome._tag !== "Rows") throw new Error("expected rows")
          const columns = yield* mapColumns(outcome.metadata)
          const skipped = outcome.first?.argumentCount ?? 0
          const page = yield* Hdb.fetchNext(client, outcome.id, ROWS)
          const buffer = page.buffer!
          // 6,000 rows of about 25 bytes: above the 64 KiB from which a page is read in place
          expect(buffer.length).toBeGreaterThan(64 * 1024)
          const assembler = new BatchAssembler(new Arrow.Schema(columns.map((c) => c.field)), { maxRows: ROWS, mode: "hard" })
          let freed = false
          const batches = assembler.push(hanaPage(buffer, page.argumentCount, columns, [], () => {
            releasePage(buffer)
            freed = true
          }))
          const last = assembler.flush()
          if (last !== undefined) batches.push(last)
          expect(freed).toBe(true)
          // the packet's memory is gone: the page's view of it is empty
          expect(buffer.length).toBe(0)
          expect(buffer.buffer.byteLength).toBe(0)
          const rows = new Arrow.Table(batches)
          expect(rows.numRows).toBe(page.argumentCount)
          expect(rows.getChild("ID")!.get(0)).toBe(skipped)
          expect(rows.getChild("TXT")!.get(0)).toBe(`value number ${skipped}`)
          expect(rows.getChild("TXT")!.get(page.argumentCount - 1)).toBe(`value number ${skipped + page.argumentCount - 1}`)
          yield* Hdb.closeResultSet(client, outcome.id)
        }),
      Hdb.disconnect
    ), 60_000)
})
