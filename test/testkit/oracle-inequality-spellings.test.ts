import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

// `!=`, `^=` and `<>` all test inequality in SQL (SQL Language Reference, "Comparison Conditions"), and `~=` too in
// PL/SQL (PL/SQL Language Reference, "Relational Operators"); `^=` was split into `^` and `=` (ORA-00904 / 00933).
describe("Oracle test server: the spellings of not equal", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    await conn.execute("CREATE TABLE ne_t (id NUMBER, s VARCHAR2(5))")
    await conn.executeMany("INSERT INTO ne_t VALUES (:1, :2)", [[1, "a"], [2, "b"], [3, "c"]], { autoCommit: true })
  })
  afterAll(() => closeConnection(opened))

  it("^= and ~= select what != selects, in WHERE, CASE and DML", async () => {
    const ids = async (op: string) => (await conn.execute(`SELECT id FROM ne_t WHERE s ${op} 'b' ORDER BY id`)).rows
    expect(await ids("!=")).toEqual([[1], [3]])
    expect(await ids("^=")).toEqual([[1], [3]])
    expect(await ids("~=")).toEqual([[1], [3]])
    expect((await conn.execute("SELECT CASE WHEN 1 ^= 2 THEN 'ne' ELSE 'eq' END FROM dual")).rows).toEqual([["ne"]])
    expect((await conn.execute("UPDATE ne_t SET s = 'z' WHERE id ^= 2")).rowsAffected).toBe(2)
    await conn.rollback()
  })

  it("^= and ~= in PL/SQL conditions", async () => {
    const r = await conn.execute(
      "DECLARE n NUMBER := 0; BEGIN IF 1 ^= 2 THEN n := n + 1; END IF; IF 1 ~= 2 THEN n := n + 10; END IF; IF 1 ^= 1 THEN n := n + 100; END IF; :n := n; END;",
      { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    )
    expect(r.outBinds?.n).toBe(11)
  })
})
