import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

/**
 * Nested tables and VARRAYs of an object type as PL/SQL variables, through raw node-oracledb (PL/SQL Language
 * Reference, "Collection Constructors", "EXTEND Collection Method"; Object-Relational Developer's Guide, "Collection
 * Data Types": an element added by EXTEND is NULL, so assigning to an attribute of it is ORA-06530).
 */
describe("Oracle test server: collections of objects in PL/SQL", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const out = { x: { dir: oracledb.BIND_OUT, type: oracledb.STRING } }
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TYPE oc_pt AS OBJECT (x NUMBER, label VARCHAR2(20))")
    await conn.execute("CREATE TYPE oc_pts AS TABLE OF oc_pt")
    await conn.execute("CREATE TYPE oc_arr AS VARRAY(3) OF oc_pt")
    await conn.execute("CREATE TABLE oc_tab (id NUMBER, p oc_pt)")
    await conn.execute("INSERT INTO oc_tab VALUES (1, oc_pt(10, 'ten'))")
    await conn.execute("INSERT INTO oc_tab VALUES (2, oc_pt(20, 'twenty'))")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a constructor of objects, EXTEND, element attributes read and written, a FOR loop over them", async () => {
    const r = await conn.execute(
      `DECLARE
         c oc_pts := oc_pts(oc_pt(1, 'a'), oc_pt(2, 'b'));
         total NUMBER := 0;
         s VARCHAR2(100);
       BEGIN
         c.EXTEND;
         c(3) := oc_pt(3, 'c');
         c(1).x := 100;
         c(2).label := c(2).label || '!';
         FOR i IN 1 .. c.COUNT LOOP
           total := total + c(i).x;
           s := s || c(i).label;
         END LOOP;
         :x := c.COUNT || ' ' || total || ' ' || s;
       END;`,
      out
    )
    expect(r.outBinds).toEqual({ x: "3 105 ab!c" })
  })

  it("an attribute of an element EXTEND added is ORA-06530; a VARRAY of objects keeps its limit", async () => {
    const e = await failure(() => conn.execute("DECLARE c oc_pts := oc_pts(); BEGIN c.EXTEND; c(1).x := 1; END;"))
    expect(oraCode(e)).toBe("ORA-06530")
    const limit = await failure(() => conn.execute("DECLARE a oc_arr := oc_arr(oc_pt(1, 'a'), oc_pt(2, 'b'), oc_pt(3, 'c')); BEGIN a.EXTEND; END;"))
    expect(oraCode(limit)).toBe("ORA-06532")
  })

  it("BULK COLLECT INTO a collection of objects from a query of object rows", async () => {
    const r = await conn.execute(
      `DECLARE
         c oc_pts;
       BEGIN
         SELECT p BULK COLLECT INTO c FROM oc_tab ORDER BY id;
         :x := c.COUNT || ' ' || c(1).label || ' ' || c(2).x;
         SELECT oc_pt(id, 'n' || id) BULK COLLECT INTO c FROM oc_tab ORDER BY id DESC;
         :x := :x || ' ' || c(1).label;
       END;`,
      out
    )
    expect(r.outBinds).toEqual({ x: "2 ten 20 n2" })
  })

  it("a DbObject collection of objects binds IN to a variable and comes back OUT changed", async () => {
    const Pts = await conn.getDbObjectClass("OC_PTS")
    const Pt = await conn.getDbObjectClass("OC_PT")
    const r = await conn.execute(
      `DECLARE
         c oc_pts := :i;
       BEGIN
         c(1).label := 'changed';
         c.EXTEND;
         c(c.LAST) := oc_pt(9, 'new');
         :o := c;
       END;`,
      {
        i: { type: Pts, val: new Pts([new Pt({ X: 1, LABEL: "one" })]) },
        o: { type: Pts, dir: oracledb.BIND_OUT }
      }
    )
    const o = (r.outBinds as { o: { getValues(): Array<unknown> } }).o
    expect(JSON.parse(JSON.stringify(o.getValues()))).toEqual([
      { X: 1, LABEL: "changed" },
      { X: 9, LABEL: "new" }
    ])
  })
  it("a collection variable of a schema type is inserted into a nested table column and selected back INTO one", async () => {
    await conn.execute("CREATE TYPE oc_nums AS TABLE OF NUMBER")
    await conn.execute("CREATE TABLE oc_ntab (id NUMBER, vals oc_nums, pts oc_pts) NESTED TABLE vals STORE AS oc_ntab_vals NESTED TABLE pts STORE AS oc_ntab_pts")
    const r = await conn.execute(
      `DECLARE
         v oc_nums := oc_nums(1, 2);
         p oc_pts := oc_pts(oc_pt(5, 'five'));
         w oc_nums;
         q oc_pts;
       BEGIN
         v.EXTEND;
         v(3) := 30;
         INSERT INTO oc_ntab VALUES (1, v, p);
         SELECT vals, pts INTO w, q FROM oc_ntab WHERE id = 1;
         :x := w.COUNT || ' ' || w(3) || ' ' || q(1).label;
       END;`,
      out
    )
    expect(r.outBinds).toEqual({ x: "3 30 five" })
    const rows = (await conn.execute("SELECT t.vals FROM oc_ntab t")).rows as Array<[{ getValues(): Array<number> }]>
    expect(rows[0]![0].getValues()).toEqual([1, 2, 30])
    await conn.rollback()
  })
})
