/**
 * Recursive subquery factoring (SQL Language Reference, SELECT, subquery_factoring_clause, "Recursive Subquery
 * Factoring"): a WITH block with a column alias list whose UNION ALL's second member reads the block itself runs
 * as Oracle runs it; without the column list Oracle refuses it (ORA-32039).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { closeConnection, type Conn, failure, openConnection, oraCode } from "./oracle/helpers.ts"

describe("Oracle test server: recursive WITH", () => {
  let opened: Awaited<ReturnType<typeof openConnection>> | undefined
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    await conn.execute("CREATE TABLE rw_emp (id NUMBER, boss NUMBER, name VARCHAR2(10))")
    await conn.executeMany("INSERT INTO rw_emp VALUES (:1, :2, :3)", [[1, null, "A"], [2, 1, "B"], [3, 2, "C"], [4, 1, "D"]])
  })
  afterAll(() => closeConnection(opened ?? {}))

  it("runs a recursive block with a column list", async () => {
    expect((await conn.execute("WITH r (n) AS (SELECT 1 FROM dual UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT n FROM r")).rows).toEqual([[1], [2], [3], [4], [5]])
    const text = await conn.execute("WITH r (n, s) AS (SELECT 1, 'a' FROM dual UNION ALL SELECT n + 1, s || 'b' FROM r WHERE n < 3) SELECT n, s FROM r ORDER BY n")
    expect(text.rows).toEqual([[1, "a"], [2, "ab"], [3, "abb"]])
  })

  it("walks a table's hierarchy, joined or in a nested query", async () => {
    const tree = await conn.execute(
      "WITH h (id, name, lvl) AS (SELECT id, name, 1 FROM rw_emp WHERE boss IS NULL UNION ALL SELECT e.id, e.name, h.lvl + 1 FROM rw_emp e JOIN h ON e.boss = h.id) SELECT id, name, lvl FROM h ORDER BY id"
    )
    expect(tree.rows).toEqual([[1, "A", 1], [2, "B", 2], [3, "C", 3], [4, "D", 2]])
    const nested = await conn.execute("SELECT COUNT(*) FROM (WITH r (n) AS (SELECT 1 FROM dual UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n FROM r)")
    expect(nested.rows).toEqual([[3]])
  })

  it("refuses a recursive block without a column list (ORA-32039)", async () => {
    const e = await failure(() => conn.execute("WITH r AS (SELECT 1 n FROM dual UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT n FROM r"))
    expect(oraCode(e)).toBe("ORA-32039")
    expect((await conn.execute("SELECT COUNT(*) FROM rw_emp")).rows).toEqual([[4]])
  })
})
