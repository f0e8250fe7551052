/**
 * Builders for Arrow's two-part interval types: day-time (two int32 per row) and month-day-nano (int32 months, int32
 * days, int64 nanoseconds). Year-month intervals are one int32 per row (Int32Builder).
 */
import type { IntervalDayTime, IntervalMonthDayNano } from "apache-arrow"
import type { ColumnBuilderOptions } from "./ColumnBuilder.ts"
import { FixedWidthBuilder } from "./FixedWidthBuilders.ts"
import { TWO_32, TWO_POW_63 } from "./Words.ts"

/** A day-time interval as a JS object. */
export interface DayTimeInterval {
  readonly days: number
  readonly milliseconds: number
}

/** Arrow interval[day-time]: two int32 per row (days, milliseconds). */
export class IntervalDayTimeBuilder extends FixedWidthBuilder<IntervalDayTime, Int32Array> {
  protected values = new Int32Array(0)
  constructor(type: IntervalDayTime, options?: ColumnBuilderOptions) {
    super(type, 2, options)
  }
  protected allocate(elements: number): Int32Array {
    return new Int32Array(elements)
  }
  /** Appends days and milliseconds (each a 32-bit integer). */
  appendDayTime(days: number, milliseconds: number): void {
    if ((days | 0) !== days || (milliseconds | 0) !== milliseconds) {
      throw this.invalid({ days, milliseconds }, "32-bit days and milliseconds")
    }
    const i = this.rows
    if (i === this.capacity) this.grow(i + 1)
    this.values[2 * i] = days
    this.values[2 * i + 1] = milliseconds
    this.rows = i + 1
  }
  append(value: unknown): void {
    if (value === null || value === undefined) return this.appendNull()
    if (typeof value === "object" && "days" in value && "milliseconds" in value) {
      const { days, milliseconds } = value as DayTimeInterval
      return this.appendDayTime(days, milliseconds)
    }
    throw this.invalid(value, "{ days, milliseconds }")
  }
}

/** A month-day-nano interval as a JS object. */
export interface MonthDayNanoInterval {
  readonly months: number
  readonly days: number
  readonly nanoseconds: number | bigint
}

/** Arrow interval[month-day-nano]: int32 months, int32 days, int64 nanoseconds per row. */
export class IntervalMonthDayNanoBuilder extends FixedWidthBuilder<IntervalMonthDayNano, Int32Array> {
  protected values = new Int32Array(0)
  constructor(type: IntervalMonthDayNano, options?: ColumnBuilderOptions) {
    super(type, 4, options)
  }
  protected allocate(elements: number): Int32Array {
    return new Int32Array(elements)
  }
  /** Appends months and days (32-bit integers) and nanoseconds (int64 range; a number must be integer-valued). */
  appendMonthDayNano(months: number, days: number, nanoseconds: number | bigint): void {
    let lo: number
    let hi: number
    if (typeof nanoseconds === "bigint") {
      if (BigInt.asIntN(64, nanoseconds) !== nanoseconds) throw this.invalid(nanoseconds, "int64 nanoseconds")
      lo = Number(BigInt.asUintN(32, nanoseconds))
      hi = Number(BigInt.asIntN(32, nanoseconds >> 32n))
    } else {
      if (!(Number.isInteger(nanoseconds) && nanoseconds >= -TWO_POW_63 && nanoseconds < TWO_POW_63)) {
        throw this.invalid(nanoseconds, "int64 nanoseconds")
      }
      hi = Math.floor(nanoseconds / TWO_32)
      lo = nanoseconds - hi * TWO_32
    }
    if ((months | 0) !== months || (days | 0) !== days) {
      throw this.invalid({ months, days }, "32-bit months and days")
    }
    const i = this.rows
    if (i === this.capacity) this.grow(i + 1)
    const v = this.values
    v[4 * i] = months
    v[4 * i + 1] = days
    v[4 * i + 2] = lo
    v[4 * i + 3] = hi
    this.rows = i + 1
  }
  append(value: unknown): void {
    if (value === null || value === undefined) return this.appendNull()
    if (typeof value === "object" && "months" in value && "days" in value && "nanoseconds" in value) {
      const { days, months, nanoseconds } = value as MonthDayNanoInterval
      return this.appendMonthDayNano(months, days, nanoseconds)
    }
    throw this.invalid(value, "{ months, days, nanoseconds }")
  }
}

