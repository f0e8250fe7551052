// One module: the per-type cell writers (about 670 of its lines) and the part framing share the ColumnEncoder / ValueError internals of one hot loop; cut apart, the cell writers alone would still pass 600 lines.
/**
 * Arrow record batches encoded straight into the PARAMETERS part of a HANA batch EXECUTE, from the column buffers,
 * with no JavaScript value per cell. Each row is, per parameter, `[type code][value]` and a NULL is the type code
 * with bit 7 set, in the layouts hdb 2.30.1 writes (lib/protocol/Writer.js: the normalized type code of
 * common/NormalizedTypeCode.js first; integers little-endian; REAL / DOUBLE IEEE little-endian; FIXED8/12/16 the
 * unscaled value in two's complement; text and binary a length indicator (≤ 245 one byte, else 246 + int16 or
 * 247 + int32) and the bytes, text in CESU-8; BOOLEAN 0 false / 2 true; DAYDATE the day number (1 = 0001-01-01,
 * Julian calendar before 1582-10-15), SECONDTIME seconds + 1, SECONDDATE and LONGDATE seconds / 100 ns since
 * 0001-01-01 + 1; NULL of DAYDATE / SECONDTIME / SECONDDATE / LONGDATE is DATE / TIME / TIMESTAMP with bit 7).
 *
 * Values are taken as hdb takes the text the row path hands it: dates by their proleptic Gregorian label, times
 * truncated to the column's resolution, decimals truncated to the column's scale.
 *
 * A batch is encoded only when every column pairs with its parameter type below; otherwise {@link planEncoding}
 * names the column and the driver binds that batch through hdb's own writer (LOB parameters, floating DECIMAL,
 * data format version 1 date types, half floats, text to numbers and the like).
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { isAscii } from "node:buffer"
import { type AdbcError, adbcError } from "../../src/AdbcError.ts"
import { civilFromDays, formatEpochDay } from "../common/ArrowCells.ts"
import { floorDivInt64, TWO_32 } from "../common/Int64Words.ts"
import { TypeCode, typeCodeName } from "./ReadTypes.ts"

/** A parameter as PREPARE described it (hdb's ParameterMetadata). @category models @since 0.1.0 */
export interface EncodedParameter {
  readonly dataType: number
  readonly fraction: number
  readonly length: number
}

/** Rows written into one PARAMETERS part. @category models @since 0.1.0 */
export interface EncodedPart {
  readonly rows: number
  readonly bytes: number
}

/**
 * Writes rows `[start, end)` of the batch into `out` from offset 0 while they fit in `limit` bytes (at least one
 * row, unless that row alone is larger than `limit`: then INVALID_ARGUMENT naming its largest parameter).
 * A value the parameter cannot take fails INVALID_ARGUMENT naming row and column.
 *
 * @category models
 * @since 0.1.0
 */
export type PartEncoder = (start: number, end: number, limit: number) => EncodedPart & { readonly data: Buffer } | AdbcError

/**
 * Whether a batch is encoded here, or bound through hdb's writer and why.
 *
 * @category models
 * @since 0.1.0
 */
export type EncodePlan =
  | { readonly _tag: "Encoded"; readonly encode: PartEncoder }
  | { readonly _tag: "Fallback"; readonly reason: string }

/** A value a parameter cannot take; caught per part and turned into INVALID_ARGUMENT naming row and column. */
class ValueError extends Error {
  constructor(readonly row: number, readonly column: number, readonly problem: string) {
    super(problem)
  }
}

/** Writes one cell at `pos`, returns the position after it. */
type CellWriter = (row: number, out: Buffer, pos: number) => number

interface ColumnEncoder {
  readonly write: CellWriter
  /** An upper bound of the bytes a row's cell takes (type code and length indicator included). */
  readonly maxBytes: number | ((row: number) => number)
}


/** The type byte of a NULL (hdb Writer.pushNull). */
const nullCode = (normalized: number): number => {
  switch (normalized) {
    case TypeCode.LONGDATE:
    case TypeCode.SECONDDATE:
      return TypeCode.TIMESTAMP | 0x80
    case TypeCode.DAYDATE:
      return TypeCode.DATE | 0x80
    case TypeCode.SECONDTIME:
      return TypeCode.TIME | 0x80
    default:
      return normalized | 0x80
  }
}

/** hdb's normalization of parameter type codes (lib/protocol/common/NormalizedTypeCode.js), for the types encoded here. */
const normalize = (code: number): number | undefined => {
  switch (code) {
    case TypeCode.TINYINT:
    case TypeCode.SMALLINT:
    case TypeCode.INT:
    case TypeCode.BIGINT:
    case TypeCode.REAL:
    case TypeCode.DOUBLE:
    case TypeCode.FIXED8:
    case TypeCode.FIXED12:
    case TypeCode.FIXED16:
    case TypeCode.BOOLEAN:
    case TypeCode.DAYDATE:
    case TypeCode.SECONDTIME:
    case TypeCode.LONGDATE:
    case TypeCode.SECONDDATE:
      return code
    case TypeCode.STRING:
    case TypeCode.VARCHAR1:
    case TypeCode.VARCHAR2:
    case TypeCode.CHAR:
    case TypeCode.SHORTTEXT:
    case TypeCode.ALPHANUM:
      return TypeCode.STRING
    case TypeCode.NCHAR:
    case TypeCode.NVARCHAR:
    case TypeCode.NSTRING:
      return TypeCode.NSTRING
    case TypeCode.BINARY:
    case TypeCode.VARBINARY:
    case TypeCode.BSTRING:
      return TypeCode.BINARY
    default:
      return undefined
  }
}

