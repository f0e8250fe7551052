/**
 * Exact decimal conversions for Arrow decimal128/decimal256 columns: decimal text or unscaled integers in, two's
 * complement little-endian 32-bit words out. Every digit is kept; a value that would need rounding or more digits
 * than the column's precision is rejected, never silently altered.
 */
import { ArrowAssemblyError, previewValue } from "./ArrowAssemblyError.ts"

/** Largest precision of an Arrow decimal128 column. */
export const DECIMAL128_MAX_PRECISION = 38
/** Largest precision of an Arrow decimal256 column. */
export const DECIMAL256_MAX_PRECISION = 76

const TWO_POW_32 = 4294967296
/** Unscaled values with at most this many digits are computed with plain numbers (exact below 2^53). */
const SAFE_DIGITS = 15
const POW10: ReadonlyArray<number> = Array.from({ length: SAFE_DIGITS + 1 }, (_, i) => 10 ** i)

const isDigit = (code: number): boolean => code >= 48 && code <= 57

/**
 * Parses decimal text such as `"-12345.678"`, `"+0.5"`, `".5"`, `"12."` or `"1.5E-3"` into its unscaled integer at
 * `scale` (the value times 10^scale). Returns a `number` when the unscaled value has at most 15 digits, otherwise a
 * `bigint`. Trailing zeros beyond the scale are dropped; any other digit beyond the scale, a result with more than
 * `precision` digits, or malformed text throws {@link ArrowAssemblyError}.
 */
export const parseDecimalText = (
  text: string,
  scale: number,
  precision: number,
  column?: string
): number | bigint => {
  const n = text.length
  let i = 0
  let negative = false
  const first = n > 0 ? text.charCodeAt(0) : 0
  if (first === 45) {
    negative = true
    i = 1
  } else if (first === 43) {
    i = 1
  }
  const intStart = i
  while (i < n && isDigit(text.charCodeAt(i))) i++
  const intEnd = i
  let fracStart = i
  let fracEnd = i
  if (i < n && text.charCodeAt(i) === 46) {
    i++
    fracStart = i
    while (i < n && isDigit(text.charCodeAt(i))) i++
    fracEnd = i
  }
  const intLen = intEnd - intStart
  const fracLen = fracEnd - fracStart
  if (intLen + fracLen === 0) throw malformed(text, column)
  let exponent = 0
  if (i < n && (text.charCodeAt(i) | 0x20) === 101) {
    i++
    let expNegative = false
    const sign = i < n ? text.charCodeAt(i) : 0
    if (sign === 45 || sign === 43) {
      expNegative = sign === 45
      i++
    }
    const expStart = i
    while (i < n && isDigit(text.charCodeAt(i))) {
      exponent = exponent * 10 + (text.charCodeAt(i) - 48)
      if (exponent > 100_000) throw malformed(text, column)
      i++
    }
    if (i === expStart) throw malformed(text, column)
    if (expNegative) exponent = -exponent
  }
  if (i !== n) throw malformed(text, column)

  const total = intLen + fracLen
  const digitAt = (k: number): number =>
    k < intLen ? text.charCodeAt(intStart + k) - 48 : text.charCodeAt(fracStart + k - intLen) - 48
  // shift > 0: append that many zeros; shift < 0: drop that many trailing digits, which must all be zero.
  const shift = scale - (fracLen - exponent)
  let keep = total
  let pad = 0
  if (shift < 0) {
    keep = Math.max(0, total + shift)
    for (let k = keep; k < total; k++) {
      if (digitAt(k) !== 0) {
        throw new ArrowAssemblyError(
          `decimal ${previewValue(text)} has more fractional digits than the column scale ${scale}`,
          column
        )
      }
    }
  } else {
    pad = shift
  }
  let z = 0
  while (z < keep && digitAt(z) === 0) z++
  const significant = keep - z
  if (significant === 0) return 0
  const digits = significant + pad
  if (digits > precision) {
    throw new ArrowAssemblyError(
      `decimal ${previewValue(text)} needs ${digits} digits at scale ${scale}, more than the column precision ${precision}`,
      column
    )
  }
  if (digits <= SAFE_DIGITS) {
    let value = 0
    for (let k = z; k < keep; k++) value = value * 10 + digitAt(k)
    value *= POW10[pad]!
    return negative ? -value : value
  }
  let digitText: string
  const zAbs = z < intLen ? intStart + z : fracStart + z - intLen
  const keepAbs = keep <= intLen ? intStart + keep : fracStart + keep - intLen
  if (z < intLen && keep > intLen) digitText = text.slice(zAbs, intEnd) + text.slice(fracStart, keepAbs)
  else digitText = text.slice(zAbs, keepAbs)
  if (pad > 0) digitText += "0".repeat(pad)
  const value = BigInt(digitText)
  return negative ? -value : value
}

const malformed = (text: string, column: string | undefined): ArrowAssemblyError =>
  new ArrowAssemblyError(`${previewValue(text)} is not a decimal number`, column)

/** `10^precision` as a bigint: unscaled values must lie strictly between its negation and itself. */
export const decimalLimit = (precision: number): bigint => 10n ** BigInt(precision)

/**
 * Checks that an unscaled bigint has at most `precision` digits and returns it as a `number` when that is exact
 * (|value| < 2^53), so the caller can take the cheaper write path.
 */
export const checkUnscaled = (value: bigint, limit: bigint, precision: number, column?: string): number | bigint => {
  if (value >= limit || value <= -limit) {
    throw new ArrowAssemblyError(`unscaled decimal ${value} has more than ${precision} digits`, column)
  }
  return value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value
}

/**
 * Writes an unscaled integer as `words` little-endian 32-bit words of two's complement (4 for decimal128, 8 for
 * decimal256) into `out` starting at word `offset`. The value must already fit.
 */
export const writeDecimalWords = (value: number | bigint, out: Uint32Array, offset: number, words: number): void => {
  if (typeof value === "number") {
    const hi = Math.floor(value / TWO_POW_32)
    out[offset] = value - hi * TWO_POW_32
    out[offset + 1] = hi
    const fill = value < 0 ? 0xffffffff : 0
    for (let k = 2; k < words; k++) out[offset + k] = fill
    return
  }
  let rest = BigInt.asUintN(words * 32, value)
  for (let k = 0; k < words; k++) {
    out[offset + k] = Number(rest & 0xffffffffn)
    rest >>= 32n
  }
}

/** Reads `words` little-endian two's complement 32-bit words back into a signed unscaled bigint. */
export const readDecimalWords = (data: Uint32Array, offset: number, words: number): bigint => {
  let value = 0n
  for (let k = words - 1; k >= 0; k--) value = (value << 32n) | BigInt(data[offset + k]!)
  return BigInt.asIntN(words * 32, value)
}

/** Formats an unscaled decimal at `scale` as plain decimal text (`-1234` at scale 2 is `"-12.34"`). */
export const formatDecimal = (unscaled: bigint, scale: number): string => {
  const negative = unscaled < 0n
  const digits = (negative ? -unscaled : unscaled).toString()
  let body: string
  if (scale <= 0) {
    body = digits === "0" ? "0" : digits + "0".repeat(-scale)
  } else {
    const padded = digits.padStart(scale + 1, "0")
    body = `${padded.slice(0, padded.length - scale)}.${padded.slice(padded.length - scale)}`
  }
  return negative ? `-${body}` : body
}
