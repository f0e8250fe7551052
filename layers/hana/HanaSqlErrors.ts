/**
 * SAP HANA error codes as `effect/sql` error reasons (SAP HANA SQL Reference, "SQL Error Codes",
 * help.sap.com/docs/SAP_HANA_PLATFORM: 301 ERR_SQL_UNIQUE_VIOLATED, 287 ERR_SQL_NOT_NULL, 461–463 foreign key
 * violations, 257 ERR_SQL_PARSE, 10 ERR_AUTHENTICATION_FAILED, 414/663 user locked / password expired,
 * 258 ERR_SQL_INSUFF_PRIV, 133 ERR_TX_ROLLBACK_DEADLOCK, 131 ERR_TX_ROLLBACK_LOCK_TIMEOUT, 139 ERR_API_CANCELLED;
 * 146 "resource busy and acquire with NOWAIT specified" is a lock timeout, as Hibernate's HANA dialect maps it).
 * Lost connections arrive as IO errors and become `ConnectionError`.
 *
 * @since 0.1.0
 */
import type { ErrorTable, ReasonKind } from "../../src/sql/Errors.ts"

/**
 * The HANA error table.
 *
 * @category constants
 * @since 0.1.0
 */
export const errorTable: ErrorTable = {
  byVendorCode: new Map<number, ReasonKind>([
    [301, "UniqueViolation"],
    [287, "ConstraintError"],
    [461, "ConstraintError"],
    [462, "ConstraintError"],
    [463, "ConstraintError"],
    [257, "SqlSyntaxError"],
    [10, "AuthenticationError"],
    [414, "AuthenticationError"],
    [663, "AuthenticationError"],
    [258, "AuthorizationError"],
    [133, "DeadlockError"],
    [131, "LockTimeoutError"],
    [146, "LockTimeoutError"],
    [139, "StatementTimeoutError"]
  ]),
  // "unique constraint violated: Table(T), Index(_SYS_TREE_CS_#...)" or "…: Table(T), Index(PK_T)"
  constraintName: (message) => /Index\(([^)]*)\)/.exec(message)?.[1]
}
