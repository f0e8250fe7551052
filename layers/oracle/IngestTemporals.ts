/**
 * The ingest fast path's date, time and interval column encoders: date32 / date64 as DATE (7 bytes: century + 100,
 * year + 100, month, day, hour + 1, minute + 1, second + 1), timestamps of any unit as TIMESTAMP (the 7 bytes and
 * nanoseconds, UInt32BE) or, with a time zone, TIMESTAMP WITH TIME ZONE (13 bytes in UTC with the zone of the Arrow
 * type: TimeZones.ts), intervals as INTERVAL YEAR TO MONTH (5 bytes) or INTERVAL DAY TO SECOND (11 bytes), every
 * field carrying the sign. A date or timestamp outside Oracle's range (-4712-01-01 … 9999-12-31) is refused before
 * anything is sent ({@link dateOutOfRange}).
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Result } from "effect"
import { type AdbcError, invalidArgument } from "../../src/AdbcError.ts"
import { civilFromDays, epochDayOf, formatEpochDay, formatEpochTicks } from "../common/ArrowCells.ts"
import { floorDivInt64, TWO_32 } from "../common/Int64Words.ts"
import { type ColumnEncoder, fixed, invalidData, isValid, validity, writeNull } from "./IngestColumns.ts"
import { TYPE_NAME_METADATA } from "./ReadTypes.ts"
import { unknownZone, zoneBytesAt, zoneEncoding } from "./TimeZones.ts"
import { ingestsAsYearToMonth } from "./WriteTypes.ts"

const DURATION_MID = 0x80000000
const DURATION_OFFSET = 60

/** Writes the 7 date bytes of day `days` since 1970-01-01 and `second` of that day at `pos`. */
type CivilWriter = (days: number, second: number, out: Uint8Array, pos: number) => void

/**
 * A {@link CivilWriter} for one column: it keeps the day it wrote last with its four date bytes (century, year,
 * month, day), so a column whose rows come in runs of one day (timestamps in time order) converts each day to a
 * civil date once.
 */
const civilWriter = (): CivilWriter => {
  let lastDay = Number.NaN
  let dateBytes = 0
  return (days, second, out, pos) => {
    if (days !== lastDay) {
      const { day: d, month: m, year: y } = civilFromDays(days)
      lastDay = days
      // as oracledb: century and year of century each + 100 (truncating division, so BC years stay below 100)
      dateBytes = ((Math.trunc(y / 100) + 100) << 24) | (((y % 100) + 100) << 16) | (m << 8) | d
    }
    out[pos] = dateBytes >>> 24
    out[pos + 1] = (dateBytes >>> 16) & 0xff
    out[pos + 2] = (dateBytes >>> 8) & 0xff
    out[pos + 3] = dateBytes & 0xff
    const hour = Math.floor(second / 3600)
    out[pos + 4] = hour + 1
    out[pos + 5] = Math.floor((second - hour * 3600) / 60) + 1
    out[pos + 6] = (second % 60) + 1
  }
}

const MS_PER_DAY = 86_400_000

/**
 * Oracle's DATE and TIMESTAMP range, -4712-01-01 to 9999-12-31 (SQL Language Reference, "DATE Data Type": January
 * 1, 4712 BC to December 31, 9999 AD; ODP.NET OracleDate.MinValue "January 1, -4712", MaxValue "December 31, 9999
 * 23:59:59", https://docs.oracle.com/database/122/ODPNT/DateStaticFields.htm), as days since 1970-01-01. Oracle
 * does not check the bytes of a bound DATE (raw dates beyond it are stored, as shown in
 * https://laurentschneider.com/wordpress/2008/01/what-is-the-lowest-and-highest-possible-date-in-oracle.html), and
 * beyond year 15599 or before -10100 the century byte wraps into another date: values outside are refused.
 */
const FIRST_DAY = epochDayOf(-4712, 1, 1)
const LAST_DAY = epochDayOf(9999, 12, 31)
const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

/**
 * The first and last value of Oracle's DATE / TIMESTAMP range in ticks of `perSecond` since the epoch, clamped to
 * int64 (timestamp[ns] lies within it whole).
 *
 * @category encoding
 * @since 0.1.0
 */
export const oracleTickRange = (perSecond: number): readonly [bigint, bigint] => {
  const ticksPerDay = 86_400n * BigInt(perSecond)
  const first = BigInt(FIRST_DAY) * ticksPerDay
  const last = BigInt(LAST_DAY + 1) * ticksPerDay - 1n
  return [first < INT64_MIN ? INT64_MIN : first, last > INT64_MAX ? INT64_MAX : last]
}

