/**
 * Batch mode's row capture: the rows oracledb receives for a result set kept as their TTC wire bytes
 * ({@link WireRows}) instead of a JS value per cell, through the `processRowData` hook (DbPatches.ts); WirePage.ts
 * decodes them. Reaches into oracledb's result-set internals (statement variables, buffered rows).
 *
 * @since 0.1.0
 */
import type { OracleResultSet } from "./DbTypes.ts"

/** Wire facts of one fetched column, from oracledb's statement variables. @category models @since 0.1.0 */
export interface WireColumn {
  /** Oracle type number of the define (2 NUMBER, 1 VARCHAR2, 12 DATE, 180 TIMESTAMP, …). */
  readonly oraTypeNum: number
  /** Character set form: 1 database character set (UTF-8), 2 national (UTF-16BE). */
  readonly csfrm: number
  /** Define buffer size; 0 means the server sends no bytes for the column. */
  readonly maxSize: number
}

/**
 * Rows of one fetch kept as their TTC wire bytes: row `r` starts at byte `starts[r]` of `bufs[r]` (a network
 * packet, or a copy when the row spans packets) with each sent column as a length-prefixed value (one length byte
 * ≤ 252, 0 or 255 for NULL, 254 for chunks of UB4 length + bytes ending with a zero length). `vectors` holds the
 * duplicate-column bit vectors of the rows that had one (a clear bit: the column was not sent, its value is the
 * previous row's).
 *
 * @category models
 * @since 0.1.0
 */
export class WireRows {
  readonly bufs: Array<Uint8Array> = []
  readonly starts: Array<number> = []
  readonly vectors = new Map<number, Uint8Array>()

  get length(): number {
    return this.starts.length
  }
}

/** The parts of oracledb's ReadPacket the row capture uses. @category models @since 0.1.0 */
export interface ReadPacket {
  buf: Uint8Array
  pos: number
  size: number
  readBytesWithLength(): Uint8Array | null
}

const NULL_LENGTH = 255
const LONG_LENGTH = 254
const MAX_SHORT_LENGTH = 252
/** TTC message type of a row (oracledb constants.js TNS_MSG_TYPE_ROW_DATA). */
const ROW_DATA_MESSAGE = 7

/** End offset of a chunked value whose first chunk length starts at `p`, or -1 when it runs past `size`. */
const chunkedEnd = (b: Uint8Array, p: number, size: number): number => {
  while (p < size) {
    const width = b[p]!
    if (width === 0) return p + 1
    if (p + width >= size) return -1
    let length = 0
    for (let k = 1; k <= width; k++) length = length * 256 + b[p + k]!
    p += 1 + width + length
  }
  return -1
}

/** Whether column `c` was left out of a row as a duplicate of the previous row's value. @category internals @since 0.1.0 */
export const isDuplicate = (vector: Uint8Array | undefined, c: number): boolean =>
  vector !== undefined && (vector[c >>> 3]! & (1 << (c & 7))) === 0

/**
 * Collects the rows oracledb receives for one result set as wire bytes instead of JS values (see the
 * `processRowData` hook). Only installed for result sets whose every column is a length-prefixed scalar.
 *
 * @category internals
 * @since 0.1.0
 */
export class RowCapture {
  rows = new WireRows()
  constructor(readonly owner: unknown, readonly width: number) {}

  take(): WireRows {
    const rows = this.rows
    this.rows = new WireRows()
    return rows
  }

  /**
   * Records the row at the read position and moves past it, then every further ROW_DATA message that lies wholly
   * in the same packet (so oracledb's per-message dispatch runs once per run of rows; a row that is not wholly
   * there is left to the next message, so a wait for packets never repeats a recorded row). Throws oracledb's
   * OutOfPacketsError unchanged, having recorded nothing.
   */
  capture(packet: ReadPacket, bitVector: Uint8Array | null): void {
    const vector = bitVector ?? undefined
    if (!this.captureInPacket(packet, packet.pos, vector)) this.captureAcrossPackets(packet, vector)
    const b = packet.buf
    while (packet.pos < packet.size && b[packet.pos] === ROW_DATA_MESSAGE) {
      if (!this.captureInPacket(packet, packet.pos + 1, undefined)) break
    }
  }

  /** Records the row starting at `start` if it ends within the current packet. */
  private captureInPacket(packet: ReadPacket, start: number, vector: Uint8Array | undefined): boolean {
    const b = packet.buf
    const size = packet.size
    let p = start
    for (let c = 0; c < this.width && p >= 0; c++) {
      if (vector !== undefined && isDuplicate(vector, c)) continue
      if (p >= size) p = -1
      else {
        const length = b[p]!
        p = length === 0 || length === NULL_LENGTH ? p + 1 : length === LONG_LENGTH ? chunkedEnd(b, p + 1, size) : p + 1 + length
      }
    }
    if (p < 0 || p > size) return false
    this.record(b, start, vector)
    packet.pos = p
    return true
  }

