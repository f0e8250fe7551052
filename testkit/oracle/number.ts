/**
 * Oracle NUMBER wire format (base-100 mantissa with a biased exponent byte).
 *
 * Positive values: exponent byte 0xC1 + e, digits d+1, value = 0.d1d2... * 100^(e+1).
 * Negative values: exponent byte complemented, digits 101-d, trailing 102 when fewer than 20 digit pairs.
 * Zero is the single byte 0x80. Matches parseOracleNumber/writeOracleNumber in
 * node_modules/oracledb/lib/impl/datahandlers/buffer.js.
 */
import { decimalOf, normalize } from "./decimal.ts"
import type { WriteBuffer } from "./wire.ts"

const scratch = new Uint8Array(24)

/** Writes `digits` (no sign, no leading zeros) scaled so that value = 0.digits * 10^exp10, with a length byte. */
const writeDigits = (w: WriteBuffer, negative: boolean, digits: string, exp10: number): void => {
  // strip trailing zeros
  let end = digits.length
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end--
  if (end === 0) {
    w.u8(1)
    w.u8(0x80)
    return
  }
  let d = end === digits.length ? digits : digits.slice(0, end)
  if ((exp10 & 1) !== 0) {
    d = "0" + d
    exp10 += 1
  }
  if ((d.length & 1) !== 0) d += "0"
  const pairs = d.length >> 1
  const exp100 = (exp10 >> 1) - 1
  let n = 0
  scratch[n++] = negative ? (~(193 + exp100)) & 0xff : 193 + exp100
  for (let i = 0; i < pairs; i++) {
    const v = (d.charCodeAt(2 * i) - 48) * 10 + (d.charCodeAt(2 * i + 1) - 48)
    scratch[n++] = negative ? 101 - v : v + 1
  }
  if (negative && pairs < 20) scratch[n++] = 102
  w.u8(n)
  w.raw(scratch.subarray(0, n))
}

/**
 * Writes a decimal string such as "-12.5", "1e+21", ".5" or "0.001" as an Oracle NUMBER with length byte, every
 * digit kept up to NUMBER's 20 base-100 digits (rounded beyond, ORA-01426 from 1E126, ORA-01722 for non-numbers).
 */
export const writeNumberString = (w: WriteBuffer, text: string): void => {
  const d = normalize(decimalOf(text))
  const digits = d.coefficient.toString()
  writeDigits(w, d.negative, d.coefficient === 0n ? "" : digits, d.exponent + digits.length)
}

/**
 * Writes |n| * 10^-scale (n a safe integer, scale >= 0 even) from its base-100 digits, straight into the buffer.
 */
const writeIntScaled = (w: WriteBuffer, n: number, scale: number): void => {
  const negative = n < 0
  let a = negative ? -n : n
  let count = 0
  const tmp = scratch
  // above int32 range, double arithmetic until it fits; then int32 division (a multiply, where a double's % calls fmod)
  while (a > 0x7fffffff) {
    const r = a % 100
    tmp[count++] = r
    a = (a - r) / 100
  }
  let x = a | 0
  while (x > 0) {
    const q = (x / 100) | 0
    tmp[count++] = x - q * 100
    x = q
  }
  let low = 0
  while (tmp[low] === 0) low++
  const pairs = count - low
  const exp100 = count - 1 - (scale >> 1)
  const len = pairs + 1 + (negative && pairs < 20 ? 1 : 0)
  w.ensure(len + 1)
  const b = w.buf
  let p = w.pos
  b[p++] = len
  b[p++] = negative ? ~(193 + exp100) & 0xff : 193 + exp100
  if (negative) for (let i = count - 1; i >= low; i--) b[p++] = 101 - tmp[i]!
  else for (let i = count - 1; i >= low; i--) b[p++] = tmp[i]! + 1
  if (negative && pairs < 20) b[p++] = 102
  w.pos = p
}

/** Writes a JS number as an Oracle NUMBER (integers take an arithmetic fast path). */
export const writeNumber = (w: WriteBuffer, v: number): void => {
  if (v === 0) {
    w.u8(1)
    w.u8(0x80)
    return
  }
  if (Number.isSafeInteger(v)) {
    writeIntScaled(w, v, 0)
    return
  }
  if (!Number.isFinite(v)) {
    // Oracle NUMBER has no NaN/Infinity: ~ +/-1e126 markers
    w.u8(2)
    w.u8(v > 0 ? 0xff : 0x00)
    w.u8(v > 0 ? 0x65 : 0x66)
    return
  }
  writeNumberString(w, numberText(v))
}

