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
})
