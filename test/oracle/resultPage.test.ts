import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import fc from "fast-check"
import { Result } from "effect"
import { BatchAssembler } from "../../src/arrow/index.ts"
import { RawTemporal } from "../../layers/oracle/DbPatches.ts"
import { isoDayToSecond, isoYearToMonth, jsonText, oraclePage } from "../../layers/oracle/RowPage.ts"
import { arrowColumns, DEFAULT_MAPPING, type MappingOptions, type OracleColumnMetadata } from "../../layers/oracle/ReadTypes.ts"

const decode = (columns: ReadonlyArray<OracleColumnMetadata>, rows: Array<Array<unknown>>, o: Partial<MappingOptions> = {}) => {
  const mapped = Result.getOrThrow(arrowColumns(columns, { ...DEFAULT_MAPPING, ...o }))
  const assembler = new BatchAssembler(new Arrow.Schema(mapped.map((m) => m.field)), { maxRows: 1000, mode: "hard" })
  const batches = [...assembler.push(oraclePage(rows, mapped, 0))]
  const last = assembler.flush()
  if (last !== undefined) batches.push(last)
  return new Arrow.Table(batches)
}

/** Oracle's 11-byte TIMESTAMP wire form of a UTC wall clock with nanoseconds. */
const wire = (ms: number, nanos: number): Buffer => {
  const d = new Date(ms)
  const b = Buffer.alloc(11)
  const y = d.getUTCFullYear()
  b[0] = Math.trunc(y / 100) + 100
  b[1] = (y % 100) + 100
  b[2] = d.getUTCMonth() + 1
  b[3] = d.getUTCDate()
  b[4] = d.getUTCHours() + 1
  b[5] = d.getUTCMinutes() + 1
  b[6] = d.getUTCSeconds() + 1
  b.writeUInt32BE(nanos, 7)
  return b
}

describe("result decoding", () => {
  it("TIMESTAMP(9) wire bytes become exact nanoseconds, whatever the process time zone", () => {
    fc.assert(
      fc.property(
        // timestamp[ns] holds int64 nanoseconds: 1677-09-21 .. 2262-04-11.
        fc.integer({ min: Date.UTC(1678, 0, 1) / 1000, max: Date.UTC(2262, 0, 1) / 1000 }),
        fc.integer({ min: 0, max: 999_999_999 }),
        (seconds, nanos) => {
          const table = decode([{ name: "T", type: "TIMESTAMP", precision: 9, nullable: true }], [[RawTemporal.fromWire(wire(seconds * 1000, nanos), 0)], [null]])
          const values = table.getChild("T")!.data[0]!.values as BigInt64Array
          expect(values[0]).toBe(BigInt(seconds) * 1_000_000_000n + BigInt(nanos))
          expect(table.getChild("T")!.get(1)).toBeNull()
        }
      ),
      { numRuns: 300 }
    )
  })

  it("a TIMESTAMP(9) outside timestamp[ns]'s range fails instead of wrapping", () => {
    const d = new Date(0)
    d.setUTCFullYear(1, 0, 1)
    const year1 = RawTemporal.fromWire(wire(d.getTime(), 0), 0)
    expect(() => decode([{ name: "T", type: "TIMESTAMP", precision: 9, nullable: true }], [[year1]])).toThrow(/column "T"/)
  })

  it("TIMESTAMP WITH LOCAL TIME ZONE subtracts the database time zone offset", () => {
    const ms = Date.UTC(2024, 0, 1, 12)
    const table = decode([{ name: "L", type: "TIMESTAMP_LTZ", precision: 6, nullable: true }], [[RawTemporal.fromWire(wire(ms, 0), 120)]])
    expect((table.getChild("L")!.data[0]!.values as BigInt64Array)[0]).toBe(BigInt(ms - 120 * 60_000) * 1000n)
  })

  it("NUMBER digits decode exactly into int64 and decimal; a fraction in an int64 column fails naming the row", () => {
    const table = decode(
      [{ name: "I", type: "NUMBER", precision: 18, scale: 0, nullable: true }, { name: "D", type: "NUMBER", precision: 38, scale: 2, nullable: true }],
      [["-999999999999999999", "123456789012345678901234567890123456.78"]]
    )
    expect(table.getChild("I")!.get(0)).toBe(-999999999999999999n)
    const words = table.getChild("D")!.data[0]!.values as Uint32Array
    let unscaled = 0n
    for (let i = 3; i >= 0; i--) unscaled = (unscaled << 32n) | BigInt(words[i]!)
    expect(unscaled).toBe(12345678901234567890123456789012345678n)
    expect(() => decode([{ name: "U", type: "NUMBER", precision: 0, scale: -127, nullable: true }], [["1"], ["1.5"]], { unboundedNumber: "int64" }))
      .toThrow(/column "U".*row 2/)
  })

  it("INTERVAL YEAR(9) TO MONTH beyond 32-bit months fails naming column and row; string mode does not overflow", () => {
    const column: OracleColumnMetadata = { name: "BIG", type: "INTERVAL_YM", scale: 9, nullable: true }
    const huge = { years: 999_999_999, months: 11 }
    for (const mode of ["auto", "monthdaynano"] as const) {
      expect(() => decode([column], [[{ years: 1, months: 2 }], [huge]], { yearMonthInterval: mode })).toThrow(/column "BIG".*row 2.*overflows/)
    }
    const text = decode([column], [[huge], [{ years: -1, months: -2 }]], { yearMonthInterval: "string" })
    expect(text.getChild("BIG")!.toArray()).toEqual(["P999999999Y11M", "-P1Y2M"])
  })

  it("ISO 8601 interval text", () => {
    expect(isoDayToSecond({ days: 0, hours: 0, minutes: 0, seconds: 0, fseconds: 0 }, 6)).toBe("PT0S")
    expect(isoDayToSecond({ days: 0, hours: 0, minutes: 0, seconds: 0, fseconds: -1000 }, 9)).toBe("-PT0.000001S")
    expect(isoDayToSecond({ days: 3, hours: 0, minutes: 0, seconds: 0, fseconds: 0 }, 6)).toBe("P3D")
    expect(isoYearToMonth({ years: 0, months: 0 })).toBe("P0M")
  })

  it("JSON text of OSON values writes binary in base 16, dates in ISO 8601 and intervals as ISO durations", () => {
    const text = jsonText({
      raw: Buffer.from([0, 1, 254, 255]),
      when: new Date(Date.UTC(2024, 1, 29, 12, 0, 0, 250)),
      span: { days: 1, hours: 2, minutes: 3, seconds: 4, fseconds: 500_000_000 },
      age: { years: 3, months: 2 },
      list: [1, "x", null, true]
    })
    expect(JSON.parse(text)).toEqual({
      raw: "0001FEFF",
      when: "2024-02-29T12:00:00.250Z",
      span: "P1DT2H3M4.5S",
      age: "P3Y2M",
      list: [1, "x", null, true]
    })
  })
})
