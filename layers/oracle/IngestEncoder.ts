/**
 * The ingest fast path's encoder: Arrow columns written straight into TTC bind row data for executeMany (the values
 * node-oracledb's thin `MessageWithData.writeBindParamsColumn` writes, lib/thin/protocol/messages/withData.js), read
 * from the column buffers with no JS value per cell. EncodedBinds.ts hands the rows to oracledb's own execute
 * message, so the bind metadata, authentication, session, transaction and errors stay oracledb's.
 *
 * Per Arrow type (the Ingest column of the Oracle type mapping), one column encoder: integers, decimal128, floats
 * and bool in IngestNumbers.ts; dates, timestamps and intervals in IngestTemporals.ts; strings and binaries in
 * IngestBytes.ts; the null type here (NUMBER, every value NULL). This module picks them, frames the rows and plans a
 * batch. Struct and list (JSON text), geoarrow (SDO_GEOMETRY objects) and any column of a database whose character
 * set is not AL32UTF8 go through oracledb's own encoder instead ({@link fastPathRefusal} says why).
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Result } from "effect"
import { type AdbcError, invalidArgument } from "../../src/AdbcError.ts"
import { fixedBinaryEncoder, offsetsEncoder, type StringLimit, viewEncoder } from "./IngestBytes.ts"
import { type ColumnEncoder, fixed, writeNull } from "./IngestColumns.ts"
import { boolEncoder, decimalEncoder, floatEncoder, intEncoder } from "./IngestNumbers.ts"
import { dateEncoder, intervalEncoder, timestampEncoder } from "./IngestTemporals.ts"

/**
 * Encoded bind rows: row `r`'s values are `bytes[offsets[r], offsets[r + 1])`, in the wire order the columns were
 * given.
 *
 * @category models
 * @since 0.1.0
 */
export interface EncodedRows {
  readonly rows: number
  readonly bytes: Buffer
  readonly offsets: Uint32Array
}

const nullEncoder: ColumnEncoder = fixed("NUMBER", 1, (_i, out, pos) => writeNull(out, pos))

// ---------------------------------------------------------------------------------------------------------------

/**
 * Why a column cannot take the fast path (undefined when it can): struct and list columns (JSON text) and
 * geoarrow columns (SDO_GEOMETRY objects) are encoded by oracledb from JS values, as is every column when the
 * database character set is not AL32UTF8 (Oracle would convert VARCHAR bytes into that character set).
 *
 * @category encoding
 * @since 0.1.0
 */
export const fastPathRefusal = (field: Arrow.Field, utf8Database: boolean): string | undefined => {
  if (!utf8Database) return "the database character set is not AL32UTF8"
  if (field.metadata.get("ARROW:extension:name") !== undefined) return `extension type ${field.metadata.get("ARROW:extension:name")}`
  const t = field.type.typeId
  if (t === Arrow.Type.Struct || t === Arrow.Type.List || t === Arrow.Type.LargeList || t === Arrow.Type.FixedSizeList) {
    return `Arrow type ${field.type} (JSON text)`
  }
  return undefined
}

/**
 * The encoder of one ingested column (call {@link fastPathRefusal} first). `limit` bounds the characters of string
 * values (the target column's width); `firstRow` (0-based) is the ingest's row of the column's first value, so that
 * refusals name rows as the whole ingest counts them.
 *
 * @category encoding
 * @since 0.1.0
 */
