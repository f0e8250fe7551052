/**
 * Reading the cells of an Arrow column straight from its buffers, as plain JS values a database client can bind:
 * numbers, bigints, decimal text, strings, bytes, and temporal values in epoch units. Shared by the HANA and Oracle
 * drivers' parameter binding and ingest paths; avoids apache-arrow's per-value `get()` on hot paths.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { formatDecimal, readDecimalWords } from "../../src/arrow/index.ts"
import { TWO_32 } from "./Int64Words.ts"

/**
 * A column's cells by kind. `get(i)` returns `null` for a null cell.
 * - `number`: int8..int32, uint8..uint32, float16/32/64
 * - `bigint`: int64, uint64 (a number when it is a safe integer, else a bigint)
 * - `decimal`: decimal128/256 as plain decimal text
 * - `bool`, `string`, `binary` (a view into the Arrow buffer; copy before keeping it)
 * - `date`: days since 1970-01-01
 * - `time`: nanoseconds since midnight
 * - `timestamp`: nanoseconds since the epoch (bigint); `timezone` is the Arrow type's zone (null = none)
 *
 * @category models
 * @since 0.1.0
 */
export type ColumnCells =
  | { readonly kind: "number"; readonly get: (i: number) => number | null }
  | { readonly kind: "bigint"; readonly get: (i: number) => number | bigint | null }
  | { readonly kind: "decimal"; readonly get: (i: number) => string | null }
  | { readonly kind: "bool"; readonly get: (i: number) => boolean | null }
  | { readonly kind: "string"; readonly get: (i: number) => string | null }
  | { readonly kind: "binary"; readonly get: (i: number) => Uint8Array | null }
  | { readonly kind: "date"; readonly get: (i: number) => number | null }
  | { readonly kind: "time"; readonly get: (i: number) => number | null }
  | {
    readonly kind: "timestamp"
    readonly timezone: string | null
    readonly get: (i: number) => bigint | null
    /** The value in the column's own unit (a number when safe, else a bigint), and that unit's ticks per second. */
    readonly getRaw: (i: number) => number | bigint | null
    readonly ticksPerSecond: number
  }

/**
 * Thrown for a column type with no cell reader (nested, dictionary, interval, …).
 *
 * @category errors
 * @since 0.1.0
 */
export class UnsupportedColumnError extends Error {}

const validity = (data: Arrow.Data): ((i: number) => boolean) => {
  const bitmap = data.nullBitmap
  if (data.nullCount === 0 || bitmap === undefined || bitmap.length === 0) return () => true
  const offset = data.offset
  return (i) => {
    const k = i + offset
    return (bitmap[k >>> 3]! & (1 << (k & 7))) !== 0
  }
}

const UNIT_TO_NANOS = [1_000_000_000n, 1_000_000n, 1_000n, 1n] as const

