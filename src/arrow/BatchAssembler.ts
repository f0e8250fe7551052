/**
 * Cuts a stream of fetched pages into Arrow RecordBatches with a row cap, decoding every page directly into one
 * column builder per field.
 */
import { type Data, type DataType, Field, makeData, RecordBatch, Schema, Struct } from "apache-arrow"
import { ArrowAssemblyError } from "./ArrowAssemblyError.ts"
import { type ByteBudget, BuilderByteBudget } from "./ByteBudget.ts"
import type { ColumnBuilder } from "./ColumnBuilder.ts"
import { makeFieldBuilder } from "./makeColumnBuilder.ts"

/**
 * How the row cap applies.
 *
 * - `"best-effort"`: whole pages are appended; a batch is cut once it holds at least `maxRows` rows, so it may
 *   exceed the cap by up to one page less one row (HANA's `dba.statement.read_batch_rows`).
 * - `"hard"`: a batch never holds more than `maxRows` rows; a page is split across batches when needed
 *   (Oracle's `redo.statement.read_batch_rows`).
 */
export type RowCapMode = "best-effort" | "hard"

/** Options of a {@link BatchAssembler}. */
export interface BatchAssemblerOptions {
  /** Row cap per batch (positive integer). */
  readonly maxRows: number
  /** How the row cap applies. */
  readonly mode: RowCapMode
  /**
   * Approximate byte cap per batch (0 or absent: none), also inside a page: a batch is cut after the row with which
   * its builders reach the cap, or before a row the page estimates would take it past the cap, so it holds less than
   * the cap plus one row, and a row larger than the cap is a batch alone (Oracle's
   * `redo.statement.read_batch_approx_bytes`). That holds for pages with {@link Page.appendRowsWithin}, which check
   * the bytes around every row; other pages are decoded in slices sized from the bytes per row seen so far, so rows
   * growing much larger than earlier ones can overshoot the cap.
   */
  readonly maxBytes?: number
  /** Rows each builder allocates on first use (later batches reuse the previous batch's size). */
  readonly initialCapacity?: number
  /**
   * Supplies the builder for a field (for example a driver's own builder that decodes a wire format straight into
   * Arrow buffers); returning `undefined` falls back to {@link makeFieldBuilder}. The builder's `type` must equal
   * the field's type.
   */
  readonly makeBuilder?: (field: Field, index: number) => ColumnBuilder | undefined
}

/**
 * A fetched page of rows that decodes itself into column builders. A page keeps its own read position.
 */
export interface Page {
  /**
   * Decodes up to `maxRows` of the remaining rows, appending exactly one value (or null) per row to every builder
   * (builder `i` is schema field `i`), and returns how many rows were appended. Returning fewer than `maxRows`
   * (including 0) means the page is exhausted. `maxRows` is `Infinity` in best-effort mode.
   */
  appendRows(builders: ReadonlyArray<ColumnBuilder>, maxRows: number): number
  /**
   * Like {@link Page.appendRows} under a byte cap: decodes up to `maxRows` rows one row at a time, asking
   * `budget.admits` before each row (with about the row's Arrow bytes) and calling `budget.full()` after it, and
   * stops before a refused row or after the row that made the budget full. Returns the rows appended.
   */
  appendRowsWithin?(builders: ReadonlyArray<ColumnBuilder>, maxRows: number, budget: ByteBudget): number
}

/** A field described without constructing an apache-arrow `Field`. */
export interface FieldSpec {
  readonly name: string
  readonly type: DataType
  /** Defaults to true. */
  readonly nullable?: boolean
  readonly metadata?: ReadonlyMap<string, string> | Readonly<Record<string, string>>
}

/** Builds an Arrow Schema from fields or field specs. */
export const schemaOf = (fields: ReadonlyArray<Field | FieldSpec>): Schema =>
  new Schema(
    fields.map((f) => {
      if (f instanceof Field) return f
      const metadata = f.metadata === undefined
        ? undefined
        : f.metadata instanceof Map
        ? new Map(f.metadata)
        : new Map(Object.entries(f.metadata))
      return new Field(f.name, f.type, f.nullable ?? true, metadata)
    })
  )

