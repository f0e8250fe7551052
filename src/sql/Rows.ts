/**
 * Arrow record batches as the rows `effect/sql` hands to applications: plain objects keyed by column name (or arrays
 * of values), one JavaScript type per Arrow type, read straight from the batch's buffers.
 *
 * | Arrow (from the database type)           | JavaScript                                                         |
 * | ---------------------------------------- | ------------------------------------------------------------------ |
 * | int8 … int32, uint8 … uint32, float, double | `number`                                                        |
 * | int64, uint64                            | `number` when it is a safe integer, else its exact decimal `string` |
 * | decimal(p, 0) with p ≤ 15                | `number` (exact)                                                   |
 * | other decimal128 / decimal256            | exact decimal `string` (`"1234.50"`: scale digits kept)             |
 * | bool                                     | `boolean`                                                          |
 * | utf8, large_utf8 (text, CLOB/NCLOB)      | `string`                                                           |
 * | JSON (`arrow.json` or Oracle type JSON)  | the parsed JSON value                                              |
 * | binary kinds (RAW, VARBINARY, BLOB, WKB) | `Uint8Array` (a copy)                                              |
 * | date32 / date64                          | `Date` at UTC midnight of that day                                 |
 * | timestamp (any unit, any zone)           | `Date` (UTC; sub-millisecond digits are dropped)                   |
 * | time32 / time64                          | `string` `HH:MM:SS[.fraction]`                                     |
 * | interval year_month / day_time / m_d_ns  | ISO 8601 duration `string` (`P1Y2M`, `P3DT4H5M6.789S`)             |
 * | null                                     | `null`                                                             |
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { formatDecimal, readDecimalWords } from "../arrow/Decimal.ts"
import { floorDivInt64, TWO_32 } from "../arrow/Words.ts"

/** Reads row `i` of one column of a batch. */
type CellReader = (i: number) => unknown

const MS_PER_DAY = 86_400_000

const validityOf = (data: Arrow.Data): ((i: number) => boolean) | undefined => {
  const bitmap = data.nullBitmap
  if (data.nullCount === 0 || bitmap === undefined || bitmap.length === 0) return undefined
  const offset = data.offset
  return (i) => {
    const bit = offset + i
    return (bitmap[bit >> 3]! & (1 << (bit & 7))) !== 0
  }
}

/** An int64 of two 32-bit words as a number (exact below 2^53) or its decimal text. */
const int64Reader = (values: BigInt64Array | BigUint64Array, signed: boolean): CellReader => {
  const words = new Uint32Array(values.buffer, values.byteOffset, values.length * 2)
  return (i) => {
    const lo = words[2 * i]!
    const hiBits = words[2 * i + 1]!
    const hi = signed ? hiBits | 0 : hiBits
    if (hi >= -0x200000 && hi < 0x200000) return hi * TWO_32 + lo
    return values[i]!.toString()
  }
}

/** Milliseconds since the epoch of a 64-bit count of `unit`s. */
const int64Number = (values: BigInt64Array): ((i: number) => number) => {
  const words = new Uint32Array(values.buffer, values.byteOffset, values.length * 2)
  return (i) => (words[2 * i + 1]! | 0) * TWO_32 + words[2 * i]!
}

const UNIT_PER_MS: Record<number, number> = {
  [Arrow.TimeUnit.SECOND]: 1 / 1000,
  [Arrow.TimeUnit.MILLISECOND]: 1,
  [Arrow.TimeUnit.MICROSECOND]: 1000,
  [Arrow.TimeUnit.NANOSECOND]: 1_000_000
}

const pad2 = (n: number) => (n < 10 ? "0" : "") + n

const formatTime = (units: number, perSecond: number): string => {
  const seconds = Math.floor(units / perSecond)
  const fraction = units - seconds * perSecond
  const text = `${pad2(Math.floor(seconds / 3600))}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}`
  if (fraction === 0 || perSecond === 1) return text
  return `${text}.${String(fraction).padStart(Math.round(Math.log10(perSecond)), "0")}`
}