const validity = (data: Arrow.Data): ((row: number) => boolean) | undefined => {
  const bitmap = data.nullBitmap
  if (data.nullCount === 0 || bitmap === undefined || bitmap.length === 0) return undefined
  const offset = data.offset
  return (row) => {
    const k = row + offset
    return (bitmap[k >>> 3]! & (1 << (k & 7))) !== 0
  }
}

const bytesOf = (values: ArrayBufferView): Uint8Array => new Uint8Array(values.buffer, values.byteOffset, values.byteLength)

const writeInt32 = (out: Buffer, pos: number, v: number): void => {
  out[pos] = v
  out[pos + 1] = v >>> 8
  out[pos + 2] = v >>> 16
  out[pos + 3] = v >>> 24
}

/** Writes a signed integer below 2^53 in magnitude as int64 LE. */
const writeSafeInt64 = (out: Buffer, pos: number, v: number): void => {
  const hi = Math.floor(v / TWO_32)
  writeInt32(out, pos, v - hi * TWO_32)
  writeInt32(out, pos + 4, hi)
}

// ---------------------------------------------------------------------------------------------------------------
// Calendar: HANA day numbers of proleptic Gregorian labels (hdb lib/util/calendar.js DAYDATE)

/** Days since 1970-01-01 of 1582-10-15, the first day HANA numbers in the Gregorian calendar. */
const GREGORIAN_START = -141427
/** HANA day number of 1970-01-01 (1 = 0001-01-01). */
const HANA_DAY_1970 = 719165
/** Days since 1970-01-01 of 0001-01-01 and 9999-12-31, the dates hdb accepts. */
const FIRST_DAY = -719162
const LAST_DAY = 2932896

/** The HANA day number of the date labelled like proleptic Gregorian day `epochDay` (hdb calendar.DAYDATE). */
export const hanaDayNumber = (epochDay: number): number => {
  if (epochDay >= GREGORIAN_START) return epochDay + HANA_DAY_1970
  // hdb's Julian day formula for the label.
  const { day, month, year } = civilFromDays(epochDay)
  const jm = month > 2 ? month + 1 : month + 13
  const jy = month > 2 ? year : year - 1
  return Math.trunc(365.25 * jy) + Math.trunc(30.6001 * jm) + day + 1720995 - 1721424 + 1
}

