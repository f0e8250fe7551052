/**
 * Oracle test server: DML through a view names the view's own columns only (raw node-oracledb). A view over a table
 * or another view shows only the columns its select list has; a statement naming another column of the table or
 * view under it fails as for any unknown column, ORA-00904 "invalid identifier" (Database Error Messages, ORA-00904).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const message = async (sql: string) => String((await failure(() => conn.execute(sql))).message).split("\n")[0]

describe("Oracle test server: DML through a view sees the view's columns only", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      "CREATE TABLE vc_emp (id NUMBER PRIMARY KEY, name VARCHAR2(20), sal NUMBER, dept NUMBER)",
      "INSERT INTO vc_emp VALUES (1, 'a', 100, 10)",
      "CREATE VIEW vc_one AS SELECT id, name, sal FROM vc_emp",
      "CREATE VIEW vc_two AS SELECT id, name FROM vc_one"
    ]) await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a column of the table under a view is no column of the view", async () => {
    expect(await message("UPDATE vc_one SET dept = 1")).toBe('ORA-00904: "DEPT": invalid identifier')
    expect(await message("DELETE FROM vc_one WHERE dept = 10")).toBe('ORA-00904: "DEPT": invalid identifier')
    expect(await message("INSERT INTO vc_one (id, dept) VALUES (2, 20)")).toBe('ORA-00904: "DEPT": invalid identifier')
  })

  it("a column of the view under a view is no column of the view", async () => {
    expect(await message("UPDATE vc_two SET sal = 1")).toBe('ORA-00904: "SAL": invalid identifier')
    expect(await message("UPDATE vc_two SET name = 'x' WHERE sal > 0")).toBe('ORA-00904: "SAL": invalid identifier')
    expect(await message("UPDATE vc_two v SET v.name = 'x' WHERE v.sal > 0")).toBe('ORA-00904: "V"."SAL": invalid identifier')
    expect(await message("DELETE FROM vc_two WHERE sal = 100")).toBe('ORA-00904: "SAL": invalid identifier')
    expect(await message("INSERT INTO vc_two (id, sal) VALUES (2, 5)")).toBe('ORA-00904: "SAL": invalid identifier')
    expect(await message("MERGE INTO vc_two d USING (SELECT 1 id FROM dual) s ON (d.id = s.id) WHEN MATCHED THEN UPDATE SET d.sal = 1")).toBe('ORA-00904: "D"."SAL": invalid identifier')
    // the view's own columns, and the source's columns, are taken
    expect((await conn.execute("UPDATE vc_two SET name = 'b' WHERE id = 1")).rowsAffected).toBe(1)
    expect((await conn.execute("MERGE INTO vc_two d USING (SELECT 1 id, 'c' sal FROM dual) s ON (d.id = s.id) WHEN MATCHED THEN UPDATE SET d.name = s.sal")).rowsAffected).toBe(1)
    expect((await conn.execute("SELECT name, sal FROM vc_emp")).rows).toEqual([["c", 100]])
    await conn.rollback()
  })
})
