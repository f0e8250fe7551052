import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

/**
 * Object type methods through raw node-oracledb (Object-Relational Developer's Guide, "Object Methods": member
 * methods see the object as SELF, attributes named without SELF too; static methods are called on the type; a
 * user-defined constructor `RETURN SELF AS RESULT` starts from an object whose attributes are NULL and hides the
 * attribute-value constructor of the same signature).
 */
describe("Oracle test server: object type methods and TYPE BODY", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const out = { x: { dir: oracledb.BIND_OUT, type: oracledb.STRING } }
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(
      `CREATE TYPE pm_rect AS OBJECT (
         len NUMBER,
         wid NUMBER,
         MEMBER FUNCTION area RETURN NUMBER,
         MEMBER FUNCTION scaled(f NUMBER) RETURN NUMBER,
         MEMBER PROCEDURE grow(by_n IN NUMBER),
         STATIC FUNCTION square(s NUMBER) RETURN pm_rect,
         CONSTRUCTOR FUNCTION pm_rect(side NUMBER) RETURN SELF AS RESULT
       ) NOT FINAL`
    )
    await conn.execute(
      `CREATE TYPE BODY pm_rect AS
         MEMBER FUNCTION area RETURN NUMBER IS
         BEGIN
           RETURN len * wid;
         END;
         MEMBER FUNCTION scaled(f NUMBER) RETURN NUMBER IS
           k NUMBER := f;
         BEGIN
           RETURN SELF.area() * k;
         END scaled;
         MEMBER PROCEDURE grow(by_n IN NUMBER) IS
         BEGIN
           len := len + by_n;
           SELF.wid := SELF.wid + by_n;
         END;
         STATIC FUNCTION square(s NUMBER) RETURN pm_rect IS
         BEGIN
           RETURN pm_rect(s, s);
         END;
         CONSTRUCTOR FUNCTION pm_rect(side NUMBER) RETURN SELF AS RESULT IS
         BEGIN
           SELF.len := side;
           wid := side * 2;
           RETURN;
         END;
       END;`
    )
    await conn.execute("CREATE TABLE pm_tab (id NUMBER, r pm_rect)")
    await conn.execute("INSERT INTO pm_tab VALUES (1, pm_rect(2, 3))")
    await conn.execute("INSERT INTO pm_tab VALUES (2, pm_rect(4, 5))")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("member functions see SELF and the attributes by name; a member procedure changes the variable", async () => {
    const r = await conn.execute(
      `DECLARE
         v pm_rect := pm_rect(2, 3);
       BEGIN
         :x := v.area() || ' ' || v.scaled(10) || ' ' || v.area;
         v.grow(1);
         :x := :x || ' ' || v.len || 'x' || v.wid || '=' || v.area();
       END;`,
      out
    )
    expect(r.outBinds).toEqual({ x: "6 60 6 3x4=12" })
  })

  it("a static function is called on the type; a user-defined constructor hides the attribute constructor of its arity only", async () => {
    const r = await conn.execute(
      `DECLARE
         s pm_rect := pm_rect.square(3);
         c pm_rect := pm_rect(5);
         d pm_rect := pm_rect(1, 7);
       BEGIN
         :x := s.area() || ' ' || c.len || 'x' || c.wid || ' ' || d.area();
       END;`,
      out
    )
    expect(r.outBinds).toEqual({ x: "9 5x10 7" })
  })

  it("a method of an object column is called in SQL through the table alias (SELECT list and WHERE)", async () => {
    const r = await conn.execute("SELECT t.id, t.r.area() AS a, t.r.scaled(2) FROM pm_tab t WHERE t.r.area() > 10 ORDER BY t.id")
    expect(r.rows).toEqual([[2, 20, 40]])
  })

  it("a block's SQL calls a column's method and a user-defined constructor; a client's INSERT calls the constructor", async () => {
    const r = await conn.execute(
      `DECLARE
         n NUMBER;
         v pm_rect;
       BEGIN
         SELECT SUM(t.r.area()) INTO n FROM pm_tab t;
         INSERT INTO pm_tab VALUES (3, pm_rect(1));
         SELECT r INTO v FROM pm_tab WHERE id = 3;
         :x := n || ' ' || v.len || 'x' || v.wid;
       END;`,
      out
    )
    expect(r.outBinds).toEqual({ x: "26 1x2" })
    await conn.execute("INSERT INTO pm_tab VALUES (4, pm_rect(3))")
    const q = await conn.execute("SELECT t.r.len, t.r.wid, t.r.area() FROM pm_tab t WHERE t.id = 4")
    expect(q.rows).toEqual([[3, 6, 18]])
    await conn.rollback()
  })

  it("an object returned by a method reaches the client as a DbObject; a DbObject bind calls a method", async () => {
    const Rect = await conn.getDbObjectClass("PM_RECT")
    const r = await conn.execute("DECLARE v pm_rect := :i; BEGIN v.grow(2); :o := v; :x := v.area(); END;", {
      i: { type: "PM_RECT", val: new Rect({ LEN: 1, WID: 1 }) },
      o: { type: "PM_RECT", dir: oracledb.BIND_OUT },
      ...out
    })
    const outs = r.outBinds as { o: unknown; x: string }
    expect(JSON.parse(JSON.stringify(outs.o))).toEqual({ LEN: 3, WID: 3 })
    expect(outs.x).toBe("9")
    // a static function's and a user-defined constructor's object in a select list are DbObjects too
    const q = await conn.execute("SELECT pm_rect.square(2), pm_rect(4) FROM dual")
    expect(JSON.parse(JSON.stringify(q.rows))).toEqual([[{ LEN: 2, WID: 2 }, { LEN: 4, WID: 8 }]])
  })

  it("USER_OBJECTS lists the TYPE BODY; DROP TYPE BODY leaves the type, whose methods then fail ORA-04067", async () => {
    await conn.execute(
      `CREATE TYPE pm_cnt AS OBJECT (n NUMBER, MEMBER FUNCTION twice RETURN NUMBER)`
    )
    await conn.execute(`CREATE OR REPLACE TYPE BODY pm_cnt IS MEMBER FUNCTION twice RETURN NUMBER IS BEGIN RETURN n * 2; END; END;`)
    const listed = await conn.execute("SELECT object_type, status FROM user_objects WHERE object_name = 'PM_CNT' ORDER BY object_type")
    expect(listed.rows).toEqual([
      ["TYPE", "VALID"],
      ["TYPE BODY", "VALID"]
    ])
    const source = await conn.execute("SELECT line, text FROM user_source WHERE name = 'PM_CNT' AND type = 'TYPE BODY' ORDER BY line")
    expect(source.rows).toEqual([[1, "TYPE BODY pm_cnt IS MEMBER FUNCTION twice RETURN NUMBER IS BEGIN RETURN n * 2; END; END;"]])
    const before = await conn.execute("DECLARE v pm_cnt := pm_cnt(21); BEGIN :x := v.twice(); END;", out)
    expect(before.outBinds).toEqual({ x: "42" })
    await conn.execute("DROP TYPE BODY pm_cnt")
    const gone = await conn.execute("SELECT COUNT(*) FROM user_objects WHERE object_name = 'PM_CNT' AND object_type = 'TYPE BODY'")
    expect(gone.rows).toEqual([[0]])
    const e = await failure(() => conn.execute("DECLARE v pm_cnt := pm_cnt(21); BEGIN :x := v.twice(); END;", out))
    expect(oraCode(e)).toBe("ORA-04067")
    const again = await failure(() => conn.execute("DROP TYPE BODY pm_cnt"))
    expect(oraCode(again)).toBe("ORA-04043")
    await conn.execute("DROP TYPE pm_cnt")
    const dropped = await conn.execute("SELECT COUNT(*) FROM user_objects WHERE object_name = 'PM_CNT'")
    expect(dropped.rows).toEqual([[0]])
  })

  it("a TYPE BODY for an unknown type is ORA-04043; a method the specification does not declare is a compile error", async () => {
    const unknown = await failure(() => conn.execute("CREATE TYPE BODY pm_nope AS MEMBER FUNCTION f RETURN NUMBER IS BEGIN RETURN 1; END; END;"))
    expect(oraCode(unknown)).toBe("ORA-04043")
    await conn.execute("CREATE TYPE pm_one AS OBJECT (n NUMBER, MEMBER FUNCTION f RETURN NUMBER)")
    const r = await conn.execute("CREATE TYPE BODY pm_one AS MEMBER FUNCTION g RETURN NUMBER IS BEGIN RETURN 1; END; END;")
    expect(r.warning?.code).toBe("NJS-700")
    const errs = await conn.execute("SELECT type, text FROM user_errors WHERE name = 'PM_ONE'")
    expect(errs.rows).toEqual([["TYPE BODY", expect.stringContaining("PLS-00539")]])
  })
})
