import { describe, expect, it } from "@effect/vitest"
import { exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient } from "./hana/client.ts"

// Constraint names as DDL gives them, through the raw hdb client: the SAP HANA SQL Reference's "CREATE TABLE
// Statement" names a column constraint (`<column_constraint> ::= [CONSTRAINT <constraint_name>] {NULL | NOT NULL |
// <unique_specification> | <references_specification> | CHECK (…)}`) and a table constraint the same way; SYS.CONSTRAINTS
// shows the name and `ALTER TABLE … DROP CONSTRAINT n` finds it. A second primary key fails with 294
// ERR_SQL_MANY_PRIMARY_KEY "cannot have more than one primary key" ("SQL Error Codes").
describe("HANA test server: named CHECK and inline constraint names (raw hdb client)", () => {
  let c: HdbClient
  useRawHanaSession({}, (opened) => (c = opened.client))

  const constraints = (table: string) =>
    exec(c, `SELECT COLUMN_NAME, CONSTRAINT_NAME, IS_PRIMARY_KEY, IS_UNIQUE_KEY FROM SYS.CONSTRAINTS
      WHERE SCHEMA_NAME = CURRENT_SCHEMA AND TABLE_NAME = '${table}' ORDER BY CONSTRAINT_NAME, COLUMN_NAME`)

  it("names given inline and to a CHECK show in SYS.CONSTRAINTS, and DROP CONSTRAINT finds them", async () => {
    // NVARCHAR columns carry the server's own length checks; an unnamed CHECK comes first
    await exec(c, "CREATE COLUMN TABLE KN1 (A INT CONSTRAINT KN1_PK PRIMARY KEY, B NVARCHAR(5) CONSTRAINT KN1_B_UQ UNIQUE, " +
      "LO INT CHECK (LO >= 0), HI INT CONSTRAINT KN1_HI CHECK (HI < 100), S NVARCHAR(3), CONSTRAINT KN1_RANGE CHECK (LO <= HI))")
    expect(await constraints("KN1")).toEqual([
      { COLUMN_NAME: "B", CONSTRAINT_NAME: "KN1_B_UQ", IS_PRIMARY_KEY: "FALSE", IS_UNIQUE_KEY: "TRUE" },
      { COLUMN_NAME: "HI", CONSTRAINT_NAME: "KN1_HI", IS_PRIMARY_KEY: "FALSE", IS_UNIQUE_KEY: "FALSE" },
      { COLUMN_NAME: "A", CONSTRAINT_NAME: "KN1_PK", IS_PRIMARY_KEY: "TRUE", IS_UNIQUE_KEY: "TRUE" },
      { COLUMN_NAME: "HI", CONSTRAINT_NAME: "KN1_RANGE", IS_PRIMARY_KEY: "FALSE", IS_UNIQUE_KEY: "FALSE" },
      { COLUMN_NAME: "LO", CONSTRAINT_NAME: "KN1_RANGE", IS_PRIMARY_KEY: "FALSE", IS_UNIQUE_KEY: "FALSE" },
      { COLUMN_NAME: "LO", CONSTRAINT_NAME: "KN1_lo_check", IS_PRIMARY_KEY: "FALSE", IS_UNIQUE_KEY: "FALSE" }
    ])
    expect((await failure(exec(c, "INSERT INTO KN1 VALUES (1, 'a', 50, 20, 'x')"))).code).toBe(677)
    await exec(c, "ALTER TABLE KN1 DROP CONSTRAINT KN1_RANGE")
    await exec(c, "INSERT INTO KN1 VALUES (1, 'a', 50, 20, 'x')")
    expect((await failure(exec(c, "INSERT INTO KN1 VALUES (2, 'b', 1, 100, 'x')"))).code).toBe(677)
    await exec(c, "ALTER TABLE KN1 DROP CONSTRAINT KN1_HI")
    await exec(c, "INSERT INTO KN1 VALUES (2, 'b', 1, 100, 'x')")
    expect((await failure(exec(c, "INSERT INTO KN1 VALUES (1, 'c', 1, 2, 'x')"))).code).toBe(301)
    await exec(c, "ALTER TABLE KN1 DROP CONSTRAINT KN1_PK")
    await exec(c, "ALTER TABLE KN1 DROP CONSTRAINT KN1_B_UQ")
    await exec(c, "INSERT INTO KN1 VALUES (1, 'a', 1, 2, 'x')")
    // the declared lengths still hold after the rebuilds
    expect((await failure(exec(c, "INSERT INTO KN1 VALUES (3, 'd', 1, 2, 'long')"))).code).toBe(274)
    expect(await constraints("KN1")).toEqual([{ COLUMN_NAME: "LO", CONSTRAINT_NAME: "KN1_lo_check", IS_PRIMARY_KEY: "FALSE", IS_UNIQUE_KEY: "FALSE" }])
  })

  it("ALTER TABLE … ADD CONSTRAINT n CHECK keeps the name", async () => {
    await exec(c, "CREATE COLUMN TABLE KN2 (A INT, B NVARCHAR(4))")
    await exec(c, "ALTER TABLE KN2 ADD CONSTRAINT KN2_A CHECK (A > 0)")
    expect(await constraints("KN2")).toEqual([{ COLUMN_NAME: "A", CONSTRAINT_NAME: "KN2_A", IS_PRIMARY_KEY: "FALSE", IS_UNIQUE_KEY: "FALSE" }])
    expect((await failure(exec(c, "INSERT INTO KN2 VALUES (0, 'x')"))).code).toBe(677)
    await exec(c, "ALTER TABLE KN2 DROP CONSTRAINT KN2_A")
    await exec(c, "INSERT INTO KN2 VALUES (0, 'x')")
  })

  // "SQL Error Codes": 457 ERR_SQL_DPLC_CONSTRAINT "duplicate constraint name"
  it("a constraint name used twice on a table fails with 457, and the table stays as it was", async () => {
    const e = await failure(exec(c, "CREATE COLUMN TABLE KN5 (A INT CONSTRAINT KN5_X PRIMARY KEY, B INT, CONSTRAINT KN5_X UNIQUE (B))"))
    expect([e.code, e.message]).toEqual([457, "duplicate constraint name: KN5_X"])
    expect((await failure(exec(c, "SELECT * FROM KN5"))).code).toBe(259)
    await exec(c, "CREATE COLUMN TABLE KN6 (A INT CONSTRAINT KN6_X PRIMARY KEY, B INT)")
    const a = await failure(exec(c, "ALTER TABLE KN6 ADD CONSTRAINT KN6_X CHECK (B > 0)"))
    expect([a.code, a.message]).toEqual([457, "duplicate constraint name: KN6_X"])
    await exec(c, "INSERT INTO KN6 VALUES (1, 0)")
    expect(await constraints("KN6")).toEqual([{ COLUMN_NAME: "A", CONSTRAINT_NAME: "KN6_X", IS_PRIMARY_KEY: "TRUE", IS_UNIQUE_KEY: "TRUE" }])
  })

  it("a second primary key fails with 294, in CREATE TABLE and ALTER TABLE, and the table stays as it was", async () => {
    await exec(c, "CREATE COLUMN TABLE KN3 (A INT PRIMARY KEY, B INT)")
    for (const sql of ["ALTER TABLE KN3 ADD PRIMARY KEY (B)", "ALTER TABLE KN3 ADD CONSTRAINT KN3_PK2 PRIMARY KEY (B)", "CREATE COLUMN TABLE KN4 (A INT PRIMARY KEY, B INT, PRIMARY KEY (B))"]) {
      const e = await failure(exec(c, sql))
      expect([e.code, e.message]).toEqual([294, `cannot have more than one primary key: ${sql.startsWith("CREATE") ? "KN4" : "KN3"}`])
    }
    await exec(c, "INSERT INTO KN3 VALUES (1, 1)")
    expect((await failure(exec(c, "INSERT INTO KN3 VALUES (1, 2)"))).code).toBe(301)
    await exec(c, "INSERT INTO KN3 VALUES (2, 1)")
  })
})
