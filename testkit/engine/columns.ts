/**
 * Column-wise views over one DuckDB data chunk, read straight from DuckDB's vector memory.
 *
 * Fixed-width values are exposed as typed arrays (no per-row allocation); strings and blobs are read on demand.
 */
import duckdb from "@duckdb/node-bindings"
import { DuckDBTypeId, DuckDBVector } from "@duckdb/node-api"
import type { DuckDBDataChunk, DuckDBDecimalType, DuckDBType } from "@duckdb/node-api"
import { TWO_32 } from "../../src/arrow/Words.ts"

/** How the values of a column are laid out in {@link ColumnVector.data}. */
export type ColumnLayout =
  | "boolean" // Uint8Array, 0/1
  | "int8" // Int8Array
  | "uint8" // Uint8Array
  | "int16" // Int16Array
  | "uint16" // Uint16Array
  | "int32" // Int32Array
  | "uint32" // Uint32Array
  | "int64" // BigInt64Array
  | "uint64" // BigUint64Array
  | "float32" // Float32Array
  | "float64" // Float64Array
  | "date" // Int32Array, days since 1970-01-01
  | "time" // BigInt64Array, microseconds since midnight
  | "timestamp" // BigInt64Array, microseconds since 1970-01-01T00:00:00 (TIMESTAMP and TIMESTAMP WITH TIME ZONE)
  | "timestamp_s" // BigInt64Array, seconds since epoch
  | "timestamp_ms" // BigInt64Array, milliseconds since epoch
  | "timestamp_ns" // BigInt64Array, nanoseconds since epoch
  | "decimal16" // Int16Array, unscaled
  | "decimal32" // Int32Array, unscaled
  | "decimal64" // BigInt64Array, unscaled
  | "decimal128" // BigInt64Array with 2 entries per row: [low (as unsigned), high]
  | "varchar" // use string(i) / bytes(i)
  | "blob" // use bytes(i)
  | "other" // use value(i)

/** Metadata of one result column. */
export interface ColumnInfo {
  /** Column name as DuckDB reports it. */
  readonly name: string
  /** DuckDB type id. */
  readonly typeId: DuckDBTypeId
  /** DuckDB type, e.g. `DECIMAL(10,2)`; `toString()` gives DuckDB's SQL name. */
  readonly type: DuckDBType
  /** Value layout in {@link ColumnVector.data}. */
  readonly layout: ColumnLayout
  /** DECIMAL precision (width), else 0. */
  readonly precision: number
  /** DECIMAL scale, else 0. */
  readonly scale: number
}

/** Values of one column of one chunk. Views are only valid until the cursor's next `next()` or `close()`. */
export interface ColumnVector {
  readonly info: ColumnInfo
  /** Rows in this chunk. */
  readonly length: number
  /** Validity bitmask, LSB first (Arrow layout; bit set = not null), or null when no row is null. */
  readonly validity: Uint8Array | null
  /**
   * Fixed-width values (see {@link ColumnLayout}); empty Uint8Array for varchar/blob/other. Null rows hold garbage.
   */
  readonly data:
    | Uint8Array
    | Int8Array
    | Int16Array
    | Uint16Array
    | Int32Array
    | Uint32Array
    | BigInt64Array
    | BigUint64Array
    | Float32Array
    | Float64Array
  /** True when row `i` is NULL. */
  isNull(i: number): boolean
  /** UTF-8 bytes of a varchar/blob row (a view or a copy; do not keep across `next()`), or null. */
  bytes(i: number): Uint8Array | null
  /**
   * Where {@link ColumnVector.bytes} of row `i` lie, without making a view of them (an encoder's hot path): returns
   * their length, -1 for NULL, and leaves the array holding them in `located` and their start in `locatedStart`.
   */
  locate(i: number): number
  /** The array holding the bytes the last {@link ColumnVector.locate} found. */
  readonly located: Uint8Array
  /** Where in {@link ColumnVector.located} those bytes start. */
  readonly locatedStart: number
  /** Decoded string of a varchar row, or null. */
  string(i: number): string | null
  /**
   * Generic JS value (slow path): number | bigint | string | boolean | Uint8Array | null; dates, times, timestamps
   * and decimals come as DuckDB's string rendering, other types as their `toString()`.
   */
  value(i: number): number | bigint | string | boolean | Uint8Array | null
}

