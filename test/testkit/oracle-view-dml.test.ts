/**
 * Oracle test server: INSERT, UPDATE, DELETE and MERGE through simple views write their base table (raw
 * node-oracledb). SQL Language Reference, "CREATE VIEW", "Notes on Updatable Views" (one base table; no DISTINCT,
 * aggregates, GROUP BY, set operators...; WITH READ ONLY; WITH CHECK OPTION). Codes and texts: Database Error
 * Messages ORA-01402, ORA-01732, ORA-01733, ORA-42399.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, withServer } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const rows = async (sql: string) => (await conn.execute(sql)).rows
const code = async (sql: string) => {
  const e: any = await failure(() => conn.execute(sql))
  return String(e.message).split("\n")[0]
}

describe("Oracle test server: DML through simple views (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      "CREATE TABLE vd_emp (id NUMBER PRIMARY KEY, name VARCHAR2(20), sal NUMBER, dept NUMBER)",
      "INSERT INTO vd_emp VALUES (1, 'a', 100, 10)",
      "INSERT INTO vd_emp VALUES (2, 'b', 200, 20)",
      "CREATE VIEW vd_all AS SELECT * FROM vd_emp",
      "CREATE VIEW vd_ten AS SELECT id, name AS ename, sal, sal * 12 annual FROM vd_emp e WHERE e.dept = 10",
      "CREATE VIEW vd_check (eid, ename, dept) AS SELECT id, name, dept FROM vd_emp WHERE dept = 10 WITH CHECK OPTION",
      "CREATE VIEW vd_ro AS SELECT * FROM vd_emp WITH READ ONLY",
      "CREATE VIEW vd_grp AS SELECT dept, COUNT(*) n FROM vd_emp GROUP BY dept",
      "CREATE VIEW vd_dist AS SELECT DISTINCT dept FROM vd_emp",
      // a view over a view: its writes reach the table under both
      "CREATE VIEW vd_ten_rich (eid, who, pay) AS SELECT id, ename, sal FROM vd_ten WHERE sal >= 100",
      "CREATE VIEW vd_over_all AS SELECT * FROM vd_all"
    ]) await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const table = () => rows("SELECT id, name, sal, dept FROM vd_emp ORDER BY id")

  it("INSERT, UPDATE, DELETE and MERGE through a view of all columns write the base table", async () => {
    expect((await conn.execute("INSERT INTO vd_all VALUES (3, 'c', 300, 30)")).rowsAffected).toBe(1)
    expect((await conn.execute("UPDATE vd_all SET sal = sal + 1 WHERE id = 3")).rowsAffected).toBe(1)
    await conn.execute("MERGE INTO vd_all t USING (SELECT 3 id, 'z' nm FROM dual UNION ALL SELECT 4, 'd' FROM dual) s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.name = s.nm WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.nm, 0, 40)")
    expect(await table()).toEqual([[1, "a", 100, 10], [2, "b", 200, 20], [3, "z", 301, 30], [4, "d", 0, 40]])
    // binds, and executeMany
    expect((await conn.executeMany("INSERT INTO vd_ten (id, ename, sal) VALUES (:1, :2, :3)", [[5, "e", 5], [6, "f", 6]])).rowsAffected).toBe(2)
    expect((await conn.execute("UPDATE vd_all SET dept = :d WHERE id IN (5, 6)", { d: 10 })).rowsAffected).toBe(2)
    expect(await rows("SELECT id, ename, annual FROM vd_ten WHERE id >= 5 ORDER BY id")).toEqual([[5, "e", 60], [6, "f", 72]])
    expect((await conn.execute("DELETE FROM vd_ten WHERE id >= :lo", { lo: 5 })).rowsAffected).toBe(2)
    expect((await conn.execute("DELETE FROM vd_all WHERE id >= 3")).rowsAffected).toBe(2)
    expect(await table()).toEqual([[1, "a", 100, 10], [2, "b", 200, 20]])
    await conn.rollback()
  })

  it("a view with renamed and expression columns and a WHERE: writes its base columns, keeps to its rows", async () => {
    // an INSERT names the view's columns; the row need not be one the view shows (no CHECK OPTION)
    await conn.execute("INSERT INTO vd_ten (id, ename, sal) VALUES (3, 'c', 300)")
    // an UPDATE reaches only the view's rows (dept 10), and reads its expression column
    expect((await conn.execute("UPDATE vd_ten SET sal = sal + 1, ename = UPPER(ename) WHERE annual > 1000")).rowsAffected).toBe(1)
    expect((await conn.execute("UPDATE vd_ten x SET x.sal = 0 WHERE x.ename = 'B'")).rowsAffected).toBe(0)
    expect((await conn.execute("DELETE vd_ten WHERE id = 3")).rowsAffected).toBe(0)
    expect(await table()).toEqual([[1, "A", 101, 10], [2, "b", 200, 20], [3, "c", 300, null]])
    const returned = await conn.execute("UPDATE vd_ten SET sal = 7 WHERE id = 1 RETURNING ename, annual INTO :n, :a", { n: { dir: oracledb.BIND_OUT, type: oracledb.STRING }, a: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect(returned.outBinds).toEqual({ n: ["A"], a: [84] })
    expect((await conn.execute("DELETE FROM vd_ten")).rowsAffected).toBe(1)
    expect(await table()).toEqual([[2, "b", 200, 20], [3, "c", 300, null]])
    await conn.rollback()
  })

  it("refuses writing an expression column (ORA-01733), a read-only view (ORA-42399) and a view that is not updatable (ORA-01732)", async () => {
    expect(await code("INSERT INTO vd_ten VALUES (4, 'd', 1, 12)")).toBe("ORA-01733: virtual column not allowed here")
    expect(await code("INSERT INTO vd_ten (id, annual) VALUES (4, 1)")).toBe("ORA-01733: virtual column not allowed here")
    expect(await code("UPDATE vd_ten SET annual = 5")).toBe("ORA-01733: virtual column not allowed here")
    expect(await code("INSERT INTO vd_ro VALUES (7, 'g', 1, 1)")).toBe("ORA-42399: cannot perform a DML operation on a read-only view")
    expect(await code("DELETE FROM vd_ro")).toBe("ORA-42399: cannot perform a DML operation on a read-only view")
    expect(await code("INSERT INTO vd_grp VALUES (1, 1)")).toBe("ORA-01732: data manipulation operation not legal on this view")
    expect(await code("DELETE FROM vd_dist")).toBe("ORA-01732: data manipulation operation not legal on this view")
    expect(await table()).toEqual([[1, "a", 100, 10], [2, "b", 200, 20]])
  })

  it("DML through a view in a PL/SQL block writes the base table too", async () => {
    const result = await conn.execute(
      "DECLARE n NUMBER := 0; BEGIN INSERT INTO vd_all VALUES (8, 'h', 1, 10); UPDATE vd_ten SET ename = 'H' WHERE id = 8; n := SQL%ROWCOUNT; DELETE FROM vd_ten WHERE id = 1; :n := n + SQL%ROWCOUNT; END;",
      { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    )
    expect(result.outBinds.n).toBe(2)
    expect(await table()).toEqual([[2, "b", 200, 20], [8, "H", 1, 10]])
    await conn.rollback()
  })

  it("USER_UPDATABLE_COLUMNS says which columns DML through each view may write", async () => {
    expect(await rows("SELECT table_name, column_name, updatable, insertable, deletable FROM user_updatable_columns WHERE table_name IN ('VD_TEN', 'VD_RO', 'VD_GRP', 'VD_TEN_RICH') OR (table_name = 'VD_EMP' AND column_name = 'ID') ORDER BY table_name, column_name")).toEqual([
      ["VD_EMP", "ID", "YES", "YES", "YES"],
      ["VD_GRP", "DEPT", "NO", "NO", "NO"],
      ["VD_GRP", "N", "NO", "NO", "NO"],
      ["VD_RO", "DEPT", "NO", "NO", "NO"],
      ["VD_RO", "ID", "NO", "NO", "NO"],
      ["VD_RO", "NAME", "NO", "NO", "NO"],
      ["VD_RO", "SAL", "NO", "NO", "NO"],
      ["VD_TEN", "ANNUAL", "NO", "NO", "YES"],
      ["VD_TEN", "ENAME", "YES", "YES", "YES"],
      ["VD_TEN", "ID", "YES", "YES", "YES"],
      ["VD_TEN", "SAL", "YES", "YES", "YES"],
      ["VD_TEN_RICH", "EID", "YES", "YES", "YES"],
      ["VD_TEN_RICH", "PAY", "YES", "YES", "YES"],
      ["VD_TEN_RICH", "WHO", "YES", "YES", "YES"]
    ])
  })

  it("INSERT, UPDATE, DELETE and MERGE through a view over a view write the table under both, within both views' rows", async () => {
    await conn.execute("INSERT INTO vd_over_all VALUES (3, 'c', 300, 10)")
    expect((await conn.execute("INSERT INTO vd_ten_rich (eid, who, pay) VALUES (4, 'd', 400)")).rowsAffected).toBe(1)
    // only the rows both views show (dept 10 and sal >= 100): 1 and 3, not 2 (dept 20) nor 4 (dept NULL)
    expect((await conn.execute("UPDATE vd_ten_rich SET pay = pay + 1, who = UPPER(who)")).rowsAffected).toBe(2)
    expect(await rows("SELECT eid, who, pay FROM vd_ten_rich ORDER BY eid")).toEqual([[1, "A", 101], [3, "C", 301]])
    await conn.execute("MERGE INTO vd_over_all t USING (SELECT 2 id, 'z' nm FROM dual) s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.name = s.nm")
    expect((await conn.execute("DELETE FROM vd_ten_rich WHERE pay > 200")).rowsAffected).toBe(1)
    expect(await table()).toEqual([[1, "A", 101, 10], [2, "z", 200, 20], [4, "d", 400, null]])
    await conn.rollback()
  })

  it("MERGE into a view with a WHERE matches only the view's rows: a source row matching a row outside it is inserted", async () => {
    // vd_ten shows dept 10 only: id 2 (dept 20) is outside it, so the source row for 2 does not match and is inserted
    // (its INSERT then fails on the key, as on Oracle), id 1 matches and is updated
    await conn.execute("MERGE INTO vd_ten t USING (SELECT 1 id, 'm' nm FROM dual) s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.ename = s.nm WHEN NOT MATCHED THEN INSERT (id, ename) VALUES (s.id, s.nm)")
    expect(await code("MERGE INTO vd_ten t USING (SELECT 2 id, 'n' nm FROM dual) s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.ename = s.nm WHEN NOT MATCHED THEN INSERT (id, ename) VALUES (s.id, s.nm)")).toMatch(/^ORA-00001/)
    await conn.execute("MERGE INTO vd_ten USING (SELECT 2 id, 'n' nm FROM dual UNION ALL SELECT 9, 'i' FROM dual UNION ALL SELECT 1, 'x' FROM dual) s ON (vd_ten.ename = s.nm OR vd_ten.id = s.id) WHEN MATCHED THEN UPDATE SET sal = 0 WHEN NOT MATCHED THEN INSERT (id, ename) VALUES (s.id + 10, s.nm)")
    expect(await table()).toEqual([[1, "m", 0, 10], [2, "b", 200, 20], [12, "n", null, null], [19, "i", null, null]])
    await conn.rollback()
  })

  it("through a join view: writes its key-preserved table, ORA-01779 for another table's column, ORA-01776 for two tables", async () => {
    await conn.execute("CREATE TABLE vd_dept (dno NUMBER PRIMARY KEY, dname VARCHAR2(20))")
    await conn.execute("INSERT INTO vd_dept VALUES (10, 'ten')")
    await conn.execute("INSERT INTO vd_dept VALUES (20, 'twenty')")
    // vd_emp is key-preserved (joined on vd_dept's primary key), vd_dept is not (a department shows once per employee)
    await conn.execute("CREATE VIEW vd_emp_dept AS SELECT e.id, e.name ename, e.sal, d.dname, d.dno FROM vd_emp e JOIN vd_dept d ON e.dept = d.dno")
    await conn.execute("CREATE VIEW vd_emp_dept2 (eid, ename, dname) AS SELECT e.id, name, dname FROM vd_emp e, vd_dept d WHERE e.dept = d.dno AND d.dno > 0")
    expect((await conn.execute("UPDATE vd_emp_dept SET sal = sal + 1, ename = dname || '!' WHERE dname = 'twenty'")).rowsAffected).toBe(1)
    expect((await conn.execute("UPDATE vd_emp_dept2 v SET v.ename = 'x' WHERE v.eid = :id", { id: 1 })).rowsAffected).toBe(1)
    expect((await conn.execute("INSERT INTO vd_emp_dept (id, ename, sal) VALUES (3, 'c', 3)")).rowsAffected).toBe(1)
    expect(await code("UPDATE vd_emp_dept SET dname = 'z'")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    expect(await code("INSERT INTO vd_emp_dept (id, dno) VALUES (4, 10)")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    expect(await code("UPDATE vd_emp_dept SET sal = 1, dno = 1")).toBe("ORA-01779: cannot modify a column which maps to a non key-preserved table")
    expect(await table()).toEqual([[1, "x", 100, 10], [2, "twenty!", 201, 20], [3, "c", 3, null]])
    // a DELETE removes the key-preserved table's rows the view shows (3 has no department: not in the view)
    expect((await conn.execute("DELETE FROM vd_emp_dept WHERE dname = 'ten' OR id = 3")).rowsAffected).toBe(1)
    expect(await rows("SELECT dno, dname FROM vd_dept ORDER BY dno")).toEqual([[10, "ten"], [20, "twenty"]])
    expect(await table()).toEqual([[2, "twenty!", 201, 20], [3, "c", 3, null]])
    await conn.rollback()
    // both tables key-preserved (one-to-one on both keys): a statement may write one of them, not both
    await conn.execute("CREATE TABLE vd_emp_x (xid NUMBER PRIMARY KEY, badge VARCHAR2(10))")
    await conn.execute("CREATE VIEW vd_emp_badge AS SELECT e.id, e.name, x.badge FROM vd_emp e JOIN vd_emp_x x ON x.xid = e.id")
    expect(await code("UPDATE vd_emp_badge SET name = 'n', badge = 'b'")).toBe("ORA-01776: cannot modify more than one base table through a join view")
    expect(await code("DELETE FROM vd_emp_badge")).toBe("ORA-01752: cannot delete from view without exactly one key-preserved table")
    expect(await rows("SELECT table_name, column_name, updatable, deletable FROM user_updatable_columns WHERE table_name = 'VD_EMP_DEPT' ORDER BY column_name")).toEqual([
      ["VD_EMP_DEPT", "DNAME", "NO", "YES"],
      ["VD_EMP_DEPT", "DNO", "NO", "YES"],
      ["VD_EMP_DEPT", "ENAME", "YES", "YES"],
      ["VD_EMP_DEPT", "ID", "YES", "YES"],
      ["VD_EMP_DEPT", "SAL", "YES", "YES"]
    ])
  })

  it("WITH CHECK OPTION: an INSERT or UPDATE leaving a row outside the view is ORA-01402 and undone", async () => {
    await conn.execute("INSERT INTO vd_check VALUES (5, 'e', 10)")
    expect(await code("INSERT INTO vd_check VALUES (6, 'f', 20)")).toBe("ORA-01402: view WITH CHECK OPTION where-clause violation")
    expect(await code("UPDATE vd_check SET dept = 30 WHERE eid = 5")).toBe("ORA-01402: view WITH CHECK OPTION where-clause violation")
    expect((await conn.execute("UPDATE vd_check SET ename = 'E' WHERE eid = 5")).rowsAffected).toBe(1)
    expect(await rows("SELECT eid, ename, dept FROM vd_check ORDER BY eid")).toEqual([[1, "a", 10], [5, "E", 10]])
    expect(await table()).toEqual([[1, "a", 100, 10], [2, "b", 200, 20], [5, "E", null, 10]])
    await conn.rollback()
  })
})

// SQL Language Reference, "CREATE VIEW" (the view owner's privileges on the base tables) and GRANT: a user writes
// through another schema's view with the privileges granted on the view, whatever they hold on its base table.
describe("Oracle test server: privileges of DML through a view (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let app: Conn
  let bob: Conn
  const message = async (sql: string) => String((await failure(() => bob.execute(sql))).message).split("\n")[0]
  beforeAll(async () => {
    const s = await withServer({ users: [{ name: "app", password: "app" }, { name: "bob", password: "bob" }] })
    server = s.server
    app = await s.connect("app", "app")
    bob = await s.connect("bob", "bob")
    for (const sql of [
      "CREATE TABLE pv_t (id NUMBER PRIMARY KEY, v VARCHAR2(10), dept NUMBER)",
      "INSERT INTO pv_t VALUES (1, 'a', 10)",
      "CREATE VIEW pv_v AS SELECT id, v FROM pv_t WHERE dept = 10",
      "CREATE VIEW pv_vv AS SELECT * FROM pv_v",
      "CREATE VIEW pv_w AS SELECT * FROM pv_t",
      "GRANT SELECT, INSERT, UPDATE, DELETE ON pv_v TO bob",
      "GRANT INSERT ON pv_vv TO bob",
      "GRANT SELECT, INSERT ON pv_t TO bob",
      "CREATE TABLE pv_d (dept NUMBER PRIMARY KEY, dname VARCHAR2(10))",
      "INSERT INTO pv_d VALUES (10, 'ten')",
      "CREATE VIEW pv_j AS SELECT t.id, t.v, d.dname FROM pv_t t JOIN pv_d d ON t.dept = d.dept",
      "GRANT UPDATE, DELETE ON pv_j TO bob"
    ])
      await app.execute(sql)
    await app.commit()
  })
  afterAll(async () => {
    for (const c of [app, bob]) await c?.close()
    await server?.close()
  })

  it("writes through a view granted to the user, not granted on its base table", async () => {
    await app.execute("REVOKE SELECT, INSERT ON pv_t FROM bob")
    expect(await message("SELECT * FROM app.pv_t")).toMatch(/^ORA-00942/)
    expect((await bob.execute("INSERT INTO app.pv_v (id, v) VALUES (2, 'b')")).rowsAffected).toBe(1)
    expect((await bob.execute("UPDATE app.pv_v SET v = 'A' WHERE id = 1")).rowsAffected).toBe(1)
    expect((await bob.execute("INSERT INTO app.pv_vv (id, v) VALUES (3, 'c')")).rowsAffected).toBe(1)
    expect((await bob.execute("UPDATE app.pv_j SET v = dname WHERE id = 1")).rowsAffected).toBe(1)
    expect((await bob.execute("DELETE FROM app.pv_j WHERE v = 'ten'")).rowsAffected).toBe(1)
    expect((await bob.execute("DELETE FROM app.pv_v WHERE id = 1")).rowsAffected).toBe(0)
    expect((await bob.execute("BEGIN INSERT INTO app.pv_v (id, v) VALUES (4, 'd'); END;")).rowsAffected).toBeUndefined()
    await bob.commit()
    expect((await app.execute("SELECT id, v, dept FROM pv_t ORDER BY id")).rows).toEqual([[2, "b", null], [3, "c", null], [4, "d", null]])
  })

  it("refuses a write through a view without the privilege on the view, whatever the user holds on its base table", async () => {
    await app.execute("GRANT SELECT, INSERT ON pv_t TO bob")
    // no privilege at all on pv_w: it is not there for bob; only INSERT on pv_vv: its UPDATE is refused
    expect(await message("INSERT INTO app.pv_w VALUES (9, 'z', 10)")).toMatch(/^ORA-00942/)
    expect(await message("UPDATE app.pv_vv SET v = 'z'")).toMatch(/^ORA-01031/)
    expect((await app.execute("SELECT COUNT(*) FROM pv_t WHERE id = 9 OR v = 'z'")).rows).toEqual([[0]])
  })
})
