import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * User-defined PL/SQL subtypes through raw node-oracledb: `SUBTYPE name IS base_type [NOT NULL]`, whose variables take
 * the base type's constraints (a NUMBER(p,s) rounds, a VARCHAR2(n) overflow is VALUE_ERROR), as the PL/SQL Language
 * Reference (23ai), "User-Defined PL/SQL Subtypes"
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/plsql-data-types.html) describes them.
 */
describe("Oracle test server: PL/SQL subtypes", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  const out = { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 }

  it("declares variables and parameters of a subtype with its base type's constraints", async () => {
    const r = await conn.execute(
      `DECLARE
        SUBTYPE money IS NUMBER(10, 2);
        SUBTYPE code IS VARCHAR2(3) NOT NULL;
        price money := 3.456;
        c code := 'abc';
        FUNCTION doubled(m money) RETURN money IS BEGIN RETURN m * 2; END;
      BEGIN
        :out := price || '|' || c || '|' || doubled(1.25);
      END;`,
      { out }
    )
    expect(r.outBinds.out).toBe("3.46|abc|2.5")
    const e = await failure(() => conn.execute("DECLARE SUBTYPE code IS VARCHAR2(3); c code; BEGIN c := 'abcd'; END;"))
    expect(e.message).toMatch(/^ORA-06502: PL\/SQL: numeric or value error: character string buffer too small/)
  })
})