const durationText = (months: number, days: number, ms: number): string => {
  const negative = months < 0 || days < 0 || ms < 0
  const m = Math.abs(months)
  const d = Math.abs(days)
  let rest = Math.abs(ms)
  const hours = Math.floor(rest / 3_600_000)
  rest -= hours * 3_600_000
  const minutes = Math.floor(rest / 60_000)
  rest -= minutes * 60_000
  const seconds = rest / 1000
  let text = "P"
  if (m >= 12) text += `${Math.floor(m / 12)}Y`
  if (m % 12 !== 0) text += `${m % 12}M`
  if (d !== 0) text += `${d}D`
  if (hours !== 0 || minutes !== 0 || seconds !== 0) {
    text += "T"
    if (hours !== 0) text += `${hours}H`
    if (minutes !== 0) text += `${minutes}M`
    if (seconds !== 0) text += `${Number(seconds.toFixed(9))}S`
  }
  if (text === "P") text = "PT0S"
  return negative ? `-${text}` : text
}

const isJsonField = (field: Arrow.Field): boolean => {
  const metadata = field.metadata
  return metadata.get("ARROW:extension:name") === "arrow.json" || metadata.get("oracle.type-name") === "JSON"
}

const textReader = (data: Arrow.Data, large: boolean): CellReader => {
  const values = data.values as Uint8Array
  const buffer = Buffer.from(values.buffer, values.byteOffset, values.byteLength)
  const offsets = data.valueOffsets as Int32Array | BigInt64Array
  if (large) {
    return (i) => buffer.toString("utf8", Number(offsets[i]!), Number(offsets[i + 1]!))
  }
  const small = offsets as Int32Array
  return (i) => buffer.toString("utf8", small[i]!, small[i + 1]!)
}

const binaryReader = (data: Arrow.Data, large: boolean): CellReader => {
  const values = data.values as Uint8Array
  const offsets = data.valueOffsets as Int32Array | BigInt64Array
  return (i) => values.slice(Number(offsets[i]!), Number(offsets[i + 1]!))
}

