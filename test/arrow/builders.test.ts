import {
  Binary,
  Bool,
  DateDay,
  DateMillisecond,
  DurationMicrosecond,
  DurationSecond,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  IntervalDayTime,
  IntervalMonthDayNano,
  IntervalYearMonth,
  LargeBinary,
  LargeUtf8,
  Null,
  TimeMicrosecond,
  TimeMillisecond,
  TimeNanosecond,
  Timestamp,
  TimeUnit,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Utf8,
  vectorFromArray
} from "apache-arrow"
import { describe, expect, it } from "@effect/vitest"
import {
  ArrowAssemblyError,
  BoolBuilder,
  Float64Builder,
  Int64Builder,
  IntervalMonthDayNanoBuilder,
  makeColumnBuilder,
  VarBinaryBuilder
} from "../../src/arrow/index.ts"
import { roundTrip, roundTripBuilder, storedAll } from "./helpers.ts"

const many = (n: number, f: (i: number) => unknown): Array<unknown> => Array.from({ length: n }, (_, i) => f(i))

describe("fixed-width builders round-trip through IPC", () => {
  it("bool, bit-packed, with nulls, past initial capacity", () => {
    const values = many(1001, (i) => (i % 7 === 0 ? null : i % 3 === 0))
    const vector = roundTrip(new Bool(), values)
    expect(vector.toArray().length).toBe(1001)
    expect(Array.from({ length: values.length }, (_, i) => vector.get(i))).toEqual(values)
    expect(vector.nullCount).toBe(values.filter((v) => v === null).length)
  })

  it("integers at their limits", () => {
    const cases: Array<[import("apache-arrow").DataType, Array<number | null>]> = [
      [new Int8(), [-128, 127, 0, null, -1]],
      [new Int16(), [-32768, 32767, null, 1]],
      [new Int32(), [-2147483648, 2147483647, null, 0]],
      [new Uint8(), [0, 255, null]],
      [new Uint16(), [0, 65535, null]],
      [new Uint32(), [0, 4294967295, null, 1]]
    ]
    for (const [type, values] of cases) {
      const vector = roundTrip(type, values)
      expect(values.map((_, i) => vector.get(i))).toEqual(values)
    }
  })

  it("int64 at its limits from bigint, number and text", () => {
    const vector = roundTrip(new Int64(), [
      -9223372036854775808n,
      9223372036854775807n,
      null,
      -1,
      2 ** 53 + 2,
      -(2 ** 62),
      "-9223372036854775808",
      "42"
    ])
    expect(storedAll(vector)).toEqual([
      -9223372036854775808n,
      9223372036854775807n,
      null,
      -1n,
      9007199254740994n,
      -4611686018427387904n,
      -9223372036854775808n,
      42n
    ])
  })

  it("uint64 at its limits", () => {
    const vector = roundTrip(new Uint64(), [0, 18446744073709551615n, null, 2 ** 63, "7"])
    expect(storedAll(vector)).toEqual([0n, 18446744073709551615n, null, 9223372036854775808n, 7n])
  })

  it("float32 and float64 including specials", () => {
    const values = [0, -0, 1.5, Number.MAX_VALUE, Number.MIN_VALUE, Infinity, -Infinity, null, Math.PI]
    const doubles = roundTrip(new Float64(), values)
    expect(Object.is(doubles.get(1), -0)).toBe(true)
    expect(values.map((_, i) => doubles.get(i))).toEqual(values)
    expect(Number.isNaN(roundTrip(new Float64(), [NaN]).get(0))).toBe(true)
    const text = roundTrip(new Float64(), ["1.5", "-2e-3", ".5", "7.", "-Infinity", "NaN", 3n])
    expect([0, 1, 2, 3, 4, 6].map((i) => text.get(i))).toEqual([1.5, -0.002, 0.5, 7, -Infinity, 3])
    expect(Number.isNaN(text.get(5))).toBe(true)
    const floats = roundTrip(new Float32(), [1.5, null, Math.PI])
    expect([floats.get(0), floats.get(1), floats.get(2)]).toEqual([1.5, null, Math.fround(Math.PI)])
  })

  it("null type", () => {
    const vector = roundTrip(new Null(), [null, undefined, null])
    expect(vector.length).toBe(3)
    expect(vector.nullCount).toBe(3)
  })

  it("date32 from days and Dates, date64 from ms", () => {
    const days = roundTrip(new DateDay(), [0, -719162, 2932896, null, new Date(Date.UTC(2024, 1, 29, 13))])
    expect(storedAll(days)).toEqual([0, -719162, 2932896, null, 19782])
    const ms = roundTrip(new DateMillisecond(), [new Date(Date.UTC(2024, 1, 29)), null])
    expect(storedAll(ms)).toEqual([1709164800000n, null])
  })

  it("time32[ms], time64[us] and time64[ns]", () => {
    expect(storedAll(roundTrip(new TimeMillisecond(), [0, 86_399_999, null]))).toEqual([0, 86_399_999, null])
    expect(storedAll(roundTrip(new TimeMicrosecond(), [0, 86_399_999_999, null]))).toEqual([0n, 86_399_999_999n, null])
    expect(storedAll(roundTrip(new TimeNanosecond(), [86_399_999_999_999n, null]))).toEqual([86_399_999_999_999n, null])
  })

  it("timestamps of every unit, with and without time zone, keep unit and zone", () => {
    const date = new Date(Date.UTC(1969, 11, 31, 23, 59, 59, 999))
    const expected: Record<TimeUnit, bigint> = {
      [TimeUnit.SECOND]: -1n,
      [TimeUnit.MILLISECOND]: -1n,
      [TimeUnit.MICROSECOND]: -1000n,
      [TimeUnit.NANOSECOND]: -1_000_000n
    }
    for (const unit of [TimeUnit.SECOND, TimeUnit.MILLISECOND, TimeUnit.MICROSECOND, TimeUnit.NANOSECOND]) {
      for (const zone of [null, "UTC", "+05:30"]) {
        const type = new Timestamp(unit, zone)
        const vector = roundTrip(type, [date, null, 1_700_000_000_123_456n, -9223372036854775808n])
        expect(vector.type.unit).toBe(unit)
        expect(vector.type.timezone ?? null).toBe(zone)
        expect(storedAll(vector)).toEqual([expected[unit], null, 1_700_000_000_123_456n, -9223372036854775808n])
      }
    }
  })

  it("durations", () => {
    expect(storedAll(roundTrip(new DurationSecond(), [-5, null, 5n]))).toEqual([-5n, null, 5n])
    expect(storedAll(roundTrip(new DurationMicrosecond(), [123456789]))).toEqual([123456789n])
  })

  it("intervals: year-month, day-time, month-day-nano", () => {
    expect(storedAll(roundTrip(new IntervalYearMonth(), [14, -2147483648, null]))).toEqual([14, -2147483648, null])
    expect(
      storedAll(roundTrip(new IntervalDayTime(), [{ days: 3, milliseconds: -4 }, null, { days: -1, milliseconds: 86_399_999 }]))
    ).toEqual([[3, -4], null, [-1, 86_399_999]])
    const mdn = storedAll(
      roundTrip(new IntervalMonthDayNano(), [
        { months: 1, days: 2, nanoseconds: 3 },
        null,
        { months: -1, days: -2, nanoseconds: -9223372036854775808n },
        { months: 0, days: 0, nanoseconds: 2 ** 40 + 1 }
      ])
    ) as Array<Array<number> | null>
    const nanosOf = (row: Array<number>) => (BigInt(row[3]!) << 32n) | BigInt(row[2]! >>> 0)
    expect(mdn[0]!.slice(0, 2)).toEqual([1, 2])
    expect(nanosOf(mdn[0]!)).toBe(3n)
    expect(mdn[1]).toBeNull()
    expect(mdn[2]!.slice(0, 2)).toEqual([-1, -2])
    expect(nanosOf(mdn[2]!)).toBe(-9223372036854775808n)
    expect(nanosOf(mdn[3]!)).toBe(2n ** 40n + 1n)
  })

  it("integer-valued numbers write int64 exactly (property, bigint oracle)", async () => {
    const fc = await import("fast-check")
    fc.assert(
      fc.property(fc.array(fc.option(fc.oneof(fc.maxSafeInteger(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })))), (values) => {
        const builder = new Int64Builder(new Int64(), { initialCapacity: 1 })
        for (const v of values) {
          if (v === null) builder.appendNull()
          else if (typeof v === "bigint") builder.appendBigInt(v)
          else builder.appendNumber(v)
        }
        expect(storedAll(roundTripBuilder(builder))).toEqual(values.map((v) => (v === null ? null : BigInt(v))))
      })
    )
  })

  it("float64 matches apache-arrow's vectorFromArray (property)", async () => {
    const fc = await import("fast-check")
    fc.assert(
      fc.property(fc.array(fc.option(fc.double({ noNaN: true }))), (values) => {
        const builder = new Float64Builder(new Float64(), { initialCapacity: 1 })
        for (const v of values) {
          if (v === null) builder.appendNull()
          else builder.appendNumber(v)
        }
        const ours = roundTripBuilder(builder)
        const oracle = vectorFromArray(values, new Float64())
        expect(values.map((_, i) => ours.get(i))).toEqual(values.map((_, i) => oracle.get(i)))
        expect(ours.nullCount).toBe(oracle.nullCount)
      })
    )
  })

  it("bool matches apache-arrow's vectorFromArray (property)", async () => {
    const fc = await import("fast-check")
    fc.assert(
      fc.property(fc.array(fc.option(fc.boolean()), { maxLength: 300 }), (values) => {
        const builder = new BoolBuilder(new Bool(), { initialCapacity: 1 })
        for (const v of values) builder.append(v)
        const ours = roundTripBuilder(builder)
        const oracle = vectorFromArray(values, new Bool())
        expect(values.map((_, i) => ours.get(i))).toEqual(values.map((_, i) => oracle.get(i)))
      })
    )
  })

  it("month-day-nano from bigint and number agree", () => {
    const a = new IntervalMonthDayNanoBuilder(new IntervalMonthDayNano())
    const b = new IntervalMonthDayNanoBuilder(new IntervalMonthDayNano())
    for (const n of [0, -1, 1, 2 ** 52, -(2 ** 53) + 1]) {
      a.appendMonthDayNano(1, 1, n)
      b.appendMonthDayNano(1, 1, BigInt(n))
    }
    expect(storedAll(roundTripBuilder(a))).toEqual(storedAll(roundTripBuilder(b)))
  })
})

