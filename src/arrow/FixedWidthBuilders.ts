/**
 * Builders for fixed-width Arrow types: bool (bit-packed), integers, floats, dates, times, timestamps and durations
 * (intervals: IntervalBuilders.ts). Values go straight into typed arrays grown geometrically; each storage type has its own class so
 * every hot append is a monomorphic typed-array store.
 */
import { type Data, DataType, DateUnit } from "apache-arrow"
import type {
  Bool,
  Date_,
  Duration,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  IntervalYearMonth,
  Time,
  Timestamp,
  Uint16,
  Uint32,
  Uint64,
  Uint8
} from "apache-arrow"
import { BaseColumnBuilder, type ColumnBuilderOptions, dataFromBuffers, grownCapacity } from "./ColumnBuilder.ts"
import { parseIsoDate, parseIsoTime, parseIsoTimestamp, type TemporalParts, writeSecondsAndNanos } from "./Temporal.ts"
import { TWO_32, TWO_POW_63 } from "./Words.ts"

/** The typed arrays fixed-width builders write their values into. */
export type FixedArray =
  | Int8Array
  | Int16Array
  | Int32Array
  | Uint8Array
  | Uint16Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array

const TWO_POW_64 = 18446744073709551616
const MS_PER_DAY = 86_400_000

/**
 * Shared growth/finish logic for builders whose rows are `stride` elements of one typed array.
 * Subclasses hold the typed array and implement the hot append methods.
 */
export abstract class FixedWidthBuilder<T extends DataType, A extends FixedArray> extends BaseColumnBuilder<T> {
  protected abstract values: A
  protected capacity = 0
  /** Typed-array elements per row. */
  protected readonly stride: number

  constructor(type: T, stride: number, options?: ColumnBuilderOptions) {
    super(type, options)
    this.stride = stride
  }

  /** Allocates a zero-filled typed array of `elements` elements. */
  protected abstract allocate(elements: number): A

  /** Installs a new value array (subclasses keeping extra views of it override this). */
  protected adopt(values: A): void {
    this.values = values
  }

  protected grow(neededRows: number): void {
    const capacity = grownCapacity(this.capacity, neededRows, this.capacityHint)
    const next = this.allocate(capacity * this.stride)
    ;(next as unknown as { set(source: ArrayLike<unknown>): void }).set(
      this.values.subarray(0, this.rows * this.stride) as unknown as ArrayLike<unknown>
    )
    this.adopt(next)
    this.capacity = capacity
  }

  reserve(additional: number): void {
    if (this.rows + additional > this.capacity) this.grow(this.rows + additional)
  }

  appendNull(): void {
    const i = this.rows
    if (i === this.capacity) this.grow(i + 1)
    this.validity.setNull(i)
    this.rows = i + 1
  }

  get byteLength(): number {
    return this.rows * this.stride * this.values.BYTES_PER_ELEMENT + this.validity.usedBytes(this.rows)
  }

  finish(): Data<T> {
    const length = this.rows
    // Less than half used (typically a short last batch allocated at the previous batch's size): hand out an
    // exact copy so the batch does not pin the larger allocation.
    const values = length * 2 < this.capacity
      ? this.values.slice(0, length * this.stride)
      : this.values.subarray(0, length * this.stride)
    const { nullBitmap, nullCount } = this.finishValidity()
    this.adopt(this.allocate(0))
    this.capacity = 0
    return dataFromBuffers(this.type, length, nullCount, nullBitmap, values)
  }
}

/** Arrow bool: bit-packed values. `appendBoolean` is the fast path. */
export class BoolBuilder extends BaseColumnBuilder<Bool> {
  private bits = new Uint8Array(0)
  private capacity = 0

  private grow(neededRows: number): void {
    const capacity = (grownCapacity(this.capacity, neededRows, this.capacityHint) + 7) & ~7
    const next = new Uint8Array(capacity >>> 3)
    next.set(this.bits.subarray(0, (this.rows + 7) >>> 3))
    this.bits = next
    this.capacity = capacity
  }

  /** Appends a non-null boolean. */
  appendBoolean(value: boolean): void {
    const i = this.rows
    if (i === this.capacity) this.grow(i + 1)
    if (value) this.bits[i >>> 3] = this.bits[i >>> 3]! | (1 << (i & 7))
    this.rows = i + 1
  }

