/**
 * Builders for variable-length Arrow types: utf8 and binary (Int32 offsets) and large_utf8 and large_binary
 * (64-bit offsets, used for Oracle CLOB/BLOB). Strings are encoded straight into a growing byte buffer with Node's
 * native UTF-8 writer; byte arrays are copied in.
 */
import type { Binary, Data, LargeBinary, LargeUtf8, Utf8 } from "apache-arrow"
import { ArrowAssemblyError } from "./ArrowAssemblyError.ts"
import { BaseColumnBuilder, type ColumnBuilderOptions, dataFromBuffers, grownCapacity } from "./ColumnBuilder.ts"

/** Node's Buffer has an internal, undocumented but long-stable `utf8Write`; `write` is the public fallback. */
interface Utf8Writer {
  utf8Write?: (text: string, offset: number, length?: number) => number
}

const hasUtf8Write = typeof (Buffer.prototype as Utf8Writer).utf8Write === "function"
const INT32_MAX = 2147483647
const TWO_POW_32 = 4294967296
/** Strings up to this many UTF-16 units are tried as ASCII in JS before falling back to the native writer. */
const SHORT_STRING = 12

/** Strings longer than this many UTF-16 units are measured before reserving space. */
const LONG_STRING = 65_536

const writeNative = (data: Buffer & Utf8Writer, text: string, position: number): number =>
  hasUtf8Write ? data.utf8Write!(text, position) : data.write(text, position, "utf8")

/** Bytes per row assumed for the first data allocation when nothing better is known. */
const INITIAL_BYTES_PER_ROW = 16

/** Shared byte-buffer handling for both offset widths. */
abstract class ByteDataBuilder<T extends Utf8 | Binary | LargeUtf8 | LargeBinary> extends BaseColumnBuilder<T> {
  protected data: Buffer = Buffer.alloc(0)
  /** Bytes used in `data`. */
  protected position = 0
  protected capacity = 0
  private dataHint: number

  constructor(type: T, options?: ColumnBuilderOptions) {
    super(type, options)
    this.dataHint = this.capacityHint * INITIAL_BYTES_PER_ROW
  }

  protected growData(minBytes: number): void {
    const old = this.data
    const size = Math.max(minBytes, old.length * 2, old.length === 0 ? this.dataHint : 0, 1024)
    const next = Buffer.alloc(size)
    old.copy(next, 0, 0, this.position)
    this.data = next
  }

  /** Writes `text` as UTF-8 at the current position and returns the new end position (not yet committed). */
  protected writeUtf8(text: string): number {
    const position = this.position
    // A UTF-16 code unit never needs more than 3 UTF-8 bytes (a surrogate pair: 4 bytes for 2 units); long texts
    // (CLOBs) are measured instead so they do not reserve three times their size.
    const worst = text.length > LONG_STRING ? Buffer.byteLength(text, "utf8") : text.length * 3
    if (position + worst > this.data.length) this.growData(position + worst)
    const data = this.data as Buffer & Utf8Writer
    const n = text.length
    if (n <= SHORT_STRING) {
      // Short ASCII strings: a JS loop beats the native call's fixed cost; bail out at the first non-ASCII unit.
      let end = position
      for (let k = 0; k < n; k++) {
        const code = text.charCodeAt(k)
        if (code >= 0x80) return position + writeNative(data, text, position)
        data[end++] = code
      }
      return end
    }
    return position + writeNative(data, text, position)
  }

  /** Copies `bytes` at the current position and returns the new end position (not yet committed). */
  protected writeBytes(bytes: Uint8Array): number {
    const position = this.position
    const end = position + bytes.byteLength
    if (end > this.data.length) this.growData(end)
    this.data.set(bytes, position)
    return end
  }

  /** Appends a non-null string, UTF-8 encoded. */
  abstract appendString(value: string): void
  /** Appends non-null bytes (for utf8 columns they must already be valid UTF-8). */
  abstract appendBytes(value: Uint8Array): void

  append(value: unknown): void {
    if (value === null || value === undefined) this.appendNull()
    else if (typeof value === "string") this.appendString(value)
    else if (value instanceof Uint8Array) this.appendBytes(value)
    else throw this.invalid(value, "a string or Uint8Array")
  }

