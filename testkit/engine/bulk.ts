/**
 * Column-wise bulk insert rows: values are written straight into their DuckDB storage layout (typed arrays, UTF-8
 * bytes), checked against the target columns' constraints as they are set, and handed to DuckDB's appender one
 * 2048-row data chunk at a time (see `Session.appendRows`). No per-value JS objects, no casts in DuckDB.
 */
import duckdb from "@duckdb/node-bindings"
import { DuckDBDataChunk } from "@duckdb/node-api"
import type { DuckDBType } from "@duckdb/node-api"
import { TWO_32 } from "../../src/arrow/Words.ts"
import { bytesPerRow, columnInfo } from "./columns.ts"
import type { ColumnInfo, ColumnLayout } from "./columns.ts"
import { EngineError } from "./errors.ts"

/** One target column of a bulk insert. */
export interface BulkColumn {
  /** The column's name in DuckDB (the engine quotes it). */
  readonly name: string
  /** The column's DuckDB storage type; values are written in its layout. */
  readonly type: DuckDBType
  /** NULL is refused (checked when the rows are appended). */
  readonly notNull?: boolean
  /** Declared length: characters for VARCHAR, bytes for BLOB; absent or 0 = unchecked. */
  readonly maxLength?: number
}

/** What a rejected value broke. */
export type BulkViolation = "null" | "length" | "precision" | "range"

/** A value refused by a {@link BulkRows} check; `row` is 0-based, `column` the {@link BulkColumn.name}. */
export class BulkInsertError extends EngineError {
  constructor(
    readonly violation: BulkViolation,
    readonly row: number,
    readonly column: string,
    detail: string,
    /** The refused value as text (a too-long string, the hex digits of too-long bytes, a number), when the check saw it. */
    readonly value?: string,
    /** The column's DuckDB type as text, for a value out of its range or precision. */
    readonly type?: string
  ) {
    super(`Bulk Insert Error: row ${row}, column ${column}: ${detail}`, "Bulk Insert Error")
  }
}

/** A decimal's text from its unscaled value and scale (`-12345`, 2 → `-123.45`). */
const decimalText = (unscaled: bigint, scale: number): string => {
  if (scale === 0) return String(unscaled)
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(scale + 1, "0")
  return `${unscaled < 0n ? "-" : ""}${digits.slice(0, -scale)}.${digits.slice(-scale)}`
}

/** A value beyond an integer column's range. */
const rangeError = (s: ColumnState, row: number, value: string): BulkInsertError =>
  new BulkInsertError("range", row, s.spec.name, `${value} is out of range for ${s.spec.type.toString()}`, value, s.spec.type.toString())

/** A decimal with more digits than its column's precision (`unscaled` undefined: not an integer, shown as given). */
const precisionError = (s: ColumnState, row: number, unscaled: bigint | undefined, raw: string): BulkInsertError =>
  new BulkInsertError(
    "precision",
    row,
    s.spec.name,
    `unscaled ${raw} exceeds the precision of ${s.spec.type.toString()}`,
    unscaled === undefined ? raw : decimalText(unscaled, s.info.scale),
    s.spec.type.toString()
  )

/** Chunk size of DuckDB's vectors. */
export const CHUNK_ROWS = 2048

const INT_RANGES: Partial<Record<ColumnLayout, readonly [number, number]>> = {
  boolean: [0, 1],
  int8: [-128, 127],
  uint8: [0, 255],
  int16: [-32768, 32767],
  uint16: [0, 65535],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
  date: [-2147483647, 2147483647]
}