const checkDay = (epochDay: number, row: number, column: number): void => {
  if (!(epochDay >= FIRST_DAY && epochDay <= LAST_DAY)) {
    throw new ValueError(row, column, `the date ${formatEpochDay(epochDay)} is outside 0001-01-01 … 9999-12-31, the range of HANA dates`)
  }
  // HANA's calendar goes from Julian 1582-10-04 to Gregorian 1582-10-15: hdb would number one of the ten labels
  // between as that Julian date, which reads back ten days later; refused rather than silently moved.
  if (epochDay >= GREGORIAN_START - 10 && epochDay < GREGORIAN_START) {
    throw new ValueError(
      row,
      column,
      `the date ${formatEpochDay(epochDay)} has no day in HANA's calendar, which goes from 1582-10-04 (Julian) to 1582-10-15 (Gregorian); HANA would read it back as ${formatEpochDay(epochDay + 10)}`
    )
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Column encoders by Arrow type and parameter type

type Maker = (data: Arrow.Data, column: number, parameter: EncodedParameter, normalized: number) => ColumnEncoder | string

const INT_RANGE: Readonly<Record<number, readonly [number, number, number]>> = {
  // [min, max, bytes]
  [TypeCode.TINYINT]: [0, 255, 1],
  [TypeCode.SMALLINT]: [-32768, 32767, 2],
  [TypeCode.INT]: [-2147483648, 2147483647, 4]
}

/** Writes `[target][v]` for an integer type of `size` bytes (v already in range). */
const writeInteger = (out: Buffer, pos: number, target: number, size: number, v: number): number => {
  out[pos] = target
  out[pos + 1] = v
  if (size >= 2) out[pos + 2] = v >> 8
  if (size === 4) {
    out[pos + 3] = v >> 16
    out[pos + 4] = v >> 24
  }
  return pos + 1 + size
}

const outOfRange = (row: number, column: number, target: number): ValueError =>
  new ValueError(row, column, `the value is out of range for ${typeCodeName(target)}`)

/** Integers of up to 32 bits (int8/16/32, uint8/16/32). */
const smallIntegers: Maker = (data, column, _parameter, target) => {
  const t = data.type as Arrow.Int
  const values = data.values as Int32Array
  if (target === TypeCode.BIGINT) {
    return {
      maxBytes: 9,
      write: (row, out, pos) => {
        out[pos] = TypeCode.BIGINT
        writeSafeInt64(out, pos + 1, values[row]!)
        return pos + 9
      }
    }
  }
  if (target === TypeCode.DOUBLE || target === TypeCode.REAL) {
    return floatWriter(target, (row) => values[row]!, column)
  }
  if (target === TypeCode.FIXED8 || target === TypeCode.FIXED12 || target === TypeCode.FIXED16) {
    return fixedFromInteger(target, (row) => values[row]!, _parameter.fraction, column)
  }
  const range = INT_RANGE[target]
  if (range === undefined) return `${t} to ${typeCodeName(target)}`
  const [min, max, size] = range
  const sourceMin = t.isSigned ? -(2 ** (t.bitWidth - 1)) : 0
  const sourceMax = t.isSigned ? 2 ** (t.bitWidth - 1) - 1 : 2 ** t.bitWidth - 1
  const checked = sourceMin < min || sourceMax > max
  return {
    maxBytes: size + 1,
    write: (row, out, pos) => {
      const v = values[row]!
      if (checked && (v < min || v > max)) throw outOfRange(row, column, target)
      return writeInteger(out, pos, target, size, v)
    }
  }
}

/** int64 / uint64. */
const bigIntegers: Maker = (data, column, parameter, target) => {
  const t = data.type as Arrow.Int
  const values = data.values as BigInt64Array | BigUint64Array
  const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2)
  const bytes = bytesOf(values)
  const signed = t.isSigned
  /** The value as a number when it is a safe integer, else undefined. */
  const safe = (row: number): number | undefined => {
    const hi = words[row * 2 + 1]!
    if (signed ? hi >= -2097152 && hi < 2097152 : hi >= 0 && hi < 2097152) return hi * TWO_32 + (words[row * 2]! >>> 0)
    return undefined
  }
  if (target === TypeCode.BIGINT) {
    return {
      maxBytes: 9,
      write: (row, out, pos) => {
        if (!signed && words[row * 2 + 1]! < 0) throw outOfRange(row, column, target)
        out[pos] = TypeCode.BIGINT
        const k = row * 8
        for (let i = 0; i < 8; i++) out[pos + 1 + i] = bytes[k + i]!
        return pos + 9
      }
    }
  }
  if (target === TypeCode.DOUBLE || target === TypeCode.REAL) {
    return floatWriter(target, (row) => safe(row) ?? Number(values[row]!), column)
  }
  if (target === TypeCode.FIXED8 || target === TypeCode.FIXED12 || target === TypeCode.FIXED16) {
    const width = fixedWidth(target)
    const scale = POW10[parameter.fraction]!
    return {
      maxBytes: width + 1,
      write: (row, out, pos) => {
        out[pos] = target
        writeFixed(out, pos + 1, width, BigInt(values[row]!) * scale, row, column, target)
        return pos + 1 + width
      }
    }
  }
  const range = INT_RANGE[target]
  if (range === undefined) return `${t} to ${typeCodeName(target)}`
  const [min, max, size] = range
  return {
    maxBytes: size + 1,
    write: (row, out, pos) => {
      const v = safe(row)
      if (v === undefined || v < min || v > max) throw outOfRange(row, column, target)
      return writeInteger(out, pos, target, size, v)
    }
  }
}

const scratch = new DataView(new ArrayBuffer(8))

const floatWriter = (target: number, read: (row: number) => number, column: number): ColumnEncoder => {
  const size = target === TypeCode.DOUBLE ? 8 : 4
  return {
    maxBytes: size + 1,
    write: (row, out, pos) => {
      const v = read(row)
      // hdb refuses NaN for REAL and DOUBLE parameters (Writer.js writeReal / writeDouble).
      if (v !== v) throw new ValueError(row, column, `NaN cannot be stored in ${typeCodeName(target)}`)
      out[pos] = target
      if (size === 8) scratch.setFloat64(0, v, true)
      else scratch.setFloat32(0, v, true)
      for (let i = 0; i < size; i++) out[pos + 1 + i] = scratch.getUint8(i)
      return pos + 1 + size
    }
  }
}

/** float32 / float64. */
const floats: Maker = (data, column, parameter, target) => {
  const t = data.type as Arrow.Float
  if (t.precision === Arrow.Precision.HALF) return "half-precision floats"
  const values = data.values as Float32Array | Float64Array
  if (target === TypeCode.FIXED8 || target === TypeCode.FIXED12 || target === TypeCode.FIXED16) {
    return fixedFromFloat(target, (row) => values[row]!, parameter.fraction, column)
  }
  if (target !== TypeCode.DOUBLE && target !== TypeCode.REAL) return `${t} to ${typeCodeName(target)}`
  const bytes = bytesOf(values)
  const same = (t.precision === Arrow.Precision.DOUBLE) === (target === TypeCode.DOUBLE)
  if (!same) return floatWriter(target, (row) => values[row]!, column)
  const size = target === TypeCode.DOUBLE ? 8 : 4
  return {
    maxBytes: size + 1,
    write: (row, out, pos) => {
      const v = values[row]!
      if (v !== v) throw new ValueError(row, column, `NaN cannot be stored in ${typeCodeName(target)}`)
      out[pos] = target
      const k = row * size
      for (let i = 0; i < size; i++) out[pos + 1 + i] = bytes[k + i]!
      return pos + 1 + size
    }
  }
}

const POW10: ReadonlyArray<bigint> = Array.from({ length: 77 }, (_, i) => 10n ** BigInt(i))
const LIMIT_38 = POW10[38]!

const fixedWidth = (target: number): number => (target === TypeCode.FIXED8 ? 8 : target === TypeCode.FIXED12 ? 12 : 16)

/**
 * Writes `unscaled` (already at the parameter's scale) as a `width`-byte two's-complement integer; hdb refuses more
 * than 38 digits and values the width cannot hold (Writer.js toFixedDecimal / checkFixedOverflow).
 */
const writeFixed = (out: Buffer, pos: number, width: number, unscaled: bigint, row: number, column: number, target: number) => {
  const limit = width === 16 ? LIMIT_38 : 1n << BigInt(width * 8 - 1)
  if (unscaled >= limit || unscaled < -limit || (width === 16 && unscaled === -limit)) {
    throw new ValueError(row, column, `the value has more digits than ${typeCodeName(target)} holds`)
  }
  let v = BigInt.asUintN(width * 8, unscaled)
  for (let i = 0; i < width; i += 4) {
    writeInt32(out, pos + i, Number(v & 0xffffffffn))
    v >>= 32n
  }
}

/**
 * A double into a FIXED parameter as hdb's writer takes a number: its shortest decimal text (`toExponential`), the
 * digits beyond the parameter's scale cut (Writer.js toFixedDecimal, truncateDecimalToExp). A value of at most 15
 * significant digits that has no digit beyond the scale is its scaled integer (15 digits identify a double), so only
 * other values take the text.
 */
const fixedFromFloat = (target: number, read: (row: number) => number, fraction: number, column: number): ColumnEncoder => {
  const width = fixedWidth(target)
  const factor = 10 ** fraction
  return {
    maxBytes: width + 1,
    write: (row, out, pos) => {
      const v = read(row)
      if (!Number.isFinite(v)) throw new ValueError(row, column, `${v} cannot be stored in ${typeCodeName(target)}`)
      out[pos] = target
      const scaled = Math.round(v * factor)
      if (fraction <= 15 && Math.abs(scaled) < 1e15 && scaled / factor === v) {
        writeSafeInt64(out, pos + 1, scaled)
        const fill = scaled < 0 ? 0xff : 0
        for (let i = 8; i < width; i++) out[pos + 1 + i] = fill
      } else {
        writeFixed(out, pos + 1, width, scaledText(v, fraction, row, column, target), row, column, target)
      }
      return pos + 1 + width
    }
  }
}

/** `v`'s shortest decimal digits at `fraction` decimals, the digits beyond cut toward zero. */
const scaledText = (v: number, fraction: number, row: number, column: number, target: number): bigint => {
  const [mantissa, exponent] = v.toExponential().split("e") as [string, string]
  const negative = mantissa.startsWith("-")
  const digits = mantissa.replace("-", "").replace(".", "")
  const shift = Number(exponent) - (digits.length - 1) + fraction
  if (shift > 38) throw new ValueError(row, column, `the value has more digits than ${typeCodeName(target)} holds`)
  const scaled = shift >= 0
    ? BigInt(digits) * POW10[shift]!
    : digits.length + shift > 0
    ? BigInt(digits.slice(0, digits.length + shift))
    : 0n
  return negative ? -scaled : scaled
}

const fixedFromInteger = (target: number, read: (row: number) => number, fraction: number, column: number): ColumnEncoder => {
  const width = fixedWidth(target)
  const factor = 10 ** fraction
  const bigFactor = POW10[fraction]!
  return {
    maxBytes: width + 1,
    write: (row, out, pos) => {
      const v = read(row)
      out[pos] = target
      const scaled = v * factor
      if (fraction <= 15 && Number.isSafeInteger(scaled)) {
        writeSafeInt64(out, pos + 1, scaled)
        const fill = scaled < 0 ? 0xff : 0
        for (let i = 8; i < width; i++) out[pos + 1 + i] = fill
      } else {
        writeFixed(out, pos + 1, width, BigInt(v) * bigFactor, row, column, target)
      }
      return pos + 1 + width
    }
  }
}

/** decimal128 / decimal256 to FIXED8/12/16. */
const decimals: Maker = (data, column, parameter, target) => {
  const t = data.type as Arrow.Decimal
  if (target !== TypeCode.FIXED8 && target !== TypeCode.FIXED12 && target !== TypeCode.FIXED16) {
    return `${t} to ${typeCodeName(target)}`
  }
  if (t.precision > 38) return `${t} (more than 38 digits)`
  const width = fixedWidth(target)
  const words = t.bitWidth / 32
  const values = data.values as unknown as Uint32Array
  const fraction = parameter.fraction
  const shift = fraction - t.scale
  const read = (row: number): bigint => {
    let v = 0n
    for (let w = words - 1; w >= 0; w--) v = (v << 32n) | BigInt(values[row * words + w]!)
    return BigInt.asIntN(t.bitWidth, v)
  }
  // Exact: with the same scale, a value whose upper words only extend the sign is copied word by word.
  const sameScale = shift === 0
  return {
    maxBytes: width + 1,
    write: (row, out, pos) => {
      out[pos] = target
      const k = row * words
      if (sameScale) {
        const top = values[k + width / 4 - 1]! | 0
        const fill = top < 0 ? 0xffffffff : 0
        let fits = width < 16 || (top > -0x4b3b4ca8 && top < 0x4b3b4ca8)
        for (let w = width / 4; fits && w < words; w++) fits = values[k + w] === fill
        if (fits) {
          for (let w = 0; w < width / 4; w++) writeInt32(out, pos + 1 + w * 4, values[k + w]!)
          return pos + 1 + width
        }
      }
      const v = read(row)
      // hdb truncates digits beyond the column's scale (Writer.js truncateDecimalToExp).
      const scaled = shift >= 0 ? v * POW10[shift]! : v / POW10[-shift]!
      writeFixed(out, pos + 1, width, scaled, row, column, target)
      return pos + 1 + width
    }
  }
}

const booleans: Maker = (data, _column, _parameter, target) => {
  if (target !== TypeCode.BOOLEAN) return `bool to ${typeCodeName(target)}`
  const bits = data.values as Uint8Array
  const offset = data.offset
  return {
    maxBytes: 2,
    write: (row, out, pos) => {
      const k = row + offset
      out[pos] = TypeCode.BOOLEAN
      out[pos + 1] = (bits[k >>> 3]! & (1 << (k & 7))) !== 0 ? 2 : 0
      return pos + 2
    }
  }
}

/** Epoch days of a date32 / date64 column. */
const dayReader = (data: Arrow.Data): ((row: number) => number) => {
  const t = data.type as Arrow.Date_
  if (t.unit === Arrow.DateUnit.DAY) {
    const values = data.values as Int32Array
    return (row) => values[row]!
  }
  const words = new Int32Array((data.values as Int32Array).buffer, (data.values as Int32Array).byteOffset, data.length * 2)
  return (row) => Math.floor((words[row * 2 + 1]! * TWO_32 + (words[row * 2]! >>> 0)) / 86_400_000)
}

const dates: Maker = (data, column, _parameter, target) => {
  if (target !== TypeCode.DAYDATE) return `${data.type} to ${typeCodeName(target)}`
  const day = dayReader(data)
  return {
    maxBytes: 5,
    write: (row, out, pos) => {
      const d = day(row)
      checkDay(d, row, column)
      out[pos] = TypeCode.DAYDATE
      writeInt32(out, pos + 1, hanaDayNumber(d))
      return pos + 5
    }
  }
}

const UNIT_NAMES = ["s", "ms", "µs", "ns"] as const

const times: Maker = (data, column, _parameter, target) => {
  if (target !== TypeCode.SECONDTIME) return `${data.type} to ${typeCodeName(target)}`
  const t = data.type as Arrow.Time
  const perSecond = [1, 1e3, 1e6, 1e9][t.unit]!
  const raw = data.values as Int32Array | BigInt64Array
  const values = new Int32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4)
  const read = t.bitWidth === 32
    ? (row: number) => values[row]!
    : (row: number) => values[row * 2 + 1]! * TWO_32 + (values[row * 2]! >>> 0)
  return {
    maxBytes: 5,
    write: (row, out, pos) => {
      // hdb keeps whole seconds of the time text (Writer.js writeSecondTime).
      const seconds = Math.floor(read(row) / perSecond)
      if (!(seconds >= 0 && seconds < 86400)) {
        const value = t.bitWidth === 32 ? String(values[row]!) : String((raw as BigInt64Array)[row]!)
        throw new ValueError(row, column, `the time ${value} ${UNIT_NAMES[t.unit]} is outside 00:00:00 … 23:59:59, the range of HANA times`)
      }
      out[pos] = TypeCode.SECONDTIME
      writeInt32(out, pos + 1, seconds + 1)
      return pos + 5
    }
  }
}

