/**
 * The ingest encoder against hdb's own parameter writer (lib/protocol/Writer.js, fed with the JS rows the driver's
 * row path builds): for random Arrow columns of every type the driver ingests, nulls and edge values included, both
 * produce the same PARAMETERS bytes, or both refuse the batch.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import fc from "fast-check"
import { epochDayOf } from "../../layers/common/ArrowCells.ts"
import { hdb } from "../../layers/hana/Hdb.ts"
import { hanaDayNumber, planEncoding } from "../../layers/hana/IngestEncoder.ts"
import { rowConverter } from "../../layers/hana/Params.ts"
import { TypeCode } from "../../layers/hana/Types.ts"

interface HdbWriter {
  setValues(values: ReadonlyArray<unknown>): void
  getParameters(bytesForLobs: number, cb: (err: Error | null, buffer: Buffer) => void): void
}
const Writer = (hdb as unknown as {
  Writer: new(params: object, options: object) => HdbWriter
}).Writer
const calendar = (hdb as unknown as { util: { calendar: { DAYDATE: (y: number, m: number, d: number) => number } } }).util
  .calendar

/** A parameter as PREPARE describes it. */
interface Param {
  readonly dataType: number
  readonly fraction: number
  readonly length: number
}
const param = (dataType: number, fraction = 0): Param => ({ dataType, fraction, length: 0 })

/** hdb's bytes for the batch: one Writer, row by row, as its ExecuteTask does. */
const hdbBytes = async (batch: Arrow.RecordBatch, params: ReadonlyArray<Param>): Promise<Buffer | Error> => {
  const c = rowConverter(batch, params.map((p) => p.dataType))
  if (!c.ok) return new Error(c.error.message)
  const writer = new Writer(
    { types: params.map((p) => p.dataType), fractions: params.map((p) => p.fraction), lengths: params.map((p) => p.length) },
    { useCesu8: true }
  )
  const parts: Array<Buffer> = []
  try {
    for (const row of c.converter.rows(0, batch.numRows)) {
      writer.setValues(row)
      parts.push(await new Promise<Buffer>((resolve, reject) => writer.getParameters(2 ** 30, (e, b) => (e ? reject(e) : resolve(b)))))
    }
  } catch (e) {
    return e as Error
  }
  return Buffer.concat(parts)
}

const ourBytes = (batch: Arrow.RecordBatch, params: ReadonlyArray<Param>): Buffer | Error | "fallback" => {
  const plan = planEncoding(batch, params)
  if (plan._tag === "Fallback") return "fallback"
  const part = plan.encode(0, batch.numRows, 2 ** 30)
  if ("status" in part) return new Error(part.message)
  expect(part.rows).toBe(batch.numRows)
  return part.data
}

const same = async (batch: Arrow.RecordBatch, params: ReadonlyArray<Param>) => {
  const ours = ourBytes(batch, params)
  expect(ours).not.toBe("fallback")
  const theirs = await hdbBytes(batch, params)
  if (theirs instanceof Error || ours instanceof Error) {
    expect({ ours: ours instanceof Error, theirs: theirs instanceof Error, message: String(ours) }).toEqual({
      ours: true,
      theirs: true,
      message: String(ours)
    })
    return
  }
  expect((ours as Buffer).toString("hex")).toBe(theirs.toString("hex"))
}

const batchOf = (columns: Record<string, Arrow.Data>) =>
  new Arrow.RecordBatch(
    new Arrow.Schema(Object.entries(columns).map(([name, d]) => new Arrow.Field(name, d.type, true))),
    Arrow.makeData({
      type: new Arrow.Struct(Object.entries(columns).map(([name, d]) => new Arrow.Field(name, d.type, true))),
      length: Object.values(columns)[0]!.length,
      nullCount: 0,
      children: Object.values(columns)
    })
  )

/** A column from values (null = NULL) through apache-arrow's builder. */
const built = <T extends Arrow.DataType>(type: T, values: ReadonlyArray<unknown>): Arrow.Data =>
  Arrow.vectorFromArray(values as Array<never>, type).data[0]!

const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 5 })
const RUNS = { numRuns: 30 }

const DAY_MIN = epochDayOf(1, 1, 1)
const DAY_MAX = epochDayOf(9999, 12, 31)
/** Arbitrary day numbers, weighted to the edges: 0001-01-01, the Julian/Gregorian switch, 1970, 9999-12-31. */
const day = fc.oneof(
  fc.integer({ min: DAY_MIN, max: DAY_MAX }),
  fc.constantFrom(DAY_MIN, DAY_MAX, -141428, -141427, -141437, 0, -1)
)

