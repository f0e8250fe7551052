/**
 * Straight from the wire: executeMany bind rows decoded from their TTC bytes (lib/thin/protocol/messages/withData.js
 * writeBindParamsColumn) into the INSERT's column layouts ({@link BulkRows}), with no JS value per cell. Each writer
 * decodes as `readBind` (params.ts) does, then lays out as bulk-insert.ts `setCell`; anything else is NotExact, so the
 * general path decides.
 */
import type { BulkColumn, BulkRows, ColumnLayout } from "../engine/index.ts"
import { columnInfo } from "../engine/index.ts"
import { TWO_32 } from "../../src/arrow/Words.ts"
import { wireDay } from "../../layers/oracle/WireDays.ts"
import { type CharPadding, NotExact, paddedText, setCell } from "./bulk-insert.ts"
import { type DatetimeBindTexts, type DatetimeText, isTextedDatetimeBind } from "./datetime-bind-texts.ts"
import { datetimeOfOracle, datetimeText } from "./datetime.ts"
import type { BindSpec } from "./statement.ts"
import { Dty } from "./types.ts"
import { LONG_LENGTH_INDICATOR, NULL_LENGTH_INDICATOR } from "./wire.ts"

/** The escape byte that starts a NULL BOOLEAN bind (TNS_ESCAPE_CHAR); 253 is no valid short length otherwise. */
const BOOLEAN_NULL = 0xfd

/** Writes one value's wire bytes `b[start, start + length)` into cell (row, column) of `out`. */
export type CellWriter = (b: Buffer, start: number, length: number, out: BulkRows, column: number, row: number) => void

/** Powers of ten exact as doubles. */
const POW10_EXACT: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i)

/** Sets a 64-bit cell from a safe integer, as two 32-bit halves (no bigint). */
const setSafeInt64 = (out: BulkRows, c: number, row: number, v: number): void => {
  const high = Math.floor(v / TWO_32)
  out.setInt64Parts(c, row, v - high * TWO_32, high)
}

/** The last {@link readNumberParts}: `mantissa × 10^exponent`, the mantissa a number when it is a safe integer. */
let mantissa: number | bigint = 0
let exponent = 0

/** Reads an Oracle NUMBER's bytes (number.ts) into {@link mantissa} and {@link exponent}; NotExact for ±infinity. */
const readNumberParts = (b: Buffer, start: number, length: number): void => {
  let e = b[start]!
  if (length === 1) {
    if (e !== 0x80) throw new NotExact()
    mantissa = 0
    exponent = 0
    return
  }
  const positive = (e & 0x80) !== 0
  if (!positive) e = ~e & 0xff
  let end = start + length
  if (!positive && b[end - 1] === 102) end--
  const pairs = end - start - 1
  exponent = 2 * (e - 193 + 1 - pairs)
  if (pairs <= 7) {
    let d = 0
    for (let i = start + 1; i < end; i++) d = d * 100 + (positive ? b[i]! - 1 : 101 - b[i]!)
    mantissa = positive ? d : -d
    return
  }
  let d = 0n
  for (let i = start + 1; i < end; i++) d = d * 100n + BigInt(positive ? b[i]! - 1 : 101 - b[i]!)
  mantissa = positive ? d : -d
}

/** `mantissa × 10^shift` as an integer (a number when safe); NotExact when digits would be dropped. */
const shifted = (value: number | bigint, shift: number): number | bigint => {
  if (typeof value === "number") {
    if (shift >= 0 && shift < POW10_EXACT.length) {
      const v = value * POW10_EXACT[shift]!
      if (Number.isSafeInteger(v)) return v
    } else if (shift < 0 && -shift < POW10_EXACT.length) {
      const div = POW10_EXACT[-shift]!
      if (value % div !== 0) throw new NotExact()
      return value / div
    }
  }
  const m = BigInt(value)
  if (shift >= 0) return m * 10n ** BigInt(shift)
  const div = 10n ** BigInt(-shift)
  if (m % div !== 0n) throw new NotExact()
  return m / div
}

