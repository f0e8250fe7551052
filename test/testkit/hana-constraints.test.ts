import { describe, expect, it } from "@effect/vitest"
import { exec } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient } from "./hana/client.ts"

type Row = { CONSTRAINT_NAME: string; COLUMN_NAME: string | null; IS_PRIMARY_KEY: string; IS_UNIQUE_KEY: string; CHECK_CONDITION: string | null }

describe("HANA test server: SYS.CONSTRAINTS", () => {
  let c: HdbClient
  useRawHanaSession({}, (opened) => (c = opened.client))

  it("lists CHECK constraints with their condition (IS_PRIMARY_KEY and IS_UNIQUE_KEY FALSE), not the declared-length checks", async () => {
    // HANA keeps check constraints in SYS.CONSTRAINTS with CHECK_CONDITION set (SAP's SQLAlchemy dialect,
    // sqlalchemy-hana, reads check constraints as `SELECT CONSTRAINT_NAME, CHECK_CONDITION FROM SYS.CONSTRAINTS WHERE
    // ... CHECK_CONDITION IS NOT NULL`, and unique ones as `IS_UNIQUE_KEY='TRUE' AND IS_PRIMARY_KEY='FALSE'`).
    await exec(c, "CREATE TABLE CHK_T (ID INTEGER PRIMARY KEY, QTY INTEGER, LO INTEGER, HI INTEGER, NAME NVARCHAR(10), CODE VARCHAR(5) UNIQUE, CHECK (QTY > 0), CHECK (LO <= HI))")
    const rows = await exec<Array<Row>>(
      c,
      "SELECT CONSTRAINT_NAME, COLUMN_NAME, IS_PRIMARY_KEY, IS_UNIQUE_KEY, CHECK_CONDITION FROM SYS.CONSTRAINTS WHERE TABLE_NAME = 'CHK_T' ORDER BY CONSTRAINT_NAME, POSITION"
    )
    const kinds = rows.map((r) => [r.COLUMN_NAME, r.IS_PRIMARY_KEY, r.IS_UNIQUE_KEY, r.CHECK_CONDITION === null ? null : "check"])
    expect(kinds.filter((k) => k[3] === "check").map((k) => [k[0], k[1], k[2]]).sort()).toEqual([
      ["HI", "FALSE", "FALSE"],
      ["LO", "FALSE", "FALSE"],
      ["QTY", "FALSE", "FALSE"]
    ])
    expect(kinds.filter((k) => k[3] === null).sort()).toEqual([["CODE", "FALSE", "TRUE", null], ["ID", "TRUE", "TRUE", null]])
    const checks = rows.filter((r) => r.CHECK_CONDITION !== null)
    expect(checks.find((r) => r.COLUMN_NAME === "QTY")!.CHECK_CONDITION).toMatch(/QTY.*>\s*0/i)
    // the LO / HI check is one constraint over both columns
    expect(new Set(checks.filter((r) => r.COLUMN_NAME !== "QTY").map((r) => r.CONSTRAINT_NAME)).size).toBe(1)
  })
})
