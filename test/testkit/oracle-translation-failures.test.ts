/**
 * No statement ends the session: a statement the server's translator fails on (here one nested past its stack)
 * answers with an ORA- error and the connection goes on, and a simple CASE whose operand is arithmetic on an exact
 * NUMBER column (which once recursed without end in the translator) runs as Oracle runs it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { closeConnection, type Conn, failure, openConnection, oraCode } from "./oracle/helpers.ts"

describe("Oracle test server: translation failures", () => {
  let opened: Awaited<ReturnType<typeof openConnection>> | undefined
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    await conn.execute("CREATE TABLE case_ops (n NUMBER, s VARCHAR2(10))")
    await conn.execute("INSERT INTO case_ops VALUES (1, 'a')")
    await conn.execute("INSERT INTO case_ops VALUES (2, 'b')")
    await conn.execute("INSERT INTO case_ops VALUES (5, 'c')")
  })
  afterAll(() => closeConnection(opened ?? {}))

  it("runs a simple CASE whose operand is arithmetic on a NUMBER column", async () => {
    const r = await conn.execute("SELECT CASE n + 1 WHEN 2 THEN 'x' WHEN TO_NUMBER('3') THEN 'y' END FROM case_ops ORDER BY n")
    expect(r.rows).toEqual([["x"], ["y"], [null]])
    const r2 = await conn.execute("SELECT CASE n * 2 WHEN 4 THEN n + 10 ELSE n END FROM case_ops ORDER BY n")
    expect(r2.rows).toEqual([[1], [12], [5]])
  })

  it("answers a statement the translator cannot handle with an ORA- error and keeps the session", async () => {
    // 5,000 nested parentheses overflow the translator's stack (a RangeError in the server)
    const nested = `SELECT ${"(".repeat(5000)}1${")".repeat(5000)} FROM dual`
    const e = await failure(() => conn.execute(nested))
    expect(oraCode(e)).toBe("ORA-03001")
    expect(e.message).not.toMatch(/NJS-500/)
    expect((await conn.execute("SELECT s FROM case_ops WHERE n = 2")).rows).toEqual([["b"]])
  })
})
