import {
  Binary,
  Bool,
  DateDay,
  Decimal,
  Float64,
  Int32,
  Int64,
  LargeBinary,
  LargeUtf8,
  Table,
  Timestamp,
  TimeUnit,
  Utf8
} from "apache-arrow"
import { describe, expect, it } from "@effect/vitest"
import { BatchAssembler, rowsPage } from "../../src/arrow/index.ts"
import { ipcRoundTrip } from "./helpers.ts"

/** One row per mapped column type (HANA and Oracle mappings), read back without and with IPC. */
const fields = [
  { name: "b", type: new Bool() },
  { name: "i32", type: new Int32() },
  { name: "i64", type: new Int64() },
  { name: "f64", type: new Float64() },
  { name: "dec", type: new Decimal(2, 10, 128) },
  { name: "d", type: new DateDay() },
  { name: "ts", type: new Timestamp(TimeUnit.MICROSECOND, "UTC") },
  { name: "s", type: new Utf8() },
  { name: "bin", type: new Binary() },
  { name: "clob", type: new LargeUtf8() },
  { name: "blob", type: new LargeBinary() }
]

const rows: Array<Array<unknown>> = [
  [true, 1, 10n, 1.5, "12.34", "2024-02-29", "2024-02-29 00:00:00.000001", "ä😀", new Uint8Array([1]), "clob", new Uint8Array([9, 9])],
  [null, null, null, null, null, null, null, null, null, null, null],
  [false, -1, -10, -0.5, "-0.01", "1970-01-01", "1970-01-01T00:00:00Z", "", new Uint8Array(0), "", new Uint8Array(0)]
]

const plain = (table: Table) =>
  table.toArray().map((row) =>
    Object.fromEntries(
      Object.entries(row.toJSON()).map(([k, v]) => [
        k,
        v instanceof Uint8Array ? Array.from(v) : typeof v === "bigint" ? `${v}n` : k === "dec" && v !== null ? String(v) : v
      ])
    )
  )

describe("batches are usable in memory and after IPC", () => {
  it("reads the same rows directly from our batch and from its IPC round trip", () => {
    const assembler = new BatchAssembler(fields, { maxRows: 2, mode: "hard" })
    const batches = assembler.push(rowsPage(rows))
    batches.push(assembler.flush()!)
    expect(batches.map((b) => b.numRows)).toEqual([2, 1])
    const direct = plain(new Table(batches))
    const viaIpc = plain(ipcRoundTrip(...batches))
    expect(direct).toEqual(viaIpc)
    expect(direct[0]).toMatchObject({ b: true, i32: 1, i64: "10n", f64: 1.5, s: "ä😀", bin: [1], clob: "clob", blob: [9, 9] })
    expect(direct[1]).toEqual(Object.fromEntries(fields.map((f) => [f.name, null])))
    expect(direct[2]).toMatchObject({ b: false, i32: -1, i64: "-10n", s: "", bin: [], clob: "", blob: [] })
    expect(batches[0]!.getChild("d")!.get(0)).toBe(Date.UTC(2024, 1, 29))
    // apache-arrow reads timestamp[us] as fractional epoch milliseconds
    expect(batches[0]!.getChild("ts")!.get(0)).toBeCloseTo(Date.UTC(2024, 1, 29) + 0.001, 6)
  })
})
