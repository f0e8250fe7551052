// One module: the per-type cell writers (about 700 of its lines) and the row framing share the ColumnEncoder / length-framing internals of one hot loop; cut apart, the cell writers alone would still pass 600 lines (the same decision as layers/hana/IngestEncoder.ts).
/**
 * The ingest fast path's encoder: Arrow columns written straight into TTC bind row data for executeMany (the values
 * node-oracledb's thin `MessageWithData.writeBindParamsColumn` writes, lib/thin/protocol/messages/withData.js), read
 * from the column buffers with no JS value per cell. EncodedBinds.ts hands the rows to oracledb's own execute
 * message, so the bind metadata, authentication, session, transaction and errors stay oracledb's.
 *
 * Per Arrow type (the Ingest column of the Oracle type mapping):
 * - int16 / int32 / int64, decimal128: NUMBER, Oracle's base-100 form (impl/datahandlers/buffer.js
 *   `writeOracleNumber`): exponent byte, digit pairs + 1 (negative: 101 - pair, and a 102 sentinel below 20 pairs);
 * - float / double: BINARY_FLOAT / BINARY_DOUBLE, big-endian IEEE with the sign bit set (negative: all bits inverted);
 * - bool: BOOLEAN (true = 02 01 01, false = 01 00, NULL = FD 01);
 * - date32 / date64: DATE, 7 bytes (century + 100, year + 100, month, day, hour + 1, minute + 1, second + 1);
 * - timestamp (any unit): TIMESTAMP, 11 bytes (the 7 above + nanoseconds, UInt32BE); with a time zone TIMESTAMP WITH
 *   TIME ZONE, 13 bytes in UTC with the zone of the Arrow type (TimeZones.ts: +00:00 for UTC, an offset, or a region
 *   id); a date or timestamp outside Oracle's range
 *   (-4712-01-01 … 9999-12-31) is refused before anything is sent ({@link dateOutOfRange});
 * - string / large_string: VARCHAR (the database character set AL32UTF8 is UTF-8, so the Arrow bytes go as they
 *   are; Oracle converts them to the NVARCHAR2 column), string_view and binary_view read through apache-arrow;
 * - binary / large_binary / fixed_size_binary: RAW (into the BLOB column);
 * - interval: INTERVAL YEAR TO MONTH (5 bytes) or INTERVAL DAY TO SECOND (11 bytes), every field carrying the sign;
 * - null: NUMBER, every value NULL.
 * Struct and list (JSON text), geoarrow (SDO_GEOMETRY objects) and any column of a database whose character set is
 * not AL32UTF8 go through oracledb's own encoder instead ({@link fastPathRefusal} says why).
 *
 * Values with 0 to 252 bytes have a one-byte length; longer ones the long form (0xFE, chunks of at most 65,536 bytes
 * each after its UB4 length, UB4 0); length 0 is NULL, which is also how Oracle stores an empty string.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Result } from "effect"
import { type AdbcError, adbcError, invalidArgument } from "../../src/AdbcError.ts"
import { civilFromDays, columnCells, epochDayOf, formatEpochDay, formatEpochTicks } from "../common/ArrowCells.ts"
import { floorDivInt64, TWO_32 } from "../common/Int64Words.ts"
import { TYPE_NAME_METADATA } from "./ReadTypes.ts"
import { ingestsAsYearToMonth } from "./WriteTypes.ts"
import { unknownZone, zoneBytesAt, zoneEncoding } from "./TimeZones.ts"

/** The bind type an encoded column declares to oracledb (a `DB_TYPE_*` name). @category models @since 0.1.0 */
export type EncodedBindType =
  | "NUMBER"
  | "BINARY_FLOAT"
  | "BINARY_DOUBLE"
  | "BOOLEAN"
  | "DATE"
  | "TIMESTAMP"
  | "TIMESTAMP_TZ"
  | "VARCHAR"
  | "RAW"
  | "INTERVAL_YM"
  | "INTERVAL_DS"

