import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * FETCH from a cursor variable into an INTO list its rows do not match, through raw node-oracledb. PL/SQL Language
 * Reference (23ai), "Cursor Variables" (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/cursor-variables.html)
 * and "Predefined Exceptions": a cursor variable's query is known only at run time, so the mismatch is the run-time
 * exception ROWTYPE_MISMATCH, ORA-06504 "PL/SQL: Return types of Result Set variables or query do not match", which a
 * handler catches.
 */
describe("Oracle test server: ROWTYPE_MISMATCH on a cursor variable", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("raises ROWTYPE_MISMATCH for too few variables, a record of another shape and a bulk fetch", async () => {
    const r = await conn.execute(
      `DECLARE
        TYPE rc IS REF CURSOR;
        TYPE pair_r IS RECORD (a NUMBER, b NUMBER);
        TYPE nums_t IS TABLE OF NUMBER;
        c rc;
        x NUMBER;
        p pair_r;
        ns nums_t;
        s VARCHAR2(100) := '';
      BEGIN
        OPEN c FOR SELECT 1, 2 FROM DUAL;
        BEGIN
          FETCH c INTO x;
        EXCEPTION
          WHEN ROWTYPE_MISMATCH THEN s := s || SQLCODE;
        END;
        CLOSE c;
        OPEN c FOR SELECT 1, 2, 3 FROM DUAL;
        BEGIN
          FETCH c INTO p;
        EXCEPTION
          WHEN ROWTYPE_MISMATCH THEN s := s || '/' || SQLCODE;
        END;
        CLOSE c;
        OPEN c FOR SELECT 1, 2 FROM DUAL;
        BEGIN
          FETCH c BULK COLLECT INTO ns;
        EXCEPTION
          WHEN ROWTYPE_MISMATCH THEN s := s || '/' || SQLCODE;
        END;
        CLOSE c;
        OPEN c FOR SELECT 5, 6 FROM DUAL;
        FETCH c INTO p;
        :s := s || '/' || p.a || p.b;
      END;`,
      { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } }
    )
    expect(r.outBinds.s).toBe("-6504/-6504/-6504/56")
  })

  it("reports an unhandled one as ORA-06504 with the fetch's line", async () => {
    const e = await failure(() => conn.execute("DECLARE c SYS_REFCURSOR; x NUMBER; BEGIN OPEN c FOR SELECT 1, 2 FROM DUAL;\nFETCH c INTO x; END;"))
    expect(e.message).toMatch(/^ORA-06504: PL\/SQL: Return types of Result Set variables or query do not match\nORA-06512: at line 2/)
  })
})
