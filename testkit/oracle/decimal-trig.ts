/**
 * SIN, COS, TAN, ASIN, ACOS, ATAN, ATAN2, SINH, COSH and TANH of NUMBER values, computed in decimal as Oracle's
 * NUMBER functions are ("The transcendental functions COS, COSH, EXP, LN, LOG, SIN, SINH, SQRT, TAN, and TANH are
 * accurate to 36 decimal digits. The transcendental functions ACOS, ASIN, ATAN, and ATAN2 are accurate to 30 decimal
 * digits": SQL Language Reference, "Numeric Functions",
 * https://docs.oracle.com/cd/E24693_01/server.11203/e17118/functions002.htm). Each is computed here with 64
 * significant digits (arguments reduced by π to as many digits past their own) and rounded to NUMBER's 40, so the
 * result is correctly rounded wherever Oracle's documented accuracy decides it.
 */
import { type Decimal, isqrt, normalize, numberText } from "./decimal.ts"
import { OraError } from "./errors.ts"

/** Significant digits kept by intermediate results. */
const WORKING = 64

/** A working value `m × 10^e` (m signed), kept to {@link WORKING} significant digits. */
interface Float {
  readonly m: bigint
  readonly e: number
}

const digitsOf = (m: bigint): number => (m < 0n ? -m : m).toString().length

const trim = (x: Float): Float => {
  const drop = digitsOf(x.m) - WORKING
  if (drop <= 0) return x
  return { m: x.m / 10n ** BigInt(drop), e: x.e + drop }
}

const ZERO: Float = { m: 0n, e: 0 }
const ONE: Float = { m: 1n, e: 0 }
const floatOf = (d: Decimal): Float => ({ m: d.negative ? -d.coefficient : d.coefficient, e: d.exponent })
const fromInt = (n: bigint): Float => ({ m: n, e: 0 })

const add = (a: Float, b: Float): Float => {
  if (a.m === 0n) return b
  if (b.m === 0n) return a
  // an addend below the other's last kept digit only matters as a rounding guard
  const lead = (x: Float) => x.e + digitsOf(x.m)
  if (lead(a) - lead(b) > WORKING + 5) return a
  if (lead(b) - lead(a) > WORKING + 5) return b
  const e = Math.min(a.e, b.e)
  return trim({ m: a.m * 10n ** BigInt(a.e - e) + b.m * 10n ** BigInt(b.e - e), e })
}
const neg = (a: Float): Float => ({ m: -a.m, e: a.e })
const sub = (a: Float, b: Float): Float => add(a, neg(b))
const mul = (a: Float, b: Float): Float => trim({ m: a.m * b.m, e: a.e + b.e })
const div = (a: Float, b: Float): Float => {
  const shift = WORKING + 2 + digitsOf(b.m) - digitsOf(a.m)
  const scaled = shift > 0 ? a.m * 10n ** BigInt(shift) : a.m
  return trim({ m: scaled / b.m, e: a.e - b.e - Math.max(shift, 0) })
}
const half = (a: Float): Float => mul(a, { m: 5n, e: -1 })
const isNegative = (a: Float): boolean => a.m < 0n
const absOf = (a: Float): Float => (a.m < 0n ? neg(a) : a)
/** log10 of |a|'s order of magnitude (the power of ten of its leading digit). */
const magnitude = (a: Float): number => (a.m === 0n ? -Infinity : a.e + digitsOf(a.m) - 1)

/** √a for a ≥ 0. */
const sqrtOf = (a: Float): Float => {
  if (a.m === 0n) return ZERO
  let { m, e } = a
  const pad = 2 * WORKING + 4 - digitsOf(m)
  const p = pad + ((e - pad) & 1)
  m *= 10n ** BigInt(Math.max(p, 0))
  e -= Math.max(p, 0)
  return trim({ m: isqrt(m), e: e / 2 })
}

/** Sum of a series whose terms `next(term, k)` shrink until they no longer touch the working digits. */
const series = (first: Float, next: (term: Float, k: number) => Float): Float => {
  let sum = first
  let term = first
  for (let k = 1; term.m !== 0n && magnitude(term) > magnitude(sum) - WORKING - 3; k++) {
    term = next(term, k)
    sum = add(sum, term)
  }
  return sum
}

/** sin r and cos r for |r| ≤ π/4 by their Taylor series. */
const sinSmall = (r: Float): Float => {
  const r2 = mul(r, r)
  return series(r, (t, k) => neg(div(mul(t, r2), fromInt(BigInt(2 * k * (2 * k + 1))))))
}
const cosSmall = (r: Float): Float => {
  const r2 = mul(r, r)
  return series(ONE, (t, k) => neg(div(mul(t, r2), fromInt(BigInt((2 * k - 1) * (2 * k))))))
}

