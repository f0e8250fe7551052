import {
  DateDay,
  DateMillisecond,
  DurationNanosecond,
  TimeMicrosecond,
  TimeMillisecond,
  TimeNanosecond,
  TimeSecond,
  Timestamp,
  TimeUnit
} from "apache-arrow"
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import {
  ArrowAssemblyError,
  daysFromCivil,
  Int64Builder,
  parseIsoDate,
  parseIsoTime,
  parseIsoTimestamp,
  type TemporalParts,
  writeSecondsAndNanos
} from "../../src/arrow/index.ts"
import { roundTrip, roundTripBuilder, storedAll } from "./helpers.ts"

const UNITS_PER_SECOND = [1n, 1_000n, 1_000_000n, 1_000_000_000n]
const NANOS_PER_UNIT = [1_000_000_000n, 1_000_000n, 1_000n, 1n]

/** Days since the epoch via the JS Date implementation (setUTCFullYear avoids the 0..99 → 19xx quirk). */
const dateOracleDays = (year: number, month: number, day: number): number => {
  const d = new Date(0)
  d.setUTCFullYear(year, month - 1, day)
  return d.getTime() / 86_400_000
}

const pad = (n: number, width: number) => String(n).padStart(width, "0")

describe("temporal arithmetic", () => {
  it("daysFromCivil agrees with Date (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: -9999, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), (y, m, d) => {
        expect(daysFromCivil(y, m, d)).toBe(dateOracleDays(y, m, d))
      })
    )
    expect(daysFromCivil(1970, 1, 1)).toBe(0)
    expect(daysFromCivil(2000, 2, 29)).toBe(11016)
  })

  it("writeSecondsAndNanos is exact for every unit (property, bigint oracle)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 40) + 1, max: 2 ** 40 - 1 }),
        fc.integer({ min: 0, max: 999_999_999 }),
        fc.integer({ min: 0, max: 3 }),
        (seconds, nanos, unit) => {
          const expected = BigInt(seconds) * UNITS_PER_SECOND[unit]! + BigInt(nanos) / NANOS_PER_UNIT[unit]!
          const words = new Int32Array(4)
          const ok = writeSecondsAndNanos(words, 1, seconds, nanos, unit)
          expect(ok).toBe(BigInt.asIntN(64, expected) === expected)
          if (ok) expect(new BigInt64Array(words.buffer)[1]).toBe(expected)
        }
      )
    )
  })
})

describe("ISO text parsing", () => {
  it("dates and timestamps agree with Date for any millisecond instant in years 0..9999 (property)", () => {
    const parts: TemporalParts = { seconds: 0, nanos: 0 }
    fc.assert(
      fc.property(
        fc.date({ min: new Date("0000-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59.999Z"), noInvalidDate: true }),
        fc.integer({ min: 0, max: 999_999 }),
        fc.constantFrom("T", " "),
        (date, extraNanos, separator) => {
          const iso = date.toISOString() // YYYY-MM-DDTHH:MM:SS.sssZ
          const ms = date.getTime()
          expect(parseIsoDate(iso.slice(0, 10))).toBe(Math.floor(ms / 86_400_000))
          const text = `${iso.slice(0, 10)}${separator}${iso.slice(11, 23)}${pad(extraNanos, 6)}`
          parseIsoTimestamp(text, parts)
          const total = BigInt(parts.seconds) * 1_000_000_000n + BigInt(parts.nanos)
          expect(total).toBe(BigInt(ms) * 1_000_000n + BigInt(extraNanos))
        }
      )
    )
  })

  it("applies zone offsets to give UTC", () => {
    const parts: TemporalParts = { seconds: 0, nanos: 0 }
    const epochOf = (text: string) => (parseIsoTimestamp(text, parts), parts.seconds)
    const utc = epochOf("2024-03-01T12:00:00")
    expect(epochOf("2024-03-01T12:00:00Z")).toBe(utc)
    expect(epochOf("2024-03-01T17:30:00+05:30")).toBe(utc)
    expect(epochOf("2024-03-01T17:30:00+0530")).toBe(utc)
    expect(epochOf("2024-03-01T07:00:00-05")).toBe(utc)
    expect(epochOf("2024-03-01")).toBe(utc - 12 * 3600)
  })

  it("times, including hdb's unpadded fractional seconds", () => {
    const parts: TemporalParts = { seconds: 0, nanos: 0 }
    parseIsoTime("23:59:59.999999999", parts)
    expect(parts).toEqual({ seconds: 86_399, nanos: 999_999_999 })
    parseIsoTime("12:34:5.5", parts)
    expect(parts).toEqual({ seconds: 12 * 3600 + 34 * 60 + 5, nanos: 500_000_000 })
    parseIsoTime("00:00", parts)
    expect(parts).toEqual({ seconds: 0, nanos: 0 })
    parseIsoTime("01:02:03.1234567890", parts)
    expect(parts).toEqual({ seconds: 3723, nanos: 123_456_789 })
  })

  it("rejects invalid text with a clear error", () => {
    const parts: TemporalParts = { seconds: 0, nanos: 0 }
    for (const text of ["2023-02-29", "2024-13-01", "2024-1-01", "24-01-01", "2024-01-01x", ""]) {
      expect(() => parseIsoDate(text, "d")).toThrow(ArrowAssemblyError)
    }
    for (const text of ["24:00:00", "12:60:00", "12:00:60", "12:00:00.", "12:00:00.1234567891", "1200"]) {
      expect(() => parseIsoTime(text, parts, "t")).toThrow(/column "t"/)
    }
    for (const text of ["2024-01-01T", "2024-01-01T12:00:00+25:00", "2024-01-01T12:00:00ZZ", "2024-01-01 12:00:00 UTC"]) {
      expect(() => parseIsoTimestamp(text, parts, "ts")).toThrow(ArrowAssemblyError)
    }
  })
})

