/**
 * Arrow record batches encoded straight into the PARAMETERS part of a HANA batch EXECUTE, from the column buffers,
 * with no JavaScript value per cell. Each row is, per parameter, `[type code][value]` and a NULL is the type code
 * with bit 7 set, in the layouts hdb 2.30.1 writes (lib/protocol/Writer.js: the normalized type code of
 * common/NormalizedTypeCode.js first; integers little-endian; REAL / DOUBLE IEEE little-endian; FIXED8/12/16 the
 * unscaled value in two's complement; text and binary a length indicator (≤ 245 one byte, else 246 + int16 or
 * 247 + int32) and the bytes, text in CESU-8; BOOLEAN 0 false / 2 true; DAYDATE the day number (1 = 0001-01-01,
 * Julian calendar before 1582-10-15), SECONDTIME seconds + 1, SECONDDATE and LONGDATE seconds / 100 ns since
 * 0001-01-01 + 1; NULL of DAYDATE / SECONDTIME / SECONDDATE / LONGDATE is DATE / TIME / TIMESTAMP with bit 7).
 *
 * Values are taken as hdb takes the text the row path hands it: dates by their proleptic Gregorian label, times
 * truncated to the column's resolution, decimals truncated to the column's scale.
 *
 * The column encoders by type family: IngestNumbers.ts, IngestTemporals.ts, IngestBytes.ts (what they share:
 * IngestColumns.ts); this module picks them, adds the NULLs and fills parts.
 *
 * A batch is encoded only when every column pairs with its parameter type; otherwise {@link planEncoding}
 * names the column and the driver binds that batch through hdb's own writer (LOB parameters, floating DECIMAL,
 * data format version 1 date types, half floats, text to numbers and the like).
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { type AdbcError, adbcError } from "../../src/AdbcError.ts"
import { binaries, texts } from "./IngestBytes.ts"
import { type ColumnEncoder, type EncodedParameter, type Maker, validity, ValueError } from "./IngestColumns.ts"
import { bigIntegers, booleans, decimals, floats, smallIntegers } from "./IngestNumbers.ts"
import { dates, times, timestamps } from "./IngestTemporals.ts"
import { TypeCode, typeCodeName } from "./ReadTypes.ts"

/** Rows written into one PARAMETERS part. @category models @since 0.1.0 */
export interface EncodedPart {
  readonly rows: number
  readonly bytes: number
}

/**
 * Writes rows `[start, end)` of the batch into `out` from offset 0 while they fit in `limit` bytes (at least one
 * row, unless that row alone is larger than `limit`: then INVALID_ARGUMENT naming its largest parameter).
 * A value the parameter cannot take fails INVALID_ARGUMENT naming row and column.
 *
 * @category models
 * @since 0.1.0
 */
export type PartEncoder = (start: number, end: number, limit: number) => EncodedPart & { readonly data: Buffer } | AdbcError

/**
 * Whether a batch is encoded here, or bound through hdb's writer and why.
 *
 * @category models
 * @since 0.1.0
 */
export type EncodePlan =
  | { readonly _tag: "Encoded"; readonly encode: PartEncoder }
  | { readonly _tag: "Fallback"; readonly reason: string }

/** The type byte of a NULL (hdb Writer.pushNull). */
const nullCode = (normalized: number): number => {
  switch (normalized) {
    case TypeCode.LONGDATE:
    case TypeCode.SECONDDATE:
      return TypeCode.TIMESTAMP | 0x80
    case TypeCode.DAYDATE:
      return TypeCode.DATE | 0x80
    case TypeCode.SECONDTIME:
      return TypeCode.TIME | 0x80
    default:
      return normalized | 0x80
  }
}

