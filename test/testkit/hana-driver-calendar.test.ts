import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { epochDayOf } from "../../layers/common/ArrowCells.ts"
import { useServer, withConnection } from "../hana/support.ts"

// The HANA driver and the test server number days before 1582-10-15 as HANA does (Julian labels, day 1 =
// 0001-01-01); a date written through the driver comes back through it with the same label.
const server = useServer()

describe("HANA driver ↔ test server: early dates round-trip", () => {
  it.effect("ingests and reads back DATE and TIMESTAMP values before, at and after the Gregorian switch", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const labels: ReadonlyArray<readonly [number, number, number]> = [[1, 1, 1], [1500, 3, 1], [1582, 10, 4], [1582, 10, 15], [2024, 2, 29]]
      const days = labels.map(([y, m, d]) => epochDayOf(y, m, d))
      const data = new Arrow.Table({
        k: Arrow.vectorFromArray(labels.map((_, i) => i), new Arrow.Int32()),
        d: Arrow.makeVector(Arrow.makeData({ type: new Arrow.DateDay(), length: days.length, nullCount: 0, data: Int32Array.from(days) })),
        ts: Arrow.makeVector(Arrow.makeData({
          type: new Arrow.TimestampMicrosecond(), length: days.length, nullCount: 0,
          data: BigInt64Array.from(days.map((d) => BigInt(d) * 86_400_000_000n + 3_723_000_001n))
        }))
      })
      expect(yield* conn.ingest(fromTable(data), { targetTable: "EARLY_DATES" })).toBe(labels.length)
      const table = new Arrow.Table(yield* Stream.runCollect(conn.query(`SELECT "d", "ts" FROM EARLY_DATES ORDER BY "k"`)))
      expect(Array.from(table.getChild("d")!.data[0]!.values as Int32Array)).toEqual(days)
      const ts = table.getChild("ts")!
      const micros = Array.from({ length: ts.length }, (_, i) => BigInt(ts.data[0]!.values[i] as bigint))
      const unit = (ts.type as Arrow.Timestamp).unit
      const scale = unit === Arrow.TimeUnit.NANOSECOND ? 1000n : 1n
      expect(micros).toEqual(days.map((d) => (BigInt(d) * 86_400_000_000n + 3_723_000_001n) * scale))
    })))
})
