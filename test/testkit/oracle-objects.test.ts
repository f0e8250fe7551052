import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode, withServer } from "./oracle/helpers.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
let server: OracleTestServerHandle
let conn: Conn

/** A fetched DbObject as plain data: attributes by name, collections as arrays (DbObject.toJSON). */
const plain = (o: any): unknown => (o === null ? null : JSON.parse(JSON.stringify(o)))

describe("Oracle test server: user-defined OBJECT and VARRAY types through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TYPE point_t AS OBJECT (x NUMBER, y NUMBER(6,2), label VARCHAR2(20), seen DATE, stamp TIMESTAMP(6), tag RAW(8), weight BINARY_DOUBLE)")
    await conn.execute("CREATE TYPE nums_t AS VARRAY(5) OF NUMBER")
    await conn.execute("CREATE TYPE names_t AS VARRAY(3) OF VARCHAR2(10)")
    await conn.execute("CREATE TYPE route_t AS OBJECT (name VARCHAR2(30), origin point_t, legs nums_t)")
    await conn.execute("CREATE TABLE things (id NUMBER PRIMARY KEY, p point_t, n nums_t, r route_t, s names_t)")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("describes object columns with their type and fetches attribute values written by a constructor", async () => {
    await conn.execute(
      "INSERT INTO things (id, p) VALUES (1, point_t(1.5, -2.25, 'first', DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05.123456', HEXTORAW('CAFE'), 0.125))"
    )
    const r = await conn.execute("SELECT id, p FROM things WHERE id = 1")
    expect(r.metaData[1]).toMatchObject({ name: "P", dbType: oracledb.DB_TYPE_OBJECT, dbTypeName: "TEST.POINT_T" })
    const p = r.rows[0][1]
    expect([p.fqn, p.schema, p.name, p.isCollection]).toEqual(["TEST.POINT_T", "TEST", "POINT_T", false])
    expect([p.X, p.Y, p.LABEL, p.TAG, p.WEIGHT]).toEqual([1.5, -2.25, "first", Buffer.from([0xca, 0xfe]), 0.125])
    expect(p.SEEN).toEqual(new Date(2024, 0, 2))
    expect(p.STAMP).toEqual(new Date(2024, 0, 2, 3, 4, 5, 123))
    const cls = r.metaData[1].dbTypeClass
    expect(cls.prototype.attributes).toMatchObject({
      X: { type: oracledb.DB_TYPE_NUMBER },
      Y: { type: oracledb.DB_TYPE_NUMBER, precision: 6, scale: 2 },
      LABEL: { type: oracledb.DB_TYPE_VARCHAR, maxSize: 20 },
      SEEN: { type: oracledb.DB_TYPE_DATE },
      STAMP: { type: oracledb.DB_TYPE_TIMESTAMP },
      TAG: { type: oracledb.DB_TYPE_RAW, maxSize: 8 },
      WEIGHT: { type: oracledb.DB_TYPE_BINARY_DOUBLE }
    })
  })

  it("binds an object built from getDbObjectClass and selects it back", async () => {
    const Point = await conn.getDbObjectClass("POINT_T")
    const when = new Date(2021, 5, 7, 8, 9, 10)
    const pt = new Point({ X: 7, Y: 8.5, LABEL: "bound", SEEN: when, STAMP: new Date(2021, 5, 7, 8, 9, 10, 250), TAG: Buffer.from("ab"), WEIGHT: -1e300 })
    await conn.execute("INSERT INTO things (id, p) VALUES (2, :1)", [pt])
    const r = await conn.execute("SELECT p FROM things WHERE id = 2")
    expect(plain(r.rows[0][0])).toEqual(plain(pt))
    expect(r.rows[0][0].SEEN).toEqual(when)
  })

  it("keeps null attributes and atomically null objects apart", async () => {
    const Point = await conn.getDbObjectClass("TEST.POINT_T")
    await conn.execute("INSERT INTO things (id, p) VALUES (3, :1)", [new Point({ X: 1 })])
    await conn.execute("INSERT INTO things (id, p) VALUES (4, point_t(NULL, NULL, NULL, NULL, NULL, NULL, NULL))")
    await conn.execute("INSERT INTO things (id, p) VALUES (5, :1)", [{ val: null, type: Point }])
    await conn.execute("INSERT INTO things (id, p) VALUES (6, NULL)")
    const r = await conn.execute("SELECT id, p FROM things WHERE id BETWEEN 3 AND 6 ORDER BY id")
    expect(plain(r.rows[0][1])).toEqual({ X: 1, Y: null, LABEL: null, SEEN: null, STAMP: null, TAG: null, WEIGHT: null })
    expect(plain(r.rows[1][1])).toEqual({ X: null, Y: null, LABEL: null, SEEN: null, STAMP: null, TAG: null, WEIGHT: null })
    expect(r.rows[2][1]).toBeNull()
    expect(r.rows[3][1]).toBeNull()
    const n = await conn.execute("SELECT COUNT(*) FROM things WHERE id BETWEEN 3 AND 6 AND p IS NULL")
    expect(n.rows[0][0]).toBe(2)
  })

  it("fetches and binds VARRAYs with 0, 1 and many elements, including null elements", async () => {
    await conn.execute("INSERT INTO things (id, n, s) VALUES (10, nums_t(), names_t('one'))")
    await conn.execute("INSERT INTO things (id, n, s) VALUES (11, nums_t(1, 2.5, NULL, -4, 1e-130), names_t('a', NULL, 'c'))")
    const Nums = await conn.getDbObjectClass("NUMS_T")
    const Names = await conn.getDbObjectClass("NAMES_T")
    await conn.execute("INSERT INTO things (id, n, s) VALUES (12, :1, :2)", [new Nums([]), new Names(["x"])])
    await conn.execute("INSERT INTO things (id, n, s) VALUES (13, :1, :2)", [new Nums([9, 8, 7, 6, 5]), new Names(["p", "q", "r"])])
    const r = await conn.execute("SELECT id, n, s FROM things WHERE id BETWEEN 10 AND 13 ORDER BY id")
    expect(r.metaData[1]).toMatchObject({ dbTypeName: "TEST.NUMS_T" })
    expect(r.rows.map((row: Array<any>) => [row[0], row[1].getValues(), row[2].getValues()])).toEqual([
      [10, [], ["one"]],
      [11, [1, 2.5, null, -4, 1e-130], ["a", null, "c"]],
      [12, [], ["x"]],
      [13, [9, 8, 7, 6, 5], ["p", "q", "r"]]
    ])
    const cls = r.metaData[1].dbTypeClass
    expect(cls.prototype.isCollection).toBe(true)
    expect(cls.prototype.elementType).toBe(oracledb.DB_TYPE_NUMBER)
  })

  it("refuses a VARRAY bind beyond its limit on the client, as the type description declares it", async () => {
    const Nums = await conn.getDbObjectClass("NUMS_T")
    expect(() => new Nums([1, 2, 3, 4, 5, 6])).toThrow(/NJS-131|index|limit/i)
  })

  it("nests objects and VARRAYs inside an object", async () => {
    await conn.execute("INSERT INTO things (id, r) VALUES (20, route_t('coast', point_t(1, 2, 'start', NULL, NULL, NULL, NULL), nums_t(10, 20)))")
    await conn.execute("INSERT INTO things (id, r) VALUES (21, route_t('nowhere', NULL, NULL))")
    const Route = await conn.getDbObjectClass("ROUTE_T")
    const Point = await conn.getDbObjectClass("POINT_T")
    const Nums = await conn.getDbObjectClass("NUMS_T")
    const bound = new Route({ NAME: "bound", ORIGIN: new Point({ X: 3, Y: 4, LABEL: "o" }), LEGS: new Nums([5]) })
    await conn.execute("INSERT INTO things (id, r) VALUES (22, :1)", [bound])
    const r = await conn.execute("SELECT r FROM things WHERE id BETWEEN 20 AND 22 ORDER BY id")
    expect(plain(r.rows[0][0])).toEqual({ NAME: "coast", ORIGIN: { X: 1, Y: 2, LABEL: "start", SEEN: null, STAMP: null, TAG: null, WEIGHT: null }, LEGS: [10, 20] })
    expect(plain(r.rows[1][0])).toEqual({ NAME: "nowhere", ORIGIN: null, LEGS: null })
    expect(plain(r.rows[2][0])).toEqual(plain(bound))
  })

  it("answers the type description for unknown names as Oracle does (NJS-101 on the client)", async () => {
    const e = await failure(() => conn.getDbObjectClass("NO_SUCH_TYPE"))
    expect(e.message).toMatch(/NJS-101|invalid object type name/i)
  })

  it("carries NVARCHAR2, CHAR, FLOAT, BINARY_FLOAT and TIMESTAMP WITH TIME ZONE attributes", async () => {
    await conn.execute("CREATE TYPE misc_t AS OBJECT (nv NVARCHAR2(10), ch CHAR(3), fl FLOAT(20), bf BINARY_FLOAT, tz TIMESTAMP(3) WITH TIME ZONE)")
    await conn.execute("CREATE TABLE miscs (id NUMBER, m misc_t)")
    await conn.execute("INSERT INTO miscs VALUES (1, misc_t('ünï', 'ab', 12.5, 0.5, TIMESTAMP '2024-02-03 04:05:06.789 +02:00'))")
    const Misc = await conn.getDbObjectClass("MISC_T")
    const when = new Date(Date.UTC(2019, 11, 31, 23, 59, 59, 500))
    await conn.execute("INSERT INTO miscs VALUES (2, :1)", [new Misc({ NV: "日本", CH: "xyz", FL: -3.25, BF: 1.5, TZ: when })])
    const r = await conn.execute("SELECT m FROM miscs ORDER BY id")
    const [a, b] = r.rows.map((row: Array<any>) => row[0])
    expect([a.NV, a.CH, a.FL, a.BF]).toEqual(["ünï", "ab ", 12.5, 0.5])
    expect(a.TZ).toEqual(new Date(Date.UTC(2024, 1, 3, 2, 5, 6, 789)))
    expect([b.NV, b.CH, b.FL, b.BF]).toEqual(["日本", "xyz", -3.25, 1.5])
    expect(b.TZ).toEqual(when)
    expect(r.metaData[0].dbTypeClass.prototype.attributes).toMatchObject({
      NV: { type: oracledb.DB_TYPE_NVARCHAR },
      CH: { type: oracledb.DB_TYPE_CHAR },
      BF: { type: oracledb.DB_TYPE_BINARY_FLOAT },
      TZ: { type: oracledb.DB_TYPE_TIMESTAMP_TZ }
    })
  })

  it("passes objects into PL/SQL blocks and returns them as OUT binds", async () => {
    const Point = await conn.getDbObjectClass("POINT_T")
    await conn.execute("BEGIN INSERT INTO things (id, p) VALUES (:id, :p); END;", { id: 30, p: new Point({ X: 30, LABEL: "plsql" }) })
    const r = await conn.execute("BEGIN SELECT p INTO :o FROM things WHERE id = :id; END;", { id: 30, o: { dir: oracledb.BIND_OUT, type: Point } })
    expect(plain(r.outBinds.o)).toEqual({ X: 30, Y: null, LABEL: "plsql", SEEN: null, STAMP: null, TAG: null, WEIGHT: null })
    const n = await conn.execute("BEGIN SELECT p INTO :o FROM things WHERE id = 6; END;", { o: { dir: oracledb.BIND_OUT, type: Point } })
    expect(n.outBinds.o).toBeNull()
  })

  it("manages types with CREATE OR REPLACE and DROP, refusing to drop a type a table uses", async () => {
    await conn.execute("CREATE TYPE temp_t AS OBJECT (a NUMBER)")
    expect(oraCode(await failure(() => conn.execute("CREATE TYPE temp_t AS OBJECT (a NUMBER)")))).toBe("ORA-00955")
    await conn.execute("CREATE OR REPLACE TYPE temp_t AS OBJECT (a NUMBER, b VARCHAR2(5))")
    expect(oraCode(await failure(() => conn.execute("CREATE OR REPLACE TYPE point_t AS OBJECT (x NUMBER)")))).toBe("ORA-02303")
    await conn.execute("CREATE TABLE temps (t temp_t)")
    expect(oraCode(await failure(() => conn.execute("DROP TYPE temp_t")))).toBe("ORA-02303")
    await conn.execute("DROP TABLE temps")
    await conn.execute("DROP TYPE temp_t")
    expect(oraCode(await failure(() => conn.execute("DROP TYPE temp_t")))).toBe("ORA-04043")
    expect(oraCode(await failure(() => conn.execute("CREATE TABLE temps (t temp_t)")))).toBe("ORA-00902")
    expect(oraCode(await failure(() => conn.execute("CREATE TYPE bad_t AS OBJECT (a NUMBER, a NUMBER)")))).toBe("ORA-24344")
    expect(oraCode(await failure(() => conn.execute("CREATE TYPE bad_t AS OBJECT (a LONG)")))).toBe("ORA-22800")
  })
})

