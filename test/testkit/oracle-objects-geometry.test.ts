import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode, withServer } from "./oracle/helpers.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
let server: OracleTestServerHandle
let conn: Conn

const plain = (o: any): unknown => (o === null ? null : JSON.parse(JSON.stringify(o)))

describe("Oracle test server: SDO_GEOMETRY and XMLType through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE parcels (id NUMBER PRIMARY KEY, name VARCHAR2(20), shape SDO_GEOMETRY)")
    await conn.execute("CREATE TABLE docs (id NUMBER PRIMARY KEY, body XMLTYPE)")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("fetches a 2D point stored in SDO_POINT", async () => {
    await conn.execute("INSERT INTO parcels VALUES (1, 'well', SDO_GEOMETRY(2001, 4326, SDO_POINT_TYPE(-122.4194, 37.7749, NULL), NULL, NULL))")
    const r = await conn.execute("SELECT shape FROM parcels WHERE id = 1")
    expect(r.metaData[0]).toMatchObject({ dbType: oracledb.DB_TYPE_OBJECT, dbTypeName: "MDSYS.SDO_GEOMETRY" })
    const g = r.rows[0][0]
    expect(plain(g)).toEqual({ SDO_GTYPE: 2001, SDO_SRID: 4326, SDO_POINT: { X: -122.4194, Y: 37.7749, Z: null }, SDO_ELEM_INFO: null, SDO_ORDINATES: null })
    expect(g.SDO_POINT.X).toBe(-122.4194)
  })

  it("fetches a line string with its element info and ordinates", async () => {
    await conn.execute(
      "INSERT INTO parcels VALUES (2, 'road', MDSYS.SDO_GEOMETRY(2002, NULL, NULL, MDSYS.SDO_ELEM_INFO_ARRAY(1, 2, 1), MDSYS.SDO_ORDINATE_ARRAY(10, 10, 20.5, 25.25, 30, 10)))"
    )
    const g = (await conn.execute("SELECT shape FROM parcels WHERE id = 2")).rows[0][0]
    expect([g.SDO_GTYPE, g.SDO_SRID, g.SDO_POINT]).toEqual([2002, null, null])
    expect(g.SDO_ELEM_INFO.getValues()).toEqual([1, 2, 1])
    expect(g.SDO_ORDINATES.getValues()).toEqual([10, 10, 20.5, 25.25, 30, 10])
    expect([g.fqn, g.SDO_ELEM_INFO.fqn, g.SDO_ORDINATES.fqn]).toEqual(["MDSYS.SDO_GEOMETRY", "MDSYS.SDO_ELEM_INFO_ARRAY", "MDSYS.SDO_ORDINATE_ARRAY"])
  })

  it("fetches a polygon with an exterior and an interior ring", async () => {
    await conn.execute(
      `INSERT INTO parcels VALUES (3, 'field', SDO_GEOMETRY(2003, 8307, NULL,
         SDO_ELEM_INFO_ARRAY(1, 1003, 1, 11, 2003, 1),
         SDO_ORDINATE_ARRAY(0, 0, 10, 0, 10, 10, 0, 10, 0, 0, 2, 2, 2, 4, 4, 4, 4, 2, 2, 2)))`
    )
    const g = (await conn.execute("SELECT shape FROM parcels WHERE id = 3")).rows[0][0]
    expect(plain(g)).toEqual({
      SDO_GTYPE: 2003,
      SDO_SRID: 8307,
      SDO_POINT: null,
      SDO_ELEM_INFO: [1, 1003, 1, 11, 2003, 1],
      SDO_ORDINATES: [0, 0, 10, 0, 10, 10, 0, 10, 0, 0, 2, 2, 2, 4, 4, 4, 4, 2, 2, 2]
    })
  })

  it("binds geometries built from the MDSYS classes and reads them back exactly", async () => {
    const Geometry = await conn.getDbObjectClass("MDSYS.SDO_GEOMETRY")
    const Point = await conn.getDbObjectClass("MDSYS.SDO_POINT_TYPE")
    const ElemInfo = await conn.getDbObjectClass("MDSYS.SDO_ELEM_INFO_ARRAY")
    const Ordinates = await conn.getDbObjectClass("MDSYS.SDO_ORDINATE_ARRAY")
    const point = new Geometry({ SDO_GTYPE: 3001, SDO_SRID: null, SDO_POINT: new Point({ X: 1.25, Y: -2.5, Z: 1e-10 }) })
    const line = new Geometry({ SDO_GTYPE: 2002, SDO_SRID: 4326, SDO_ELEM_INFO: new ElemInfo([1, 2, 1]), SDO_ORDINATES: new Ordinates([0.1, 0.2, 0.3, 0.4]) })
    const many = Array.from({ length: 2000 }, (_, i) => i / 8)
    const big = new Geometry({ SDO_GTYPE: 2002, SDO_SRID: 4326, SDO_ELEM_INFO: new ElemInfo([1, 2, 1]), SDO_ORDINATES: new Ordinates(many) })
    await conn.executeMany("INSERT INTO parcels (id, name, shape) VALUES (:1, :2, :3)", [
      [10, "bound point", point],
      [11, "bound line", line],
      [12, "long line", big]
    ], { bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.STRING, maxSize: 20 }, { type: Geometry }] })
    const r = await conn.execute("SELECT shape FROM parcels WHERE id BETWEEN 10 AND 12 ORDER BY id")
    expect(plain(r.rows[0][0])).toEqual(plain(point))
    expect(plain(r.rows[1][0])).toEqual(plain(line))
    expect(r.rows[2][0].SDO_ORDINATES.getValues()).toEqual(many)
  })

  it("describes SDO_GEOMETRY's attributes as Oracle Spatial defines them", async () => {
    const Geometry = await conn.getDbObjectClass("SDO_GEOMETRY")
    const attrs = Geometry.prototype.attributes
    expect(Object.keys(attrs)).toEqual(["SDO_GTYPE", "SDO_SRID", "SDO_POINT", "SDO_ELEM_INFO", "SDO_ORDINATES"])
    expect(attrs.SDO_POINT.typeClass.prototype.fqn).toBe("MDSYS.SDO_POINT_TYPE")
    const ordinates = attrs.SDO_ORDINATES.typeClass.prototype
    expect([ordinates.isCollection, ordinates.elementType]).toEqual([true, oracledb.DB_TYPE_NUMBER])
  })

  it("pages many geometry rows over several fetches and carries values larger than a packet", async () => {
    const Geometry = await conn.getDbObjectClass("MDSYS.SDO_GEOMETRY")
    const ElemInfo = await conn.getDbObjectClass("MDSYS.SDO_ELEM_INFO_ARRAY")
    const Ordinates = await conn.getDbObjectClass("MDSYS.SDO_ORDINATE_ARRAY")
    const square = (i: number) => [i, i, i + 1, i, i + 1, i + 1, i, i + 1, i, i]
    const rows = Array.from({ length: 300 }, (_, i) => [
      1000 + i,
      `p${i}`,
      new Geometry({ SDO_GTYPE: 2003, SDO_SRID: 4326, SDO_ELEM_INFO: new ElemInfo([1, 1003, 1]), SDO_ORDINATES: new Ordinates(square(i)) })
    ])
    await conn.executeMany("INSERT INTO parcels (id, name, shape) VALUES (:1, :2, :3)", rows, {
      bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.STRING, maxSize: 20 }, { type: Geometry }]
    })
    const huge = Array.from({ length: 100_000 }, (_, i) => i * 0.5)
    await conn.execute("INSERT INTO parcels (id, name, shape) VALUES (2000, 'huge', :1)", [
      new Geometry({ SDO_GTYPE: 2002, SDO_SRID: null, SDO_ELEM_INFO: new ElemInfo([1, 2, 1]), SDO_ORDINATES: new Ordinates(huge) })
    ])
    const rs = (await conn.execute("SELECT id, shape FROM parcels WHERE id >= 1000 AND id < 2000 ORDER BY id", [], { resultSet: true, fetchArraySize: 25 })).resultSet
    const fetched: Array<Array<any>> = []
    for (let batch = await rs.getRows(40); batch.length > 0; batch = await rs.getRows(40)) fetched.push(...batch)
    await rs.close()
    expect(fetched.length).toBe(300)
    expect(fetched.every((row, i) => row[0] === 1000 + i && JSON.stringify(row[1].SDO_ORDINATES.getValues()) === JSON.stringify(square(i)))).toBe(true)
    const big = (await conn.execute("SELECT shape FROM parcels WHERE id = 2000")).rows[0][0]
    expect(big.SDO_ORDINATES.getValues()).toEqual(huge)
    const xml = `<root>${"<row>données</row>".repeat(8000)}</root>`
    await conn.execute("INSERT INTO docs VALUES (100, :1)", [xml])
    expect((await conn.execute("SELECT body FROM docs WHERE id = 100")).rows[0][0]).toBe(xml)
  })

  it("returns object columns through REF CURSOR binds and implicit results", async () => {
    const r = await conn.execute("BEGIN OPEN :rc FOR SELECT id, shape FROM parcels WHERE id = 1; END;", { rc: { dir: oracledb.BIND_OUT, type: oracledb.CURSOR } })
    const rows = await r.outBinds.rc.getRows(10)
    await r.outBinds.rc.close()
    expect(rows[0][1].SDO_POINT.X).toBe(-122.4194)
    const implicit = await conn.execute("DECLARE c SYS_REFCURSOR; BEGIN OPEN c FOR SELECT shape FROM parcels WHERE id = 2; DBMS_SQL.RETURN_RESULT(c); END;")
    expect(implicit.implicitResults[0][0][0].SDO_ORDINATES.getValues()).toEqual([10, 10, 20.5, 25.25, 30, 10])
  })

  it("shows object-type columns with their type and owner in ALL_TAB_COLUMNS", async () => {
    const r = await conn.execute("SELECT table_name, column_name, data_type, data_type_owner FROM user_tab_columns WHERE data_type_owner IS NOT NULL ORDER BY table_name")
    expect(r.rows).toEqual([
      ["DOCS", "BODY", "XMLTYPE", "SYS"],
      ["PARCELS", "SHAPE", "SDO_GEOMETRY", "MDSYS"]
    ])
  })

  it("fetches XMLType columns as strings, from constructors, string binds and NULL", async () => {
    await conn.execute("INSERT INTO docs VALUES (1, XMLTYPE('<order id=\"7\"><item>tea</item></order>'))")
    await conn.execute("INSERT INTO docs VALUES (2, SYS.XMLTYPE(:1))", ["<a>ünïcode &amp; more</a>"])
    await conn.execute("INSERT INTO docs VALUES (3, :1)", ["<empty/>"])
    await conn.execute("INSERT INTO docs VALUES (4, NULL)")
    const r = await conn.execute("SELECT id, body FROM docs WHERE id < 100 ORDER BY id")
    expect(r.metaData[1]).toMatchObject({ dbType: oracledb.DB_TYPE_XMLTYPE, dbTypeName: "SYS.XMLTYPE" })
    expect(r.rows).toEqual([
      [1, '<order id="7"><item>tea</item></order>'],
      [2, "<a>ünïcode &amp; more</a>"],
      [3, "<empty/>"],
      [4, null]
    ])
  })
})

