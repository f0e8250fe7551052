import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, closeConnection, openConnection } from "./oracle/helpers.ts"

/**
 * Everyday PL/SQL idioms applications send, through raw node-oracledb, as the Oracle Database PL/SQL Language
 * Reference (23ai) states them: "PL/SQL Collections and Records" (`INSERT INTO t VALUES rec`, `UPDATE t SET ROW =
 * rec`), "PL/SQL Subprograms" (OUT parameters), "FORALL Statement", "PL/SQL Error Handling" and "SQLERRM Function",
 * "CREATE PROCEDURE Statement" (AUTHID), "Static SQL" (`WHERE CURRENT OF`)
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/).
 */
describe("Oracle test server: everyday PL/SQL idioms", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  const out = () => ({ o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 400 } })
  const rows = async (sql: string) => (await conn.execute(sql)).rows

  it("inserts and updates a record into a table with a NUMBER column without precision", async () => {
    await conn.execute("CREATE TABLE rec_num (id NUMBER(10), v NUMBER)")
    await conn.execute(
      `DECLARE r rec_num%ROWTYPE;
      BEGIN
        r.id := 1; r.v := 2.5; INSERT INTO rec_num VALUES r;
        r.v := 3; UPDATE rec_num SET ROW = r WHERE id = 1;
        r.id := 2; r.v := NULL; INSERT INTO rec_num VALUES r;
      END;`
    )
    expect(await rows("SELECT id, v FROM rec_num ORDER BY id")).toEqual([[1, 3], [2, null]])
  })
})