const layoutOf = (type: DuckDBType): ColumnLayout => {
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return "boolean"
    case DuckDBTypeId.TINYINT:
      return "int8"
    case DuckDBTypeId.UTINYINT:
      return "uint8"
    case DuckDBTypeId.SMALLINT:
      return "int16"
    case DuckDBTypeId.USMALLINT:
      return "uint16"
    case DuckDBTypeId.INTEGER:
      return "int32"
    case DuckDBTypeId.UINTEGER:
      return "uint32"
    case DuckDBTypeId.BIGINT:
      return "int64"
    case DuckDBTypeId.UBIGINT:
      return "uint64"
    case DuckDBTypeId.FLOAT:
      return "float32"
    case DuckDBTypeId.DOUBLE:
      return "float64"
    case DuckDBTypeId.DATE:
      return "date"
    case DuckDBTypeId.TIME:
      return "time"
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return "timestamp"
    case DuckDBTypeId.TIMESTAMP_S:
      return "timestamp_s"
    case DuckDBTypeId.TIMESTAMP_MS:
      return "timestamp_ms"
    case DuckDBTypeId.TIMESTAMP_NS:
      return "timestamp_ns"
    // SUM/COUNT over integers yield HUGEINT, stored like a decimal128 (lower uint64, then upper int64, little-endian).
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
      return "decimal128"
    case DuckDBTypeId.DECIMAL: {
      const width = (type as DuckDBDecimalType).width
      return width <= 4 ? "decimal16" : width <= 9 ? "decimal32" : width <= 18 ? "decimal64" : "decimal128"
    }
    case DuckDBTypeId.VARCHAR:
      return "varchar"
    case DuckDBTypeId.BLOB:
      return "blob"
    default:
      return "other"
  }
}

/** Builds the metadata of a column from its DuckDB name and type. */
export const columnInfo = (name: string, type: DuckDBType): ColumnInfo => {
  const decimal = type.typeId === DuckDBTypeId.DECIMAL ? (type as DuckDBDecimalType) : undefined
  return {
    name,
    typeId: type.typeId,
    type,
    layout: layoutOf(type),
    precision: decimal?.width ?? (type.typeId === DuckDBTypeId.HUGEINT || type.typeId === DuckDBTypeId.UHUGEINT ? 38 : 0),
    scale: decimal?.scale ?? 0
  }
}

const EMPTY = new Uint8Array(0)
const textDecoder = new TextDecoder()

/** Bytes one value of `layout` takes in a DuckDB vector (16 for strings and blobs: DuckDB's string struct). */
export const bytesPerRow = (layout: ColumnLayout): number => {
  switch (layout) {
    case "boolean":
    case "int8":
    case "uint8":
      return 1
    case "int16":
    case "uint16":
    case "decimal16":
      return 2
    case "int32":
    case "uint32":
    case "float32":
    case "date":
    case "decimal32":
      return 4
    case "decimal128":
      return 16
    case "varchar":
    case "blob":
      return 16
    case "other":
      return 0
    default:
      return 8
  }
}

const typedView = (layout: ColumnLayout, raw: Uint8Array, n: number): ColumnVector["data"] => {
  const { buffer, byteOffset } = raw
  switch (layout) {
    case "boolean":
    case "uint8":
      return raw
    case "int8":
      return new Int8Array(buffer, byteOffset, n)
    case "int16":
    case "decimal16":
      return new Int16Array(buffer, byteOffset, n)
    case "uint16":
      return new Uint16Array(buffer, byteOffset, n)
    case "int32":
    case "date":
    case "decimal32":
      return new Int32Array(buffer, byteOffset, n)
    case "uint32":
      return new Uint32Array(buffer, byteOffset, n)
    case "float32":
      return new Float32Array(buffer, byteOffset, n)
    case "float64":
      return new Float64Array(buffer, byteOffset, n)
    case "uint64":
      return new BigUint64Array(buffer, byteOffset, n)
    case "decimal128":
      return new BigInt64Array(buffer, byteOffset, n * 2)
    case "varchar":
    case "blob":
    case "other":
      return EMPTY
    default:
      return new BigInt64Array(buffer, byteOffset, n)
  }
}

