import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * `TABLE(collection)` in a block's queries, through raw node-oracledb: the PL/SQL Language Reference (23ai),
 * "Querying a Collection" with the TABLE operator: since 12.1 a PL/SQL collection whose type a package specification
 * declares can be queried in a SELECT of a PL/SQL block, each element a row (COLUMN_VALUE for a collection of scalars,
 * one column per field for records).
 */
describe("Oracle test server: TABLE(collection) in PL/SQL queries", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE shelf (id NUMBER(10), label VARCHAR2(20))")
    await conn.executeMany("INSERT INTO shelf VALUES (:1, :2)", [[1, "one"], [2, "two"], [3, "three"]])
    await conn.commit()
    await conn.execute(`CREATE OR REPLACE PACKAGE coll_types IS
        TYPE nums IS TABLE OF NUMBER;
        TYPE names IS VARRAY(5) OF VARCHAR2(20);
        TYPE shelf_rows IS TABLE OF shelf%ROWTYPE;
      END;`)
  })
  afterAll(() => closeConnection({ server, conn }))

  it("queries a nested table and a VARRAY of scalars as rows of COLUMN_VALUE, joined with a table", async () => {
    const r = await conn.execute(
      `DECLARE
        n coll_types.nums := coll_types.nums(3, 1, 2);
        w coll_types.names := coll_types.names('b', 'a');
        total NUMBER;
        acc VARCHAR2(100);
        empty coll_types.nums := coll_types.nums();
        c NUMBER;
      BEGIN
        SELECT SUM(COLUMN_VALUE) INTO total FROM TABLE(n);
        FOR r IN (SELECT s.label FROM shelf s JOIN TABLE(n) t ON t.COLUMN_VALUE = s.id WHERE t.COLUMN_VALUE > 1 ORDER BY s.id) LOOP
          acc := acc || r.label || ',';
        END LOOP;
        FOR r IN (SELECT COLUMN_VALUE AS v FROM TABLE(w) ORDER BY 1) LOOP
          acc := acc || r.v;
        END LOOP;
        SELECT COUNT(*) INTO c FROM TABLE(empty);
        :out := total || '|' || acc || '|' || c;
      END;`,
      { out: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 } }
    )
    expect(r.outBinds.out).toBe("6|two,three,ab|0")
  })

  it("queries a collection of records as one column per field", async () => {
    const r = await conn.execute(
      `DECLARE
        p coll_types.shelf_rows;
        s VARCHAR2(100);
      BEGIN
        SELECT * BULK COLLECT INTO p FROM shelf WHERE id < 3;
        FOR r IN (SELECT id, label FROM TABLE(p) ORDER BY id DESC) LOOP
          s := s || r.id || r.label;
        END LOOP;
        :out := s;
      END;`,
      { out: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 } }
    )
    expect(r.outBinds.out).toBe("2two1one")
  })
})
