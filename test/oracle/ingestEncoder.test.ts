import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Result } from "effect"
import * as fc from "fast-check"
import { createRequire } from "node:module"
import { columnEncoder, encodeRows, fastPathRefusal } from "../../layers/oracle/IngestEncoder.ts"
import { installHooks, oracledb } from "../../layers/oracle/DbPatches.ts"
import { bindRows, ingestColumns } from "../../layers/oracle/Params.ts"
import { epochDayOf } from "../../layers/common/ArrowCells.ts"

/**
 * The fast path's bind bytes against node-oracledb's own encoder (MessageWithData.writeBindParamsColumn) of the
 * values the oracledb path binds (Params.ts), for random Arrow columns of every type the encoder takes: byte for
 * byte, so that the test server's decoder is not the only judge.
 */

const require = createRequire(import.meta.url)
installHooks()
const { GrowableBuffer } = require("oracledb/lib/impl/datahandlers/buffer.js") as {
  GrowableBuffer: new() => { buf: Buffer; pos: number }
}
const MessageWithData = require("oracledb/lib/thin/protocol/messages/withData.js") as {
  prototype: { writeBindParamsColumn: (this: unknown, buf: unknown, variable: unknown, value: unknown) => void }
}

/** oracledb's bytes for the oracledb path's values of `column`, sent as `type` (the fast path's bind type). */
const oracledbBytes = (field: Arrow.Field, data: Arrow.Data, type: string, maxSize: number): Buffer => {
  const batch = new Arrow.RecordBatch(new Arrow.Schema([field]), Arrow.makeData({
    type: new Arrow.Struct([field]),
    length: data.length,
    children: [data]
  }))
  const columns = Result.getOrThrow(ingestColumns(batch, "nvarchar2", () => undefined))
  const rows = bindRows(columns, 0, data.length)
  const buf = new GrowableBuffer()
  const variable = { type: oracledb[`DB_TYPE_${type}`], maxSize }
  for (const row of rows) {
    let value = row[0]
    // Decimals go as text on the oracledb path; oracledb's NUMBER encoder takes the text. It writes a zero with
    // fraction digits ("0.00") as a lone exponent byte; the fast path writes Oracle's zero, 0x80, whatever the scale.
    if (type === "NUMBER" && typeof value === "string" && /^-?0(\.0*)?$/.test(value)) value = "0"
    MessageWithData.prototype.writeBindParamsColumn.call({}, buf, variable, value)
  }
  return Buffer.from(buf.buf.subarray(0, buf.pos))
}

const ourBytes = (field: Arrow.Field, data: Arrow.Data): { bytes: Buffer; type: string; maxSize: number } => {
  expect(fastPathRefusal(field, true)).toBeUndefined()
  const encoder = Result.getOrThrow(columnEncoder(field, data, undefined))
  const rows = encodeRows([encoder], 0, data.length)
  return { bytes: Buffer.from(rows.bytes.subarray(0, rows.offsets[rows.rows]!)), type: encoder.type, maxSize: encoder.maxSize }
}

const agree = (field: Arrow.Field, data: Arrow.Data): void => {
  const ours = ourBytes(field, data)
  expect(ours.bytes.toString("hex")).toBe(oracledbBytes(field, data, ours.type, ours.maxSize).toString("hex"))
}

/** A fixed-width column of `values` (null where `valid` is false). */
const fixedData = <T extends Arrow.DataType>(type: T, values: ArrayLike<unknown>, valid: ReadonlyArray<boolean>, stride = 1) => {
  const length = valid.length
  const nullBitmap = new Uint8Array(Math.ceil(length / 8) || 1)
  valid.forEach((v, i) => {
    if (v) nullBitmap[i >> 3]! |= 1 << (i & 7)
  })
  const Ctor = (type as unknown as { ArrayType: new(n: number) => { [i: number]: unknown } }).ArrayType
  const buffer = new Ctor(length * stride)
  for (let i = 0; i < length * stride; i++) buffer[i] = values[i]
  return Arrow.makeData({ type, length, nullCount: valid.filter((v) => !v).length, nullBitmap, data: buffer as never } as never) as Arrow.Data<T>
}

