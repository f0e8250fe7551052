/**
 * Oracle test server: DML error logging (raw node-oracledb).
 *
 * DBMS_ERRLOG.CREATE_ERROR_LOG('T') creates ERR$_T: ORA_ERR_NUMBER$, ORA_ERR_MESG$, ORA_ERR_ROWID$, ORA_ERR_OPTYP$,
 * ORA_ERR_TAG$, then T's columns as VARCHAR2(4000) (PL/SQL Packages and Types Reference, DBMS_ERRLOG). A DML statement
 * ending in `LOG ERRORS [INTO table] [(tag)] [REJECT LIMIT n | UNLIMITED]` logs the rows it fails on there and writes
 * the others; REJECT LIMIT defaults to 0, and a statement failing past its limit is undone while "the error logging
 * table retains the log entries recorded so far" (SQL Language Reference, INSERT, error_logging_clause).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const rows = async (sql: string) => (await conn.execute(sql)).rows
const message = async (sql: string) => String((await failure(() => conn.execute(sql))).message).split("\n")[0]
const logged = () => rows("SELECT ora_err_number$, ora_err_optyp$, ora_err_tag$, id, name FROM err$_el_emp ORDER BY id, ora_err_number$")

describe("Oracle test server: DML error logging (LOG ERRORS, DBMS_ERRLOG)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      "CREATE TABLE el_emp (id NUMBER PRIMARY KEY, name VARCHAR2(3) NOT NULL, sal NUMBER CHECK (sal > 0))",
      "BEGIN DBMS_ERRLOG.CREATE_ERROR_LOG('EL_EMP'); END;",
      "CREATE TABLE el_src (id NUMBER, name VARCHAR2(10), sal NUMBER)",
      "INSERT INTO el_src VALUES (1, 'a', 10)",
      "INSERT INTO el_src VALUES (2, 'toolong', 20)",
      "INSERT INTO el_src VALUES (3, NULL, 30)",
      "INSERT INTO el_src VALUES (4, 'd', -1)",
      "INSERT INTO el_src VALUES (5, 'e', 50)",
      "CREATE TABLE el_child (emp NUMBER REFERENCES el_emp)",
      "CREATE TABLE el_dept (dno NUMBER PRIMARY KEY, dname VARCHAR2(10))",
      "CREATE VIEW el_emp_dept AS SELECT e.id, e.name, e.sal, d.dname FROM el_emp e JOIN el_dept d ON e.sal = d.dno"
    ]) await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("CREATE_ERROR_LOG makes ERR$_<table> with the five error columns and the table's columns as VARCHAR2(4000)", async () => {
    expect(await rows("SELECT column_name, data_type, data_length FROM user_tab_columns WHERE table_name = 'ERR$_EL_EMP' ORDER BY column_id")).toEqual([
      ["ORA_ERR_NUMBER$", "NUMBER", 22],
      ["ORA_ERR_MESG$", "VARCHAR2", 2000],
      ["ORA_ERR_ROWID$", "UROWID", expect.any(Number)],
      ["ORA_ERR_OPTYP$", "VARCHAR2", 2],
      ["ORA_ERR_TAG$", "VARCHAR2", 2000],
      ["ID", "VARCHAR2", 4000],
      ["NAME", "VARCHAR2", 4000],
      ["SAL", "VARCHAR2", 4000]
    ])
    expect(await message("BEGIN DBMS_ERRLOG.CREATE_ERROR_LOG('NO_SUCH_TABLE'); END;")).toMatch(/^ORA-00942/)
  })

  it("INSERT ... SELECT ... LOG ERRORS REJECT LIMIT UNLIMITED writes the good rows and logs the others with the tag", async () => {
    const r = await conn.execute("INSERT INTO el_emp SELECT id, name, sal FROM el_src LOG ERRORS INTO err$_el_emp ('load 1') REJECT LIMIT UNLIMITED")
    expect(r.rowsAffected).toBe(2)
    expect(await rows("SELECT id, name, sal FROM el_emp ORDER BY id")).toEqual([[1, "a", 10], [5, "e", 50]])
    expect(await logged()).toEqual([
      [12899, "I", "load 1", "2", "toolong"],
      [1400, "I", "load 1", "3", null],
      [2290, "I", "load 1", "4", "d"]
    ])
    expect(await rows("SELECT ora_err_mesg$ FROM err$_el_emp WHERE id = '3'")).toEqual([['ORA-01400: cannot insert NULL into ("TEST"."EL_EMP"."NAME")']])
    await conn.rollback()
  })

  it("the default REJECT LIMIT is 0: the statement fails at the first error, undone, its error row kept", async () => {
    await conn.execute("INSERT INTO el_emp VALUES (1, 'a', 10)")
    expect(await message("INSERT INTO el_emp SELECT id, name, sal FROM el_src LOG ERRORS")).toMatch(/^ORA-00001: unique constraint/)
    expect(await rows("SELECT id FROM el_emp")).toEqual([[1]])
    expect(await logged()).toEqual([[1, "I", null, "1", "a"]])
    // REJECT LIMIT 2: the third failing row ends the statement; the three logged rows stay
    await conn.execute("DELETE FROM err$_el_emp")
    expect(await message("INSERT INTO el_emp SELECT id, name, sal FROM el_src LOG ERRORS ('two') REJECT LIMIT 2")).toMatch(/^ORA-01400/)
    expect(await rows("SELECT id FROM el_emp")).toEqual([[1]])
    expect(await logged()).toEqual([[1, "I", "two", "1", "a"], [12899, "I", "two", "2", "toolong"], [1400, "I", "two", "3", null]])
    await conn.rollback()
  })

  it("INSERT ... VALUES logs its row; the error table is named or taken as ERR$_<table>; a missing one is ORA-00942", async () => {
    await conn.execute("INSERT INTO el_emp VALUES (7, 'g', 70)")
    expect((await conn.execute("INSERT INTO el_emp VALUES (7, 'h', 80) LOG ERRORS ('dup') REJECT LIMIT 1")).rowsAffected).toBe(0)
    expect((await conn.execute("INSERT INTO el_emp (id, name) VALUES (8, 'h') LOG ERRORS REJECT LIMIT UNLIMITED")).rowsAffected).toBe(1)
    expect(await logged()).toEqual([[1, "I", "dup", "7", "h"]])
    // executeMany: each bind row a row of its own, the failing one logged with its values
    const many = await conn.executeMany("INSERT INTO el_emp VALUES (:1, :2, :3) LOG ERRORS ('many') REJECT LIMIT UNLIMITED", [[10, "x", 1], [11, "long", 1], [12, "z", 1]])
    expect(many.rowsAffected).toBe(2)
    expect(await rows("SELECT id FROM el_emp WHERE id >= 10 ORDER BY id")).toEqual([[10], [12]])
    expect(await rows("SELECT ora_err_number$, id, name FROM err$_el_emp WHERE ora_err_tag$ = 'many'")).toEqual([[12899, "11", "long"]])
    expect(await message("INSERT INTO el_src VALUES (9, 'x', 1) LOG ERRORS")).toMatch(/^ORA-00942/)
    expect(await message("INSERT INTO el_emp VALUES (9, 'x', 1) LOG ERRORS INTO no_such_log")).toMatch(/^ORA-00942/)
    await conn.rollback()
  })

  it("UPDATE and DELETE ... LOG ERRORS log the failing rows with their rowids and write the others", async () => {
    for (const sql of ["INSERT INTO el_emp VALUES (1, 'a', 10)", "INSERT INTO el_emp VALUES (2, 'bb', 20)", "INSERT INTO el_emp VALUES (3, 'ccc', 30)"]) await conn.execute(sql)
    expect((await conn.execute("UPDATE el_emp SET name = name || 'x' LOG ERRORS ('upd') REJECT LIMIT UNLIMITED")).rowsAffected).toBe(2)
    expect(await rows("SELECT id, name FROM el_emp ORDER BY id")).toEqual([[1, "ax"], [2, "bbx"], [3, "ccc"]])
    expect(await logged()).toEqual([[12899, "U", "upd", "3", "cccx"]])
    expect(await rows("SELECT ora_err_rowid$ FROM err$_el_emp")).toEqual(await rows("SELECT ROWIDTOCHAR(ROWID) FROM el_emp WHERE id = 3"))
    // a child row keeps one parent from being deleted
    await conn.execute("INSERT INTO el_child VALUES (2)")
    expect((await conn.execute("DELETE FROM el_emp WHERE id >= 2 LOG ERRORS ('del') REJECT LIMIT 10")).rowsAffected).toBe(1)
    expect(await rows("SELECT id FROM el_emp ORDER BY id")).toEqual([[1], [2]])
    expect(await rows("SELECT ora_err_number$, ora_err_optyp$, id FROM err$_el_emp WHERE ora_err_tag$ = 'del'")).toEqual([[2292, "D", "2"]])
    await conn.rollback()
  })

  it("through a join view an INSERT logs into its written table's log; a statement's own error is raised, not logged", async () => {
    expect((await conn.execute("INSERT INTO el_emp_dept (id, name) SELECT id, name FROM el_src WHERE id <= 2 LOG ERRORS INTO err$_el_emp REJECT LIMIT UNLIMITED")).rowsAffected).toBe(1)
    expect(await rows("SELECT id, name FROM el_emp")).toEqual([[1, "a"]])
    expect(await logged()).toEqual([[12899, "I", null, "2", "toolong"]])
    expect(await message("INSERT INTO el_emp (id, nosuch) SELECT id, name FROM el_src LOG ERRORS REJECT LIMIT UNLIMITED")).toMatch(/^ORA-00904/)
    expect(await rows("SELECT COUNT(*) FROM err$_el_emp")).toEqual([[1]])
    await conn.rollback()
  })
})