describe("Oracle test server: constructor calls in SQL", () => {
  let server3: OracleTestServerHandle
  let c: Conn
  beforeAll(async () => {
    const s = await withServer()
    server3 = s.server
    c = await s.connect()
    await c.execute("CREATE TYPE pair_t AS OBJECT (a NUMBER, b VARCHAR2(5))")
    await c.execute("CREATE TYPE trio_t AS VARRAY(3) OF NUMBER")
    await c.execute("CREATE TABLE pairs (id NUMBER, p pair_t, t trio_t)")
  })
  afterAll(async () => {
    await c?.close()
    await server3?.close()
  })

  it("describes a constructor in the select list as the type it constructs", async () => {
    const r = await c.execute("SELECT pair_t(1, 'x') AS p, SDO_GEOMETRY(2001, NULL, SDO_POINT_TYPE(3, 4, NULL), NULL, NULL) g, XMLTYPE('<x/>') x FROM dual")
    expect(r.metaData.map((m: any) => m.dbTypeName)).toEqual(["TEST.PAIR_T", "MDSYS.SDO_GEOMETRY", "SYS.XMLTYPE"])
    expect(plain(r.rows[0][0])).toEqual({ A: 1, B: "x" })
    expect(r.rows[0][1].SDO_POINT.Y).toBe(4)
    expect(r.rows[0][2]).toBe("<x/>")
  })

  it("refuses constructors with the wrong number of attributes or too many elements, leaving the table as it was", async () => {
    expect(oraCode(await failure(() => c.execute("INSERT INTO pairs (id, p) VALUES (1, pair_t(1))")))).toBe("ORA-02315")
    expect(oraCode(await failure(() => c.execute("INSERT INTO pairs (id, t) VALUES (1, trio_t(1, 2, 3, 4))")))).toBe("ORA-22909")
    expect((await c.execute("SELECT COUNT(*) FROM pairs")).rows[0][0]).toBe(0)
  })
})

describe("Oracle test server: object types in the 19c protocol layout", () => {
  it("creates, binds and fetches objects when the server is a 19c", async () => {
    const { server: s19, connect } = await withServer({ version: "19c" })
    const c = await connect()
    try {
      await c.execute("CREATE TABLE places (id NUMBER, g SDO_GEOMETRY)")
      const Geometry = await c.getDbObjectClass("MDSYS.SDO_GEOMETRY")
      const Point = await c.getDbObjectClass("MDSYS.SDO_POINT_TYPE")
      await c.execute("INSERT INTO places VALUES (1, :1)", [new Geometry({ SDO_GTYPE: 2001, SDO_POINT: new Point({ X: 5, Y: 6 }) })])
      const g = (await c.execute("SELECT g FROM places")).rows[0][0]
      expect([g.SDO_GTYPE, g.SDO_POINT.X, g.SDO_POINT.Y, g.SDO_POINT.Z]).toEqual([2001, 5, 6, null])
    } finally {
      await c.close()
      await s19.close()
    }
  })
})
