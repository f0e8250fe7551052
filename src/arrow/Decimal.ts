/**
 * Exact decimal conversions for Arrow decimal128/decimal256 columns: decimal text or unscaled integers in, two's
 * complement little-endian 32-bit words out. Every digit is kept; a value that would need rounding or more digits
 * than the column's precision is rejected, never silently altered.
 */
import { ArrowAssemblyError, previewValue } from "./ArrowAssemblyError.ts"
import { TWO_32 } from "./Words.ts"

/** Largest precision of an Arrow decimal128 column. */
export const DECIMAL128_MAX_PRECISION = 38
/** Largest precision of an Arrow decimal256 column. */
export const DECIMAL256_MAX_PRECISION = 76

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
  const fast = parsePlainDecimal(text, scale, precision)
  return fast === fast ? fast : parseGeneralDecimal(text, scale, precision, column)
}

/**
 * Fast path for the common shape `[-+]digits[.digits]` whose unscaled value has at most 15 digits, at a
 * non-negative scale: one pass, plain numbers. Returns NaN whenever the general parser must decide (exponent,
 * more digits, lossy or malformed text), so errors are always reported by one place.
 */
const parsePlainDecimal = (text: string, scale: number, precision: number): number => {
  const n = text.length
  if (scale < 0 || n === 0) return NaN
  let i = 0
  let negative = false
  const first = text.charCodeAt(0)
  if (first === 45 || first === 43) {
    negative = first === 45
    i = 1
  }
  let value = 0
  let significant = 0
  let digitCount = 0
  for (; i < n; i++) {
    const d = text.charCodeAt(i) - 48
    if (d < 0 || d > 9) break
    if (significant > 0 || d !== 0) significant++
    value = value * 10 + d
    digitCount++
  }
  let fraction = 0
  if (i < n && text.charCodeAt(i) === 46) {
    for (i++; i < n; i++) {
      const d = text.charCodeAt(i) - 48
      if (d < 0 || d > 9) return NaN
      if (fraction >= scale) {
        if (d !== 0) return NaN
      } else {
        if (significant > 0 || d !== 0) significant++
        value = value * 10 + d
        fraction++
      }
      digitCount++
    }
  }
  if (i !== n || digitCount === 0) return NaN
  const pad = scale - fraction
  if (significant === 0) return 0
  if (significant + pad > precision || significant + pad > SAFE_DIGITS) return NaN
  value *= POW10[pad]!
  return negative ? -value : value
}

/** Where the kept digits of a validated decimal text are, and how many zeros follow them. */
interface DecimalDigits {
  negative: boolean
  intStart: number
  intLen: number
  fracStart: number
  /** Index (in the concatenated integer+fraction digits) of the first significant digit. */
  first: number
  /** Number of concatenated digits kept (trailing zeros beyond the scale are dropped). */
  keep: number
  /** Zeros appended to reach the scale. */
  pad: number
}

const scratchDigits: DecimalDigits = { negative: false, intStart: 0, intLen: 0, fracStart: 0, first: 0, keep: 0, pad: 0 }

/** Digit `k` of the concatenated integer and fraction digits. */
const digitAt = (text: string, d: DecimalDigits, k: number): number =>
  k < d.intLen ? text.charCodeAt(d.intStart + k) - 48 : text.charCodeAt(d.fracStart + k - d.intLen) - 48

/**
 * Validates decimal text against scale and precision and locates its digits in `d`. Returns the number of
 * significant digits of the unscaled value (0 for zero); throws for malformed, lossy or too-precise text.
 */
