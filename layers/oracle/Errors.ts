/**
 * Oracle and node-oracledb errors as ADBC errors. Server errors carry `ORA-nnnnn` (errorNum); the message keeps the
 * `ORA-nnnnn:` prefix, the vendor code is the number and the SQLSTATE comes from Oracle's own mapping (SQL*Module
 * for Ada Programmer's Guide, appendix "SQLSTATE Codes", docs.oracle.com/cd/E15817_01/appdev.111/b31228/appd.htm,
 * and Oracle Database Provider for DRDA, "Oracle to DRDA error code mapping",
 * docs.oracle.com/cd/E82638_01/drdas/error-code.html). Client-side errors are `NJS-nnn` (node-oracledb
 * lib/errors.js) or Node socket codes. Messages never contain credentials (the core redacts secrets once more).
 *
 * @since 0.1.0
 */
import { type AdbcError, adbcError, AdbcError as AdbcErrorClass, type Status } from "../../src/AdbcError.ts"

/** Status and SQLSTATE of the ORA codes the driver knows. */
const SERVER_CODES: ReadonlyMap<number, readonly [Status, string]> = new Map<number, readonly [Status, string]>([
  [1, ["INTEGRITY", "23000"]], // unique constraint violated
  [1400, ["INTEGRITY", "23000"]], // cannot insert NULL
  [1407, ["INTEGRITY", "23000"]], // cannot update to NULL
  [2290, ["INTEGRITY", "23000"]], // check constraint violated
  [2291, ["INTEGRITY", "23000"]], // parent key not found
  [2292, ["INTEGRITY", "23000"]], // child record found
  [1017, ["UNAUTHENTICATED", "28000"]], // invalid username/password
  [28000, ["UNAUTHENTICATED", "28000"]], // account locked
  [1031, ["UNAUTHORIZED", "42000"]], // insufficient privileges
  [1045, ["UNAUTHORIZED", "42000"]], // lacks CREATE SESSION
  [942, ["NOT_FOUND", "42000"]], // table or view does not exist
  [4043, ["NOT_FOUND", "42000"]], // object does not exist
  [1918, ["NOT_FOUND", "42000"]], // user does not exist
  [2289, ["NOT_FOUND", "42000"]], // sequence does not exist
  [4042, ["NOT_FOUND", "42000"]], // procedure does not exist
  [904, ["INVALID_ARGUMENT", "42000"]], // invalid identifier
  [955, ["ALREADY_EXISTS", "42000"]], // name is already used by an existing object
  [1430, ["ALREADY_EXISTS", "42000"]], // column being added already exists
  [1920, ["ALREADY_EXISTS", "42000"]], // user name conflicts
  [1013, ["CANCELLED", "HY008"]], // user requested cancel of current operation
  [12899, ["INVALID_DATA", "22001"]], // value too large for column
  [1401, ["INVALID_DATA", "22001"]], // inserted value too large for column
  [6502, ["INVALID_DATA", "22001"]], // PL/SQL numeric or value error
  [1438, ["INVALID_DATA", "22003"]], // value larger than specified precision
  [1426, ["INVALID_DATA", "22003"]], // numeric overflow
  [1476, ["INVALID_DATA", "22012"]], // divisor is equal to zero
  [1722, ["INVALID_DATA", "22018"]], // invalid number
  [1858, ["INVALID_DATA", "22008"]], // non-numeric character where numeric expected (datetime)
  [1861, ["INVALID_DATA", "22008"]], // literal does not match format string
  [1830, ["INVALID_DATA", "22008"]], // date format picture ends before converting entire input
  [1841, ["INVALID_DATA", "22008"]], // year out of range
  [1843, ["INVALID_DATA", "22008"]], // not a valid month
  [1847, ["INVALID_DATA", "22008"]], // day of month out of range
  [1805, ["INVALID_DATA", "22008"]], // possible error in date/time operation
  [1873, ["INVALID_DATA", "22015"]], // leading precision of the interval is too small
  [1882, ["INVALID_DATA", "22009"]], // time zone region not found
  [932, ["INVALID_ARGUMENT", "42000"]], // inconsistent datatypes
  [1008, ["INVALID_ARGUMENT", "07004"]], // not all variables bound
  [1036, ["INVALID_ARGUMENT", "07001"]], // illegal variable name/number
  [54, ["INVALID_STATE", "57011"]], // resource busy and acquire with NOWAIT
  [60, ["INVALID_STATE", "40001"]], // deadlock detected
  [8177, ["INVALID_STATE", "40001"]], // can't serialize access
  [1002, ["INVALID_STATE", "24000"]], // fetch out of sequence
  [1001, ["INVALID_STATE", "24000"]], // invalid cursor
  [1453, ["INVALID_STATE", "25000"]], // SET TRANSACTION must be first statement
  [3001, ["NOT_IMPLEMENTED", "0A000"]], // unimplemented feature
  [3113, ["IO", "08006"]], // end-of-file on communication channel
  [3114, ["IO", "08003"]], // not connected to Oracle
  [3135, ["IO", "08006"]], // connection lost contact
  [12505, ["IO", "08001"]], // listener does not know of SID
  [12514, ["IO", "08001"]], // listener does not know of service
  [12516, ["IO", "08004"]], // listener could not find available handler
  [12541, ["IO", "08001"]], // no listener
  [12545, ["IO", "08001"]], // connect failed: target host does not exist
  [12170, ["TIMEOUT", "HYT00"]], // connect timeout
  [51, ["TIMEOUT", "HYT00"]], // timeout waiting for a resource
  [2049, ["TIMEOUT", "HYT00"]], // distributed transaction waiting for lock
  [600, ["INTERNAL", "58015"]], // internal error
  [7445, ["INTERNAL", "58015"]]
])

