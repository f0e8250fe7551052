import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * Strong REF CURSOR types (`TYPE c IS REF CURSOR RETURN type`), through raw node-oracledb: the PL/SQL Language
 * Reference (23ai), "Cursor Variables": a strong cursor variable can be opened only for a query whose row matches its
 * RETURN type (else the block does not compile, PLS-00382 "expression is of wrong type"), and "OPEN FOR Statement":
 * a dynamic OPEN FOR needs a weak cursor variable (PLS-00455).
 */
describe("Oracle test server: strong REF CURSOR types", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE crate (id NUMBER(10), label VARCHAR2(20))")
    await conn.execute("INSERT INTO crate VALUES (1, 'one')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("opens a strong cursor for a query of its RETURN row and fetches into a record of it", async () => {
    const r = await conn.execute(
      `DECLARE
        TYPE crate_cur IS REF CURSOR RETURN crate%ROWTYPE;
        c crate_cur;
        rec crate%ROWTYPE;
      BEGIN
        OPEN c FOR SELECT id, label FROM crate;
        FETCH c INTO rec;
        CLOSE c;
        :out := rec.id || rec.label;
      END;`,
      { out: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 } }
    )
    expect(r.outBinds.out).toBe("1one")
  })

  it("a query whose row does not match the RETURN type is PLS-00382; a dynamic OPEN FOR of a strong cursor PLS-00455", async () => {
    const wrong = await failure(() =>
      conn.execute(`DECLARE
        TYPE crate_cur IS REF CURSOR RETURN crate%ROWTYPE;
        c crate_cur;
      BEGIN
        OPEN c FOR SELECT id FROM crate;
      END;`)
    )
    expect(wrong.message).toMatch(/^ORA-06550: line 5, column \d+:\nPLS-00382: expression is of wrong type/)
    const dynamic = await failure(() =>
      conn.execute(`DECLARE
        TYPE crate_cur IS REF CURSOR RETURN crate%ROWTYPE;
        c crate_cur;
      BEGIN
        OPEN c FOR 'SELECT id, label FROM crate';
      END;`)
    )
    expect(dynamic.message).toMatch(/^ORA-06550: line 5, column \d+:\nPLS-00455: cursor 'C' cannot be used in dynamic SQL OPEN statement/)
  })
})