/** Decimal text of an unscaled safe integer at `scale`. */
const formatSmallDecimal = (unscaled: number, scale: number): string => {
  if (scale <= 0) return unscaled === 0 ? "0" : String(unscaled) + "0".repeat(-scale)
  const negative = unscaled < 0
  const digits = String(negative ? -unscaled : unscaled).padStart(scale + 1, "0")
  const body = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`
  return negative ? `-${body}` : body
}
const UNIT_TO_NANOS_NUMBER = [1e9, 1e6, 1e3, 1] as const

/**
 * The cell reader of one column (`Data` of a RecordBatch child, any offset).
 *
 * @category constructors
 * @since 0.1.0
 */
export const columnCells = (data: Arrow.Data): ColumnCells => {
  const valid = validity(data)
  const type = data.type as Arrow.DataType
  // apache-arrow slices value and offset buffers with the Data (data.js `_sliceBuffers`); only the validity bitmap
  // and bit-packed booleans are addressed through `data.offset`.
  const off = data.offset
  switch (type.typeId) {
    case Arrow.Type.Int: {
      const t = type as Arrow.Int
      if (t.bitWidth === 64) {
        const values = data.values as BigInt64Array | BigUint64Array
        const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2)
        const signed = t.isSigned
        return {
          kind: "bigint",
          get: (i) => {
            if (!valid(i)) return null
            const k = i * 2
            const hi = words[k + 1]!
            // Safe integers: high word within ±2^21 (signed) or below 2^21 (unsigned).
            if (hi >= -2097152 && hi < 2097152 && (signed || hi >= 0)) return hi * TWO_32 + (words[k]! >>> 0)
            return values[i]!
          }
        }
      }
      const values = data.values as Int32Array
      return { kind: "number", get: (i) => (valid(i) ? values[i]! : null) }
    }
    case Arrow.Type.Float: {
      const t = type as Arrow.Float
      if (t.precision === Arrow.Precision.HALF) {
        const vector = Arrow.makeVector(data)
        return { kind: "number", get: (i) => (valid(i) ? Number(vector.get(i)) : null) }
      }
      const values = data.values as Float64Array
      return { kind: "number", get: (i) => (valid(i) ? values[i]! : null) }
    }
    case Arrow.Type.Decimal: {
      const t = type as Arrow.Decimal
      const words = t.bitWidth / 32
      const values = data.values as unknown as Uint32Array
      return {
        kind: "decimal",
        get: (i) => {
          if (!valid(i)) return null
          const k = i * words
          const hi = values[k + 1]! | 0
          // Fast path: the upper words only extend the sign of a value below 2^53 in magnitude.
          let small = hi >= -2097152 && hi < 2097152
          const fill = hi < 0 ? 0xffffffff : 0
          for (let w = 2; small && w < words; w++) small = values[k + w] === fill
          if (small) return formatSmallDecimal(hi * TWO_32 + values[k]!, t.scale)
          return formatDecimal(readDecimalWords(values, k, words), t.scale)
        }
      }
    }
    case Arrow.Type.Bool: {
      const bits = data.values as Uint8Array
      return {
        kind: "bool",
        get: (i) => {
          if (!valid(i)) return null
          const k = i + off
          return (bits[k >>> 3]! & (1 << (k & 7))) !== 0
        }
      }
    }
    case Arrow.Type.Utf8:
    case Arrow.Type.LargeUtf8: {
      const bytes = data.values as Uint8Array
      const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      const offsets = data.valueOffsets as Int32Array | BigInt64Array
      const large = type.typeId === Arrow.Type.LargeUtf8
      return {
        kind: "string",
        get: (i) => {
          if (!valid(i)) return null
          const start = large ? Number(offsets[i]) : (offsets[i] as number)
          const end = large ? Number(offsets[i + 1]) : (offsets[i + 1] as number)
          return buffer.toString("utf8", start, end)
        }
      }
    }
    case Arrow.Type.Binary:
    case Arrow.Type.LargeBinary: {
      const bytes = data.values as Uint8Array
      const offsets = data.valueOffsets as Int32Array | BigInt64Array
      const large = type.typeId === Arrow.Type.LargeBinary
      return {
        kind: "binary",
        get: (i) => {
          if (!valid(i)) return null
          const start = large ? Number(offsets[i]) : (offsets[i] as number)
          const end = large ? Number(offsets[i + 1]) : (offsets[i + 1] as number)
          return bytes.subarray(start, end)
        }
      }
    }
    case Arrow.Type.FixedSizeBinary: {
      const width = (type as Arrow.FixedSizeBinary).byteWidth
      const bytes = data.values as Uint8Array
      return {
        kind: "binary",
        get: (i) => (valid(i) ? bytes.subarray(i * width, (i + 1) * width) : null)
      }
    }
    case Arrow.Type.Utf8View: {
      const vector = Arrow.makeVector(data)
      return { kind: "string", get: (i) => (valid(i) ? (vector.get(i) as string) : null) }
    }
    case Arrow.Type.BinaryView: {
      const vector = Arrow.makeVector(data)
      return { kind: "binary", get: (i) => (valid(i) ? (vector.get(i) as Uint8Array) : null) }
    }
    case Arrow.Type.Date: {
      const t = type as Arrow.Date_
      if (t.unit === Arrow.DateUnit.DAY) {
        const values = data.values as Int32Array
        return { kind: "date", get: (i) => (valid(i) ? values[i]! : null) }
      }
      const values = data.values as unknown as BigInt64Array
      return { kind: "date", get: (i) => (valid(i) ? Math.floor(Number(values[i]!) / 86_400_000) : null) }
    }
    case Arrow.Type.Time: {
      const t = type as Arrow.Time
      const factor = UNIT_TO_NANOS_NUMBER[t.unit]
      if (t.bitWidth === 32) {
        const values = data.values as Int32Array
        return { kind: "time", get: (i) => (valid(i) ? values[i]! * factor : null) }
      }
      const values = data.values as unknown as BigInt64Array
      return { kind: "time", get: (i) => (valid(i) ? Number(values[i]!) * factor : null) }
    }
    case Arrow.Type.Timestamp: {
      const t = type as Arrow.Timestamp
      const factor = UNIT_TO_NANOS[t.unit]
      const values = data.values as unknown as BigInt64Array
      const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2)
      return {
        kind: "timestamp",
        timezone: t.timezone ?? null,
        get: (i) => (valid(i) ? values[i]! * factor : null),
        getRaw: (i) => {
          if (!valid(i)) return null
          const k = i * 2
          const hi = words[k + 1]!
          if (hi >= -2097152 && hi < 2097152) return hi * TWO_32 + (words[k]! >>> 0)
          return values[i]!
        },
        ticksPerSecond: 1e9 / UNIT_TO_NANOS_NUMBER[t.unit]
      }
    }
    default:
      throw new UnsupportedColumnError(`Arrow type ${type} cannot be bound as a parameter`)
  }
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`)

