/**
 * Exact Oracle NUMBER values: `± coefficient × 10^exponent`, rounded as NUMBER stores them (20 base-100 digits,
 * so 38 to 40 significant decimal digits), range 1E-130 .. < 1E126 (Oracle Database SQL Language Reference, "Data
 * Types", NUMBER: "Positive numbers in the range 1 x 10^-130 to 9.99...9 x 10^125 with up to 38 significant digits";
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Data-Types.html). Arithmetic is exact, then
 * rounded like a stored NUMBER, as Oracle's NUMBER arithmetic is decimal.
 */
import { OraError } from "./errors.ts"

/** `(negative ? -1 : 1) × coefficient × 10^exponent`; zero is coefficient 0n, exponent 0, not negative. */
export interface Decimal {
  readonly negative: boolean
  readonly coefficient: bigint
  readonly exponent: number
}

const ZERO: Decimal = { negative: false, coefficient: 0n, exponent: 0 }
const NUMERIC = /^\s*([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/

const overflow = () => new OraError(1426, "numeric overflow")

/** Parses decimal text (`12.5`, `-.5`, `1e+125`, `1E-130`, `5.`); undefined when it is not a number. */
export const parseDecimal = (text: string): Decimal | undefined => {
  const m = NUMERIC.exec(text)
  if (m === null) return undefined
  const whole = m[2] ?? ""
  const fraction = m[3] ?? ""
  if (whole.length === 0 && fraction.length === 0) return undefined
  const exp = m[4] === undefined ? 0 : Number(m[4])
  return normalize({ negative: m[1] === "-", coefficient: BigInt(whole + fraction), exponent: exp - fraction.length })
}

/** Parses a number's text or fails with ORA-01722 (invalid number), as Oracle's implicit conversion does. */
export const decimalOf = (text: string): Decimal => {
  const d = parseDecimal(text)
  if (d === undefined) throw new OraError(1722, "invalid number")
  return d
}

const digitCount = (c: bigint): number => c.toString().length

/** Drops trailing zeros, rounds to NUMBER's 20 base-100 digits, and checks the range (ORA-01426 above 1E126). */
export const normalize = (d: Decimal): Decimal => {
  let { coefficient, exponent } = d
  if (coefficient === 0n) return ZERO
  let digits = digitCount(coefficient)
  // the leading digit's power of ten; base-100 digit pairs are aligned on even powers, so a leading digit at an odd
  // power shares its pair with the next digit and the mantissa holds 40 digits, else 39
  const lead = exponent + digits - 1
  const keep = ((lead % 2) + 2) % 2 === 1 ? 40 : 39
  if (digits > keep) {
    const drop = digits - keep
    const unit = 10n ** BigInt(drop)
    const rest = coefficient % unit
    coefficient /= unit
    if (rest * 2n >= unit) coefficient += 1n
    exponent += drop
  }
  while (coefficient % 10n === 0n) {
    coefficient /= 10n
    exponent++
  }
  digits = digitCount(coefficient)
  const top = exponent + digits - 1
  if (top >= 126) throw overflow()
  if (top < -130) return ZERO
  return { negative: d.negative, coefficient, exponent }
}

const signed = (d: Decimal): bigint => (d.negative ? -d.coefficient : d.coefficient)
const fromSigned = (v: bigint, exponent: number): Decimal => normalize({ negative: v < 0n, coefficient: v < 0n ? -v : v, exponent })

/** Both operands' signed coefficients at their common (smaller) exponent. */
const aligned = (a: Decimal, b: Decimal): [bigint, bigint, number] => {
  const e = Math.min(a.exponent, b.exponent)
  return [signed(a) * 10n ** BigInt(a.exponent - e), signed(b) * 10n ** BigInt(b.exponent - e), e]
}

/** a + b. */
export const add = (a: Decimal, b: Decimal): Decimal => {
  const [x, y, e] = aligned(a, b)
  return fromSigned(x + y, e)
}

/** a − b. */
export const subtract = (a: Decimal, b: Decimal): Decimal => add(a, { ...b, negative: b.coefficient !== 0n && !b.negative })

/** a × b. */
export const multiply = (a: Decimal, b: Decimal): Decimal => fromSigned(signed(a) * signed(b), a.exponent + b.exponent)

/** a ÷ b to 44 significant digits before NUMBER's rounding; ORA-01476 when b is zero. */
export const divide = (a: Decimal, b: Decimal): Decimal => {
  if (b.coefficient === 0n) throw new OraError(1476, "divisor is equal to zero")
  if (a.coefficient === 0n) return ZERO
  // scale the dividend so that the quotient has at least 44 digits, then round once in normalize
  const shift = Math.max(0, 44 - (digitCount(a.coefficient) - digitCount(b.coefficient)))
  const q = (a.coefficient * 10n ** BigInt(shift)) / b.coefficient
  const r = (a.coefficient * 10n ** BigInt(shift)) % b.coefficient
  // a non-zero remainder below the last kept digit only matters for ties: mark it with a trailing 1
  const sticky = r === 0n ? q : q * 10n + 1n
  const exponent = a.exponent - b.exponent - shift - (r === 0n ? 0 : 1)
  return normalize({ negative: a.negative !== b.negative, coefficient: sticky, exponent })
}

/** −1, 0 or 1 as a is below, equal to or above b. */
export const compare = (a: Decimal, b: Decimal): number => {
  const [x, y] = aligned(a, b)
  return x < y ? -1 : x > y ? 1 : 0
}

/** Plain decimal text in Oracle's style: no leading zero before the point, no exponent (`-.5`, `1000`, `12.25`). */
export const fixedText = (d: Decimal): string => {
  if (d.coefficient === 0n) return "0"
  const digits = d.coefficient.toString()
  let body: string
  if (d.exponent >= 0) body = digits + "0".repeat(d.exponent)
  else if (-d.exponent >= digits.length) body = "." + "0".repeat(-d.exponent - digits.length) + digits
  else body = digits.slice(0, digits.length + d.exponent) + "." + digits.slice(digits.length + d.exponent)
  return (d.negative ? "-" : "") + body
}

/**
 * TO_CHAR(n) without a format: Oracle's TM9 "text minimum" format model, "the smallest number of characters
 * possible", in fixed notation unless that exceeds 64 characters, then in scientific notation (Oracle Database SQL
 * Language Reference, "Format Models", number format element TM:
 * https://docs.oracle.com/cd/B19306_01/server.102/b14200/sql_elements004.htm), e.g. `.5`, `-12.25`, `1E+125`,
 * `1.5E-130`.
 */
export const numberText = (d: Decimal): string => {
  const fixed = fixedText(d)
  if (fixed.length <= 64) return fixed
  const digits = d.coefficient.toString()
  const power = d.exponent + digits.length - 1
  const mantissa = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`
  return `${d.negative ? "-" : ""}${mantissa}E${power < 0 ? "-" : "+"}${String(Math.abs(power)).padStart(2, "0")}`
}

/**
 * A text whose string order is the numbers' order (for ORDER BY, MIN/MAX and comparisons in DuckDB): a sign class,
 * then for positives the biased power of ten and the digits, for negatives both complemented (`9 - digit`) and
 * closed with `~` so that a longer negative (a larger magnitude) sorts first.
 */
export const orderKey = (d: Decimal): string => {
  if (d.coefficient === 0n) return "1"
  const digits = d.coefficient.toString()
  const power = d.exponent + digits.length - 1 + 500
  if (!d.negative) return `2${String(power).padStart(3, "0")}${digits}`
  const complement = (s: string) => s.replace(/\d/g, (c) => String(9 - Number(c)))
  return `0${complement(String(power).padStart(3, "0"))}${complement(digits)}~`
}

/** How {@link roundTo} treats the digits it drops. */
export type RoundingMode = "round" | "trunc" | "ceil" | "floor"

/**
 * `d` with `places` digits right of the decimal point (negative: left of it), as ROUND (half away from zero, "For
 * NUMBER values, the value n is rounded away from 0"), TRUNC (toward zero), CEIL and FLOOR give it for NUMBER (SQL
 * Language Reference, "ROUND (number)": https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/ROUND-number.html,
 * https://docs.oracle.com/cd/B13789_01/server.101/b10759/functions120.htm; "TRUNC (number)", "CEIL", "FLOOR").
 */
export const roundTo = (d: Decimal, places: number, mode: RoundingMode): Decimal => {
  const target = -Math.max(-200, Math.min(200, places))
  if (d.exponent >= target) return d
  const unit = 10n ** BigInt(target - d.exponent)
  let q = d.coefficient / unit
  const rest = d.coefficient % unit
  const awayFromZero =
    mode === "round" ? rest * 2n >= unit : mode === "ceil" ? rest > 0n && !d.negative : mode === "floor" ? rest > 0n && d.negative : false
  if (awayFromZero) q += 1n
  return normalize({ negative: d.negative, coefficient: q, exponent: target })
}

/**
 * `d` as a NUMBER(precision, scale) stores it: rounded half away from zero to `scale` places (left of the decimal
 * point for a negative scale: NUMBER(7,-2) stores 7456123.89 as 7456100, SQL Language Reference, "Numeric Data
 * Types"), ORA-01438 when more than precision - scale digits remain left of the decimal point.
 */
export const fitToPrecision = (d: Decimal, precision: number, scale: number): Decimal => {
  const r = roundTo(d, scale, "round")
  const integerDigits = r.coefficient === 0n ? 0 : digitCount(r.coefficient) + r.exponent
  if (integerDigits > precision - scale) throw new OraError(1438, "value larger than specified precision allowed for this column")
  return r
}

/** `d` rounded half away from zero to `digits` significant digits (a FLOAT(b) column's decimal precision). */
export const roundToDigits = (d: Decimal, digits: number): Decimal =>
  d.coefficient === 0n ? d : roundTo(d, digits - d.exponent - digitCount(d.coefficient), "round")

/** The integer part of `d` as a number (a ROUND / TRUNC places argument: "integer must be an integer", truncated). */
export const integerOf = (d: Decimal): number => {
  const t = roundTo(d, 0, "trunc")
  return Number(signed(t) * 10n ** BigInt(Math.max(0, Math.min(t.exponent, 6))))
}

/** |d|. */
export const abs = (d: Decimal): Decimal => ({ ...d, negative: false })

/** −1, 0 or 1 by the sign of `d` (SIGN). */
export const sign = (d: Decimal): number => (d.coefficient === 0n ? 0 : d.negative ? -1 : 1)

/**
 * MOD(n2, n1): "the remainder of n2 divided by n1. Returns n2 if n1 is 0", with the sign of n2 (n2 − n1 ×
 * TRUNC(n2/n1), unlike the classical modulus with FLOOR; SQL Language Reference, "MOD":
 * https://docs.oracle.com/en/database/oracle/oracle-database/18/sqlrf/MOD.html). Exact on every digit.
 */
export const mod = (n2: Decimal, n1: Decimal): Decimal => {
  if (n1.coefficient === 0n) return n2
  const [x, y, e] = aligned(n2, n1)
  return fromSigned(x % y, e)
}

const outOfRange = (d: Decimal) => new OraError(1428, `argument '${numberText(d)}' is out of range`)

/** Integer square root (floor) of a non-negative bigint, by Newton's method. */
export const isqrt = (n: bigint): bigint => {
  if (n < 2n) return n
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2))
  for (;;) {
    const y = (x + n / x) >> 1n
    if (y >= x) return x
    x = y
  }
}

/**
 * SQRT of a NUMBER: correctly rounded to NUMBER's 40 digits ("If n resolves to a NUMBER, then the value n cannot be
 * negative": ORA-01428; SQL Language Reference, "SQRT": https://docs.oracle.com/database/122/SQLRF/SQRT.htm).
 */
export const sqrt = (d: Decimal): Decimal => {
  if (d.negative) throw outOfRange(d)
  if (d.coefficient === 0n) return ZERO
  let { coefficient, exponent } = d
  // an even exponent, and at least 88 digits under the root so that the root has 44 before NUMBER's rounding
  const pad = Math.max(0, 88 - digitCount(coefficient)) + ((exponent - Math.max(0, 88 - digitCount(coefficient))) & 1)
  coefficient *= 10n ** BigInt(pad)
  exponent -= pad
  const root = isqrt(coefficient)
  const exact = root * root === coefficient
  return normalize({ negative: false, coefficient: exact ? root : root * 10n + 1n, exponent: exponent / 2 - (exact ? 0 : 1) })
}

/** Keeps `digits` significant digits of `d` (half away from zero), for intermediate results of long computations. */
const significant = (d: Decimal, digits: number): Decimal => {
  const drop = digitCount(d.coefficient) - digits
  if (drop <= 0) return d
  const unit = 10n ** BigInt(drop)
  const q = d.coefficient / unit + ((d.coefficient % unit) * 2n >= unit ? 1n : 0n)
  return { negative: d.negative, coefficient: q, exponent: d.exponent + drop }
}

/**
 * POWER(n2, n1) of NUMBERs ("if n2 is negative, then n1 must be an integer", else ORA-01428; SQL Language Reference,
 * "POWER": https://docs.oracle.com/en/database/oracle/oracle-database/18/sqlrf/POWER.html). An integer exponent is
 * computed exactly (by squaring with 60 significant digits kept when the exact power would be very long) and rounded
 * to NUMBER's 40 digits; a fractional exponent as EXP(n1 × LN(n2)) to 60 digits, then rounded to NUMBER's.
 */
export const power = (n2: Decimal, n1: Decimal): Decimal => {
  const integral = n1.exponent >= 0
  if (!integral && compare(n1, { negative: false, coefficient: 5n, exponent: -1 }) === 0) return sqrt(n2)
  if (!integral) {
    if (n2.negative) throw outOfRange(n2)
    if (n2.coefficient === 0n) {
      if (n1.negative) throw new OraError(1476, "divisor is equal to zero")
      return ZERO
    }
    return expOfFixed(fixedMul(toFixed(n1), lnFixed(n2)))
  }
  const n = signed(n1) * 10n ** BigInt(n1.exponent)
  if (n === 0n) return { negative: false, coefficient: 1n, exponent: 0 }
  if (n2.coefficient === 0n) {
    if (n < 0n) throw new OraError(1476, "divisor is equal to zero")
    return ZERO
  }
  const magnitude = n < 0n ? -n : n
  const digits = digitCount(n2.coefficient)
  // log10 |n2| × |n1| decides overflow (ORA-01426) and underflow (0) before any long computation
  const log10 = Math.log10(Number(`0.${n2.coefficient.toString().slice(0, 17)}`)) + n2.exponent + digits
  const scale = log10 * Number(magnitude) * (n < 0n ? -1 : 1)
  if (scale > 127) throw overflow()
  if (scale < -132) return ZERO
  let result: Decimal = { negative: false, coefficient: 1n, exponent: 0 }
  let base: Decimal = { ...n2, negative: false }
  const exact = Number(magnitude) * digits <= 4000
  for (let k = magnitude; k > 0n; k >>= 1n) {
    if ((k & 1n) === 1n) result = exact ? mulRaw(result, base) : significant(mulRaw(result, base), 60)
    if (k > 1n) base = exact ? mulRaw(base, base) : significant(mulRaw(base, base), 60)
  }
  const negative = n2.negative && (magnitude & 1n) === 1n
  const positive = n < 0n ? divide({ negative: false, coefficient: 1n, exponent: 0 }, result) : normalize(result)
  return negative ? { ...positive, negative: positive.coefficient !== 0n } : positive
}

const mulRaw = (a: Decimal, b: Decimal): Decimal => ({ negative: false, coefficient: a.coefficient * b.coefficient, exponent: a.exponent + b.exponent })

/** The greatest (`sign` 1) or least (−1) of `values` (GREATEST / LEAST). */
export const extreme = (values: ReadonlyArray<Decimal>, direction: 1 | -1): Decimal =>
  values.reduce((best, v) => (compare(v, best) * direction > 0 ? v : best))

// EXP and LN in fixed point: values scaled by 10^60, 20 digits beyond NUMBER's 40, so that the result rounds right
const PLACES = 60
const SCALE = 10n ** BigInt(PLACES)

/** atanh(num / den) × SCALE for |num / den| well below 1 (the series converges by (num / den)² a term). */
const atanhFixed = (num: bigint, den: bigint): bigint => {
  let term = (num * SCALE) / den
  let sum = 0n
  const n2 = num * num
  const d2 = den * den
  for (let k = 1n; term !== 0n; k += 2n) {
    sum += term / k
    term = (term * n2) / d2
  }
  return sum
}

const LN2 = 2n * atanhFixed(1n, 3n)
// 10 = 2³ × 1.25, and ln 1.25 = 2 atanh(1/9)
const LN10 = 3n * LN2 + 2n * atanhFixed(1n, 9n)

/** `d` × SCALE, truncated. */
const toFixed = (d: Decimal): bigint => {
  const shift = d.exponent + PLACES
  const magnitude = shift >= 0 ? d.coefficient * 10n ** BigInt(shift) : d.coefficient / 10n ** BigInt(-shift)
  return d.negative ? -magnitude : magnitude
}

const fixedMul = (a: bigint, b: bigint): bigint => (a * b) / SCALE

/** ln(d) × SCALE for d > 0 (ORA-01428 otherwise): ln(m × 10^k) = ln(m / 2^j) + j ln 2 + k ln 10, m / 2^j near 1. */
const lnFixed = (d: Decimal): bigint => {
  if (d.negative || d.coefficient === 0n) throw outOfRange(d)
  const digits = digitCount(d.coefficient)
  let m = (d.coefficient * SCALE) / 10n ** BigInt(digits - 1)
  let halvings = 0n
  while (m * 2n > 3n * SCALE) {
    m /= 2n
    halvings++
  }
  return 2n * atanhFixed(m - SCALE, m + SCALE) + halvings * LN2 + BigInt(d.exponent + digits - 1) * LN10
}

/** e^(y / SCALE) as a NUMBER: 10^n × e^r with 0 ≤ r < ln 10, e^r by its series at r / 1024, then squared ten times. */
const expOfFixed = (y: bigint): Decimal => {
  // e^291 is about 1E126 (ORA-01426); below e^-300 the value is under 1E-130
  if (y > 291n * SCALE) throw overflow()
  if (y < -300n * SCALE) return ZERO
  let n = y / LN10
  if (y - n * LN10 < 0n) n -= 1n
  const r = (y - n * LN10) / 1024n
  let sum = SCALE
  let term = SCALE
  for (let k = 1n; term !== 0n; k++) {
    term = (term * r) / (k * SCALE)
    sum += term
  }
  for (let i = 0; i < 10; i++) sum = (sum * sum) / SCALE
  return normalize({ negative: false, coefficient: sum, exponent: Number(n) - PLACES })
}

/** EXP(n): e^n to NUMBER's digits (ORA-01426 from about e^291). */
export const exp = (d: Decimal): Decimal => expOfFixed(toFixed(d))

/** LN(n) for n > 0 (ORA-01428 otherwise), to NUMBER's digits. */
export const ln = (d: Decimal): Decimal => normalize(fromFixed(lnFixed(d)))

/** LOG(base, n) = LN(n) / LN(base), base > 0 and not 1, n > 0. */
export const log = (base: Decimal, d: Decimal): Decimal => {
  const lb = lnFixed(base)
  if (lb === 0n) throw outOfRange(base)
  return normalize(fromFixed((lnFixed(d) * SCALE) / lb))
}

const fromFixed = (v: bigint): Decimal => ({ negative: v < 0n, coefficient: v < 0n ? -v : v, exponent: -PLACES })
