import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, withServer } from "./oracle/helpers.ts"

/**
 * Stored functions called from INSERT / UPDATE / DELETE / MERGE, once per row with the row's columns as arguments,
 * through raw node-oracledb: the Oracle Database SQL Language Reference (23ai), "About User-Defined Functions"
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/About-User-Defined-Functions.html) lists
 * "the VALUES clause of an INSERT statement", "the SET clause of an UPDATE statement" and the conditions of WHERE
 * among the places a user-defined function can appear, with positional, named and mixed notation.
 */
describe("Oracle test server: stored functions called from DML", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    const s = await withServer()
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE part (id NUMBER(10) PRIMARY KEY, name VARCHAR2(20) NOT NULL, price NUMBER)")
    await conn.execute("CREATE TABLE part_log (id NUMBER(10), label VARCHAR2(40))")
    await conn.execute(`CREATE OR REPLACE FUNCTION twice(n IN NUMBER) RETURN NUMBER IS
      BEGIN
        RETURN n * 2;
      END;`)
    await conn.execute(`CREATE OR REPLACE FUNCTION shout(s VARCHAR2, suffix VARCHAR2 DEFAULT '!') RETURN VARCHAR2 IS
      BEGIN
        RETURN UPPER(s) || suffix;
      END shout;`)
    await conn.execute(`CREATE OR REPLACE FUNCTION ratio(a NUMBER, b NUMBER) RETURN NUMBER IS
      BEGIN
        RETURN a / b;
      END;`)
    await conn.execute(`CREATE OR REPLACE FUNCTION price_of(p_id NUMBER) RETURN NUMBER IS
        p NUMBER;
      BEGIN
        SELECT price INTO p FROM part WHERE id = p_id;
        RETURN p;
      END;`)
  })
  beforeEach(async () => {
    await conn.execute("DELETE FROM part_log")
    await conn.execute("DELETE FROM part")
    await conn.executeMany("INSERT INTO part VALUES (:1, :2, :3)", [[1, "bolt", 2.5], [2, "nut", 0.5], [3, "gear", 12]])
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const parts = async () => (await conn.execute("SELECT id, name, price FROM part ORDER BY id")).rows

  it("UPDATE ... SET x = f(column) WHERE g(column) ... calls the function per row with that row's values", async () => {
    const r = await conn.execute("UPDATE part SET price = twice(price), name = shout(name) WHERE twice(id) >= 4")
    expect(r.rowsAffected).toBe(2)
    expect(await parts()).toEqual([
      [1, "bolt", 2.5],
      [2, "NUT!", 1],
      [3, "GEAR!", 24]
    ])
  })

  it("a function that reads the table the statement writes fails ORA-04091, the table left as it was", async () => {
    // PL/SQL Language Reference, "Controlling Side Effects of PL/SQL Subprograms": "When invoked from an INSERT,
    // UPDATE, or DELETE statement, the function cannot query or modify any database tables modified by that
    // statement. If a function either queries or modifies a table, and a DML statement on that table invokes the
    // function, then ORA-04091 (mutating-table error) occurs."
    const before = await parts()
    const e = await failure(() => conn.execute("UPDATE part SET price = price_of(id) + price_of(1)"))
    expect(e.message).toMatch(/^ORA-04091: table \w+\.PART is mutating, trigger\/function may not see it/)
    expect(await parts()).toEqual(before)
  })

  it("INSERT ... VALUES (f(:bind)) and INSERT ... SELECT f(column), also with executeMany", async () => {
    await conn.execute("INSERT INTO part_log VALUES (:1, shout(:2, '?'))", [7, "x"])
    await conn.execute("INSERT INTO part_log SELECT id, shout(name, suffix => '.') FROM part WHERE twice(price) > 2")
    await conn.executeMany("INSERT INTO part_log VALUES (twice(:1), shout(:2))", [[10, "a"], [20, "b"]])
    const r = await conn.execute("SELECT id, label FROM part_log ORDER BY id")
    expect(r.rows).toEqual([
      [1, "BOLT."],
      [3, "GEAR."],
      [7, "X?"],
      [20, "A!"],
      [40, "B!"]
    ])
  })

  it("DELETE ... WHERE f(column) and MERGE with function calls in ON, SET and VALUES", async () => {
    const d = await conn.execute("DELETE FROM part WHERE twice(price) < 2")
    expect(d.rowsAffected).toBe(1)
    const m = await conn.execute(
      `MERGE INTO part p USING (SELECT 1 AS id, 'washer' AS name FROM dual UNION ALL SELECT 9, 'pin' FROM dual) s
         ON (p.id = s.id)
       WHEN MATCHED THEN UPDATE SET p.price = twice(p.price), p.name = shout(s.name)
       WHEN NOT MATCHED THEN INSERT (id, name, price) VALUES (s.id, shout(s.name, '?'), twice(s.id))`
    )
    expect(m.rowsAffected).toBe(2)
    expect(await parts()).toEqual([
      [1, "WASHER!", 5],
      [3, "gear", 12],
      [9, "PIN?", 18]
    ])
  })

  it("an error inside the function fails the statement with its ORA-06512 line and leaves the table as it was", async () => {
    const e = await failure(() => conn.execute("UPDATE part SET price = ratio(price, id - 2)"))
    expect(e.message).toMatch(new RegExp(`^ORA-01476: divisor is equal to zero\\nORA-06512: at "${server.user}.RATIO", line 3`))
    expect(await parts()).toEqual([
      [1, "bolt", 2.5],
      [2, "nut", 0.5],
      [3, "gear", 12]
    ])
    // a NOT NULL column given a function's NULL result is ORA-01407, nothing changed
    const n = await failure(() => conn.execute("UPDATE part SET name = shout(NULL, NULL) WHERE id = 2"))
    expect(n.message).toMatch(/^ORA-01407/)
    expect(await parts()).toEqual([
      [1, "bolt", 2.5],
      [2, "nut", 0.5],
      [3, "gear", 12]
    ])
  })

  it("nested calls in named notation: f(p => g(column))", async () => {
    const r = await conn.execute("SELECT shout(suffix => shout(name, '-'), s => name), twice(n => twice(n => id)) FROM part ORDER BY id")
    expect(r.rows).toEqual([
      ["BOLTBOLT-", 4],
      ["NUTNUT-", 8],
      ["GEARGEAR-", 12]
    ])
    await conn.execute("UPDATE part SET name = shout(s => shout(name, '')) WHERE id = 1")
    expect((await parts())[0]).toEqual([1, "BOLT!", 2.5])
  })

  it("a block's INSERT / UPDATE / DELETE call stored functions per row with column arguments", async () => {
    const r = await conn.execute(
      `DECLARE
        n NUMBER;
      BEGIN
        UPDATE part SET price = twice(price) WHERE twice(id) > 2;
        n := SQL%ROWCOUNT;
        INSERT INTO part_log SELECT id, shout(name) FROM part WHERE ratio(price, 2) > 0.5;
        DELETE FROM part WHERE shout(name) = 'NUT!';
        :out := n || '/' || SQL%ROWCOUNT;
      END;`,
      { out: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 20 } }
    )
    expect(r.outBinds.out).toBe("2/1")
    expect(await parts()).toEqual([
      [1, "bolt", 2.5],
      [3, "gear", 24]
    ])
    expect((await conn.execute("SELECT id, label FROM part_log ORDER BY id")).rows).toEqual([
      [1, "BOLT!"],
      [3, "GEAR!"]
    ])
  })
})