/**
 * Whether a day number (days since 1970-01-01) lies within Oracle's DATE range.
 *
 * @category encoding
 * @since 0.1.0
 */
export const isOracleDay = (day: number): boolean => day >= FIRST_DAY && day <= LAST_DAY

/**
 * The error of a date or timestamp outside Oracle's range: INVALID_ARGUMENT naming column, row (0-based here, named
 * 1-based), the value (`YYYY-MM-DD[ HH:MM:SS]`, UTC) and the range.
 *
 * @category errors
 * @since 0.1.0
 */
export const dateOutOfRange = (field: Arrow.Field, row: number, value: string): AdbcError =>
  invalidArgument(
    `column ${JSON.stringify(field.name)}: row ${row + 1} holds ${value}, outside -4712-01-01 … 9999-12-31 ` +
      `23:59:59.999999999, the range of Oracle DATE and TIMESTAMP values (Oracle would store another date); ` +
      `filter or correct the value before ingesting`
  )

/** The text of `ticks` since the epoch, as the oracledb path's cells (a number when safe) give it. */
const ticksText = (ticks: bigint, perSecond: number): string =>
  formatEpochTicks(ticks >= -MAX_SAFE && ticks <= MAX_SAFE ? Number(ticks) : ticks, perSecond)

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** The int64 `v` as [upper word (signed), lower word (unsigned)]. */
const wordsOf = (v: bigint): readonly [number, number] => [Number(BigInt.asIntN(32, v >> 32n)), Number(BigInt.asUintN(32, v))]

/** The first valid row of an int64 column (its words) whose value lies outside `[first, last]`, or -1. */
const firstOutside = (data: Arrow.Data, words: Int32Array, [first, last]: readonly [bigint, bigint]): number => {
  if (first === INT64_MIN && last === INT64_MAX) return -1
  const bitmap = validity(data)
  const offset = data.offset
  const [firstHi, firstLo] = wordsOf(first)
  const [lastHi, lastLo] = wordsOf(last)
  for (let i = 0; i < data.length; i++) {
    const hi = words[2 * i + 1]!
    if (hi > firstHi && hi < lastHi) continue
    const lo = words[2 * i]! >>> 0
    const outside = hi < firstHi || (hi === firstHi && lo < firstLo) || hi > lastHi || (hi === lastHi && lo > lastLo)
    if (outside && isValid(bitmap, offset, i)) return i
  }
  return -1
}

export const dateEncoder = (field: Arrow.Field, data: Arrow.Data, firstRow: number): Result.Result<ColumnEncoder, AdbcError> => {
  const t = data.type as Arrow.Date_
  const bitmap = validity(data)
  const offset = data.offset
  const day = t.unit === Arrow.DateUnit.DAY
  const days32 = data.values as Int32Array
  const words = day ? days32 : new Int32Array(days32.buffer, days32.byteOffset, data.length * 2)
  const split = new Float64Array(2)
  const writeCivil = civilWriter()
  if (day) {
    for (let i = 0; i < data.length; i++) {
      if (!isOracleDay(days32[i]!) && isValid(bitmap, offset, i)) return Result.fail(dateOutOfRange(field, firstRow + i, formatEpochDay(days32[i]!)))
    }
  } else {
    const bad = firstOutside(data, words, oracleTickRange(1000))
    if (bad >= 0) {
      // named by its day, which is what DATE stores
      floorDivInt64(words[2 * bad + 1]!, words[2 * bad]!, MS_PER_DAY, split)
      return Result.fail(dateOutOfRange(field, firstRow + bad, formatEpochDay(split[0]!)))
    }
  }
  return Result.succeed(fixed("DATE", 8, (i, out, pos) => {
    if (!isValid(bitmap, offset, i)) return writeNull(out, pos)
    out[pos] = 7
    // date64: its day, as the parameter path (ArrowCells) reads it
    if (!day) floorDivInt64(words[2 * i + 1]!, words[2 * i]!, MS_PER_DAY, split)
    writeCivil(day ? days32[i]! : split[0]!, 0, out, pos + 1)
    return pos + 8
  }))
}

const TICKS_PER_SECOND = [1, 1_000, 1_000_000, 1_000_000_000] as const