describe("out-of-range and ill-typed values are rejected with ArrowAssemblyError", () => {
  const rejects = (type: import("apache-arrow").DataType, value: unknown) => {
    const builder = makeColumnBuilder(type, { name: "col_x" })
    expect(() => builder.append(value)).toThrow(ArrowAssemblyError)
    try {
      builder.append(value)
    } catch (e) {
      expect((e as ArrowAssemblyError).column).toBe("col_x")
      expect((e as Error).message).toContain('column "col_x"')
    }
    expect(builder.length).toBe(0)
  }
  it("integers", () => {
    rejects(new Int8(), 128)
    rejects(new Int8(), 1.5)
    rejects(new Int16(), -32769)
    rejects(new Int32(), 2 ** 31)
    rejects(new Uint8(), -1)
    rejects(new Uint32(), 2 ** 32)
    rejects(new Int64(), 2 ** 63)
    rejects(new Int64(), 2n ** 63n)
    rejects(new Int64(), 0.5)
    rejects(new Int64(), "12a")
    rejects(new Uint64(), -1n)
    rejects(new Int32(), "x")
  })
  it("other types", () => {
    rejects(new Bool(), "true")
    rejects(new Float64(), "abc")
    rejects(new Float64(), "")
    rejects(new Float64(), " 1")
    rejects(new Float64(), "0x10")
    rejects(new Float32(), "1,5")
    rejects(new Utf8(), 5)
    rejects(new DateDay(), new Date(NaN))
    rejects(new DurationSecond(), new Date(0))
    rejects(new IntervalDayTime(), { days: 1.5, milliseconds: 0 })
    rejects(new Null(), 1)
  })
  it("unsupported types name themselves", () => {
    expect(() => makeColumnBuilder({ typeId: 999, toString: () => "Weird" } as never, { name: "w" })).toThrow(/Weird/)
  })
})