export const columnEncoder = (
  field: Arrow.Field,
  data: Arrow.Data,
  limit: StringLimit | undefined,
  firstRow = 0
): Result.Result<ColumnEncoder, AdbcError> => {
  switch (data.type.typeId) {
    case Arrow.Type.Int:
      return Result.succeed(intEncoder(data))
    case Arrow.Type.Decimal:
      return decimalEncoder(field, data)
    case Arrow.Type.Float:
      return Result.succeed(floatEncoder(data))
    case Arrow.Type.Bool:
      return Result.succeed(boolEncoder(data))
    case Arrow.Type.Date:
      return dateEncoder(field, data, firstRow)
    case Arrow.Type.Timestamp:
      return timestampEncoder(field, data, firstRow)
    case Arrow.Type.Interval:
      return intervalEncoder(field, data, firstRow)
    case Arrow.Type.Utf8:
    case Arrow.Type.LargeUtf8:
      return offsetsEncoder(field, data, "VARCHAR", limit, firstRow)
    case Arrow.Type.Binary:
    case Arrow.Type.LargeBinary:
      return offsetsEncoder(field, data, "RAW", undefined, firstRow)
    case Arrow.Type.FixedSizeBinary:
      return Result.succeed(fixedBinaryEncoder(data))
    case Arrow.Type.Utf8View:
    case Arrow.Type.BinaryView:
      return viewEncoder(field, data, limit, firstRow)
    case Arrow.Type.Null:
      return Result.succeed(nullEncoder)
    default:
      return Result.fail(invalidArgument(`field ${JSON.stringify(field.name)} of Arrow type ${field.type} has no bind encoder`))
  }
}

/** Rows encoded by {@link encodeRows} since the process started (tests read it to see when encoding ran). */
let rowsEncodedTotal = 0

/** Rows encoded so far. @category internals @since 0.1.0 */
export const rowsEncoded = (): number => rowsEncodedTotal

/**
 * Encodes rows `[start, end)` of `columns` (in their wire order) into one buffer of bind rows.
 *
 * @category encoding
 * @since 0.1.0
 */
export const encodeRows = (columns: ReadonlyArray<ColumnEncoder>, start: number, end: number): EncodedRows => {
  rowsEncodedTotal += end - start
  let bound = 0
  for (const c of columns) bound += c.bound(start, end)
  const bytes = Buffer.allocUnsafe(bound)
  const rows = end - start
  const offsets = new Uint32Array(rows + 1)
  const width = columns.length
  let pos = 0
  for (let r = 0; r < rows; r++) {
    offsets[r] = pos
    const i = start + r
    for (let c = 0; c < width; c++) pos = columns[c]!.write(i, bytes, pos)
  }
  offsets[rows] = pos
  return { rows, bytes, offsets }
}

/**
 * How a batch is ingested: its columns' encoders (in bind order) for the fast path, or the reason it goes through
 * oracledb's own encoder.
 *
 * @category models
 * @since 0.1.0
 */
export type EncodePlan =
  | { readonly _tag: "Encoded"; readonly encoders: ReadonlyArray<ColumnEncoder> }
  | { readonly _tag: "Fallback"; readonly reason: string }

/**
 * The plan of a batch: encoders when every column takes the fast path, else the first column's refusal
 * ({@link fastPathRefusal}) as the reason; a string longer than its column's limit or a date outside Oracle's range
 * fails before anything is sent, naming its row counted across the whole ingest (the batch starts at row
 * `firstRow`, 0-based).
 *
 * @category encoding
 * @since 0.1.0
 */
export const batchEncoders = (
  batch: Arrow.RecordBatch,
  limitOf: (column: string) => StringLimit | undefined,
  utf8Database: boolean,
  firstRow: number
): Result.Result<EncodePlan, AdbcError> => {
  const fields = batch.schema.fields
  for (let c = 0; c < fields.length; c++) {
    const refusal = fastPathRefusal(fields[c]!, utf8Database)
    if (refusal !== undefined) {
      return Result.succeed({ _tag: "Fallback", reason: `column ${c + 1} (${JSON.stringify(fields[c]!.name)}): ${refusal}` })
    }
  }
  const out: Array<ColumnEncoder> = []
  for (let c = 0; c < fields.length; c++) {
    const field = fields[c]!
    const encoder = columnEncoder(field, batch.getChildAt(c)!.data[0]!, limitOf(field.name), firstRow)
    if (Result.isFailure(encoder)) return Result.fail(encoder.failure)
    out.push(encoder.success)
  }
  return Result.succeed({ _tag: "Encoded", encoders: out })
}
