/**
 * Text literals in SQL hold at most 4000 bytes (SQL Language Reference, "Text Literals", MAX_STRING_SIZE = STANDARD):
 * a longer one is ORA-01704 "string literal too long", and `||` of literals whose result passes 4000 bytes is
 * ORA-01489 "result of string concatenation is too long" ("Concatenation Operator"); PL/SQL strings go to 32767.
 * Raw node-oracledb against the test server (it ran both, returning the long text).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, oracledb, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const failure = (sql: string): Promise<string> => conn.execute(sql).then(() => "no error", (e: Error) => e.message.split("\n")[0]!)

describe("Oracle test server: text literal and literal concatenation limits", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE tl (v VARCHAR2(4000), c CLOB)")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("refuses a literal over 4000 bytes with ORA-01704, in a query and in a write", async () => {
    expect(await failure(`SELECT '${"x".repeat(4001)}' FROM dual`)).toBe("ORA-01704: string literal too long")
    expect(await failure(`INSERT INTO tl (c) VALUES ('${"x".repeat(5000)}')`)).toBe("ORA-01704: string literal too long")
    // bytes, not characters: 2001 two-byte characters
    expect(await failure(`SELECT '${"é".repeat(2001)}' FROM dual`)).toBe("ORA-01704: string literal too long")
    expect((await conn.execute(`SELECT LENGTH('${"x".repeat(4000)}') FROM dual`)).rows).toEqual([[4000]])
  })

  it("refuses a concatenation of literals over 4000 bytes with ORA-01489", async () => {
    expect(await failure(`SELECT '${"x".repeat(3000)}' || '${"y".repeat(1001)}' FROM dual`)).toBe("ORA-01489: result of string concatenation is too long")
    expect(await failure(`UPDATE tl SET v = 'a' || '${"x".repeat(2000)}' || '${"y".repeat(2000)}'`)).toBe("ORA-01489: result of string concatenation is too long")
    expect((await conn.execute(`SELECT LENGTH('${"x".repeat(2000)}' || '${"y".repeat(2000)}') FROM dual`)).rows).toEqual([[4000]])
  })

  it("leaves PL/SQL strings up to 32767 bytes alone", async () => {
    const r = await conn.execute(`DECLARE s VARCHAR2(32767) := '${"x".repeat(5000)}' || '${"y".repeat(5000)}'; BEGIN :n := LENGTH(s); END;`, { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect(r.outBinds).toEqual({ n: 10000 })
  })
})
