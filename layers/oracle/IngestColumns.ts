/**
 * What the ingest fast path's column encoders (IngestNumbers.ts, IngestTemporals.ts, IngestBytes.ts) share: the
 * encoder contract {@link ColumnEncoder} that IngestEncoder.ts's row loop calls, the Arrow validity bitmap reads,
 * the NULL value (length 0) and the fixed-size encoder shape.
 *
 * @since 0.1.0
 */
import type * as Arrow from "apache-arrow"
import { type AdbcError, adbcError } from "../../src/AdbcError.ts"

/** The bind type an encoded column declares to oracledb (a `DB_TYPE_*` name). @category models @since 0.1.0 */
export type EncodedBindType =
  | "NUMBER"
  | "BINARY_FLOAT"
  | "BINARY_DOUBLE"
  | "BOOLEAN"
  | "DATE"
  | "TIMESTAMP"
  | "TIMESTAMP_TZ"
  | "VARCHAR"
  | "RAW"
  | "INTERVAL_YM"
  | "INTERVAL_DS"

/**
 * One column's encoder: its bind type and size, an upper bound of the bytes its rows `[start, end)` take, and the
 * writer of row `i`'s value (length prefix included) at `pos` of `out`, returning the position after it.
 *
 * @category models
 * @since 0.1.0
 */
export interface ColumnEncoder {
  readonly type: EncodedBindType
  /** The bind's maximum size in bytes (strings and bytes; 0 for the other types). */
  readonly maxSize: number
  readonly bound: (start: number, end: number) => number
  readonly write: (i: number, out: Uint8Array, pos: number) => number
}

/** The validity bitmap of a column, or undefined when every value is valid. @category encoding @since 0.1.0 */
export const validity = (data: Arrow.Data): Uint8Array | undefined =>
  data.nullCount === 0 || data.nullBitmap === undefined || data.nullBitmap.length === 0 ? undefined : data.nullBitmap

/** Whether row `i` of a column (its bitmap from {@link validity}, its offset) holds a value. @category encoding @since 0.1.0 */
export const isValid = (bitmap: Uint8Array | undefined, offset: number, i: number): boolean => {
  if (bitmap === undefined) return true
  const k = i + offset
  return (bitmap[k >>> 3]! & (1 << (k & 7))) !== 0
}

/** An encoder of values of one size (`size` bytes at most, length prefix included). @category encoding @since 0.1.0 */
export const fixed = (type: EncodedBindType, size: number, write: ColumnEncoder["write"]): ColumnEncoder => ({
  type,
  maxSize: 0,
  bound: (start, end) => (end - start) * size,
  write
})

/** Writes a NULL (length 0) at `pos`. @category encoding @since 0.1.0 */
export const writeNull = (out: Uint8Array, pos: number): number => {
  out[pos] = 0
  return pos + 1
}

/** An INVALID_DATA error with `message`. @category errors @since 0.1.0 */
export const invalidData = (message: string): AdbcError => adbcError("INVALID_DATA", message)