export const timestampEncoder = (field: Arrow.Field, data: Arrow.Data, firstRow: number): Result.Result<ColumnEncoder, AdbcError> => {
  const t = data.type as Arrow.Timestamp
  const bitmap = validity(data)
  const offset = data.offset
  const zoned = t.timezone !== null && t.timezone !== undefined
  const zone = zoned ? zoneEncoding(t.timezone!) : undefined
  if (zoned && zone === undefined) return Result.fail(unknownZone(field, t.timezone!))
  const perSecond = TICKS_PER_SECOND[t.unit]
  const nanosPerTick = 1_000_000_000 / perSecond
  const values = data.values as unknown as BigInt64Array
  const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2)
  const bad = firstOutside(data, words, oracleTickRange(perSecond))
  if (bad >= 0) return Result.fail(dateOutOfRange(field, firstRow + bad, ticksText(values[bad]!, perSecond)))
  const size = zoned ? 13 : 11
  /** [seconds since the epoch (floor), ticks into that second] of the cell being written. */
  const split = new Float64Array(2)
  const writeCivil = civilWriter()
  return Result.succeed(fixed(zoned ? "TIMESTAMP_TZ" : "TIMESTAMP", size + 1, (i, out, pos) => {
    if (!isValid(bitmap, offset, i)) return writeNull(out, pos)
    floorDivInt64(words[2 * i + 1]!, words[2 * i]!, perSecond, split)
    const seconds = split[0]!
    const days = Math.floor(seconds / 86_400)
    out[pos] = size
    writeCivil(days, seconds - days * 86_400, out, pos + 1)
    const nanos = split[1]! * nanosPerTick
    out[pos + 8] = nanos >>> 24
    out[pos + 9] = (nanos >>> 16) & 0xff
    out[pos + 10] = (nanos >>> 8) & 0xff
    out[pos + 11] = nanos & 0xff
    if (zone !== undefined) {
      // the value is sent in UTC, with its zone: a region id or an offset (TimeZones.ts)
      const [z0, z1] = zoneBytesAt(zone, seconds)
      out[pos + 12] = z0
      out[pos + 13] = z1
    }
    return pos + 1 + size
  }))
}

const writeUInt32 = (v: number, out: Uint8Array, pos: number): void => {
  out[pos] = v >>> 24
  out[pos + 1] = (v >>> 16) & 0xff
  out[pos + 2] = (v >>> 8) & 0xff
  out[pos + 3] = v & 0xff
}

const NANOS_PER_DAY = 86_400_000_000_000

/** Writes INTERVAL DAY TO SECOND of `days` and `nanos` (the same sign, or 0; nanos below a day). */
const writeDayToSecond = (days: number, nanos: number, out: Uint8Array, pos: number): number => {
  const negative = days < 0 || nanos < 0
  const sign = negative ? -1 : 1
  let rest = Math.abs(nanos)
  const fraction = rest % 1_000_000_000
  rest = (rest - fraction) / 1_000_000_000
  out[pos] = 11
  writeUInt32((days + DURATION_MID) >>> 0, out, pos + 1)
  out[pos + 5] = sign * Math.floor(rest / 3600) + DURATION_OFFSET
  out[pos + 6] = sign * (Math.floor(rest / 60) % 60) + DURATION_OFFSET
  out[pos + 7] = sign * (rest % 60) + DURATION_OFFSET
  writeUInt32((sign * fraction + DURATION_MID) >>> 0, out, pos + 8)
  return pos + 12
}

/** Writes INTERVAL DAY TO SECOND of `days` days plus `nanos` nanoseconds (any signs) as one signed duration. */
const writeDuration = (days: number, nanos: number, out: Uint8Array, pos: number): number => {
  const approx = days * NANOS_PER_DAY + nanos
  if (Number.isSafeInteger(approx)) {
    const whole = Math.trunc(approx / NANOS_PER_DAY)
    return writeDayToSecond(whole, approx - whole * NANOS_PER_DAY, out, pos)
  }
  const day = 86_400_000_000_000n
  const total = BigInt(days) * day + BigInt(nanos)
  const whole = total / day
  return writeDayToSecond(Number(whole), Number(total - whole * day), out, pos)
}

/**
 * The INVALID_DATA error for the first month_day_nano value (of `length`, values `v`) with days or nanoseconds, which
 * INTERVAL YEAR TO MONTH cannot hold, or undefined when every valid value is whole months.
 *
 * @category encoding
 * @since 0.1.0
 */
