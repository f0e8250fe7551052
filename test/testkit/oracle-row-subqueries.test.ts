/**
 * Oracle test server: row-valued subqueries Oracle runs (raw node-oracledb, no driver in between):
 * `UPDATE t SET (a, b) = (SELECT x, y ...)`, plain and correlated, and the conditions `(a, b) = (SELECT x, y ...)`,
 * `(a, b) <> (SELECT ...)`, `(a, b) IN (SELECT x, y ...)`, with Oracle's NULL semantics and ORA-01427 when the
 * subquery gives two rows; and a set operation inside a select-list subquery.
 *
 * Oracle SQL Language Reference, "UPDATE" (update_set_clause: "If the subquery returns no rows, then the column is
 * assigned a null"), "Comparison Conditions" (a list compared with a subquery's row), Database Error Messages
 * ORA-01427 "single-row subquery returns more than one row".
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, withServer } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn
const rows = async (sql: string, binds: ReadonlyArray<unknown> = []) => (await conn.execute(sql, binds)).rows
const raised = async (sql: string) => {
  const e: any = await failure(() => conn.execute(sql))
  return String(e.message).split("\n")[0]
}
const TWO_ROWS = "ORA-01427: single-row subquery returns more than one row"

describe("Oracle test server: row-valued subqueries (raw node-oracledb)", () => {
  beforeAll(async () => {
    const s = await withServer()
    server = s.server
    conn = await s.connect()
    for (const sql of [
      "CREATE TABLE u (id NUMBER(5), a NUMBER(5), b VARCHAR2(10))",
      "CREATE TABLE w (id NUMBER(5), x NUMBER(5), y VARCHAR2(10))",
      "INSERT INTO w VALUES (1, 100, 'p')",
      "INSERT INTO w VALUES (2, 200, NULL)",
      "CREATE TABLE t (n NUMBER)",
      "INSERT INTO t VALUES (1)"
    ]) await conn.execute(sql)
    await conn.commit()
  })
  beforeEach(async () => {
    await conn.execute("DELETE FROM u")
    for (const [id, a, b] of [[1, 10, "x"], [2, 20, "y"], [3, 30, "z"]]) await conn.execute("INSERT INTO u VALUES (:1, :2, :3)", [id, a, b])
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("UPDATE ... SET (a, b) = (correlated subquery) sets both columns, NULL where the subquery finds no row", async () => {
    expect((await conn.execute("UPDATE u SET (a, b) = (SELECT x, y FROM w WHERE w.id = u.id)")).rowsAffected).toBe(3)
    expect(await rows("SELECT id, a, b FROM u ORDER BY id")).toEqual([[1, 100, "p"], [2, 200, null], [3, null, null]])
  })

  it("UPDATE ... SET (a, b) = (subquery with binds) beside other assignments, limited by WHERE", async () => {
    const r = await conn.execute("UPDATE u SET id = id, (a, b) = (SELECT x + :d, y || :s FROM w WHERE w.id = :k) WHERE id = 1", { d: 1, s: "!", k: 1 })
    expect(r.rowsAffected).toBe(1)
    expect(await rows("SELECT id, a, b FROM u ORDER BY id")).toEqual([[1, 101, "p!"], [2, 20, "y"], [3, 30, "z"]])
  })

  it("UPDATE ... SET (a, b) = (subquery giving two rows) fails ORA-01427 and changes nothing", async () => {
    expect(await raised("UPDATE u SET (a, b) = (SELECT x, y FROM w)")).toBe(TWO_ROWS)
    expect(await rows("SELECT id, a, b FROM u ORDER BY id")).toEqual([[1, 10, "x"], [2, 20, "y"], [3, 30, "z"]])
  })

  it("(a, b) = / <> (SELECT x, y ...) compare field by field, a NULL field or no row being unknown", async () => {
    await conn.execute("UPDATE u SET a = 100, b = 'p' WHERE id = 1")
    await conn.execute("UPDATE u SET a = 200, b = NULL WHERE id = 2")
    expect(await rows("SELECT id FROM u WHERE (a, b) = (SELECT x, y FROM w WHERE id = 1)")).toEqual([[1]])
    expect(await rows("SELECT id FROM u WHERE (a, b) <> (SELECT x, y FROM w WHERE id = 1) ORDER BY id")).toEqual([[2], [3]])
    // correlated: row 2 has a NULL field on both sides (unknown), row 3 no row in w
    expect(await rows("SELECT id FROM u WHERE (a, b) = (SELECT x, y FROM w WHERE w.id = u.id) ORDER BY id")).toEqual([[1]])
    expect(await rows("SELECT id FROM u WHERE (a, b) = (SELECT x, y FROM w WHERE 1 = 0)")).toEqual([])
    expect(await rows("SELECT id FROM u WHERE (a, b) IN (SELECT x, y FROM w) ORDER BY id")).toEqual([[1]])
    expect(await rows("SELECT id FROM u WHERE (a, b) NOT IN (SELECT x, y FROM w WHERE y IS NOT NULL) ORDER BY id")).toEqual([[2], [3]])
    expect(await raised("SELECT id FROM u WHERE (a, b) = (SELECT x, y FROM w)")).toBe(TWO_ROWS)
    await conn.rollback()
  })

  it("a select-list subquery with a set operation: its value for one row, ORA-01427 for two", async () => {
    expect(await rows("SELECT (SELECT n FROM t UNION ALL SELECT n FROM t WHERE 1 = 0) FROM dual")).toEqual([[1]])
    expect(await raised("SELECT (SELECT n FROM t UNION ALL SELECT n FROM t) FROM dual")).toBe(TWO_ROWS)
  })
})
