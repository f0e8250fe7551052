import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

// The test server inserts a parameter batch row by row into DuckDB (~0.3 ms per row), so this file holds only the
// one large ingest.
const server = useServer()

const rowsOf = (sql: string) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(Stream.runCollect(conn.query(sql)), (batches) => new Arrow.Table(batches)))

describe("large ingest", () => {
  it.effect("ingests 100,000 rows in batches split below hdb's 32,767-row limit; all-null rows too", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("BIG")
      const n = 100_000
      const data = new Arrow.Table({
        id: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => i), new Arrow.Int32()),
        v: Arrow.vectorFromArray(Array.from({ length: n }, () => null), new Arrow.Float64())
      })
      expect(yield* conn.ingest(fromTable(data), { targetTable: t })).toBe(n)
      const table = yield* rowsOf(`SELECT COUNT(*) AS C, MIN("id") AS LO, MAX("id") AS HI, COUNT("v") AS V FROM "${t}"`)
      expect(Number(table.getChild("C")!.get(0))).toBe(n)
      expect(Number(table.getChild("LO")!.get(0))).toBe(0)
      expect(Number(table.getChild("HI")!.get(0))).toBe(n - 1)
      expect(Number(table.getChild("V")!.get(0))).toBe(0)
      // Read back through the reader: every id exactly once.
      const back = yield* rowsOf(`SELECT "id" FROM "${t}"`)
      expect(back.numRows).toBe(n)
      const seen = new Uint8Array(n)
      for (const id of back.getChild("id")!.toArray() as Int32Array) seen[id] = 1
      expect(seen.every((x) => x === 1)).toBe(true)
      yield* conn.execute(`DROP TABLE "${t}"`)
    })), 120_000)

})
