/**
 * Builder for Arrow decimal128 and decimal256 columns, from decimal text, unscaled bigints or JS numbers.
 */
import type { Decimal } from "apache-arrow"
import { ArrowAssemblyError } from "./ArrowAssemblyError.ts"
import type { ColumnBuilderOptions } from "./ColumnBuilder.ts"
import {
  checkUnscaled,
  DECIMAL128_MAX_PRECISION,
  DECIMAL256_MAX_PRECISION,
  decimalLimit,
  parseDecimalText,
  writeDecimalText,
  writeDecimalWords
} from "./Decimal.ts"
import { FixedWidthBuilder } from "./FixedWidthBuilders.ts"

/**
 * Arrow decimal128 (4 words per row) or decimal256 (8 words per row), chosen by the type's `bitWidth`.
 *
 * - `appendString("-12345.678")` rescales exactly to the column scale (trailing zeros beyond it are fine; other
 *   extra fractional digits, more digits than the precision, or malformed text throw {@link ArrowAssemblyError}).
 * - `appendBigInt(unscaled)` takes the value already multiplied by 10^scale.
 * - `appendNumber(n)` takes a finite JS number, using its shortest round-trip decimal form.
 */
export class DecimalBuilder extends FixedWidthBuilder<Decimal, Uint32Array> {
  protected values = new Uint32Array(0)
  private readonly words: number
  private readonly scale: number
  private readonly precision: number
  private readonly limit: bigint
  /** 10^precision as a number (beyond 2^53 it only has to exceed every safe integer). */
  private readonly numberLimit: number

  constructor(type: Decimal, options?: ColumnBuilderOptions) {
    const words = type.bitWidth / 32
    super(type, words, options)
    this.words = words
    this.scale = type.scale
    this.precision = type.precision
    const maxPrecision = type.bitWidth === 128
      ? DECIMAL128_MAX_PRECISION
      : type.bitWidth === 256
      ? DECIMAL256_MAX_PRECISION
      : 0
    if (maxPrecision === 0) {
      throw new ArrowAssemblyError(`unsupported decimal bit width ${type.bitWidth}`, options?.name)
    }
    if (!(Number.isInteger(type.precision) && type.precision >= 1 && type.precision <= maxPrecision)) {
      throw new ArrowAssemblyError(
        `decimal${type.bitWidth} precision must be 1..${maxPrecision}, got ${type.precision}`,
        options?.name
      )
    }
    this.limit = decimalLimit(type.precision)
    this.numberLimit = 10 ** type.precision
  }

  protected allocate(elements: number): Uint32Array {
    return new Uint32Array(elements)
  }

  private store(unscaled: number | bigint): void {
    const i = this.rows
    if (i === this.capacity) this.grow(i + 1)
    writeDecimalWords(unscaled, this.values, i * this.words, this.words)
    this.rows = i + 1
  }

  /** Appends decimal text (`"-12345.678"`, `"1.5E-3"`, …), rescaled exactly to the column scale. */
  appendString(value: string): void {
    const i = this.rows
    if (i === this.capacity) this.grow(i + 1)
    writeDecimalText(value, this.scale, this.precision, this.values, i * this.words, this.words, this.name)
    this.rows = i + 1
  }

  /** Appends an unscaled value (the decimal times 10^scale). */
  appendBigInt(unscaled: bigint): void {
    this.store(checkUnscaled(unscaled, this.limit, this.precision, this.name))
  }

  /** Appends an unscaled value held exactly in a safe-integer number (no bigint allocated). */
  appendUnscaledNumber(unscaled: number): void {
    if (!(Number.isSafeInteger(unscaled) && Math.abs(unscaled) < this.numberLimit)) {
      throw this.invalid(unscaled, `a safe integer with at most ${this.precision} digits`)
    }
    this.store(unscaled)
  }

  /** Appends a finite JS number by its shortest round-trip decimal text. */
  appendNumber(value: number): void {
    if (!Number.isFinite(value)) throw this.invalid(value, "a finite number")
    this.store(parseDecimalText(String(value), this.scale, this.precision, this.name))
  }

  append(value: unknown): void {
    if (value === null || value === undefined) return this.appendNull()
    if (typeof value === "string") return this.appendString(value)
    if (typeof value === "number") return this.appendNumber(value)
    if (typeof value === "bigint") return this.appendBigInt(value)
    throw this.invalid(value, "decimal text, a number or an unscaled bigint")
  }
}