interface ColumnState {
  readonly spec: BulkColumn
  readonly info: ColumnInfo
  readonly width: number
  /** Fixed-width values (for VARCHAR/BLOB: the 16-byte string structs of inlined values). */
  readonly bytes: Uint8Array
  readonly view: Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array | BigInt64Array | BigUint64Array
  /** 1 = a value was set, 0 = NULL. */
  readonly valid: Uint8Array
  /** VARCHAR/BLOB values longer than 12 bytes: copied into `arena`, located by `longAt` (row → offset+1, 0 = none). */
  arena: Uint8Array
  arenaUsed: number
  readonly longAt: Int32Array | undefined
  readonly longLength: Int32Array | undefined
  readonly decimalLimit: bigint | undefined
  readonly numberLimit: number | undefined
  /** Integer range of a number-valued layout (undefined: not range-checked, e.g. floats). */
  readonly min: number | undefined
  readonly max: number | undefined
  /** Values are bigints in `view` (64-bit and 128-bit layouts). */
  readonly wide: boolean
  readonly text: boolean
  /** 64-bit layouts: the values as pairs of 32-bit words (little-endian), for {@link BulkRows.setInt64Parts}. */
  readonly words: Int32Array | undefined
  /** 10^precision of a DECIMAL stored in 64 bits, as a double. */
  readonly numberLimit64: number | undefined
}

const typedView = (layout: ColumnLayout, buffer: ArrayBuffer, rows: number): ColumnState["view"] => {
  switch (layout) {
    case "boolean":
    case "uint8":
      return new Uint8Array(buffer)
    case "int8":
      return new Int8Array(buffer)
    case "int16":
    case "decimal16":
      return new Int16Array(buffer)
    case "uint16":
      return new Uint16Array(buffer)
    case "int32":
    case "date":
    case "decimal32":
      return new Int32Array(buffer)
    case "uint32":
      return new Uint32Array(buffer)
    case "float32":
      return new Float32Array(buffer)
    case "float64":
      return new Float64Array(buffer)
    case "uint64":
      return new BigUint64Array(buffer)
    case "decimal128":
      return new BigInt64Array(buffer, 0, rows * 2)
    default:
      return new BigInt64Array(buffer)
  }
}

/**
 * Rows of a bulk insert, filled cell by cell in the target columns' storage layouts. A cell never set is NULL.
 * Setters check what the column declares (integer ranges, decimal precision, declared length) and throw
 * {@link BulkInsertError} naming the row and column; NOT NULL is checked by `Session.appendRows`.
 */
export class BulkRows {
  /** @internal */
  readonly states: readonly ColumnState[]
  private rows: number
  constructor(
    readonly columns: readonly BulkColumn[],
    /** Rows the buffers hold; {@link BulkRows.truncate} can lower {@link BulkRows.rowCount} below it. */
    readonly capacity: number
  ) {
    this.rows = capacity
    this.states = columns.map((spec) => {
      const info = columnInfo(spec.name, spec.type)
      if (info.layout === "other") throw new EngineError(`Bulk Insert Error: column ${spec.name}: type ${spec.type.toString()} cannot be bulk inserted`, "Bulk Insert Error")
      const width = bytesPerRow(info.layout)
      const buffer = new ArrayBuffer(Math.max(1, capacity) * width)
      const text = info.layout === "varchar" || info.layout === "blob"
      const decimal = info.layout.startsWith("decimal")
      return {
        spec,
        info,
        width,
        bytes: new Uint8Array(buffer),
        view: typedView(info.layout, buffer, capacity),
        valid: new Uint8Array(capacity),
        arena: new Uint8Array(text ? 1024 : 0),
        arenaUsed: 0,
        longAt: text ? new Int32Array(capacity) : undefined,
        longLength: text ? new Int32Array(capacity) : undefined,
        decimalLimit: decimal ? 10n ** BigInt(info.precision) : undefined,
        numberLimit: decimal && info.precision <= 15 ? 10 ** info.precision : undefined,
        min: INT_RANGES[info.layout]?.[0],
        max: INT_RANGES[info.layout]?.[1],
        wide: width >= 8 && !text && info.layout !== "float64",
        text,
        words: width === 8 && !text && info.layout !== "float64" && info.layout !== "uint64" ? new Int32Array(buffer) : undefined,
        numberLimit64: info.layout === "decimal64" ? 10 ** info.precision : undefined
      }
    })
  }