/** One case per Arrow type: a random column and the parameter type the created column has. */
const cases: ReadonlyArray<{ readonly name: string; readonly column: fc.Arbitrary<{ data: Arrow.Data; param: Param }> }> = [
  ...([
    ["int8", new Arrow.Int8(), -128, 127, TypeCode.SMALLINT],
    ["int16", new Arrow.Int16(), -32768, 32767, TypeCode.SMALLINT],
    ["int32", new Arrow.Int32(), -(2 ** 31), 2 ** 31 - 1, TypeCode.INT],
    ["uint8", new Arrow.Uint8(), 0, 255, TypeCode.TINYINT],
    ["uint16", new Arrow.Uint16(), 0, 65535, TypeCode.INT],
    ["uint32", new Arrow.Uint32(), 0, 2 ** 32 - 1, TypeCode.BIGINT]
  ] as const).map(([name, type, min, max, code]) => ({
    name,
    column: fc.array(nullable(fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max, 0))), { minLength: 1, maxLength: 40 })
      .map((v) => ({ data: built(type, v), param: param(code) }))
  })),
  {
    name: "int64",
    column: fc.array(nullable(fc.oneof(fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n), fc.constantFrom(-(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n, -(2n ** 53n) - 1n))), { minLength: 1, maxLength: 40 })
      .map((v) => ({ data: built(new Arrow.Int64(), v), param: param(TypeCode.BIGINT) }))
  },
  {
    name: "uint64 (DECIMAL(20,0))",
    column: fc.array(nullable(fc.oneof(fc.bigInt(0n, 2n ** 64n - 1n), fc.constantFrom(0n, 2n ** 64n - 1n))), { minLength: 1, maxLength: 40 })
      .map((v) => ({ data: built(new Arrow.Uint64(), v), param: param(TypeCode.FIXED12) }))
  },
  {
    name: "float32",
    column: fc.array(nullable(fc.float({ noNaN: true })), { minLength: 1, maxLength: 40 })
      .map((v) => ({ data: built(new Arrow.Float32(), v), param: param(TypeCode.REAL) }))
  },
  {
    name: "float64",
    column: fc.array(nullable(fc.double({ noNaN: true })), { minLength: 1, maxLength: 40 })
      .map((v) => ({ data: built(new Arrow.Float64(), v), param: param(TypeCode.DOUBLE) }))
  },
  {
    name: "decimal128 at full precision",
    column: fc.integer({ min: 1, max: 38 }).chain((precision) =>
      fc.integer({ min: 0, max: precision }).chain((scale) => {
        const max = 10n ** BigInt(precision) - 1n
        const code = precision <= 18 ? TypeCode.FIXED8 : precision <= 28 ? TypeCode.FIXED12 : TypeCode.FIXED16
        return fc.array(nullable(fc.oneof(fc.bigInt(-max, max), fc.constantFrom(max, -max, 0n, 1n, -1n))), { minLength: 1, maxLength: 30 })
          .map((v) => {
            const words = new Uint32Array(v.length * 4)
            const valid = new Uint8Array(Math.ceil(v.length / 8))
            v.forEach((x, i) => {
              if (x === null) return
              valid[i >> 3]! |= 1 << (i & 7)
              let u = BigInt.asUintN(128, x)
              for (let w = 0; w < 4; w++) {
                words[i * 4 + w] = Number(u & 0xffffffffn)
                u >>= 32n
              }
            })
            const nulls = v.filter((x) => x === null).length
            const data = Arrow.makeData({
              type: new Arrow.Decimal(scale, precision, 128),
              length: v.length,
              nullCount: nulls,
              nullBitmap: nulls > 0 ? valid : null,
              data: words
            } as never)
            return { data: data as Arrow.Data, param: param(code, scale) }
          })
      })
    )
  },
  {
    name: "bool",
    column: fc.array(nullable(fc.boolean()), { minLength: 1, maxLength: 40 })
      .map((v) => ({ data: built(new Arrow.Bool(), v), param: param(TypeCode.BOOLEAN) }))
  },
  {
    name: "date32 (Julian and Gregorian labels)",
    column: fc.array(nullable(day), { minLength: 1, maxLength: 40 }).map((v) => ({
      data: built(new Arrow.DateDay(), v.map((d) => (d === null ? null : new Date(d * 86_400_000)))),
      param: param(TypeCode.DAYDATE)
    }))
  },
  {
    name: "date64",
    column: fc.array(nullable(fc.tuple(day, fc.integer({ min: 0, max: 86_399_999 }))), { minLength: 1, maxLength: 40 })
      .map((v) => ({
        data: built(new Arrow.DateMillisecond(), v.map((x) => (x === null ? null : new Date(x[0] * 86_400_000 + x[1])))),
        param: param(TypeCode.DAYDATE)
      }))
  },
  ...([
    ["time32[s]", new Arrow.TimeSecond(), 86_399, 1],
    ["time32[ms]", new Arrow.TimeMillisecond(), 86_399_999, 1e3],
    ["time64[us]", new Arrow.TimeMicrosecond(), 86_399_999_999, 1e6],
    ["time64[ns]", new Arrow.TimeNanosecond(), 86_399_999_999_999, 1e9]
  ] as const).map(([name, type, max]) => ({
    name,
    column: fc.array(nullable(fc.oneof(fc.integer({ min: 0, max }), fc.constantFrom(0, max))), { minLength: 1, maxLength: 40 })
      .map((v) => ({
        data: built(type, type.bitWidth === 64 ? v.map((x) => (x === null ? null : BigInt(x))) : v),
        param: param(TypeCode.SECONDTIME)
      }))
  })),
  ...([
    ["timestamp[s]", Arrow.TimeUnit.SECOND, 86_400n, null],
    ["timestamp[ms, UTC]", Arrow.TimeUnit.MILLISECOND, 86_400_000n, "UTC"],
    ["timestamp[us]", Arrow.TimeUnit.MICROSECOND, 86_400_000_000n, null],
    ["timestamp[us, Europe/Berlin]", Arrow.TimeUnit.MICROSECOND, 86_400_000_000n, "Europe/Berlin"],
    ["timestamp[ns]", Arrow.TimeUnit.NANOSECOND, 86_400_000_000_000n, null]
  ] as const).map(([name, unit, perDay, zone]) => {
    // Nanoseconds reach 1677-09-21 … 2262-04-11 in an int64; the other units all of 0001 … 9999.
    const [lo, hi] = unit === Arrow.TimeUnit.NANOSECOND
      ? [-(2n ** 63n) + perDay, 2n ** 63n - 1n]
      : [BigInt(DAY_MIN) * perDay, BigInt(DAY_MAX + 1) * perDay - 1n]
    return {
      name,
      column: fc.array(nullable(fc.oneof(fc.bigInt(lo, hi), fc.constantFrom(lo, hi, 0n, -1n, -141427n * perDay, -141427n * perDay - 1n))), { minLength: 1, maxLength: 40 })
        .map((v) => {
          const values = new BigInt64Array(v.map((x) => x ?? 0n))
          const valid = new Uint8Array(Math.ceil(v.length / 8))
          v.forEach((x, i) => {
            if (x !== null) valid[i >> 3]! |= 1 << (i & 7)
          })
          const nulls = v.filter((x) => x === null).length
          const data = Arrow.makeData({
            type: new Arrow.Timestamp(unit, zone),
            length: v.length,
            nullCount: nulls,
            nullBitmap: nulls > 0 ? valid : null,
            data: values
          } as never)
          return { data: data as Arrow.Data, param: param(TypeCode.LONGDATE, 7) }
        })
    }
  }),
  ...([
    ["utf8", new Arrow.Utf8()],
    ["large_utf8", new Arrow.LargeUtf8()],
    ["string_view", new Arrow.Utf8View()]
  ] as const).map(([name, type]) => ({
    name,
    column: fc.array(nullable(fc.oneof(fc.string({ unit: "binary", maxLength: 40 }), fc.string({ unit: "grapheme-ascii", maxLength: 300 }), fc.constantFrom("", "ä€😀𝄞", "x".repeat(246)))), { minLength: 1, maxLength: 30 })
      .map((v) => ({ data: built(type, v), param: param(TypeCode.NVARCHAR) }))
  })),
  ...([
    ["binary", new Arrow.Binary()],
    ["large_binary", new Arrow.LargeBinary()],
    ["binary_view", new Arrow.BinaryView()]
  ] as const).map(([name, type]) => ({
    name,
    column: fc.array(nullable(fc.uint8Array({ maxLength: 300 })), { minLength: 1, maxLength: 30 })
      .map((v) => ({ data: built(type, v), param: param(TypeCode.VARBINARY) }))
  })),
  {
    name: "fixed_size_binary",
    column: fc.array(nullable(fc.uint8Array({ minLength: 5, maxLength: 5 })), { minLength: 1, maxLength: 30 })
      .map((v) => ({ data: built(new Arrow.FixedSizeBinary(5), v), param: param(TypeCode.VARBINARY) }))
  }
]

