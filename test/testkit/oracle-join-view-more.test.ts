/**
 * Oracle test server: DML through join views written with NATURAL JOIN and JOIN ... USING (raw node-oracledb).
 *
 * A join view's key-preserved table is the one every other table is joined to on all columns of one of its keys
 * (SQL Language Reference, "CREATE VIEW", "Notes on Updatable Views"; Administrator's Guide, "Updating a Join
 * View"); NATURAL JOIN equates the columns two tables share, USING the columns it names, so they join as ON does.
 * A column of a table that is not key-preserved is ORA-01779, a DELETE without exactly one key-preserved table
 * ORA-01752, a MERGE into a join view (or a view with INSTEAD OF triggers) ORA-38106.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const rows = async (sql: string) => (await conn.execute(sql)).rows
const message = async (sql: string) => String((await failure(() => conn.execute(sql))).message).split("\n")[0]
const emps = () => rows("SELECT id, name, dno FROM jm_emp ORDER BY id")

describe("Oracle test server: join views with NATURAL and USING joins", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      "CREATE TABLE jm_dept (dno NUMBER PRIMARY KEY, dname VARCHAR2(20))",
      "CREATE TABLE jm_emp (id NUMBER PRIMARY KEY, name VARCHAR2(20), dno NUMBER)",
      "CREATE TABLE jm_pay (id NUMBER PRIMARY KEY, sal NUMBER)",
      "INSERT INTO jm_dept VALUES (10, 'ten')",
      "INSERT INTO jm_dept VALUES (20, 'twenty')",
      "INSERT INTO jm_emp VALUES (1, 'a', 10)",
      "INSERT INTO jm_emp VALUES (2, 'b', 20)",
      "INSERT INTO jm_emp VALUES (3, 'c', 10)",
      "INSERT INTO jm_pay VALUES (1, 100)",
      "INSERT INTO jm_pay VALUES (2, 200)",
      "CREATE VIEW jm_natural AS SELECT id, name, dname FROM jm_emp NATURAL JOIN jm_dept",
      "CREATE VIEW jm_using AS SELECT e.id, e.name, d.dname FROM jm_emp e JOIN jm_dept d USING (dno)",
      "CREATE VIEW jm_using_pay AS SELECT id, e.name, e.dno, p.sal FROM jm_emp e INNER JOIN jm_pay p USING (id)",
      "CREATE VIEW jm_three AS SELECT id, e.name, d.dname, p.sal FROM jm_emp e JOIN jm_dept d USING (dno) JOIN jm_pay p USING (id)",
      "CREATE VIEW jm_sub AS SELECT e.id, e.name, s.dname FROM jm_emp e JOIN (SELECT dno, dname FROM jm_dept WHERE dno > 0) s ON e.dno = s.dno",
      "CREATE VIEW jm_sub_comma AS SELECT e.id, e.name, s.dept_name FROM jm_emp e, (SELECT dno dept_no, dname dept_name FROM jm_dept) s WHERE e.dno = s.dept_no",
      "CREATE VIEW jm_sub_nokey AS SELECT e.id, e.name, s.dname FROM jm_emp e JOIN (SELECT dname FROM jm_dept) s ON e.name = s.dname",
      "CREATE VIEW jm_natural_left AS SELECT id, e.name, p.sal FROM jm_emp e LEFT JOIN jm_pay p USING (id)",
      "CREATE VIEW jm_emp_only AS SELECT id, name FROM jm_emp",
      "CREATE VIEW jm_nested AS SELECT u.id, u.name, u.dname, p.sal FROM jm_using u JOIN jm_pay p ON p.id = u.id",
      "CREATE VIEW jm_sub_join AS SELECT e.id, e.name, s.dname, s.alt FROM jm_emp e JOIN (SELECT d.dno, d.dname, x.dname alt FROM jm_dept d JOIN jm_dept x ON x.dno = d.dno) s ON e.dno = s.dno",
      "CREATE VIEW jm_sub_join_nokey AS SELECT e.id, e.name, s.dname FROM jm_emp e JOIN (SELECT d.dno, d.dname FROM jm_dept d JOIN jm_emp e2 ON e2.dno = d.dno) s ON e.dno = s.dno",
      "CREATE VIEW jm_cross AS SELECT e.id, e.name, d.dname FROM jm_emp e CROSS JOIN jm_dept d WHERE e.dno = d.dno",
      "CREATE VIEW jm_cartesian AS SELECT e.id, e.name, p.sal FROM jm_emp e CROSS JOIN jm_pay p",
      "CREATE TRIGGER jm_emp_only_ins INSTEAD OF INSERT ON jm_emp_only FOR EACH ROW BEGIN INSERT INTO jm_emp (id, name) VALUES (:new.id, :new.name); END;"
    ]) await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("NATURAL JOIN on the department's key: the employee is key-preserved, the department is not", async () => {
    expect((await conn.execute("UPDATE jm_natural SET name = name || dname WHERE dname = 'ten'")).rowsAffected).toBe(2)
    expect(await emps()).toEqual([[1, "aten", 10], [2, "b", 20], [3, "cten", 10]])
    expect(await message("UPDATE jm_natural SET dname = 'x'")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    expect((await conn.execute("DELETE FROM jm_natural WHERE dname = 'twenty'")).rowsAffected).toBe(1)
    expect((await conn.execute("INSERT INTO jm_natural (id, name) VALUES (4, 'd')")).rowsAffected).toBe(1)
    expect(await emps()).toEqual([[1, "aten", 10], [3, "cten", 10], [4, "d", null]])
    expect(await rows("SELECT COUNT(*) FROM jm_dept")).toEqual([[2]])
    await conn.rollback()
  })

  it("JOIN ... USING: on the department's key the employee is key-preserved; on both tables' keys both are", async () => {
    expect((await conn.execute("UPDATE jm_using SET name = 'u' WHERE id = 2")).rowsAffected).toBe(1)
    expect(await message("UPDATE jm_using SET dname = 'x'")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    // joined on id, each table's key: both are key-preserved, so a DELETE has two and is ORA-01752
    expect((await conn.execute("UPDATE jm_using_pay SET sal = sal + 1 WHERE name = 'a'")).rowsAffected).toBe(1)
    expect((await conn.execute("UPDATE jm_using_pay SET name = 'p' WHERE sal = 200")).rowsAffected).toBe(1)
    expect(await message("UPDATE jm_using_pay SET name = 'p', sal = 1")).toBe("ORA-01776: cannot modify more than one base table through a join view")
    expect(await message("DELETE FROM jm_using_pay")).toBe("ORA-01752: cannot delete from view without exactly one key-preserved table")
    expect(await emps()).toEqual([[1, "a", 10], [2, "p", 20], [3, "c", 10]])
    expect(await rows("SELECT id, sal FROM jm_pay ORDER BY id")).toEqual([[1, 101], [2, 200]])
    await conn.rollback()
  })

  it("a chain of USING joins and a LEFT JOIN ... USING keep the rules of the joins they stand for", async () => {
    expect((await conn.execute("UPDATE jm_three SET sal = sal * 2 WHERE dname = 'ten'")).rowsAffected).toBe(1)
    expect(await rows("SELECT id, sal FROM jm_pay ORDER BY id")).toEqual([[1, 200], [2, 200]])
    expect(await message("UPDATE jm_three SET name = 'x', sal = 1")).toBe("ORA-01776: cannot modify more than one base table through a join view")
    expect(await message("UPDATE jm_three SET id = 9")).toBe("ORA-01733: virtual column not allowed here")
    // the pay table is joined on its key to the employee, not to the department: a department's row may appear once
    // per employee, so it is not key-preserved (each other table must be reached from it through joins on keys)
    expect(await message("UPDATE jm_three SET dname = 'x'")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    // (the shared id, ORA-01733 above, is no column to update either)
    expect(await rows("SELECT column_name, updatable FROM user_updatable_columns WHERE table_name = 'JM_THREE' ORDER BY column_name")).toEqual([["DNAME", "NO"], ["ID", "NO"], ["NAME", "YES"], ["SAL", "YES"]])
    // the pay table is on the null-supplying side of the left join
    expect((await conn.execute("UPDATE jm_natural_left SET name = 'n' WHERE sal IS NULL")).rowsAffected).toBe(1)
    expect(await message("UPDATE jm_natural_left SET sal = 1")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    expect(await emps()).toEqual([[1, "a", 10], [2, "b", 20], [3, "n", 10]])
    await conn.rollback()
  })

  it("a join over a subquery of one table: its keys are those of its table it shows", async () => {
    // the subquery shows the department's key, the employee joined on it: the employee is key-preserved
    expect((await conn.execute("UPDATE jm_sub SET name = dname WHERE id = 1")).rowsAffected).toBe(1)
    expect((await conn.execute("UPDATE jm_sub_comma SET name = 'c' || dept_name WHERE dept_name = 'twenty'")).rowsAffected).toBe(1)
    expect(await message("UPDATE jm_sub SET dname = 'x'")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    expect((await conn.execute("DELETE FROM jm_sub_comma WHERE id = 3")).rowsAffected).toBe(1)
    expect(await emps()).toEqual([[1, "ten", 10], [2, "ctwenty", 20]])
    // joined on no key of the subquery: the employee's rows may repeat, nothing is key-preserved
    expect(await message("UPDATE jm_sub_nokey SET name = 'x'")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    expect(await message("DELETE FROM jm_sub_nokey")).toBe("ORA-01752: cannot delete from view without exactly one key-preserved table")
    await conn.rollback()
  })

  it("a CROSS JOIN is joined by the WHERE's equalities; a cartesian product keeps no table key-preserved", async () => {
    expect((await conn.execute("UPDATE jm_cross SET name = name || dname WHERE id = 2")).rowsAffected).toBe(1)
    expect(await message("UPDATE jm_cross SET dname = 'x'")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    expect((await conn.execute("DELETE FROM jm_cross WHERE dname = 'ten' AND id = 3")).rowsAffected).toBe(1)
    expect(await emps()).toEqual([[1, "a", 10], [2, "btwenty", 20]])
    // each employee's row repeats once per pay row
    expect(await message("UPDATE jm_cartesian SET name = 'x'")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    expect(await message("DELETE FROM jm_cartesian")).toBe("ORA-01752: cannot delete from view without exactly one key-preserved table")
    await conn.rollback()
  })

  it("a join over a subquery that is itself a join: its keys are those of its key-preserved tables it shows", async () => {
    // the department joined to itself on its key: the subquery's rows are keyed by dno, so the employee is key-preserved
    expect((await conn.execute("UPDATE jm_sub_join SET name = alt WHERE id = 2")).rowsAffected).toBe(1)
    expect((await conn.execute("DELETE FROM jm_sub_join WHERE dname = 'ten' AND id = 1")).rowsAffected).toBe(1)
    expect(await message("UPDATE jm_sub_join SET dname = 'x'")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    expect(await emps()).toEqual([[2, "twenty", 20], [3, "c", 10]])
    // a department's row repeats once per employee of it inside the subquery: dno is no key of its rows
    expect(await message("UPDATE jm_sub_join_nokey SET name = 'x'")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    await conn.rollback()
  })

  it("a join over a join view: its key-preserved table's keys are the join view's, written through it", async () => {
    // jm_using keeps the employee key-preserved (keyed by id), joined here to the pay table on both keys
    expect((await conn.execute("UPDATE jm_nested SET name = 'z' WHERE sal = 200")).rowsAffected).toBe(1)
    expect((await conn.execute("UPDATE jm_nested SET sal = sal + 1 WHERE name = 'a'")).rowsAffected).toBe(1)
    expect(await emps()).toEqual([[1, "a", 10], [2, "z", 20], [3, "c", 10]])
    expect(await rows("SELECT id, sal FROM jm_pay ORDER BY id")).toEqual([[1, 101], [2, 200]])
    // the department is not key-preserved inside jm_using
    expect(await message("UPDATE jm_nested SET dname = 'x'")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    expect(await rows("SELECT column_name, updatable FROM user_updatable_columns WHERE table_name = 'JM_NESTED' ORDER BY column_name")).toEqual([["DNAME", "NO"], ["ID", "YES"], ["NAME", "YES"], ["SAL", "YES"]])
    await conn.rollback()
  })

  it("MERGE into a join view, or into a view with INSTEAD OF triggers, is ORA-38106 and writes nothing", async () => {
    // Database Error Messages, ORA-38106: "When using MERGE to modify a view, you must only specify a single table in
    // the view, and the view cannot have an INSTEAD OF trigger"
    const refused = "ORA-38106: MERGE not supported on join view or view with INSTEAD OF trigger"
    expect(await message("MERGE INTO jm_using v USING (SELECT 1 id, 'm' name FROM dual) s ON (v.id = s.id) WHEN MATCHED THEN UPDATE SET v.name = s.name")).toBe(refused)
    expect(await message("MERGE INTO jm_three v USING (SELECT 9 id, 'm' name FROM dual) s ON (v.id = s.id) WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id, s.name)")).toBe(refused)
    expect(await message("MERGE INTO jm_emp_only v USING (SELECT 9 id, 'm' name FROM dual) s ON (v.id = s.id) WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id, s.name)")).toBe(refused)
    expect(await emps()).toEqual([[1, "a", 10], [2, "b", 20], [3, "c", 10]])
    // the trigger still writes in place of an INSERT
    expect((await conn.execute("INSERT INTO jm_emp_only VALUES (9, 'i')")).rowsAffected).toBe(1)
    expect(await rows("SELECT id, name FROM jm_emp WHERE id = 9")).toEqual([[9, "i"]])
    await conn.rollback()
  })
})