/** arctan(1 / n) × 10^places, for Machin's formula. */
const atanInverse = (n: bigint, places: number): bigint => {
  const scale = 10n ** BigInt(places)
  let term = scale / n
  let sum = term
  const n2 = n * n
  for (let k = 1n; term !== 0n; k++) {
    term /= n2
    sum += (k % 2n === 1n ? -term : term) / (2n * k + 1n)
  }
  return sum
}

let piCache: { places: number; value: bigint } = { places: 0, value: 0n }
/** π × 10^places (Machin: π = 16 arctan(1/5) − 4 arctan(1/239)), with ten guard digits dropped. */
const piFixed = (places: number): bigint => {
  if (piCache.places < places) {
    const p = places + 10
    piCache = { places: p, value: 16n * atanInverse(5n, p) - 4n * atanInverse(239n, p) }
  }
  return piCache.value / 10n ** BigInt(piCache.places - places)
}
const pi = (): Float => trim({ m: piFixed(WORKING + 5), e: -(WORKING + 5) })

/**
 * x = q·π/2 + r with |r| ≤ π/4: q mod 4 and r. π is taken to as many digits past x's own as the working precision
 * keeps, so that r keeps them too however large x is (and however close to a multiple of π/2).
 */
const reduce = (d: Decimal): { quadrant: number; r: Float } => {
  const x = floatOf(d)
  if (magnitude(x) < -1) return { quadrant: 0, r: x }
  const places = WORKING + 10 + Math.max(0, magnitude(x)) + Math.max(0, -x.e)
  const scale = 10n ** BigInt(places)
  const fixed = x.e >= 0 ? x.m * 10n ** BigInt(x.e) * scale : (x.m * scale) / 10n ** BigInt(-x.e)
  const halfPi = piFixed(places) / 2n
  let q = (fixed + (fixed >= 0n ? halfPi / 2n : -halfPi / 2n)) / halfPi
  let r = fixed - q * halfPi
  if (2n * r > halfPi) {
    q += 1n
    r -= halfPi
  } else if (2n * r < -halfPi) {
    q -= 1n
    r += halfPi
  }
  return { quadrant: Number(((q % 4n) + 4n) % 4n), r: trim({ m: r, e: -places }) }
}

/** e^a for |a| ≤ 300: the series at a / 2^k, squared k times. */
const expOf = (a: Float): Float => {
  let k = 0
  let r = a
  while (magnitude(r) > -4) {
    r = half(r)
    k++
  }
  let y = series(ONE, (t, n) => div(mul(t, r), fromInt(BigInt(n))))
  for (let i = 0; i < k; i++) y = mul(y, y)
  return y
}

/** arctan a: |a| > 1 as ±π/2 − arctan(1/a); then halved (arctan a = 2 arctan(a / (1 + √(1 + a²)))) below 0.01 for its series. */
const atanOf = (a: Float): Float => {
  if (a.m === 0n) return ZERO
  if (magnitude(a) >= 0 && sub(absOf(a), ONE).m > 0n) {
    const inner = atanOf(div(ONE, a))
    const halfPi = half(pi())
    return isNegative(a) ? sub(neg(halfPi), inner) : sub(halfPi, inner)
  }
  let r = a
  let doublings = 0
  while (magnitude(r) > -3) {
    r = div(r, add(ONE, sqrtOf(add(ONE, mul(r, r)))))
    doublings++
  }
  const r2 = mul(r, r)
  // arctan r = r − r³/3 + r⁵/5 − …: the k-th term is (−r²)^k r / (2k + 1)
  let power = r
  let sum = r
  for (let k = 1; magnitude(power) > magnitude(sum) - WORKING - 3; k++) {
    power = neg(mul(power, r2))
    sum = add(sum, div(power, fromInt(BigInt(2 * k + 1))))
  }
  return mul(sum, fromInt(1n << BigInt(doublings)))
}

const toNumber = (x: Float): Decimal =>
  normalize({ negative: x.m < 0n, coefficient: x.m < 0n ? -x.m : x.m, exponent: x.e })

const outOfRange = (d: Decimal) => new OraError(1428, `argument '${numberText(d)}' is out of range`)
const overflow = () => new OraError(1426, "numeric overflow")

/** SIN(n). */
export const sin = (d: Decimal): Decimal => {
  const { quadrant, r } = reduce(d)
  const value = quadrant % 2 === 0 ? sinSmall(r) : cosSmall(r)
  return toNumber(quadrant >= 2 ? neg(value) : value)
}