const numberWriter = (layout: ColumnLayout, scale: number): CellWriter | undefined => {
  switch (layout) {
    case "decimal16":
    case "decimal32":
    case "decimal64":
    case "decimal128":
    case "int64":
    case "int8":
    case "uint8":
    case "int16":
    case "uint16":
    case "int32":
    case "uint32": {
      const fixed = layout.startsWith("decimal") ? scale : 0
      const wide = layout === "decimal64" || layout === "int64"
      return (b, start, length, out, c, row) => {
        readNumberParts(b, start, length)
        const v = shifted(mantissa, exponent + fixed)
        if (typeof v === "bigint") out.setBigInt(c, row, v)
        else if (wide) setSafeInt64(out, c, row, v)
        else if (layout === "decimal128") out.setBigInt(c, row, BigInt(v))
        else out.setNumber(c, row, v)
      }
    }
    case "float32":
    case "float64":
      // as decodeNumberFast (number.ts): one correctly rounded operation on exact operands, else the general path
      return (b, start, length, out, c, row) => {
        readNumberParts(b, start, length)
        if (typeof mantissa !== "number" || Math.abs(mantissa) > 999_999_999_999_999 || Math.abs(exponent) >= POW10_EXACT.length) throw new NotExact()
        const v = exponent >= 0 ? mantissa * POW10_EXACT[exponent]! : mantissa / POW10_EXACT[-exponent]!
        if (exponent > 0 && !Number.isSafeInteger(v)) throw new NotExact()
        out.setNumber(c, row, v)
      }
    default:
      return undefined
  }
}

/** Scratch bytes of one BINARY_DOUBLE / BINARY_FLOAT value. */
const floatBytes = Buffer.alloc(8)

/** BINARY_DOUBLE / BINARY_FLOAT: big-endian IEEE bytes, sign bit flipped for positives, all bits for negatives. */
const readFloat = (b: Buffer, start: number, length: number, size: 4 | 8): number => {
  if (length !== size) throw new NotExact()
  const positive = (b[start]! & 0x80) !== 0
  for (let k = 0; k < size; k++) floatBytes[k] = positive ? b[start + k]! : ~b[start + k]! & 0xff
  if (positive) floatBytes[0] = floatBytes[0]! & 0x7f
  return size === 8 ? floatBytes.readDoubleBE(0) : floatBytes.readFloatBE(0)
}

/**
 * A BINARY_DOUBLE / BINARY_FLOAT bind into a column of `layout`: a float column takes the value as it is; a NUMBER
 * column only a value it holds exactly, as from a bound value ({@link setCell}); any other goes the general path.
 */
const floatWriter = (size: 4 | 8, layout: ColumnLayout, scale: number): CellWriter =>
  layout === "float64" || layout === "float32"
    ? (b, start, length, out, c, row) => out.setNumber(c, row, readFloat(b, start, length, size))
    : (b, start, length, out, c, row) => setCell(out, c, row, layout, scale, readFloat(b, start, length, size))

/** The last {@link readDateParts}: seconds since 1970 and the nanoseconds beside them. */
let seconds = 0
let nanos = 0

/** Reads DATE/TIMESTAMP bytes (datetime.ts microsOfOracle) into {@link seconds} and {@link nanos}. */
const readDateParts = (b: Buffer, start: number, length: number): void => {
  if (length !== 7 && length !== 11) throw new NotExact()
  const days = wireDay(b, start)
  seconds = days * 86_400 + (b[start + 4]! - 1) * 3600 + (b[start + 5]! - 1) * 60 + (b[start + 6]! - 1)
  nanos = length === 11 ? b.readUInt32BE(start + 7) : 0
}

/** Largest |seconds| whose microseconds are a safe integer. */
const SAFE_MICROS_SECONDS = Math.floor(Number.MAX_SAFE_INTEGER / 1_000_000) - 1

