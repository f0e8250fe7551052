/**
 * Arrow parameter batches to the JS values `hdb` binds (lib/protocol/Writer.js accepts, per parameter type:
 * numbers or numeric strings for integers — never bigints —, text or numbers for DECIMAL/FIXED, strings for
 * character types, Buffers (not plain Uint8Arrays) for binary, date/time text for temporal types, booleans).
 *
 * The driver's Arrow → database mapping for binding (layers/hana/README.md): binary kinds → VARBINARY, bool → BOOLEAN, date32 → DATE,
 * decimal128 → DECIMAL, double → DOUBLE, float → REAL, int16/32/64 → SMALLINT/INT/BIGINT, strings → VARCHAR,
 * time32/64 → TIME, timestamps → TIMESTAMP (values with a time zone are bound as UTC wall-clock time).
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { type AdbcError, adbcError } from "../../src/AdbcError.ts"
import {
  type ColumnCells,
  columnCells,
  formatEpochDay,
  formatEpochTicks,
  formatTimeOfDay,
  UnsupportedColumnError
} from "../common/ArrowCells.ts"
import { CHARACTER_TYPES, TypeCode } from "./ReadTypes.ts"

/** A parameter's target, as far as value conversion cares. */
type Target = "string" | "binary" | "float" | "integer" | "decimal" | "boolean" | "temporal" | "other"