  appendNull(): void {
    const i = this.rows
    if (i === this.capacity) this.grow(i + 1)
    this.validity.setNull(i)
    this.rows = i + 1
  }

  append(value: unknown): void {
    if (value === null || value === undefined) this.appendNull()
    else if (typeof value === "boolean") this.appendBoolean(value)
    else if (value === 0 || value === 1) this.appendBoolean(value === 1)
    else throw this.invalid(value, "a boolean")
  }

  reserve(additional: number): void {
    if (this.rows + additional > this.capacity) this.grow(this.rows + additional)
  }

  get byteLength(): number {
    return ((this.rows + 7) >>> 3) + this.validity.usedBytes(this.rows)
  }

  finish(): Data<Bool> {
    const length = this.rows
    const bits = this.bits.subarray(0, (length + 7) >>> 3)
    const { nullBitmap, nullCount } = this.finishValidity()
    this.bits = new Uint8Array(0)
    this.capacity = 0
    return dataFromBuffers(this.type, length, nullCount, nullBitmap, bits)
  }
}

const numberOf = (value: unknown): number | undefined =>
  typeof value === "number" ? value : typeof value === "bigint" ? Number(value) : undefined

/** The typed arrays of the small integer types, one element per row. */
type SmallIntArray = Int8Array | Int16Array | Uint8Array | Uint16Array | Uint32Array

/**
 * Integers checked against one range and stored one element per row: int8, int16, uint8, uint16, uint32 (int32
 * has its own builder, which also holds dates, times and year-month intervals).
 */
abstract class RangedIntBuilder<T extends DataType, A extends SmallIntArray> extends FixedWidthBuilder<T, A> {
  private readonly expected: string
  constructor(type: T, private readonly min: number, private readonly max: number, options?: ColumnBuilderOptions) {
    super(type, 1, options)
    this.expected = `an integer in [${min}, ${max}]`
  }
  /** Appends an integer in the type's range. */
  appendNumber(value: number): void {
    if (!Number.isInteger(value) || value < this.min || value > this.max) throw this.invalid(value, this.expected)
    const i = this.rows
    if (i === this.capacity) this.grow(i + 1)
    this.values[i] = value
    this.rows = i + 1
  }
  append(value: unknown): void {
    if (value === null || value === undefined) return this.appendNull()
    const n = numberOf(value)
    if (n === undefined) throw this.invalid(value, "an integer")
    this.appendNumber(n)
  }
}

/** Arrow int8. */
export class Int8Builder extends RangedIntBuilder<Int8, Int8Array> {
  protected values = new Int8Array(0)
  constructor(type: Int8, options?: ColumnBuilderOptions) {
    super(type, -128, 127, options)
  }
  protected allocate(elements: number): Int8Array {
    return new Int8Array(elements)
  }
}

/** Arrow int16. */
export class Int16Builder extends RangedIntBuilder<Int16, Int16Array> {
  protected values = new Int16Array(0)
  constructor(type: Int16, options?: ColumnBuilderOptions) {
    super(type, -32768, 32767, options)
  }
  protected allocate(elements: number): Int16Array {
    return new Int16Array(elements)
  }
}

/** Types stored as one int32 per row. */
export type Int32StoredType = Int32 | Date_ | Time | IntervalYearMonth

const INTEGER_TEXT = /^[+-]?\d+$/

/**
 * Arrow int32 and the types stored like it: date32 (days since the epoch), time32 (s or ms since midnight) and
 * interval[year-month] (months).
 */
