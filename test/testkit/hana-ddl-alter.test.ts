import { describe, expect, it } from "@effect/vitest"
import { exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient } from "./hana/client.ts"

/** ALTER TABLE's column and key changes through raw hdb, as HANA runs them (SAP HANA SQL Reference, "ALTER TABLE"). */
describe("HANA test server: ALTER TABLE … ALTER / ADD and DROP of keys", () => {
  let c: HdbClient
  useRawHanaSession({}, (opened) => (c = opened.client))

  const columns = (table: string) =>
    exec(c, `SELECT COLUMN_NAME, DATA_TYPE_NAME, LENGTH, IS_NULLABLE FROM TABLE_COLUMNS WHERE TABLE_NAME = '${table}' ORDER BY POSITION`)

  it("ALTER (col type …) changes the type, keeping rows, keys, the declared type and a length check of the new length", async () => {
    await exec(c, "CREATE COLUMN TABLE al1 (a INT PRIMARY KEY, b NVARCHAR(5), c NVARCHAR(10))")
    await exec(c, "INSERT INTO al1 VALUES (1, 'abcde', '12')")
    await exec(c, "ALTER TABLE al1 ALTER (b NVARCHAR(8), c BIGINT NOT NULL)")
    expect(await exec(c, "SELECT a, b, c FROM al1")).toEqual([{ A: 1, B: "abcde", C: 12 }])
    expect(await columns("AL1")).toEqual([
      { COLUMN_NAME: "A", DATA_TYPE_NAME: "INTEGER", LENGTH: 10, IS_NULLABLE: "FALSE" },
      { COLUMN_NAME: "B", DATA_TYPE_NAME: "NVARCHAR", LENGTH: 8, IS_NULLABLE: "TRUE" },
      { COLUMN_NAME: "C", DATA_TYPE_NAME: "BIGINT", LENGTH: 19, IS_NULLABLE: "FALSE" }
    ])
    await exec(c, "INSERT INTO al1 VALUES (2, 'abcdefgh', 2)")
    expect(await failure(exec(c, "INSERT INTO al1 VALUES (3, 'abcdefghi', 3)"))).toMatchObject({
      code: 274,
      message: `inserted value too large for column: Failed in "B" column with the value 'abcdefghi'`
    })
    expect(await failure(exec(c, "INSERT INTO al1 VALUES (1, 'x', 1)"))).toMatchObject({ code: 301 })
    expect(await failure(exec(c, "INSERT INTO al1 VALUES (4, 'x', NULL)"))).toMatchObject({ code: 287 })
    // a DEFAULT of the new definition applies
    await exec(c, "ALTER TABLE al1 ALTER (b NVARCHAR(8) DEFAULT 'dflt')")
    await exec(c, "INSERT INTO al1 (a, c) VALUES (5, 5)")
    expect(await exec(c, "SELECT b FROM al1 WHERE a = 5")).toEqual([{ B: "dflt" }])
  })

  it("a signed DEFAULT (-1) in CREATE TABLE, ALTER TABLE … ADD and ALTER is the number, not an arithmetic operand", async () => {
    await exec(c, "CREATE COLUMN TABLE al_neg (a INT DEFAULT -1, b INT)")
    await exec(c, "ALTER TABLE al_neg ADD (c DECIMAL(5,2) DEFAULT -2.5)")
    await exec(c, "INSERT INTO al_neg (b) VALUES (1)")
    await exec(c, "ALTER TABLE al_neg ALTER (b INT DEFAULT +3)")
    await exec(c, "INSERT INTO al_neg (a) VALUES (0)")
    expect(await exec(c, "SELECT a, b, c FROM al_neg ORDER BY a")).toEqual([
      { A: -1, B: 1, C: "-2.50" },
      { A: 0, B: 3, C: "-2.50" }
    ])
  })

  it("a value that does not fit the new type fails with HANA's error and leaves the table as it was", async () => {
    await exec(c, "CREATE COLUMN TABLE al2 (a INT PRIMARY KEY, b NVARCHAR(10), n DECIMAL(10,2))")
    await exec(c, "INSERT INTO al2 VALUES (1, 'abcdef', 12345.67)")
    await exec(c, "INSERT INTO al2 VALUES (2, NULL, 1)")
    const before = await exec(c, "SELECT * FROM al2 ORDER BY a")
    expect(await failure(exec(c, "ALTER TABLE al2 ALTER (b NVARCHAR(3))"))).toMatchObject({
      code: 274,
      message: `inserted value too large for column: Failed in "B" column with the value 'abcdef'`
    })
    expect(await failure(exec(c, "ALTER TABLE al2 ALTER (b INTEGER)"))).toMatchObject({ code: 339, message: "invalid number: not a valid number string 'abcdef'" })
    expect(await failure(exec(c, "ALTER TABLE al2 ALTER (n DECIMAL(4,2))"))).toMatchObject({ code: 314 })
    expect(await failure(exec(c, "ALTER TABLE al2 ALTER (b NVARCHAR(10) NOT NULL)"))).toMatchObject({ code: 287 })
    expect(await failure(exec(c, "ALTER TABLE al2 ALTER (nope INT)"))).toMatchObject({ code: 260 })
    expect(await failure(exec(c, "ALTER TABLE no_such ALTER (b INT)"))).toMatchObject({ code: 259 })
    expect(await exec(c, "SELECT * FROM al2 ORDER BY a")).toEqual(before)
    expect(await columns("AL2")).toEqual([
      { COLUMN_NAME: "A", DATA_TYPE_NAME: "INTEGER", LENGTH: 10, IS_NULLABLE: "FALSE" },
      { COLUMN_NAME: "B", DATA_TYPE_NAME: "NVARCHAR", LENGTH: 10, IS_NULLABLE: "TRUE" },
      { COLUMN_NAME: "N", DATA_TYPE_NAME: "DECIMAL", LENGTH: 10, IS_NULLABLE: "TRUE" }
    ])
    expect(await failure(exec(c, "INSERT INTO al2 VALUES (3, 'abcdefghijk', 1)"))).toMatchObject({ code: 274 })
  })

  it("ALTER (…) of a table other tables reference by foreign key keeps their rows and keys", async () => {
    await exec(c, "CREATE COLUMN TABLE al_p (id INT PRIMARY KEY, name NVARCHAR(3))")
    await exec(c, "CREATE COLUMN TABLE al_c (pid INT, FOREIGN KEY (pid) REFERENCES al_p (id))")
    await exec(c, "INSERT INTO al_p VALUES (1, 'one')")
    await exec(c, "INSERT INTO al_c VALUES (1)")
    await exec(c, "ALTER TABLE al_p ALTER (name NVARCHAR(20))")
    await exec(c, "INSERT INTO al_p VALUES (2, 'twenty characters...')")
    expect(await exec(c, "SELECT COUNT(*) AS N FROM al_c")).toEqual([{ N: 1 }])
    expect(await failure(exec(c, "INSERT INTO al_c VALUES (9)"))).toMatchObject({ code: 461 })
  })

  it("ADD [CONSTRAINT n] UNIQUE / PRIMARY KEY / FOREIGN KEY add the key; duplicates fail with 301, orphans with 461", async () => {
    await exec(c, "CREATE COLUMN TABLE ak1 (a INT NOT NULL, b NVARCHAR(3))")
    await exec(c, "INSERT INTO ak1 VALUES (1, 'x')")
    await exec(c, "INSERT INTO ak1 VALUES (2, 'x')")
    expect(await failure(exec(c, "ALTER TABLE ak1 ADD CONSTRAINT ak1_u UNIQUE (b)"))).toMatchObject({ code: 301 })
    await exec(c, "INSERT INTO ak1 VALUES (3, 'y')")
    expect(await exec(c, "SELECT COUNT(*) AS N FROM ak1")).toEqual([{ N: 3 }])
    await exec(c, "ALTER TABLE ak1 ADD CONSTRAINT ak1_pk PRIMARY KEY (a)")
    expect(await failure(exec(c, "INSERT INTO ak1 VALUES (1, 'z')"))).toMatchObject({ code: 301 })
    expect(await exec(c, "SELECT HAS_PRIMARY_KEY FROM TABLES WHERE TABLE_NAME = 'AK1'")).toEqual([{ HAS_PRIMARY_KEY: "TRUE" }])
    // the declared length survives the rebuild
    expect(await failure(exec(c, "INSERT INTO ak1 VALUES (7, 'long')"))).toMatchObject({ code: 274 })
    await exec(c, "ALTER TABLE ak1 DROP PRIMARY KEY")
    await exec(c, "INSERT INTO ak1 VALUES (1, 'z')")
    expect(await exec(c, "SELECT HAS_PRIMARY_KEY FROM TABLES WHERE TABLE_NAME = 'AK1'")).toEqual([{ HAS_PRIMARY_KEY: "FALSE" }])
    expect(await failure(exec(c, "ALTER TABLE ak1 ADD PRIMARY KEY (a)"))).toMatchObject({ code: 301 })
    expect(await failure(exec(c, "ALTER TABLE ak1 ADD UNIQUE (nope)"))).toMatchObject({ code: 260, message: "invalid column name: NOPE" })
    // a CHECK the rows break fails with 677; one they keep holds for later writes
    expect(await failure(exec(c, "ALTER TABLE ak1 ADD CONSTRAINT ak1_ck CHECK (a < 3)"))).toMatchObject({ code: 677 })
    await exec(c, "ALTER TABLE ak1 ADD CHECK (a < 10)")
    expect(await failure(exec(c, "INSERT INTO ak1 VALUES (10, 'w')"))).toMatchObject({ code: 677 })

    await exec(c, "CREATE COLUMN TABLE ak_p (id INT PRIMARY KEY)")
    await exec(c, "INSERT INTO ak_p VALUES (1)")
    await exec(c, "CREATE COLUMN TABLE ak_c (id INT, pid INT)")
    await exec(c, "INSERT INTO ak_c VALUES (1, 2)")
    expect(await failure(exec(c, "ALTER TABLE ak_c ADD CONSTRAINT ak_fk FOREIGN KEY (pid) REFERENCES ak_p (id)"))).toMatchObject({ code: 461 })
    await exec(c, "UPDATE ak_c SET pid = 1")
    await exec(c, "ALTER TABLE ak_c ADD CONSTRAINT ak_fk FOREIGN KEY (pid) REFERENCES ak_p (id)")
    expect(await failure(exec(c, "INSERT INTO ak_c VALUES (2, 5)"))).toMatchObject({ code: 461 })
    expect(await exec(c, "SELECT REFERENCED_TABLE_NAME FROM REFERENTIAL_CONSTRAINTS WHERE TABLE_NAME = 'AK_C'")).toEqual([
      { REFERENCED_TABLE_NAME: "AK_P" }
    ])
  })

  it("CONSTRAINT n names keys in SYS.CONSTRAINTS, REFERENTIAL_CONSTRAINTS and INDEXES; DROP CONSTRAINT n drops them", async () => {
    await exec(c, "CREATE COLUMN TABLE dc_p (id INT, CONSTRAINT dc_p_pk PRIMARY KEY (id))")
    await exec(c, "CREATE COLUMN TABLE dc_c (id INT, pid INT, u NVARCHAR(3), CONSTRAINT dc_fk FOREIGN KEY (pid) REFERENCES dc_p (id), CONSTRAINT dc_u UNIQUE (u))")
    await exec(c, "ALTER TABLE dc_c ADD CONSTRAINT dc_c_pk PRIMARY KEY (id)")
    expect(await exec(c, "SELECT TABLE_NAME, CONSTRAINT_NAME, IS_PRIMARY_KEY FROM CONSTRAINTS WHERE TABLE_NAME LIKE 'DC\\_%' ESCAPE '\\' ORDER BY CONSTRAINT_NAME")).toEqual([
      { TABLE_NAME: "DC_C", CONSTRAINT_NAME: "DC_C_PK", IS_PRIMARY_KEY: "TRUE" },
      { TABLE_NAME: "DC_P", CONSTRAINT_NAME: "DC_P_PK", IS_PRIMARY_KEY: "TRUE" },
      { TABLE_NAME: "DC_C", CONSTRAINT_NAME: "DC_U", IS_PRIMARY_KEY: "FALSE" }
    ])
    expect(await exec(c, "SELECT CONSTRAINT_NAME FROM REFERENTIAL_CONSTRAINTS WHERE TABLE_NAME = 'DC_C'")).toEqual([{ CONSTRAINT_NAME: "DC_FK" }])
    expect(await exec(c, "SELECT INDEX_NAME FROM INDEXES WHERE TABLE_NAME = 'DC_C' ORDER BY INDEX_NAME")).toEqual([{ INDEX_NAME: "DC_C_PK" }, { INDEX_NAME: "DC_U" }])
    await exec(c, "INSERT INTO dc_p VALUES (1)")
    await exec(c, "INSERT INTO dc_c VALUES (1, 1, 'a')")
    expect(await failure(exec(c, "INSERT INTO dc_c VALUES (2, 1, 'a')"))).toMatchObject({ code: 301 })
    await exec(c, "ALTER TABLE dc_c DROP CONSTRAINT dc_u")
    await exec(c, "INSERT INTO dc_c VALUES (2, 1, 'a')")
    expect(await failure(exec(c, "INSERT INTO dc_c VALUES (3, 9, 'b')"))).toMatchObject({ code: 461 })
    await exec(c, "ALTER TABLE dc_c DROP CONSTRAINT dc_fk")
    await exec(c, "INSERT INTO dc_c VALUES (3, 9, 'b')")
    expect(await failure(exec(c, "INSERT INTO dc_c VALUES (3, 9, 'c')"))).toMatchObject({ code: 301 })
    await exec(c, "ALTER TABLE dc_c DROP CONSTRAINT dc_c_pk")
    await exec(c, "INSERT INTO dc_c VALUES (3, 9, 'c')")
    expect(await exec(c, "SELECT COUNT(*) AS N FROM CONSTRAINTS WHERE TABLE_NAME = 'DC_C'")).toEqual([{ N: 0 }])
    // the declared length outlives every rebuild
    expect(await failure(exec(c, "INSERT INTO dc_c VALUES (4, 9, 'long')"))).toMatchObject({ code: 274 })
    // no table references DC_P any more: its key can go, and then the table
    await exec(c, "ALTER TABLE dc_p DROP CONSTRAINT dc_p_pk")
    await exec(c, "INSERT INTO dc_p VALUES (1)")
    await exec(c, "DROP TABLE dc_p")
    const unknown = await failure(exec(c, "ALTER TABLE dc_c DROP CONSTRAINT dc_fk"))
    expect(unknown.code).toBe(261)
    expect(unknown.message).not.toMatch(/No support for that ALTER TABLE option/)
    expect(await failure(exec(c, "ALTER TABLE dc_c DROP PRIMARY KEY"))).toMatchObject({ code: 261 })
  })

  it("a table whose foreign key was rebuilt no longer holds the table it referenced once it is dropped", async () => {
    await exec(c, "CREATE COLUMN TABLE fr_p (id INT PRIMARY KEY)")
    await exec(c, "CREATE COLUMN TABLE fr_c (id INT, pid INT REFERENCES fr_p (id))")
    await exec(c, "ALTER TABLE fr_c ADD (x NVARCHAR(3))")
    await exec(c, "DROP TABLE fr_c")
    await exec(c, "DROP TABLE fr_p")
    expect(await exec(c, "SELECT COUNT(*) AS N FROM TABLES WHERE TABLE_NAME IN ('FR_P', 'FR_C')")).toEqual([{ N: 0 }])
  })
})
