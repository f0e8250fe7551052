import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { EXECUTE, recordingProxy } from "../support/hanaPackets.ts"
import type { PacketSeen } from "../support/hanaPackets.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

// The test server inserts a parameter batch row by row into DuckDB (~0.3 ms per row), so this file holds only the
// one large ingest.
const server = useServer()

const rowsOf = (sql: string) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(Stream.runCollect(conn.query(sql)), (batches) => new Arrow.Table(batches)))

describe("large ingest", () => {
  it.effect("ingests 100,000 rows of 6 bytes in parts split by packet size; all-null rows too", () =>
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

  it.effect("rows of one BOOLEAN (2 bytes) fill no packet before 32,767 rows: every part stops below that, and every row arrives", () => {
    const seen: Array<PacketSeen> = []
    return Effect.acquireUseRelease(
      Effect.promise(() => recordingProxy(server.uri, seen)),
      (proxy) =>
        withConnection(proxy.uri, Effect.gen(function*() {
          const conn = yield* Connection.Connection
          const t = uniqueName("NARROW")
          const n = 70_000
          const data = new Arrow.Table({
            b: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => i % 3 === 0), new Arrow.Bool())
          })
          expect(data.batches.length).toBe(1)
          yield* conn.execute(`CREATE COLUMN TABLE "${t}" ("b" BOOLEAN)`)
          const before = seen.length
          expect(yield* conn.ingest(fromTable(data), { targetTable: t, mode: "append" })).toBe(n)
          // The ingest's one-row EXECUTEs are its catalog look-ups; the INSERT's parts carry many rows each.
          const rows = seen.slice(before).flatMap((p) =>
            p.messageType === EXECUTE && p.parameterRows !== undefined && p.parameterRows > 1 ? [p.parameterRows] : []
          )
          // 70,000 rows of 2 bytes take about 140 KB, so the 128 KiB packet alone would put some 65,000 rows in the
          // first part: more than the part header's Int16 argument count holds. The row cap must split them first.
          expect(Math.max(...rows)).toBeLessThanOrEqual(32_767)
          expect(rows.reduce((a, b) => a + b, 0)).toBe(n)
          expect(rows.length).toBe(3)
          const table = yield* rowsOf(`SELECT COUNT(*) AS C, SUM(CASE WHEN "b" THEN 1 ELSE 0 END) AS T FROM "${t}"`)
          expect(Number(table.getChild("C")!.get(0))).toBe(n)
          expect(Number(table.getChild("T")!.get(0))).toBe(Math.ceil(n / 3))
          yield* conn.execute(`DROP TABLE "${t}"`)
        })),
      (proxy) => Effect.promise(() => proxy.close())
    )
  }, 120_000)
})