describe("finish resets the builder for reuse", () => {
  it("second batch is independent of the first", () => {
    const builder = new VarBinaryBuilder(new Utf8(), { initialCapacity: 1 })
    builder.appendString("first")
    builder.appendNull()
    const first = roundTripBuilder(builder)
    expect(builder.length).toBe(0)
    expect(builder.nullCount).toBe(0)
    builder.appendString("second")
    const second = roundTripBuilder(builder)
    expect([first.get(0), first.get(1)]).toEqual(["first", null])
    expect(second.length).toBe(1)
    expect(second.nullCount).toBe(0)
    expect(second.get(0)).toBe("second")
  })

  it("zero-row finish gives valid empty data for every type", () => {
    const types = [
      new Bool(), new Int8(), new Int64(), new Uint64(), new Float64(), new Utf8(), new Binary(), new LargeUtf8(),
      new LargeBinary(), new DateDay(), new TimeMicrosecond(), new Timestamp(TimeUnit.MICROSECOND, "UTC"),
      new IntervalMonthDayNano(), new Null()
    ]
    for (const type of types) {
      const vector = roundTrip(type, [])
      expect(vector.length).toBe(0)
      expect(String(vector.type)).toBe(String(type))
    }
  })

  it("a short batch after a long one does not pin the long batch's allocation", () => {
    const numbers = new Float64Builder(new Float64(), { initialCapacity: 4 })
    const strings = new VarBinaryBuilder(new Utf8(), { initialCapacity: 4 })
    for (let i = 0; i < 10_000; i++) {
      numbers.appendNumber(i)
      strings.appendString(`s${i}`)
    }
    numbers.finish()
    strings.finish()
    numbers.appendNumber(1)
    strings.appendString("x")
    const small = numbers.finish()
    const smallStrings = strings.finish()
    expect(small.values.buffer.byteLength).toBe(8)
    expect(smallStrings.values.buffer.byteLength).toBe(1)
    expect(Array.from(small.values)).toEqual([1])
  })

  it("byteLength grows with appended data", () => {
    const builder = new VarBinaryBuilder(new Utf8())
    const before = builder.byteLength
    builder.appendString("x".repeat(100))
    expect(builder.byteLength).toBeGreaterThanOrEqual(before + 100)
    const uint16 = makeColumnBuilder(new Uint16())
    uint16.append(1)
    expect(uint16.byteLength).toBe(2)
  })
})