/** hdb's normalization of parameter type codes (lib/protocol/common/NormalizedTypeCode.js), for the types encoded here. */
const normalize = (code: number): number | undefined => {
  switch (code) {
    case TypeCode.TINYINT:
    case TypeCode.SMALLINT:
    case TypeCode.INT:
    case TypeCode.BIGINT:
    case TypeCode.REAL:
    case TypeCode.DOUBLE:
    case TypeCode.FIXED8:
    case TypeCode.FIXED12:
    case TypeCode.FIXED16:
    case TypeCode.BOOLEAN:
    case TypeCode.DAYDATE:
    case TypeCode.SECONDTIME:
    case TypeCode.LONGDATE:
    case TypeCode.SECONDDATE:
      return code
    case TypeCode.STRING:
    case TypeCode.VARCHAR1:
    case TypeCode.VARCHAR2:
    case TypeCode.CHAR:
    case TypeCode.SHORTTEXT:
    case TypeCode.ALPHANUM:
      return TypeCode.STRING
    case TypeCode.NCHAR:
    case TypeCode.NVARCHAR:
    case TypeCode.NSTRING:
      return TypeCode.NSTRING
    case TypeCode.BINARY:
    case TypeCode.VARBINARY:
    case TypeCode.BSTRING:
      return TypeCode.BINARY
    default:
      return undefined
  }
}

const makerOf = (type: Arrow.DataType): Maker | undefined => {
  switch (type.typeId) {
    case Arrow.Type.Int:
      return (type as Arrow.Int).bitWidth === 64 ? bigIntegers : smallIntegers
    case Arrow.Type.Float:
      return floats
    case Arrow.Type.Decimal:
      return decimals
    case Arrow.Type.Bool:
      return booleans
    case Arrow.Type.Date:
      return dates
    case Arrow.Type.Time:
      return times
    case Arrow.Type.Timestamp:
      return timestamps
    case Arrow.Type.Utf8:
    case Arrow.Type.LargeUtf8:
    case Arrow.Type.Utf8View:
      return texts
    case Arrow.Type.Binary:
    case Arrow.Type.LargeBinary:
    case Arrow.Type.FixedSizeBinary:
    case Arrow.Type.BinaryView:
      return binaries
    default:
      return undefined
  }
}

/** Wraps a value writer with the column's NULLs. */
const withNulls = (encoder: ColumnEncoder, data: Arrow.Data, normalized: number): ColumnEncoder => {
  const valid = validity(data)
  if (valid === undefined) return encoder
  const code = nullCode(normalized)
  const write = encoder.write
  const max = encoder.maxBytes
  return {
    maxBytes: typeof max === "number" ? max : (row) => (valid(row) ? max(row) : 1),
    write: (row, out, pos) => {
      if (valid(row)) return write(row, out, pos)
      out[pos] = code
      return pos + 1
    }
  }
}

const oversizedRow = (
  row: number,
  parameter: number,
  name: string,
  bytes: number,
  limit: number
): AdbcError =>
  adbcError(
    "INVALID_ARGUMENT",
    `parameter ${parameter + 1} (${JSON.stringify(name)}) of row ${row + 1} takes ${bytes} bytes; one row's values ` +
      `must fit in one request packet of ${limit} bytes for parameter data. Larger values are accepted by BLOB, ` +
      `CLOB and NCLOB parameters, which are sent in pieces`
  )

/** INVALID_ARGUMENT naming the column and row (of the whole ingest, which starts the batch at `firstRow`) of `e`. */
const refusal = (fields: ReadonlyArray<Arrow.Field>, e: ValueError, firstRow: number): AdbcError =>
  adbcError("INVALID_ARGUMENT", `column ${e.column + 1} (${JSON.stringify(fields[e.column]!.name)}), row ${firstRow + e.row + 1}: ${e.problem}`)

/**
 * For a batch bound through hdb's writer: its first date, time or timestamp outside what its parameter takes,
 * refused as the encoder refuses it (column, row of the whole ingest, value and range), or undefined. hdb's own
 * refusal ("Cannot set parameter at row: 2. Wrong input for LONGDATE type") names neither the column nor the
 * value, and counts rows from the batch's start.
 *
 * @category constructors
 * @since 0.1.0
 */