const analyzeDecimal = (
  text: string,
  scale: number,
  precision: number,
  column: string | undefined,
  d: DecimalDigits
): number => {
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

  d.negative = negative
  d.intStart = intStart
  d.intLen = intLen
  d.fracStart = fracStart
  const total = intLen + fracLen
  // shift > 0: append that many zeros; shift < 0: drop that many trailing digits, which must all be zero.
  const shift = scale - (fracLen - exponent)
  let keep = total
  let pad = 0
  if (shift < 0) {
    keep = Math.max(0, total + shift)
    for (let k = keep; k < total; k++) {
      if (digitAt(text, d, k) !== 0) {
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
  while (z < keep && digitAt(text, d, z) === 0) z++
  d.first = z
  d.keep = keep
  d.pad = pad
  const significant = keep - z
  if (significant === 0) return 0
  const digits = significant + pad
  if (digits > precision) {
    throw new ArrowAssemblyError(
      `decimal ${previewValue(text)} needs ${digits} digits at scale ${scale}, more than the column precision ${precision}`,
      column
    )
  }
  return digits
}

/** The unscaled value of analysed digits with at most 15 digits, as a number. */
const smallUnscaled = (text: string, d: DecimalDigits): number => {
  let value = 0
  for (let k = d.first; k < d.keep; k++) value = value * 10 + digitAt(text, d, k)
  value *= POW10[d.pad]!
  return d.negative ? -value : value
}

const parseGeneralDecimal = (
  text: string,
  scale: number,
  precision: number,
  column: string | undefined
): number | bigint => {
  const d = scratchDigits
  const digits = analyzeDecimal(text, scale, precision, column, d)
  if (digits === 0) return 0
  if (digits <= SAFE_DIGITS) return smallUnscaled(text, d)
  let digitText = ""
  for (let k = d.first; k < d.keep; k++) digitText += String.fromCharCode(48 + digitAt(text, d, k))
  if (d.pad > 0) digitText += "0".repeat(d.pad)
  const value = BigInt(digitText)
  return d.negative ? -value : value
}

/** 16-bit limbs (little-endian) for exact big-number arithmetic with plain doubles; 16 limbs = 256 bits. */
const limbs = new Float64Array(16)
const LIMB = 65536

/** limbs = limbs * multiplier + addend, over `count` limbs (multiplier ≤ 1e9 keeps every product below 2^53). */
const mulAdd = (count: number, multiplier: number, addend: number): void => {
  let carry = addend
  for (let k = 0; k < count; k++) {
    const v = limbs[k]! * multiplier + carry
    carry = Math.floor(v / LIMB)
    limbs[k] = v - carry * LIMB
  }
}

/**
 * Parses decimal text (as {@link parseDecimalText}) and writes its unscaled value at `scale` straight into `words`
 * 32-bit words of `out` at word `offset`, without bigints: numbers up to 15 digits, 16-bit limb arithmetic beyond.
 */
export const writeDecimalText = (
  text: string,
  scale: number,
  precision: number,
  out: Uint32Array,
  offset: number,
  words: number,
  column?: string
): void => {
  const fast = parsePlainDecimal(text, scale, precision)
  if (fast === fast) return writeDecimalWords(fast, out, offset, words)
  const d = scratchDigits
  const digits = analyzeDecimal(text, scale, precision, column, d)
  if (digits <= SAFE_DIGITS) return writeDecimalWords(digits === 0 ? 0 : smallUnscaled(text, d), out, offset, words)
  const count = words * 2
  limbs.fill(0, 0, count)
  let chunk = 0
  let chunkDigits = 0
  for (let k = d.first; k < d.keep; k++) {
    chunk = chunk * 10 + digitAt(text, d, k)
    if (++chunkDigits === 9) {
      mulAdd(count, 1e9, chunk)
      chunk = 0
      chunkDigits = 0
    }
  }
  if (chunkDigits > 0) mulAdd(count, POW10[chunkDigits]!, chunk)
  for (let zeros = d.pad; zeros > 0; zeros -= 9) mulAdd(count, POW10[Math.min(zeros, 9)]!, 0)
  if (d.negative) {
    // two's complement: invert every limb, then add one
    let carry = 1
    for (let k = 0; k < count; k++) {
      const v = LIMB - 1 - limbs[k]! + carry
      carry = v >= LIMB ? 1 : 0
      limbs[k] = v - carry * LIMB
    }
  }
  for (let w = 0; w < words; w++) out[offset + w] = limbs[2 * w]! + limbs[2 * w + 1]! * LIMB
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
    const hi = Math.floor(value / TWO_32)
    out[offset] = value - hi * TWO_32
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