describe("temporal columns from text round-trip through IPC", () => {
  it("HANA-style text into date32, time64[us], timestamp[us] (LONGDATE digits beyond us are truncated)", () => {
    expect(storedAll(roundTrip(new DateDay(), ["1970-01-01", "0001-01-01", "9999-12-31", null]))).toEqual([
      0,
      -719162,
      2932896,
      null
    ])
    expect(storedAll(roundTrip(new TimeMicrosecond(), ["00:00:00", "23:59:59", "12:34:5.5", null]))).toEqual([
      0n,
      86_399_000_000n,
      45_245_500_000n,
      null
    ])
    const ts = roundTrip(new Timestamp(TimeUnit.MICROSECOND, "UTC"), [
      "2024-02-29T12:34:56.123",
      "2024-02-29 12:34:56.1234567",
      "0001-01-01 00:00:00",
      "9999-12-31 23:59:59.9999999",
      null
    ])
    expect(storedAll(ts)).toEqual([
      1_709_210_096_123_000n,
      1_709_210_096_123_456n,
      -62_135_596_800_000_000n,
      253_402_300_799_999_999n,
      null
    ])
  })

  it("every timestamp unit from the same text", () => {
    const text = "1969-12-31T23:59:59.987654321"
    const expected = [-1n, -13n, -12_346n, -12_345_679n]
    for (const unit of [TimeUnit.SECOND, TimeUnit.MILLISECOND, TimeUnit.MICROSECOND, TimeUnit.NANOSECOND]) {
      // floor(-0.012345679 s) in each unit: truncation of the sub-unit digits is toward the past.
      expect(storedAll(roundTrip(new Timestamp(unit), [text]))).toEqual([expected[unit]])
    }
  })

  it("time32, time64[ns], date64 and durations from seconds + nanos", () => {
    expect(storedAll(roundTrip(new TimeSecond(), ["12:00:01.9"]))).toEqual([43_201])
    expect(storedAll(roundTrip(new TimeMillisecond(), ["12:00:01.9"]))).toEqual([43_201_900])
    expect(storedAll(roundTrip(new TimeNanosecond(), ["23:59:59.999999999"]))).toEqual([86_399_999_999_999n])
    expect(storedAll(roundTrip(new DateMillisecond(), ["2024-02-29"]))).toEqual([1_709_164_800_000n])
    const duration = new Int64Builder(new DurationNanosecond())
    duration.appendSecondsAndNanos(-2, 500_000_000)
    expect(storedAll(roundTripBuilder(duration))).toEqual([-1_500_000_000n])
  })

  it("timestamp[ns] from Dates without bigints keeps millisecond values", () => {
    const vector = roundTrip(new Timestamp(TimeUnit.NANOSECOND), [new Date(-1), new Date(Date.UTC(2262, 3, 11))])
    expect(storedAll(vector)).toEqual([-1_000_000n, 9_223_286_400_000_000_000n])
  })

  it("rejects values outside the int64 range of the unit", () => {
    const builder = new Int64Builder(new Timestamp(TimeUnit.NANOSECOND), { name: "ts" })
    expect(() => builder.appendString("2263-01-01 00:00:00")).toThrow(/column "ts"/)
    expect(() => builder.appendSecondsAndNanos(0, 1e9)).toThrow(ArrowAssemblyError)
    expect(builder.length).toBe(0)
  })
})
