import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

/**
 * Object types as PL/SQL variable types through raw node-oracledb (Object-Relational Developer's Guide, "Basic
 * Components of Oracle Objects": an object variable is atomically null until a constructor gives it a value; PL/SQL
 * Language Reference, "Predefined Exceptions": ACCESS_INTO_NULL, ORA-06530, when a program assigns to an attribute
 * of an uninitialized object).
 */
describe("Oracle test server: object types as PL/SQL variables", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const out = { x: { dir: oracledb.BIND_OUT, type: oracledb.STRING } }
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TYPE po_pt AS OBJECT (x NUMBER, label VARCHAR2(20))")
    await conn.execute("CREATE TABLE po_tab (id NUMBER(5), o po_pt)")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a constructor call gives a variable its value; attributes are read and assigned", async () => {
    const r = await conn.execute(
      `DECLARE
         v po_pt := po_pt(1, 'a');
       BEGIN
         v.x := v.x + 41;
         v.label := v.label || 'b';
         :x := TO_CHAR(v.x) || ' ' || v.label;
       END;`,
      out
    )
    expect(r.outBinds).toEqual({ x: "42 ab" })
  })

  it("an object variable without a constructor is atomically null: attributes read NULL, assigning one is ORA-06530", async () => {
    const r = await conn.execute(
      "DECLARE v po_pt; BEGIN :x := CASE WHEN v IS NULL AND v.label IS NULL THEN 'null' ELSE 'set' END; END;",
      out
    )
    expect(r.outBinds).toEqual({ x: "null" })
    const e = await failure(() => conn.execute("DECLARE v po_pt; BEGIN v.label := 'b'; END;"))
    expect(oraCode(e)).toBe("ORA-06530")
    const handled = await conn.execute("DECLARE v po_pt; BEGIN v.x := 1; EXCEPTION WHEN ACCESS_INTO_NULL THEN :x := SQLCODE; END;", out)
    expect(handled.outBinds).toEqual({ x: "-6530" })
    const unknown = await failure(() => conn.execute("DECLARE v po_pt := po_pt(1, 'a'); BEGIN :x := v.nope; END;", out))
    expect(oraCode(unknown)).toBe("ORA-06550")
    expect(String(unknown)).toContain("PLS-00302: component 'NOPE' must be declared")
  })

  it("a variable is inserted into an object column and selected back INTO another", async () => {
    const r = await conn.execute(
      `DECLARE
         v po_pt := po_pt(7, 'seven');
         w po_pt;
       BEGIN
         v.x := 8;
         INSERT INTO po_tab VALUES (1, v);
         SELECT o INTO w FROM po_tab WHERE id = 1;
         :x := w.x || ':' || w.label;
       END;`,
      out
    )
    expect(r.outBinds).toEqual({ x: "8:seven" })
    const rows = (await conn.execute("SELECT id, o FROM po_tab")).rows as Array<[number, { X: number; LABEL: string }]>
    expect(rows.map(([id, o]) => [id, o.X, o.LABEL])).toEqual([[1, 8, "seven"]])
    await conn.rollback()
  })

  it("DbObject binds into a block: IN to a variable, a variable OUT, IN OUT changed through an attribute; %TYPE of one", async () => {
    const Pt = await conn.getDbObjectClass("PO_PT")
    const r1 = await conn.execute("DECLARE v po_pt; w v%TYPE; BEGIN v := :i; w := v; w.x := 2; :x := v.label || w.x; END;", {
      i: { type: "PO_PT", val: new Pt({ X: 1, LABEL: "in" }) },
      ...out
    })
    expect(r1.outBinds).toEqual({ x: "in2" })
    const r2 = await conn.execute("DECLARE v po_pt := po_pt(5, 'out'); BEGIN :o := v; END;", { o: { type: "PO_PT", dir: oracledb.BIND_OUT } })
    expect(JSON.parse(JSON.stringify((r2.outBinds as { o: unknown }).o))).toEqual({ X: 5, LABEL: "out" })
    const r3 = await conn.execute("DECLARE v po_pt; BEGIN v := :io; v.x := v.x + 1; :io := v; END;", {
      io: { type: "PO_PT", dir: oracledb.BIND_INOUT, val: new Pt({ X: 1, LABEL: "io" }) }
    })
    expect(JSON.parse(JSON.stringify((r3.outBinds as { io: unknown }).io))).toEqual({ X: 2, LABEL: "io" })
  })

  it("object-typed IN, OUT and IN OUT parameters of a procedure and a function's object result", async () => {
    const Pt = await conn.getDbObjectClass("PO_PT")
    await conn.execute("CREATE OR REPLACE PROCEDURE po_p(a IN po_pt, b OUT po_pt, c IN OUT po_pt) IS BEGIN b := a; b.x := a.x * 2; c.label := c.label || '!'; END;")
    const r = await conn.execute("BEGIN po_p(:a, :b, :c); END;", {
      a: { type: "PO_PT", val: new Pt({ X: 3, LABEL: "a" }) },
      b: { type: "PO_PT", dir: oracledb.BIND_OUT },
      c: { type: "PO_PT", dir: oracledb.BIND_INOUT, val: new Pt({ X: 4, LABEL: "c" }) }
    })
    expect(JSON.parse(JSON.stringify(r.outBinds))).toEqual({ b: { X: 6, LABEL: "a" }, c: { X: 4, LABEL: "c!" } })
    await conn.execute("CREATE OR REPLACE FUNCTION po_f(n NUMBER) RETURN po_pt IS BEGIN RETURN po_pt(n, 'f'); END;")
    const f = await conn.execute("BEGIN :r := po_f(9); END;", { r: { type: "PO_PT", dir: oracledb.BIND_OUT } })
    expect(JSON.parse(JSON.stringify((f.outBinds as { r: unknown }).r))).toEqual({ X: 9, LABEL: "f" })
    const g = await conn.execute("DECLARE v po_pt := po_f(2); BEGIN :x := v.x || v.label; END;", out)
    expect(g.outBinds).toEqual({ x: "2f" })
  })

  it("reads an attribute of a nested object attribute, NULL when the nested object is null", async () => {
    await conn.execute("CREATE TYPE po_line AS OBJECT (a po_pt, b po_pt)")
    const r = await conn.execute(
      "DECLARE v po_line := po_line(po_pt(1, 'a'), NULL); BEGIN :x := v.a.label || v.a.x || NVL(v.b.label, '-'); END;",
      out
    )
    expect(r.outBinds).toEqual({ x: "a1-" })
  })

  it("reads an attribute of a record field of an object type", async () => {
    const r = await conn.execute("DECLARE TYPE r_t IS RECORD (p po_pt); v r_t; BEGIN v.p := po_pt(3, 'r'); :x := v.p.label || v.p.x; END;", out)
    expect(r.outBinds).toEqual({ x: "r3" })
  })

  it("applies an attribute's declared type on assignment, in constructors and in collection elements: NUMBER(p,s) rounds, too large is ORA-06502", async () => {
    // PL/SQL Language Reference, "Predefined Exceptions": VALUE_ERROR (ORA-06502) on "an arithmetic, conversion,
    // truncation, or size-constraint error", as for a variable of the attribute's type
    await conn.execute("CREATE TYPE po_num AS OBJECT (n NUMBER(5,2), s VARCHAR2(3))")
    await conn.execute("CREATE TYPE po_nums AS TABLE OF po_num")
    const run = (body: string) =>
      conn.execute(`DECLARE v po_num := po_num(1, 'a'); l po_nums := po_nums(po_num(1, 'a')); BEGIN ${body} END;`, out).then((r: { outBinds: { x: string } }) => r.outBinds.x)
    expect(await run("v.n := 1.23456; :x := TO_CHAR(v.n);")).toBe("1.23")
    expect(await run("v.n := '2.345'; :x := TO_CHAR(v.n);")).toBe("2.35")
    expect(await run("v.s := 'abc'; :x := v.s;")).toBe("abc")
    expect(await run("v := po_num(1.23456, 'ab'); :x := TO_CHAR(v.n);")).toBe("1.23")
    expect(await run("l(1).n := 9.87654; :x := TO_CHAR(l(1).n);")).toBe("9.88")
    await conn.execute("CREATE TYPE po_hundreds AS OBJECT (m NUMBER(4, -2))")
    const hundreds = await conn.execute("DECLARE h po_hundreds := po_hundreds(0); BEGIN h.m := 123456; :x := TO_CHAR(h.m); END;", out)
    expect((hundreds as { outBinds: { x: string } }).outBinds.x).toBe("123500")
    const valueError = async (body: string, detail: string) => {
      const e = await failure(() => run(`${body} :x := NULL;`))
      expect(oraCode(e)).toBe("ORA-06502")
      expect(e.message).toContain(`numeric or value error: ${detail}`)
    }
    await valueError("v.n := 12345;", "number precision too large")
    await valueError("v.n := 999.996;", "number precision too large")
    await valueError("v.s := 'abcdef';", "character string buffer too small")
    await valueError("v.n := 'x';", "character to number conversion error")
    await valueError("v := po_num(12345, 'a');", "number precision too large")
    await valueError("v := po_num(1, 'abcdef');", "character string buffer too small")
    await valueError("l(1).n := 12345;", "number precision too large")
    await valueError("l(1).s := 'abcdef';", "character string buffer too small")
    const e = await failure(() => conn.execute("DECLARE h po_hundreds := po_hundreds(0); BEGIN h.m := 1234567; END;"))
    expect(e.message).toContain("ORA-06502: PL/SQL: numeric or value error: number precision too large")
    // the handler sees VALUE_ERROR
    expect(await run("BEGIN v.s := 'abcdef'; EXCEPTION WHEN VALUE_ERROR THEN :x := 'caught ' || v.s; END;")).toBe("caught a")
  })

  it("blank-pads CHAR(n) and NCHAR(n) attributes to their length, as CHAR columns are (SQL Language Reference, CHAR Data Type)", async () => {
    await conn.execute("CREATE TYPE po_ch AS OBJECT (code CHAR(5), nc NCHAR(3), v VARCHAR2(5))")
    await conn.execute("CREATE TABLE po_chars (id NUMBER, o po_ch)")
    const r = await conn.execute(
      `DECLARE
         a po_ch := po_ch('ab', 'x', 'cd');
       BEGIN
         a.code := 'xyz';
         :x := '[' || a.code || '][' || a.nc || '][' || a.v || ']';
         INSERT INTO po_chars VALUES (1, po_ch('q', 'é', 'r'));
       END;`,
      out
    )
    expect(r.outBinds).toEqual({ x: "[xyz  ][x  ][cd]" })
    const rows = await conn.execute("SELECT '[' || t.o.code || ']', LENGTH(t.o.nc), t.o.v FROM po_chars t WHERE id = 1")
    expect(rows.rows).toEqual([["[q    ]", 3, "r"]])
    const fetched = await conn.execute("SELECT o FROM po_chars WHERE id = 1", [], { outFormat: oracledb.OUT_FORMAT_ARRAY })
    expect(fetched.rows[0][0].CODE).toBe("q    ")
  })
})