/** A reader of one column (its first and only data chunk in a batch), nulls included. */
const columnReader = (field: Arrow.Field, vector: Arrow.Vector): CellReader => {
  const data = vector.data[0]!
  const type = data.type as Arrow.DataType
  const values = data.values as unknown
  let read: CellReader
  switch (type.typeId) {
    case Arrow.Type.Null:
      return () => null
    case Arrow.Type.Int: {
      const int = type as Arrow.Int
      read = int.bitWidth === 64
        ? int64Reader(values as BigInt64Array | BigUint64Array, int.isSigned)
        : (i) => (values as Int32Array)[i]
      break
    }
    case Arrow.Type.Float: {
      const floats = values as Float64Array
      read = (type as Arrow.Float).precision === Arrow.Precision.HALF
        ? (i) => vector.get(i)
        : (i) => floats[i]
      break
    }
    case Arrow.Type.Decimal: {
      const decimal = type as Arrow.Decimal
      const words = decimal.bitWidth / 32
      // DECIMAL(p) with p <= 15 holds integers a double represents exactly
      read = decimal.scale === 0 && decimal.precision <= 15
        ? (i) => Number(readDecimalWords(values as Uint32Array, i * words, words))
        : (i) => formatDecimal(readDecimalWords(values as Uint32Array, i * words, words), decimal.scale)
      break
    }
    case Arrow.Type.Bool: {
      const bits = values as Uint8Array
      const offset = data.offset
      read = (i) => (bits[(offset + i) >> 3]! & (1 << ((offset + i) & 7))) !== 0
      break
    }
    case Arrow.Type.Utf8:
    case Arrow.Type.LargeUtf8: {
      const text = textReader(data, type.typeId === Arrow.Type.LargeUtf8)
      read = isJsonField(field) ? (i) => JSON.parse(text(i) as string) : text
      break
    }
    case Arrow.Type.Binary:
    case Arrow.Type.LargeBinary:
      read = binaryReader(data, type.typeId === Arrow.Type.LargeBinary)
      break
    case Arrow.Type.FixedSizeBinary: {
      const width = (type as Arrow.FixedSizeBinary).byteWidth
      read = (i) => (values as Uint8Array).slice(i * width, (i + 1) * width)
      break
    }
    case Arrow.Type.Date: {
      if ((type as Arrow.Date_).unit === Arrow.DateUnit.DAY) {
        read = (i) => new Date((values as Int32Array)[i]! * MS_PER_DAY)
      } else {
        const ms = int64Number(values as BigInt64Array)
        read = (i) => new Date(ms(i))
      }
      break
    }
    case Arrow.Type.Timestamp: {
      const perMs = UNIT_PER_MS[(type as Arrow.Timestamp).unit]!
      if (perMs >= 1) {
        // A count within ±2^53 is an exact double; beyond (nanoseconds since 1970 are) the words are divided exactly.
        const int64 = values as BigInt64Array
        const words = new Int32Array(int64.buffer, int64.byteOffset, int64.length * 2)
        const split = new Float64Array(2)
        read = (i) => {
          const hi = words[2 * i + 1]!
          if (hi >= -2_097_152 && hi < 2_097_152) return new Date(Math.floor((hi * TWO_32 + (words[2 * i]! >>> 0)) / perMs))
          floorDivInt64(hi, words[2 * i]!, perMs, split)
          return new Date(split[0]!)
        }
      } else {
        const units = int64Number(values as BigInt64Array)
        read = (i) => new Date(units(i) / perMs)
      }
      break
    }
    case Arrow.Type.Time: {
      const time = type as Arrow.Time
      const perSecond = UNIT_PER_MS[time.unit]! * 1000
      const units = time.bitWidth === 64 ? int64Number(values as BigInt64Array) : (i: number) => (values as Int32Array)[i]!
      read = (i) => formatTime(units(i), perSecond)
      break
    }
    case Arrow.Type.Interval: {
      const ints = values as Int32Array
      switch ((type as Arrow.Interval).unit) {
        case Arrow.IntervalUnit.YEAR_MONTH:
          read = (i) => durationText(ints[i]!, 0, 0)
          break
        case Arrow.IntervalUnit.DAY_TIME:
          read = (i) => durationText(0, ints[2 * i]!, ints[2 * i + 1]!)
          break
        default: {
          // month_day_nano: int32 months, int32 days, int64 nanoseconds
          read = (i) => {
            const nanos = ints[4 * i + 3]! * TWO_32 + (ints[4 * i + 2]! >>> 0)
            return durationText(ints[4 * i]!, ints[4 * i + 1]!, nanos / 1_000_000)
          }
        }
      }
      break
    }
    default:
      read = (i) => {
        const value = vector.get(i)
        return value !== null && typeof value === "object" && "toJSON" in value ? (value as { toJSON(): unknown }).toJSON() : value
      }
  }
  const isValid = validityOf(data)
  return isValid === undefined ? read : (i) => (isValid(i) ? read(i) : null)
}

const readersOf = (batch: Arrow.RecordBatch): Array<CellReader> =>
  batch.schema.fields.map((field, c) => columnReader(field, batch.getChildAt(c)!))

/**
 * The rows of a batch as objects keyed by column name.
 *
 * @category conversions
 * @since 0.1.0
 */
export const batchToObjects = (batch: Arrow.RecordBatch, into: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> => {
  const readers = readersOf(batch)
  const names = batch.schema.fields.map((f) => f.name)
  const columns = names.length
  for (let r = 0, n = batch.numRows; r < n; r++) {
    const row: Record<string, unknown> = {}
    for (let c = 0; c < columns; c++) row[names[c]!] = readers[c]!(r)
    into.push(row)
  }
  return into
}

/**
 * The rows of a batch as arrays of values in column order.
 *
 * @category conversions
 * @since 0.1.0
 */
export const batchToArrays = (batch: Arrow.RecordBatch, into: Array<Array<unknown>> = []): Array<Array<unknown>> => {
  const readers = readersOf(batch)
  const columns = readers.length
  for (let r = 0, n = batch.numRows; r < n; r++) {
    const row = new Array<unknown>(columns)
    for (let c = 0; c < columns; c++) row[c] = readers[c]!(r)
    into.push(row)
  }
  return into
}
