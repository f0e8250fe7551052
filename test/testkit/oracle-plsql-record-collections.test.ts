import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * Collections of records on the Oracle test server, through raw node-oracledb. PL/SQL Language Reference (23ai),
 * "PL/SQL Collections and Records" (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/plsql-collections-and-records.html):
 * an element of a nested table of records is a record whose fields are assigned as `c(i).field := value`; and
 * "SELECT INTO Statement" / "BULK COLLECT Clause": BULK COLLECT INTO a single collection of records fills one record
 * per row, wherever the collection is declared (a package's variable too).
 */
describe("Oracle test server: PL/SQL collections of records", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE rc_item (k NUMBER, v VARCHAR2(10))")
    await conn.executeMany("INSERT INTO rc_item VALUES (:1, :2)", [[1, "a"], [2, "b"]])
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const out = { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 }

  it("assigns a field of an element of a nested table of records (declared and %ROWTYPE)", async () => {
    const r = await conn.execute(
      `DECLARE
        TYPE pair_r IS RECORD (k NUMBER, v VARCHAR2(10));
        TYPE pairs_t IS TABLE OF pair_r;
        TYPE items_t IS TABLE OF rc_item%ROWTYPE;
        p pairs_t := pairs_t();
        q items_t := items_t();
      BEGIN
        p.EXTEND;
        p(1).k := 10;
        p(1).v := 'x';
        q.EXTEND(2);
        q(2).k := 20;
        q(2).v := 'y';
        :s := p(1).k || p(1).v || '/' || q(2).k || q(2).v || NVL(TO_CHAR(q(1).k), '-');
      END;`,
      { s: out }
    )
    expect(r.outBinds.s).toBe("10x/20y-")
  })

  it("bulk collects into a package's collection of records", async () => {
    await conn.execute(
      `CREATE OR REPLACE PACKAGE rc_pkg IS
        TYPE item_r IS RECORD (k NUMBER, v VARCHAR2(10));
        TYPE items_t IS TABLE OF item_r INDEX BY PLS_INTEGER;
        items items_t;
        PROCEDURE load;
      END rc_pkg;`
    )
    await conn.execute(
      `CREATE OR REPLACE PACKAGE BODY rc_pkg IS
        PROCEDURE load IS
        BEGIN
          SELECT k, v BULK COLLECT INTO items FROM rc_item ORDER BY k;
        END;
      END rc_pkg;`
    )
    const r = await conn.execute(
      `BEGIN
        rc_pkg.load;
        :a := rc_pkg.items.COUNT || ':' || rc_pkg.items(2).v;
        SELECT k, v BULK COLLECT INTO rc_pkg.items FROM rc_item WHERE k = 1;
        :b := rc_pkg.items.COUNT || ':' || rc_pkg.items(1).v;
      END;`,
      { a: out, b: out }
    )
    expect(r.outBinds).toEqual({ a: "2:b", b: "1:a" })
  })
})
