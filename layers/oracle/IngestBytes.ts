/**
 * The ingest fast path's string and binary column encoders: string / large_string as VARCHAR (the database
 * character set AL32UTF8 is UTF-8, so the Arrow bytes go as they are; Oracle converts them to the NVARCHAR2 column),
 * binary / large_binary / fixed_size_binary as RAW, string_view and binary_view read through apache-arrow. Values
 * with 0 to 252 bytes have a one-byte length; longer ones the long form (0xFE, chunks of at most 65,536 bytes each
 * after its UB4 length, UB4 0); length 0 is NULL, which is also how Oracle stores an empty string.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Result } from "effect"
import { type AdbcError, invalidArgument } from "../../src/AdbcError.ts"
import { columnCells } from "../common/ArrowCells.ts"
import { type ColumnEncoder, isValid, validity, writeNull } from "./IngestColumns.ts"

/**
 * The limit of a string column the target has: values longer than `max` UTF-16 code units are refused.
 *
 * @category models
 * @since 0.1.0
 */
export interface StringLimit {
  readonly max: number
  /** The column's Oracle type, for the message (`NVARCHAR2(2000)`). */
  readonly typeName: string
}

/**
 * The character limit of a string column from its Oracle type name (`NVARCHAR2(2000)`, `NCHAR(10)`,
 * `VARCHAR2(40 CHAR)`, `VARCHAR2(40)`), or undefined for other types. VARCHAR2 without CHAR counts bytes in Oracle;
 * a value within the limit in characters but not in bytes is then refused by the database with ORA-12899, whose
 * widths are in characters under character length semantics, else in bytes
 * (https://docs.oracle.com/en/error-help/db/ora-12899/).
 *
 * @category encoding
 * @since 0.1.0
 */
export const stringLimitOfType = (typeName: string): StringLimit | undefined => {
  const m = /^(?:N?VARCHAR2|N?CHAR)\((\d+)(?: (?:CHAR|BYTE))?\)$/.exec(typeName)
  return m === null ? undefined : { max: Number(m[1]), typeName }
}

const SHORT_MAX = 252
/**
 * Values up to this many bytes are copied byte by byte: cheaper than a `subarray` view (an object per value) and a
 * native `set` (31-byte strings: 28 against 142 ms per 1,000,000 values).
 */
const COPY_LOOP_MAX = 64
const LONG_INDICATOR = 0xfe
const CHUNK = 65_536

/** Bytes the length prefix (and chunk framing) of a value of `n` bytes adds. */
const framing = (n: number): number => (n <= SHORT_MAX ? 1 : 2 + Math.ceil(n / CHUNK) * 5)

/** Writes UB4 `v` as oracledb does (buffer.js `writeUB4`: a length byte 0, 1, 2 or 4, then big-endian bytes). */
const writeUB4 = (v: number, out: Uint8Array, pos: number): number => {
  if (v === 0) {
    out[pos] = 0
    return pos + 1
  }
  const n = v <= 0xff ? 1 : v <= 0xffff ? 2 : 4
  out[pos++] = n
  for (let k = n - 1; k >= 0; k--) out[pos++] = (v >>> (8 * k)) & 0xff
  return pos
}

/** Writes `source[start, end)` with its length (the long form above 252 bytes); an empty value is NULL. */
const writeBytes = (source: Uint8Array, start: number, end: number, out: Uint8Array, pos: number): number => {
  const n = end - start
  if (n <= SHORT_MAX) {
    out[pos++] = n
    if (n <= COPY_LOOP_MAX) for (let k = start; k < end; k++) out[pos++] = source[k]!
    else {
      out.set(source.subarray(start, end), pos)
      pos += n
    }
    return pos
  }
  out[pos++] = LONG_INDICATOR
  for (let k = start; k < end; k += CHUNK) {
    const stop = Math.min(end, k + CHUNK)
    pos = writeUB4(stop - k, out, pos)
    out.set(source.subarray(k, stop), pos)
    pos += stop - k
  }
  return writeUB4(0, out, pos)
}

/** Number of UTF-16 code units of the UTF-8 bytes `b[start, end)` (a 4-byte sequence is a surrogate pair). */
const utf16Length = (b: Uint8Array, start: number, end: number): number => {
  let n = 0
  for (let k = start; k < end; k++) {
    const c = b[k]!
    if ((c & 0xc0) !== 0x80) n += c >= 0xf0 ? 2 : 1
  }
  return n
}