export class Int32Builder<T extends Int32StoredType = Int32> extends FixedWidthBuilder<T, Int32Array> {
  protected values = new Int32Array(0)
  private readonly isDateDay: boolean
  /** For time32: units per second (1 or 1000); 0 otherwise. */
  private readonly timeUnitsPerSecond: number
  private readonly parts: TemporalParts = { seconds: 0, nanos: 0 }
  constructor(type: T, options?: ColumnBuilderOptions) {
    super(type, 1, options)
    this.isDateDay = DataType.isDate(type) && type.unit === DateUnit.DAY
    this.timeUnitsPerSecond = DataType.isTime(type) ? (type.unit === 0 ? 1 : 1000) : 0
  }
  protected allocate(elements: number): Int32Array {
    return new Int32Array(elements)
  }
  /** Appends a 32-bit signed integer (days for date32, units since midnight for time32, months for intervals). */
  appendNumber(value: number): void {
    if ((value | 0) !== value) throw this.invalid(value, "a 32-bit integer")
    const i = this.rows
    if (i === this.capacity) this.grow(i + 1)
    this.values[i] = value
    this.rows = i + 1
  }
  /** date32 only: appends the UTC calendar day of a JS Date. */
  appendDate(value: Date): void {
    const ms = value.getTime()
    if (!this.isDateDay || Number.isNaN(ms)) throw this.invalid(value, "a valid Date for a date32 column")
    this.appendNumber(Math.floor(ms / MS_PER_DAY))
  }
  /**
   * Appends text: an ISO date (`2024-02-29`) for date32, an ISO time (`12:34:56.789`, sub-unit digits truncated)
   * for time32, integer text otherwise.
   */
  appendString(value: string): void {
    if (this.isDateDay) return this.appendNumber(parseIsoDate(value, this.name))
    if (this.timeUnitsPerSecond !== 0) {
      parseIsoTime(value, this.parts, this.name)
      const perUnit = 1e9 / this.timeUnitsPerSecond
      return this.appendNumber(this.parts.seconds * this.timeUnitsPerSecond + Math.floor(this.parts.nanos / perUnit))
    }
    if (!INTEGER_TEXT.test(value)) throw this.invalid(value, "integer text")
    this.appendNumber(Number(value))
  }
  append(value: unknown): void {
    if (value === null || value === undefined) return this.appendNull()
    if (typeof value === "string") return this.appendString(value)
    if (value instanceof Date) return this.appendDate(value)
    const n = numberOf(value)
    if (n === undefined) throw this.invalid(value, "a 32-bit integer")
    this.appendNumber(n)
  }
}

/** Arrow uint8. */
export class Uint8Builder extends RangedIntBuilder<Uint8, Uint8Array> {
  protected values = new Uint8Array(0)
  constructor(type: Uint8, options?: ColumnBuilderOptions) {
    super(type, 0, 255, options)
  }
  protected allocate(elements: number): Uint8Array {
    return new Uint8Array(elements)
  }
}

/** Arrow uint16. */
export class Uint16Builder extends RangedIntBuilder<Uint16, Uint16Array> {
  protected values = new Uint16Array(0)
  constructor(type: Uint16, options?: ColumnBuilderOptions) {
    super(type, 0, 65535, options)
  }
  protected allocate(elements: number): Uint16Array {
    return new Uint16Array(elements)
  }
}

/** Arrow uint32. */
export class Uint32Builder extends RangedIntBuilder<Uint32, Uint32Array> {
  protected values = new Uint32Array(0)
  constructor(type: Uint32, options?: ColumnBuilderOptions) {
    super(type, 0, 4294967295, options)
  }
  protected allocate(elements: number): Uint32Array {
    return new Uint32Array(elements)
  }
}

/** Decimal float text as databases print it (no hex, no blanks, no digit separators). */
const FLOAT_TEXT = /^(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?Infinity|NaN)$/

const floatOf = (value: unknown): number | undefined => {
  if (typeof value === "number") return value
  if (typeof value === "bigint") return Number(value)
  if (typeof value === "string" && FLOAT_TEXT.test(value)) return Number(value)
  return undefined
}

/** Arrow float (32-bit). Values are rounded to single precision as Float32Array does. */
export class Float32Builder extends FixedWidthBuilder<Float32, Float32Array> {
  protected values = new Float32Array(0)
  constructor(type: Float32, options?: ColumnBuilderOptions) {
    super(type, 1, options)
  }
  protected allocate(elements: number): Float32Array {
    return new Float32Array(elements)
  }
  /** Appends a number. */
  appendNumber(value: number): void {
    const i = this.rows
    if (i === this.capacity) this.grow(i + 1)
    this.values[i] = value
    this.rows = i + 1
  }
  append(value: unknown): void {
    if (value === null || value === undefined) return this.appendNull()
    const n = floatOf(value)
    if (n === undefined) throw this.invalid(value, "a number")
    this.appendNumber(n)
  }
}

