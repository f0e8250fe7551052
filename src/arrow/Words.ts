/**
 * The 32-bit words an int64 is read as (two Int32/Uint32 array elements), so that hot paths need no BigInt per cell.
 */

/** 2^32: the weight of an int64's upper 32-bit word (`value = hi · TWO_32 + (lo >>> 0)`). */
export const TWO_32 = 4_294_967_296

/** 2^63: int64 holds the integers in [-TWO_POW_63, TWO_POW_63). */
export const TWO_POW_63 = 9_223_372_036_854_775_808

const TWO_16 = 65_536

/**
 * Floor division of the int64 `hi · 2^32 + lo` (`hi` its signed upper word, `lo` its lower word, read signed or
 * unsigned) by `divisor` (an integer from 1 to 2^30): writes the quotient to `out[0]` and the remainder, from 0 to
 * `divisor - 1` also for negative values, to `out[1]`. The remainder is always exact, the quotient whenever it lies
 * within ±2^53 (so always for a divisor of 1024 or more).
 *
 * Long division in base 2^16 below the upper word: every partial dividend stays below `divisor · 2^16` ≤ 2^46, so
 * each `Math.floor(a / divisor)` is the exact integer quotient (a double quotient of integers below 2^53 never
 * rounds up to the next integer).
 *
 * @category arithmetic
 * @since 0.1.0
 */
export const floorDivInt64 = (hi: number, lo: number, divisor: number, out: Float64Array): void => {
  const low = lo >>> 0
  const q0 = Math.floor(hi / divisor)
  let a = (hi - q0 * divisor) * TWO_16 + (low >>> 16)
  const q1 = Math.floor(a / divisor)
  a = (a - q1 * divisor) * TWO_16 + (low & 0xffff)
  const q2 = Math.floor(a / divisor)
  out[0] = q0 * TWO_32 + (q1 * TWO_16 + q2)
  out[1] = a - q2 * divisor
}
