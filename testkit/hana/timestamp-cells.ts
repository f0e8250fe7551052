/**
 * A date or timestamp column's row as the result encoder needs it: microseconds (exact or as a double), days, the
 * LONGDATE value relabelled by HANA's calendar, and the check that refuses a computed value past 9999-12-31.
 */
import type { ColumnVector } from "../engine/index.ts"
import { civilFromDays } from "../common/civil.ts"
import { TWO_32 } from "../../src/arrow/Words.ts"
import { DATE_OUT_OF_RANGE, HanaError } from "./errors.ts"
import { hanaDayShift } from "./datetime.ts"
import { fieldsOfTicks, TICKS_END } from "./longdate.ts"

/** Microseconds in a day. */
export const US_PER_DAY = 86_400_000_000
// LONGDATE ticks = (µs since epoch + 719164·86400·10^6)·10 + 1.
export const LONGDATE_K = (719164n * 86400n * 1_000_000n) * 10n + 1n

/** Microseconds since epoch of row r for any timestamp layout (exact below 2^53). */
export const timestampMicros = (col: ColumnVector, r: number, i32: Int32Array): number => {
  const raw = i32[2 * r + 1]! * TWO_32 + (i32[2 * r]! >>> 0)
  switch (col.info.layout) {
    case "timestamp_s":
      return raw * 1_000_000
    case "timestamp_ms":
      return raw * 1000
    case "timestamp_ns":
      return Math.floor(raw / 1000)
    default:
      return raw
  }
}

/** Microseconds since epoch of row r for any timestamp layout, exact for any date (bigint). */
export const exactMicros = (col: ColumnVector, r: number, i32: Int32Array): bigint => {
  const raw = (BigInt(i32[2 * r + 1]!) << 32n) | BigInt(i32[2 * r]! >>> 0)
  const layout = col.info.layout
  return layout === "timestamp_s" ? raw * 1_000_000n : layout === "timestamp_ms" ? raw * 1000n : layout === "timestamp_ns" ? raw / 1000n : raw
}

export const US_PER_DAY_BIG = BigInt(US_PER_DAY)

/** Days since epoch of a microsecond count, floored. */
export const floorDays = (us: bigint): bigint => (us >= 0n || us % US_PER_DAY_BIG === 0n ? us / US_PER_DAY_BIG : us / US_PER_DAY_BIG - 1n)

/** LONGDATE of row r of a timestamp column, day relabelled by HANA's calendar (bigint arithmetic, any date). */
export const relabelledLongdate = (col: ColumnVector, r: number, i32: Int32Array): bigint => {
  const us = exactMicros(col, r, i32)
  return (us + BigInt(hanaDayShift(Number(floorDays(us)))) * US_PER_DAY_BIG) * 10n + LONGDATE_K
}

/** High 32-bit word bounds within which a raw timestamp value is below 2^53 in magnitude (exact as a double). */
export const SAFE_HIGH = 0x200000

export const dateDays = (col: ColumnVector, r: number, i32: Int32Array | undefined): number =>
  col.info.layout === "date" ? (col.data as Int32Array)[r]! : Math.floor(timestampMicros(col, r, i32!) / US_PER_DAY)

/** Days since 1970-01-01 of 10000-01-01, the first day past HANA's datetime range (SAP HANA SQL Reference, "Datetime Data Types"). */
const YEAR_10000 = 2932897
/** {@link YEAR_10000} less a day in µs: a double this large is within 64 µs of the exact value. */
const NEAR_YEAR_10000_US = (YEAR_10000 - 1) * US_PER_DAY
/** The high 32-bit word of {@link NEAR_YEAR_10000_US}: µs timestamps below it need no further look. */
const NEAR_YEAR_10000_HIGH = Math.floor(NEAR_YEAR_10000_US / TWO_32)
/** The high 32-bit word of {@link TICKS_END}, 10000-01-01 in ticks: tick values below it need no further look. */
const TICKS_END_HIGH = Number(TICKS_END >> 32n)

/**
 * Fails a computed date or timestamp of row r past 9999-12-31 with HANA's 303, whatever the wire type: stored values
 * cannot get there, and 10000-01-01 would read as NULL (DAYDATE, SECONDDATE, LONGDATE) or as a year HANA has not.
 */
export const checkBeforeYear10000 = (col: ColumnVector, r: number, i32: Int32Array | undefined): void => {
  let date: { readonly year: number; readonly month: number; readonly day: number }
  const layout = col.info.layout
  if (layout === "uint64") {
    // a TIMESTAMP held as 100 ns ticks (longdate.ts)
    if (i32![2 * r + 1]! >>> 0 < TICKS_END_HIGH) return
    const ticks = (col.data as BigUint64Array)[r]!
    if (ticks < TICKS_END) return
    date = fieldsOfTicks(ticks)
  } else {
    let days: number
    if (layout === "date") days = (col.data as Int32Array)[r]!
    else if (layout === "timestamp" ? i32![2 * r + 1]! < NEAR_YEAR_10000_HIGH : timestampMicros(col, r, i32!) < NEAR_YEAR_10000_US) return
    else days = Number(floorDays(exactMicros(col, r, i32!)))
    if (days < YEAR_10000) return
    date = civilFromDays(days)
  }
  const { year, month, day } = date
  throw new HanaError(303, "22007", `${DATE_OUT_OF_RANGE}${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`)
}