/** Arrow double (64-bit float). */
export class Float64Builder extends FixedWidthBuilder<Float64, Float64Array> {
  protected values = new Float64Array(0)
  constructor(type: Float64, options?: ColumnBuilderOptions) {
    super(type, 1, options)
  }
  protected allocate(elements: number): Float64Array {
    return new Float64Array(elements)
  }
  /** Appends a number. */
  appendNumber(value: number): void {
    const i = this.rows
    if (i === this.capacity) this.grow(i + 1)
    this.values[i] = value
    this.rows = i + 1
  }
  append(value: unknown): void {
    if (value === null || value === undefined) return this.appendNull()
    const n = floatOf(value)
    if (n === undefined) throw this.invalid(value, "a number")
    this.appendNumber(n)
  }
}

/** Types stored as one signed int64 per row. */
export type Int64StoredType = Int64 | Timestamp | Time | Duration | Date_

/** What an int64-stored column holds, for text, Date and seconds+nanos conversions. */
const enum Int64Kind {
  Integer,
  Timestamp,
  Time,
  Date64,
  Duration
}

/**
 * Arrow int64 and the types stored like it: timestamp (any unit, with or without time zone; value since the epoch
 * in that unit), time64 (us or ns since midnight), duration (any unit) and date64 (ms).
 *
 * `appendNumber` takes any integer-valued JS number in int64 range and writes it exactly without allocating a
 * bigint; `appendBigInt` takes a bigint; `appendSecondsAndNanos` converts to the column's unit exactly.
 */
export class Int64Builder<T extends Int64StoredType = Int64> extends FixedWidthBuilder<T, BigInt64Array> {
  protected values: BigInt64Array = new BigInt64Array(0)
  /** The same memory as `values`, as (low, high) 32-bit words per row. */
  private words: Int32Array = new Int32Array(0)
  private readonly kind: Int64Kind
  /** Arrow TimeUnit of the column (milliseconds for date64; unused for plain int64). */
  private readonly unit: number
  private readonly parts: TemporalParts = { seconds: 0, nanos: 0 }

  constructor(type: T, options?: ColumnBuilderOptions) {
    super(type, 1, options)
    if (DataType.isTimestamp(type)) {
      this.kind = Int64Kind.Timestamp
      this.unit = type.unit
    } else if (DataType.isTime(type)) {
      this.kind = Int64Kind.Time
      this.unit = type.unit
    } else if (DataType.isDuration(type)) {
      this.kind = Int64Kind.Duration
      this.unit = type.unit
    } else if (DataType.isDate(type)) {
      this.kind = Int64Kind.Date64
      this.unit = 1
    } else {
      this.kind = Int64Kind.Integer
      this.unit = 0
    }
  }
  protected allocate(elements: number): BigInt64Array {
    return new BigInt64Array(elements)
  }
  protected override adopt(values: BigInt64Array): void {
    this.values = values
    this.words = new Int32Array(values.buffer, values.byteOffset, values.length * 2)
  }

  /** Appends an integer-valued number in [-2^63, 2^63). */
  appendNumber(value: number): void {
    if (!(Number.isInteger(value) && value >= -TWO_POW_63 && value < TWO_POW_63)) {
      throw this.invalid(value, "an integer in the int64 range")
    }
    const i = this.rows
    if (i === this.capacity) this.grow(i + 1)
    const hi = Math.floor(value / TWO_32)
    this.words[2 * i] = value - hi * TWO_32
    this.words[2 * i + 1] = hi
    this.rows = i + 1
  }

  /** Appends a bigint in [-2^63, 2^63). */
  appendBigInt(value: bigint): void {
    if (BigInt.asIntN(64, value) !== value) throw this.invalid(value, "an integer in the int64 range")
    const i = this.rows
    if (i === this.capacity) this.grow(i + 1)
    this.values[i] = value
    this.rows = i + 1
  }

  /**
   * timestamp, time64, duration and date64: appends `seconds` (since the epoch, since midnight, or elapsed) plus
   * `nanos` (0 ≤ nanos < 1e9), converted exactly to the column's unit; digits finer than the unit are truncated.
   */
  appendSecondsAndNanos(seconds: number, nanos: number): void {
    if (this.kind === Int64Kind.Integer) throw this.invalid(seconds, "an integer (int64 has no time unit)")
    if (!(Number.isInteger(seconds) && Math.abs(seconds) < 2 ** 40 && Number.isInteger(nanos) && nanos >= 0 && nanos < 1e9)) {
      throw this.invalid({ seconds, nanos }, "integer seconds and 0 <= nanos < 1e9")
    }
    const i = this.rows
    if (i === this.capacity) this.grow(i + 1)
    if (!writeSecondsAndNanos(this.words, i, seconds, nanos, this.unit)) {
      throw this.invalid({ seconds, nanos }, `a value within the int64 range of ${this.type}`)
    }
    this.rows = i + 1
  }