  /**
   * Empties the rows for reuse (every cell NULL again, the arenas kept at their size), holding `rowCount` rows:
   * a caller that appends many chunks of rows like these reuses one set of buffers instead of allocating new ones,
   * whose bytes (ArrayBuffers, counted as V8's external memory) would each time bring the next full collection nearer.
   */
  reset(rowCount: number = this.capacity): void {
    if (!(rowCount >= 0 && rowCount <= this.capacity)) throw new EngineError(`Bulk Insert Error: cannot hold ${rowCount} of ${this.capacity} rows`, "Bulk Insert Error")
    this.rows = rowCount
    for (const s of this.states) {
      s.valid.fill(0)
      s.arenaUsed = 0
    }
  }

  /**
   * The rows copied into DuckDB data chunks of their own ({@link SealedRows}), which stay valid whatever becomes of
   * these buffers: what a transaction keeps to replay an append, so that the buffers can be {@link reset} and reused.
   * A NULL in a NOT NULL column is found here (no chunks are built then).
   */
  seal(): SealedRows {
    const violation = this.nullViolation()
    if (violation !== undefined) return new SealedRows(this.columns, this.rowCount, [], violation)
    const chunks: Array<DuckDBDataChunk> = []
    for (let start = 0; start < this.rows; start += CHUNK_ROWS) {
      const chunk = this.newChunk()
      this.fill(chunk, start, Math.min(CHUNK_ROWS, this.rows - start))
      chunks.push(chunk)
    }
    return new SealedRows(this.columns, this.rowCount, chunks, undefined)
  }

  /** Rows to append: the first `rowCount` rows of the buffers. */
  get rowCount(): number {
    return this.rows
  }

  /** Bytes of the long strings and bytes each column's arena holds (0 for other columns). */
  arenaBytes(): Array<number> {
    return this.states.map((s) => s.arenaUsed)
  }

  /**
   * Sizes the empty arenas of the text columns for `bytes` (per column, as {@link arenaBytes} gave for rows like
   * these) up front, so that filling them does not copy each arena again at every doubling.
   */
  reserveArenas(bytes: ReadonlyArray<number>): void {
    this.states.forEach((s, i) => {
      const n = bytes[i] ?? 0
      if (s.text && s.arenaUsed === 0 && n > s.arena.length) s.arena = new Uint8Array(n)
    })
  }

  /** Keeps only the first `rowCount` rows (for rows decoded into a buffer sized before their number was known). */
  truncate(rowCount: number): void {
    if (!(rowCount >= 0 && rowCount <= this.capacity)) throw new EngineError(`Bulk Insert Error: cannot keep ${rowCount} of ${this.capacity} rows`, "Bulk Insert Error")
    this.rows = rowCount
  }

  private state(column: number): ColumnState {
    const s = this.states[column]
    if (s === undefined) throw new EngineError(`Bulk Insert Error: no column ${column}`, "Bulk Insert Error")
    return s
  }

  /** Sets cell (row, column) to NULL (the default). */
  setNull(column: number, row: number): void {
    this.state(column).valid[row] = 0
  }

  /**
   * Sets a number-valued cell: integers up to 32 bits, BOOLEAN (0/1), FLOAT/DOUBLE, DATE (days since 1970-01-01),
   * DECIMAL up to 9 digits (unscaled).
   */
  setNumber(column: number, row: number, value: number): void {
    const s = this.state(column)
    if (s.min !== undefined && !(value >= s.min && value <= s.max! && Number.isInteger(value))) {
      throw rangeError(s, row, String(value))
    }
    if (s.numberLimit !== undefined && !(Number.isInteger(value) && Math.abs(value) < s.numberLimit)) {
      throw precisionError(s, row, Number.isInteger(value) ? BigInt(value) : undefined, String(value))
    }
    if (s.wide) {
      this.setBigInt(column, row, BigInt(value))
      return
    }
    if (s.text) throw new EngineError(`Bulk Insert Error: column ${s.spec.name} takes bytes`, "Bulk Insert Error")
    ;(s.view as Int32Array)[row] = value
    s.valid[row] = 1
  }

