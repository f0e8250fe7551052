import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Result } from "effect"
import { BatchAssembler } from "../../src/arrow/index.ts"
import { hanaPage } from "../../layers/hana/ResultPage.ts"
import { arrowColumn, TypeCode } from "../../layers/hana/Types.ts"

const TICKS_PER_DAY = 864_000_000_000n
/** HANA day number of 1970-01-01 (day 1 is 0001-01-01; hdb lib/util/calendar.js). */
const EPOCH_DAYDATE = 719165n

/** Days since 1970-01-01 of a proleptic Gregorian date (from 1582-10-15 on, HANA's labels are Gregorian). */
const epochDay = (year: number, month: number, day: number): bigint => {
  const d = new Date(0)
  d.setUTCFullYear(year, month - 1, day)
  return BigInt(Math.round(d.getTime() / 86_400_000))
}

/**
 * A LONGDATE cell as HANA sends it: 100 ns ticks since 0001-01-01 00:00:00 (HANA's day 1) + 1, little-endian
 * (hdb lib/protocol/Writer.js writeLongDate: `(dayDate - 1) * dayFactor + timeValue + 1`).
 */
const longdate = (hanaDay: bigint, secondOfDay: number, tickOfSecond: number): Buffer => {
  const b = Buffer.alloc(8)
  b.writeBigInt64LE((hanaDay - 1n) * TICKS_PER_DAY + BigInt(secondOfDay) * 10_000_000n + BigInt(tickOfSecond) + 1n)
  return b
}

/** The timestamp[us] values the driver decodes from LONGDATE cells. */
const decode = (cells: ReadonlyArray<Buffer>): Array<bigint> => {
  const column = Result.getOrThrow(arrowColumn({ name: "T", dataType: TypeCode.LONGDATE, length: 27, fraction: 7, nullable: true }))
  const assembler = new BatchAssembler(new Arrow.Schema([column.field]), { maxRows: 1000, mode: "hard" })
  const batches = [...assembler.push(hanaPage(Buffer.concat(cells), cells.length, [column]))]
  const last = assembler.flush()
  if (last !== undefined) batches.push(last)
  const table = new Arrow.Table(batches)
  expect(String(table.schema.fields[0]!.type)).toBe("Timestamp<MICROSECOND, UTC>")
  return table.getChild("T")!.data.flatMap((d) => [...(d.values as BigInt64Array)])
}

describe("HANA driver: LONGDATE's seventh fraction digit (read as timestamp[us], docs/types.md)", () => {
  it("is truncated, never rounded, across HANA's whole range (0001-01-01 .. 9999-12-31), before and after 1970", () => {
    const cases: Array<[Buffer, bigint]> = [
      // 0001-01-01 00:00:00.0000009: HANA's day 1, a Julian label, is Arrow's proleptic 0001-01-01
      [longdate(1n, 0, 9), epochDay(1, 1, 1) * 86_400_000_000n],
      // 1969-12-31 23:59:59.9999999: negative microseconds, truncated towards the earlier instant
      [longdate(EPOCH_DAYDATE - 1n, 86_399, 9_999_999), -1n],
      // 2024-01-02 03:04:05.1234567
      [longdate(epochDay(2024, 1, 2) + EPOCH_DAYDATE, 3 * 3600 + 4 * 60 + 5, 1_234_567), epochDay(2024, 1, 2) * 86_400_000_000n + 11_045_123_456n],
      // 2024-01-02 03:04:05.9999995: rounding would carry into the next second
      [longdate(epochDay(2024, 1, 2) + EPOCH_DAYDATE, 3 * 3600 + 4 * 60 + 5, 9_999_995), epochDay(2024, 1, 2) * 86_400_000_000n + 11_045_999_999n],
      // 9999-12-31 23:59:59.9999999: rounding would leave HANA's range
      [longdate(epochDay(9999, 12, 31) + EPOCH_DAYDATE, 86_399, 9_999_999), epochDay(9999, 12, 31) * 86_400_000_000n + 86_399_999_999n]
    ]
    expect(decode(cases.map(([cell]) => cell))).toEqual(cases.map(([, micros]) => micros))
  })
})
