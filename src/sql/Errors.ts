/**
 * ADBC errors as `effect/sql` `SqlError`s: the reason class comes from the database's vendor code (a table each
 * driver supplies), then from the ADBC status; the `AdbcError` (status, vendor code, SQLSTATE, message, already free
 * of secrets) stays as the reason's `cause`.
 *
 * @since 0.1.0
 */
import { SqlError } from "effect/sql"
import { AdbcError } from "../AdbcError.ts"

/**
 * The `effect/sql` reason a database error maps to.
 *
 * @category models
 * @since 0.1.0
 */
export type ReasonKind =
  | "UniqueViolation"
  | "ConstraintError"
  | "SqlSyntaxError"
  | "AuthenticationError"
  | "AuthorizationError"
  | "DeadlockError"
  | "SerializationError"
  | "LockTimeoutError"
  | "StatementTimeoutError"
  | "ConnectionError"
  | "UnknownError"

/**
 * A database's error table: vendor codes to reasons, and how to read a constraint name from a unique violation.
 *
 * @category models
 * @since 0.1.0
 */
export interface ErrorTable {
  readonly byVendorCode: ReadonlyMap<number, ReasonKind>
  readonly constraintName: (message: string) => string | undefined
}

const byStatus = (status: AdbcError["status"]): ReasonKind => {
  switch (status) {
    case "IO":
      return "ConnectionError"
    case "UNAUTHENTICATED":
      return "AuthenticationError"
    case "UNAUTHORIZED":
      return "AuthorizationError"
    case "CANCELLED":
    case "TIMEOUT":
      return "StatementTimeoutError"
    case "INTEGRITY":
      return "ConstraintError"
    default:
      return "UnknownError"
  }
}

/**
 * The reason kind of an ADBC error under `table`.
 *
 * @category conversions
 * @since 0.1.0
 */
export const reasonKind = (table: ErrorTable, error: AdbcError): ReasonKind =>
  (error.vendorCode !== undefined ? table.byVendorCode.get(error.vendorCode) : undefined) ?? byStatus(error.status)

/**
 * Any failure of an ADBC call (an `AdbcError`, or another error, kept as the cause of an `UnknownError`) as a
 * `SqlError`; `operation` names what was being done (`execute`, `stream`, `commit`, …).
 *
 * @category conversions
 * @since 0.1.0
 */
export const toSqlError = (table: ErrorTable, operation: string) => (error: unknown): SqlError.SqlError => {
  if (error instanceof SqlError.SqlError) return error
  if (!(error instanceof AdbcError)) {
    const message = error instanceof Error ? error.message : String(error)
    return new SqlError.SqlError({ reason: new SqlError.UnknownError({ cause: error, message, operation }) })
  }
  const fields = { cause: error, message: error.message, operation }
  const kind = reasonKind(table, error)
  switch (kind) {
    case "UniqueViolation":
      return new SqlError.SqlError({
        reason: new SqlError.UniqueViolation({ ...fields, constraint: table.constraintName(error.text) ?? "" })
      })
    case "ConstraintError":
      return new SqlError.SqlError({ reason: new SqlError.ConstraintError(fields) })
    case "SqlSyntaxError":
      return new SqlError.SqlError({ reason: new SqlError.SqlSyntaxError(fields) })
    case "AuthenticationError":
      return new SqlError.SqlError({ reason: new SqlError.AuthenticationError(fields) })
    case "AuthorizationError":
      return new SqlError.SqlError({ reason: new SqlError.AuthorizationError(fields) })
    case "DeadlockError":
      return new SqlError.SqlError({ reason: new SqlError.DeadlockError(fields) })
    case "SerializationError":
      return new SqlError.SqlError({ reason: new SqlError.SerializationError(fields) })
    case "LockTimeoutError":
      return new SqlError.SqlError({ reason: new SqlError.LockTimeoutError(fields) })
    case "StatementTimeoutError":
      return new SqlError.SqlError({ reason: new SqlError.StatementTimeoutError(fields) })
    case "ConnectionError":
      return new SqlError.SqlError({ reason: new SqlError.ConnectionError(fields) })
    default:
      return new SqlError.SqlError({ reason: new SqlError.UnknownError(fields) })
  }
}
