/**
 * Oracle test server: unbounded NUMBER columns (kept exact, as decimal text) compared with what a subquery gives
 * (IN, NOT IN, ANY / SOME / ALL, a row IN), and in set operations with number literals: Oracle compares the
 * numbers, whatever number type each side has (SQL Language Reference, "Numeric Precedence" and "Comparison
 * Conditions"). Raw node-oracledb, no driver in between.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn
const rows = async (sql: string) => (await conn.execute(sql)).rows

describe("Oracle test server: unbounded NUMBER columns against subqueries and literals (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      "CREATE TABLE t (n NUMBER, s VARCHAR2(10))",
      "INSERT INTO t VALUES (1, 'one')",
      "INSERT INTO t VALUES (2.5, 'two')",
      "CREATE TABLE v (m NUMBER(5, 1))",
      "INSERT INTO v VALUES (2.5)"
    ]) await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("compares with IN / NOT IN of a subquery of literals, bounded NUMBER columns and itself", async () => {
    expect(await rows("SELECT n FROM t WHERE n IN (SELECT 1 FROM dual)")).toEqual([[1]])
    expect(await rows("SELECT n FROM t WHERE n NOT IN (SELECT 1 FROM dual)")).toEqual([[2.5]])
    expect(await rows("SELECT n FROM t WHERE n IN (SELECT 2.5 FROM dual)")).toEqual([[2.5]])
    expect(await rows("SELECT n FROM t WHERE n IN (SELECT m FROM v)")).toEqual([[2.5]])
    expect(await rows("SELECT n FROM t WHERE n IN (SELECT n FROM t WHERE n > 2)")).toEqual([[2.5]])
    expect(await rows("SELECT n FROM t x WHERE n IN (SELECT m FROM v WHERE m = x.n)")).toEqual([[2.5]])
    // a NULL in NOT IN's subquery leaves no row true
    expect(await rows("SELECT n FROM t WHERE n NOT IN (SELECT NULL FROM dual)")).toEqual([])
  })

  it("compares with ANY / SOME / ALL of a subquery by value, and a row with an exact column IN a subquery's rows", async () => {
    expect(await rows("SELECT n FROM t WHERE n = ANY (SELECT 1 FROM dual)")).toEqual([[1]])
    expect(await rows("SELECT n FROM t WHERE n > ALL (SELECT 1 FROM dual)")).toEqual([[2.5]])
    expect(await rows("SELECT n FROM t WHERE n < SOME (SELECT 2 FROM dual)")).toEqual([[1]])
    expect(await rows("SELECT n FROM t WHERE (n, s) IN (SELECT 1, 'one' FROM dual)")).toEqual([[1]])
    expect(await rows("SELECT n FROM t WHERE (n, s) NOT IN (SELECT 1, 'one' FROM dual)")).toEqual([[2.5]])
  })

  it("mixes them with number literals and bounded columns in set operations", async () => {
    expect(await rows("SELECT n FROM t UNION SELECT 3 FROM dual ORDER BY 1")).toEqual([[1], [2.5], [3]])
    expect(await rows("SELECT 7 FROM dual UNION SELECT n FROM t ORDER BY 1")).toEqual([[1], [2.5], [7]])
    expect(await rows("SELECT n FROM t INTERSECT SELECT 2.5 FROM dual")).toEqual([[2.5]])
    expect(await rows("SELECT n FROM t MINUS SELECT 1 FROM dual")).toEqual([[2.5]])
    expect(await rows("SELECT n FROM t UNION SELECT m FROM v ORDER BY 1")).toEqual([[1], [2.5]])
  })

  it("divides a NUMBER(p,s) column passed on under a subquery's or WITH block's alias on every digit (was a double)", async () => {
    const text = { fetchTypeHandler: () => ({ type: oracledb.STRING }) }
    const exact = async (sql: string) => (await conn.execute(sql, [], text)).rows
    expect(await exact("SELECT x / 7, y / 3 FROM (SELECT m x, m * 2 y FROM v)")).toEqual([[".3571428571428571428571428571428571428571", "1.66666666666666666666666666666666666667"]])
    expect(await exact("WITH w AS (SELECT m AS z FROM v) SELECT z / 7 FROM w")).toEqual([[".3571428571428571428571428571428571428571"]])
    expect(await exact("SELECT x / 7 FROM (SELECT LEVEL x FROM dual CONNECT BY LEVEL <= 2)")).toEqual([[".1428571428571428571428571428571428571429"], [".2857142857142857142857142857142857142857"]])
  })

  it("divides a CAST to NUMBER(p,s) on every digit, of a literal, text or a column (was a double)", async () => {
    const text = { fetchTypeHandler: () => ({ type: oracledb.STRING }) }
    const r = await conn.execute("SELECT CAST(1 AS NUMBER(38)) / 7, CAST('2' AS NUMBER(5,1)) / 3, CAST(m AS NUMBER(10,1)) / 7 FROM v", [], text)
    expect(r.rows).toEqual([[".1428571428571428571428571428571428571429", ".6666666666666666666666666666666666666667", ".3571428571428571428571428571428571428571"]])
    // a BINARY_DOUBLE CAST stays binary
    expect(await rows("SELECT CAST(1.5 AS BINARY_DOUBLE) / 3 FROM dual")).toEqual([[0.5]])
  })
})
