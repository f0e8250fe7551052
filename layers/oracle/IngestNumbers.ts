/**
 * The ingest fast path's numeric column encoders: int16 / int32 / int64 and decimal128 as NUMBER in Oracle's base-100
 * form (node-oracledb thin impl/datahandlers/buffer.js `writeOracleNumber`: exponent byte, digit pairs + 1; negative:
 * 101 - pair, and a 102 sentinel below 20 pairs), float / double as BINARY_FLOAT / BINARY_DOUBLE (big-endian IEEE
 * with the sign bit set; negative: all bits inverted) and bool as BOOLEAN (true = 02 01 01, false = 01 00, NULL =
 * FD 01).
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Result } from "effect"
import { type AdbcError, invalidArgument } from "../../src/AdbcError.ts"
import { TWO_32 } from "../common/Int64Words.ts"
import { type ColumnEncoder, fixed, isValid, validity, writeNull } from "./IngestColumns.ts"


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

export const intEncoder = (data: Arrow.Data): ColumnEncoder => {
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

export const decimalEncoder = (field: Arrow.Field, data: Arrow.Data): Result.Result<ColumnEncoder, AdbcError> => {
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

export const floatEncoder = (data: Arrow.Data): ColumnEncoder => {
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

export const boolEncoder = (data: Arrow.Data): ColumnEncoder => {
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