const targetOf = (typeCode: number | undefined): Target => {
  if (typeCode !== undefined && CHARACTER_TYPES.has(typeCode)) return "string"
  switch (typeCode) {
    case TypeCode.BINARY:
    case TypeCode.VARBINARY:
    case TypeCode.BSTRING:
    case TypeCode.BLOB:
    case TypeCode.LOCATOR:
    case TypeCode.BINTEXT:
    case TypeCode.ST_GEOMETRY:
    case TypeCode.ST_POINT:
      return "binary"
    case TypeCode.REAL:
    case TypeCode.DOUBLE:
      return "float"
    case TypeCode.TINYINT:
    case TypeCode.SMALLINT:
    case TypeCode.INT:
    case TypeCode.BIGINT:
      return "integer"
    case TypeCode.DECIMAL:
    case TypeCode.FIXED8:
    case TypeCode.FIXED12:
    case TypeCode.FIXED16:
      return "decimal"
    case TypeCode.BOOLEAN:
      return "boolean"
    case TypeCode.DATE:
    case TypeCode.TIME:
    case TypeCode.TIMESTAMP:
    case TypeCode.DAYDATE:
    case TypeCode.SECONDTIME:
    case TypeCode.LONGDATE:
    case TypeCode.SECONDDATE:
      return "temporal"
    default:
      return "other"
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)
const toBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/** A function reading row `i` of one column as the value hdb binds for a parameter of the given type. */
type ValueReader = (i: number) => unknown

const converter = (cells: ColumnCells, typeCode: number | undefined): ValueReader => {
  const target = targetOf(typeCode)
  switch (cells.kind) {
    case "number":
      return target === "string" ? (i) => nullOr(cells.get(i), String) : cells.get
    case "bigint":
      return (i) => {
        const v = cells.get(i)
        if (v === null) return null
        if (typeof v === "number") return target === "string" ? String(v) : v
        if (target === "float") return Number(v)
        return v <= MAX_SAFE && v >= -MAX_SAFE && target !== "string" ? Number(v) : v.toString()
      }
    case "decimal":
      if (target === "float") return (i) => nullOr(cells.get(i), Number)
      // hdb's writer refuses zero written without an exponent at FIXED scale 38 (Writer.js toFixedDecimal counts its
      // 0 as a 39th digit); with one it takes zero at every scale
      if (typeCode === TypeCode.FIXED8 || typeCode === TypeCode.FIXED12 || typeCode === TypeCode.FIXED16) {
        return (i) => nullOr(cells.get(i), (text) => (/^[-+]?0*\.?0*$/.test(text) ? "0E-38" : text))
      }
      return cells.get
    case "bool":
      if (target === "string") return (i) => nullOr(cells.get(i), (b) => (b ? "TRUE" : "FALSE"))
      if (target === "integer" || target === "float" || target === "decimal") {
        return (i) => nullOr(cells.get(i), (b) => (b ? 1 : 0))
      }
      return cells.get
    case "string":
      return target === "binary" ? (i) => nullOr(cells.get(i), (s) => Buffer.from(s, "utf8")) : cells.get
    case "binary":
      return (i) => nullOr(cells.get(i), toBuffer)
    case "date": {
      let lastDay = Number.NaN
      let lastText = ""
      return (i) => {
        const day = cells.get(i)
        if (day === null) return null
        if (day !== lastDay) {
          lastDay = day
          lastText = formatEpochDay(day)
        }
        return lastText
      }
    }
    case "time":
      return (i) => nullOr(cells.get(i), formatTimeOfDay)
    case "timestamp": {
      const tps = cells.ticksPerSecond
      return (i) => nullOr(cells.getRaw(i), (ticks) => formatEpochTicks(ticks, tps))
    }
  }
}

const nullOr = <A, B>(value: A | null, f: (a: A) => B): B | null => (value === null ? null : f(value))

/**
 * Converts rows `[start, end)` of a batch to hdb parameter rows, column `c` bound to parameter `c`. The returned
 * arrays are reused by the next call: hand them to hdb and let the EXECUTE finish before converting more.
 *
 * @category conversion
 * @since 0.1.0
 */
export interface RowConverter {
  readonly rows: (start: number, end: number) => Array<Array<unknown>>
}

/**
 * Builds the row converter of a batch for parameters of the given hdb type codes (undefined = unknown).
 * Columns of a type that cannot be bound fail NOT_IMPLEMENTED naming the column.
 *
 * @category conversion
 * @since 0.1.0
 */
export const rowConverter = (
  batch: Arrow.RecordBatch,
  parameterTypes: ReadonlyArray<number | undefined>
): { readonly ok: true; readonly converter: RowConverter } | { readonly ok: false; readonly error: AdbcError } => {
  const readers: Array<ValueReader> = []
  const fields = batch.schema.fields
  for (let c = 0; c < fields.length; c++) {
    try {
      readers.push(converter(columnCells(batch.data.children[c]!), parameterTypes[c]))
    } catch (e) {
      if (e instanceof UnsupportedColumnError) {
        return {
          ok: false,
          error: adbcError("NOT_IMPLEMENTED", `parameter ${c + 1} (${JSON.stringify(fields[c]!.name)}): ${e.message}`)
        }
      }
      throw e
    }
  }
  const width = readers.length
  // Row arrays are reused from call to call: an ingest of millions of rows then allocates only the values.
  let out: Array<Array<unknown>> = []
  return {
    ok: true,
    converter: {
      rows: (start, end) => {
        const n = end - start
        if (out.length !== n) {
          const next = new Array<Array<unknown>>(n)
          for (let r = 0; r < n; r++) next[r] = out[r] ?? new Array<unknown>(width)
          out = next
        }
        for (let r = start; r < end; r++) {
          const row = out[r - start]!
          for (let c = 0; c < width; c++) row[c] = readers[c]!(r)
        }
        return out
      }
    }
  }
}

/** Whether a parameter type is sent in pieces after the EXECUTE (WRITE_LOB), so its size is not bound by a packet. */
const isLob = (typeCode: number | undefined): boolean =>
  typeCode === TypeCode.BLOB || typeCode === TypeCode.CLOB || typeCode === TypeCode.NCLOB ||
  typeCode === TypeCode.TEXT || typeCode === TypeCode.BINTEXT || typeCode === TypeCode.LOCATOR ||
  typeCode === TypeCode.NLOCATOR

/**
 * Bytes of a request packet not available to parameter values: hdb subtracts the packet, segment and part headers,
 * the statement context, client info (lib/protocol/Connection.js `getAvailableSize`) and the statement id
 * (ExecuteTask.js); this is a margin above their sum. Each value also has a type and length header of up to 5 bytes.
 */
const PACKET_OVERHEAD = 1024
const VALUE_HEADER = 5

const oversized = (parameter: number, name: string, row: number, bytes: number, packetBytes: number): AdbcError =>
  adbcError(
    "INVALID_ARGUMENT",
    `parameter ${parameter + 1} (${JSON.stringify(name)}) of row ${row + 1} takes ${bytes} bytes; one row's values ` +
      `must fit in one request packet of ${packetBytes} bytes (hdb packetSizeLimit). Larger values are accepted by ` +
      `BLOB, CLOB and NCLOB parameters, which are sent in pieces`
  )

/** The byte length of each row's value of a variable-width (text or binary) column, from its Arrow offsets. */
const valueLengths = (data: Arrow.Data): ((row: number) => number) | undefined => {
  switch (data.type.typeId) {
    case Arrow.Type.Utf8:
    case Arrow.Type.Binary: {
      const offsets = data.valueOffsets as Int32Array
      return (row) => offsets[row + 1]! - offsets[row]!
    }
    case Arrow.Type.LargeUtf8:
    case Arrow.Type.LargeBinary: {
      const offsets = data.valueOffsets as unknown as BigInt64Array
      return (row) => Number(offsets[row + 1]! - offsets[row]!)
    }
    default:
      return undefined
  }
}

/**
 * Checks, before anything is sent, that each row of a batch fits in one request packet: hdb sends a row's non-LOB
 * values in one packet and otherwise fails "maximum packet size exceeded" after earlier packets of the same EXECUTE
 * were already sent. Returns INVALID_ARGUMENT naming the row, its largest parameter (position and name), its size and
 * the limit, or undefined when every row fits. Text and binary columns are sized from their Arrow offsets.
 *
 * @category conversion
 * @since 0.1.0
 */
export const oversizedRow = (
  batch: Arrow.RecordBatch,
  parameterTypes: ReadonlyArray<number | undefined>,
  packetBytes: number
): AdbcError | undefined => {
  const varying: Array<{ readonly column: number; readonly length: (row: number) => number }> = []
  let fixed = 0
  batch.data.children.forEach((data, column) => {
    if (isLob(parameterTypes[column])) return
    const length = valueLengths(data)
    if (length === undefined) fixed += 16 + VALUE_HEADER
    else varying.push({ column, length })
  })
  const available = packetBytes - PACKET_OVERHEAD - fixed
  if (varying.length === 0) return undefined
  for (let row = 0; row < batch.numRows; row++) {
    let total = 0
    for (const v of varying) total += v.length(row) + VALUE_HEADER
    if (total > available) {
      let worst = varying[0]!
      for (const v of varying) if (v.length(row) > worst.length(row)) worst = v
      return oversized(worst.column, batch.schema.fields[worst.column]!.name, row, worst.length(row), packetBytes)
    }
  }
  return undefined
}

/** Request bytes a bound value takes, roughly: text as UTF-8 (as long as CESU-8 outside surrogate pairs). */
const valueBytes = (value: unknown): number =>
  typeof value === "string" ? Buffer.byteLength(value) : Buffer.isBuffer(value) ? value.length : 16

/**
 * Names the parameter behind hdb's "maximum packet size exceeded" (lib/protocol/ExecuteTask.js `getParameters`
 * fails that way when one row's values do not fit in one request packet), for rows {@link oversizedRow} let pass:
 * the error becomes INVALID_ARGUMENT naming the row, the parameter (position and name), its size and the limit.
 * Other errors pass unchanged.
 *
 * @category conversion
 * @since 0.1.0
 */
export const nameOversizedParameter = (
  error: AdbcError,
  input: {
    readonly rows: ReadonlyArray<ReadonlyArray<unknown>>
    /** Row number (0-based) of `rows[0]` in the bound data. */
    readonly firstRow: number
    readonly names: ReadonlyArray<string>
    readonly parameterTypes: ReadonlyArray<number | undefined>
    readonly packetBytes: number
  }
): AdbcError => {
  if (!error.message.includes("maximum packet size exceeded")) return error
  let worst = { row: 0, parameter: 0, bytes: -1 }
  input.rows.forEach((row, r) =>
    row.forEach((value, p) => {
      const bytes = isLob(input.parameterTypes[p]) ? 0 : valueBytes(value)
      if (bytes > worst.bytes) worst = { row: r, parameter: p, bytes }
    })
  )
  const name = input.names[worst.parameter] ?? ""
  return oversized(worst.parameter, name, input.firstRow + worst.row, worst.bytes, input.packetBytes)
}