/**
 * Decimal text of a double. NUMBER columns without precision are DuckDB DOUBLEs, so sums of decimal inputs carry
 * binary noise (0.1 + 0.2 = 0.30000000000000004) where Oracle's decimal arithmetic gives .3: when rounding to 15
 * significant digits (all a double keeps exactly) leaves at most 12, that shorter text is the decimal meant.
 * Other values (1/3) keep JavaScript's shortest round-trip text, which is what node-oracledb makes of Oracle's digits.
 */
const numberText = (v: number): string => {
  const text = String(v)
  if (text.length <= 16) return text
  const rounded = String(Number(v.toPrecision(15)))
  return rounded.replace(/e.*$/, "").replace(/[-.]/g, "").replace(/^0+|0+$/g, "").length <= 12 ? rounded : text
}

/** Writes the DECIMAL value `unscaled * 10^-scale` (unscaled a safe integer). */
export const writeScaledInt = (w: WriteBuffer, unscaled: number, scale: number): void => {
  if (unscaled === 0) {
    w.u8(1)
    w.u8(0x80)
    return
  }
  if ((scale & 1) === 0) writeIntScaled(w, unscaled, scale)
  else if (Math.abs(unscaled) < 900719925474099) writeIntScaled(w, unscaled * 10, scale + 1)
  else writeScaledBigInt(w, BigInt(unscaled), scale)
}

/** Writes a scaled bigint (DECIMAL value * 10^scale) as an Oracle NUMBER. */
export const writeScaledBigInt = (w: WriteBuffer, value: bigint, scale: number): void => {
  const negative = value < 0n
  const digits = (negative ? -value : value).toString()
  if (digits === "0") {
    w.u8(1)
    w.u8(0x80)
    return
  }
  writeDigits(w, negative, digits, digits.length - scale)
}

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i)

/**
 * Decodes Oracle NUMBER bytes to a JS number when it has at most 15 significant digits (then the result equals
 * parseFloat of the decimal text), otherwise returns undefined.
 */
export const decodeNumberFast = (b: Uint8Array): number | undefined => {
  const n = b.length
  if (n === 0) return undefined
  let e = b[0]!
  if (n === 1) return e === 0x80 ? 0 : undefined
  const positive = (e & 0x80) !== 0
  if (!positive) e = ~e & 0xff
  let end = n
  if (!positive && b[end - 1] === 102) end--
  const pairs = end - 1
  if (pairs > 8) return undefined
  let d = 0
  for (let i = 1; i < end; i++) d = d * 100 + (positive ? b[i]! - 1 : 101 - b[i]!)
  if (d > 999999999999999) return undefined
  // value = d * 100^(exp100 + 1 - pairs)
  const exp10 = 2 * (e - 193 + 1 - pairs)
  let v: number
  if (exp10 >= 0) {
    if (exp10 > 22) return undefined
    v = d * POW10[exp10]!
    if (!Number.isSafeInteger(v)) return undefined
  } else {
    if (-exp10 > 22) return undefined
    v = d / POW10[-exp10]!
  }
  return positive ? v : -v
}

/** Decodes Oracle NUMBER bytes to a canonical decimal string. */
export const decodeNumber = (b: Uint8Array): string => {
  if (b.length === 0) return "0"
  let e = b[0]!
  const positive = (e & 0x80) !== 0
  if (!positive) e = ~e & 0xff
  const exp100 = e - 193
  if (b.length === 1) return positive ? "0" : "-1e126"
  let end = b.length
  if (!positive && b[end - 1] === 102) end--
  let digits = ""
  for (let i = 1; i < end; i++) {
    const v = positive ? b[i]! - 1 : 101 - b[i]!
    digits += v < 10 ? "0" + v : String(v)
  }
  // value = 0.digits * 100^(exp100+1)
  let point = (exp100 + 1) * 2
  // normalise leading zeros
  let lead = 0
  while (lead < digits.length - 1 && digits[lead] === "0") lead++
  digits = digits.slice(lead)
  point -= lead
  digits = digits.replace(/0+$/, "")
  if (digits.length === 0) return "0"
  let out: string
  if (point <= 0) out = "0." + "0".repeat(-point) + digits
  else if (point >= digits.length) out = digits + "0".repeat(point - digits.length)
  else out = digits.slice(0, point) + "." + digits.slice(point)
  return positive ? out : "-" + out
}
