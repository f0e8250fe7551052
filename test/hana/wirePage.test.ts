import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Result } from "effect"
import { BatchAssembler } from "../../src/arrow/index.ts"
import { hanaPage } from "../../layers/hana/WirePage.ts"
import { arrowColumn, TypeCode } from "../../layers/hana/ReadTypes.ts"

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

/** A FIXED8/12/16 cell as HANA sends it: indicator 1, then the unscaled value in `bytes` little-endian bytes. */
const fixedCell = (value: bigint, bytes: number): Buffer => {
  const b = Buffer.alloc(1 + bytes)
  b[0] = 1
  let v = BigInt.asUintN(bytes * 8, value)
  for (let i = 1; i <= bytes; i++) {
    b[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return b
}

/** The unscaled values of a decimal128 column decoded from FIXED cells (null cells as null). */
const decodeFixed = (dataType: number, length: number, cells: ReadonlyArray<Buffer>): Array<bigint | null> => {
  const column = Result.getOrThrow(arrowColumn({ name: "D", dataType, length, fraction: 2, nullable: true }))
  const assembler = new BatchAssembler(new Arrow.Schema([column.field]), { maxRows: 1000, mode: "hard" })
  const batches = [...assembler.push(hanaPage(Buffer.concat(cells), cells.length, [column]))]
  const last = assembler.flush()
  if (last !== undefined) batches.push(last)
  return batches.flatMap((batch) => {
    const data = batch.getChildAt(0)!.data[0]!
    const words = data.values as Uint32Array
    return Array.from({ length: data.length }, (_, i) => {
      if (!data.getValid(i)) return null
      let v = 0n
      for (let k = 3; k >= 0; k--) v = (v << 32n) | BigInt(words[i * 4 + k]!)
      return BigInt.asIntN(128, v)
    })
  })
}

describe("HANA driver: FIXED8/12/16 cells (decimal128 unscaled values)", () => {
  // Values at the edges of the number fast path (safe integers) and beyond it, where the decoder needs a bigint.
  const edges = [0n, 1n, -1n, 4294967295n, 4294967296n, -4294967296n, 2n ** 53n - 1n, -(2n ** 53n) + 1n, 2n ** 53n, -(2n ** 53n)]
  const int64 = [10n ** 18n - 1n, -(10n ** 18n) + 1n]
  const wide = [2n ** 64n, -(2n ** 64n), 2n ** 64n + 5n, -(2n ** 64n) - 5n, 10n ** 27n, -(10n ** 27n), 2n ** 70n + 2n ** 40n]
  it.each([
    ["FIXED8", TypeCode.FIXED8, 18, 8, [...edges, ...int64]],
    ["FIXED12", TypeCode.FIXED12, 28, 12, [...edges, ...int64, 2n ** 63n - 1n, -(2n ** 63n), ...wide]],
    ["FIXED16", TypeCode.FIXED16, 38, 16, [...edges, ...int64, 2n ** 63n - 1n, -(2n ** 63n), ...wide, 10n ** 37n, -(10n ** 37n)]]
  ])("%s decodes safe-integer and wider values exactly", (_, dataType, precision, bytes, values) => {
    const cells = [...values.map((v) => fixedCell(v, bytes)), Buffer.from([0])]
    expect(decodeFixed(dataType, precision, cells)).toEqual([...values, null])
  })
})

/** A length-indicated cell (1-byte, 246 + i16 or 247 + i32 indicator by length; undefined = NULL). */
const textCell = (text: string | undefined): Buffer => {
  if (text === undefined) return Buffer.from([255])
  const bytes = Buffer.from(text, "utf8")
  if (bytes.length <= 245) return Buffer.concat([Buffer.from([bytes.length]), bytes])
  const head = Buffer.alloc(bytes.length <= 32767 ? 3 : 5)
  if (head.length === 3) {
    head[0] = 246
    head.writeInt16LE(bytes.length, 1)
  } else {
    head[0] = 247
    head.writeInt32LE(bytes.length, 1)
  }
  return Buffer.concat([head, bytes])
}

/** A LOB descriptor: NULL, complete (the content inline) or incomplete (a first chunk only; READ_LOB gives the rest). */
const lobCell = (content: string | undefined, complete: boolean): Buffer => {
  if (content === undefined) return Buffer.from([0, 1])
  const bytes = Buffer.from(content, "utf8")
  const chunk = complete ? bytes : bytes.subarray(0, 1)
  const head = Buffer.alloc(32)
  head[1] = complete ? 4 : 0
  head.writeUInt32LE(content.length, 4)
  head.writeUInt32LE(bytes.length, 12)
  head.writeInt32LE(chunk.length, 28)
  return Buffer.concat([head, chunk])
}

describe("HANA driver: result pages decoded a chunk of rows at a time, a column at a time", () => {
  it("keeps every row's values in place across chunk boundaries, row caps, NULLs, long texts and LOBs", () => {
    const cols = [
      { name: "I", dataType: TypeCode.INT, length: 10 },
      { name: "S", dataType: TypeCode.NVARCHAR, length: 5000 },
      { name: "A", dataType: TypeCode.NCLOB, length: 0 },
      { name: "B", dataType: TypeCode.NCLOB, length: 0 }
    ].map((c) => Result.getOrThrow(arrowColumn({ ...c, fraction: 0, nullable: true })))
    const rows = 2500 // more than one chunk of rows (1024), with a part chunk at the end
    const expected: Array<[number | null, string | null, string | null, string | null]> = []
    const cells: Array<Buffer> = []
    const lobs: Array<Buffer> = []
    for (let r = 0; r < rows; r++) {
      const i = r % 7 === 0 ? null : r * 3 - 4000
      const s = r % 11 === 0 ? null : r % 13 === 0 ? "x".repeat(300 + r) : `row ${r} ü`
      const a = r % 5 === 0 ? null : `a${r}`
      const b = r % 6 === 0 ? null : `b${r}`
      expected.push([i, s, a, b])
      const intCell = Buffer.alloc(i === null ? 1 : 5)
      if (i !== null) {
        intCell[0] = 1
        intCell.writeInt32LE(i, 1)
      }
      // A's LOBs are incomplete on odd rows, B's on rows divisible by 3: their contents come in row order
      const aComplete = r % 2 === 0
      const bComplete = r % 3 !== 0
      cells.push(intCell, textCell(s ?? undefined), lobCell(a ?? undefined, aComplete), lobCell(b ?? undefined, bComplete))
      if (a !== null && !aComplete) lobs.push(Buffer.from(a))
      if (b !== null && !bComplete) lobs.push(Buffer.from(b))
    }
    const schema = new Arrow.Schema(cols.map((c) => c.field))
    const assembler = new BatchAssembler(schema, { maxRows: 700, mode: "hard" })
    const batches = [...assembler.push(hanaPage(Buffer.concat(cells), rows, cols, lobs))]
    const last = assembler.flush()
    if (last !== undefined) batches.push(last)
    expect(batches.map((b) => b.numRows)).toEqual([700, 700, 700, 400])
    const table = new Arrow.Table(batches)
    const actual = Array.from({ length: rows }, (_, r) => cols.map((c) => table.getChild(c.field.name)!.get(r)))
    expect(actual).toEqual(expected)
  })
})

describe("HANA driver: CESU-8 text cells", () => {
  it("decodes surrogate pairs wherever 0xED bytes are, and copies UTF-8 cells (0xED lead bytes included) as they are", () => {
    const cols = [
      { name: "I", dataType: TypeCode.INT, length: 10 },
      { name: "S", dataType: TypeCode.NVARCHAR, length: 100 }
    ].map((c) => Result.getOrThrow(arrowColumn({ ...c, fraction: 0, nullable: true })))
    // U+1F600 in CESU-8: the surrogates D83D and DE00 as 3 bytes each (UTF-8 would be F0 9F 98 80)
    const grin = Buffer.from([0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80])
    // U+D000 (not a surrogate): ED 80 80 in both encodings
    const texts: Array<[Buffer, string]> = [
      [Buffer.from("plain"), "plain"],
      [Buffer.concat([Buffer.from("a"), grin, Buffer.from("b")]), "a\u{1F600}b"],
      [Buffer.from("\uD000x"), "\uD000x"],
      [Buffer.from("after"), "after"],
      [grin, "\u{1F600}"],
      [Buffer.from("ü"), "ü"]
    ]
    const cells: Array<Buffer> = []
    texts.forEach(([bytes], r) => {
      const intCell = Buffer.alloc(5)
      intCell[0] = 1
      intCell.writeInt32LE(r % 2 === 0 ? 0x00eded00 : r, 1) // 0xED bytes outside any text cell on even rows
      cells.push(intCell, Buffer.from([bytes.length]), bytes)
    })
    const assembler = new BatchAssembler(new Arrow.Schema(cols.map((c) => c.field)), { maxRows: 100, mode: "hard" })
    const batches = [...assembler.push(hanaPage(Buffer.concat(cells), texts.length, cols))]
    const last = assembler.flush()
    if (last !== undefined) batches.push(last)
    const table = new Arrow.Table(batches)
    expect(Array.from({ length: texts.length }, (_, r) => table.getChild("S")!.get(r))).toEqual(texts.map(([, t]) => t))
  })
})