export const monthsOnlyRefusal = (
  field: Arrow.Field,
  v: Int32Array,
  valid: (i: number) => boolean,
  length: number,
  firstRow: number
): AdbcError | undefined => {
  for (let i = 0; i < length; i++) {
    if (valid(i) && (v[4 * i + 1] !== 0 || v[4 * i + 2] !== 0 || v[4 * i + 3] !== 0)) {
      const nanos = (BigInt(v[4 * i + 3]!) << 32n) | BigInt(v[4 * i + 2]! >>> 0)
      return invalidData(
        `column ${JSON.stringify(field.name)}: row ${firstRow + i + 1} has ${v[4 * i + 1]} days and ${nanos} nanoseconds, which INTERVAL YEAR(9) TO MONTH cannot hold (the column's ${TYPE_NAME_METADATA} is ${field.metadata.get(TYPE_NAME_METADATA)}); drop that metadata to ingest it as INTERVAL DAY(9) TO SECOND(9)`
      )
    }
  }
  return undefined
}

/** Writes INTERVAL YEAR TO MONTH of `months` (years and months carry the sign). */
const writeYearToMonth = (months: number, out: Uint8Array, pos: number): number => {
  out[pos] = 5
  writeUInt32((Math.trunc(months / 12) + DURATION_MID) >>> 0, out, pos + 1)
  out[pos + 5] = (months % 12) + DURATION_OFFSET
  return pos + 6
}

/**
 * Interval columns as the oracledb path sends them: year_month as INTERVAL YEAR TO MONTH, day_time and
 * month_day_nano as INTERVAL DAY TO SECOND; a month_day_nano value with months is refused naming column and row (a
 * month has no fixed number of days). A month_day_nano column read from YEAR TO MONTH (WriteTypes.ts
 * `ingestsAsYearToMonth`) goes back as YEAR TO MONTH, refusing values with days or nanoseconds.
 */
export const intervalEncoder = (field: Arrow.Field, data: Arrow.Data, firstRow: number): Result.Result<ColumnEncoder, AdbcError> => {
  const unit = (data.type as Arrow.Interval).unit
  const bitmap = validity(data)
  const offset = data.offset
  const v = data.values as Int32Array
  if (unit === Arrow.IntervalUnit.YEAR_MONTH) {
    return Result.succeed(fixed("INTERVAL_YM", 6, (i, out, pos) =>
      isValid(bitmap, offset, i) ? writeYearToMonth(v[i]!, out, pos) : writeNull(out, pos)))
  }
  if (ingestsAsYearToMonth(field)) {
    const refusal = monthsOnlyRefusal(field, v, (i) => isValid(bitmap, offset, i), data.length, firstRow)
    if (refusal !== undefined) return Result.fail(refusal)
    return Result.succeed(fixed("INTERVAL_YM", 6, (i, out, pos) =>
      isValid(bitmap, offset, i) ? writeYearToMonth(v[4 * i]!, out, pos) : writeNull(out, pos)))
  }
  if (unit === Arrow.IntervalUnit.DAY_TIME) {
    return Result.succeed(fixed("INTERVAL_DS", 12, (i, out, pos) =>
      isValid(bitmap, offset, i) ? writeDuration(v[2 * i]!, v[2 * i + 1]! * 1_000_000, out, pos) : writeNull(out, pos)))
  }
  for (let i = 0; i < data.length; i++) {
    if (isValid(bitmap, offset, i) && v[4 * i] !== 0) {
      return Result.fail(invalidData(
        `column ${JSON.stringify(field.name)}: row ${firstRow + i + 1} has ${v[4 * i]} months, which INTERVAL DAY(9) TO SECOND(9) cannot hold (a month has no fixed number of days); ingest months as an interval[year_month] column`
      ))
    }
  }
  return Result.succeed(fixed("INTERVAL_DS", 12, (i, out, pos) => {
    if (!isValid(bitmap, offset, i)) return writeNull(out, pos)
    const high = v[4 * i + 3]!
    const low = v[4 * i + 2]! >>> 0
    // nanoseconds: a safe integer unless beyond ±2^53 (104 days), then exactly through bigint
    if (high >= -2097152 && high < 2097152) return writeDuration(v[4 * i + 1]!, high * TWO_32 + low, out, pos)
    const day = 86_400_000_000_000n
    const total = BigInt(v[4 * i + 1]!) * day + ((BigInt(high) << 32n) | BigInt(low))
    const whole = total / day
    return writeDayToSecond(Number(whole), Number(total - whole * day), out, pos)
  }))
}
