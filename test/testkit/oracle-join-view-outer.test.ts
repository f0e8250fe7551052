/**
 * Oracle test server: DML through join views with outer joins and with RETURNING INTO (raw node-oracledb).
 *
 * "Views that involve outer joins are modifiable in some cases": in `emp e, dept d WHERE e.deptno = d.deptno (+)` the
 * emp table is key-preserved and its columns modifiable; in `e.deptno (+) = d.deptno` emp "is no longer key
 * preserved, because the empno column in the result of the join can have nulls" (Oracle Database Administrator's
 * Guide, "Updating Views That Involve Outer Joins"). So the table on the null-supplying side of an outer join is
 * never key-preserved, and the preserved side is as in an inner join (SQL Language Reference, "CREATE VIEW", "Notes
 * on Updatable Views"). RETURNING INTO through a join view returns the written row's values.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const rows = async (sql: string) => (await conn.execute(sql)).rows
const message = async (sql: string) => String((await failure(() => conn.execute(sql))).message).split("\n")[0]
const emps = () => rows("SELECT id, name, sal, dept FROM oj_emp ORDER BY id")

describe("Oracle test server: join views with outer joins, and RETURNING through join views", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      "CREATE TABLE oj_dept (dno NUMBER PRIMARY KEY, dname VARCHAR2(20))",
      "CREATE TABLE oj_emp (id NUMBER PRIMARY KEY, name VARCHAR2(20), sal NUMBER, dept NUMBER)",
      "INSERT INTO oj_dept VALUES (10, 'ten')",
      "INSERT INTO oj_dept VALUES (30, 'thirty')",
      "INSERT INTO oj_emp VALUES (1, 'a', 100, 10)",
      "INSERT INTO oj_emp VALUES (2, 'b', 200, 20)",
      "CREATE VIEW oj_left AS SELECT e.id, e.name, e.sal, d.dname FROM oj_emp e LEFT OUTER JOIN oj_dept d ON e.dept = d.dno",
      "CREATE VIEW oj_plus AS SELECT e.id, e.name, e.sal, d.dname FROM oj_emp e, oj_dept d WHERE e.dept = d.dno (+)",
      "CREATE VIEW oj_right AS SELECT e.id, e.name, d.dno, d.dname FROM oj_emp e RIGHT JOIN oj_dept d ON e.dept = d.dno",
      "CREATE VIEW oj_plus_emp AS SELECT e.id, e.name, d.dname FROM oj_emp e, oj_dept d WHERE e.dept (+) = d.dno",
      "CREATE VIEW oj_full AS SELECT e.id, e.name, d.dname FROM oj_emp e FULL JOIN oj_dept d ON e.dept = d.dno",
      "CREATE VIEW oj_rich AS SELECT id eid, name who, sal pay FROM oj_emp WHERE sal >= 100",
      "CREATE VIEW oj_rich_dept AS SELECT r.eid, r.who, r.pay, d.dname FROM oj_rich r JOIN oj_dept d ON r.eid = d.dno",
      "CREATE VIEW oj_dept_names AS SELECT dno, dname FROM oj_dept",
      "CREATE VIEW oj_emp_dnames AS SELECT e.id, e.name, n.dname FROM oj_emp e, oj_dept_names n WHERE e.dept = n.dno",
      "CREATE VIEW oj_inner AS SELECT e.id, e.name ename, e.sal, d.dname FROM oj_emp e JOIN oj_dept d ON e.dept = d.dno"
    ]) await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("writes the preserved side of a LEFT JOIN or (+) join, rows without a match included", async () => {
    // employee 2's department 20 does not exist: the outer join shows it all the same
    expect((await conn.execute("UPDATE oj_left SET sal = sal + 1 WHERE dname IS NULL")).rowsAffected).toBe(1)
    expect((await conn.execute("UPDATE oj_plus SET name = 'A' WHERE dname = 'ten'")).rowsAffected).toBe(1)
    expect((await conn.execute("INSERT INTO oj_left (id, name, sal) VALUES (3, 'c', 300)")).rowsAffected).toBe(1)
    expect(await emps()).toEqual([[1, "A", 100, 10], [2, "b", 201, 20], [3, "c", 300, null]])
    expect((await conn.execute("DELETE FROM oj_plus WHERE id >= 2")).rowsAffected).toBe(2)
    expect(await emps()).toEqual([[1, "A", 100, 10]])
    expect(await rows("SELECT dno FROM oj_dept ORDER BY dno")).toEqual([[10], [30]])
    await conn.rollback()
  })

  it("the null-supplying side is not key-preserved: ORA-01779, and ORA-01752 for a DELETE", async () => {
    expect(await message("UPDATE oj_left SET dname = 'x'")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    expect(await message("UPDATE oj_plus_emp SET name = 'x'")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    expect(await message("UPDATE oj_right SET name = 'x'")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    expect(await message("UPDATE oj_full SET name = 'x'")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    expect(await message("DELETE FROM oj_full")).toBe("ORA-01752: cannot delete from view without exactly one key-preserved table")
    // the right join's preserved side is the department (joined on nothing of the employee's key: not key-preserved)
    expect(await message("UPDATE oj_right SET dname = 'x'")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    expect(await emps()).toEqual([[1, "a", 100, 10], [2, "b", 200, 20]])
  })

  it("a join of a table and a view over one table: key-preserved through the view's columns, written through it", async () => {
    // oj_dept_names shows oj_dept's key: oj_emp, joined on it, is key-preserved
    expect((await conn.execute("UPDATE oj_emp_dnames SET name = dname WHERE id = 1")).rowsAffected).toBe(1)
    expect(await message("UPDATE oj_emp_dnames SET dname = 'x'")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    // a row of the view under the join view written through both views (its WHERE keeps to its rows)
    await conn.execute("INSERT INTO oj_dept VALUES (1, 'one')")
    expect((await conn.execute("UPDATE oj_rich_dept SET pay = pay + 5, who = dname WHERE eid = 1")).rowsAffected).toBe(1)
    expect((await conn.execute("DELETE FROM oj_emp_dnames WHERE dname = 'ten'")).rowsAffected).toBe(1)
    expect(await emps()).toEqual([[2, "b", 200, 20]])
    await conn.rollback()
    expect((await conn.execute("UPDATE oj_rich_dept SET pay = 0")).rowsAffected).toBe(0)
    await conn.execute("INSERT INTO oj_dept VALUES (1, 'one')")
    expect((await conn.execute("UPDATE oj_rich_dept SET pay = pay + 5, who = dname WHERE eid = 1")).rowsAffected).toBe(1)
    expect(await emps()).toEqual([[1, "one", 105, 10], [2, "b", 200, 20]])
    await conn.rollback()
  })

  it("RETURNING INTO through a join view returns the written table's values", async () => {
    const out = { type: oracledb.NUMBER, dir: oracledb.BIND_OUT }
    const text = { type: oracledb.STRING, dir: oracledb.BIND_OUT }
    const up = await conn.execute("UPDATE oj_inner v SET sal = sal * 2 WHERE id = 1 RETURNING v.sal, ename INTO :s, :n", { s: out, n: text })
    expect(up.outBinds).toEqual({ s: [200], n: ["a"] })
    const ins = await conn.execute("INSERT INTO oj_left (id, name, sal) VALUES (4, 'd', 40) RETURNING sal + 1 INTO :s", { s: out })
    expect(ins.outBinds).toEqual({ s: [41] })
    const del = await conn.execute("DELETE FROM oj_left WHERE id = 4 RETURNING name INTO :n", { n: text })
    expect(del.outBinds).toEqual({ n: ["d"] })
    expect(await emps()).toEqual([[1, "a", 200, 10], [2, "b", 200, 20]])
    await conn.rollback()
  })
})
