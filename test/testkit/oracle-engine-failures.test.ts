/**
 * How the Oracle test server names a failure of its engine itself: DuckDB's INTERNAL and FATAL errors (assertions;
 * after a FATAL one the database refuses every statement) are the server's failure, not a feature it lacks, so the
 * client gets ORA-00600 "internal error code" (Database Error Messages, ORA-00600), never ORA-03001 "unimplemented
 * feature" and never DuckDB's text. Other engine failures keep their mapping.
 */
import { describe, expect, it } from "@effect/vitest"
import { fromDuckDb } from "../../testkit/oracle/duckdb-errors.ts"

const map = (message: string) => fromDuckDb(message, "23ai", (n) => n, "APP")

describe("Oracle test server: engine failures", () => {
  it("gives ORA-00600 for DuckDB's internal and fatal errors", () => {
    for (const message of [
      "INTERNAL Error: Attempting to dereference an optional pointer that is not set",
      "FATAL Error: Failed: database has been invalidated because of a previous fatal error. The database must be restarted prior to being used again."
    ]) {
      const e = map(message)
      expect(e.code).toBe(600)
      expect(e.message).toContain("internal error code")
      expect(e.message).not.toContain("DuckDB")
      expect(e.message).not.toContain("pointer")
    }
  })

  it("keeps the mapping of the engine's other failures", () => {
    expect(map("Parser Error: syntax error at or near \"FROM\"").code).toBe(933)
    expect(map("Not implemented Error: something new").code).toBe(3001)
  })
})