describe("ingest encoder: the same PARAMETERS bytes as hdb's writer", () => {
  for (const c of cases) {
    it(c.name, async () => {
      await fc.assert(fc.asyncProperty(c.column, async ({ data, param }) => same(batchOf({ A: data }), [param])), RUNS)
    })
  }

  it("several columns per row, a sliced batch", async () => {
    const pick = fc.tuple(...cases.map((c) => c.column))
    await fc.assert(
      fc.asyncProperty(pick, async (columns) => {
        const n = Math.min(...columns.map((c) => c.data.length))
        const sliced = columns.map((c) => c.data.slice(Math.min(1, n - 1), n - Math.min(1, n - 1)))
        const batch = batchOf(Object.fromEntries(sliced.map((d, i) => [`C${i}`, d])))
        await same(batch, columns.map((c) => c.param))
      }),
      { numRuns: 15 }
    )
  })

  it("values hdb refuses are refused too, naming row and column", async () => {
    const refused = [
      { data: built(new Arrow.Float64(), [1, Number.NaN]), param: param(TypeCode.DOUBLE) },
      { data: built(new Arrow.Int32(), [7, 300]), param: param(TypeCode.TINYINT) },
      { data: built(new Arrow.Int64(), [1n, 2n ** 40n]), param: param(TypeCode.INT) },
      { data: built(new Arrow.DateDay(), [new Date(0), new Date(Date.UTC(10000, 0, 1))]), param: param(TypeCode.DAYDATE) },
      { data: built(new Arrow.TimeSecond(), [0, 86_400]), param: param(TypeCode.SECONDTIME) }
    ]
    for (const { data, param: p } of refused) {
      const batch = batchOf({ V: data })
      const ours = ourBytes(batch, [p])
      expect(ours).toBeInstanceOf(Error)
      expect(String(ours)).toContain(`column 1 ("V"), row 2`)
      expect(await hdbBytes(batch, [p])).toBeInstanceOf(Error)
    }
  })
})

