/**
 * Unit tests of the SqlError classification: each database's vendor codes map to the effect/sql reason the docs
 * list, the ADBC status decides where the code does not, the AdbcError (vendor code, SQLSTATE, message) stays as
 * the cause, and isRetryable follows the reason.
 */
import { describe, expect, it } from "@effect/vitest"
import { SqlError } from "effect/sql"
import { errorTable as hana } from "../../layers/hana/HanaSqlErrors.ts"
import { errorTable as oracle } from "../../layers/oracle/OracleSqlErrors.ts"
import { adbcError, type Status } from "../../src/AdbcError.ts"
import { toSqlError } from "../../src/sql/Errors.ts"

const classify = (table: typeof hana, status: Status, vendorCode: number | undefined, message = "boom") =>
  toSqlError(table, "execute")(adbcError(status, message, vendorCode === undefined ? {} : { vendorCode, sqlState: "23000" }))

const cases: ReadonlyArray<readonly [string, typeof hana, Status, number | undefined, string, boolean]> = [
  ["HANA unique", hana, "INTEGRITY", 301, "UniqueViolation", false],
  ["HANA not null", hana, "INTEGRITY", 287, "ConstraintError", false],
  ["HANA foreign key", hana, "INTEGRITY", 462, "ConstraintError", false],
  ["HANA syntax", hana, "INVALID_ARGUMENT", 257, "SqlSyntaxError", false],
  ["HANA authentication", hana, "UNAUTHENTICATED", 10, "AuthenticationError", false],
  ["HANA authorization", hana, "UNAUTHORIZED", 258, "AuthorizationError", false],
  ["HANA deadlock", hana, "UNKNOWN", 133, "DeadlockError", true],
  ["HANA lock timeout", hana, "TIMEOUT", 131, "LockTimeoutError", true],
  // 146 "Resource busy and acquire with NOWAIT specified" (SELECT ... FOR UPDATE NOWAIT), as Hibernate's HANA dialect
  // classifies it (hibernate-orm AbstractHANADialect, buildSQLExceptionConversionDelegate: LockTimeoutException)
  ["HANA NOWAIT resource busy", hana, "INVALID_STATE", 146, "LockTimeoutError", true],
  ["HANA cancelled", hana, "CANCELLED", 139, "StatementTimeoutError", true],
  ["HANA lost connection", hana, "IO", undefined, "ConnectionError", true],
  ["HANA other", hana, "NOT_FOUND", 259, "UnknownError", false],
  ["Oracle unique", oracle, "INTEGRITY", 1, "UniqueViolation", false],
  ["Oracle not null", oracle, "INTEGRITY", 1400, "ConstraintError", false],
  ["Oracle check", oracle, "INTEGRITY", 2290, "ConstraintError", false],
  ["Oracle syntax", oracle, "INVALID_ARGUMENT", 900, "SqlSyntaxError", false],
  ["Oracle authentication", oracle, "UNAUTHENTICATED", 1017, "AuthenticationError", false],
  ["Oracle authorization", oracle, "UNAUTHORIZED", 1031, "AuthorizationError", false],
  ["Oracle deadlock", oracle, "INVALID_STATE", 60, "DeadlockError", true],
  ["Oracle serialization", oracle, "INVALID_STATE", 8177, "SerializationError", true],
  ["Oracle resource busy", oracle, "INVALID_STATE", 54, "LockTimeoutError", true],
  ["Oracle cancelled", oracle, "CANCELLED", 1013, "StatementTimeoutError", true],
  ["Oracle end of file on channel", oracle, "IO", 3113, "ConnectionError", true],
  ["Oracle client-side connection loss", oracle, "IO", undefined, "ConnectionError", true],
  ["Oracle timeout status", oracle, "TIMEOUT", undefined, "StatementTimeoutError", true],
  ["Oracle other", oracle, "NOT_FOUND", 942, "UnknownError", false]
]

describe("SqlError classification", () => {
  it.each(cases)("%s", (_, table, status, code, reason, retryable) => {
    const error = classify(table, status, code)
    expect(SqlError.isSqlError(error)).toBe(true)
    expect(error.reason._tag).toBe(reason)
    expect(error.isRetryable).toBe(retryable)
    expect(error.reason.operation).toBe("execute")
    const cause = error.reason.cause as { vendorCode?: number; sqlState?: string; status: string; message: string }
    expect(cause.status).toBe(status)
    expect(cause.vendorCode).toBe(code)
    expect(cause.message).toContain("boom")
  })

  it("reads the unique constraint's name from each database's message", () => {
    const onHana = classify(hana, "INTEGRITY", 301, "[301] unique constraint violated: Table(T), Index(PK_T)")
    expect(onHana.reason._tag === "UniqueViolation" && onHana.reason.constraint).toBe("PK_T")
    const onOracle = classify(oracle, "INTEGRITY", 1, "ORA-00001: unique constraint (APP.PK_T) violated")
    expect(onOracle.reason._tag === "UniqueViolation" && onOracle.reason.constraint).toBe("APP.PK_T")
  })

  it("keeps a non-ADBC failure as the cause of an UnknownError", () => {
    const error = toSqlError(hana, "execute")(new Error("parameter 1 is a Map"))
    expect(error.reason._tag).toBe("UnknownError")
    expect(error.message).toContain("parameter 1 is a Map")
  })
})
