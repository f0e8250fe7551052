import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

/**
 * PL/SQL functions declared in a query's WITH clause (12c), through raw node-oracledb (SQL Language Reference,
 * "SELECT", plsql_declarations: functions and procedures the query may call, visible to that statement only).
 */
describe("Oracle test server: WITH FUNCTION in a query", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE wf_tab (id NUMBER, name VARCHAR2(10))")
    await conn.execute("INSERT INTO wf_tab VALUES (1, 'one')")
    await conn.execute("INSERT INTO wf_tab VALUES (2, 'two')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a function declared in WITH is called in the select list", async () => {
    const r = await conn.execute("WITH FUNCTION f(x NUMBER) RETURN NUMBER IS BEGIN RETURN x * 2; END; SELECT f(3) AS v FROM DUAL")
    expect(r.rows).toEqual([[6]])
    expect(r.metaData?.[0]?.name).toBe("V")
  })

  it("several declarations call each other, per row of a table and in WHERE", async () => {
    const r = await conn.execute(
      `WITH
         FUNCTION dbl(n NUMBER) RETURN NUMBER IS
         BEGIN
           RETURN n * 2;
         END;
         FUNCTION label(n NUMBER, s VARCHAR2) RETURN VARCHAR2 IS
           x NUMBER := dbl(n);
         BEGIN
           IF x > 2 THEN
             RETURN UPPER(s) || x;
           END IF;
           RETURN s || x;
         END label;
       SELECT id, label(id, name) FROM wf_tab WHERE dbl(id) >= 2 ORDER BY id`
    )
    expect(r.rows).toEqual([
      [1, "one2"],
      [2, "TWO4"]
    ])
  })

  it("a subquery factoring item may follow the declarations; the function is gone after the statement", async () => {
    const r = await conn.execute("WITH FUNCTION inc(x NUMBER) RETURN NUMBER IS BEGIN RETURN x + 1; END; q AS (SELECT 41 AS n FROM dual) SELECT inc(n) FROM q")
    expect(r.rows).toEqual([[42]])
    const e = await failure(() => conn.execute("SELECT inc(1) FROM dual"))
    expect(oraCode(e)).toBe("ORA-00904")
  })
})
