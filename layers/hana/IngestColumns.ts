/**
 * What the encoded EXECUTE's column encoders (IngestNumbers.ts, IngestTemporals.ts, IngestBytes.ts) share: the
 * encoder contract {@link ColumnEncoder} and {@link Maker} that IngestEncoder.ts's part loop calls, the
 * {@link ValueError} a value the parameter cannot take throws, the Arrow validity bitmap reads and the little-endian
 * integer writers.
 *
 * @since 0.1.0
 */
import type * as Arrow from "apache-arrow"
import { TWO_32 } from "../common/Int64Words.ts"

/** A parameter as PREPARE described it (hdb's ParameterMetadata). @category models @since 0.1.0 */
export interface EncodedParameter {
  readonly dataType: number
  readonly fraction: number
  readonly length: number
}

/**
 * A value a parameter cannot take; caught per part and turned into INVALID_ARGUMENT naming row and column.
 *
 * @category errors
 * @since 0.1.0
 */
export class ValueError extends Error {
  constructor(readonly row: number, readonly column: number, readonly problem: string) {
    super(problem)
  }
}

/** Writes one cell at `pos`, returns the position after it. @category models @since 0.1.0 */
export type CellWriter = (row: number, out: Buffer, pos: number) => number

/** One column's cell writer and the bytes a cell takes at most. @category models @since 0.1.0 */
export interface ColumnEncoder {
  readonly write: CellWriter
  /** An upper bound of the bytes a row's cell takes (type code and length indicator included). */
  readonly maxBytes: number | ((row: number) => number)
}

/**
 * The encoder of an Arrow column for a parameter of (normalized) type code `normalized`, or why the pair is not
 * encoded here (then the batch goes through hdb's writer).
 *
 * @category models
 * @since 0.1.0
 */
export type Maker = (data: Arrow.Data, column: number, parameter: EncodedParameter, normalized: number) => ColumnEncoder | string

/** Whether row `row` of a column holds a value, or undefined when every value is valid. @category encoding @since 0.1.0 */
export const validity = (data: Arrow.Data): ((row: number) => boolean) | undefined => {
  const bitmap = data.nullBitmap
  if (data.nullCount === 0 || bitmap === undefined || bitmap.length === 0) return undefined
  const offset = data.offset
  return (row) => {
    const k = row + offset
    return (bitmap[k >>> 3]! & (1 << (k & 7))) !== 0
  }
}

/** The bytes of a typed array. @category encoding @since 0.1.0 */
export const bytesOf = (values: ArrayBufferView): Uint8Array => new Uint8Array(values.buffer, values.byteOffset, values.byteLength)

/** Writes int32 `v` little-endian at `pos`. @category encoding @since 0.1.0 */
export const writeInt32 = (out: Buffer, pos: number, v: number): void => {
  out[pos] = v
  out[pos + 1] = v >>> 8
  out[pos + 2] = v >>> 16
  out[pos + 3] = v >>> 24
}

/** Writes a signed integer below 2^53 in magnitude as int64 LE. @category encoding @since 0.1.0 */
export const writeSafeInt64 = (out: Buffer, pos: number, v: number): void => {
  const hi = Math.floor(v / TWO_32)
  writeInt32(out, pos, v - hi * TWO_32)
  writeInt32(out, pos + 4, hi)
}
