import { describe, expect, it } from "@effect/vitest"
import { fromOracleError, oraCode, sqlStateOfCode, statusOfCode } from "../../layers/oracle/Errors.ts"

const oraError = (errorNum: number, text: string) =>
  Object.assign(new Error(`${oraCode(errorNum)}: ${text}`), { errorNum, code: oraCode(errorNum) })

describe("Oracle errors", () => {
  it("maps ORA codes to status, vendor code and SQLSTATE, keeping the ORA- prefix", () => {
    const cases: ReadonlyArray<readonly [number, string, string]> = [
      [942, "NOT_FOUND", "42000"],
      [955, "ALREADY_EXISTS", "42000"],
      [1, "INTEGRITY", "23000"],
      [1400, "INTEGRITY", "23000"],
      [1017, "UNAUTHENTICATED", "28000"],
      [1031, "UNAUTHORIZED", "42000"],
      [1013, "CANCELLED", "HY008"],
      [12899, "INVALID_DATA", "22001"],
      [1722, "INVALID_DATA", "22018"],
      [1476, "INVALID_DATA", "22012"],
      [1805, "INVALID_DATA", "22008"],
      [8177, "INVALID_STATE", "40001"],
      [3113, "IO", "08006"]
    ]
    for (const [code, status, sqlState] of cases) {
      const e = fromOracleError(oraError(code, "text"))
      expect([e.status, e.vendorCode, e.sqlState]).toEqual([status, code, sqlState])
      expect(e.message.startsWith(oraCode(code))).toBe(true)
    }
  })

  it("unmapped codes are UNKNOWN with HY000 (42000 for the syntax range)", () => {
    expect(statusOfCode(20001)).toBe("UNKNOWN")
    expect(sqlStateOfCode(20001)).toBe("HY000")
    expect(sqlStateOfCode(933)).toBe("42000")
    expect(statusOfCode(900)).toBe("INVALID_ARGUMENT")
    expect(fromOracleError(oraError(20001, "custom")).vendorCode).toBe(20001)
  })

  it("reads the ORA code from thin-mode batch errors that carry only a message", () => {
    const e = fromOracleError(new Error("ORA-00001: unique constraint (APP.PK) violated"))
    expect([e.status, e.vendorCode]).toEqual(["INTEGRITY", 1])
  })

  it("maps NJS client errors and socket errors", () => {
    expect(fromOracleError(Object.assign(new Error("NJS-510: connection timed out"), { code: "NJS-510" })).status).toBe("TIMEOUT")
    expect(fromOracleError(Object.assign(new Error("NJS-500: broken"), { code: "NJS-500" })).status).toBe("IO")
    expect(fromOracleError(Object.assign(new Error("NJS-003: closed"), { code: "NJS-003" })).status).toBe("INVALID_STATE")
    expect(fromOracleError(Object.assign(new Error("refused"), { code: "ECONNREFUSED" })).status).toBe("IO")
    expect(fromOracleError(new TypeError("bad bind")).status).toBe("INVALID_ARGUMENT")
    expect(fromOracleError("weird").status).toBe("UNKNOWN")
  })
})
