import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

/**
 * UPDATE forms inside PL/SQL blocks and on tables with triggers, through raw node-oracledb (SQL Language Reference
 * 23ai, "UPDATE": `UPDATE t alias SET alias.col = expr`, `SET (col, ...) = (subquery)`; PL/SQL Language Reference,
 * "PL/SQL Triggers": a row trigger sees each updated row's :OLD and :NEW).
 */
describe("Oracle test server: UPDATE with an alias and SET (columns) = (subquery)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE uf_item (id NUMBER(10) PRIMARY KEY, qty NUMBER(5), note VARCHAR2(40))")
    await conn.execute("CREATE TABLE uf_src (id NUMBER(10), qty NUMBER(5), note VARCHAR2(40))")
    await conn.execute("CREATE TABLE uf_log (what VARCHAR2(80))")
    await conn.execute("INSERT INTO uf_item VALUES (1, 10, 'a')")
    await conn.execute("INSERT INTO uf_item VALUES (2, 20, 'b')")
    await conn.execute("INSERT INTO uf_src VALUES (1, 11, 'from src 1')")
    await conn.execute("INSERT INTO uf_src VALUES (2, 22, 'from src 2')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const rows = async () => (await conn.execute("SELECT id, qty, note FROM uf_item ORDER BY id")).rows

  it("UPDATE t a SET a.col = ... runs inside a block", async () => {
    await conn.execute("DECLARE d NUMBER := 5; BEGIN UPDATE uf_item a SET a.qty = a.qty + d WHERE a.id = 1; END;")
    expect(await rows()).toEqual([
      [1, 15, "a"],
      [2, 20, "b"]
    ])
    await conn.execute("BEGIN UPDATE uf_item a SET (a.qty, note) = (SELECT s.qty, s.note FROM uf_src s WHERE s.id = a.id) WHERE a.id = 2; END;")
    expect(await rows()).toEqual([
      [1, 15, "a"],
      [2, 22, "from src 2"]
    ])
    await conn.rollback()
  })

  it("SET (cols) = (subquery) on a table with row triggers, from a client and from a block", async () => {
    await conn.execute(`CREATE OR REPLACE TRIGGER uf_item_bu BEFORE UPDATE ON uf_item FOR EACH ROW
      BEGIN
        INSERT INTO uf_log VALUES (:OLD.id || ': ' || :OLD.qty || ' -> ' || :NEW.qty || ' ' || :NEW.note);
      END;`)
    const r = await conn.execute("UPDATE uf_item t SET (qty, note) = (SELECT s.qty, s.note FROM uf_src s WHERE s.id = t.id)")
    expect(r.rowsAffected).toBe(2)
    expect(await rows()).toEqual([
      [1, 11, "from src 1"],
      [2, 22, "from src 2"]
    ])
    await conn.execute("BEGIN UPDATE uf_item a SET a.note = 'blk', (a.qty) = (SELECT 7 FROM dual) WHERE a.id = 2; END;")
    expect(await rows()).toEqual([
      [1, 11, "from src 1"],
      [2, 7, "blk"]
    ])
    expect((await conn.execute("SELECT what FROM uf_log ORDER BY what")).rows).toEqual([["1: 10 -> 11 from src 1"], ["2: 20 -> 22 from src 2"], ["2: 22 -> 7 blk"]])
    await conn.rollback()
    await conn.execute("DROP TRIGGER uf_item_bu")
  })
})