/** Status of node-oracledb's own NJS-nnn errors (lib/errors.js). */
const CLIENT_CODES: ReadonlyMap<number, Status> = new Map<number, Status>([
  [3, "INVALID_STATE"], // invalid or closed connection
  [4, "INVALID_ARGUMENT"], // invalid value for property
  [5, "INVALID_ARGUMENT"], // invalid value for parameter
  [7, "INVALID_ARGUMENT"], // invalid value for property
  [9, "INVALID_ARGUMENT"], // invalid number of parameters
  [11, "INVALID_ARGUMENT"], // error in argument
  [18, "INVALID_STATE"], // invalid ResultSet
  [44, "INVALID_ARGUMENT"], // bind object must contain one of ...
  [97, "INVALID_ARGUMENT"], // no bind placeholder named
  [98, "INVALID_ARGUMENT"], // bind placeholders and binds mismatch
  [105, "INVALID_ARGUMENT"], // invalid type for conversion
  [500, "IO"], // connection to the Oracle Database was broken
  [501, "IO"], // connection to the Oracle Database was broken
  [503, "IO"], // connection to host could not be established
  [510, "TIMEOUT"], // connection establishment timed out
  [511, "IO"], // connection refused
  [518, "IO"], // cannot connect: service not registered
  [521, "IO"], // connection refused by listener
  [533, "IO"] // connection refused (ORA-12660)
])

/**
 * The ADBC status of an ORA code: the table above, INVALID_ARGUMENT for the other SQL parse errors
 * (ORA-00900..00999), else UNKNOWN.
 *
 * @category mapping
 * @since 0.1.0
 */
export const statusOfCode = (code: number): Status =>
  SERVER_CODES.get(code)?.[0] ?? (code >= 900 && code <= 999 ? "INVALID_ARGUMENT" : "UNKNOWN")

/** The SQLSTATE of an ORA code (`HY000`, general error, when unmapped). @category mapping @since 0.1.0 */
export const sqlStateOfCode = (code: number): string => {
  const known = SERVER_CODES.get(code)?.[1]
  if (known !== undefined) return known
  // ORA-00900..00999: SQL syntax and naming errors (SQLSTATE class 42).
  if (code >= 900 && code <= 999) return "42000"
  return "HY000"
}

/** `ORA-nnnnn` for a code. @category mapping @since 0.1.0 */
export const oraCode = (code: number): string => `ORA-${String(code).padStart(5, "0")}`