const withNulls = <T,>(value: fc.Arbitrary<T>) => fc.array(fc.option(value, { freq: 5 }), { maxLength: 40 })
const split = <T,>(cells: ReadonlyArray<T | null>, zero: T) => ({
  values: cells.map((c) => c ?? zero),
  valid: cells.map((c) => c !== null)
})

/** Oracle's date range, by the label the encoders write: -4712-01-01 to 9999-12-31. */
const MIN_DAY = epochDayOf(-4712, 1, 1)
const MAX_DAY = epochDayOf(9999, 12, 31)
const RUNS = { numRuns: 60 }

describe("ingest encoder: the same bind bytes as node-oracledb's encoder of the oracledb path's values", () => {
  it("int16, int32, int64 as NUMBER (extremes included)", () => {
    fc.assert(fc.property(withNulls(fc.integer({ min: -32768, max: 32767 })), (cells) => {
      const { values, valid } = split(cells, 0)
      agree(new Arrow.Field("v", new Arrow.Int16()), fixedData(new Arrow.Int16(), values, valid))
    }), RUNS)
    fc.assert(fc.property(withNulls(fc.integer()), (cells) => {
      const { values, valid } = split(cells, 0)
      agree(new Arrow.Field("v", new Arrow.Int32()), fixedData(new Arrow.Int32(), values, valid))
    }), RUNS)
    const int64 = fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constantFrom(-(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n, -(2n ** 53n) - 1n, 0n, 100n))
    fc.assert(fc.property(withNulls(int64), (cells) => {
      const { values, valid } = split(cells, 0n)
      agree(new Arrow.Field("v", new Arrow.Int64()), fixedData(new Arrow.Int64(), values, valid))
    }), RUNS)
  })

  it("decimal128 at full precision, any scale, as NUMBER", () => {
    const decimals = fc.tuple(fc.integer({ min: 1, max: 38 }), fc.nat({ max: 38 })).chain(([precision, s]) => {
      const scale = Math.min(s, precision)
      const limit = 10n ** BigInt(precision) - 1n
      return fc.tuple(fc.constant(precision), fc.constant(scale), withNulls(fc.oneof(fc.bigInt({ min: -limit, max: limit }), fc.constantFrom(limit, -limit, 0n, 1n, -1n))))
    })
    fc.assert(fc.property(decimals, ([precision, scale, cells]) => {
      const { values, valid } = split(cells, 0n)
      const words: Array<number> = []
      for (const v of values) {
        const u = BigInt.asUintN(128, v)
        for (let w = 0; w < 4; w++) words.push(Number((u >> BigInt(32 * w)) & 0xffffffffn))
      }
      const type = new Arrow.Decimal(scale, precision, 128)
      agree(new Arrow.Field("v", type), fixedData(type, words, valid, 4))
    }), RUNS)
  })

  it("float and double (NaN, infinities, -0, subnormals) as BINARY_FLOAT / BINARY_DOUBLE", () => {
    fc.assert(fc.property(withNulls(fc.double()), (cells) => {
      const { values, valid } = split(cells, 0)
      agree(new Arrow.Field("v", new Arrow.Float64()), fixedData(new Arrow.Float64(), values, valid))
    }), RUNS)
    fc.assert(fc.property(withNulls(fc.float()), (cells) => {
      const { values, valid } = split(cells, 0)
      agree(new Arrow.Field("v", new Arrow.Float32()), fixedData(new Arrow.Float32(), values, valid))
    }), RUNS)
  })

  it("bool as BOOLEAN, null as NUMBER", () => {
    fc.assert(fc.property(withNulls(fc.boolean()), (cells) => {
      const data = Arrow.vectorFromArray(cells, new Arrow.Bool()).data[0]!
      agree(new Arrow.Field("v", new Arrow.Bool()), data)
    }), RUNS)
    agree(new Arrow.Field("v", new Arrow.Null()), Arrow.makeData({ type: new Arrow.Null(), length: 5 }))
  })

  it("date32 and date64 as DATE, Oracle's whole range", () => {
    fc.assert(fc.property(withNulls(fc.integer({ min: MIN_DAY, max: MAX_DAY })), (cells) => {
      const { values, valid } = split(cells, 0)
      agree(new Arrow.Field("v", new Arrow.DateDay()), fixedData(new Arrow.DateDay(), values, valid))
      const millis = values.map((d, i) => BigInt(d) * 86_400_000n + BigInt(i * 12_345))
      agree(new Arrow.Field("v", new Arrow.DateMillisecond()), fixedData(new Arrow.DateMillisecond(), millis, valid))
    }), RUNS)
    // date64 values within a day before 1970 and the ends of Oracle's range
    const edges = [-1n, -86_400_000n, -86_400_001n, BigInt(MIN_DAY) * 86_400_000n, BigInt(MAX_DAY + 1) * 86_400_000n - 1n]
    agree(new Arrow.Field("v", new Arrow.DateMillisecond()), fixedData(new Arrow.DateMillisecond(), edges, edges.map(() => true)))
  })

  it("timestamps of every unit, with and without a time zone, as TIMESTAMP / TIMESTAMP WITH TIME ZONE", () => {
    const units = [Arrow.TimeUnit.SECOND, Arrow.TimeUnit.MILLISECOND, Arrow.TimeUnit.MICROSECOND, Arrow.TimeUnit.NANOSECOND] as const
    const perSecond = [1n, 1_000n, 1_000_000n, 1_000_000_000n] as const
    /** Oracle's range in `unit`, or for nanoseconds all of int64 (1677-09-21 to 2262-04-11), and edge values. */
    const rangeOf = (unit: typeof units[number]) => {
      const ticks = perSecond[unit]
      const lo = BigInt(MIN_DAY) * 86_400n * ticks
      const hi = (BigInt(MAX_DAY) + 1n) * 86_400n * ticks - 1n
      const min = lo > -(2n ** 63n) ? lo : -(2n ** 63n)
      const max = hi < 2n ** 63n - 1n ? hi : 2n ** 63n - 1n
      // pre-1970 values a tick before and after whole seconds and days, where the floor split into seconds and
      // ticks differs from truncation; the ends of the range
      const edges = [0n, -1n, 1n, min, max, min + 1n, max - 1n, -ticks, -ticks - 1n, -ticks + 1n, -86_400n * ticks - 1n, -2_208_988_800n * ticks - 1n]
      return { min, max, edges }
    }
    for (const unit of units) {
      for (const zone of [null, "UTC"]) {
        const type = new Arrow.Timestamp(unit, zone)
        const { edges } = rangeOf(unit)
        agree(new Arrow.Field("v", type), fixedData(type, edges, edges.map(() => true)))
      }
    }
    const stamps = fc.tuple(fc.constantFrom(...units), fc.boolean()).chain(([unit, zoned]) => {
      const { edges, max, min } = rangeOf(unit)
      return fc.tuple(fc.constant(unit), fc.constant(zoned), withNulls(fc.oneof(fc.bigInt({ min, max }), fc.constantFrom(...edges))))
    })
    fc.assert(fc.property(stamps, ([unit, zoned, cells]) => {
      const { values, valid } = split(cells, 0n)
      const type = new Arrow.Timestamp(unit, zoned ? "UTC" : null)
      agree(new Arrow.Field("v", type), fixedData(type, values, valid))
    }), RUNS)
  })

  it("dates and timestamps in runs of one day (a column's civil date kept from row to row), BC days included", () => {
    // each column keeps the day it wrote last: rows of one day, then the next, then a day far away and back
    const runs = fc.tuple(fc.integer({ min: MIN_DAY, max: MAX_DAY - 3 }), fc.array(fc.tuple(fc.nat({ max: 3 }), fc.nat({ max: 86_399_999_999 })), { minLength: 1, maxLength: 40 }))
    fc.assert(fc.property(runs, fc.integer({ min: MIN_DAY, max: MAX_DAY }), ([day0, steps], far) => {
      const days = steps.map(([d], i) => (i % 7 === 6 ? far : day0 + d))
      const micros = steps.map(([d, us], i) => BigInt(i % 7 === 6 ? far : day0 + d) * 86_400_000_000n + BigInt(us))
      const valid = steps.map((_, i) => i % 5 !== 4)
      agree(new Arrow.Field("v", new Arrow.DateDay()), fixedData(new Arrow.DateDay(), days, valid))
      const type = new Arrow.Timestamp(Arrow.TimeUnit.MICROSECOND, null)
      agree(new Arrow.Field("v", type), fixedData(type, micros, valid))
    }), RUNS)
    // two such columns interleaved in one row each: every column keeps its own day
    const a = fixedData(new Arrow.DateDay(), [MIN_DAY, MIN_DAY, 0, 0, MAX_DAY], [true, true, true, true, true])
    const b = fixedData(new Arrow.DateDay(), [MAX_DAY, 0, 0, MIN_DAY, MAX_DAY], [true, true, true, true, true])
    const encoders = [a, b].map((d) => Result.getOrThrow(columnEncoder(new Arrow.Field("v", new Arrow.DateDay()), d, undefined)))
    const both = encodeRows(encoders, 0, 5)
    const alone = encoders.map((e) => encodeRows([e], 0, 5))
    for (let r = 0; r < 5; r++) {
      const row = both.bytes.subarray(both.offsets[r]!, both.offsets[r + 1]!)
      const parts = alone.map((x) => x.bytes.subarray(x.offsets[r]!, x.offsets[r + 1]!))
      expect(Buffer.from(row).toString("hex")).toBe(Buffer.concat(parts).toString("hex"))
    }
  })

  it("strings (non-ASCII, empty, long enough for the chunked form) as VARCHAR; binary as RAW", () => {
    const text = fc.oneof(fc.string({ unit: "grapheme", maxLength: 30 }), fc.string({ unit: "grapheme", minLength: 120, maxLength: 200 }), fc.constant(""))
    fc.assert(fc.property(withNulls(text), fc.boolean(), (cells, large) => {
      const type = large ? new Arrow.LargeUtf8() : new Arrow.Utf8()
      agree(new Arrow.Field("v", type), Arrow.vectorFromArray(cells, type).data[0]!)
    }), RUNS)
    fc.assert(fc.property(withNulls(fc.uint8Array({ maxLength: 300 })), (cells) => {
      agree(new Arrow.Field("v", new Arrow.Binary()), Arrow.vectorFromArray(cells, new Arrow.Binary()).data[0]!)
    }), RUNS)
    // more than one 65,536-byte chunk of the long form
    const long = ["é".repeat(70_000), "x".repeat(65_536), null, "y"]
    agree(new Arrow.Field("v", new Arrow.Utf8()), Arrow.vectorFromArray(long, new Arrow.Utf8()).data[0]!)
  })

  it("intervals (year_month, day_time, month_day_nano without months) as INTERVAL YEAR TO MONTH / DAY TO SECOND", () => {
    fc.assert(fc.property(withNulls(fc.integer({ min: -999_999_999 * 12, max: 999_999_999 * 12 })), (cells) => {
      const { values, valid } = split(cells, 0)
      agree(new Arrow.Field("v", new Arrow.IntervalYearMonth()), fixedData(new Arrow.IntervalYearMonth(), values, valid))
    }), RUNS)
    const dayTime = fc.tuple(fc.integer({ min: -99_999_999, max: 99_999_999 }), fc.integer({ min: -86_399_999, max: 86_399_999 }))
    fc.assert(fc.property(withNulls(dayTime), (cells) => {
      const { values, valid } = split(cells, [0, 0] as [number, number])
      agree(new Arrow.Field("v", new Arrow.IntervalDayTime()), fixedData(new Arrow.IntervalDayTime(), values.flat(), valid, 2))
    }), RUNS)
    const nanos = fc.tuple(fc.integer({ min: -999_999_999, max: 999_999_999 }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }))
    fc.assert(fc.property(withNulls(nanos), (cells) => {
      const { values, valid } = split(cells, [0, 0n] as [number, bigint])
      const words = values.flatMap(([days, ns]) => {
        const u = BigInt.asUintN(64, ns)
        return [0, days, Number(u & 0xffffffffn) | 0, Number(u >> 32n) | 0]
      })
      agree(new Arrow.Field("v", new Arrow.IntervalMonthDayNano()), fixedData(new Arrow.IntervalMonthDayNano(), words, valid, 4))
    }), RUNS)
  })

  it("every date and timestamp unit at both ends of Oracle's range: the first and last value have oracledb's bytes, one tick beyond is refused on both paths naming row, column and value", () => {
    const units = [Arrow.TimeUnit.SECOND, Arrow.TimeUnit.MILLISECOND, Arrow.TimeUnit.MICROSECOND, Arrow.TimeUnit.NANOSECOND] as const
    const ticks = [1n, 1_000n, 1_000_000n, 1_000_000_000n] as const
    const range = (perSecond: bigint) => [BigInt(MIN_DAY) * 86_400n * perSecond, BigInt(MAX_DAY + 1) * 86_400n * perSecond - 1n] as const
    const cases: Array<{ type: Arrow.DataType; valid: ReadonlyArray<number | bigint>; beyond: ReadonlyArray<readonly [number | bigint, string]> }> = [
      { type: new Arrow.DateDay(), valid: [MIN_DAY, MAX_DAY], beyond: [[MIN_DAY - 1, "-4713-12-31"], [MAX_DAY + 1, "10000-01-01"]] },
      {
        type: new Arrow.DateMillisecond(),
        valid: range(1_000n),
        // named by its day, which is what DATE stores
        beyond: [[range(1_000n)[0] - 1n, "-4713-12-31,"], [range(1_000n)[1] + 1n, "10000-01-01,"]]
      },
      ...units.flatMap((unit) =>
        [null, "UTC"].map((zone) => {
          const [first, last] = range(ticks[unit])
          // timestamp[ns] spans 1677 … 2262: every int64 is within Oracle's range
          return unit === Arrow.TimeUnit.NANOSECOND
            ? { type: new Arrow.Timestamp(unit, zone), valid: [-(2n ** 63n), 2n ** 63n - 1n], beyond: [] }
            : {
              type: new Arrow.Timestamp(unit, zone),
              valid: [first, last],
              beyond: [[first - 1n, `-4713-12-31 23:59:59${["", ".999", ".999999000"][unit]}`], [last + 1n, "10000-01-01 00:00:00"]] as const
            }
        })
      )
    ]
    for (const c of cases) {
      const field = new Arrow.Field("v", c.type)
      const column = (values: ReadonlyArray<number | bigint>) => fixedData(c.type, values, values.map(() => true))
      agree(field, column(c.valid))
      if (c.type.typeId !== Arrow.Type.Timestamp || (c.type as Arrow.Timestamp).unit !== Arrow.TimeUnit.NANOSECOND) {
        // -4712-01-01 00:00:00 and 9999-12-31 (23:59:59) as Oracle stores them (century + 100, year + 100, ...)
        const dateBytes = ourBytes(field, column(c.valid)).bytes
        expect([...dateBytes.subarray(1, 8)], `${c.type}`).toEqual([53, 88, 1, 1, 1, 1, 1])
        expect([...dateBytes.subarray(dateBytes[0]! + 2, dateBytes[0]! + 9)], `${c.type}`).toEqual(
          // a date64 goes as its day, as the oracledb path binds it
          c.type.typeId === Arrow.Type.Date ? [199, 199, 12, 31, 1, 1, 1] : [199, 199, 12, 31, 24, 60, 60]
        )
      }
      // the storage type's extremes too, whose century byte would have wrapped (or, through a JS Date, been NaN)
      const extremes: ReadonlyArray<readonly [number | bigint, string]> = c.beyond.length === 0
        ? []
        : typeof c.valid[0] === "bigint"
        ? [[-(2n ** 63n), ""], [2n ** 63n - 1n, ""]]
        : [[-(2 ** 31), ""], [2 ** 31 - 1, ""]]
      for (const [value, text] of [...c.beyond, ...extremes]) {
        const data = column([c.valid[0]!, value])
        const message = `column "v": row 1002 holds ${text}`
        const fast = columnEncoder(field, data, undefined, 1000)
        expect(Result.isFailure(fast) && fast.failure.status, `${c.type} fast`).toBe("INVALID_ARGUMENT")
        expect(Result.isFailure(fast) && fast.failure.message, `${c.type} fast`).toContain(message)
        const batch = new Arrow.RecordBatch(new Arrow.Schema([field]), Arrow.makeData({ type: new Arrow.Struct([field]), length: 2, children: [data] }))
        const bound = ingestColumns(batch, "nvarchar2", () => undefined, 1000)
        expect(Result.isFailure(bound) && bound.failure.status, `${c.type} oracledb`).toBe("INVALID_ARGUMENT")
        expect(Result.isFailure(bound) && bound.failure.message, `${c.type} oracledb`).toContain(message)
        expect(Result.isFailure(bound) && bound.failure.message, `${c.type} oracledb`).toContain("outside -4712-01-01 … 9999-12-31")
      }
    }
  })

  it("refuses a string longer than its column before encoding, naming column, row, length and limit", () => {
    const data = Arrow.vectorFromArray(["ok", null, "€".repeat(2001)], new Arrow.Utf8()).data[0]!
    const result = columnEncoder(new Arrow.Field("note", new Arrow.Utf8()), data, { max: 2000, typeName: "NVARCHAR2(2000)" })
    expect(Result.isFailure(result)).toBe(true)
    if (Result.isFailure(result)) {
      expect(result.failure.status).toBe("INVALID_ARGUMENT")
      expect(result.failure.message).toContain('column "note": row 3 holds 2001 characters, more than the 2000 its NVARCHAR2(2000) column accepts')
    }
    // 2000 characters of 3 bytes each are within the limit
    const fits = Arrow.vectorFromArray(["€".repeat(2000)], new Arrow.Utf8()).data[0]!
    expect(Result.isSuccess(columnEncoder(new Arrow.Field("note", new Arrow.Utf8()), fits, { max: 2000, typeName: "NVARCHAR2(2000)" }))).toBe(true)
  })

  it("refuses a decimal that is not 128-bit itself, naming the column, rather than misreading its words", () => {
    // 7.77 as decimal256(3, 2): eight 32-bit words per value, which a decimal128 reading would take for 0
    const wide = new Arrow.Decimal(2, 3, 256)
    const result = columnEncoder(new Arrow.Field("price", wide), fixedData(wide, [777, 0, 0, 0, 0, 0, 0, 0], [true], 8), undefined)
    expect(Result.isFailure(result)).toBe(true)
    if (Result.isFailure(result)) {
      expect(result.failure.status).toBe("INVALID_ARGUMENT")
      expect(result.failure.message).toContain('column "price"')
      expect(result.failure.message).toContain("256-bit decimal")
      expect(result.failure.message).toContain("decimal128")
    }
    const narrow = new Arrow.Decimal(2, 3, 128)
    expect(Result.isSuccess(columnEncoder(new Arrow.Field("price", narrow), fixedData(narrow, [777, 0, 0, 0], [true], 4), undefined))).toBe(true)
  })
})
