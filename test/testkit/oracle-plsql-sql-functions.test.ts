import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * Stored functions called from a client's SQL statements, through raw node-oracledb: in the select list and WHERE,
 * once per row with the row's columns as arguments, named with their owner, as the Oracle Database SQL Language
 * Reference (23ai), "About User-Defined Functions"
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/About-User-Defined-Functions.html) describes
 * them: `[schema.][package.]function[(args)]`.
 */
describe("Oracle test server: stored functions called from SQL", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE gadget (id NUMBER(10) PRIMARY KEY, name VARCHAR2(20), price NUMBER)")
    await conn.executeMany("INSERT INTO gadget VALUES (:1, :2, :3)", [[1, "bolt", 2.5], [2, "nut", 0.5], [3, "gear", 12]])
    await conn.commit()
    await conn.execute(`CREATE OR REPLACE FUNCTION twice(n IN NUMBER) RETURN NUMBER IS
      BEGIN
        RETURN n * 2;
      END;`)
    await conn.execute(`CREATE OR REPLACE FUNCTION shout(s VARCHAR2, suffix VARCHAR2 DEFAULT '!') RETURN VARCHAR2 IS
      BEGIN
        RETURN UPPER(s) || suffix;
      END shout;`)
    await conn.execute(`CREATE OR REPLACE FUNCTION name_of(p_id NUMBER) RETURN VARCHAR2 IS
        n VARCHAR2(20);
      BEGIN
        SELECT name INTO n FROM gadget WHERE id = p_id;
        RETURN n;
      END;`)
    await conn.execute(`CREATE OR REPLACE FUNCTION ratio(a NUMBER, b NUMBER) RETURN NUMBER IS
      BEGIN
        RETURN a / b;
      END;`)
  })
  afterAll(() => closeConnection({ server, conn }))

  it("calls a stored function per row in the select list and WHERE, with the row's columns as arguments", async () => {
    const r = await conn.execute("SELECT id, twice(price), shout(name) FROM gadget WHERE twice(id) > 2 ORDER BY id")
    expect(r.rows).toEqual([
      [2, 1, "NUT!"],
      [3, 24, "GEAR!"]
    ])
    expect(r.metaData.map((m: { name: string }) => m.name)).toEqual(["ID", "TWICE(PRICE)", "SHOUT(NAME)"])
    const nested = await conn.execute("SELECT shout(name_of(id), '?') AS s FROM gadget WHERE id IN (SELECT id FROM gadget WHERE twice(price) < 10) ORDER BY 1")
    expect(nested.rows).toEqual([["BOLT?"], ["NUT?"]])
  })

  it("takes named notation in SQL calls: arguments in the parameters' order, defaults for the ones left out", async () => {
    // PL/SQL Language Reference, "Positional, Named, and Mixed Notation for Actual Parameters": SQL calls take all three
    const r = await conn.execute("SELECT shout(suffix => '?', s => name), shout(name, suffix => '.'), ratio(b => 4, a => price) FROM gadget ORDER BY id")
    expect(r.rows).toEqual([
      ["BOLT?", "BOLT.", 0.625],
      ["NUT?", "NUT.", 0.125],
      ["GEAR?", "GEAR.", 3]
    ])
    expect((await conn.execute("SELECT shout(s => 'x') FROM dual")).rows).toEqual([["X!"]])
    // a name the function has no parameter for (Error Messages, ORA-06553 with PLS-306)
    const e = await failure(() => conn.execute("SELECT shout(nope => 'x') FROM dual"))
    expect(e.message).toMatch(/^ORA-06553: PLS-306: wrong number or types of arguments in call to 'SHOUT'/)
  })

  it("calls a function named with its owner, with binds and literals as arguments", async () => {
    const r = await conn.execute(`SELECT ${server.user}.twice(:n), twice(21), shout('a') FROM dual`, { n: 4 })
    expect(r.rows).toEqual([[8, 42, "A!"]])
  })

  it("an error inside the function reaches the client with the function's ORA-06512 line; NO_DATA_FOUND is NULL in SQL", async () => {
    const e = await failure(() => conn.execute("SELECT ratio(id, id - 2) FROM gadget"))
    expect(e.message).toMatch(new RegExp(`^ORA-01476: divisor is equal to zero\\nORA-06512: at "${server.user}.RATIO", line 3`))
    expect(e.message).not.toMatch(/at line/)
    // an unhandled NO_DATA_FOUND in a function called from a query gives NULL (Oracle treats ORA-01403 as "no
    // row" there: https://talkapex.com/nodatafound-exceptions-in-plsql-functions-called-in-queries)
    const r = await conn.execute("SELECT name_of(7) FROM dual")
    expect(r.rows).toEqual([[null]])
  })

  it("a block's queries call stored functions per row with column arguments", async () => {
    const r = await conn.execute(
      `DECLARE
        total NUMBER;
        names VARCHAR2(100);
      BEGIN
        SELECT SUM(twice(price)) INTO total FROM gadget;
        FOR g IN (SELECT shout(name, '.') AS s FROM gadget WHERE twice(id) >= 4 ORDER BY id) LOOP
          names := names || g.s;
        END LOOP;
        :out := total || '|' || names;
      END;`,
      { out: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 } }
    )
    expect(r.outBinds.out).toBe("30|NUT.GEAR.")
  })

  it("a function called as a statement is PLS-00221", async () => {
    const e = await failure(() => conn.execute("BEGIN twice(3); END;"))
    expect(e.message).toMatch(/^ORA-06550: line 1, column 7:\nPLS-00221: 'TWICE' is not a procedure or is undefined/)
  })
})