/** The ORA number at the start of a message (batch errors of thin mode carry no errorNum). */
const oraInMessage = (message: string): number | undefined => {
  const m = /\bORA-(\d{5})\b/.exec(message)
  return m === null ? undefined : Number(m[1])
}

/**
 * Converts anything node-oracledb reports (ORA- database errors, NJS- client errors, socket errors, TypeErrors of
 * bad bind values) to an {@link AdbcError}.
 *
 * @category mapping
 * @since 0.1.0
 */
export const fromOracleError = (cause: unknown): AdbcError => {
  if (cause instanceof AdbcErrorClass) return cause
  const e = (cause ?? {}) as { errorNum?: unknown; code?: unknown; message?: unknown }
  const message = typeof e.message === "string" ? e.message : String(cause)
  const ora = typeof e.errorNum === "number" && e.errorNum > 0 && (typeof e.code !== "string" || e.code.startsWith("ORA-"))
    ? e.errorNum
    : typeof e.code === "string" && e.code.startsWith("ORA-")
    ? Number(e.code.slice(4))
    : oraInMessage(message)
  if (ora !== undefined) {
    const text = message.startsWith(oraCode(ora)) ? message : `${oraCode(ora)}: ${message}`
    return adbcError(statusOfCode(ora), text, { vendorCode: ora, sqlState: sqlStateOfCode(ora) })
  }
  if (typeof e.code === "string" && e.code.startsWith("NJS-")) {
    const njs = Number(e.code.slice(4))
    return adbcError(CLIENT_CODES.get(njs) ?? "UNKNOWN", message)
  }
  if (typeof e.code === "string" && /^E[A-Z]+$/.test(e.code)) {
    return adbcError(e.code === "ETIMEDOUT" ? "TIMEOUT" : "IO", `${e.code}: ${message}`)
  }
  if (cause instanceof TypeError || cause instanceof RangeError) return adbcError("INVALID_ARGUMENT", message)
  return adbcError("UNKNOWN", message)
}

/** The column an ORA-01400 / ORA-12899 / ORA-01407 message names: the last part of its `"OWNER"."TABLE"."COLUMN"`. */
const columnInMessage = (message: string): string | undefined => {
  const m = /"[^"]*"\."[^"]*"\."([^"]*)"/.exec(message)
  return m === null ? undefined : m[1]
}

/**
 * An executeMany failure as an {@link AdbcError} naming the row (1-based, counted across the whole ingest, whose row
 * `firstRow` (0-based) was the call's first) and, where Oracle's message names it, the column. The row within the
 * call is the `rowOffset` the ingest seam copies from the error's row number field (EncodedBinds.ts); node-oracledb's
 * own `offset` is the position in the SQL text (lib/thin/protocol/protocol.js `_raiseException`), so an error without
 * `rowOffset` names no row. Status, vendor code and SQLSTATE stay those of the ORA code.
 *
 * @category mapping
 * @since 0.1.0
 */
export const fromRowError = (cause: unknown, firstRow: number): AdbcError => {
  const error = fromOracleError(cause)
  const offset = (cause as { rowOffset?: unknown } | null)?.rowOffset
  if (cause instanceof AdbcErrorClass || typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) return error
  const column = columnInMessage(error.message)
  return located(error, `row ${firstRow + offset + 1}${column === undefined ? "" : `, column ${JSON.stringify(column)}`}`)
}

/** `error` with `where` before its message; status, vendor code and SQLSTATE kept. */
const located = (error: AdbcError, where: string): AdbcError =>
  adbcError(error.status, `${where}: ${error.message}`, {
    ...(error.vendorCode === undefined ? {} : { vendorCode: error.vendorCode }),
    ...(error.sqlState === undefined ? {} : { sqlState: error.sqlState })
  })

/**
 * The error of a statement's run for one of several parameter rows, naming that row (1-based).
 *
 * @category mapping
 * @since 0.1.0
 */
export const atParameterRow = (error: AdbcError, row: number): AdbcError => located(error, `parameter row ${row}`)
