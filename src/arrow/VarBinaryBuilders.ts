/**
 * Builders for variable-length Arrow types: utf8 and binary (Int32 offsets) and large_utf8 and large_binary
 * (64-bit offsets, used for Oracle CLOB/BLOB).
 *
 * Strings are encoded with Node's native UTF-8 writer. Because a native call per short string costs more than the
 * encoding itself, strings are first collected and written a chunk at a time (one `join` + one write): their
 * offsets are set assuming one byte per UTF-16 unit, and the write's byte count proves it (any non-ASCII unit
 * takes more than one byte). When a chunk turns out not to be ASCII it is rewritten string by string and the
 * builder writes strings one at a time for the rest of the batch. Byte arrays are copied in directly.
 */
import type { Binary, Data, LargeBinary, LargeUtf8, Utf8 } from "apache-arrow"
import { ArrowAssemblyError } from "./ArrowAssemblyError.ts"
import { BaseColumnBuilder, type ColumnBuilderOptions, dataFromBuffers, grownCapacity } from "./ColumnBuilder.ts"
import { TWO_32 } from "./Words.ts"

/** Node's Buffer has an internal, undocumented but long-stable `utf8Write`; `write` is the public fallback. */
interface Utf8Writer {
  utf8Write?: (text: string, offset: number, length?: number) => number
}

const hasUtf8Write = typeof (Buffer.prototype as Utf8Writer).utf8Write === "function"
const INT32_MAX = 2147483647
/** Bytes per row assumed for the first data allocation when nothing better is known. */
const INITIAL_BYTES_PER_ROW = 16
/** Strings collected before a chunk is written. */
const CHUNK_STRINGS = 2048
/**
 * Byte ranges up to this long are copied in a loop; longer ones by Buffer's native copy, which makes no view and from
 * Node 22 on costs about as much as copying 8 bytes in a loop (a 30-byte range: 33 ns against 84 ns in a loop).
 */
const SHORT_COPY = 8
const copyRange = Buffer.prototype.copy
/** UTF-16 units collected before a chunk is written (bounds the joined string). */
const CHUNK_UNITS = 65_536

const writeNative = (data: Buffer & Utf8Writer, text: string, position: number): number =>
  hasUtf8Write ? data.utf8Write!(text, position) : data.write(text, position, "utf8")

/** Shared byte-buffer, chunked string writing and validity handling for both offset widths. */
abstract class ByteDataBuilder<T extends Utf8 | Binary | LargeUtf8 | LargeBinary> extends BaseColumnBuilder<T> {
  protected data: Buffer = Buffer.alloc(0)
  /** Bytes written to `data`. */
  protected position = 0
  protected capacity = 0
  private dataHint: number
  /** Non-empty strings appended but not yet written; their rows start at `chunkStartRow`. */
  private pending: Array<string> = []
  /** UTF-16 units in `pending`. */
  private pendingUnits = 0
  private chunkStartRow = 0
  /** False once a chunk was found not to be ASCII: strings are then written one at a time until `finish()`. */
  private chunked = true

  constructor(type: T, options?: ColumnBuilderOptions) {
    super(type, options)
    this.dataHint = this.capacityHint * INITIAL_BYTES_PER_ROW
  }

  /** Value bytes appended so far, counting pending strings at one byte per UTF-16 unit. */
  protected get usedBytes(): number {
    return this.position + this.pendingUnits
  }

  /** Stores end offset `value` of row `index - 1` (offset slot `index`). */
  protected abstract setOffset(index: number, value: number): void
  /** Reads offset slot `index`. */
  protected abstract getOffset(index: number): number
  /** Grows the offsets to hold at least `neededRows` rows. */
  protected abstract growRows(neededRows: number): void
  /** Throws when `end` bytes exceed what the offset width can address. */
  protected abstract checkEnd(end: number): void

  private growData(minBytes: number): void {
    const old = this.data
    const size = Math.max(minBytes, old.length * 2, old.length === 0 ? this.dataHint : 0, 1024)
    const next = Buffer.alloc(size)
    old.copy(next, 0, 0, this.position)
    this.data = next
  }