export const temporalRefusal = (
  batch: Arrow.RecordBatch,
  parameters: ReadonlyArray<EncodedParameter>,
  firstRow: number
): AdbcError | undefined => {
  const fields = batch.schema.fields
  const scratch = Buffer.allocUnsafe(16)
  for (let c = 0; c < Math.min(fields.length, parameters.length); c++) {
    const data = batch.data.children[c]!
    const t = data.type.typeId
    if (t !== Arrow.Type.Date && t !== Arrow.Type.Time && t !== Arrow.Type.Timestamp) continue
    const normalized = normalize(parameters[c]!.dataType)
    const made = normalized === undefined ? undefined : makerOf(data.type)?.(data, c, parameters[c]!, normalized)
    if (made === undefined || typeof made === "string") continue
    const write = withNulls(made, data, normalized!).write
    try {
      for (let row = 0; row < data.length; row++) write(row, scratch, 0)
    } catch (e) {
      if (e instanceof ValueError) return refusal(fields, e, firstRow)
      throw e
    }
  }
  return undefined
}

/**
 * The encoding of a batch for the statement's parameters (column `c` to parameter `c`), or why it goes through
 * hdb's writer instead. A value a parameter cannot take is named by its row in the whole ingest, the batch starting
 * at row `firstRow` (0-based).
 *
 * @category constructors
 * @since 0.1.0
 */
export const planEncoding = (
  batch: Arrow.RecordBatch,
  parameters: ReadonlyArray<EncodedParameter>,
  firstRow = 0
): EncodePlan => {
  const fields = batch.schema.fields
  if (fields.length !== parameters.length) {
    return { _tag: "Fallback", reason: `${fields.length} columns for ${parameters.length} parameters` }
  }
  const columns: Array<ColumnEncoder> = []
  for (let c = 0; c < fields.length; c++) {
    const data = batch.data.children[c]!
    const parameter = parameters[c]!
    const normalized = normalize(parameter.dataType)
    const maker = makerOf(data.type)
    const made = normalized === undefined
      ? `${typeCodeName(parameter.dataType)} parameters`
      : maker === undefined
      ? `${data.type} columns`
      : maker(data, c, parameter, normalized)
    if (typeof made === "string") {
      return { _tag: "Fallback", reason: `column ${c + 1} (${JSON.stringify(fields[c]!.name)}): ${made}` }
    }
    columns.push(withNulls(made, data, normalized!))
  }
  const writers = columns.map((c) => c.write)
  let fixed = 0
  const varying: Array<(row: number) => number> = []
  for (const c of columns) {
    if (typeof c.maxBytes === "number") fixed += c.maxBytes
    else varying.push(c.maxBytes)
  }
  const width = writers.length
  const rowBound = (row: number): number => {
    let n = fixed
    for (let i = 0; i < varying.length; i++) n += varying[i]!(row)
    return n
  }
  const writeRow = (row: number, out: Buffer, pos: number): number => {
    for (let c = 0; c < width; c++) pos = writers[c]!(row, out, pos)
    return pos
  }
  const tooLarge = (row: number, limit: number): AdbcError => {
    let worst = 0
    let worstBytes = -1
    const probe = Buffer.allocUnsafe(rowBound(row))
    for (let c = 0; c < width; c++) {
      const bytes = writers[c]!(row, probe, 0)
      if (bytes > worstBytes) {
        worst = c
        worstBytes = bytes
      }
    }
    return oversizedRow(row, worst, fields[worst]!.name, worstBytes, limit)
  }
  const encode: PartEncoder = (start, end, limit) => {
    const out = Buffer.allocUnsafe(limit)
    let pos = 0
    let row = start
    try {
      for (; row < end; row++) {
        const bound = rowBound(row)
        if (pos + bound <= limit) {
          pos = writeRow(row, out, pos)
          continue
        }
        // The bound says it might not fit: encode the row on its own and measure it.
        const alone = Buffer.allocUnsafe(bound)
        const bytes = writeRow(row, alone, 0)
        if (pos + bytes > limit) {
          if (pos === 0) return tooLarge(row, limit)
          break
        }
        alone.copy(out, pos, 0, bytes)
        pos += bytes
      }
    } catch (e) {
      if (e instanceof ValueError) return refusal(fields, e, firstRow)
      throw e
    }
    return { rows: row - start, bytes: pos, data: out.subarray(0, pos) }
  }
  return { _tag: "Encoded", encode }
}
