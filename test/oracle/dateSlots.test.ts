import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

// The wire decoder of batch mode (layers/oracle/WirePage.ts) and the test server's bind-row decoder
// (testkit/oracle/bind-row-decoder.ts) memoise the day of DATE / TIMESTAMP bytes in a table of 4,096 slots chosen from
// the year of the century, month and day; the server's result encoder memoises date bytes per day number
// (testkit/oracle/encode.ts). Dates 32 years apart with the same month and day share a slot of the first two, dates
// 4,096 days apart one of the third; and 1932 and 2032 differ only in their century byte. Ingesting and reading such
// dates next to each other shows any value taken from a slot that holds another date.

const server = useServer()

const DAY_MS = 86_400_000
const dayOf = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / DAY_MS

/** Raw int64 cells of column `name`. */
const int64Cells = (table: Arrow.Table, name: string): Array<bigint> => {
  const out: Array<bigint> = []
  for (const data of table.getChild(name)!.data) for (let k = 0; k < data.length; k++) out.push((data.values as BigInt64Array)[k]!)
  return out
}

describe("dates that share a slot of the decoders' day tables", () => {
  it.effect("ingest (executeMany binds) and batch-mode reads keep each date and timestamp, alternating within one call and one page", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const base = ["2000-05-05", "2032-05-05", "1968-05-05", "1932-05-05", "2064-05-05", "2000-05-05", "1999-12-31", "2031-12-31"]
      const spread = [0, 4096, -4096, 8192, 1, 4097].map((d) => d + dayOf("2010-01-01"))
      const days = [...base.map(dayOf), ...spread]
      // 100,000 rows: two calls of the default 65,536 rows, large enough (over 256 KB) for the server's bind-row decoder,
      // which takes at least the second call (the first may arrive before the server has looked up the table)
      const rows = Array.from({ length: 100_000 }, (_, i) => days[i % days.length]!)
      // seconds of the day differ per row, so that the timestamps are not the dates
      const micros = rows.map((d, i) => BigInt(d) * 86_400_000_000n + BigInt((i * 7919) % 86_400) * 1_000_000n + BigInt(i % 1_000_000))
      const t = uniqueName("DSL")
      // created ahead, as an application appending to its table does (the server's bind-row decoder takes INSERTs into
      // a table it knows when the request arrives)
      yield* conn.execute(`CREATE TABLE "${t}" ("K" NUMBER(10), "D" DATE, "T" TIMESTAMP(6))`)
      yield* conn.ingest(fromTable(new Arrow.Table({
        K: Arrow.vectorFromArray(rows.map((_, i) => i), new Arrow.Int32()),
        D: Arrow.makeVector(Arrow.makeData({ type: new Arrow.DateDay(), length: rows.length, data: Int32Array.from(rows) })),
        T: Arrow.makeVector(Arrow.makeData({ type: new Arrow.TimestampMicrosecond(), length: rows.length, data: BigInt64Array.from(micros) }))
      })), { targetTable: t, mode: "append" })
      const back = yield* Effect.map(
        Stream.runCollect(conn.query(`SELECT "D", "T", TO_CHAR("D", 'YYYY-MM-DD') "DT" FROM "${t}" ORDER BY "K"`, { "redo.statement.execution_mode": "batch" })),
        (batches) => new Arrow.Table(batches)
      )
      // the DATE column ingested from date32 reads back as date32 (days), the TIMESTAMP(6) as microseconds
      expect(String(back.schema.fields[0]!.type)).toBe("Date32<DAY>")
      const gotDays: Array<number> = []
      for (const data of back.getChild("D")!.data) gotDays.push(...(data.values as Int32Array).subarray(0, data.length))
      expect(gotDays).toEqual(rows)
      expect(int64Cells(back, "T")).toEqual(micros)
      expect(back.getChild("DT")!.toArray()).toEqual(rows.map((day) => new Date(day * DAY_MS).toISOString().slice(0, 10)))
    })))
})