describe("Oracle test server: collections of objects and the type dictionary views", () => {
  let server2: OracleTestServerHandle
  let c: Conn
  beforeAll(async () => {
    const s = await withServer()
    server2 = s.server
    c = await s.connect()
    await c.execute("CREATE TYPE item_t AS OBJECT (sku VARCHAR2(10), qty NUMBER(5), price NUMBER(8,2))")
    await c.execute("CREATE TYPE items_t AS VARRAY(100) OF item_t")
    await c.execute("CREATE TYPE tags_t AS TABLE OF VARCHAR2(20)")
    await c.execute("CREATE TABLE orders (id NUMBER PRIMARY KEY, items items_t, tags tags_t) NESTED TABLE tags STORE AS orders_tags")
  })
  afterAll(async () => {
    await c?.close()
    await server2?.close()
  })

  it("fetches and binds a VARRAY of objects (element type learnt from ALL_COLL_TYPES)", async () => {
    await c.execute("INSERT INTO orders (id, items) VALUES (1, items_t(item_t('A-1', 2, 9.99), NULL, item_t('B-2', NULL, 0.5)))")
    const Items = await c.getDbObjectClass("ITEMS_T")
    const Item = await c.getDbObjectClass("ITEM_T")
    const bound = new Items([new Item({ SKU: "C-3", QTY: 1, PRICE: 100 }), new Item({ SKU: "D-4", QTY: 7, PRICE: 1.25 })])
    await c.execute("INSERT INTO orders (id, items) VALUES (2, :1)", [bound])
    await c.execute("INSERT INTO orders (id, items) VALUES (3, items_t())")
    const r = await c.execute("SELECT items FROM orders WHERE id IN (1, 2, 3) ORDER BY id")
    // (DbObject.toJSON of node-oracledb cannot serialise a null element, so elements are compared one by one)
    expect(r.rows[0][0].getValues().map((e: any) => plain(e))).toEqual([{ SKU: "A-1", QTY: 2, PRICE: 9.99 }, null, { SKU: "B-2", QTY: null, PRICE: 0.5 }])
    expect(plain(r.rows[1][0])).toEqual(plain(bound))
    expect(plain(r.rows[2][0])).toEqual([])
    expect(r.metaData[0].dbTypeClass.prototype.elementTypeClass.prototype.fqn).toBe("TEST.ITEM_T")
  })

  it("fetches and binds nested tables", async () => {
    await c.execute("INSERT INTO orders (id, tags) VALUES (10, tags_t('red', 'blue'))")
    const Tags = await c.getDbObjectClass("TAGS_T")
    await c.execute("INSERT INTO orders (id, tags) VALUES (11, :1)", [new Tags(["x", "y", "z"])])
    const r = await c.execute("SELECT tags FROM orders WHERE id IN (10, 11) ORDER BY id")
    expect(r.rows.map((row: Array<any>) => row[0].getValues())).toEqual([["red", "blue"], ["x", "y", "z"]])
    expect(r.metaData[0].dbTypeClass.prototype.isCollection).toBe(true)
  })

  it("lists types, attributes and collection types in the dictionary views", async () => {
    const types = await c.execute("SELECT type_name, typecode, attributes FROM user_types ORDER BY type_name")
    expect(types.rows).toEqual([
      ["ITEMS_T", "COLLECTION", 0],
      ["ITEM_T", "OBJECT", 3],
      ["TAGS_T", "COLLECTION", 0]
    ])
    const attrs = await c.execute("SELECT attr_name, attr_type_name, length, precision, scale, attr_no FROM user_type_attrs WHERE type_name = 'ITEM_T' ORDER BY attr_no")
    expect(attrs.rows).toEqual([
      ["SKU", "VARCHAR2", 10, null, null, 1],
      ["QTY", "NUMBER", null, 5, 0, 2],
      ["PRICE", "NUMBER", null, 8, 2, 3]
    ])
    const colls = await c.execute("SELECT type_name, coll_type, upper_bound, elem_type_owner, elem_type_name FROM all_coll_types WHERE owner = USER ORDER BY type_name")
    expect(colls.rows).toEqual([
      ["ITEMS_T", "VARYING ARRAY", 100, "TEST", "ITEM_T"],
      ["TAGS_T", "TABLE", null, null, "VARCHAR2"]
    ])
    const geo = await c.execute("SELECT owner, typecode FROM all_types WHERE type_name = 'SDO_GEOMETRY'")
    expect(geo.rows).toEqual([["MDSYS", "OBJECT"]])
  })
})