describe("HANA day numbers", () => {
  it("match hdb's calendar for every label from 0001-01-01 to 9999-12-31 (sampled) and around 1582-10-15", () => {
    const label = (d: number) => new Date(d * 86_400_000)
    const check = (d: number) => {
      const date = label(d)
      // new Date() of years below 100 is still proleptic Gregorian when built from a day count
      expect(hanaDayNumber(d)).toBe(calendar.DAYDATE(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()))
    }
    for (let d = -141500; d < -141350; d++) check(d)
    for (let d = DAY_MIN; d <= DAY_MAX; d += 997) check(d)
    check(DAY_MIN)
    check(DAY_MAX)
    check(0)
  })
})

describe("which batches are encoded", () => {
  it("LOB parameters, floating DECIMAL, half floats and text into numbers go through hdb's writer, naming the column", () => {
    const text = batchOf({ T: built(new Arrow.Utf8(), ["a"]) })
    const plan = (batch: Arrow.RecordBatch, code: number) => planEncoding(batch, [param(code)])
    expect(plan(text, TypeCode.NCLOB)).toEqual({ _tag: "Fallback", reason: expect.stringContaining(`column 1 ("T"): NCLOB`) })
    expect(plan(text, TypeCode.INT)._tag).toBe("Fallback")
    expect(plan(batchOf({ D: built(new Arrow.Float64(), [1]) }), TypeCode.DECIMAL)._tag).toBe("Fallback")
    expect(plan(batchOf({ H: built(new Arrow.Float16(), [1]) }), TypeCode.REAL)._tag).toBe("Fallback")
    expect(plan(text, TypeCode.NVARCHAR)._tag).toBe("Encoded")
  })

  it("a part stops before the row that would not fit; a row alone larger than the limit names its largest parameter", () => {
    const batch = batchOf({
      ID: built(new Arrow.Int32(), [1, 2, 3]),
      S: built(new Arrow.Utf8(), ["a".repeat(100), "b".repeat(100), "c".repeat(500)])
    })
    const plan = planEncoding(batch, [param(TypeCode.INT), param(TypeCode.NVARCHAR)])
    if (plan._tag !== "Encoded") throw new Error("not encoded")
    const row = 5 + 2 + 100
    const part = plan.encode(0, 3, 2 * row + 10)
    if ("status" in part) throw part
    expect(part.rows).toBe(2)
    expect(part.bytes).toBe(2 * row)
    const exact = plan.encode(0, 3, 2 * row)
    if ("status" in exact) throw exact
    expect(exact.rows).toBe(2)
    const tooLarge = plan.encode(2, 3, 300)
    expect("status" in tooLarge && tooLarge.status).toBe("INVALID_ARGUMENT")
    expect("status" in tooLarge && tooLarge.message).toContain(`parameter 2 ("S") of row 3 takes 504 bytes`)
  })
})