  /** Makes room for `text` at the current position: 3 bytes per UTF-16 unit at most (4 per surrogate pair). */
  private reserveText(text: string): void {
    const worst = text.length > CHUNK_UNITS ? Buffer.byteLength(text, "utf8") : text.length * 3
    if (this.position + worst > this.data.length) this.growData(this.position + worst)
  }

  /** Appends a non-null string, UTF-8 encoded. */
  appendString(value: string): void {
    const i = this.rows
    if (i === this.capacity) this.growRows(i + 1)
    if (this.chunked && value.length <= CHUNK_UNITS) {
      if (value.length > 0) {
        this.pending.push(value)
        this.pendingUnits += value.length
      }
      this.setOffset(i + 1, this.position + this.pendingUnits)
      this.rows = i + 1
      if (this.pending.length === CHUNK_STRINGS || this.pendingUnits >= CHUNK_UNITS) this.writePending()
      return
    }
    this.writePending()
    this.reserveText(value)
    const end = this.position + writeNative(this.data, value, this.position)
    this.checkEnd(end)
    this.commit(i, end)
  }

  /** Appends non-null bytes (for utf8 columns they must already be valid UTF-8). */
  appendBytes(value: Uint8Array): void {
    const i = this.rows
    if (i === this.capacity) this.growRows(i + 1)
    this.writePending()
    const end = this.position + value.byteLength
    this.checkEnd(end)
    if (end > this.data.length) this.growData(end)
    this.data.set(value, this.position)
    this.commit(i, end)
  }

  /** Appends non-null bytes `source[start, end)` without making a view of them (a wire decoder's hot path). */
  appendBytesRange(source: Uint8Array, start: number, end: number): void {
    const i = this.rows
    if (i === this.capacity) this.growRows(i + 1)
    this.writePending()
    const length = end - start
    const stop = this.position + length
    this.checkEnd(stop)
    if (stop > this.data.length) this.growData(stop)
    const data = this.data
    if (length <= SHORT_COPY) {
      for (let k = 0, o = this.position; k < length; k++) data[o + k] = source[start + k]!
    } else copyRange.call(source, data, this.position, start, end)
    this.commit(i, stop)
  }

  appendNull(): void {
    const i = this.rows
    if (i === this.capacity) this.growRows(i + 1)
    this.validity.setNull(i)
    this.setOffset(i + 1, this.position + this.pendingUnits)
    this.rows = i + 1
  }

  append(value: unknown): void {
    if (value === null || value === undefined) this.appendNull()
    else if (typeof value === "string") this.appendString(value)
    else if (value instanceof Uint8Array) this.appendBytes(value)
    else throw this.invalid(value, "a string or Uint8Array")
  }

  reserve(additional: number): void {
    if (this.rows + additional > this.capacity) this.growRows(this.rows + additional)
  }

  /** Records a row written directly (nothing pending) ending at byte `end`. */
  private commit(i: number, end: number): void {
    this.position = end
    this.setOffset(i + 1, end)
    this.rows = i + 1
    this.chunkStartRow = this.rows
  }

  /** Writes the pending strings, fixing their rows' offsets if the chunk was not ASCII. */
  protected writePending(): void {
    const pending = this.pending
    if (pending.length === 0) {
      this.chunkStartRow = this.rows
      return
    }
    const joined = pending.length === 1 ? pending[0]! : pending.join("")
    this.reserveText(joined)
    const start = this.position
    const written = writeNative(this.data, joined, start)
    let end = start + written
    if (written !== joined.length) {
      // Not all ASCII: rewrite string by string and correct every offset of the chunk.
      this.chunked = false
      let next = 0
      let previous = start
      end = start
      for (let r = this.chunkStartRow; r < this.rows; r++) {
        const assumed = this.getOffset(r + 1)
        if (assumed !== previous) end += writeNative(this.data, pending[next++]!, end)
        previous = assumed
        this.setOffset(r + 1, end)
      }
    }
    pending.length = 0
    this.pendingUnits = 0
    this.checkEnd(end)
    this.position = end
    this.chunkStartRow = this.rows
  }