  /**
   * Sets a bigint-valued cell: BIGINT/UBIGINT, TIMESTAMP (µs; TIMESTAMP_S/_MS/_NS in their unit), TIME (µs since
   * midnight), DECIMAL of any width (unscaled).
   */
  setBigInt(column: number, row: number, value: bigint): void {
    const s = this.state(column)
    if (s.decimalLimit !== undefined && (value >= s.decimalLimit || -value >= s.decimalLimit)) {
      throw precisionError(s, row, value, String(value))
    }
    switch (s.info.layout) {
      case "decimal16":
      case "decimal32":
        ;(s.view as Int32Array)[row] = Number(value)
        break
      case "decimal128": {
        const v = s.view as BigInt64Array
        v[row * 2] = BigInt.asIntN(64, value)
        v[row * 2 + 1] = value >> 64n
        break
      }
      case "uint64":
        if (value < 0n || value > 0xffffffffffffffffn) throw rangeError(s, row, String(value))
        ;(s.view as BigUint64Array)[row] = value
        break
      default:
        if (!s.wide) {
          this.setNumber(column, row, Number(value))
          return
        }
        if (value < -0x8000000000000000n || value > 0x7fffffffffffffffn) throw rangeError(s, row, String(value))
        ;(s.view as BigInt64Array)[row] = value
    }
    s.valid[row] = 1
  }

  /**
   * Sets a 64-bit cell (BIGINT, TIMESTAMP*, TIME, DECIMAL up to 18 digits, unscaled) from the low and high 32-bit
   * halves of its two's-complement value, with no bigint: the fast path for values decoded from wire bytes.
   */
  setInt64Parts(column: number, row: number, low: number, high: number): void {
    const s = this.state(column)
    const words = s.words
    if (words === undefined) {
      this.setBigInt(column, row, (BigInt(high | 0) << 32n) | BigInt(low >>> 0))
      return
    }
    if (s.numberLimit64 !== undefined) {
      const approx = Math.abs((high | 0) * TWO_32 + (low >>> 0))
      // Near the limit the double is inexact: decide with a bigint there.
      if (approx >= s.numberLimit64 * 0.999999) {
        this.setBigInt(column, row, (BigInt(high | 0) << 32n) | BigInt(low >>> 0))
        return
      }
    }
    words[row * 2] = low | 0
    words[row * 2 + 1] = high | 0
    s.valid[row] = 1
  }

  /** Sets a VARCHAR (UTF-8 bytes) or BLOB cell; the bytes are copied. */
  setBytes(column: number, row: number, bytes: Uint8Array): void {
    this.setBytesFrom(column, row, bytes, 0, bytes.length)
  }

  /** Sets a VARCHAR (UTF-8) or BLOB cell from `length` bytes of `source` at `start` (copied; no view is made). */
  setBytesFrom(column: number, row: number, source: Uint8Array, start: number, length: number): void {
    const s = this.state(column)
    const max = s.spec.maxLength ?? 0
    if (max > 0 && length > max) {
      const chars = s.info.layout === "varchar" ? utf8Length(source, start, length) : length
      if (chars > max) {
        const refused = Buffer.from(source.buffer, source.byteOffset + start, length)
        const value = s.info.layout === "varchar" ? refused.toString("utf8") : refused.toString("hex").toUpperCase()
        throw new BulkInsertError("length", row, s.spec.name, `length ${chars} exceeds the declared ${max}`, value)
      }
    }
    const longAt = s.longAt
    if (longAt === undefined) throw new EngineError(`Bulk Insert Error: column ${s.spec.name} does not take bytes`, "Bulk Insert Error")
    const at = row * 16
    const b = s.bytes
    b[at] = length & 0xff
    b[at + 1] = (length >>> 8) & 0xff
    b[at + 2] = (length >>> 16) & 0xff
    b[at + 3] = (length >>> 24) & 0xff
    if (length <= 12) {
      for (let i = 0; i < length; i++) b[at + 4 + i] = source[start + i]!
      longAt[row] = 0
    } else {
      if (s.arenaUsed + length > s.arena.length) {
        const grown = new Uint8Array(Math.max(s.arena.length * 2, s.arenaUsed + length))
        grown.set(s.arena.subarray(0, s.arenaUsed))
        s.arena = grown
      }
      const arena = s.arena
      const base = s.arenaUsed
      if (length <= 64) for (let i = 0; i < length; i++) arena[base + i] = source[start + i]!
      else arena.set(source.subarray(start, start + length), base)
      longAt[row] = base + 1
      s.longLength![row] = length
      s.arenaUsed += length
    }
    s.valid[row] = 1
  }

