/**
 * Built-in calls with a number of arguments the function never takes, as Oracle reports them before running: a
 * function of a fixed count ORA-00909 "invalid number of arguments" (MAX and MIN take one expression), one of a varying
 * count ORA-00938 "not enough arguments for function" / ORA-00939 "too many arguments for function" (REPLACE takes 2 or
 * 3, GREATEST / LEAST / COALESCE at least one); SQL Language Reference, each function's syntax; Database Error
 * Messages ORA-00909, ORA-00936, ORA-00938, ORA-00939. These calls reached the client as the engine ran them (REPLACE(s), an empty
 * table's MAX(a, b)) or with another code. Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: argument counts of built-ins", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE ac_t (id NUMBER, s VARCHAR2(10))")
  })
  afterAll(() => closeConnection({ server, conn }))

  const code = async (sql: string) => oraCode(await failure(() => conn.execute(sql)))

  it("MAX / MIN of two arguments are ORA-00909, REPLACE of one and GREATEST / LEAST / COALESCE of none ORA-00938", async () => {
    expect(await code("SELECT MAX(id, s) FROM ac_t")).toBe("ORA-00909")
    expect(await code("SELECT MIN(id, 1) FROM ac_t")).toBe("ORA-00909")
    expect(await code("SELECT REPLACE(s) FROM ac_t")).toBe("ORA-00938")
    expect(await code("SELECT REPLACE(s, 'a', 'b', 'c') FROM ac_t")).toBe("ORA-00939")
    expect(await code("SELECT GREATEST() FROM dual")).toBe("ORA-00938")
    expect(await code("SELECT LEAST() FROM dual")).toBe("ORA-00938")
    expect(await code("SELECT COALESCE() FROM dual")).toBe("ORA-00938")
  })

  it("COUNT(DISTINCT *) and COUNT(ALL *) are ORA-00936 (COUNT takes * alone; DISTINCT / ALL an expression)", async () => {
    expect(await code("SELECT COUNT(DISTINCT *) FROM ac_t")).toBe("ORA-00936")
    expect(await code("SELECT COUNT(ALL *) FROM ac_t")).toBe("ORA-00936")
    expect((await conn.execute("SELECT COUNT(*), COUNT(DISTINCT id), COUNT(ALL id) FROM ac_t")).rows).toEqual([[0, 0, 0]])
  })

  it("the calls Oracle takes still run", async () => {
    await conn.execute("INSERT INTO ac_t VALUES (1, 'ab')")
    await conn.execute("INSERT INTO ac_t VALUES (2, 'ab')")
    const r = await conn.execute(
      "SELECT MAX(id), MIN(DISTINCT id), MAX(id) OVER (PARTITION BY s), REPLACE(s, 'a'), REPLACE(s, 'a', 'x'), GREATEST(1, 3, 2), LEAST(2), COALESCE(NULL, id) FROM ac_t GROUP BY id, s ORDER BY id"
    )
    expect(r.rows).toEqual([
      [1, 1, 2, "b", "xb", 3, 2, 1],
      [2, 2, 2, "b", "xb", 3, 2, 2]
    ])
    await conn.rollback()
  })
})
