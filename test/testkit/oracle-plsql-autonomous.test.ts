import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection } from "./oracle/helpers.ts"

/**
 * PRAGMA AUTONOMOUS_TRANSACTION on the Oracle test server, through raw node-oracledb. Oracle runs such a subprogram,
 * trigger or block in a transaction of its own (PL/SQL Language Reference, "AUTONOMOUS_TRANSACTION Pragma"); the test
 * server does not, and refuses it where it is written: the CREATE fails ORA-03001 naming the pragma and creates
 * nothing (rather than a unit that runs in its caller's transaction, or an INVALID one), an anonymous block with it
 * fails the same way. Other pragmas it does not act on (SERIALLY_REUSABLE, INLINE, ...) are accepted wherever a
 * declaration may stand, the last one before BEGIN included.
 */
describe("Oracle test server: PRAGMA AUTONOMOUS_TRANSACTION", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE TABLE auto_log (msg VARCHAR2(100))`)
  })
  afterAll(() => closeConnection({ server, conn }))

  const refused = /^ORA-03001: unimplemented feature: PRAGMA AUTONOMOUS_TRANSACTION/
  const objects = async (name: string) => (await conn.execute(`SELECT COUNT(*) FROM user_objects WHERE object_name = '${name}'`)).rows

  it("refuses CREATE PROCEDURE, FUNCTION, PACKAGE BODY, TRIGGER and TYPE BODY with the pragma, creating nothing", async () => {
    const procedure = await failure(() =>
      conn.execute(`CREATE OR REPLACE PROCEDURE auto_log_it(p VARCHAR2) IS
        PRAGMA AUTONOMOUS_TRANSACTION;
      BEGIN
        INSERT INTO auto_log VALUES (p);
        COMMIT;
      END;`)
    )
    expect(procedure.message).toMatch(refused)
    expect(await objects("AUTO_LOG_IT")).toEqual([[0]])
    const fn = await failure(() =>
      conn.execute(`CREATE FUNCTION auto_next RETURN NUMBER IS
        n NUMBER;
        PRAGMA AUTONOMOUS_TRANSACTION;
      BEGIN
        SELECT COUNT(*) INTO n FROM auto_log;
        RETURN n;
      END;`)
    )
    expect(fn.message).toMatch(refused)
    expect(await objects("AUTO_NEXT")).toEqual([[0]])
    await conn.execute(`CREATE PACKAGE auto_pkg IS PROCEDURE log_it(p VARCHAR2); END;`)
    const body = await failure(() =>
      conn.execute(`CREATE PACKAGE BODY auto_pkg IS
        PROCEDURE log_it(p VARCHAR2) IS
          PRAGMA AUTONOMOUS_TRANSACTION;
        BEGIN
          INSERT INTO auto_log VALUES (p);
          COMMIT;
        END;
      END;`)
    )
    expect(body.message).toMatch(refused)
    expect((await conn.execute(`SELECT object_type FROM user_objects WHERE object_name = 'AUTO_PKG'`)).rows).toEqual([["PACKAGE"]])
    const trigger = await failure(() =>
      conn.execute(`CREATE TRIGGER auto_trg BEFORE INSERT ON auto_log FOR EACH ROW
      DECLARE
        PRAGMA AUTONOMOUS_TRANSACTION;
      BEGIN
        NULL;
      END;`)
    )
    expect(trigger.message).toMatch(refused)
    expect(await objects("AUTO_TRG")).toEqual([[0]])
    await conn.execute(`CREATE TYPE auto_obj AS OBJECT (n NUMBER, MEMBER FUNCTION logged RETURN NUMBER)`)
    const typeBody = await failure(() =>
      conn.execute(`CREATE TYPE BODY auto_obj AS
        MEMBER FUNCTION logged RETURN NUMBER IS
          PRAGMA AUTONOMOUS_TRANSACTION;
        BEGIN
          RETURN n;
        END;
      END;`)
    )
    expect(typeBody.message).toMatch(refused)
    expect((await conn.execute(`SELECT object_type FROM user_objects WHERE object_name = 'AUTO_OBJ'`)).rows).toEqual([["TYPE"]])
  })

  it("refuses an anonymous block with the pragma", async () => {
    const e = await failure(() => conn.execute(`DECLARE PRAGMA AUTONOMOUS_TRANSACTION; BEGIN INSERT INTO auto_log VALUES ('x'); COMMIT; END;`))
    expect(e.message).toMatch(refused)
    expect((await conn.execute(`SELECT COUNT(*) FROM auto_log`)).rows).toEqual([[0]])
  })

  it("accepts another pragma as the last declaration before BEGIN", async () => {
    await conn.execute(`CREATE OR REPLACE FUNCTION auto_plain(x NUMBER) RETURN NUMBER IS
      y NUMBER := x + 1;
      PRAGMA UDF;
    BEGIN
      RETURN y;
    END;`)
    expect((await conn.execute(`SELECT auto_plain(1) FROM dual`)).rows).toEqual([[2]])
  })
})