const US_PER_DAY = 86_400_000_000
/** 100 ns ticks per day: 201 · 2^32 + 711,573,504. */
const TICKS_PER_DAY_HI = 201
const TICKS_PER_DAY_LO = 711_573_504

/**
 * A timestamp into a DATE parameter: its UTC day, the time of day dropped, as hdb's writer takes the timestamp's text
 * (Writer.js writeDayDate reads only its date).
 */
const timestampDays = (data: Arrow.Data, column: number): ColumnEncoder => {
  const t = data.type as Arrow.Timestamp
  const values = data.values as unknown as BigInt64Array
  const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2)
  const perSecond = [1, 1e3, 1e6, 1e9][t.unit]!
  const split = new Float64Array(2)
  return {
    maxBytes: 5,
    write: (row, out, pos) => {
      floorDivInt64(words[row * 2 + 1]!, words[row * 2]!, perSecond, split)
      const day = Math.floor(split[0]! / 86_400)
      checkDay(day, row, column)
      out[pos] = TypeCode.DAYDATE
      writeInt32(out, pos + 1, hanaDayNumber(day))
      return pos + 5
    }
  }
}

const timestamps: Maker = (data, column, _parameter, target) => {
  if (target === TypeCode.DAYDATE) return timestampDays(data, column)
  if (target !== TypeCode.LONGDATE && target !== TypeCode.SECONDDATE) return `${data.type} to ${typeCodeName(target)}`
  const t = data.type as Arrow.Timestamp
  const values = data.values as unknown as BigInt64Array
  const words = new Int32Array(values.buffer, values.byteOffset, values.length * 2)
  /** Microseconds per unit (seconds, ms, µs) or undefined for ns. */
  const usPerUnit = [1e6, 1e3, 1, undefined][t.unit]
  const perSecond = [1, 1e3, 1e6, 1e9][t.unit]!
  /** [seconds since the epoch (floor), ticks into that second] of the cell being written. */
  const split = new Float64Array(2)
  const long = target === TypeCode.LONGDATE
  /** Writes the value of epoch day `day`, `us` microseconds and `sub` 100 ns ticks into the day. */
  const put = (out: Buffer, pos: number, day: number, us: number, sub: number, row: number) => {
    checkDay(day, row, column)
    const d = hanaDayNumber(day) - 1
    out[pos] = target
    if (long) {
      const low = d * TICKS_PER_DAY_LO + us * 10 + sub + 1
      const carry = Math.floor(low / TWO_32)
      writeInt32(out, pos + 1, low - carry * TWO_32)
      writeInt32(out, pos + 5, d * TICKS_PER_DAY_HI + carry)
    } else {
      writeSafeInt64(out, pos + 1, d * 86400 + Math.floor(us / 1e6) + 1)
    }
    return pos + 9
  }
  return {
    maxBytes: 9,
    write: (row, out, pos) => {
      const hi = words[row * 2 + 1]!
      if (usPerUnit !== undefined && hi >= -2097152 && hi < 2097152) {
        const us = (hi * TWO_32 + (words[row * 2]! >>> 0)) * usPerUnit
        if (Number.isSafeInteger(us)) {
          const day = Math.floor(us / US_PER_DAY)
          return put(out, pos, day, us - day * US_PER_DAY, 0, row)
        }
      }
      // Exact path without a BigInt: nanoseconds (100 ns kept, as hdb keeps 7 fraction digits) and values beyond
      // 2^53 µs, split into whole seconds (floor) and ticks into the second. The seconds are exact within ±2^53;
      // beyond, the value lies far outside 0001 … 9999 and `put` refuses its day all the same.
      floorDivInt64(hi, words[row * 2]!, perSecond, split)
      const seconds = split[0]!
      const ticks = split[1]!
      const day = Math.floor(seconds / 86_400)
      const micros = (seconds - day * 86_400) * 1e6
      return usPerUnit === undefined
        ? put(out, pos, day, micros + Math.floor(ticks / 1000), Math.floor((ticks % 1000) / 100), row)
        : put(out, pos, day, micros + ticks * usPerUnit, 0, row)
    }
  }
}

