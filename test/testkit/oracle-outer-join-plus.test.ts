/**
 * Oracle's outer join operator (+) against the Oracle test server through raw node-oracledb. Expected results and
 * errors follow the SQL Language Reference, "Joins" (Outer Joins and their restrictions on the (+) operator), and the
 * error messages ORA-01416, ORA-01468, ORA-01719, ORA-25156 (https://docs.oracle.com/en/error-help/db/ora-01468).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: outer joins with (+)", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE dept (deptno NUMBER(2), dname VARCHAR2(10), region NUMBER(2))")
    await conn.execute("CREATE TABLE emp (empno NUMBER(4), ename VARCHAR2(10), deptno NUMBER(2), region NUMBER(2))")
    await conn.execute("CREATE TABLE loc (region NUMBER(2), city VARCHAR2(10))")
    for (const [d, n, r] of [[10, "ACCOUNTING", 1], [20, "RESEARCH", 2], [40, "OPERATIONS", 1]]) await conn.execute("INSERT INTO dept VALUES (:1, :2, :3)", [d, n, r])
    for (const [e, n, d, r] of [[1, "KING", 10, 1], [2, "SMITH", 20, 1], [3, "ADAMS", 20, 2], [4, "NOBODY", 30, 1]]) {
      await conn.execute("INSERT INTO emp VALUES (:1, :2, :3, :4)", [e, n, d, r])
    }
    await conn.execute("INSERT INTO loc VALUES (1, 'NEW YORK')")
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("keeps every row of the table without (+): a.x = b.x(+) is a left join, a.x(+) = b.x a right join", async () => {
    const left = await conn.execute("SELECT d.dname, e.ename FROM dept d, emp e WHERE d.deptno = e.deptno(+) ORDER BY d.dname, e.ename")
    expect(left.rows).toEqual([["ACCOUNTING", "KING"], ["OPERATIONS", null], ["RESEARCH", "ADAMS"], ["RESEARCH", "SMITH"]])
    const right = await conn.execute("SELECT e.ename, d.dname FROM dept d, emp e WHERE d.deptno(+) = e.deptno ORDER BY e.ename")
    expect(right.rows).toEqual([["ADAMS", "RESEARCH"], ["KING", "ACCOUNTING"], ["NOBODY", null], ["SMITH", "RESEARCH"]])
  })

  it("joins on several columns, with unqualified columns and plain WHERE filters applied after the join", async () => {
    const r = await conn.execute(
      "SELECT e.ename, dname FROM emp e, dept d WHERE e.deptno = d.deptno(+) AND e.region = d.region(+) AND e.empno < 4 ORDER BY e.ename"
    )
    // SMITH (dept 20, region 1) has no department in region 1
    expect(r.rows).toEqual([["ADAMS", "RESEARCH"], ["KING", "ACCOUNTING"], ["SMITH", null]])
  })

  it("finds the table of an unqualified (+) column and of a column qualified by its table's name", async () => {
    const r = await conn.execute("SELECT ename, dname FROM emp, dept WHERE emp.deptno = dept.deptno(+) AND dname(+) <> 'RESEARCH' ORDER BY ename")
    expect(r.rows).toEqual([["ADAMS", null], ["KING", "ACCOUNTING"], ["NOBODY", null], ["SMITH", null]])
  })

  it("moves a (+) comparison with a constant into the join, unlike a plain filter", async () => {
    const inJoin = await conn.execute("SELECT d.dname, e.ename FROM dept d, emp e WHERE d.deptno = e.deptno(+) AND e.ename(+) = 'SMITH' ORDER BY d.dname")
    expect(inJoin.rows).toEqual([["ACCOUNTING", null], ["OPERATIONS", null], ["RESEARCH", "SMITH"]])
    const filtered = await conn.execute("SELECT d.dname, e.ename FROM dept d, emp e WHERE d.deptno = e.deptno(+) AND e.ename = 'SMITH'")
    expect(filtered.rows).toEqual([["RESEARCH", "SMITH"]])
  })

  it("chains outer joins over three tables and joins a table outer to two others (allowed since Oracle 12c)", async () => {
    const chain = await conn.execute("SELECT e.ename, d.dname, l.city FROM emp e, dept d, loc l WHERE e.deptno = d.deptno(+) AND d.region = l.region(+) ORDER BY e.ename")
    expect(chain.rows).toEqual([["ADAMS", "RESEARCH", null], ["KING", "ACCOUNTING", "NEW YORK"], ["NOBODY", null, null], ["SMITH", "RESEARCH", null]])
    const two = await conn.execute("SELECT e.ename, l.city, d.dname FROM emp e, loc l, dept d WHERE e.deptno = d.deptno(+) AND l.region = d.region(+) AND e.empno = 1")
    expect(two.rows).toEqual([["KING", "NEW YORK", "ACCOUNTING"]])
  })

  it("works in a view", async () => {
    await conn.execute("CREATE VIEW emp_dept AS SELECT e.ename, d.dname FROM emp e, dept d WHERE e.deptno = d.deptno(+)")
    expect((await conn.execute("SELECT ename FROM emp_dept WHERE dname IS NULL")).rows).toEqual([["NOBODY"]])
  })

  it("works in a subquery", async () => {
    const r = await conn.execute("SELECT COUNT(*) FROM (SELECT d.deptno FROM dept d, emp e WHERE d.deptno = e.deptno(+) AND e.empno IS NULL)")
    expect(r.rows).toEqual([[1]])
  })

  it("refuses the forms Oracle refuses with its errors", async () => {
    const code = async (sql: string) => oraCode(await failure(() => conn.execute(sql)))
    expect(await code("SELECT 1 FROM dept d, emp e WHERE d.deptno(+) = e.deptno(+)")).toBe("ORA-01468")
    expect(await code("SELECT 1 FROM dept d, emp e WHERE d.deptno = e.deptno(+) OR e.ename = 'X'")).toBe("ORA-01719")
    expect(await code("SELECT 1 FROM dept d, emp e WHERE e.deptno(+) IN (10, 20)")).toBe("ORA-01719")
    expect(await code("SELECT 1 FROM dept d, emp e WHERE d.deptno = e.deptno(+) AND d.region(+) = e.region")).toBe("ORA-01416")
    expect(await code("SELECT 1 FROM dept d JOIN emp e ON d.deptno = e.deptno, loc l WHERE l.region = d.region(+)")).toBe("ORA-25156")
  })
})