/**
 * One column's encoder: its bind type and size, an upper bound of the bytes its rows `[start, end)` take, and the
 * writer of row `i`'s value (length prefix included) at `pos` of `out`, returning the position after it.
 *
 * @category models
 * @since 0.1.0
 */
export interface ColumnEncoder {
  readonly type: EncodedBindType
  /** The bind's maximum size in bytes (strings and bytes; 0 for the other types). */
  readonly maxSize: number
  readonly bound: (start: number, end: number) => number
  readonly write: (i: number, out: Uint8Array, pos: number) => number
}

/**
 * Encoded bind rows: row `r`'s values are `bytes[offsets[r], offsets[r + 1])`, in the wire order the columns were
 * given.
 *
 * @category models
 * @since 0.1.0
 */
export interface EncodedRows {
  readonly rows: number
  readonly bytes: Buffer
  readonly offsets: Uint32Array
}

/**
 * The limit of a string column the target has: values longer than `max` UTF-16 code units are refused.
 *
 * @category models
 * @since 0.1.0
 */
export interface StringLimit {
  readonly max: number
  /** The column's Oracle type, for the message (`NVARCHAR2(2000)`). */
  readonly typeName: string
}

/**
 * The character limit of a string column from its Oracle type name (`NVARCHAR2(2000)`, `NCHAR(10)`,
 * `VARCHAR2(40 CHAR)`, `VARCHAR2(40)`), or undefined for other types. VARCHAR2 without CHAR counts bytes in Oracle;
 * a value within the limit in characters but not in bytes is then refused by the database with ORA-12899, whose
 * widths are in characters under character length semantics, else in bytes
 * (https://docs.oracle.com/en/error-help/db/ora-12899/).
 *
 * @category encoding
 * @since 0.1.0
 */
export const stringLimitOfType = (typeName: string): StringLimit | undefined => {
  const m = /^(?:N?VARCHAR2|N?CHAR)\((\d+)(?: (?:CHAR|BYTE))?\)$/.exec(typeName)
  return m === null ? undefined : { max: Number(m[1]), typeName }
}

const SHORT_MAX = 252
/**
 * Values up to this many bytes are copied byte by byte: cheaper than a `subarray` view (an object per value) and a
 * native `set` (31-byte strings: 28 against 142 ms per 1,000,000 values).
 */
const COPY_LOOP_MAX = 64
const LONG_INDICATOR = 0xfe
const CHUNK = 65_536
const DURATION_MID = 0x80000000
const DURATION_OFFSET = 60

const validity = (data: Arrow.Data): Uint8Array | undefined =>
  data.nullCount === 0 || data.nullBitmap === undefined || data.nullBitmap.length === 0 ? undefined : data.nullBitmap

const isValid = (bitmap: Uint8Array | undefined, offset: number, i: number): boolean => {
  if (bitmap === undefined) return true
  const k = i + offset
  return (bitmap[k >>> 3]! & (1 << (k & 7))) !== 0
}

// ---------------------------------------------------------------------------------------------------------------
// NUMBER

/** Scratch base-100 digits, least significant first (40 decimal digits at most: 20 pairs, plus parity room). */
const pairs = new Uint8Array(24)

/**
 * Writes NUMBER `unscaled × 10^-scale` (`scale` even) whose magnitude's base-100 digits, least significant first,
 * are `pairs[0, count)` (the most significant one not 0).
 */
const writeNumberPairs = (negative: boolean, count: number, scale: number, out: Uint8Array, pos: number): number => {
  let low = 0
  while (low < count && pairs[low] === 0) low++
  const digits = count - low
  const exponent = count - scale / 2 + 192
  const sentinel = negative && digits < 20 ? 1 : 0
  out[pos] = digits + 1 + sentinel
  out[pos + 1] = negative ? exponent ^ 0xff : exponent
  let p = pos + 2
  for (let k = count - 1; k >= low; k--) out[p++] = negative ? 101 - pairs[k]! : pairs[k]! + 1
  if (sentinel === 1) out[p++] = 102
  return p
}