  /** Takes the used bytes and resets the data buffer, remembering its size as the next hint. */
  protected finishData(): Uint8Array {
    this.writePending()
    // Less than half used: copy out exactly so the batch does not pin the larger allocation.
    const bytes = this.position * 2 < this.data.length
      ? new Uint8Array(this.data.subarray(0, this.position))
      : new Uint8Array(this.data.buffer, this.data.byteOffset, this.position)
    // An eighth more than this batch's bytes, so that a next batch a little larger (text values growing longer, as
    // counters do) fits its first allocation instead of doubling it and copying.
    if (this.position > 0) this.dataHint = this.position + (this.position >>> 3)
    this.data = Buffer.alloc(0)
    this.position = 0
    this.chunkStartRow = 0
    this.chunked = true
    return bytes
  }
}

/** Arrow utf8 (string) and binary, with Int32 offsets: at most 2 GiB of value bytes per batch. */
export class VarBinaryBuilder<T extends Utf8 | Binary> extends ByteDataBuilder<T> {
  private offsets = new Int32Array(1)

  protected growRows(neededRows: number): void {
    const capacity = grownCapacity(this.capacity, neededRows, this.capacityHint)
    const next = new Int32Array(capacity + 1)
    next.set(this.offsets.subarray(0, this.rows + 1))
    this.offsets = next
    this.capacity = capacity
  }

  protected setOffset(index: number, value: number): void {
    this.offsets[index] = value
  }

  protected getOffset(index: number): number {
    return this.offsets[index]!
  }

  protected checkEnd(end: number): void {
    if (end > INT32_MAX) {
      throw new ArrowAssemblyError(
        `more than 2 GiB of ${this.type} data in one batch; use a large type or fewer rows per batch`,
        this.name
      )
    }
  }

  get byteLength(): number {
    return this.usedBytes + (this.rows + 1) * 4 + this.validity.usedBytes(this.rows)
  }

  finish(): Data<T> {
    const bytes = this.finishData()
    const length = this.rows
    const offsets = this.offsets.subarray(0, length + 1)
    const { nullBitmap, nullCount } = this.finishValidity()
    this.offsets = new Int32Array(1)
    this.capacity = 0
    return dataFromBuffers(this.type, length, nullCount, nullBitmap, bytes, offsets)
  }
}

/** Arrow large_utf8 (large_string) and large_binary, with 64-bit offsets. */
export class LargeVarBinaryBuilder<T extends LargeUtf8 | LargeBinary> extends ByteDataBuilder<T> {
  private offsets = new BigInt64Array(1)
  /** The same memory as `offsets`, as (low, high) 32-bit words, so offsets are written without bigints. */
  private offsetWords = new Int32Array(this.offsets.buffer)

  protected growRows(neededRows: number): void {
    const capacity = grownCapacity(this.capacity, neededRows, this.capacityHint)
    const next = new BigInt64Array(capacity + 1)
    next.set(this.offsets.subarray(0, this.rows + 1))
    this.offsets = next
    this.offsetWords = new Int32Array(next.buffer)
    this.capacity = capacity
  }

  protected setOffset(index: number, value: number): void {
    const hi = Math.floor(value / TWO_32)
    this.offsetWords[2 * index] = value - hi * TWO_32
    this.offsetWords[2 * index + 1] = hi
  }

  protected getOffset(index: number): number {
    return (this.offsetWords[2 * index]! >>> 0) + this.offsetWords[2 * index + 1]! * TWO_32
  }

  protected checkEnd(_end: number): void {}

  get byteLength(): number {
    return this.usedBytes + (this.rows + 1) * 8 + this.validity.usedBytes(this.rows)
  }

  finish(): Data<T> {
    const bytes = this.finishData()
    const length = this.rows
    const offsets = this.offsets.subarray(0, length + 1)
    const { nullBitmap, nullCount } = this.finishValidity()
    this.offsets = new BigInt64Array(1)
    this.offsetWords = new Int32Array(this.offsets.buffer)
    this.capacity = 0
    return dataFromBuffers(this.type, length, nullCount, nullBitmap, bytes, offsets)
  }
}