class ChunkColumn implements ColumnVector {
  readonly data: ColumnVector["data"]
  private readonly raw: Uint8Array
  private readonly view: DataView | undefined
  private generic: DuckDBVector | undefined
  /** Non-inlined string bytes, copied per run of contiguous heap addresses (see {@link loadHeap}). */
  private heapRuns: Uint8Array[] | undefined
  private heapRun: Int32Array | undefined
  private heapOffset: Int32Array | undefined
  constructor(
    readonly info: ColumnInfo,
    readonly length: number,
    readonly validity: Uint8Array | null,
    private readonly vector: duckdb.Vector
  ) {
    const size = bytesPerRow(info.layout)
    this.raw = size === 0 ? EMPTY : duckdb.vector_get_data(vector, size * length)
    this.data = typedView(info.layout, this.raw, length)
    this.view =
      info.layout === "varchar" || info.layout === "blob"
        ? new DataView(this.raw.buffer, this.raw.byteOffset, this.raw.byteLength)
        : undefined
  }
  isNull(i: number): boolean {
    const v = this.validity
    return v !== null && (v[i >>> 3]! & (1 << (i & 7))) === 0
  }
  located: Uint8Array = EMPTY
  locatedStart = 0
  locate(i: number): number {
    if (this.isNull(i)) return -1
    const view = this.view
    if (view === undefined) {
      const b = this.bytes(i)!
      this.located = b
      this.locatedStart = 0
      return b.length
    }
    const offset = i * 16
    const len = view.getUint32(offset, true)
    if (len <= 12) {
      this.located = this.raw
      this.locatedStart = offset + 4
      return len
    }
    if (this.heapRuns === undefined) this.loadHeap(view)
    this.located = this.heapRuns![this.heapRun![i]!]!
    this.locatedStart = this.heapOffset![i]!
    return len
  }
  bytes(i: number): Uint8Array | null {
    if (this.isNull(i)) return null
    const view = this.view
    if (view === undefined) {
      const v = this.value(i)
      return v === null ? null : typeof v === "string" ? Buffer.from(v) : v instanceof Uint8Array ? v : Buffer.from(String(v))
    }
    const offset = i * 16
    const len = view.getUint32(offset, true)
    if (len <= 12) return new Uint8Array(view.buffer, view.byteOffset + offset + 4, len)
    if (this.heapRuns === undefined) this.loadHeap(view)
    const start = this.heapOffset![i]!
    return this.heapRuns![this.heapRun![i]!]!.subarray(start, start + len)
  }

  /**
   * Copies the bytes of all non-inlined strings of the chunk with one binding call per run of strings stored
   * back to back in DuckDB's string heap (a run covers exactly those strings' bytes), instead of one call per row.
   */
  private loadHeap(view: DataView): void {
    const n = this.length
    const runs: Uint8Array[] = []
    const runOf = new Int32Array(n)
    const offsetOf = new Int32Array(n)
    let runStartSlot = -1
    let runStartPtr = 0
    let runEndPtr = -1
    const flush = (): void => {
      if (runStartSlot < 0) return
      const bytes = duckdb.get_data_from_pointer(view.buffer as ArrayBuffer, view.byteOffset + runStartSlot * 16 + 8, runEndPtr - runStartPtr)
      runs.push(bytes)
      runStartSlot = -1
    }
    for (let i = 0; i < n; i++) {
      if (this.isNull(i)) continue
      const len = view.getUint32(i * 16, true)
      if (len <= 12) continue
      const ptr = view.getUint32(i * 16 + 8, true) + view.getUint32(i * 16 + 12, true) * TWO_32
      if (runStartSlot < 0 || ptr !== runEndPtr) {
        flush()
        runStartSlot = i
        runStartPtr = ptr
      }
      runOf[i] = runs.length
      offsetOf[i] = ptr - runStartPtr
      runEndPtr = ptr + len
    }
    flush()
    this.heapRuns = runs
    this.heapRun = runOf
    this.heapOffset = offsetOf
  }
  string(i: number): string | null {
    if (this.view === undefined) {
      const v = this.value(i)
      return v === null ? null : typeof v === "string" ? v : String(v)
    }
    const b = this.bytes(i)
    return b === null ? null : textDecoder.decode(b)
  }
  value(i: number): number | bigint | string | boolean | Uint8Array | null {
    if (this.isNull(i)) return null
    const d = this.data
    switch (this.info.layout) {
      case "boolean":
        return d[i] !== 0
      case "int8":
      case "uint8":
      case "int16":
      case "uint16":
      case "int32":
      case "uint32":
      case "float32":
      case "float64":
      case "int64":
      case "uint64":
        return d[i]!
      case "varchar":
        return this.string(i)
      case "blob": {
        const b = this.bytes(i)
        return b === null ? null : Buffer.from(b)
      }
      default: {
        this.generic ??= DuckDBVector.create(this.vector, this.length, this.info.type)
        const item = this.generic.getItem(i)
        return item === null ? null : String(item)
      }
    }
  }
}

/** Wraps every column of a DuckDB chunk as {@link ColumnVector}s (zero-copy for fixed-width columns). */
export const chunkColumns = (chunk: DuckDBDataChunk, infos: readonly ColumnInfo[]): ColumnVector[] => {
  const n = chunk.rowCount
  const out: ColumnVector[] = []
  for (let c = 0; c < infos.length; c++) {
    const vector = duckdb.data_chunk_get_vector(chunk.chunk, c)
    const validityBytes = duckdb.vector_get_validity(vector, Math.ceil(n / 64) * 8)
    out.push(new ChunkColumn(infos[c]!, n, validityBytes ?? null, vector))
  }
  return out
}