/** Writes the NUMBER of a safe integer `unscaled × 10^-scale` (any scale). */
const writeSmallNumber = (unscaled: number, scale: number, out: Uint8Array, pos: number): number => {
  if (unscaled === 0) {
    out[pos] = 1
    out[pos + 1] = 0x80
    return pos + 2
  }
  const negative = unscaled < 0
  let a = negative ? -unscaled : unscaled
  if ((scale & 1) !== 0) {
    // an odd power of ten: one more digit, so that the pairs line up with the decimal point
    if (a * 10 > Number.MAX_SAFE_INTEGER) return writeBigNumber(BigInt(unscaled) * 10n, scale + 1, out, pos)
    a *= 10
    scale++
  }
  let count = 0
  while (a > 0) {
    const q = Math.floor(a / 100)
    pairs[count++] = a - q * 100
    a = q
  }
  return writeNumberPairs(negative, count, scale, out, pos)
}

/** Writes the NUMBER of `unscaled × 10^-scale` for any bigint. */
const writeBigNumber = (unscaled: bigint, scale: number, out: Uint8Array, pos: number): number => {
  if (unscaled === 0n) return writeSmallNumber(0, 0, out, pos)
  const negative = unscaled < 0n
  let a = negative ? -unscaled : unscaled
  if ((scale & 1) !== 0) {
    a *= 10n
    scale++
  }
  let count = 0
  while (a > 0n) {
    const q = a / 100n
    pairs[count++] = Number(a - q * 100n)
    a = q
  }
  return writeNumberPairs(negative, count, scale, out, pos)
}

/** NUMBER bytes at most: length, exponent, 20 digit pairs, sentinel. */
const NUMBER_BOUND = 23

const fixed = (type: EncodedBindType, size: number, write: ColumnEncoder["write"]): ColumnEncoder => ({
  type,
  maxSize: 0,
  bound: (start, end) => (end - start) * size,
  write
})

const writeNull = (out: Uint8Array, pos: number): number => {
  out[pos] = 0
  return pos + 1
}

const intEncoder = (data: Arrow.Data): ColumnEncoder => {
  const t = data.type as Arrow.Int
  const bitmap = validity(data)
  const offset = data.offset
  if (t.bitWidth === 64) {
    const values = data.values as BigInt64Array
    const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2)
    return fixed("NUMBER", NUMBER_BOUND, (i, out, pos) => {
      if (!isValid(bitmap, offset, i)) return writeNull(out, pos)
      const hi = words[2 * i + 1]!
      if (hi >= -2097152 && hi < 2097152) return writeSmallNumber(hi * TWO_32 + (words[2 * i]! >>> 0), 0, out, pos)
      return writeBigNumber(values[i]!, 0, out, pos)
    })
  }
  const values = data.values as Int16Array | Int32Array
  return fixed("NUMBER", NUMBER_BOUND, (i, out, pos) =>
    isValid(bitmap, offset, i) ? writeSmallNumber(values[i]!, 0, out, pos) : writeNull(out, pos))
}

const decimalEncoder = (field: Arrow.Field, data: Arrow.Data): Result.Result<ColumnEncoder, AdbcError> => {
  const t = data.type as Arrow.Decimal
  // the words below are read four per value: any other width would be misread (a decimal256 7.77 came out as 0)
  if (t.bitWidth !== 128) {
    return Result.fail(invalidArgument(`column ${JSON.stringify(field.name)}: Arrow type ${t} is a ${t.bitWidth}-bit decimal; the Oracle ingest accepts decimal128 only (cast to decimal128 with precision up to 38)`))
  }
  const bitmap = validity(data)
  const offset = data.offset
  const words = data.values as unknown as Uint32Array
  const scale = t.scale
  return Result.succeed(fixed("NUMBER", NUMBER_BOUND, (i, out, pos) => {
    if (!isValid(bitmap, offset, i)) return writeNull(out, pos)
    const k = i * 4
    const hi = words[k + 1]! | 0
    const fill = hi < 0 ? 0xffffffff : 0
    // the upper words only extend the sign of a value below 2^53 in magnitude
    if (hi >= -2097152 && hi < 2097152 && words[k + 2] === fill && words[k + 3] === fill) {
      return writeSmallNumber(hi * TWO_32 + words[k]!, scale, out, pos)
    }
    const unsigned = (BigInt(words[k + 3]!) << 96n) | (BigInt(words[k + 2]!) << 64n) | (BigInt(words[k + 1]!) << 32n) | BigInt(words[k]!)
    return writeBigNumber(BigInt.asIntN(128, unsigned), scale, out, pos)
  }))
}