  /** Sets a VARCHAR cell from a JS string. */
  setString(column: number, row: number, value: string): void {
    this.setBytes(column, row, encoder.encode(value))
  }

  /** First row whose NOT NULL column is NULL, as a {@link BulkInsertError}; undefined when none. */
  nullViolation(): BulkInsertError | undefined {
    for (const s of this.states) {
      if (s.spec.notNull !== true) continue
      const row = s.valid.subarray(0, this.rows).indexOf(0)
      if (row >= 0) return new BulkInsertError("null", row, s.spec.name, "NULL in a NOT NULL column")
    }
    return undefined
  }

  /** @internal A data chunk of its own holding rows [start, start + n). */
  chunk(start: number, n: number): DuckDBDataChunk {
    const chunk = this.newChunk()
    this.fill(chunk, start, n)
    return chunk
  }

  /** @internal An empty data chunk of the columns' types, to fill with {@link BulkRows.fill} chunk after chunk. */
  newChunk(): DuckDBDataChunk {
    this.logicalTypes ??= this.columns.map((c) => c.type.toLogicalType().logical_type)
    return new DuckDBDataChunk(duckdb.create_data_chunk(this.logicalTypes))
  }

  /** The columns' DuckDB logical types, made once for all the chunks of these rows. */
  private logicalTypes: Array<duckdb.LogicalType> | undefined

  /**
   * @internal Fills `chunk` (from {@link BulkRows.newChunk}) with rows [start, start + n), after clearing what it held:
   * the appender copies a chunk's data when it takes it, so one chunk serves every chunk of an append.
   */
  fill(chunk: DuckDBDataChunk, start: number, n: number): void {
    duckdb.data_chunk_reset(chunk.chunk)
    chunk.rowCount = n
    for (let c = 0; c < this.states.length; c++) {
      const s = this.states[c]!
      const vector = duckdb.data_chunk_get_vector(chunk.chunk, c)
      if (s.longAt === undefined || !copyLongStrings(vector, s, start, n)) {
        duckdb.copy_data_to_vector(vector, 0, s.bytes.buffer as ArrayBuffer, start * s.width, n * s.width)
      }
      const valid = s.valid.subarray(start, start + n)
      if (valid.indexOf(0) >= 0) {
        const words = new BigUint64Array(Math.ceil(n / 64))
        const bits = new Uint8Array(words.buffer)
        for (let r = 0; r < n; r++) if (valid[r] === 1) bits[r >> 3]! |= 1 << (r & 7)
        duckdb.vector_ensure_validity_writable(vector)
        duckdb.copy_data_to_vector_validity(vector, 0, words.buffer, 0, words.byteLength)
      }
    }
  }
}

/**
 * Rows of a {@link BulkRows} in DuckDB data chunks (DuckDB's memory, outside V8's heap and its accounting), appended
 * by `Session.appendRows` as they are, as often as a transaction's replay needs.
 */
export class SealedRows {
  /** @internal */
  constructor(
    readonly columns: readonly BulkColumn[],
    readonly rowCount: number,
    /** @internal The rows, 2048 to a chunk. */
    readonly chunks: ReadonlyArray<DuckDBDataChunk>,
    /** The first NULL in a NOT NULL column ({@link BulkRows.nullViolation}); no chunks then. */
    readonly violation: BulkInsertError | undefined
  ) {}
}

const encoder = new TextEncoder()

/** The string structs of one chunk column with long strings (reused: chunk() copies them into the vector at once). */
const structs = new Uint8Array(CHUNK_ROWS * 16)

