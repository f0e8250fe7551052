/**
 * ORA- errors raised by the Oracle test server (duckdb-errors.ts maps DuckDB failures onto them).
 *
 * Message texts follow the Oracle Database Error Messages reference
 * (https://docs.oracle.com/en/error-help/db/ora-00942/ etc.). Oracle 23ai words some messages differently
 * (ORA-01017) and names the object in others (ORA-00942); the 19c layout keeps the classic texts.
 */

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
  inconsistentTypes: (detail: string) => new OraError(932, `inconsistent datatypes: ${detail}`),
  valueTooLarge: (detail: string) => new OraError(12899, `value too large for column ${detail}`),
  /** A MERGE that would act on one target row more than once (merge-stable-rows.ts). */
  unstableMergeRows: () => new OraError(30926, "unable to get a stable set of rows in the source tables"),
  /**
   * A failure of the server itself (a bug, not the statement's fault): Oracle's internal error, whose arguments name
   * no Oracle code path here; what went wrong is in the server's debug log, never in the message.
   */
  internal: () => new OraError(600, "internal error code, arguments: [oracle-testkit], [see the test server's debug log]"),
  /**
   * A statement the engine behind the server failed in a way that has no Oracle error of its own here: Oracle's
   * "unimplemented feature", naming the server's limitation, never the engine's text (which goes to the debug log).
   */
  engineLimitation: () => new OraError(3001, "unimplemented feature: the Oracle test server cannot run this statement (its debug log has the reason)")
}