/** Builds a RecordBatch from one finished `Data` per schema field (all of the same length). */
export const recordBatchOf = (schema: Schema, columns: ReadonlyArray<Data>, length: number): RecordBatch =>
  new RecordBatch(
    schema,
    makeData({ type: new Struct(schema.fields), length, nullCount: 0, children: columns as Array<never> })
  )

/**
 * Holds one builder per schema field and cuts RecordBatches.
 *
 * Feed pages with {@link BatchAssembler.push} (returns the batches completed by that page), then call
 * {@link BatchAssembler.flush} at end of results for the remainder. A result with zero rows produces no batch from
 * `flush()` (ADBC readers may legitimately yield zero batches; the schema is on the reader); use
 * {@link BatchAssembler.emptyBatch} when a zero-row batch carrying the schema is wanted.
 */
export class BatchAssembler {
  /** Schema of every batch produced. */
  readonly schema: Schema
  /** One builder per schema field, in field order. */
  readonly builders: ReadonlyArray<ColumnBuilder>
  private readonly maxRows: number
  private readonly hard: boolean
  private readonly maxBytes: number
  private pending = 0
  /** The byte cap as pages that check it row by row see it (undefined without a cap). */
  private readonly budget: BuilderByteBudget | undefined
  /** Byte cap bookkeeping: the pending bytes after the last decode, and the largest bytes per row seen. */
  private lastBytes = 0
  private bytesPerRow = 0

  constructor(schema: Schema | ReadonlyArray<Field | FieldSpec>, options: BatchAssemblerOptions) {
    if (!(Number.isInteger(options.maxRows) && options.maxRows > 0)) {
      throw new ArrowAssemblyError(`maxRows must be a positive integer, got ${options.maxRows}`)
    }
    const maxBytes = options.maxBytes ?? 0
    if (!(Number.isFinite(maxBytes) && maxBytes >= 0)) {
      throw new ArrowAssemblyError(`maxBytes must be a non-negative number, got ${maxBytes}`)
    }
    this.schema = schema instanceof Schema ? schema : schemaOf(schema)
    this.maxRows = options.maxRows
    this.hard = options.mode === "hard"
    this.maxBytes = maxBytes
    const capacity = Math.min(options.initialCapacity ?? 1024, options.maxRows)
    this.builders = this.schema.fields.map((field, index) => {
      const builder = options.makeBuilder?.(field, index) ?? makeFieldBuilder(field, { initialCapacity: capacity })
      if (builder.type.typeId !== field.type.typeId || String(builder.type) !== String(field.type)) {
        throw new ArrowAssemblyError(`builder type ${builder.type} does not match field type ${field.type}`, field.name)
      }
      return builder
    })
    this.budget = maxBytes > 0 ? new BuilderByteBudget(this.builders, maxBytes) : undefined
  }

  /** Rows appended and not yet cut into a batch. */
  get pendingRows(): number {
    return this.pending
  }

  /** Approximate buffer bytes held by the pending rows. */
  get pendingBytes(): number {
    let bytes = 0
    for (const builder of this.builders) bytes += builder.byteLength
    return bytes
  }

  /**
   * Decodes a whole page and returns the batches it completed (possibly none, possibly several in hard mode or with
   * a byte cap).
   */
  push(page: Page): Array<RecordBatch> {
    const out: Array<RecordBatch> = []
    if (!this.hard && this.maxBytes === 0) {
      this.pending += this.checkCount(page.appendRows(this.builders, Infinity), Infinity)
      if (this.pending >= this.maxRows) out.push(this.cut())
      return out
    }
    if (this.budget !== undefined && page.appendRowsWithin !== undefined) {
      return this.pushWithin(page, page.appendRowsWithin, this.budget, out)
    }
    for (;;) {
      const room = Math.min(this.hard ? this.maxRows - this.pending : Infinity, this.byteRoomRows())
      const appended = this.checkCount(page.appendRows(this.builders, room), room)
      this.pending += appended
      if (this.pending >= this.maxRows || (appended > 0 && this.overBytes(appended))) out.push(this.cut())
      if (appended < room) return out
    }
  }