  /** Takes the used bytes and resets the data buffer, remembering its size as the next hint. */
  protected finishData(): Uint8Array {
    const bytes = new Uint8Array(this.data.buffer, this.data.byteOffset, this.position)
    if (this.position > 0) this.dataHint = this.position
    this.data = Buffer.alloc(0)
    this.position = 0
    return bytes
  }
}

/** Arrow utf8 (string) and binary, with Int32 offsets: at most 2 GiB of value bytes per batch. */
export class VarBinaryBuilder<T extends Utf8 | Binary> extends ByteDataBuilder<T> {
  private offsets = new Int32Array(1)

  private growRows(neededRows: number): void {
    const capacity = grownCapacity(this.capacity, neededRows, this.capacityHint)
    const next = new Int32Array(capacity + 1)
    next.set(this.offsets.subarray(0, this.rows + 1))
    this.offsets = next
    this.capacity = capacity
  }

  private commit(i: number, end: number): void {
    if (end > INT32_MAX) {
      throw new ArrowAssemblyError(
        `more than 2 GiB of ${this.type} data in one batch; use a large type or fewer rows per batch`,
        this.name
      )
    }
    this.position = end
    this.offsets[i + 1] = end
    this.rows = i + 1
  }

  appendString(value: string): void {
    const i = this.rows
    if (i === this.capacity) this.growRows(i + 1)
    this.commit(i, this.writeUtf8(value))
  }

  appendBytes(value: Uint8Array): void {
    const i = this.rows
    if (i === this.capacity) this.growRows(i + 1)
    this.commit(i, this.writeBytes(value))
  }

  appendNull(): void {
    const i = this.rows
    if (i === this.capacity) this.growRows(i + 1)
    this.validity.setNull(i)
    this.offsets[i + 1] = this.position
    this.rows = i + 1
  }

  reserve(additional: number): void {
    if (this.rows + additional > this.capacity) this.growRows(this.rows + additional)
  }

  get byteLength(): number {
    return this.position + (this.rows + 1) * 4 + this.validity.byteLength
  }

  finish(): Data<T> {
    const length = this.rows
    const offsets = this.offsets.subarray(0, length + 1)
    const bytes = this.finishData()
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

  private growRows(neededRows: number): void {
    const capacity = grownCapacity(this.capacity, neededRows, this.capacityHint)
    const next = new BigInt64Array(capacity + 1)
    next.set(this.offsets.subarray(0, this.rows + 1))
    this.offsets = next
    this.offsetWords = new Int32Array(next.buffer)
    this.capacity = capacity
  }

  private commit(i: number, end: number): void {
    this.position = end
    const hi = Math.floor(end / TWO_POW_32)
    this.offsetWords[2 * i + 2] = end - hi * TWO_POW_32
    this.offsetWords[2 * i + 3] = hi
    this.rows = i + 1
  }

  appendString(value: string): void {
    const i = this.rows
    if (i === this.capacity) this.growRows(i + 1)
    this.commit(i, this.writeUtf8(value))
  }

  appendBytes(value: Uint8Array): void {
    const i = this.rows
    if (i === this.capacity) this.growRows(i + 1)
    this.commit(i, this.writeBytes(value))
  }

  appendNull(): void {
    const i = this.rows
    if (i === this.capacity) this.growRows(i + 1)
    this.validity.setNull(i)
    this.commit(i, this.position)
  }

  reserve(additional: number): void {
    if (this.rows + additional > this.capacity) this.growRows(this.rows + additional)
  }

  get byteLength(): number {
    return this.position + (this.rows + 1) * 8 + this.validity.byteLength
  }

  finish(): Data<T> {
    const length = this.rows
    const offsets = this.offsets.subarray(0, length + 1)
    const bytes = this.finishData()
    const { nullBitmap, nullCount } = this.finishValidity()
    this.offsets = new BigInt64Array(1)
    this.offsetWords = new Int32Array(this.offsets.buffer)
    this.capacity = 0
    return dataFromBuffers(this.type, length, nullCount, nullBitmap, bytes, offsets)
  }
}