/** The writer of DATE / TIMESTAMP binds into `layout`; into a TIMESTAMP(`fraction`) column only values with no more digits. */
const dateWriter = (layout: ColumnLayout, fraction?: number): CellWriter | undefined => {
  // nanoseconds per last digit kept: sub-microsecond digits, or more than a TIMESTAMP(0-5) column keeps (which the
  // general path rounds), take the general path
  const unit = 10 ** (9 - (fraction ?? 6))
  switch (layout) {
    case "timestamp":
      return (b, start, length, out, c, row) => {
        readDateParts(b, start, length)
        if (nanos % unit !== 0) throw new NotExact()
        if (Math.abs(seconds) <= SAFE_MICROS_SECONDS) setSafeInt64(out, c, row, seconds * 1_000_000 + nanos / 1000)
        else out.setBigInt(c, row, BigInt(seconds) * 1_000_000n + BigInt(nanos / 1000))
      }
    case "timestamp_ns":
      return (b, start, length, out, c, row) => {
        readDateParts(b, start, length)
        out.setBigInt(c, row, BigInt(seconds) * 1_000_000_000n + BigInt(nanos))
      }
    case "timestamp_s":
      return (b, start, length, out, c, row) => {
        readDateParts(b, start, length)
        if (nanos !== 0) throw new NotExact()
        setSafeInt64(out, c, row, seconds)
      }
    case "date":
      return (b, start, length, out, c, row) => {
        readDateParts(b, start, length)
        if (nanos !== 0 || seconds % 86_400 !== 0) throw new NotExact()
        out.setNumber(c, row, seconds / 86_400)
      }
    case "varchar":
      // TIMESTAMP(7-9) columns hold the wall clock as text (datetime-functions.ts)
      return (b, start, length, out, c, row) => {
        readDateParts(b, start, length)
        out.setString(c, row, datetimeText({ wall: BigInt(seconds) * 1_000_000_000n + BigInt(nanos) }))
      }
    default:
      return undefined
  }
}

/**
 * The writer of a DATE / TIMESTAMP (`zoned` false) or TIMESTAMP WITH TIME ZONE bind into a VARCHAR2 / NVARCHAR2
 * column: its `text` in the session's format (datetime-bind-texts.ts), as the general path's TO_CHAR writes it.
 */
const datetimeTextWriter = (text: DatetimeText, zoned: boolean): CellWriter =>
  zoned
    ? (b, start, length, out, c, row) => out.setString(c, row, text(datetimeOfOracle(b.subarray(start, start + length))))
    : (b, start, length, out, c, row) => {
        readDateParts(b, start, length)
        out.setString(c, row, text({ wall: BigInt(seconds) * 1_000_000_000n + BigInt(nanos) }))
      }

/**
 * The writer for a bind of `spec` into a column of `layout`, or undefined when only the general path can. Into a
 * `zoned` column (BatchTarget.zoned) only a TIMESTAMP WITH TIME ZONE bind is written, as the general path's
 * `ora_tstz` would store it: the text of its value with its own zone; into a TIMESTAMP(`fraction`) column (0-5,
 * BatchTarget.fractions) only a value with no more fraction digits.
 */
export const cellWriter = (spec: BindSpec, layout: ColumnLayout, scale: number, zoned = false, fraction?: number, padding?: CharPadding): CellWriter | undefined => {
  if (zoned && spec.dty !== Dty.TIMESTAMP_TZ) return undefined
  if (padding !== undefined) {
    // a CHAR / NCHAR column's text, blank-padded (bulk-insert.ts paddedText)
    if (layout !== "varchar" || (spec.dty !== Dty.VARCHAR && spec.dty !== Dty.CHAR && spec.dty !== Dty.LONG)) return undefined
    const national = spec.csfrm === 2
    return (b, start, length, out, c, row) =>
      out.setString(c, row, paddedText(national ? Buffer.from(b.subarray(start, start + length)).swap16().toString("utf16le") : b.toString("utf8", start, start + length), padding))
  }
  switch (spec.dty) {
    case Dty.NUMBER:
    case 3:
      return numberWriter(layout, scale)
    case Dty.BINARY_DOUBLE:
    case Dty.BINARY_FLOAT:
      return layout === "float64" || layout === "float32" || layout.startsWith("decimal") || layout === "int64"
        ? floatWriter(spec.dty === Dty.BINARY_DOUBLE ? 8 : 4, layout, scale)
        : undefined
    case Dty.VARCHAR:
    case Dty.CHAR:
    case Dty.LONG:
      if (layout !== "varchar") return undefined
      if (spec.csfrm === 2) return (b, start, length, out, c, row) => out.setString(c, row, Buffer.from(b.subarray(start, start + length)).swap16().toString("utf16le"))
      return (b, start, length, out, c, row) => out.setBytesFrom(c, row, b, start, length)
    case Dty.RAW:
    case Dty.LONG_RAW:
      return layout === "blob" ? (b, start, length, out, c, row) => out.setBytesFrom(c, row, b, start, length) : undefined
    case Dty.DATE:
    case Dty.TIMESTAMP:
      return dateWriter(layout, fraction)
    case Dty.TIMESTAMP_TZ:
      // TIMESTAMP WITH TIME ZONE columns hold the value's text with its zone (datetime-functions.ts)
      return layout === "varchar" && spec.dty === Dty.TIMESTAMP_TZ
        ? (b, start, length, out, c, row) => out.setString(c, row, datetimeText(datetimeOfOracle(b.subarray(start, start + length))))
        : undefined
    case Dty.BOOLEAN:
      // as readBind: true is the value whose first byte is 1
      return layout === "boolean" ? (b, start, _length, out, c, row) => out.setNumber(c, row, b[start] === 1 ? 1 : 0) : undefined
    default:
      return undefined
  }
}