/** The length indicator size of `n` bytes of text or binary. */
const headerBytes = (n: number): number => (n <= 245 ? 2 : n <= 32767 ? 4 : 6)

const writeHeader = (out: Buffer, pos: number, type: number, n: number): number => {
  out[pos] = type
  if (n <= 245) {
    out[pos + 1] = n
    return pos + 2
  }
  if (n <= 32767) {
    out[pos + 1] = 246
    out[pos + 2] = n
    out[pos + 3] = n >>> 8
    return pos + 4
  }
  out[pos + 1] = 247
  writeInt32(out, pos + 2, n)
  return pos + 6
}

const copyBytes = (source: Uint8Array, start: number, end: number, out: Buffer, pos: number): number => {
  const n = end - start
  if (n < 32) for (let i = 0; i < n; i++) out[pos + i] = source[start + i]!
  else out.set(source.subarray(start, end), pos)
  return pos + n
}

const hasFourByteSequence = (bytes: Uint8Array): boolean => {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0xf0) return true
  return false
}

/** CESU-8 bytes of the valid UTF-8 `source[start, end)`: 4-byte sequences become two 3-byte surrogates. */
const cesu8Length = (source: Uint8Array, start: number, end: number): number => {
  let n = end - start
  for (let i = start; i < end; i++) if (source[i]! >= 0xf0) n += 2
  return n
}