  private captureAcrossPackets(packet: ReadPacket, vector: Uint8Array | undefined): void {
    // The row spans packets: read it through oracledb (which waits for the next packet, or throws
    // OutOfPacketsError to have the whole row read again) and keep a contiguous copy.
    const values: Array<Uint8Array | null> = []
    let bytes = 0
    for (let c = 0; c < this.width; c++) {
      if (isDuplicate(vector, c)) continue
      const value = packet.readBytesWithLength()
      // Copied: chunked reads reuse oracledb's buffer.
      values.push(value === null ? null : Uint8Array.prototype.slice.call(value))
      bytes += value === null ? 1 : value.length + 8
    }
    const row = new Uint8Array(bytes)
    let o = 0
    for (const value of values) {
      if (value === null) row[o++] = 0
      else if (value.length <= MAX_SHORT_LENGTH) {
        row[o++] = value.length
        row.set(value, o)
        o += value.length
      } else {
        row[o++] = LONG_LENGTH
        row[o++] = 4
        new DataView(row.buffer).setUint32(o, value.length)
        row.set(value, o + 4)
        o += 4 + value.length
        row[o++] = 0
      }
    }
    this.record(row, 0, vector)
  }

  private record(buf: Uint8Array, start: number, vector: Uint8Array | undefined): void {
    const rows = this.rows
    if (vector !== undefined) rows.vectors.set(rows.starts.length, vector)
    rows.bufs.push(buf)
    rows.starts.push(start)
  }
}

/** oracledb's internals of a result set, as far as the row capture needs them. */
interface ResultSetInternals {
  readonly _impl?: {
    readonly statement?: {
      readonly queryVars?: ReadonlyArray<{
        readonly type: { readonly _oraTypeNum: number; readonly _csfrm: number }
        readonly maxSize: number
        readonly values: ReadonlyArray<unknown>
      }>
      readonly bufferRowCount: number
      readonly bufferRowIndex: number
      readonly lastRowIndex: number
      [ROW_CAPTURE]?: RowCapture | undefined
    }
  }
}

/** The statement property holding its {@link RowCapture}. @category internals @since 0.1.0 */
export const ROW_CAPTURE: unique symbol = Symbol.for("effect-adbc/oracle/row-capture")

const statementOf = (resultSet: OracleResultSet) => (resultSet as ResultSetInternals)._impl?.statement

/**
 * The wire columns of a result set, or undefined when oracledb's internals are not as expected (the caller then
 * keeps oracledb's own decoding).
 *
 * @category operations
 * @since 0.1.0
 */
export const wireColumns = (resultSet: OracleResultSet): ReadonlyArray<WireColumn> | undefined => {
  const vars = statementOf(resultSet)?.queryVars
  if (vars === undefined || vars.length !== resultSet.metaData.length) return undefined
  return vars.map((v) => ({ oraTypeNum: v.type._oraTypeNum, csfrm: v.type._csfrm, maxSize: v.maxSize }))
}

/** Rows oracledb has fetched for `resultSet` that `getRows` has not returned yet. @category operations @since 0.1.0 */
export const bufferedRowCount = (resultSet: OracleResultSet): number => {
  const statement = statementOf(resultSet)
  return statement === undefined ? 0 : statement.bufferRowCount - statement.bufferRowIndex
}

/**
 * The last value oracledb decoded for each column (a later wire row may repeat it as a duplicate).
 *
 * @category operations
 * @since 0.1.0
 */
export const lastDecodedValues = (resultSet: OracleResultSet): ReadonlyArray<unknown> => {
  const statement = statementOf(resultSet)
  return (statement?.queryVars ?? []).map((v) => v.values[statement!.lastRowIndex])
}

/**
 * Fetches up to `rows` rows of `resultSet` as wire bytes (see {@link WireRows}); an empty result means the result
 * set is exhausted. The first call installs the capture, which stays until {@link stopCapture}. oracledb's
 * buffered rows must have been read with `getRows` first.
 *
 * @category operations
 * @since 0.1.0
 */
export const fetchWireRows = async (resultSet: OracleResultSet, rows: number): Promise<WireRows> => {
  const statement = statementOf(resultSet)
  if (statement === undefined || bufferedRowCount(resultSet) !== 0) {
    throw new Error("fetchWireRows: the result set has rows buffered or no oracledb statement")
  }
  let capture = statement[ROW_CAPTURE]
  if (capture === undefined || capture.owner !== (resultSet as ResultSetInternals)._impl) {
    capture = new RowCapture((resultSet as ResultSetInternals)._impl, resultSet.metaData.length)
    statement[ROW_CAPTURE] = capture
  }
  capture.take()
  const decoded = await resultSet.getRows(rows)
  if (decoded.length !== 0) throw new Error("fetchWireRows: oracledb decoded rows while the capture was installed")
  return capture.take()
}

/** Removes the row capture of `resultSet` (before it is closed and its statement cached). @category operations @since 0.1.0 */
export const stopCapture = (resultSet: OracleResultSet): void => {
  const statement = statementOf(resultSet)
  if (statement !== undefined) delete statement[ROW_CAPTURE]
}

