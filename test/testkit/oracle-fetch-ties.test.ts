import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { withServer } from "./oracle/helpers.ts"

// The row_limiting_clause's PERCENT and WITH TIES forms through raw node-oracledb (SQL Language Reference, SELECT,
// "row_limiting_clause"): a percentage of the rows rounded up, and the rows tying with the last one on the sort keys,
// after an optional OFFSET. They failed ORA-00933.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: FETCH ... PERCENT and WITH TIES", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE ft (id NUMBER(4), sal NUMBER, grade NUMBER(3))")
    await conn.executeMany("INSERT INTO ft VALUES (:1, :2, :3)", [[1, 100, 1], [2, 200, 2], [3, 200, 2], [4, 300, 3], [5, 50, 1], [6, 300, 3]])
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const rows = async (sql: string, binds: Array<unknown> = []) => (await conn.execute(sql, binds)).rows

  it("WITH TIES adds the rows tying with the last one, by column, alias, position or expression", async () => {
    expect(await rows("SELECT id, sal FROM ft ORDER BY sal DESC, id FETCH FIRST 1 ROWS WITH TIES")).toEqual([[4, 300]])
    expect(await rows("SELECT id, sal FROM ft ORDER BY sal DESC FETCH FIRST 1 ROW WITH TIES")).toHaveLength(2)
    expect(await rows("SELECT id, grade g FROM ft ORDER BY g, id FETCH FIRST 3 ROWS WITH TIES")).toEqual([[1, 1], [5, 1], [2, 2]])
    expect(await rows("SELECT sal, id FROM ft ORDER BY 1 DESC FETCH FIRST 3 ROWS WITH TIES")).toHaveLength(4)
    expect(await rows("SELECT id, sal * 2 FROM ft ORDER BY 2 FETCH FIRST 2 ROWS WITH TIES")).toEqual([[5, 100], [1, 200]])
    expect(await rows("SELECT grade, SUM(sal) FROM ft GROUP BY grade ORDER BY SUM(sal) DESC FETCH FIRST 1 ROWS WITH TIES")).toEqual([[3, 600]])
    // without ORDER BY no rows are added; a fractional rowcount is truncated
    expect(await rows("SELECT id FROM ft FETCH FIRST 2 ROWS WITH TIES")).toHaveLength(2)
    expect(await rows("SELECT id FROM ft ORDER BY id FETCH FIRST 2.7 ROWS ONLY")).toEqual([[1], [2]])
    // in a subquery, and with a bind as the count
    expect(await rows("SELECT COUNT(*) FROM (SELECT id FROM ft ORDER BY grade FETCH FIRST :1 ROWS WITH TIES)", [3])).toEqual([[4]])
  })

  it("PERCENT keeps the rounded-up share of the rows, with or without ORDER BY and WITH TIES", async () => {
    expect(await rows("SELECT id FROM ft ORDER BY id FETCH FIRST 50 PERCENT ROWS ONLY")).toEqual([[1], [2], [3]])
    // 40 % of 6 rows is 2.4: three rows
    expect(await rows("SELECT id FROM ft ORDER BY id FETCH FIRST 40 PERCENT ROWS ONLY")).toEqual([[1], [2], [3]])
    expect(await rows("SELECT id FROM ft FETCH NEXT 40 PERCENT ROWS ONLY")).toHaveLength(3)
    expect(await rows("SELECT id, sal FROM ft ORDER BY sal FETCH FIRST 40 PERCENT ROWS WITH TIES")).toHaveLength(4)
    expect(await rows("SELECT id FROM ft ORDER BY id FETCH FIRST :p PERCENT ROWS ONLY", [10])).toEqual([[1]])
  })

  it("OFFSET before PERCENT or WITH TIES skips rows first (the percentage is of all rows)", async () => {
    expect(((await rows("SELECT id, sal FROM ft ORDER BY sal OFFSET 1 ROWS FETCH NEXT 2 ROWS WITH TIES")) as Array<[number, number]>).map((r) => r[1])).toEqual([100, 200, 200])
    expect(await rows("SELECT id FROM ft ORDER BY id OFFSET 2 ROWS FETCH NEXT 50 PERCENT ROWS ONLY")).toEqual([[3], [4], [5]])
    expect(await rows("SELECT id FROM ft ORDER BY id OFFSET 2 ROWS FETCH NEXT 2 ROWS ONLY")).toEqual([[3], [4]])
    // a negative offset is 0
    expect(await rows("SELECT id FROM ft ORDER BY id OFFSET -3 ROWS FETCH NEXT 20 PERCENT ROWS ONLY")).toEqual([[1], [2]])
  })

  it("over DISTINCT and set operations: the de-duplicated, combined rows are limited", async () => {
    // distinct grades 1, 2, 3
    expect(await rows("SELECT DISTINCT grade FROM ft ORDER BY grade FETCH FIRST 2 ROWS WITH TIES")).toEqual([[1], [2]])
    expect(await rows("SELECT DISTINCT f.sal s FROM ft f ORDER BY f.sal DESC FETCH FIRST 50 PERCENT ROWS ONLY")).toEqual([[300], [200]])
    // 50, 100, 200, 300 and 1, 2, 3: seven rows, 50 % is four
    expect(await rows("SELECT sal FROM ft UNION SELECT grade FROM ft ORDER BY 1 FETCH FIRST 50 PERCENT ROWS ONLY")).toEqual([[1], [2], [3], [50]])
    expect(await rows("SELECT sal x FROM ft UNION ALL SELECT grade FROM ft ORDER BY x DESC FETCH FIRST 1 ROWS WITH TIES")).toEqual([[300], [300]])
    // an unaliased expression's position there: ORA-03001, not a silently different answer
    await expect(conn.execute("SELECT DISTINCT sal * 2 FROM ft ORDER BY 1 FETCH FIRST 2 ROWS WITH TIES")).rejects.toThrow(/ORA-03001/)
  })

})