/**
 * Proleptic Gregorian year, month (1–12) and day of a day number (days since 1970-01-01).
 *
 * @category formatting
 * @since 0.1.0
 */
export const civilFromDays = (days: number): { readonly year: number; readonly month: number; readonly day: number } => {
  // Howard Hinnant's civil_from_days (http://howardhinnant.github.io/date_algorithms.html#civil_from_days).
  const z = days + 719468
  const era = Math.floor(z / 146097)
  const doe = z - era * 146097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day }
}

/**
 * `YYYY-MM-DD` of a day number (days since 1970-01-01, proleptic Gregorian; years 1..9999).
 *
 * @category formatting
 * @since 0.1.0
 */
export const formatEpochDay = (days: number): string => {
  const { day, month, year } = civilFromDays(days)
  return `${String(year).padStart(4, "0")}-${pad2(month)}-${pad2(day)}`
}

/**
 * Days since 1970-01-01 of a proleptic Gregorian date.
 *
 * @category formatting
 * @since 0.1.0
 */
export const epochDayOf = (year: number, month: number, day: number): number => {
  // Howard Hinnant's days_from_civil.
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const mp = month > 2 ? month - 3 : month + 9
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}

const fraction9 = (nanos: number): string => String(nanos).padStart(9, "0")

/**
 * `HH:MM:SS.fffffffff` of nanoseconds since midnight.
 *
 * @category formatting
 * @since 0.1.0
 */
export const formatTimeOfDay = (nanos: number): string => {
  const seconds = Math.floor(nanos / 1e9)
  const frac = nanos - seconds * 1e9
  return `${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}.${fraction9(frac)}`
}

/**
 * `YYYY-MM-DD HH:MM:SS.fffffffff` (UTC) of nanoseconds since the epoch.
 *
 * @category formatting
 * @since 0.1.0
 */
export const formatEpochNanos = (nanos: bigint): string => {
  const NS_PER_DAY = 86_400_000_000_000n
  let days = nanos / NS_PER_DAY
  let rest = nanos - days * NS_PER_DAY
  if (rest < 0n) {
    rest += NS_PER_DAY
    days -= 1n
  }
  return `${formatEpochDay(Number(days))} ${formatTimeOfDay(Number(rest))}`
}

/** `HH:MM:SS` texts by second of the day, filled on use. */
const HMS: Array<string | undefined> = new Array(86400)

let cachedDay = Number.NaN
let cachedDayText = ""

/** `formatEpochDay` with a one-entry cache (consecutive rows often share a day). */
const dayText = (day: number): string => {
  if (day !== cachedDay) {
    cachedDay = day
    cachedDayText = formatEpochDay(day)
  }
  return cachedDayText
}

/**
 * `YYYY-MM-DD HH:MM:SS[.fraction]` (UTC) of a timestamp given in ticks of `ticksPerSecond` (1, 1e3, 1e6 or 1e9);
 * the fraction is left out when zero. Safe-integer ticks are formatted without bigints.
 *
 * @category formatting
 * @since 0.1.0
 */
export const formatEpochTicks = (ticks: number | bigint, ticksPerSecond: number): string => {
  if (typeof ticks === "bigint") return formatEpochNanos(ticks * BigInt(1e9 / ticksPerSecond))
  const perDay = 86400 * ticksPerSecond
  const day = Math.floor(ticks / perDay)
  const rest = ticks - day * perDay
  const seconds = Math.floor(rest / ticksPerSecond)
  const frac = rest - seconds * ticksPerSecond
  const hms = HMS[seconds] ?? (HMS[seconds] = `${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}`)
  if (frac === 0) return `${dayText(day)} ${hms}`
  const width = ticksPerSecond === 1e3 ? 3 : ticksPerSecond === 1e6 ? 6 : 9
  return `${dayText(day)} ${hms}.${String(frac).padStart(width, "0")}`
}
