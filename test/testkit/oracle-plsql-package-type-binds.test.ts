import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, oracledb, openConnection } from "./oracle/helpers.ts"

/**
 * A package's PL/SQL record and collection types bound as node-oracledb DbObjects, through raw node-oracledb:
 * `connection.getDbObjectClass("PKG.TYPE")` describes the type (the client's dbms_pickler.get_type_shape block), and
 * values of it bind IN, OUT and IN OUT, as node-oracledb's user guide shows them ("PL/SQL Record Bind Parameters",
 * "Associative Array Bind Parameters": https://node-oracledb.readthedocs.io/en/latest/user_guide/plsql_execution.html)
 * and its example examples/plsqlrecord.js runs them.
 */
describe("Oracle test server: package record and collection types as DbObject binds", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    // examples/plsqlrecord.js
    await conn.execute(`CREATE OR REPLACE PACKAGE rectest AS
        TYPE rectype IS RECORD (name VARCHAR2(40), pos NUMBER);
        PROCEDURE myproc (p_in IN rectype, p_out OUT rectype);
      END rectest;`)
    await conn.execute(`CREATE OR REPLACE PACKAGE BODY rectest AS
        PROCEDURE myproc (p_in IN rectype, p_out OUT rectype) AS
        BEGIN
          p_out := p_in;
          p_out.pos := p_out.pos * 2;
        END;
      END rectest;`)
    await conn.execute(`CREATE OR REPLACE PACKAGE shapes AS
        TYPE point IS RECORD (x NUMBER(5,2), y NUMBER, label VARCHAR2(10), at DATE);
        TYPE num_by_int IS TABLE OF NUMBER INDEX BY PLS_INTEGER;
        TYPE name_list IS TABLE OF VARCHAR2(20);
        TYPE small_array IS VARRAY(3) OF NUMBER;
        TYPE text_by_text IS TABLE OF NUMBER INDEX BY VARCHAR2(10);
        TYPE segment IS RECORD (a point, b point, tag VARCHAR2(5));
        TYPE flagged IS RECORD (n NUMBER, ok BOOLEAN);
        TYPE point_list IS TABLE OF point;
        PROCEDURE move(p IN OUT point, dx NUMBER);
        FUNCTION flipped(s segment) RETURN segment;
        FUNCTION negated(f flagged) RETURN flagged;
        PROCEDURE widen(ps IN OUT point_list);
        PROCEDURE squares(n NUMBER, out_tab OUT num_by_int);
        FUNCTION total(t num_by_int) RETURN NUMBER;
        PROCEDURE shout(names IN OUT name_list);
        FUNCTION reversed(a small_array) RETURN small_array;
      END shapes;`)
    await conn.execute(`CREATE OR REPLACE PACKAGE BODY shapes AS
        PROCEDURE move(p IN OUT point, dx NUMBER) IS
        BEGIN
          p.x := p.x + dx;
          p.label := p.label || '>';
          p.at := p.at + 1;
        END;
        FUNCTION flipped(s segment) RETURN segment IS
          r segment;
        BEGIN
          r.a := s.b;
          r.b := s.a;
          r.tag := s.tag || '!';
          RETURN r;
        END;
        PROCEDURE widen(ps IN OUT point_list) IS
        BEGIN
          FOR i IN 1 .. ps.COUNT LOOP
            ps(i).x := ps(i).x * 10;
          END LOOP;
          ps.EXTEND;
          ps(ps.COUNT).label := 'new';
        END;
        FUNCTION negated(f flagged) RETURN flagged IS
          r flagged := f;
        BEGIN
          r.n := -f.n;
          r.ok := NOT f.ok;
          RETURN r;
        END;
        PROCEDURE squares(n NUMBER, out_tab OUT num_by_int) IS
        BEGIN
          FOR i IN 1 .. n LOOP
            out_tab(i * 10) := i * i;
          END LOOP;
        END;
        FUNCTION total(t num_by_int) RETURN NUMBER IS
          k PLS_INTEGER := t.FIRST;
          s NUMBER := 0;
        BEGIN
          WHILE k IS NOT NULL LOOP
            s := s + k * t(k);
            k := t.NEXT(k);
          END LOOP;
          RETURN s;
        END;
        PROCEDURE shout(names IN OUT name_list) IS
        BEGIN
          FOR i IN 1 .. names.COUNT LOOP
            names(i) := UPPER(names(i));
          END LOOP;
          names.EXTEND;
          names(names.COUNT) := 'END';
        END;
        FUNCTION reversed(a small_array) RETURN small_array IS
          r small_array := small_array();
        BEGIN
          FOR i IN REVERSE 1 .. a.COUNT LOOP
            r.EXTEND;
            r(r.COUNT) := a(i);
          END LOOP;
          RETURN r;
        END;
      END shapes;`)
  })
  afterAll(() => closeConnection({ server, conn }))

  it("binds a record IN and OUT as examples/plsqlrecord.js does, with execute and executeMany (was NJS-129 at getDbObjectClass)", async () => {
    const RecTypeClass = await conn.getDbObjectClass("RECTEST.RECTYPE")
    expect(RecTypeClass.prototype.isCollection).toBe(false)
    expect(RecTypeClass.prototype.packageName).toBe("RECTEST")
    const r = await conn.execute("CALL rectest.myproc(:inbv, :outbv)", {
      inbv: new RecTypeClass({ NAME: "Ship", POS: 12 }),
      outbv: { type: RecTypeClass, dir: oracledb.BIND_OUT }
    })
    expect(r.outBinds.outbv.NAME).toBe("Ship")
    expect(r.outBinds.outbv.POS).toBe(24)
    const many = await conn.executeMany(
      "CALL rectest.myproc(:inbv, :outbv)",
      [{ inbv: { NAME: "Train", POS: 56 } }, { inbv: { NAME: "Plane", POS: 1 } }],
      { bindDefs: { inbv: { type: RecTypeClass }, outbv: { type: RecTypeClass, dir: oracledb.BIND_OUT } } }
    )
    expect(many.outBinds.map((o: { outbv: { NAME: string; POS: number } }) => [o.outbv.NAME, o.outbv.POS])).toEqual([
      ["Train", 112],
      ["Plane", 2]
    ])
  })

  it("binds a record IN OUT with NUMBER(p,s), VARCHAR2 and DATE fields, named with its owner too", async () => {
    const Point = await conn.getDbObjectClass(`${server.user}.SHAPES.POINT`)
    expect(Point.prototype.attributes.X.type).toBe(oracledb.DB_TYPE_NUMBER)
    expect(Point.prototype.attributes.AT.type).toBe(oracledb.DB_TYPE_DATE)
    const p = new Point({ X: 1.25, Y: 7, LABEL: "a", AT: new Date(2024, 1, 28, 10, 30) })
    const r = await conn.execute("BEGIN shapes.move(:p, 2); END;", { p: { type: Point, dir: oracledb.BIND_INOUT, val: p } })
    const out = r.outBinds.p
    expect([out.X, out.Y, out.LABEL]).toEqual([3.25, 7, "a>"])
    expect(out.AT).toEqual(new Date(2024, 1, 29, 10, 30))
    // a NULL record field stays NULL
    const q = await conn.execute("BEGIN shapes.move(:p, 1); END;", { p: { type: Point, dir: oracledb.BIND_INOUT, val: new Point({ X: 0, LABEL: "b" }) } })
    expect([q.outBinds.p.X, q.outBinds.p.Y, q.outBinds.p.LABEL, q.outBinds.p.AT]).toEqual([1, null, "b>", null])
    // a record of records, as a function's argument and result
    const Segment = await conn.getDbObjectClass("SHAPES.SEGMENT")
    const s = new Segment({ A: new Point({ X: 1, Y: 2 }), B: new Point({ X: 3, Y: 4, LABEL: "b" }), TAG: "t" })
    const f = await conn.execute("BEGIN :r := shapes.flipped(:s); END;", { r: { type: Segment, dir: oracledb.BIND_OUT }, s })
    expect([f.outBinds.r.A.X, f.outBinds.r.A.LABEL, f.outBinds.r.B.Y, f.outBinds.r.TAG]).toEqual([3, "b", 2, "t!"])
    // a BOOLEAN field (23ai)
    const Flagged = await conn.getDbObjectClass("SHAPES.FLAGGED")
    const g = await conn.execute("BEGIN :r := shapes.negated(:f); END;", { r: { type: Flagged, dir: oracledb.BIND_OUT }, f: new Flagged({ N: 4, OK: true }) })
    expect([g.outBinds.r.N, g.outBinds.r.OK]).toEqual([-4, false])
  })

  it("binds an associative array indexed by PLS_INTEGER IN (as a function argument) and OUT, keeping its subscripts", async () => {
    const NumByInt = await conn.getDbObjectClass("SHAPES.NUM_BY_INT")
    expect(NumByInt.prototype.isCollection).toBe(true)
    const out = await conn.execute("BEGIN shapes.squares(3, :t); END;", { t: { type: NumByInt, dir: oracledb.BIND_OUT } })
    expect(out.outBinds.t.getKeys()).toEqual([10, 20, 30])
    expect(out.outBinds.t.getValues()).toEqual([1, 4, 9])
    const t = new NumByInt()
    t.setElement(2, 5)
    t.setElement(-1, 3)
    t.setElement(100, 1)
    const r = await conn.execute("BEGIN :s := shapes.total(:t); END;", { s: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }, t })
    expect(r.outBinds.s).toBe(2 * 5 + -1 * 3 + 100)
  })

  it("binds a package's nested table IN OUT and a VARRAY as argument and function result", async () => {
    const NameList = await conn.getDbObjectClass("SHAPES.NAME_LIST")
    const r = await conn.execute("BEGIN shapes.shout(:n); END;", { n: { type: NameList, dir: oracledb.BIND_INOUT, val: new NameList(["ab", "cd"]) } })
    expect(r.outBinds.n.getValues()).toEqual(["AB", "CD", "END"])
    const SmallArray = await conn.getDbObjectClass("SHAPES.SMALL_ARRAY")
    const v = await conn.execute("BEGIN :r := shapes.reversed(:a); END;", { r: { type: SmallArray, dir: oracledb.BIND_OUT }, a: new SmallArray([1, 2.5, 3]) })
    expect(v.outBinds.r.getValues()).toEqual([3, 2.5, 1])
    // a collection of records: node-oracledb reads its element type from ALL_PLSQL_COLL_TYPES
    const PointList = await conn.getDbObjectClass("SHAPES.POINT_LIST")
    expect(PointList.prototype.elementTypeName).toBe(`${server.user}.SHAPES.POINT`)
    const Point = await conn.getDbObjectClass("SHAPES.POINT")
    const w = await conn.execute("BEGIN shapes.widen(:ps); END;", { ps: { type: PointList, dir: oracledb.BIND_INOUT, val: new PointList([new Point({ X: 1.5, LABEL: "a" }), new Point({ X: 2 })]) } })
    expect(w.outBinds.ps.getValues().map((p: { X: number | null; LABEL: string | null }) => [p.X, p.LABEL])).toEqual([[15, "a"], [20, null], [null, "new"]])
    expect((await conn.execute("SELECT coll_type, elem_type_name, elem_type_package FROM all_plsql_coll_types WHERE package_name = 'SHAPES' AND type_name = 'POINT_LIST'")).rows).toEqual([["TABLE", "POINT", "SHAPES"]])
  })

  it("binds a package's collection of table%ROWTYPE and a record with a %ROWTYPE field (was NJS-129: no type was described)", async () => {
    await conn.execute("CREATE TABLE pt_emp (id NUMBER(6), name VARCHAR2(20), hired DATE)")
    await conn.execute("INSERT INTO pt_emp VALUES (1, 'Ann', DATE '2020-01-02')")
    await conn.execute("INSERT INTO pt_emp VALUES (2, 'Bob', NULL)")
    await conn.execute(`CREATE OR REPLACE PACKAGE emps AS
        TYPE emp_tab IS TABLE OF pt_emp%ROWTYPE INDEX BY PLS_INTEGER;
        TYPE tagged IS RECORD (e pt_emp%ROWTYPE, tag VARCHAR2(5));
        PROCEDURE all_rows(t OUT emp_tab);
        FUNCTION names(t emp_tab) RETURN VARCHAR2;
        PROCEDURE retag(r IN OUT tagged);
      END emps;`)
    await conn.execute(`CREATE OR REPLACE PACKAGE BODY emps AS
        PROCEDURE all_rows(t OUT emp_tab) IS
        BEGIN
          SELECT * BULK COLLECT INTO t FROM pt_emp ORDER BY id;
        END;
        FUNCTION names(t emp_tab) RETURN VARCHAR2 IS
          s VARCHAR2(100);
        BEGIN
          FOR i IN 1 .. t.COUNT LOOP s := s || t(i).name || t(i).id; END LOOP;
          RETURN s;
        END;
        PROCEDURE retag(r IN OUT tagged) IS
          e pt_emp%ROWTYPE := r.e;
        BEGIN
          e.name := UPPER(e.name);
          r.e := e;
          r.tag := r.tag || '!';
        END;
      END emps;`)
    const EmpTab = await conn.getDbObjectClass("EMPS.EMP_TAB")
    const out = await conn.execute("BEGIN emps.all_rows(:t); END;", { t: { type: EmpTab, dir: oracledb.BIND_OUT } })
    const rows = out.outBinds.t.getValues()
    expect(rows.map((e: { ID: number; NAME: string; HIRED: Date | null }) => [e.ID, e.NAME, e.HIRED])).toEqual([
      [1, "Ann", new Date(2020, 0, 2)],
      [2, "Bob", null]
    ])
    const back = await conn.execute("BEGIN :s := emps.names(:t); END;", { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 }, t: out.outBinds.t })
    expect(back.outBinds.s).toBe("Ann1Bob2")
    const Tagged = await conn.getDbObjectClass("EMPS.TAGGED")
    const EmpRow = await conn.getDbObjectClass("PT_EMP%ROWTYPE")
    const r = await conn.execute("BEGIN emps.retag(:r); END;", { r: { type: Tagged, dir: oracledb.BIND_INOUT, val: new Tagged({ E: new EmpRow({ ID: 3, NAME: "cy" }), TAG: "t" }) } })
    expect([r.outBinds.r.E.ID, r.outBinds.r.E.NAME, r.outBinds.r.TAG]).toEqual([3, "CY", "t!"])
  })

  it("refuses a type no package declares, and an associative array indexed by VARCHAR2, as node-oracledb cannot bind it", async () => {
    await expect(conn.getDbObjectClass("SHAPES.NOPE")).rejects.toThrow(/NJS-129/)
    await expect(conn.getDbObjectClass("SHAPES.TEXT_BY_TEXT")).rejects.toThrow(/NJS-129/)
  })
})
