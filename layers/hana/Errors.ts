/**
 * HANA and hdb errors as ADBC errors. Server errors carry a numeric code and SQLSTATE (SqlError); client errors a
 * string code (EHDB*, or Node socket codes). Messages come from the server or hdb and never contain credentials
 * (the core redacts secrets from every error once more).
 *
 * Codes: SAP HANA SQL Reference, "SQL Error Codes" (help.sap.com/docs/SAP_HANA_PLATFORM, e.g. 259 invalid table name,
 * 288 cannot use duplicate table name, 301 unique constraint violated, 287 cannot insert NULL, 10 authentication
 * failed, 258 insufficient privilege, 257 sql syntax error, 139 current operation cancelled by request).
 *
 * @since 0.1.0
 */
import { type AdbcError, adbcError, AdbcError as AdbcErrorClass, type Status } from "../../src/AdbcError.ts"

const SERVER_CODES: ReadonlyMap<number, Status> = new Map<number, Status>([
  [10, "UNAUTHENTICATED"],
  [414, "UNAUTHENTICATED"],
  [663, "UNAUTHENTICATED"],
  [258, "UNAUTHORIZED"],
  [7, "NOT_IMPLEMENTED"], // ERR_FEATURE_NOT_SUPPORTED
  [257, "INVALID_ARGUMENT"],
  [260, "INVALID_ARGUMENT"],
  [264, "INVALID_ARGUMENT"], // invalid datatype
  [269, "INVALID_ARGUMENT"], // too many values
  [270, "INVALID_ARGUMENT"], // not enough values
  [292, "INVALID_ARGUMENT"], // wrong number of arguments
  [293, "INVALID_ARGUMENT"], // argument type mismatch
  [266, "INVALID_ARGUMENT"],
  [268, "INVALID_ARGUMENT"],
  [328, "INVALID_ARGUMENT"],
  [259, "NOT_FOUND"],
  [261, "NOT_FOUND"], // invalid index name
  [362, "NOT_FOUND"],
  [397, "NOT_FOUND"],
  [288, "ALREADY_EXISTS"],
  [289, "ALREADY_EXISTS"], // duplicate index name
  [386, "ALREADY_EXISTS"],
  [301, "INTEGRITY"],
  [287, "INTEGRITY"],
  [461, "INTEGRITY"],
  [462, "INTEGRITY"],
  [463, "INTEGRITY"],
  // 274 ERR_SQL_INS_LARGE_VALUE "inserted value too large for column" (SAP HANA SQL Reference, SQL Error Codes,
  // help.sap.com loio20a78d3275191014b41bae7c4a46d835): e.g. a string longer than a created NVARCHAR(5000)
  [274, "INVALID_DATA"],
  [314, "INVALID_DATA"],
  [339, "INVALID_DATA"],
  [303, "INVALID_DATA"],
  [139, "CANCELLED"],
  [131, "TIMEOUT"],
  [133, "UNKNOWN"],
  [4, "INTERNAL"]
])

const CLIENT_CODES: ReadonlyMap<string, Status> = new Map<string, Status>([
  ["EHDBCLOSE", "IO"],
  ["EHDBOPENCONN", "IO"],
  ["EHDBINIT", "IO"],
  ["ECONNREFUSED", "IO"],
  ["ECONNRESET", "IO"],
  ["EPIPE", "IO"],
  ["ENOTFOUND", "IO"],
  ["ETIMEDOUT", "TIMEOUT"],
  ["EHDBTIMEOUT", "TIMEOUT"],
  ["EHDBNOAUTHMETH", "UNAUTHENTICATED"],
  ["EHDBSERVERAUTH", "UNAUTHENTICATED"],
  ["EHDBAUTHPROTOCOL", "UNAUTHENTICATED"],
  ["EHDBAUTHCLIENTNONCE", "UNAUTHENTICATED"],
  ["EHDBAUTHCAPABILITIES", "UNAUTHENTICATED"],
  ["EHDBMSGPARSE", "INTERNAL"],
  ["EHDBCOMMIT", "UNKNOWN"],
  ["EHDBROLLBACK", "UNKNOWN"],
  ["EHDBCONNECT", "INVALID_STATE"],
  ["EHDBTX", "INVALID_STATE"]
])