  /**
   * Appends text: an ISO timestamp (`2024-02-29 12:34:56.123456789`, `T` or space, optional `Z`/`±HH:MM` offset
   * which is applied to give UTC) for timestamps, an ISO time for time64, an ISO date for date64, integer text for
   * int64 and durations.
   */
  appendString(value: string): void {
    switch (this.kind) {
      case Int64Kind.Timestamp:
        parseIsoTimestamp(value, this.parts, this.name)
        return this.appendSecondsAndNanos(this.parts.seconds, this.parts.nanos)
      case Int64Kind.Time:
        parseIsoTime(value, this.parts, this.name)
        return this.appendSecondsAndNanos(this.parts.seconds, this.parts.nanos)
      case Int64Kind.Date64:
        return this.appendNumber(parseIsoDate(value, this.name) * MS_PER_DAY)
      default:
        if (!INTEGER_TEXT.test(value)) throw this.invalid(value, "integer text")
        return this.appendBigInt(BigInt(value))
    }
  }

  /** timestamp and date64 only: appends a JS Date (epoch milliseconds, converted to the column's unit). */
  appendDate(value: Date): void {
    const ms = value.getTime()
    if (Number.isNaN(ms)) throw this.invalid(value, "a valid Date")
    if (this.kind !== Int64Kind.Timestamp && this.kind !== Int64Kind.Date64) {
      throw this.invalid(value, `an integer (${this.type} does not take a Date)`)
    }
    const seconds = Math.floor(ms / 1000)
    this.appendSecondsAndNanos(seconds, (ms - seconds * 1000) * 1_000_000)
  }

  append(value: unknown): void {
    if (value === null || value === undefined) return this.appendNull()
    if (typeof value === "number") return this.appendNumber(value)
    if (typeof value === "bigint") return this.appendBigInt(value)
    if (typeof value === "string") return this.appendString(value)
    if (value instanceof Date) return this.appendDate(value)
    throw this.invalid(value, "an integer")
  }
}

/** Arrow uint64. */
export class Uint64Builder extends FixedWidthBuilder<Uint64, BigUint64Array> {
  protected values: BigUint64Array = new BigUint64Array(0)
  private words: Uint32Array = new Uint32Array(0)
  constructor(type: Uint64, options?: ColumnBuilderOptions) {
    super(type, 1, options)
  }
  protected allocate(elements: number): BigUint64Array {
    return new BigUint64Array(elements)
  }
  protected override adopt(values: BigUint64Array): void {
    this.values = values
    this.words = new Uint32Array(values.buffer, values.byteOffset, values.length * 2)
  }
  /** Appends an integer-valued number in [0, 2^64). */
  appendNumber(value: number): void {
    if (!(Number.isInteger(value) && value >= 0 && value < TWO_POW_64)) {
      throw this.invalid(value, "an integer in the uint64 range")
    }
    const i = this.rows
    if (i === this.capacity) this.grow(i + 1)
    const hi = Math.floor(value / TWO_32)
    this.words[2 * i] = value - hi * TWO_32
    this.words[2 * i + 1] = hi
    this.rows = i + 1
  }
  /** Appends a bigint in [0, 2^64). */
  appendBigInt(value: bigint): void {
    if (BigInt.asUintN(64, value) !== value) throw this.invalid(value, "an integer in the uint64 range")
    const i = this.rows
    if (i === this.capacity) this.grow(i + 1)
    this.values[i] = value
    this.rows = i + 1
  }
  append(value: unknown): void {
    if (value === null || value === undefined) return this.appendNull()
    if (typeof value === "number") return this.appendNumber(value)
    if (typeof value === "bigint") return this.appendBigInt(value)
    if (typeof value === "string" && /^\+?\d+$/.test(value)) return this.appendBigInt(BigInt(value))
    throw this.invalid(value, "a non-negative integer")
  }
}