/**
 * Decodes bind rows of an executeMany straight into {@link BulkRows} for the INSERT's target columns (bind `i` goes
 * to column `i`). Built only when every bind type and column layout pair has a writer.
 */
export class BindRowDecoder {
  private constructor(
    /** Per wire position: the bind (= column) index and its writer. */
    private readonly wire: ReadonlyArray<{ readonly column: number; readonly write: CellWriter }>,
    readonly columns: ReadonlyArray<BulkColumn>
  ) {}

  /**
   * A decoder for binds `specs` sent in wire `order` into `columns` (`zoned`, `fractions`, `padded`, `character` as
   * BatchTarget's; a datetime bind into a `character` column written as its text by `texts`), or undefined when a
   * pair needs the general path.
   */
  static of(
    specs: ReadonlyArray<BindSpec>,
    order: ReadonlyArray<number>,
    columns: ReadonlyArray<BulkColumn>,
    zoned: ReadonlyArray<boolean> = [],
    fractions: ReadonlyArray<number | undefined> = [],
    padded: ReadonlyArray<CharPadding | undefined> = [],
    character: ReadonlyArray<boolean> = [],
    texts?: DatetimeBindTexts
  ): BindRowDecoder | undefined {
    if (specs.length !== columns.length || order.length !== columns.length) return undefined
    const wire: Array<{ column: number; write: CellWriter }> = []
    for (const column of order) {
      const info = columnInfo(columns[column]!.name, columns[column]!.type)
      const spec = specs[column]!
      const text = character[column] === true && info.layout === "varchar" ? texts?.(spec.dty) : undefined
      if (text === undefined && character[column] === true && isTextedDatetimeBind(spec.dty)) return undefined
      const write = text !== undefined ? datetimeTextWriter(text, spec.dty === Dty.TIMESTAMP_TZ) : cellWriter(spec, info.layout, info.scale, zoned[column] === true, fractions[column], padded[column])
      if (write === undefined) return undefined
      wire.push({ column, write })
    }
    return new BindRowDecoder(wire, columns)
  }

  /**
   * Decodes the bind row at `pos` of `b` (after its ROW_DATA byte) into `row` of `out` and returns the position after
   * it, or -1 when `b` ends inside the row (cells set so far are set again when the row is decoded whole). Throws
   * NotExact when a value needs the general path and BulkInsertError for a value the column refuses.
   */
  decodeRow(b: Buffer, pos: number, out: BulkRows, row: number): number {
    const end = b.length
    for (const { column, write } of this.wire) {
      if (pos >= end) return -1
      const n = b[pos++]!
      if (n === 0 || n === NULL_LENGTH_INDICATOR) {
        out.setNull(column, row)
        continue
      }
      if (n === BOOLEAN_NULL) {
        // a NULL BOOLEAN: the escape byte and 1 (withData.js writeBindParamsColumn)
        if (pos >= end) return -1
        pos++
        out.setNull(column, row)
        continue
      }
      if (n !== LONG_LENGTH_INDICATOR) {
        if (pos + n > end) return -1
        write(b, pos, n, out, column, row)
        pos += n
        continue
      }
      // chunked value: UB4 chunk lengths, a zero length ends it
      const parts: Array<Buffer> = []
      for (;;) {
        if (pos >= end) return -1
        const size = b[pos++]!
        if (size === 0) break
        if (size > 4) throw new NotExact()
        if (pos + size > end) return -1
        let len = 0
        for (let i = 0; i < size; i++) len = len * 256 + b[pos++]!
        if (pos + len > end) return -1
        parts.push(b.subarray(pos, pos + len))
        pos += len
      }
      const value = Buffer.concat(parts)
      write(value, 0, value.length, out, column, row)
    }
    return pos
  }
}
