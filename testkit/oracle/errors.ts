/**
 * ORA- errors raised by the Oracle test server, and mapping of DuckDB failures onto them.
 *
 * Message texts follow the Oracle Database Error Messages reference
 * (https://docs.oracle.com/en/error-help/db/ora-00942/ etc.). Oracle 23ai words some messages differently
 * (ORA-01017) and names the object in others (ORA-00942); the 19c layout keeps the classic texts.
 */
import { fromDuckDbBinder } from "./binder-errors.ts"

/** Server release whose message layout is reproduced. */
export type OracleVersion = "19c" | "23ai"

/** An error the server reports to the client as an end-of-call error with an ORA- number. */
export class OraError extends Error {
  constructor(
    readonly code: number,
    readonly detail: string,
    /** Position in the SQL text (bytes), when known. */
    readonly position = 0
  ) {
    super(`ORA-${String(code).padStart(5, "0")}: ${detail}`)
  }

  /**
   * The message text as sent on the wire. The layouts differ in the message texts themselves (see `ora`);
   * the "Help: https://docs.oracle.com/error-help/db/ora-NNNNN/" line is added by node-oracledb thin itself
   * (lib/errors.js transformErr), so the server does not send it.
   */
  text(_version: OracleVersion): string {
    return `ORA-${String(this.code).padStart(5, "0")}: ${this.detail}`
  }
}

const q = (s: string) => `"${s}"`

/** Constructors for the errors the server raises itself. */
export const ora = {
  invalidSql: () => new OraError(900, "invalid SQL statement"),
  notProperlyEnded: () => new OraError(933, "SQL command not properly ended"),
  invalidIdentifier: (name: string) => new OraError(904, `${q(name)}: invalid identifier`),
  tableNotFound: (version: OracleVersion, schema?: string, name?: string) =>
    version === "23ai" && name !== undefined
      ? new OraError(942, `table or view ${schema !== undefined ? `${q(schema)}.` : ""}${q(name)} does not exist`)
      : new OraError(942, "table or view does not exist"),
  nameInUse: () => new OraError(955, "name is already used by an existing object"),
  uniqueViolated: (constraint: string) => new OraError(1, `unique constraint (${constraint}) violated`),
  cannotInsertNull: (path: string) => new OraError(1400, `cannot insert NULL into (${path})`),
  logonDenied: (version: OracleVersion) =>
    version === "23ai"
      ? new OraError(1017, "invalid credential or not authorized; logon denied")
      : new OraError(1017, "invalid username/password; logon denied"),
  cancelled: () => new OraError(1013, "user requested cancel of current operation"),
  noDataFound: () => new OraError(1403, "no data found"),
  invalidNumber: () => new OraError(1722, "invalid number"),
  literalMismatch: () => new OraError(1861, "literal does not match format string"),
  notAllBound: () => new OraError(1008, "not all variables bound"),
  unimplemented: (what: string) => new OraError(3001, `unimplemented feature: ${what}`),
  missingExpression: () => new OraError(936, "missing expression"),
  fetchOutOfSequence: () => new OraError(1002, "fetch out of sequence"),
  invalidCursor: () => new OraError(1001, "invalid cursor"),
  userNotFound: (user: string) => new OraError(1918, `user '${user}' does not exist`),
  plsql: (detail: string) => new OraError(6550, `line 1, column 1:\nPLS-00103: ${detail}`),
  inconsistentTypes: (detail: string) => new OraError(932, `inconsistent datatypes: ${detail}`),
  valueTooLarge: (detail: string) => new OraError(12899, `value too large for column ${detail}`),
  internal: (detail: string) => new OraError(604, `error occurred at recursive SQL level 1: ${detail}`)
}

/**
 * Maps a DuckDB error message onto the closest ORA- error. Names are reported with `decodeName`
 * (DuckDB catalog name -> Oracle name).
 */
export const fromDuckDb = (
  message: string,
  version: OracleVersion,
  decodeName: (n: string) => string,
  schema: string
): OraError => {
  let m: RegExpMatchArray | null
  if (/Interrupt/i.test(message)) return ora.cancelled()
  // errors raised on purpose by the server's SQL macros carry their ORA- text
  // (a failed CHECK quotes its expression, which holds the ORA- text too: take the raised one, "(Error: ORA-...)")
  if ((m = message.match(/\(Error: ORA-(\d{5}): ([^\n]*)\)\s*$/m)) !== null) return new OraError(Number(m[1]), m[2]!)
  if ((m = message.match(/ORA-(\d{5}): ([^\n]*)/)) !== null) return new OraError(Number(m[1]), m[2]!)
  const binder = fromDuckDbBinder(message, version, decodeName, schema)
  if (binder !== undefined) return binder
  if (/already exists/i.test(message)) return ora.nameInUse()
  // DuckDB detects write-write conflicts optimistically where Oracle would wait for the row lock
  if (/TransactionContext Error: (?:Conflict|Catalog write-write conflict)/i.test(message))
    return new OraError(8177, "can't serialize access for this transaction")
  if ((m = message.match(/column "?([^"\s]+)"? (?:not found|does not exist)/i)) !== null) return ora.invalidIdentifier(decodeName(m[1]!))
  if (/Duplicate key|violates (?:primary key|unique) constraint/i.test(message))
    return ora.uniqueViolated(`${schema}.SYS_C00${(message.length % 9000) + 1000}`)
  if ((m = message.match(/NOT NULL constraint failed: ([^\s.]+)\.([^\s]+)/i)) !== null)
    return ora.cannotInsertNull(`"${schema}"."${decodeName(m[1]!)}"."${decodeName(m[2]!)}"`)
  // a number that does not fit NUMBER(p,s) (DuckDB DECIMAL(p,s)) is ORA-01438, not an invalid number
  if (/Casting value "[-+0-9.eE]+" to type DECIMAL\(\d+,\d+\) failed: value is out of range|Could not cast value [-+0-9.eE]+ to DECIMAL/i.test(message))
    return new OraError(1438, "value larger than specified precision allowed for this column")
  if (/Could not convert string|Conversion Error.*(?:INT|DECIMAL|DOUBLE|FLOAT|NUMERIC)/i.test(message)) return ora.invalidNumber()
  // a datetime DuckDB cannot read (text stored in a TIMESTAMP WITH TIME ZONE or TIMESTAMP(7-9) column reaching a
  // DuckDB datetime where the server did not route it through datetime-functions.ts)
  if (/Conversion Error/i.test(message)) return ora.literalMismatch()
  if (/out of range|overflow/i.test(message)) return new OraError(1438, "value larger than specified precision allowed for this column")
  if (/Parser Error/i.test(message)) return /at end of input|at or near/i.test(message) ? ora.notProperlyEnded() : ora.invalidSql()
  if (/Not implemented|not supported/i.test(message)) return ora.unimplemented(message.split("\n")[0]!)
  return new OraError(604, `error occurred at recursive SQL level 1: ${message.split("\n")[0]}`)
}