// ---------------------------------------------------------------------------------------------------------------
// BINARY_FLOAT / BINARY_DOUBLE, BOOLEAN

const floatEncoder = (data: Arrow.Data): ColumnEncoder => {
  const t = data.type as Arrow.Float
  const bitmap = validity(data)
  const offset = data.offset
  const double = t.precision === Arrow.Precision.DOUBLE
  const values = data.values as Float32Array | Float64Array
  const size = double ? 8 : 4
  const scratch = new DataView(new ArrayBuffer(8))
  return fixed(double ? "BINARY_DOUBLE" : "BINARY_FLOAT", size + 1, (i, out, pos) => {
    if (!isValid(bitmap, offset, i)) return writeNull(out, pos)
    if (double) scratch.setFloat64(0, values[i]!)
    else scratch.setFloat32(0, values[i]!)
    out[pos] = size
    const negative = (scratch.getUint8(0) & 0x80) !== 0
    for (let k = 0; k < size; k++) {
      const b = scratch.getUint8(k)
      out[pos + 1 + k] = negative ? b ^ 0xff : b
    }
    if (!negative) out[pos + 1] = out[pos + 1]! | 0x80
    return pos + 1 + size
  })
}

const boolEncoder = (data: Arrow.Data): ColumnEncoder => {
  const bitmap = validity(data)
  const offset = data.offset
  const bits = data.values as Uint8Array
  return fixed("BOOLEAN", 3, (i, out, pos) => {
    if (!isValid(bitmap, offset, i)) {
      out[pos] = 0xfd
      out[pos + 1] = 1
      return pos + 2
    }
    const k = i + offset
    if ((bits[k >>> 3]! & (1 << (k & 7))) !== 0) {
      out[pos] = 2
      out[pos + 1] = 1
      out[pos + 2] = 1
      return pos + 3
    }
    out[pos] = 1
    out[pos + 1] = 0
    return pos + 2
  })
}

// ---------------------------------------------------------------------------------------------------------------
// DATE, TIMESTAMP, TIMESTAMP WITH TIME ZONE

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