const writeCesu8 = (source: Uint8Array, start: number, end: number, out: Buffer, pos: number): number => {
  let i = start
  while (i < end) {
    const b = source[i]!
    if (b < 0xf0) {
      out[pos++] = b
      i++
      continue
    }
    const cp = ((b & 0x07) << 18) | ((source[i + 1]! & 0x3f) << 12) | ((source[i + 2]! & 0x3f) << 6) | (source[i + 3]! & 0x3f)
    const v = cp - 0x10000
    const high = 0xd800 | (v >> 10)
    const low = 0xdc00 | (v & 0x3ff)
    out[pos++] = 0xe0 | (high >> 12)
    out[pos++] = 0x80 | ((high >> 6) & 0x3f)
    out[pos++] = 0x80 | (high & 0x3f)
    out[pos++] = 0xe0 | (low >> 12)
    out[pos++] = 0x80 | ((low >> 6) & 0x3f)
    out[pos++] = 0x80 | (low & 0x3f)
    i += 4
  }
  return pos
}

/** Value bytes of row `row`: [start, end) in `source`. */
interface Slices {
  readonly source: (row: number) => Uint8Array
  readonly start: (row: number) => number
  readonly end: (row: number) => number
}

const slicesOf = (data: Arrow.Data): Slices | undefined => {
  switch (data.type.typeId) {
    case Arrow.Type.Utf8:
    case Arrow.Type.Binary: {
      const values = data.values as Uint8Array
      const offsets = data.valueOffsets as Int32Array
      return { source: () => values, start: (row) => offsets[row]!, end: (row) => offsets[row + 1]! }
    }
    case Arrow.Type.LargeUtf8:
    case Arrow.Type.LargeBinary: {
      const values = data.values as Uint8Array
      const offsets = data.valueOffsets as unknown as BigInt64Array
      return { source: () => values, start: (row) => Number(offsets[row]!), end: (row) => Number(offsets[row + 1]!) }
    }
    case Arrow.Type.FixedSizeBinary: {
      const values = data.values as Uint8Array
      const width = (data.type as Arrow.FixedSizeBinary).byteWidth
      return { source: () => values, start: (row) => row * width, end: (row) => (row + 1) * width }
    }
    case Arrow.Type.Utf8View:
    case Arrow.Type.BinaryView: {
      // 16-byte views: int32 length, then the bytes inline (≤ 12) or a prefix, buffer index and offset.
      const views = data.values as Uint8Array
      const view = new DataView(views.buffer, views.byteOffset, views.byteLength)
      const buffers = data.variadicBuffers
      const size = (row: number) => Math.max(0, view.getInt32(row * 16, true))
      return {
        source: (row) => (size(row) <= 12 ? views : buffers[view.getInt32(row * 16 + 8, true)]!),
        start: (row) => (size(row) <= 12 ? row * 16 + 4 : view.getInt32(row * 16 + 12, true)),
        end: (row) => (size(row) <= 12 ? row * 16 + 4 + size(row) : view.getInt32(row * 16 + 12, true) + size(row))
      }
    }
    default:
      return undefined
  }
}

