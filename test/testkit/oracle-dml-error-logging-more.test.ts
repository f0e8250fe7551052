/**
 * Oracle test server: DML error logging with binds, MERGE, and the values a log entry holds (raw node-oracledb).
 *
 * An UPDATE / DELETE / MERGE with LOG ERRORS logs each row it fails on and writes the others (SQL Language Reference,
 * UPDATE / DELETE / MERGE, error_logging_clause); a MERGE's failing UPDATE logs ORA_ERR_OPTYP$ 'U', its failing INSERT
 * 'I'. The log's columns named as the DML table's hold "the corresponding data from the offending row"
 * (Administrator's Guide, "Error Logging Table Format"): for an UPDATE the values it tried to write, converted into the
 * VARCHAR2(4000) log column as Oracle converts implicitly (a DATE in NLS_DATE_FORMAT).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const rows = async (sql: string, binds: ReadonlyArray<unknown> = []) => (await conn.execute(sql, binds)).rows
const message = async (sql: string) => String((await failure(() => conn.execute(sql))).message).split("\n")[0]
const logged = () => rows("SELECT ora_err_number$, ora_err_optyp$, ora_err_tag$, id, name, born FROM err$_lm_emp ORDER BY ora_err_tag$, id")
const emps = () => rows("SELECT id, name, TO_CHAR(born, 'YYYY-MM-DD') FROM lm_emp ORDER BY id")

describe("Oracle test server: DML error logging with binds and MERGE", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      "CREATE TABLE lm_emp (id NUMBER PRIMARY KEY, name VARCHAR2(3) NOT NULL, born DATE CHECK (born > DATE '2000-01-01'))",
      "BEGIN DBMS_ERRLOG.CREATE_ERROR_LOG('LM_EMP'); END;",
      "CREATE TABLE lm_src (id NUMBER, name VARCHAR2(10), born DATE)",
      "INSERT INTO lm_src VALUES (1, 'x', DATE '2020-01-02')",
      "INSERT INTO lm_src VALUES (2, 'long', DATE '2020-01-03')",
      "INSERT INTO lm_src VALUES (4, 'd', DATE '2020-01-04')",
      "INSERT INTO lm_src VALUES (5, 'toolong', DATE '2020-01-05')",
      "INSERT INTO lm_src VALUES (6, 'f', DATE '1999-01-06')",
      "CREATE TABLE lm_child (emp NUMBER REFERENCES lm_emp)",
      "ALTER SESSION SET NLS_DATE_FORMAT = 'DD-MON-RR'",
      "CREATE VIEW lm_recent AS SELECT id, name, born FROM lm_emp WHERE id > 1",
      "CREATE TABLE lm_dept (dno NUMBER PRIMARY KEY, dname VARCHAR2(10))",
      "INSERT INTO lm_dept VALUES (1, 'z')",
      "INSERT INTO lm_dept VALUES (3, 'three')",
      "CREATE VIEW lm_emp_dept AS SELECT e.id, e.name, e.born, d.dname FROM lm_emp e JOIN lm_dept d ON d.dno = e.id"
    ]) await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const seed = async () => {
    for (const [id, name, day] of [[1, "a", 2], [2, "bb", 3], [3, "ccc", 4]] as const) await conn.execute(`INSERT INTO lm_emp VALUES (${id}, '${name}', DATE '2020-01-0${day}')`)
  }

  it("UPDATE ... LOG ERRORS logs the values it tried to write, a DATE as NLS_DATE_FORMAT shows it", async () => {
    await seed()
    const r = await conn.execute("UPDATE lm_emp SET name = name || 'x', born = CASE WHEN id = 1 THEN born - 7310 ELSE born END WHERE id = 1 OR id = 3 LOG ERRORS ('upd') REJECT LIMIT UNLIMITED")
    expect(r.rowsAffected).toBe(0)
    // id 1 breaks the CHECK on born, id 3 the name's length
    expect(await rows("SELECT ora_err_number$, ora_err_optyp$, id, name, born FROM err$_lm_emp ORDER BY id")).toEqual([
      [2290, "U", "1", "ax", "28-DEC-99"],
      [12899, "U", "3", "cccx", "04-JAN-20"]
    ])
    // the WHERE condition keeps its own precedence: row 2 is neither updated nor logged
    expect(await emps()).toEqual([[1, "a", "2020-01-02"], [2, "bb", "2020-01-03"], [3, "ccc", "2020-01-04"]])
    await conn.rollback()
  })

  it("UPDATE and DELETE ... LOG ERRORS with binds write the good rows and log the others", async () => {
    await seed()
    const upd = await conn.execute("UPDATE lm_emp SET name = name || :s WHERE id >= :lo LOG ERRORS ('upd') REJECT LIMIT UNLIMITED", ["y", 2])
    expect(upd.rowsAffected).toBe(1)
    expect(await emps()).toEqual([[1, "a", "2020-01-02"], [2, "bby", "2020-01-03"], [3, "ccc", "2020-01-04"]])
    expect(await logged()).toEqual([[12899, "U", "upd", "3", "cccy", "04-JAN-20"]])
    await conn.execute("INSERT INTO lm_child VALUES (3)")
    const del = await conn.execute("DELETE FROM lm_emp WHERE id > :lo LOG ERRORS ('del') REJECT LIMIT 5", [1])
    expect(del.rowsAffected).toBe(1)
    expect(await rows("SELECT id FROM lm_emp ORDER BY id")).toEqual([[1], [3]])
    expect(await rows("SELECT ora_err_number$, ora_err_optyp$, id, name FROM err$_lm_emp WHERE ora_err_tag$ = 'del'")).toEqual([[2292, "D", "3", "ccc"]])
    // executeMany: each bind row an UPDATE of its own
    const many = await conn.executeMany("UPDATE lm_emp SET name = :1 WHERE id = :2 LOG ERRORS ('many') REJECT LIMIT UNLIMITED", [["q", 1], ["long", 3]])
    expect(many.rowsAffected).toBe(1)
    expect(await rows("SELECT id, name FROM err$_lm_emp WHERE ora_err_tag$ = 'many'")).toEqual([["3", "long"]])
    await conn.rollback()
  })

  it("INSERT ... LOG ERRORS logs a DATE as NLS_DATE_FORMAT shows it", async () => {
    expect((await conn.execute("INSERT INTO lm_emp SELECT id, name, born FROM lm_src LOG ERRORS ('sel') REJECT LIMIT UNLIMITED")).rowsAffected).toBe(2)
    expect((await conn.execute("INSERT INTO lm_emp VALUES (:1, :2, TO_DATE('1990-01-07', 'YYYY-MM-DD')) LOG ERRORS ('val') REJECT LIMIT UNLIMITED", [7, "g"])).rowsAffected).toBe(0)
    expect(await logged()).toEqual([
      [12899, "I", "sel", "2", "long", "03-JAN-20"],
      [12899, "I", "sel", "5", "toolong", "05-JAN-20"],
      [2290, "I", "sel", "6", "f", "06-JAN-99"],
      [2290, "I", "val", "7", "g", "07-JAN-90"]
    ])
    await conn.rollback()
  })

  it("MERGE ... LOG ERRORS updates and inserts the good rows, logging a failing UPDATE as U and a failing INSERT as I", async () => {
    await seed()
    const merge = `MERGE INTO lm_emp t USING (SELECT id, name, born FROM lm_src WHERE id <> :skip) s ON (t.id = s.id)
      WHEN MATCHED THEN UPDATE SET t.name = s.name
      WHEN NOT MATCHED THEN INSERT (id, name, born) VALUES (s.id, s.name, s.born)
      LOG ERRORS ('merge') REJECT LIMIT UNLIMITED`
    expect((await conn.execute(merge, [99])).rowsAffected).toBe(2)
    expect(await emps()).toEqual([[1, "x", "2020-01-02"], [2, "bb", "2020-01-03"], [3, "ccc", "2020-01-04"], [4, "d", "2020-01-04"]])
    expect(await logged()).toEqual([
      [12899, "U", "merge", "2", "long", "03-JAN-20"],
      [12899, "I", "merge", "5", "toolong", "05-JAN-20"],
      [2290, "I", "merge", "6", "f", "06-JAN-99"]
    ])
    // REJECT LIMIT 0: the first failing row ends the MERGE, undone, its entry kept
    await conn.execute("DELETE FROM err$_lm_emp")
    expect(await message("MERGE INTO lm_emp t USING lm_src s ON (t.id = s.id) WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.name, s.born) LOG ERRORS")).toMatch(/^ORA-12899/)
    expect(await rows("SELECT COUNT(*) FROM lm_emp")).toEqual([[4]])
    expect(await rows("SELECT ora_err_optyp$, id FROM err$_lm_emp")).toEqual([["I", "5"]])
    await conn.rollback()
  })

  it("MERGE ... DELETE WHERE ... LOG ERRORS deletes each updated row its condition holds for, logging a failing one as D", async () => {
    await conn.execute("CREATE TRIGGER lm_keep BEFORE DELETE ON lm_emp FOR EACH ROW WHEN (old.id = 3) BEGIN RAISE_APPLICATION_ERROR(-20001, 'kept'); END;")
    await seed()
    await conn.execute(`MERGE INTO lm_emp t USING (SELECT 1 id, 'p' name FROM dual UNION ALL SELECT 2, 'long' FROM dual UNION ALL SELECT 3, 'q' FROM dual) s
      ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.name = s.name DELETE WHERE t.id <> 2
      LOG ERRORS ('mdel') REJECT LIMIT UNLIMITED`)
    // 1 updated then deleted; 2's update fails, so it is not deleted; 3 updated, its delete failing in its trigger
    expect(await emps()).toEqual([[2, "bb", "2020-01-03"], [3, "q", "2020-01-04"]])
    expect(await rows("SELECT ora_err_number$, ora_err_optyp$, id, name FROM err$_lm_emp ORDER BY id")).toEqual([[12899, "U", "2", "long"], [20001, "D", "3", "q"]])
    await conn.rollback()
    await conn.execute("DROP TRIGGER lm_keep")
  })

  it("UPDATE, DELETE and MERGE ... LOG ERRORS through a view run row by row on the table under it", async () => {
    await seed()
    await conn.execute("INSERT INTO lm_child VALUES (3)")
    // a simple view with a WHERE: only its rows, the failing one logged with the values it tried to write
    expect((await conn.execute("UPDATE lm_recent SET name = name || :s LOG ERRORS INTO err$_lm_emp ('view') REJECT LIMIT UNLIMITED", ["v"])).rowsAffected).toBe(1)
    expect(await emps()).toEqual([[1, "a", "2020-01-02"], [2, "bbv", "2020-01-03"], [3, "ccc", "2020-01-04"]])
    expect(await rows("SELECT ora_err_number$, ora_err_optyp$, id, name FROM err$_lm_emp WHERE ora_err_tag$ = 'view'")).toEqual([[12899, "U", "3", "cccv"]])
    expect(await rows("SELECT ora_err_rowid$ FROM err$_lm_emp WHERE ora_err_tag$ = 'view'")).toEqual(await rows("SELECT ROWIDTOCHAR(ROWID) FROM lm_emp WHERE id = 3"))
    expect((await conn.execute("DELETE FROM lm_recent LOG ERRORS INTO err$_lm_emp ('vdel') REJECT LIMIT UNLIMITED")).rowsAffected).toBe(1)
    expect(await rows("SELECT ora_err_number$, ora_err_optyp$, id FROM err$_lm_emp WHERE ora_err_tag$ = 'vdel'")).toEqual([[2292, "D", "3"]])
    // a join view: its key-preserved table's rows
    expect((await conn.execute("UPDATE lm_emp_dept SET name = name || dname LOG ERRORS INTO err$_lm_emp ('join') REJECT LIMIT UNLIMITED")).rowsAffected).toBe(1)
    expect(await rows("SELECT id, name FROM err$_lm_emp WHERE ora_err_tag$ = 'join' ORDER BY id")).toEqual([["3", "cccthree"]])
    // the view's own refusals are the statement's errors, raised and not logged
    expect(await message("UPDATE lm_emp_dept SET name = 'x', dname = 'y' LOG ERRORS INTO err$_lm_emp ('refused') REJECT LIMIT UNLIMITED")).toBe("ORA-01776: cannot modify more than one base table through a join view")
    expect(await message("MERGE INTO lm_emp_dept t USING lm_src s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.name = s.name LOG ERRORS INTO err$_lm_emp ('refused') REJECT LIMIT UNLIMITED")).toMatch(/^ORA-38106/)
    expect(await rows("SELECT COUNT(*) FROM err$_lm_emp WHERE ora_err_tag$ = 'refused'")).toEqual([[0]])
    // a MERGE into a simple view: its failing UPDATE of a view's row logged
    // (the view shows id 3, not id 1)
    const merge = "MERGE INTO lm_recent t USING (SELECT 3 id, 'long' name FROM dual UNION ALL SELECT 1, 'b' FROM dual) s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.name = s.name LOG ERRORS INTO err$_lm_emp ('vmerge') REJECT LIMIT UNLIMITED"
    expect((await conn.execute(merge)).rowsAffected).toBe(0)
    expect(await rows("SELECT ora_err_optyp$, id, name FROM err$_lm_emp WHERE ora_err_tag$ = 'vmerge'")).toEqual([["U", "3", "long"]])
    expect(await emps()).toEqual([[1, "az", "2020-01-02"], [3, "ccc", "2020-01-04"]])
    await conn.rollback()
  })
})