/**
 * Copies the string structs of rows [start, start + n) of a VARCHAR/BLOB column into `vector` when some of them are
 * longer than 12 bytes (false when none are: the caller copies the inlined structs). DuckDB takes strings one call
 * at a time (duckdb_vector_assign_string_element_len copies a value into the vector's string heap), so the arena
 * range holding the chunk's long values is assigned as one value to the first long row, and every long row's
 * duckdb_string_t (duckdb.h: length, 4-byte prefix, pointer) then points at its bytes in that one copy: one N-API
 * call per chunk column instead of one per long value. Falls back to a call per value when the range holds much
 * else besides the chunk's values (rows set out of order).
 */
const copyLongStrings = (vector: duckdb.Vector, s: ColumnState, start: number, n: number): boolean => {
  const longAt = s.longAt!
  const longLength = s.longLength!
  const valid = s.valid
  let first = -1
  let lo = 0
  let hi = 0
  let total = 0
  for (let r = start; r < start + n; r++) {
    const at = longAt[r]!
    if (at === 0 || valid[r] !== 1) continue
    const end = at - 1 + longLength[r]!
    if (first < 0) {
      first = r
      lo = at - 1
      hi = end
    } else {
      if (at - 1 < lo) lo = at - 1
      if (end > hi) hi = end
    }
    total += longLength[r]!
  }
  if (first < 0) return false
  const arena = s.arena
  if (hi - lo > 2 * total + 4096 || n > CHUNK_ROWS) {
    duckdb.copy_data_to_vector(vector, 0, s.bytes.buffer as ArrayBuffer, start * 16, n * 16)
    for (let r = start; r < start + n; r++) {
      const at = longAt[r]!
      if (at > 0 && valid[r] === 1) duckdb.vector_assign_string_element_len(vector, r - start, arena.subarray(at - 1, at - 1 + longLength[r]!))
    }
    return true
  }
  duckdb.vector_assign_string_element_len(vector, first - start, arena.subarray(lo, hi))
  const head = duckdb.vector_get_data(vector, (first - start + 1) * 16)
  const at0 = (first - start) * 16 + 8
  const pointerLow = (head[at0]! | (head[at0 + 1]! << 8) | (head[at0 + 2]! << 16) | (head[at0 + 3]! << 24)) >>> 0
  const pointerHigh = (head[at0 + 4]! | (head[at0 + 5]! << 8) | (head[at0 + 6]! << 16) | (head[at0 + 7]! << 24)) >>> 0
  structs.set(s.bytes.subarray(start * 16, (start + n) * 16))
  for (let r = start; r < start + n; r++) {
    const at = longAt[r]!
    if (at === 0 || valid[r] !== 1) continue
    const o = (r - start) * 16
    const from = at - 1
    // length is in place (setBytesFrom); the prefix is the value's first 4 bytes
    structs[o + 4] = arena[from]!
    structs[o + 5] = arena[from + 1]!
    structs[o + 6] = arena[from + 2]!
    structs[o + 7] = arena[from + 3]!
    const low = pointerLow + (from - lo)
    const high = pointerHigh + (low >= TWO_32 ? 1 : 0)
    structs[o + 8] = low & 0xff
    structs[o + 9] = (low >>> 8) & 0xff
    structs[o + 10] = (low >>> 16) & 0xff
    structs[o + 11] = (low >>> 24) & 0xff
    structs[o + 12] = high & 0xff
    structs[o + 13] = (high >>> 8) & 0xff
    structs[o + 14] = (high >>> 16) & 0xff
    structs[o + 15] = (high >>> 24) & 0xff
  }
  duckdb.copy_data_to_vector(vector, 0, structs.buffer as ArrayBuffer, 0, n * 16)
  return true
}

/** Characters (code points) of UTF-8 bytes: every byte that is not a continuation byte starts one. */
const utf8Length = (bytes: Uint8Array, start: number, length: number): number => {
  let n = 0
  for (let i = start; i < start + length; i++) if ((bytes[i]! & 0xc0) !== 0x80) n++
  return n
}