const texts: Maker = (data, _column, _parameter, target) => {
  if (target !== TypeCode.STRING && target !== TypeCode.NSTRING) return `${data.type} to ${typeCodeName(target)}`
  const slices = slicesOf(data)!
  const { source, start, end } = slices
  const view = data.type.typeId === Arrow.Type.Utf8View
  // Text without 4-byte sequences is its own CESU-8; one check of the whole buffer spares the per-value scan.
  const values = data.values as Uint8Array
  const plain = !view && (isAscii(values) || !hasFourByteSequence(values))
  if (plain) {
    return {
      maxBytes: (row) => end(row) - start(row) + 6,
      write: (row, out, pos) => {
        const s = start(row)
        const e = end(row)
        return copyBytes(values, s, e, out, writeHeader(out, pos, target, e - s))
      }
    }
  }
  return {
    maxBytes: (row) => Math.ceil((end(row) - start(row)) * 1.5) + 6,
    write: (row, out, pos) => {
      const bytes = source(row)
      const s = start(row)
      const e = end(row)
      return writeCesu8(bytes, s, e, out, writeHeader(out, pos, target, cesu8Length(bytes, s, e)))
    }
  }
}

const binaries: Maker = (data, _column, _parameter, target) => {
  if (target !== TypeCode.BINARY) return `${data.type} to ${typeCodeName(target)}`
  const { source, start, end } = slicesOf(data)!
  return {
    maxBytes: (row) => end(row) - start(row) + 6,
    write: (row, out, pos) => {
      const s = start(row)
      const e = end(row)
      return copyBytes(source(row), s, e, out, writeHeader(out, pos, target, e - s))
    }
  }
}

const makerOf = (type: Arrow.DataType): Maker | undefined => {
  switch (type.typeId) {
    case Arrow.Type.Int:
      return (type as Arrow.Int).bitWidth === 64 ? bigIntegers : smallIntegers
    case Arrow.Type.Float:
      return floats
    case Arrow.Type.Decimal:
      return decimals
    case Arrow.Type.Bool:
      return booleans
    case Arrow.Type.Date:
      return dates
    case Arrow.Type.Time:
      return times
    case Arrow.Type.Timestamp:
      return timestamps
    case Arrow.Type.Utf8:
    case Arrow.Type.LargeUtf8:
    case Arrow.Type.Utf8View:
      return texts
    case Arrow.Type.Binary:
    case Arrow.Type.LargeBinary:
    case Arrow.Type.FixedSizeBinary:
    case Arrow.Type.BinaryView:
      return binaries
    default:
      return undefined
  }
}

/** Wraps a value writer with the column's NULLs. */
const withNulls = (encoder: ColumnEncoder, data: Arrow.Data, normalized: number): ColumnEncoder => {
  const valid = validity(data)
  if (valid === undefined) return encoder
  const code = nullCode(normalized)
  const write = encoder.write
  const max = encoder.maxBytes
  return {
    maxBytes: typeof max === "number" ? max : (row) => (valid(row) ? max(row) : 1),
    write: (row, out, pos) => {
      if (valid(row)) return write(row, out, pos)
      out[pos] = code
      return pos + 1
    }
  }
}

const oversizedRow = (
  row: number,
  parameter: number,
  name: string,
  bytes: number,
  limit: number
): AdbcError =>
  adbcError(
    "INVALID_ARGUMENT",
    `parameter ${parameter + 1} (${JSON.stringify(name)}) of row ${row + 1} takes ${bytes} bytes; one row's values ` +
      `must fit in one request packet of ${limit} bytes for parameter data. Larger values are accepted by BLOB, ` +
      `CLOB and NCLOB parameters, which are sent in pieces`
  )

