import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, oracledb, withServer } from "./oracle/helpers.ts"


for (const version of ["23ai", "19c"] as const)
describe(`Oracle test server: accepted SQL subset (${version} layout)`, () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const q = async (sql: string, binds: unknown = []) => (await conn.execute(sql, binds)).rows
  beforeAll(async () => {
    const s = await withServer({ version })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE dept (id NUMBER GENERATED ALWAYS AS IDENTITY, dname VARCHAR2(20), created DATE DEFAULT SYSDATE)")
    await conn.execute("INSERT INTO dept (dname) VALUES ('sales')")
    await conn.execute("INSERT INTO dept (dname) VALUES ('ops')")
    await conn.execute("CREATE SEQUENCE emp_seq START WITH 100 INCREMENT BY 10")
    await conn.execute("CREATE TABLE emp (id NUMBER PRIMARY KEY, dept_id NUMBER, sal NUMBER(8,2), hired DATE)")
    await conn.execute("INSERT INTO emp VALUES (emp_seq.NEXTVAL, 1, 100, DATE '2024-01-15')")
    await conn.execute("INSERT INTO emp VALUES (emp_seq.NEXTVAL, 1, 200, TO_DATE('2024-02-20', 'YYYY-MM-DD'))")
    await conn.execute("INSERT INTO emp VALUES (emp_seq.NEXTVAL, 2, 300, TIMESTAMP '2024-03-01 10:00:00')")
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("supports identity columns, defaults and sequences", async () => {
    expect(await q("SELECT id, dname FROM dept ORDER BY id")).toEqual([[1, "sales"], [2, "ops"]])
    expect((await q("SELECT created FROM dept WHERE id = 1"))[0][0]).toBeInstanceOf(Date)
    expect(await q("SELECT id FROM emp ORDER BY id")).toEqual([[100], [110], [120]])
    const cur = await conn.execute("SELECT emp_seq.CURRVAL FROM DUAL")
    expect(cur.metaData[0].name).toBe("CURRVAL")
    expect(cur.rows).toEqual([[120]])
  })

  it("runs joins, grouping, subqueries, set operators and analytic functions", async () => {
    expect(await q("SELECT d.dname, COUNT(*) cnt, SUM(e.sal) total FROM emp e JOIN dept d ON d.id = e.dept_id GROUP BY d.dname ORDER BY d.dname")).toEqual([
      ["ops", 1, 300],
      ["sales", 2, 300]
    ])
    expect(await q("SELECT dname FROM dept WHERE id IN (SELECT dept_id FROM emp WHERE sal > 150) ORDER BY 1")).toEqual([["ops"], ["sales"]])
    expect(await q("SELECT id FROM emp MINUS SELECT id FROM emp WHERE id = 100 ORDER BY 1")).toEqual([[110], [120]])
    expect(await q("SELECT id FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY sal DESC) rn FROM emp) WHERE rn = 1")).toEqual([[120]])
  })

  it("limits rows with FETCH FIRST, OFFSET and ROWNUM", async () => {
    expect(await q("SELECT id FROM emp ORDER BY id FETCH FIRST 2 ROWS ONLY")).toEqual([[100], [110]])
    expect(await q("SELECT id FROM emp ORDER BY id OFFSET 1 ROWS FETCH NEXT 1 ROWS ONLY")).toEqual([[110]])
    expect(await q("SELECT id FROM emp WHERE ROWNUM <= 2 AND sal > 0")).toHaveLength(2)
    expect(await q("SELECT id FROM emp WHERE ROWNUM = 1")).toHaveLength(1)
  })

  it("translates Oracle functions and names unaliased expressions like Oracle", async () => {
    const r = await conn.execute(
      "SELECT CASE WHEN sal > 150 THEN 'high' ELSE 'low' END lvl, DECODE(dept_id, 1, 'one', 'other'), NVL2(hired, 'y', 'n'), TO_CHAR(hired, 'YYYY-MM-DD'), SUBSTR('hello', 2, 3), UPPER('abc') FROM emp WHERE id = 100"
    )
    expect(r.metaData.map((m: any) => m.name)).toEqual(["LVL", "DECODE(DEPT_ID,1,'ONE','OTHER')", "NVL2(HIRED,'Y','N')", "TO_CHAR(HIRED,'YYYY-MM-DD')", "SUBSTR('HELLO',2,3)", "UPPER('ABC')"])
    expect(r.rows).toEqual([["low", "one", "y", "2024-01-15", "ell", "ABC"]])
    expect(await q("SELECT q'[it's]', N'ünï', 'a' || 'b' FROM DUAL")).toEqual([["it's", "ünï", "ab"]])
    expect(await q("SELECT TO_NUMBER('12.5'), ROUND(12.345, 2), MOD(7, 3), COALESCE(NULL, 2), INSTR('hello', 'l'), LENGTH('hello') FROM DUAL")).toEqual([
      [12.5, 12.35, 1, 2, 3, 5]
    ])
    expect(await q("SELECT INSTR('abcabc', 'b', 3), REPLACE('aXb', 'X', ''), REPLACE('aXb', 'X'), LPAD('7', 3, '0') FROM DUAL")).toEqual([[5, "ab", "ab", "007"]])
    expect(await q("SELECT id FROM emp WHERE id = 100 FOR UPDATE NOWAIT")).toEqual([[100]])
    // TO_CHAR(number) without a format: no leading zero, no trailing fraction zeros (Oracle's TM9 text)
    expect(await q("SELECT TO_CHAR(0.5), TO_CHAR(-0.25), TO_CHAR(10), TO_CHAR(123.45), TO_CHAR(CAST(2.50 AS NUMBER(5,2))), TO_CHAR('0.50') FROM DUAL")).toEqual([
      [".5", "-.25", "10", "123.45", "2.5", "0.50"]
    ])
  })

  it("follows Oracle operator semantics for ||, division and date arithmetic", async () => {
    expect(await q("SELECT 'a' || NULL || 'b', NULL || NULL, 1 || 'x', 'n=' || (2 + 3) FROM DUAL")).toEqual([["ab", null, "1x", "n=5"]])
    expect(await q("SELECT 7 / 2, (1 + 2) / 3 * 2, COUNT(*) / 2 FROM DUAL")).toEqual([[3.5, 2, 0.5]])
    expect(oraCode(await failure(() => conn.execute("SELECT 1 / 0 FROM DUAL")))).toBe("ORA-01476")
    // NUMBER arithmetic is decimal in Oracle: 0.1 + 0.2 is exactly .3 (digits checked as text)
    await conn.execute("CREATE TABLE dec_t (a NUMBER, b NUMBER)")
    await conn.execute("INSERT INTO dec_t VALUES (0.1, 0.2)")
    const sums = await conn.execute("SELECT a + b, a * 3, (a + b) * 1e20, 1 / 3 FROM dec_t", [], { fetchTypeHandler: () => ({ type: oracledb.STRING }) })
    expect(sums.rows[0].slice(0, 3)).toEqual([".3", ".3", "30000000000000000000"])
    expect(Number(sums.rows[0][3])).toBe(1 / 3)
    await conn.execute("DROP TABLE dec_t")
    const r = await conn.execute("SELECT DATE '2024-01-31' + 1, DATE '2024-03-01' - DATE '2024-02-01', TO_DATE('2024-01-01', 'YYYY-MM-DD') - 0.5, SYSDATE - SYSDATE FROM DUAL")
    expect(r.rows).toEqual([[new Date(2024, 1, 1), 29, new Date(2023, 11, 31, 12), 0]])
    expect(r.metaData[0].dbTypeName).toBe("DATE")
    expect(await q("SELECT hired + 1, hired - DATE '2024-01-01', TRUNC(hired + 0.75), TRUNC(hired, 'MM') FROM emp WHERE id = 110")).toEqual([
      [new Date(2024, 1, 21), 50, new Date(2024, 1, 20), new Date(2024, 1, 1)]
    ])
    expect(await q("SELECT COUNT(*) FROM emp WHERE hired > DATE '2024-03-01' - 1")).toEqual([[1]])
    const i = await conn.execute("SELECT SYSTIMESTAMP - INTERVAL '1' DAY FROM DUAL")
    expect(i.metaData[0].name).toBe("SYSTIMESTAMP-INTERVAL'1'DAY")
    expect(Math.abs(Date.now() - 86_400_000 - i.rows[0][0].getTime())).toBeLessThan(60_000)
  })

  it("updates, deletes, merges and returns values with RETURNING INTO", async () => {
    expect((await conn.execute("UPDATE emp SET sal = sal + 1 WHERE dept_id = 1")).rowsAffected).toBe(2)
    expect((await conn.execute("MERGE INTO emp t USING (SELECT 100 AS id, 999 AS sal FROM DUAL) s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.sal = s.sal")).rowsAffected).toBe(1)
    expect(await q("SELECT sal FROM emp WHERE id = 100")).toEqual([[999]])
    const r = await conn.execute("INSERT INTO emp (id, dept_id, sal) VALUES (:1, :2, :3) RETURNING id, sal * 2 INTO :4, :5", [
      7,
      2,
      21.5,
      { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
      { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }
    ])
    expect(r.outBinds).toEqual([[7], [43]])
    const d = await conn.execute("DELETE FROM emp WHERE dept_id = :d RETURNING id INTO :ids", { d: 2, ids: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect(d.rowsAffected).toBe(2)
    expect([...d.outBinds.ids].sort((a: number, b: number) => a - b)).toEqual([7, 120])
    await conn.rollback()
  })

  it("accepts IS JSON check constraints and high-precision temporal types", async () => {
    await conn.execute(
      "CREATE TABLE docs_j (id NUMBER(19, 0), doc NVARCHAR2(2000) CONSTRAINT doc_json CHECK (doc IS JSON), raw_doc BLOB CHECK (raw_doc IS JSON), ts TIMESTAMP(9), iv INTERVAL DAY(9) TO SECOND(9), ym INTERVAL YEAR(9) TO MONTH)"
    )
    await conn.execute("INSERT INTO docs_j (id, doc) VALUES (1, '{\"a\": 1}')")
    const r = await conn.execute("SELECT id, doc, ts, iv, ym FROM docs_j")
    expect(r.metaData.map((m: any) => m.dbTypeName)).toEqual(["NUMBER", "NVARCHAR2", "TIMESTAMP", "INTERVAL DAY TO SECOND", "INTERVAL YEAR TO MONTH"])
    expect(r.metaData[2].precision).toBe(9)
    expect(r.rows).toEqual([[1, '{"a": 1}', null, null, null]])
    const c = await conn.execute("SELECT search_condition FROM user_constraints WHERE constraint_name = 'DOC_JSON'")
    expect(c.rows).toEqual([["doc IS JSON"]])
    await conn.execute("DROP TABLE docs_j")
  })

  it("creates tables from queries, views, alters and drops tables", async () => {
    await conn.execute("CREATE TABLE emp2 AS SELECT id, sal FROM emp")
    expect((await conn.execute("SELECT * FROM emp2 ORDER BY id")).metaData.map((m: any) => [m.name, m.dbTypeName])).toEqual([
      ["ID", "NUMBER"],
      ["SAL", "NUMBER"]
    ])
    await conn.execute("ALTER TABLE emp2 ADD (note VARCHAR2(10))")
    await conn.execute("ALTER TABLE emp2 RENAME COLUMN note TO remark")
    expect((await conn.execute("SELECT remark FROM emp2")).metaData[0]).toMatchObject({ name: "REMARK", dbTypeName: "VARCHAR2", byteSize: 10 })
    await conn.execute("TRUNCATE TABLE emp2")
    expect(await q("SELECT COUNT(*) FROM emp2")).toEqual([[0]])
    await conn.execute("CREATE OR REPLACE VIEW emp_v AS SELECT id, sal * 2 AS dbl FROM emp")
    expect(await q("SELECT dbl FROM emp_v WHERE id = 110")).toEqual([[400]])
    await conn.execute("DROP TABLE emp2 PURGE")
    expect(oraCode(await failure(() => conn.execute("SELECT * FROM emp2")))).toBe("ORA-00942")
  })
})
