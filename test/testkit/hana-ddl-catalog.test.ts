import { describe, expect, it } from "@effect/vitest"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, exec } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbResultSet } from "./hana/client.ts"

/** Sequences and indexes as a client sees them through raw hdb: NEXTVAL / CURRVAL columns, SYS.SEQUENCES, SYS.INDEXES. */
describe("HANA test server: sequences and indexes in queries and the catalog", () => {
  let server: HanaTestServerHandle
  let c: HdbClient
  useRawHanaSession({}, (opened) => {
    server = opened.server
    c = opened.client
  })

  it("seq.NEXTVAL and seq.CURRVAL are result columns named NEXTVAL and CURRVAL", async () => {
    await exec(c, "CREATE SEQUENCE cs_seq START WITH 10 INCREMENT BY 5")
    expect(await exec(c, "SELECT cs_seq.NEXTVAL FROM DUMMY")).toEqual([{ NEXTVAL: 10 }])
    expect(await exec(c, `SELECT "${server.user}".cs_seq.NEXTVAL FROM DUMMY`)).toEqual([{ NEXTVAL: 15 }])
    expect(await exec(c, "SELECT cs_seq.CURRVAL FROM DUMMY")).toEqual([{ CURRVAL: 15 }])
    const rs = await call<HdbResultSet>((cb) => c.execute("SELECT cs_seq.NEXTVAL, cs_seq.CURRVAL AS C FROM DUMMY", cb))
    expect(rs.metadata.map((m) => m.columnDisplayName)).toEqual(["NEXTVAL", "C"])
    await call((cb) => rs.close(cb))
  })

  it("SYS.SEQUENCES lists each sequence with its start, limits, increment and cycle flag", async () => {
    await exec(c, "CREATE SEQUENCE cs_up START WITH 5 INCREMENT BY 2")
    await exec(c, "CREATE SEQUENCE cs_cyc START WITH 3 INCREMENT BY -1 MINVALUE 1 MAXVALUE 10 CYCLE")
    expect(
      await exec(c, `SELECT SCHEMA_NAME, SEQUENCE_NAME, START_NUMBER, MIN_VALUE, MAX_VALUE, INCREMENT_BY, IS_CYCLED FROM SYS.SEQUENCES
        WHERE SEQUENCE_NAME IN ('CS_UP', 'CS_CYC') ORDER BY SEQUENCE_NAME`)
    ).toEqual([
      { SCHEMA_NAME: server.user, SEQUENCE_NAME: "CS_CYC", START_NUMBER: 3, MIN_VALUE: 1, MAX_VALUE: 10, INCREMENT_BY: -1, IS_CYCLED: "TRUE" },
      // NO MAXVALUE of an ascending sequence reads as HANA's 4611686018427387903 (hdb returns BIGINTs beyond 2^53 as strings)
      { SCHEMA_NAME: server.user, SEQUENCE_NAME: "CS_UP", START_NUMBER: 5, MIN_VALUE: 1, MAX_VALUE: "4611686018427387903", INCREMENT_BY: 2, IS_CYCLED: "FALSE" }
    ])
    // the public synonym, as FluentMigrator's SAP HANA processor asks whether a sequence exists
    expect(await exec(c, "SELECT 1 AS X FROM SEQUENCES WHERE SCHEMA_NAME = CURRENT_SCHEMA and upper(SEQUENCE_NAME) = 'CS_UP'")).toEqual([{ X: 1 }])
    await exec(c, "DROP SEQUENCE cs_up")
    expect(await exec(c, "SELECT COUNT(*) AS N FROM SEQUENCES WHERE SEQUENCE_NAME = 'CS_UP'")).toEqual([{ N: 0 }])
  })

  it("SYS.INDEXES lists CREATE [UNIQUE] INDEX indexes and the indexes of primary keys and unique constraints", async () => {
    await exec(c, "CREATE COLUMN TABLE ci_t (a INT PRIMARY KEY, b INT UNIQUE, c INT)")
    await exec(c, "CREATE INDEX ci_ix ON ci_t (c)")
    await exec(c, "CREATE UNIQUE INDEX ci_ux ON ci_t (c, b)")
    await exec(c, "CREATE ROW TABLE ci_r (a INT PRIMARY KEY)")
    const rows = (await exec(c, `SELECT SCHEMA_NAME, TABLE_NAME, INDEX_NAME, INDEX_TYPE, CONSTRAINT FROM INDEXES
      WHERE TABLE_NAME IN ('CI_T', 'CI_R') ORDER BY TABLE_NAME, CONSTRAINT NULLS FIRST, INDEX_NAME`)) as Array<Record<string, unknown>>
    expect(rows.map((r) => [r.TABLE_NAME, r.CONSTRAINT, r.INDEX_TYPE])).toEqual([
      ["CI_R", "PRIMARY KEY", "CPBTREE"],
      ["CI_T", null, "INVERTED VALUE"],
      ["CI_T", "PRIMARY KEY", "INVERTED VALUE"],
      ["CI_T", "UNIQUE", "INVERTED VALUE"],
      ["CI_T", "UNIQUE", "INVERTED VALUE"]
    ])
    expect(rows.filter((r) => r.TABLE_NAME === "CI_T" && r.CONSTRAINT !== "PRIMARY KEY").map((r) => r.INDEX_NAME)).toContain("CI_IX")
    expect(rows.every((r) => r.SCHEMA_NAME === server.user)).toBe(true)
    expect(await exec(c, "SELECT INDEX_NAME FROM SYS.INDEXES WHERE CONSTRAINT IS NULL AND TABLE_NAME = 'CI_T'")).toEqual([{ INDEX_NAME: "CI_IX" }])
    await exec(c, "DROP INDEX ci_ix")
    expect(await exec(c, "SELECT COUNT(*) AS N FROM SYS.INDEXES WHERE INDEX_NAME = 'CI_IX'")).toEqual([{ N: 0 }])
  })
})
