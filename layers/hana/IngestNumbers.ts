/**
 * The encoded EXECUTE's numeric column encoders, in the layouts hdb 2.30.1 writes (lib/protocol/Writer.js): Arrow
 * integers into TINYINT / SMALLINT / INT (little-endian, range-checked) and BIGINT, integers and floats into REAL /
 * DOUBLE (IEEE little-endian; NaN refused as hdb refuses it), integers, floats and decimals into FIXED8 / 12 / 16
 * (the unscaled value in two's complement, digits beyond the parameter's scale cut as hdb cuts them), bool into
 * BOOLEAN (0 false, 2 true).
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { TWO_32 } from "../common/Int64Words.ts"
import { bytesOf, type ColumnEncoder, type Maker, ValueError, writeInt32, writeSafeInt64 } from "./IngestColumns.ts"
import { TypeCode, typeCodeName } from "./ReadTypes.ts"

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
export const smallIntegers: Maker = (data, column, _parameter, target) => {
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
export const bigIntegers: Maker = (data, column, parameter, target) => {
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
export const floats: Maker = (data, column, parameter, target) => {
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
export const decimals: Maker = (data, column, parameter, target) => {
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

export const booleans: Maker = (data, _column, _parameter, target) => {
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
