import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: attribute access on object columns through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TYPE attr_pt AS OBJECT (x NUMBER, y NUMBER(6,2), label VARCHAR2(20))")
    await conn.execute("CREATE TYPE attr_route AS OBJECT (name VARCHAR2(30), origin attr_pt)")
    await conn.execute("CREATE TABLE attr_tab (id NUMBER(5) PRIMARY KEY, o attr_route, g SDO_GEOMETRY)")
    await conn.execute("INSERT INTO attr_tab VALUES (1, attr_route('north', attr_pt(12345678901234567890.5, -2.25, 'a')), SDO_GEOMETRY(2001, 4326, SDO_POINT_TYPE(1, 2, NULL), NULL, NULL))")
    await conn.execute("INSERT INTO attr_tab VALUES (2, attr_route('south', NULL), SDO_GEOMETRY(2001, NULL, SDO_POINT_TYPE(3, 4, NULL), NULL, NULL))")
    await conn.execute("INSERT INTO attr_tab VALUES (3, NULL, NULL)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("reads scalar attributes, nested ones included, typed as declared and NULL for a NULL object", async () => {
    const r = await conn.execute(
      "SELECT t.g.SDO_SRID, t.g.sdo_point.x, t.o.name, t.o.origin.x, t.o.origin.y, t.o.origin.label FROM attr_tab t ORDER BY t.id",
      [],
      { fetchTypeHandler: (m: { dbType: unknown }) => (m.dbType === oracledb.DB_TYPE_NUMBER ? { type: oracledb.STRING } : undefined) }
    )
    expect(r.rows).toEqual([
      ["4326", "1", "north", "12345678901234567890.5", "-2.25", "a"],
      [null, "3", "south", null, null, null],
      [null, null, null, null, null, null]
    ])
    // Oracle heads an unaliased expression with its text, upper-cased
    expect(r.metaData.map((m: { name: string }) => m.name)).toEqual(["T.G.SDO_SRID", "T.G.SDO_POINT.X", "T.O.NAME", "T.O.ORIGIN.X", "T.O.ORIGIN.Y", "T.O.ORIGIN.LABEL"])
    expect(r.metaData.map((m: { dbType: unknown }) => m.dbType)).toEqual([
      oracledb.DB_TYPE_NUMBER, oracledb.DB_TYPE_NUMBER, oracledb.DB_TYPE_VARCHAR, oracledb.DB_TYPE_NUMBER, oracledb.DB_TYPE_NUMBER, oracledb.DB_TYPE_VARCHAR
    ])
  })

  it("reads RAW, DATE and BINARY_DOUBLE attributes as their types, and updates rows chosen by an attribute", async () => {
    await conn.execute("CREATE TYPE attr_misc AS OBJECT (tag RAW(8), seen DATE, weight BINARY_DOUBLE)")
    await conn.execute("CREATE TABLE attr_misc_tab (id NUMBER(5), m attr_misc)")
    await conn.execute("INSERT INTO attr_misc_tab VALUES (1, attr_misc(HEXTORAW('CAFE'), DATE '2024-01-02', 0.125))")
    const r = await conn.execute("SELECT x.m.tag, TO_CHAR(x.m.seen, 'YYYY-MM-DD'), x.m.weight FROM attr_misc_tab x")
    expect(r.rows).toEqual([[Buffer.from([0xca, 0xfe]), "2024-01-02", 0.125]])
    expect(r.metaData.map((m: { dbType: unknown }) => m.dbType)).toEqual([oracledb.DB_TYPE_RAW, oracledb.DB_TYPE_VARCHAR, oracledb.DB_TYPE_BINARY_DOUBLE])
    expect((await conn.execute("UPDATE attr_misc_tab x SET id = 2 WHERE x.m.weight = 0.125")).rowsAffected).toBe(1)
    await conn.rollback()
  })

  it("creates views and tables from queries that read attributes", async () => {
    await conn.execute("CREATE VIEW attr_view AS SELECT t.id, t.o.name nm, t.g.sdo_srid srid FROM attr_tab t")
    expect((await conn.execute("SELECT nm, srid FROM attr_view ORDER BY id")).rows).toEqual([["north", 4326], ["south", null], [null, null]])
    await conn.execute("CREATE TABLE attr_copy AS SELECT t.id, t.o.origin.y y FROM attr_tab t")
    expect((await conn.execute("SELECT y FROM attr_copy ORDER BY id")).rows).toEqual([[-2.25], [null], [null]])
  })

  it("reads attributes in a PL/SQL block's SELECT INTO", async () => {
    const r = await conn.execute("BEGIN SELECT t.g.sdo_srid, t.o.origin.label INTO :srid, :label FROM attr_tab t WHERE t.id = 1; END;", {
      srid: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
      label: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 20 }
    })
    expect(r.outBinds).toEqual({ srid: 4326, label: "a" })
  })

  it("filters and orders on attributes", async () => {
    const r = await conn.execute("SELECT id FROM attr_tab a WHERE a.g.sdo_point.y > :1 ORDER BY a.o.name DESC", [1])
    expect(r.rows).toEqual([[2], [1]])
  })

  it("selects an object-typed or collection attribute on its own, as a DbObject of the attribute's type", async () => {
    const r = await conn.execute("SELECT t.g.sdo_point, t.o.origin FROM attr_tab t ORDER BY t.id")
    expect(r.metaData.map((m: { name: string; dbTypeName: string }) => [m.name, m.dbTypeName])).toEqual([
      ["T.G.SDO_POINT", "MDSYS.SDO_POINT_TYPE"],
      ["T.O.ORIGIN", "TEST.ATTR_PT"]
    ])
    const shown = r.rows.map(([p, o]: [any, any]) => [p === null ? null : [p.X, p.Y, p.Z], o === null ? null : [o.X, o.Y, o.LABEL]])
    expect(shown).toEqual([
      [[1, 2, null], [12345678901234567000, -2.25, "a"]],
      [[3, 4, null], null],
      [null, null]
    ])
    expect((await conn.execute("SELECT t.id FROM attr_tab t WHERE t.o.origin IS NULL ORDER BY t.id")).rows).toEqual([[2], [3]])
  })

  it("rounds constructor arguments to a NUMBER(p,s) attribute and refuses text longer than a VARCHAR2 attribute (ORA-12899)", async () => {
    await conn.execute("INSERT INTO attr_tab (id, o) VALUES (10, attr_route('east', attr_pt(1, 2.345, 'b')))")
    const y = (await conn.execute("SELECT t.o.origin.y FROM attr_tab t WHERE t.id = 10")).rows[0][0]
    expect(y).toBe(2.35)
    const fetched = (await conn.execute("SELECT t.o FROM attr_tab t WHERE t.id = 10")).rows[0][0]
    expect(fetched.ORIGIN.Y).toBe(2.35)
    const e = await failure(() => conn.execute(`INSERT INTO attr_tab (id, o) VALUES (11, attr_route('west', attr_pt(1, 2, '${"x".repeat(21)}')))`))
    expect(oraCode(e)).toBe("ORA-12899")
    expect(String(e)).toContain("(actual: 21, maximum: 20)")
    expect(oraCode(await failure(() => conn.execute("INSERT INTO attr_tab (id, o) VALUES (12, attr_route('w', attr_pt(1, 12345.5, 'c')))")))).toBe("ORA-01438")
    expect((await conn.execute("SELECT COUNT(*) FROM attr_tab WHERE id > 10")).rows).toEqual([[0]])
    await conn.rollback()
  })

  it("rounds a DbObject bind's NUMBER(p,s) attribute and refuses one past its precision (ORA-01438)", async () => {
    const Pt = await conn.getDbObjectClass("ATTR_PT")
    const Route = await conn.getDbObjectClass("ATTR_ROUTE")
    await conn.execute("INSERT INTO attr_tab (id, o) VALUES (20, :o)", { o: new Route({ NAME: "b", ORIGIN: new Pt({ X: 1, Y: 2.345, LABEL: "q" }) }) })
    expect((await conn.execute("SELECT t.o.origin.y FROM attr_tab t WHERE t.id = 20")).rows).toEqual([[2.35]])
    const e = await failure(() => conn.execute("INSERT INTO attr_tab (id, o) VALUES (21, :o)", { o: new Route({ NAME: "c", ORIGIN: new Pt({ X: 1, Y: 12345.5, LABEL: "q" }) }) }))
    expect(oraCode(e)).toBe("ORA-01438")
    // node-oracledb itself refuses text longer than a VARCHAR2 attribute (NJS-142), before sending it
    expect(String(await failure(async () => new Pt({ X: 1, Y: 1, LABEL: "x".repeat(21) })))).toContain("NJS-142")
    expect((await conn.execute("SELECT COUNT(*) FROM attr_tab WHERE id = 21")).rows).toEqual([[0]])
    await conn.rollback()
  })

  it("fetches VARRAY, nested table and SDO_GEOMETRY array values as DbObject collections", async () => {
    // node-oracledb's collections have getValues() / toMap() / element access (lib/dbObject.js); there is no toArray()
    await conn.execute("CREATE TYPE attr_nums AS VARRAY(5) OF NUMBER")
    await conn.execute("CREATE TYPE attr_words AS TABLE OF VARCHAR2(10)")
    await conn.execute("CREATE TABLE attr_coll (id NUMBER, a attr_nums, w attr_words, g SDO_GEOMETRY) NESTED TABLE w STORE AS attr_coll_w")
    await conn.execute(
      "INSERT INTO attr_coll VALUES (1, attr_nums(1, 2.5, NULL), attr_words('x', 'y'), SDO_GEOMETRY(2003, 8307, NULL, SDO_ELEM_INFO_ARRAY(1, 1003, 1), SDO_ORDINATE_ARRAY(0, 0, 1, 0, 1, 1, 0, 0)))"
    )
    const [a, w, g] = (await conn.execute("SELECT a, w, g FROM attr_coll")).rows[0]
    expect([a.isCollection, w.isCollection, g.SDO_ELEM_INFO.isCollection, g.SDO_ORDINATES.isCollection]).toEqual([true, true, true, true])
    expect(a.getValues()).toEqual([1, 2.5, null])
    expect(w.getValues()).toEqual(["x", "y"])
    expect([...a]).toEqual([1, 2.5, null])
    expect(g.SDO_ELEM_INFO.getValues()).toEqual([1, 1003, 1])
    expect(g.SDO_ORDINATES.getValues()).toEqual([0, 0, 1, 0, 1, 1, 0, 0])
    await conn.execute("DROP TABLE attr_coll")
  })

  it("reads an attribute of a constructed object, `type(args).attribute[.attribute]`, typed and rounded as declared", async () => {
    // Oracle: "a constructor ... returns a new instance of the object type", whose attributes are read with dot
    // notation like any object expression's (Object-Relational Developer's Guide, "Object Methods: Constructor Methods")
    const r = await conn.execute("SELECT attr_pt(1.234, 2.345, 'ab').label, attr_pt(1.234, 2.345, 'ab').y, attr_route('n', attr_pt(7, 8, 'z')).origin.x AS ox FROM DUAL")
    expect(r.rows).toEqual([["ab", 2.35, 7]])
    expect(r.metaData.map((m: { name: string }) => m.name)).toEqual(["ATTR_PT(1.234,2.345,'AB').LABEL", "ATTR_PT(1.234,2.345,'AB').Y", "OX"])
    expect(r.metaData.map((m: { dbType: unknown }) => m.dbType)).toEqual([oracledb.DB_TYPE_VARCHAR, oracledb.DB_TYPE_NUMBER, oracledb.DB_TYPE_NUMBER])
    expect((await conn.execute("SELECT 1 FROM DUAL WHERE attr_pt(1, 2, 'c').label = 'c'")).rows).toEqual([[1]])
    expect(oraCode(await failure(() => conn.execute("SELECT attr_pt(1, 2, 'c').nope FROM DUAL")))).toBe("ORA-00904")
    expect(oraCode(await failure(() => conn.execute(`SELECT attr_pt(1, 2, '${"x".repeat(21)}').label FROM DUAL`)))).toBe("ORA-12899")
  })

  it("reads attributes through an inline view's alias, `x.column.attribute`", async () => {
    const r = await conn.execute("SELECT x.o.name, x.p.origin.y, x.o.origin.label FROM (SELECT t.o, t.o AS p, t.id FROM attr_tab t) x ORDER BY x.id")
    expect(r.rows).toEqual([["north", -2.25, "a"], ["south", null, null], [null, null, null]])
    expect((await conn.execute("SELECT v.o.name FROM (SELECT * FROM attr_tab WHERE id = 2) v")).rows).toEqual([["south"]])
    // an inline view's constructor call, aliased
    expect((await conn.execute("SELECT x.p.label, x.p.y FROM (SELECT attr_pt(1, 2.345, 'q') AS p FROM DUAL) x")).rows).toEqual([["q", 2.35]])
  })

  it("never sends DuckDB's SQL text in an error message, also when DuckDB quotes a server macro holding ORA- text", async () => {
    // DuckDB refuses field access on the parenthesised constructor's text, quoting the macro that checks VARCHAR2 sizes
    const e = await failure(() => conn.execute("SELECT (attr_pt(1, 2, 'ab')).label FROM DUAL"))
    expect(e.message).not.toMatch(/CAST\(|CASE |ora_attribute_text|json/i)
    expect(e.message.split("\n")[0]!.length).toBeLessThan(200)
  })

  it("refuses a name that is no attribute, and attribute access without a table alias, with ORA-00904", async () => {
    const e = await failure(() => conn.execute("SELECT t.o.nope FROM attr_tab t"))
    expect(oraCode(e)).toBe("ORA-00904")
    expect(String(e)).toContain('"T"."O"."NOPE": invalid identifier')
    const e2 = await failure(() => conn.execute("SELECT t.o.name.x FROM attr_tab t"))
    expect(oraCode(e2)).toBe("ORA-00904")
    // Oracle resolves attributes only through a table alias (PL/SQL Language Reference, Example B-8)
    const e3 = await failure(() => conn.execute("SELECT attr_tab.g.sdo_srid FROM attr_tab"))
    expect(oraCode(e3)).toBe("ORA-00904")
  })
})