const dateEncoder = (field: Arrow.Field, data: Arrow.Data, firstRow: number): Result.Result<ColumnEncoder, AdbcError> => {
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

const timestampEncoder = (field: Arrow.Field, data: Arrow.Data, firstRow: number): Result.Result<ColumnEncoder, AdbcError> => {
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

// ---------------------------------------------------------------------------------------------------------------
// INTERVAL YEAR TO MONTH / DAY TO SECOND

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
const intervalEncoder = (field: Arrow.Field, data: Arrow.Data, firstRow: number): Result.Result<ColumnEncoder, AdbcError> => {
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

// ---------------------------------------------------------------------------------------------------------------
// VARCHAR / RAW: bytes with their length

/** Bytes the length prefix (and chunk framing) of a value of `n` bytes adds. */
const framing = (n: number): number => (n <= SHORT_MAX ? 1 : 2 + Math.ceil(n / CHUNK) * 5)

/** Writes UB4 `v` as oracledb does (buffer.js `writeUB4`: a length byte 0, 1, 2 or 4, then big-endian bytes). */
const writeUB4 = (v: number, out: Uint8Array, pos: number): number => {
  if (v === 0) {
    out[pos] = 0
    return pos + 1
  }
  const n = v <= 0xff ? 1 : v <= 0xffff ? 2 : 4
  out[pos++] = n
  for (let k = n - 1; k >= 0; k--) out[pos++] = (v >>> (8 * k)) & 0xff
  return pos
}

/** Writes `source[start, end)` with its length (the long form above 252 bytes); an empty value is NULL. */
const writeBytes = (source: Uint8Array, start: number, end: number, out: Uint8Array, pos: number): number => {
  const n = end - start
  if (n <= SHORT_MAX) {
    out[pos++] = n
    if (n <= COPY_LOOP_MAX) for (let k = start; k < end; k++) out[pos++] = source[k]!
    else {
      out.set(source.subarray(start, end), pos)
      pos += n
    }
    return pos
  }
  out[pos++] = LONG_INDICATOR
  for (let k = start; k < end; k += CHUNK) {
    const stop = Math.min(end, k + CHUNK)
    pos = writeUB4(stop - k, out, pos)
    out.set(source.subarray(k, stop), pos)
    pos += stop - k
  }
  return writeUB4(0, out, pos)
}

/** Number of UTF-16 code units of the UTF-8 bytes `b[start, end)` (a 4-byte sequence is a surrogate pair). */
const utf16Length = (b: Uint8Array, start: number, end: number): number => {
  let n = 0
  for (let k = start; k < end; k++) {
    const c = b[k]!
    if ((c & 0xc0) !== 0x80) n += c >= 0xf0 ? 2 : 1
  }
  return n
}

const invalidData = (message: string): AdbcError => adbcError("INVALID_DATA", message)

/**
 * The error of a string longer than its column accepts: INVALID_ARGUMENT naming column, row (1-based), length
 * and limit.
 *
 * @category errors
 * @since 0.1.0
 */
export const stringTooLong = (field: Arrow.Field, row: number, length: number, limit: StringLimit): AdbcError =>
  invalidArgument(
    `column ${JSON.stringify(field.name)}: row ${row + 1} holds ${length} characters, more than the ${limit.max} its ` +
      `${limit.typeName} column accepts (values are never truncated); shorten the value or append to a table whose ` +
      `column is wide enough`
  )

/**
 * Variable-width columns (strings and bytes with offsets): the bytes straight from the Arrow buffer. Strings are
 * checked against `limit` (refused naming column, row, length and limit) before anything is sent.
 */
const offsetsEncoder = (
  field: Arrow.Field,
  data: Arrow.Data,
  type: "VARCHAR" | "RAW",
  limit: StringLimit | undefined,
  firstRow: number
): Result.Result<ColumnEncoder, AdbcError> => {
  const bitmap = validity(data)
  const offset = data.offset
  const bytes = data.values as Uint8Array
  const large = data.type.typeId === Arrow.Type.LargeUtf8 || data.type.typeId === Arrow.Type.LargeBinary
  const offsets = large ? toNumberOffsets(data.valueOffsets as unknown as BigInt64Array) : (data.valueOffsets as Int32Array)
  let longest = 1
  for (let i = 0; i < data.length; i++) {
    const n = offsets[i + 1]! - offsets[i]!
    if (limit !== undefined && n > limit.max && isValid(bitmap, offset, i)) {
      // a character takes at least one byte: only values of more bytes than the limit need counting
      const chars = utf16Length(bytes, offsets[i]!, offsets[i + 1]!)
      if (chars > limit.max) return Result.fail(stringTooLong(field, firstRow + i, chars, limit))
    }
    if (n > longest) longest = n
  }
  return Result.succeed({
    type,
    maxSize: longest,
    bound: (start, end) => offsets[end]! - offsets[start]! + (end - start) * framing(longest),
    write: (i, out, pos) => (isValid(bitmap, offset, i) ? writeBytes(bytes, offsets[i]!, offsets[i + 1]!, out, pos) : writeNull(out, pos))
  })
}

const toNumberOffsets = (offsets: BigInt64Array): Float64Array => Float64Array.from(offsets, Number)

/** fixed_size_binary: `byteWidth` bytes per value. */
const fixedBinaryEncoder = (data: Arrow.Data): ColumnEncoder => {
  const width = (data.type as Arrow.FixedSizeBinary).byteWidth
  const bitmap = validity(data)
  const offset = data.offset
  const bytes = data.values as Uint8Array
  return {
    type: "RAW",
    maxSize: Math.max(1, width),
    bound: (start, end) => (end - start) * (width + framing(width)),
    write: (i, out, pos) => (isValid(bitmap, offset, i) ? writeBytes(bytes, i * width, (i + 1) * width, out, pos) : writeNull(out, pos))
  }
}

/** string_view / binary_view: their values read through apache-arrow (no buffer of contiguous bytes to copy). */
const viewEncoder = (
  field: Arrow.Field,
  data: Arrow.Data,
  limit: StringLimit | undefined,
  firstRow: number
): Result.Result<ColumnEncoder, AdbcError> => {
  const cells = columnCells(data)
  const values: Array<Uint8Array | null> = new Array(data.length)
  let longest = 1
  let total = 0
  for (let i = 0; i < data.length; i++) {
    const v = cells.get(i) as string | Uint8Array | null
    if (v === null) {
      values[i] = null
      continue
    }
    if (typeof v === "string" && limit !== undefined && v.length > limit.max) return Result.fail(stringTooLong(field, firstRow + i, v.length, limit))
    const b = typeof v === "string" ? Buffer.from(v) : v
    values[i] = b
    longest = Math.max(longest, b.length)
    total += b.length
  }
  return Result.succeed({
    type: cells.kind === "string" ? "VARCHAR" : "RAW",
    maxSize: longest,
    bound: (start, end) => total + (end - start) * framing(longest),
    write: (i, out, pos) => {
      const v = values[i]
      return v === null || v === undefined ? writeNull(out, pos) : writeBytes(v, 0, v.length, out, pos)
    }
  })
}

const nullEncoder: ColumnEncoder = fixed("NUMBER", 1, (_i, out, pos) => writeNull(out, pos))

// ---------------------------------------------------------------------------------------------------------------

/**
 * Why a column cannot take the fast path (undefined when it can): struct and list columns (JSON text) and
 * geoarrow columns (SDO_GEOMETRY objects) are encoded by oracledb from JS values, as is every column when the
 * database character set is not AL32UTF8 (Oracle would convert VARCHAR bytes into that character set).
 *
 * @category encoding
 * @since 0.1.0
 */
export const fastPathRefusal = (field: Arrow.Field, utf8Database: boolean): string | undefined => {
  if (!utf8Database) return "the database character set is not AL32UTF8"
  if (field.metadata.get("ARROW:extension:name") !== undefined) return `extension type ${field.metadata.get("ARROW:extension:name")}`
  const t = field.type.typeId
  if (t === Arrow.Type.Struct || t === Arrow.Type.List || t === Arrow.Type.LargeList || t === Arrow.Type.FixedSizeList) {
    return `Arrow type ${field.type} (JSON text)`
  }
  return undefined
}

/**
 * The encoder of one ingested column (call {@link fastPathRefusal} first). `limit` bounds the characters of string
 * values (the target column's width); `firstRow` (0-based) is the ingest's row of the column's first value, so that
 * refusals name rows as the whole ingest counts them.
 *
 * @category encoding
 * @since 0.1.0
 */
export const columnEncoder = (
  field: Arrow.Field,
  data: Arrow.Data,
  limit: StringLimit | undefined,
  firstRow = 0
): Result.Result<ColumnEncoder, AdbcError> => {
  switch (data.type.typeId) {
    case Arrow.Type.Int:
      return Result.succeed(intEncoder(data))
    case Arrow.Type.Decimal:
      return decimalEncoder(field, data)
    case Arrow.Type.Float:
      return Result.succeed(floatEncoder(data))
    case Arrow.Type.Bool:
      return Result.succeed(boolEncoder(data))
    case Arrow.Type.Date:
      return dateEncoder(field, data, firstRow)
    case Arrow.Type.Timestamp:
      return timestampEncoder(field, data, firstRow)
    case Arrow.Type.Interval:
      return intervalEncoder(field, data, firstRow)
    case Arrow.Type.Utf8:
    case Arrow.Type.LargeUtf8:
      return offsetsEncoder(field, data, "VARCHAR", limit, firstRow)
    case Arrow.Type.Binary:
    case Arrow.Type.LargeBinary:
      return offsetsEncoder(field, data, "RAW", undefined, firstRow)
    case Arrow.Type.FixedSizeBinary:
      return Result.succeed(fixedBinaryEncoder(data))
    case Arrow.Type.Utf8View:
    case Arrow.Type.BinaryView:
      return viewEncoder(field, data, limit, firstRow)
    case Arrow.Type.Null:
      return Result.succeed(nullEncoder)
    default:
      return Result.fail(invalidArgument(`field ${JSON.stringify(field.name)} of Arrow type ${field.type} has no bind encoder`))
  }
}

/** Rows encoded by {@link encodeRows} since the process started (tests read it to see when encoding ran). */
let rowsEncodedTotal = 0

/** Rows encoded so far. @category internals @since 0.1.0 */
export const rowsEncoded = (): number => rowsEncodedTotal

/**
 * Encodes rows `[start, end)` of `columns` (in their wire order) into one buffer of bind rows.
 *
 * @category encoding
 * @since 0.1.0
 */
export const encodeRows = (columns: ReadonlyArray<ColumnEncoder>, start: number, end: number): EncodedRows => {
  rowsEncodedTotal += end - start
  let bound = 0
  for (const c of columns) bound += c.bound(start, end)
  const bytes = Buffer.allocUnsafe(bound)
  const rows = end - start
  const offsets = new Uint32Array(rows + 1)
  const width = columns.length
  let pos = 0
  for (let r = 0; r < rows; r++) {
    offsets[r] = pos
    const i = start + r
    for (let c = 0; c < width; c++) pos = columns[c]!.write(i, bytes, pos)
  }
  offsets[rows] = pos
  return { rows, bytes, offsets }
}

/**
 * How a batch is ingested: its columns' encoders (in bind order) for the fast path, or the reason it goes through
 * oracledb's own encoder.
 *
 * @category models
 * @since 0.1.0
 */
export type EncodePlan =
  | { readonly _tag: "Encoded"; readonly encoders: ReadonlyArray<ColumnEncoder> }
  | { readonly _tag: "Fallback"; readonly reason: string }

/**
 * The plan of a batch: encoders when every column takes the fast path, else the first column's refusal
 * ({@link fastPathRefusal}) as the reason; a string longer than its column's limit or a date outside Oracle's range
 * fails before anything is sent, naming its row counted across the whole ingest (the batch starts at row
 * `firstRow`, 0-based).
 *
 * @category encoding
 * @since 0.1.0
 */
export const batchEncoders = (
  batch: Arrow.RecordBatch,
  limitOf: (column: string) => StringLimit | undefined,
  utf8Database: boolean,
  firstRow: number
): Result.Result<EncodePlan, AdbcError> => {
  const fields = batch.schema.fields
  for (let c = 0; c < fields.length; c++) {
    const refusal = fastPathRefusal(fields[c]!, utf8Database)
    if (refusal !== undefined) {
      return Result.succeed({ _tag: "Fallback", reason: `column ${c + 1} (${JSON.stringify(fields[c]!.name)}): ${refusal}` })
    }
  }
  const out: Array<ColumnEncoder> = []
  for (let c = 0; c < fields.length; c++) {
    const field = fields[c]!
    const encoder = columnEncoder(field, batch.getChildAt(c)!.data[0]!, limitOf(field.name), firstRow)
    if (Result.isFailure(encoder)) return Result.fail(encoder.failure)
    out.push(encoder.success)
  }
  return Result.succeed({ _tag: "Encoded", encoders: out })
}
