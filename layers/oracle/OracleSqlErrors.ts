/**
 * Oracle error codes as `effect/sql` error reasons (Oracle Database Error Messages: ORA-00001 unique constraint
 * violated, ORA-01400/01407 NULL, ORA-02290/02291/02292 check and foreign keys, ORA-009xx parse errors, ORA-01017
 * invalid credentials, ORA-28000/28001 account locked / password expired, ORA-01031/01045 privileges, ORA-00060
 * deadlock, ORA-08177 cannot serialize, ORA-00054/30006 resource busy, ORA-01013 cancelled, ORA-03156 call timeout,
 * ORA-03113/03114/03135 lost connection). Client-side connection losses arrive as IO errors and become
 * `ConnectionError`.
 *
 * @since 0.1.0
 */
import type { ErrorTable, ReasonKind } from "../../src/sql/Errors.ts"

const SYNTAX = [900, 901, 902, 903, 905, 906, 907, 908, 909, 911, 917, 921, 922, 923, 924, 927, 928, 933, 936, 969, 971]

/**
 * The Oracle error table.
 *
 * @category constants
 * @since 0.1.0
 */
export const errorTable: ErrorTable = {
  byVendorCode: new Map<number, ReasonKind>([
    [1, "UniqueViolation"],
    [1400, "ConstraintError"],
    [1407, "ConstraintError"],
    [2290, "ConstraintError"],
    [2291, "ConstraintError"],
    [2292, "ConstraintError"],
    ...SYNTAX.map((code) => [code, "SqlSyntaxError"] as const),
    [1017, "AuthenticationError"],
    [28000, "AuthenticationError"],
    [28001, "AuthenticationError"],
    [1031, "AuthorizationError"],
    [1045, "AuthorizationError"],
    [60, "DeadlockError"],
    [8177, "SerializationError"],
    [54, "LockTimeoutError"],
    [30006, "LockTimeoutError"],
    [1013, "StatementTimeoutError"],
    [3156, "StatementTimeoutError"],
    [3113, "ConnectionError"],
    [3114, "ConnectionError"],
    [3135, "ConnectionError"]
  ]),
  // "ORA-00001: unique constraint (SCHEMA.NAME) violated"
  constraintName: (message) => /unique constraint \(([^)]*)\)/i.exec(message)?.[1]
}
