import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, withServer } from "./oracle/helpers.ts"

/**
 * Stored packages through raw node-oracledb: a specification with public variables, constants, collection types,
 * cursors and subprograms, a body with private state, overloads and a BEGIN section that initialises the package
 * once per session, members reached as `pkg.name` from PL/SQL and `pkg.f(x)` from SQL, and DROP PACKAGE [BODY], as
 * the PL/SQL Language Reference (23ai), "PL/SQL Packages"
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/plsql-packages.html) describes them.
 */
describe("Oracle test server: PL/SQL packages", () => {
  let server: OracleTestServerHandle
  let connect: () => Promise<Conn>
  let conn: Conn
  beforeAll(async () => {
    const s = await withServer()
    server = s.server
    connect = () => s.connect()
    conn = await connect()
    await conn.execute("CREATE TABLE item (id NUMBER(10) PRIMARY KEY, label VARCHAR2(20), qty NUMBER)")
    await conn.executeMany("INSERT INTO item VALUES (:1, :2, :3)", [[1, "cup", 4], [2, "pot", 1], [3, "pan", 7]])
    await conn.commit()
    await conn.execute(`CREATE OR REPLACE PACKAGE counter AS
        c_step CONSTANT NUMBER := 10;
        hits NUMBER := 0;
        TYPE num_list IS TABLE OF NUMBER;
        CURSOR big_items IS SELECT label FROM item WHERE qty > 3 ORDER BY id;
        PROCEDURE bump;
        PROCEDURE bump(by_n NUMBER);
        FUNCTION current_value RETURN NUMBER;
        FUNCTION scaled(n NUMBER) RETURN NUMBER;
        FUNCTION label_of(p_id NUMBER) RETURN VARCHAR2;
      END counter;`)
    await conn.execute(`CREATE OR REPLACE PACKAGE BODY counter AS
        total NUMBER;
        inits NUMBER := 0;
        PROCEDURE bump IS
        BEGIN
          bump(1);
        END;
        PROCEDURE bump(by_n NUMBER) IS
        BEGIN
          total := total + by_n;
          hits := hits + 1;
        END bump;
        FUNCTION current_value RETURN NUMBER IS
        BEGIN
          RETURN total * 1000 + inits;
        END;
        FUNCTION scaled(n NUMBER) RETURN NUMBER IS
        BEGIN
          RETURN n * c_step;
        END;
        FUNCTION label_of(p_id NUMBER) RETURN VARCHAR2 IS
          l item.label%TYPE;
        BEGIN
          SELECT label INTO l FROM item WHERE id = p_id;
          RETURN UPPER(l);
        END;
      BEGIN
        total := 100;
        inits := inits + 1;
      END counter;`)
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const out = { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 }

  it("keeps package state per session, initialised once by the body's BEGIN section; overloads by argument count", async () => {
    const first = await conn.execute(
      `DECLARE
        l counter.num_list := counter.num_list(1, 2);
        s VARCHAR2(200);
      BEGIN
        counter.bump;
        counter.bump(5);
        counter.hits := counter.hits + 100;
        FOR r IN counter.big_items LOOP
          s := s || r.label || ',';
        END LOOP;
        :out := counter.current_value || '|' || counter.hits || '|' || counter.c_step || '|' || l.COUNT || '|' || s;
      END;`,
      { out }
    )
    expect(first.outBinds.out).toBe("106001|102|10|2|cup,pan,")
    // the same session keeps the state; the BEGIN section does not run again
    const again = await conn.execute("BEGIN counter.bump(4); :out := counter.current_value || '|' || counter.hits; END;", { out })
    expect(again.outBinds.out).toBe("110001|103")
    // another session has its own instance
    const other = await connect()
    try {
      const fresh = await other.execute("BEGIN :out := counter.current_value || '|' || counter.hits; END;", { out })
      expect(fresh.outBinds.out).toBe("100001|0")
    } finally {
      await other.close()
    }
  })

  it("calls packaged functions from SQL per row, and from a block's queries", async () => {
    const r = await conn.execute("SELECT id, counter.scaled(qty), counter.label_of(id) FROM item WHERE counter.scaled(qty) > 20 ORDER BY id")
    expect(r.rows).toEqual([
      [1, 40, "CUP"],
      [3, 70, "PAN"]
    ])
    const b = await conn.execute("DECLARE t NUMBER; BEGIN SELECT SUM(counter.scaled(qty)) INTO t FROM item; :out := t; END;", { out })
    expect(b.outBinds.out).toBe("120")
  })

  it("a private name is PLS-00302 from outside; DROP PACKAGE BODY then DROP PACKAGE remove it", async () => {
    const e = await failure(() => conn.execute("BEGIN :out := counter.total; END;", { out }))
    expect(e.message).toMatch(/PLS-00302: component 'TOTAL' must be declared/)
    await conn.execute("CREATE PACKAGE consts AS pi CONSTANT NUMBER := 3.14; END;")
    const c = await conn.execute("BEGIN :out := consts.pi * 2; END;", { out })
    expect(c.outBinds.out).toBe("6.28")
    await conn.execute("DROP PACKAGE BODY counter")
    const objects = await conn.execute("SELECT object_name, object_type FROM user_objects WHERE object_type LIKE 'PACKAGE%' ORDER BY 1, 2")
    expect(objects.rows).toEqual([
      ["CONSTS", "PACKAGE"],
      ["COUNTER", "PACKAGE"]
    ])
    await conn.execute("DROP PACKAGE counter")
    await conn.execute("DROP PACKAGE consts")
    const gone = await failure(() => conn.execute("BEGIN counter.bump; END;"))
    expect(gone.message).toMatch(/PLS-00201: identifier 'COUNTER.BUMP' must be declared/)
    const missing = await failure(() => conn.execute("DROP PACKAGE counter"))
    expect(missing.message).toMatch(/^ORA-04043: object COUNTER does not exist/)
  })
})