/** COS(n). */
export const cos = (d: Decimal): Decimal => {
  const { quadrant, r } = reduce(d)
  const value = quadrant % 2 === 0 ? cosSmall(r) : sinSmall(r)
  return toNumber(quadrant === 1 || quadrant === 2 ? neg(value) : value)
}

/** TAN(n). */
export const tan = (d: Decimal): Decimal => {
  const { quadrant, r } = reduce(d)
  const s = sinSmall(r)
  const c = cosSmall(r)
  return toNumber(quadrant % 2 === 0 ? div(s, c) : neg(div(c, s)))
}

const ONE_DECIMAL: Decimal = { negative: false, coefficient: 1n, exponent: 0 }
/** |d| > 1 (ASIN and ACOS take −1 .. 1 only: ORA-01428 otherwise). */
const beyondOne = (d: Decimal): boolean => magnitude(floatOf(d)) >= 0 && sub(absOf(floatOf(d)), floatOf(ONE_DECIMAL)).m > 0n

/** ASIN(n) for −1 ≤ n ≤ 1: arctan(n / √(1 − n²)), ±π/2 at ±1. */
export const asin = (d: Decimal): Decimal => {
  if (beyondOne(d)) throw outOfRange(d)
  const x = floatOf(d)
  const rest = sub(ONE, mul(x, x))
  if (rest.m === 0n) return toNumber(isNegative(x) ? neg(half(pi())) : half(pi()))
  return toNumber(atanOf(div(x, sqrtOf(rest))))
}

/** ACOS(n) for −1 ≤ n ≤ 1: 2 arctan(√((1 − n) / (1 + n))), π at −1 (no cancellation near 1). */
export const acos = (d: Decimal): Decimal => {
  if (beyondOne(d)) throw outOfRange(d)
  const x = floatOf(d)
  const below = add(ONE, x)
  if (below.m === 0n) return toNumber(pi())
  return toNumber(mul(fromInt(2n), atanOf(sqrtOf(div(sub(ONE, x), below)))))
}

/** ATAN(n). */
export const atan = (d: Decimal): Decimal => toNumber(atanOf(floatOf(d)))

/** ATAN2(n1, n2): the angle of the point (n2, n1), in −π .. π; ATAN2(0, 0) is 0. */
export const atan2 = (y: Decimal, x: Decimal): Decimal => {
  const fy = floatOf(y)
  const fx = floatOf(x)
  if (fx.m === 0n) return fy.m === 0n ? toNumber(ZERO) : toNumber(isNegative(fy) ? neg(half(pi())) : half(pi()))
  const base = atanOf(div(fy, fx))
  if (!isNegative(fx)) return toNumber(base)
  return toNumber(isNegative(fy) ? sub(base, pi()) : add(base, pi()))
}

/** e^|x| for SINH / COSH / TANH; past e^300 the result is beyond NUMBER's range (ORA-01426). */
const expAbs = (x: Float): Float => {
  if (magnitude(x) >= 3 && sub(absOf(x), fromInt(300n)).m > 0n) throw overflow()
  return expOf(absOf(x))
}

/** SINH(n): its series below 1 (no cancellation), else (e^n − e^−n) / 2. */
export const sinh = (d: Decimal): Decimal => {
  const x = floatOf(d)
  if (magnitude(x) < 0) {
    const x2 = mul(x, x)
    return toNumber(series(x, (t, k) => div(mul(t, x2), fromInt(BigInt(2 * k * (2 * k + 1))))))
  }
  const e = expAbs(x)
  const value = half(sub(e, div(ONE, e)))
  return toNumber(isNegative(x) ? neg(value) : value)
}

/** COSH(n) = (e^n + e^−n) / 2. */
export const cosh = (d: Decimal): Decimal => {
  const e = expAbs(floatOf(d))
  return toNumber(half(add(e, div(ONE, e))))
}

/** TANH(n): SINH / COSH below 1, else (e^2|n| − 1) / (e^2|n| + 1) with n's sign; ±1 from |n| > 100 (1 − 2e^−200 rounds to 1). */
export const tanh = (d: Decimal): Decimal => {
  const x = floatOf(d)
  if (magnitude(x) < 0) return toNumber(div(floatOf(sinh(d)), floatOf(cosh(d))))
  if (magnitude(x) >= 2 && sub(absOf(x), fromInt(100n)).m > 0n) return toNumber(isNegative(x) ? neg(ONE) : ONE)
  const e = expOf(mul(fromInt(2n), absOf(x)))
  const value = div(sub(e, ONE), add(e, ONE))
  return toNumber(isNegative(x) ? neg(value) : value)
}