/**
 * ADBC statuses by SQLSTATE class (the first two characters), for server codes the table above does not name.
 * Classes from ISO/IEC 9075-2 (SQL:2016) section 24.1 "SQLSTATE"; HANA reports many errors with the generic class
 * HY (CLI-specific condition), which stays UNKNOWN.
 */
const SQLSTATE_CLASSES: ReadonlyMap<string, Status> = new Map<string, Status>([
  ["08", "IO"], // connection exception
  ["0A", "NOT_IMPLEMENTED"], // feature not supported
  ["21", "INVALID_ARGUMENT"], // cardinality violation
  ["22", "INVALID_DATA"], // data exception
  ["23", "INTEGRITY"], // integrity constraint violation
  ["24", "INVALID_STATE"], // invalid cursor state
  ["25", "INVALID_STATE"], // invalid transaction state
  ["28", "UNAUTHENTICATED"], // invalid authorization specification
  ["40", "INVALID_STATE"], // transaction rollback (serialization failure, deadlock)
  ["42", "INVALID_ARGUMENT"], // syntax error or access rule violation
  ["44", "INTEGRITY"], // WITH CHECK OPTION violation
  ["57", "CANCELLED"], // operator intervention
  ["HYT", "TIMEOUT"] // HYT00 / HYT01: timeout expired
])

/**
 * The ADBC status of a HANA error code; an unmapped code falls back on the class of its SQLSTATE, then UNKNOWN.
 *
 * @category mapping
 * @since 0.1.0
 */
export const statusOfCode = (code: number, sqlState?: string | undefined): Status =>
  SERVER_CODES.get(code) ?? (sqlState === undefined ? undefined : statusOfSqlState(sqlState)) ?? "UNKNOWN"

/**
 * The ADBC status of a SQLSTATE's class, or undefined when the class says nothing more specific than UNKNOWN.
 *
 * @category mapping
 * @since 0.1.0
 */
export const statusOfSqlState = (sqlState: string): Status | undefined =>
  SQLSTATE_CLASSES.get(sqlState.slice(0, 3).toUpperCase()) ?? SQLSTATE_CLASSES.get(sqlState.slice(0, 2).toUpperCase())

/**
 * Converts anything hdb reports (SqlError, client Error, thrown TypeError for a bad parameter value) to an
 * {@link AdbcError}.
 *
 * @category mapping
 * @since 0.1.0
 */
export const fromHdbError = (cause: unknown): AdbcError => {
  if (cause instanceof AdbcErrorClass) return cause
  const e = (cause ?? {}) as { code?: unknown; sqlState?: unknown; message?: unknown }
  const message = typeof e.message === "string" ? e.message : String(cause)
  const sqlState = typeof e.sqlState === "string" && e.sqlState.trim() !== "" ? e.sqlState : undefined
  if (typeof e.code === "number") {
    return adbcError(statusOfCode(e.code, sqlState), `[${e.code}] ${message}`, { vendorCode: e.code, sqlState })
  }
  if (typeof e.code === "string") {
    const status = CLIENT_CODES.get(e.code) ?? (/^E[A-Z]+$/.test(e.code) && !e.code.startsWith("EHDB") ? "IO" : "UNKNOWN")
    return adbcError(status, `${e.code}: ${message}`, { sqlState })
  }
  // hdb's parameter writer (lib/protocol/Writer.js, ExecuteTask.js): "Cannot set parameter at row: N. …",
  // "Wrong input for TINYINT type", "Argument must be a string", "Invalid length or indicator value …".
  if (
    cause instanceof TypeError || cause instanceof RangeError ||
    /Cannot set parameter|Wrong input for|Invalid input parameter|Argument must be|Invalid length or indicator/.test(message)
  ) {
    return adbcError("INVALID_ARGUMENT", message)
  }
  return adbcError("UNKNOWN", message)
}
