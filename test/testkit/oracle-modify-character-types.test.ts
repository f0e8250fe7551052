import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

// SQL Language Reference, "ALTER TABLE", modify_col_properties: "You can change a CHAR column to VARCHAR2 (or VARCHAR)
// and a VARCHAR2 (or VARCHAR) to CHAR only if the column contains nulls in all rows or if you do not attempt to change
// the column size"; Administrator's Guide, "Modifying an Existing Column Definition": "You must set the initialization
// parameter BLANK_TRIMMING=TRUE to decrease the length of a non-empty CHAR column" (FALSE by default).
describe("Oracle test server: ALTER TABLE MODIFY between CHAR and VARCHAR2 of a non-empty column, through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE mc (id NUMBER PRIMARY KEY, c CHAR(5), v VARCHAR2(10), nc NCHAR(4), e CHAR(5))")
    await conn.execute("INSERT INTO mc (id, c, v, nc) VALUES (1, 'ab', 'xyz', 'n')")
    await conn.execute("INSERT INTO mc (id) VALUES (2)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("refuses CHAR <-> VARCHAR2 with another size over values (ORA-01439) and a shorter CHAR over values (ORA-01441)", async () => {
    for (const [sql, code] of [
      ["ALTER TABLE mc MODIFY c VARCHAR2(8)", "ORA-01439"],
      ["ALTER TABLE mc MODIFY v CHAR(12)", "ORA-01439"],
      ["ALTER TABLE mc MODIFY nc NVARCHAR2(6)", "ORA-01439"],
      ["ALTER TABLE mc MODIFY c CHAR(4)", "ORA-01441"],
      ["ALTER TABLE mc MODIFY nc NCHAR(3)", "ORA-01441"]
    ] as const)
      expect([sql, oraCode(await failure(() => conn.execute(sql)))]).toEqual([sql, code])
    // an empty column changes either way
    await conn.execute("ALTER TABLE mc MODIFY e CHAR(2)")
    await conn.execute("ALTER TABLE mc MODIFY e VARCHAR2(9)")
    const r = await conn.execute("SELECT column_name, data_type, char_length FROM user_tab_columns WHERE table_name = 'MC' AND column_name IN ('C', 'V', 'NC', 'E') ORDER BY column_id")
    expect(r.rows).toEqual([["C", "CHAR", 5], ["V", "VARCHAR2", 10], ["NC", "NCHAR", 4], ["E", "VARCHAR2", 9]])
  })

  it("changes a non-empty TIMESTAMP WITH LOCAL TIME ZONE column to DATE (was ORA-01439)", async () => {
    // "You can modify any TIMESTAMP WITH LOCAL TIME ZONE to a DATE column" (SQL Language Reference, "ALTER TABLE")
    await conn.execute("CREATE TABLE ml (id NUMBER, l TIMESTAMP WITH LOCAL TIME ZONE, l9 TIMESTAMP(9) WITH LOCAL TIME ZONE)")
    await conn.execute("INSERT INTO ml VALUES (1, TIMESTAMP '2024-01-02 03:04:05.25 +02:00', TIMESTAMP '2024-01-02 03:04:05.123456789 +02:00')")
    await conn.execute("INSERT INTO ml VALUES (2, NULL, NULL)")
    await conn.execute("ALTER TABLE ml MODIFY l DATE")
    await conn.execute("ALTER TABLE ml MODIFY l9 DATE")
    // the database time zone's wall clock (+00:00 here)
    expect((await conn.execute("SELECT TO_CHAR(l, 'YYYY-MM-DD HH24:MI:SS'), TO_CHAR(l9, 'YYYY-MM-DD HH24:MI:SS') FROM ml ORDER BY id")).rows).toEqual([
      ["2024-01-02 01:04:05", "2024-01-02 01:04:05"],
      [null, null]
    ])
    expect((await conn.execute("SELECT data_type FROM user_tab_columns WHERE table_name = 'ML' AND column_name LIKE 'L%' ORDER BY column_id")).rows).toEqual([["DATE"], ["DATE"]])
    // TIMESTAMP to DATE stays refused over values, as Oracle names only these changes
    await conn.execute("CREATE TABLE mt (t TIMESTAMP)")
    await conn.execute("INSERT INTO mt VALUES (TIMESTAMP '2024-01-02 03:04:05')")
    expect(oraCode(await failure(() => conn.execute("ALTER TABLE mt MODIFY t DATE")))).toBe("ORA-01439")
  })

  it("keeps a CHAR value's blanks when the column becomes a VARCHAR2 of its size", async () => {
    await conn.execute("ALTER TABLE mc MODIFY c VARCHAR2(5)")
    await conn.execute("ALTER TABLE mc MODIFY nc NVARCHAR2(4)")
    expect((await conn.execute("SELECT c || '|', LENGTH(c), nc || '|' FROM mc ORDER BY id")).rows).toEqual([["ab   |", 5, "n   |"], ["|", null, "|"]])
  })
})