/** INVALID_ARGUMENT naming the column and row (of the whole ingest, which starts the batch at `firstRow`) of `e`. */
const refusal = (fields: ReadonlyArray<Arrow.Field>, e: ValueError, firstRow: number): AdbcError =>
  adbcError("INVALID_ARGUMENT", `column ${e.column + 1} (${JSON.stringify(fields[e.column]!.name)}), row ${firstRow + e.row + 1}: ${e.problem}`)

/**
 * For a batch bound through hdb's writer: its first date, time or timestamp outside what its parameter takes,
 * refused as the encoder refuses it (column, row of the whole ingest, value and range), or undefined. hdb's own
 * refusal ("Cannot set parameter at row: 2. Wrong input for LONGDATE type") names neither the column nor the
 * value, and counts rows from the batch's start.
 *
 * @category constructors
 * @since 0.1.0
 */
export const temporalRefusal = (
  batch: Arrow.RecordBatch,
  parameters: ReadonlyArray<EncodedParameter>,
  firstRow: number
): AdbcError | undefined => {
  const fields = batch.schema.fields
  const scratch = Buffer.allocUnsafe(16)
  for (let c = 0; c < Math.min(fields.length, parameters.length); c++) {
    const data = batch.data.children[c]!
    const t = data.type.typeId
    if (t !== Arrow.Type.Date && t !== Arrow.Type.Time && t !== Arrow.Type.Timestamp) continue
    const normalized = normalize(parameters[c]!.dataType)
    const made = normalized === undefined ? undefined : makerOf(data.type)?.(data, c, parameters[c]!, normalized)
    if (made === undefined || typeof made === "string") continue
    const write = withNulls(made, data, normalized!).write
    try {
      for (let row = 0; row < data.length; row++) write(row, scratch, 0)
    } catch (e) {
      if (e instanceof ValueError) return refusal(fields, e, firstRow)
      throw e
    }
  }
  return undefined
}

/**
 * The encoding of a batch for the statement's parameters (column `c` to parameter `c`), or why it goes through
 * hdb's writer instead. A value a parameter cannot take is named by its row in the whole ingest, the batch starting
 * at row `firstRow` (0-based).
 *
 * @category constructors
 * @since 0.1.0
 */
export const planEncoding = (
  batch: Arrow.RecordBatch,
  parameters: ReadonlyArray<EncodedParameter>,
  firstRow = 0
): EncodePlan => {
  const fields = batch.schema.fields
  if (fields.length !== parameters.length) {
    return { _tag: "Fallback", reason: `${fields.length} columns for ${parameters.length} parameters` }
  }
  const columns: Array<ColumnEncoder> = []
  for (let c = 0; c < fields.length; c++) {
    const data = batch.data.children[c]!
    const parameter = parameters[c]!
    const normalized = normalize(parameter.dataType)
    const maker = makerOf(data.type)
    const made = normalized === undefined
      ? `${typeCodeName(parameter.dataType)} parameters`
      : maker === undefined
      ? `${data.type} columns`
      : maker(data, c, parameter, normalized)
    if (typeof made === "string") {
      return { _tag: "Fallback", reason: `column ${c + 1} (${JSON.stringify(fields[c]!.name)}): ${made}` }
    }
    columns.push(withNulls(made, data, normalized!))
  }
  const writers = columns.map((c) => c.write)
  let fixed = 0
  const varying: Array<(row: number) => number> = []
  for (const c of columns) {
    if (typeof c.maxBytes === "number") fixed += c.maxBytes
    else varying.push(c.maxBytes)
  }
  const width = writers.length
  const rowBound = (row: number): number => {
    let n = fixed
    for (let i = 0; i < varying.length; i++) n += varying[i]!(row)
    return n
  }
  const writeRow = (row: number, out: Buffer, pos: number): number => {
    for (let c = 0; c < width; c++) pos = writers[c]!(row, out, pos)
    return pos
  }
  const tooLarge = (row: number, limit: number): AdbcError => {
    let worst = 0
    let worstBytes = -1
    const probe = Buffer.allocUnsafe(rowBound(row))
    for (let c = 0; c < width; c++) {
      const bytes = writers[c]!(row, probe, 0)
      if (bytes > worstBytes) {
        worst = c
        worstBytes = bytes
      }
    }
    return oversizedRow(row, worst, fields[worst]!.name, worstBytes, limit)
  }
  const encode: PartEncoder = (start, end, limit) => {
    const out = Buffer.allocUnsafe(limit)
    let pos = 0
    let row = start
    try {
      for (; row < end; row++) {
        const bound = rowBound(row)
        if (pos + bound <= limit) {
          pos = writeRow(row, out, pos)
          continue
        }
        // The bound says it might not fit: encode the row on its own and measure it.
        const alone = Buffer.allocUnsafe(bound)
        const bytes = writeRow(row, alone, 0)
        if (pos + bytes > limit) {
          if (pos === 0) return tooLarge(row, limit)
          break
        }
        alone.copy(out, pos, 0, bytes)
        pos += bytes
      }
    } catch (e) {
      if (e instanceof ValueError) return refusal(fields, e, firstRow)
      throw e
    }
    return { rows: row - start, bytes: pos, data: out.subarray(0, pos) }
  }
  return { _tag: "Encoded", encode }
}
