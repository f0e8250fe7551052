import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

/**
 * DBMS_LOB functions over TO_CLOB / TO_BLOB results inside PL/SQL expressions, through raw node-oracledb (PL/SQL
 * Packages and Types Reference, "DBMS_LOB": GETLENGTH counts characters of a CLOB and bytes of a BLOB, SUBSTR and
 * INSTR take amount / offset / nth).
 */
describe("Oracle test server: DBMS_LOB functions on TO_CLOB / TO_BLOB in PL/SQL", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const out = { x: { dir: oracledb.BIND_OUT, type: oracledb.STRING } }
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("GETLENGTH, SUBSTR and INSTR of TO_CLOB results in assignments and conditions", async () => {
    const r = await conn.execute(
      `DECLARE
         n NUMBER;
         c CLOB := TO_CLOB('hello world');
       BEGIN
         n := DBMS_LOB.GETLENGTH(TO_CLOB('abc'));
         IF DBMS_LOB.GETLENGTH(c) > 5 THEN
           :x := n || ' ' || DBMS_LOB.SUBSTR(TO_CLOB('abcdef'), 3, 2) || ' ' || DBMS_LOB.INSTR(c, 'o', 1, 2) || ' ' || DBMS_LOB.GETLENGTH(c);
         END IF;
       END;`,
      out
    )
    expect(r.outBinds).toEqual({ x: "3 bcd 8 11" })
  })

  it("GETLENGTH of a TO_BLOB result counts bytes", async () => {
    const r = await conn.execute("BEGIN :x := DBMS_LOB.GETLENGTH(TO_BLOB(HEXTORAW('0A0B0C0D'))); END;", out)
    expect(r.outBinds).toEqual({ x: "4" })
  })

  it("the same calls in a client's query", async () => {
    const r = await conn.execute("SELECT DBMS_LOB.GETLENGTH(TO_CLOB('abcd')), DBMS_LOB.SUBSTR(TO_CLOB('abcdef'), 2, 3), DBMS_LOB.GETLENGTH(TO_BLOB(HEXTORAW('0A0B'))) FROM dual")
    expect(r.rows).toEqual([[4, "cd", 2]])
  })
})
