/**
 * The contract every column builder fulfils, and the shared base that owns the row count and validity bitmap.
 */
import { Data, type DataType } from "apache-arrow"
import { ArrowAssemblyError, previewValue } from "./ArrowAssemblyError.ts"
import { ValidityBitmap } from "./Validity.ts"

/**
 * Accumulates one column's values directly into Arrow buffers.
 *
 * Type-specific fast paths (`appendNumber`, `appendString`, `appendBigInt`, …) live on the concrete classes;
 * `append(value)` accepts any supported JS value and dispatches.
 */
export interface ColumnBuilder<T extends DataType = DataType> {
  /** Arrow type of the column. */
  readonly type: T
  /** Column name, used in error messages. */
  readonly name: string
  /** Rows appended since the last `finish()`. */
  readonly length: number
  /** Nulls appended since the last `finish()`. */
  readonly nullCount: number
  /** Approximate bytes of buffer memory used by the rows appended so far. */
  readonly byteLength: number
  /** Appends a null row. */
  appendNull(): void
  /** Appends a value of any accepted JS representation; `null` and `undefined` append a null. */
  append(value: unknown): void
  /** Makes room for `additional` more rows without further reallocation (a hint; never required). */
  reserve(additional: number): void
  /** Returns the rows appended so far as Arrow `Data` and resets the builder (empty, ready for the next batch). */
  finish(): Data<T>
}

/** Rows allocated on a builder's first append when nothing better is known. */
export const DEFAULT_INITIAL_CAPACITY = 1024

/** Options shared by all column builders. */
export interface ColumnBuilderOptions {
  /** Column name, for error messages. */
  readonly name?: string
  /** Rows to allocate on first append (later batches reuse the previous batch's size as the hint). */
  readonly initialCapacity?: number
}

/**
 * Base class: row count, lazily allocated validity bitmap and the capacity hint. Subclasses own their value buffers.
 */
export abstract class BaseColumnBuilder<T extends DataType> implements ColumnBuilder<T> {
  readonly type: T
  readonly name: string
  protected rows = 0
  protected readonly validity = new ValidityBitmap()
  /** Capacity (rows) to allocate when buffers are next created: the initial option, then the last batch's size. */
  protected capacityHint: number

  constructor(type: T, options: ColumnBuilderOptions = {}) {
    this.type = type
    this.name = options.name ?? ""
    this.capacityHint = Math.max(1, options.initialCapacity ?? DEFAULT_INITIAL_CAPACITY)
  }

  get length(): number {
    return this.rows
  }

  get nullCount(): number {
    return this.validity.nullCount
  }

  abstract get byteLength(): number
  abstract appendNull(): void
  abstract append(value: unknown): void
  abstract reserve(additional: number): void
  abstract finish(): Data<T>

  /** Takes the validity bitmap for the finished rows and remembers the batch size as the next capacity hint. */
  protected finishValidity(): { readonly nullCount: number; readonly nullBitmap: Uint8Array | undefined } {
    const nullCount = this.validity.nullCount
    const nullBitmap = this.validity.finish(this.rows)
    if (this.rows > 0) this.capacityHint = this.rows
    this.rows = 0
    return { nullCount, nullBitmap }
  }

  /** Error for a value this column cannot hold. */
  protected invalid(value: unknown, expected: string): ArrowAssemblyError {
    return new ArrowAssemblyError(`cannot store ${previewValue(value)} in ${this.type}: expected ${expected}`, this.name)
  }
}

/** Next capacity when `needed` slots are required and `current` are allocated: at least double. */
export const grownCapacity = (current: number, needed: number, hint: number): number =>
  Math.max(needed, current * 2, current === 0 ? hint : 0)

/** Builds `Data` from buffers we filled ourselves (no copy, no per-value work). */
export const dataFromBuffers = <T extends DataType>(
  type: T,
  length: number,
  nullCount: number,
  nullBitmap: Uint8Array | undefined,
  values: unknown,
  valueOffsets?: unknown
): Data<T> => new Data<T>(type, 0, length, nullCount, [valueOffsets, values, nullBitmap] as never)