  /** {@link push} for a page that checks the byte cap around every row it decodes. */
  private pushWithin(
    page: Page,
    appendRowsWithin: NonNullable<Page["appendRowsWithin"]>,
    budget: BuilderByteBudget,
    out: Array<RecordBatch>
  ): Array<RecordBatch> {
    for (;;) {
      const room = this.hard ? this.maxRows - this.pending : Infinity
      budget.start(this.pending)
      this.pending += this.checkCount(appendRowsWithin.call(page, this.builders, room, budget), room)
      const cut = budget.refused || budget.reached || this.pending >= this.maxRows
      if (!cut) return out
      if (this.pending > 0) out.push(this.cut())
    }
  }

  /**
   * Rows to decode next under the byte cap: as many as the bytes left would hold at the largest bytes per row seen
   * in this batch's slices, or the previous batch's average (at least one; a single row when nothing has been seen
   * yet), so that a page larger than the cap is cut
   * inside the page and a batch stays near the cap unless rows grow much larger than those before them.
   */
  private byteRoomRows(): number {
    if (this.maxBytes === 0) return Infinity
    if (this.bytesPerRow === 0) return 1
    return Math.max(1, Math.floor((this.maxBytes - this.lastBytes) / this.bytesPerRow))
  }

  /** Cuts the pending rows into a final batch; `undefined` when there are none. */
  flush(): RecordBatch | undefined {
    return this.pending === 0 ? undefined : this.cut()
  }

  /** Discards the pending rows (for example after a failed fetch), leaving the assembler ready for new pages. */
  clear(): void {
    for (const builder of this.builders) builder.finish()
    this.pending = 0
    this.lastBytes = 0
  }

  /** A zero-row batch with the schema (does not touch pending rows). */
  emptyBatch(): RecordBatch {
    const columns = this.schema.fields.map((field) => makeFieldBuilder(field).finish())
    return recordBatchOf(this.schema, columns, 0)
  }

  private checkCount(appended: number, maxRows: number): number {
    if (!(Number.isInteger(appended) && appended >= 0 && appended <= maxRows)) {
      throw new ArrowAssemblyError(`page appended ${appended} rows, expected an integer in [0, ${maxRows}]`)
    }
    return appended
  }

  /** Whether the pending rows reach the byte cap, learning the bytes per row from the `appended` rows just decoded. */
  private overBytes(appended: number): boolean {
    if (this.maxBytes === 0) return false
    const bytes = this.pendingBytes
    this.bytesPerRow = Math.max(this.bytesPerRow, (bytes - this.lastBytes) / appended)
    this.lastBytes = bytes
    return bytes >= this.maxBytes
  }

  private cut(): RecordBatch {
    const length = this.pending
    const fields = this.schema.fields
    for (let i = 0; i < this.builders.length; i++) {
      const builder = this.builders[i]!
      if (builder.length !== length) {
        throw new ArrowAssemblyError(`page decoder appended ${builder.length} values, expected ${length}`, builder.name)
      }
    }
    // the next batch starts from this one's average, so one large row does not shrink every later slice
    if (this.maxBytes > 0 && length > 0) this.bytesPerRow = this.lastBytes / length
    this.pending = 0
    this.lastBytes = 0
    const columns = this.builders.map((builder, i) => {
      const nulls = builder.nullCount
      const data = builder.finish()
      if (nulls > 0 && !fields[i]!.nullable) {
        throw new ArrowAssemblyError(`null in a non-nullable field`, builder.name)
      }
      return data
    })
    return recordBatchOf(this.schema, columns, length)
  }
}
