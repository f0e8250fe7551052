import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { withServer } from "./oracle/helpers.ts"

// SUBSTR, LPAD and RPAD with Oracle's argument rules through raw node-oracledb (SQL Language Reference, "SUBSTR",
// "LPAD", "RPAD"): LPAD / RPAD to a length below 1 are NULL, a missing pad is a blank, a fractional length truncated;
// SUBSTR with a length past the end (however large) gives the rest. They failed ORA-00932 / ORA-01438 or gave ''.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: SUBSTR, LPAD and RPAD argument rules", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE ps (id NUMBER(4), name VARCHAR2(10), n NUMBER)")
    await conn.execute("INSERT INTO ps VALUES (1, 'abc', 100)")
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const row = async (sql: string, binds: Array<unknown> = []) => (await conn.execute(sql, binds)).rows![0]

  it("LPAD / RPAD: NULL for a length below 1, a blank pad by default, cut to a shorter length", async () => {
    expect(await row("SELECT LPAD('abc', -1), LPAD('abc', 0, 'x'), RPAD('abc', -2, 'x'), RPAD('abc', 0) FROM dual")).toEqual([null, null, null, null])
    expect(await row("SELECT LPAD('abc', 5), RPAD('abc', 5) || '|', LPAD('abc', 6, 'xy'), RPAD('abc', 2, 'x'), LPAD('abc', 2.7, 'x') FROM dual")).toEqual(["  abc", "abc  |", "xyxabc", "ab", "ab"])
    expect(await row("SELECT LPAD(name, n / 25, '*'), LPAD(n, 6, '0'), RPAD(name, :1, '-') FROM ps", [0])).toEqual(["*abc", "000100", null])
  })

  it("SUBSTR: a huge length gives the rest, a length below 1 NULL, position 0 is 1, negative counts from the end", async () => {
    expect(await row("SELECT SUBSTR('abcdef', 3, 1000000000), SUBSTR('abcdef', 3, 10000000000), SUBSTR('abcdef', -2, 1E20), SUBSTR(name, 2, 4294967296) FROM ps")).toEqual(["cdef", "cdef", "ef", "bc"])
    expect(await row("SELECT SUBSTR('abcdef', 3, 0), SUBSTR('abcdef', 3, -1), SUBSTR('abcdef', 0, 2), SUBSTR('abcdef', 2.9, 1.9), SUBSTR('abcdef', -7), SUBSTR('abcdef', 7) FROM dual")).toEqual([null, null, "ab", "b", null, null])
    expect(await row("SELECT SUBSTR(12345, 2, 2), SUBSTR(HEXTORAW('414243'), 2) FROM dual")).toEqual(["23", Buffer.from("BC")])
  })
})
