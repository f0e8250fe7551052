/**
 * Random Arrow columns of every type the HANA driver ingests (fast-check), nulls and edge values included, each with
 * the parameter type PREPARE reports for the column an ingest creates; shared by the ingest encoder tests.
 */
import * as Arrow from "apache-arrow"
import fc from "fast-check"
import { epochDayOf } from "../../layers/common/ArrowCells.ts"
import { TypeCode } from "../../layers/hana/ReadTypes.ts"

/** A parameter as PREPARE describes it. */
export interface Param {
  readonly dataType: number
  readonly fraction: number
  readonly length: number
}
/** A parameter of type code `dataType`. */
export const param = (dataType: number, fraction = 0): Param => ({ dataType, fraction, length: 0 })

/** A batch of the given columns, all nullable. */
export const batchOf = (columns: Record<string, Arrow.Data>) =>
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
export const built = <T extends Arrow.DataType>(type: T, values: ReadonlyArray<unknown>): Arrow.Data =>
  Arrow.vectorFromArray(values as Array<never>, type).data[0]!

const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 5 })

export const DAY_MIN = epochDayOf(1, 1, 1)
/**
 * Whether proleptic Gregorian day `epochDay` has a label HANA's calendar has a day for: 1582-10-05 .. 1582-10-14 have
 * none (HANA counts Julian days before 1582-10-15): hdb would store such a label as the Julian date, which reads back
 * ten days later, so the driver refuses it (layers/hana/README.md; test/hana/ingestRange.test.ts). Round-trip
 * properties leave those ten labels out.
 */
export const isHanaCalendarDay = (epochDay: number): boolean => epochDay < epochDayOf(1582, 10, 5) || epochDay > epochDayOf(1582, 10, 14)

/** {@link isHanaCalendarDay} of the day of a timestamp `value` counted in units of which `perDay` make a day. */
export const isHanaCalendarInstant = (value: bigint, perDay: bigint): boolean =>
  isHanaCalendarDay(Number(value >= 0n ? value / perDay : -((-value + perDay - 1n) / perDay)))
export const DAY_MAX = epochDayOf(9999, 12, 31)
/**
 * Arbitrary day numbers HANA's calendar has a day for, weighted to the edges: 0001-01-01, the Julian/Gregorian switch
 * (1582-10-04 and 1582-10-15), 1970, 9999-12-31. The ten days between are refused (test/hana/ingestRange.test.ts).
 */
const day = fc.oneof(
  fc.integer({ min: DAY_MIN, max: DAY_MAX }).filter(isHanaCalendarDay),
  fc.constantFrom(DAY_MIN, DAY_MAX, -141438, -141427, -141439, 0, -1)
)

/** One case per Arrow type: a random column and the parameter type the created column has. */
export const cases: ReadonlyArray<{ readonly name: string; readonly column: fc.Arbitrary<{ data: Arrow.Data; param: Param }> }> = [
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
      ? [-(2n ** 63n), 2n ** 63n - 1n]
      : [BigInt(DAY_MIN) * perDay, BigInt(DAY_MAX + 1) * perDay - 1n]
    const perSecond = perDay / 86_400n
    // before 1970, a tick before and after whole seconds (where a floor split into seconds and ticks differs from
    // truncation), the Gregorian switch and the ends of the range
    // (1582-10-15 00:00 and the last tick of 1582-10-04: the days between are not HANA's)
    const edges = [lo, hi, lo + 1n, hi - 1n, 0n, -1n, 1n, -perSecond - 1n, -perSecond + 1n, -141427n * perDay, -141437n * perDay - 1n]
    return {
      name,
      column: fc.array(nullable(fc.oneof(fc.bigInt(lo, hi).filter((x) => isHanaCalendarInstant(x, perDay)), fc.constantFrom(...edges))), { minLength: 1, maxLength: 40 })
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

