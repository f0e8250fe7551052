import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// `UPDATE t ... WHERE CURRENT OF c` / `DELETE FROM t WHERE CURRENT OF c` over a cursor whose query joins tables FOR
// UPDATE [OF t.col]: the statement writes the row of its table the cursor fetched last (PL/SQL Language Reference,
// "CURRENT OF Clause" and "SELECT FOR UPDATE and FOR UPDATE Cursors": with FOR UPDATE OF only the named tables' rows
// are locked). Each test uses its own rows and rolls back.
describe("Oracle test server: WHERE CURRENT OF a join's FOR UPDATE cursor", () => {
  let server: OracleTestServerHandle
  let a: Conn
  beforeAll(async () => {
    ;({ server, conn: a } = await openConnection())
    await a.execute("CREATE TABLE co_emp (id NUMBER PRIMARY KEY, dept NUMBER, sal NUMBER)")
    await a.executeMany("INSERT INTO co_emp VALUES (:1, :2, :3)", [[1, 10, 100], [2, 10, 200], [3, 20, 300], [4, 30, 400]], { autoCommit: true })
    await a.execute("CREATE TABLE co_dept (dept NUMBER PRIMARY KEY, name VARCHAR2(10), budget NUMBER)")
    await a.executeMany("INSERT INTO co_dept VALUES (:1, :2, :3)", [[30, "ops", 9], [20, "it", 7], [10, "hr", 5]], { autoCommit: true })
  })
  afterAll(() => closeConnection({ server, conn: a }))

  const emps = async () => (await a.execute("SELECT id, sal FROM co_emp ORDER BY id")).rows

  it("an explicit cursor FOR UPDATE OF e.sal over a join updates the employee row fetched last (was: PLS-00404)", async () => {
    await a.execute(`DECLARE
  CURSOR c IS SELECT e.id, d.name FROM co_dept d JOIN co_emp e ON e.dept = d.dept WHERE d.name = 'hr' ORDER BY e.id FOR UPDATE OF e.sal;
  v_id NUMBER; v_name VARCHAR2(10);
BEGIN
  OPEN c;
  FETCH c INTO v_id, v_name;
  FETCH c INTO v_id, v_name;
  UPDATE co_emp SET sal = sal + 1 WHERE CURRENT OF c;
  CLOSE c;
END;`)
    expect(await emps()).toEqual([[1, 100], [2, 201], [3, 300], [4, 400]])
    await a.rollback()
  })

  it("a cursor FOR loop over a comma join FOR UPDATE updates and deletes each fetched row of the statement's table (was: PLS-00404)", async () => {
    await a.execute(`DECLARE
  CURSOR c IS SELECT e.id, d.budget FROM co_emp e, co_dept d WHERE e.dept = d.dept FOR UPDATE;
BEGIN
  FOR r IN c LOOP
    IF r.id = 4 THEN DELETE FROM co_emp WHERE CURRENT OF c;
    ELSE UPDATE co_emp SET sal = r.budget WHERE CURRENT OF c; UPDATE co_dept SET budget = budget * 10 WHERE CURRENT OF c;
    END IF;
  END LOOP;
END;`)
    expect(await emps()).toEqual([[1, 5], [2, 5], [3, 7]])
    // department 10 was the current row twice
    expect((await a.execute("SELECT dept, budget FROM co_dept ORDER BY dept")).rows).toEqual([[10, 500], [20, 70], [30, 9]])
    await a.rollback()
  })

  it("WHERE CURRENT OF a table the cursor's FOR UPDATE OF does not lock finds no current row: ORA-01410 (was: PLS-00404)", async () => {
    const e = await failure(() =>
      a.execute(`DECLARE
  CURSOR c IS SELECT e.id, d.name FROM co_emp e JOIN co_dept d ON d.dept = e.dept FOR UPDATE OF e.sal;
  v_id NUMBER; v_name VARCHAR2(10);
BEGIN
  OPEN c; FETCH c INTO v_id, v_name;
  UPDATE co_dept SET budget = 0 WHERE CURRENT OF c;
END;`)
    )
    expect(oraCode(e)).toBe("ORA-01410")
    await a.rollback()
    expect((await a.execute("SELECT SUM(budget) FROM co_dept")).rows).toEqual([[21]])
  })
})
