import { describe, expect, it } from "@effect/vitest"
import { fromHdbError } from "../../layers/hana/Errors.ts"

describe("hdb errors → ADBC statuses", () => {
  it.each([
    [{ code: 259, sqlState: "HY000", message: "invalid table name" }, "NOT_FOUND"],
    [{ code: 288, sqlState: "HY000", message: "cannot use duplicate table name" }, "ALREADY_EXISTS"],
    [{ code: 301, sqlState: "23000", message: "unique constraint violated" }, "INTEGRITY"],
    [{ code: 287, sqlState: "23000", message: "cannot insert NULL" }, "INTEGRITY"],
    [{ code: 7, sqlState: "HY000", message: "feature not supported" }, "NOT_IMPLEMENTED"],
    [{ code: 270, sqlState: "HY000", message: "not enough values" }, "INVALID_ARGUMENT"],
    [{ code: 289, sqlState: "HY000", message: "cannot use duplicate index name" }, "ALREADY_EXISTS"],
    [{ code: 274, sqlState: "HY000", message: "inserted value too large for column" }, "INVALID_DATA"],
    [{ code: 10, sqlState: "28000", message: "authentication failed" }, "UNAUTHENTICATED"],
    [{ code: 258, sqlState: "HY000", message: "insufficient privilege" }, "UNAUTHORIZED"],
    [{ code: 257, sqlState: "HY000", message: "sql syntax error" }, "INVALID_ARGUMENT"],
    [{ code: 139, sqlState: "HY000", message: "current operation cancelled by request" }, "CANCELLED"],
    [{ code: 99999, message: "something" }, "UNKNOWN"],
    [{ code: 99999, sqlState: "HY000", message: "general error" }, "UNKNOWN"],
    // unmapped codes fall back on the SQLSTATE class
    [{ code: 99998, sqlState: "23505", message: "some constraint" }, "INTEGRITY"],
    [{ code: 99997, sqlState: "22003", message: "numeric value out of range" }, "INVALID_DATA"],
    [{ code: 99996, sqlState: "08S01", message: "communication link failure" }, "IO"],
    [{ code: 99995, sqlState: "42S02", message: "base table not found" }, "INVALID_ARGUMENT"],
    [{ code: 99994, sqlState: "40001", message: "serialization failure" }, "INVALID_STATE"],
    [{ code: 99993, sqlState: "HYT00", message: "timeout expired" }, "TIMEOUT"],
    [{ code: "EHDBOPENCONN", message: "Could not connect" }, "IO"],
    [{ code: "ECONNRESET", message: "socket hang up" }, "IO"],
    [{ code: "EHDBTIMEOUT", message: "No initialization reply" }, "TIMEOUT"],
    [{ code: "EHDBSERVERAUTH", message: "bad server proof" }, "UNAUTHENTICATED"],
    [new Error("Cannot set parameter at row: 1. The value is out of range"), "INVALID_ARGUMENT"],
    [new TypeError("Argument must be a string"), "INVALID_ARGUMENT"]
  ])("%j → %s", (cause, status) => {
    const error = fromHdbError(cause)
    expect(error.status).toBe(status)
    if (typeof (cause as { code?: unknown }).code === "number") {
      expect(error.vendorCode).toBe((cause as { code: number }).code)
      expect(error.message).toContain(String((cause as { code: number }).code))
    }
    if ((cause as { sqlState?: string }).sqlState !== undefined) expect(error.sqlState).toBe((cause as { sqlState: string }).sqlState)
  })
})