/**
 * The error of a string longer than its column accepts: INVALID_ARGUMENT naming column, row (1-based), length
 * and limit.
 *
 * @category errors
 * @since 0.1.0
 */
export const stringTooLong = (field: Arrow.Field, row: number, length: number, limit: StringLimit): AdbcError =>
  invalidArgument(
    `column ${JSON.stringify(field.name)}: row ${row + 1} holds ${length} characters, more than the ${limit.max} its ` +
      `${limit.typeName} column accepts (values are never truncated); shorten the value or append to a table whose ` +
      `column is wide enough`
  )

/**
 * Variable-width columns (strings and bytes with offsets): the bytes straight from the Arrow buffer. Strings are
 * checked against `limit` (refused naming column, row, length and limit) before anything is sent.
 */
export const offsetsEncoder = (
  field: Arrow.Field,
  data: Arrow.Data,
  type: "VARCHAR" | "RAW",
  limit: StringLimit | undefined,
  firstRow: number
): Result.Result<ColumnEncoder, AdbcError> => {
  const bitmap = validity(data)
  const offset = data.offset
  const bytes = data.values as Uint8Array
  const large = data.type.typeId === Arrow.Type.LargeUtf8 || data.type.typeId === Arrow.Type.LargeBinary
  const offsets = large ? toNumberOffsets(data.valueOffsets as unknown as BigInt64Array) : (data.valueOffsets as Int32Array)
  let longest = 1
  for (let i = 0; i < data.length; i++) {
    const n = offsets[i + 1]! - offsets[i]!
    if (limit !== undefined && n > limit.max && isValid(bitmap, offset, i)) {
      // a character takes at least one byte: only values of more bytes than the limit need counting
      const chars = utf16Length(bytes, offsets[i]!, offsets[i + 1]!)
      if (chars > limit.max) return Result.fail(stringTooLong(field, firstRow + i, chars, limit))
    }
    if (n > longest) longest = n
  }
  return Result.succeed({
    type,
    maxSize: longest,
    bound: (start, end) => offsets[end]! - offsets[start]! + (end - start) * framing(longest),
    write: (i, out, pos) => (isValid(bitmap, offset, i) ? writeBytes(bytes, offsets[i]!, offsets[i + 1]!, out, pos) : writeNull(out, pos))
  })
}

const toNumberOffsets = (offsets: BigInt64Array): Float64Array => Float64Array.from(offsets, Number)

/** fixed_size_binary: `byteWidth` bytes per value. */
export const fixedBinaryEncoder = (data: Arrow.Data): ColumnEncoder => {
  const width = (data.type as Arrow.FixedSizeBinary).byteWidth
  const bitmap = validity(data)
  const offset = data.offset
  const bytes = data.values as Uint8Array
  return {
    type: "RAW",
    maxSize: Math.max(1, width),
    bound: (start, end) => (end - start) * (width + framing(width)),
    write: (i, out, pos) => (isValid(bitmap, offset, i) ? writeBytes(bytes, i * width, (i + 1) * width, out, pos) : writeNull(out, pos))
  }
}

/** string_view / binary_view: their values read through apache-arrow (no buffer of contiguous bytes to copy). */
export const viewEncoder = (
  field: Arrow.Field,
  data: Arrow.Data,
  limit: StringLimit | undefined,
  firstRow: number
): Result.Result<ColumnEncoder, AdbcError> => {
  const cells = columnCells(data)
  const values: Array<Uint8Array | null> = new Array(data.length)
  let longest = 1
  let total = 0
  for (let i = 0; i < data.length; i++) {
    const v = cells.get(i) as string | Uint8Array | null
    if (v === null) {
      values[i] = null
      continue
    }
    if (typeof v === "string" && limit !== undefined && v.length > limit.max) return Result.fail(stringTooLong(field, firstRow + i, v.length, limit))
    const b = typeof v === "string" ? Buffer.from(v) : v
    values[i] = b
    longest = Math.max(longest, b.length)
    total += b.length
  }
  return Result.succeed({
    type: cells.kind === "string" ? "VARCHAR" : "RAW",
    maxSize: longest,
    bound: (start, end) => total + (end - start) * framing(longest),
    write: (i, out, pos) => {
      const v = values[i]
      return v === null || v === undefined ? writeNull(out, pos) : writeBytes(v, 0, v.length, out, pos)
    }
  })
}
