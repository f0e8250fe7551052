import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
let server: OracleTestServerHandle
let conn: Conn

const plain = (o: any): unknown => (o === null ? null : JSON.parse(JSON.stringify(o)))

// The geometries the Oracle driver maps beyond simple features (collections, arcs, circles, compound elements, SRIDs),
// stored through SQL constructors and object binds and read back through raw node-oracledb: the server must keep
// every attribute as given, whatever the element types (Oracle Spatial Developer's Guide, "Geometry Examples").
describe("Oracle test server: SDO_GEOMETRY collections, arcs and SRIDs through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE shapes (id NUMBER PRIMARY KEY, shape SDO_GEOMETRY)")
  })
  afterAll(() => closeConnection({ server, conn }))

  const examples: ReadonlyArray<readonly [number, string, object]> = [
    [1, "SDO_GEOMETRY(2002, NULL, NULL, SDO_ELEM_INFO_ARRAY(1, 4, 2, 1, 2, 1, 3, 2, 2), SDO_ORDINATE_ARRAY(10, 10, 10, 14, 6, 10, 14, 10))",
      { SDO_GTYPE: 2002, SDO_SRID: null, SDO_POINT: null, SDO_ELEM_INFO: [1, 4, 2, 1, 2, 1, 3, 2, 2], SDO_ORDINATES: [10, 10, 10, 14, 6, 10, 14, 10] }],
    [2, "SDO_GEOMETRY(2003, NULL, NULL, SDO_ELEM_INFO_ARRAY(1, 1005, 2, 1, 2, 1, 5, 2, 2), SDO_ORDINATE_ARRAY(6, 10, 10, 1, 14, 10, 10, 14, 6, 10))",
      { SDO_GTYPE: 2003, SDO_SRID: null, SDO_POINT: null, SDO_ELEM_INFO: [1, 1005, 2, 1, 2, 1, 5, 2, 2], SDO_ORDINATES: [6, 10, 10, 1, 14, 10, 10, 14, 6, 10] }],
    [3, "SDO_GEOMETRY(2003, 27700, NULL, SDO_ELEM_INFO_ARRAY(1, 1003, 4), SDO_ORDINATE_ARRAY(8, 7, 10, 9, 8, 11))",
      { SDO_GTYPE: 2003, SDO_SRID: 27700, SDO_POINT: null, SDO_ELEM_INFO: [1, 1003, 4], SDO_ORDINATES: [8, 7, 10, 9, 8, 11] }],
    [4, "SDO_GEOMETRY(2004, 4326, NULL, SDO_ELEM_INFO_ARRAY(1, 1, 1, 3, 2, 1, 7, 1003, 1), SDO_ORDINATE_ARRAY(10, 5, 10, 10, 20, 10, 10, 105, 15, 105, 20, 110, 10, 110, 10, 105))",
      { SDO_GTYPE: 2004, SDO_SRID: 4326, SDO_POINT: null, SDO_ELEM_INFO: [1, 1, 1, 3, 2, 1, 7, 1003, 1], SDO_ORDINATES: [10, 5, 10, 10, 20, 10, 10, 105, 15, 105, 20, 110, 10, 110, 10, 105] }]
  ]

  it("keeps compound lines, compound polygons, circles and heterogeneous collections with their SRIDs as inserted", async () => {
    for (const [id, constructor] of examples) await conn.execute(`INSERT INTO shapes VALUES (${id}, ${constructor})`)
    const r = await conn.execute("SELECT id, shape FROM shapes WHERE id < 10 ORDER BY id")
    expect(r.rows.map((row: Array<any>) => [row[0], plain(row[1])])).toEqual(examples.map(([id, , value]) => [id, value]))
  })

  it("stores arcs, compound rings and collections bound as MDSYS objects, SRID included, and returns them exactly", async () => {
    const Geometry = await conn.getDbObjectClass("MDSYS.SDO_GEOMETRY")
    const ElemInfo = await conn.getDbObjectClass("MDSYS.SDO_ELEM_INFO_ARRAY")
    const Ordinates = await conn.getDbObjectClass("MDSYS.SDO_ORDINATE_ARRAY")
    const shape = (gtype: number, srid: number | null, info: Array<number>, ordinates: Array<number>) =>
      new Geometry({ SDO_GTYPE: gtype, SDO_SRID: srid, SDO_ELEM_INFO: new ElemInfo(info), SDO_ORDINATES: new Ordinates(ordinates) })
    const values = [
      shape(2002, 3857, [1, 2, 2], [0, 0, 1, 1, 2, 0, 3, -1, 4, 0]),
      shape(3004, 4979, [1, 1, 1, 4, 2, 2, 13, 1005, 2, 13, 2, 1, 19, 2, 2], [0, 0, 0, 1, 1, 1, 2, 0, 2, 3, 1, 3, 0, 0, 5, 4, 0, 5, 2, 2, 5, 0, 0, 5]),
      shape(2007, null, [1, 1003, 2, 11, 1003, 1], [0, 0, 2, -2, 4, 0, 2, 2, 0, 0, 10, 10, 12, 10, 12, 12, 10, 10])
    ]
    await conn.executeMany("INSERT INTO shapes (id, shape) VALUES (:1, :2)", values.map((v, i) => [10 + i, v]), {
      bindDefs: [{ type: oracledb.NUMBER }, { type: Geometry }]
    })
    const r = await conn.execute("SELECT shape FROM shapes WHERE id >= 10 ORDER BY id")
    expect(r.rows.map((row: Array<any>) => plain(row[0]))).toEqual(values.map(plain))
    expect(r.rows[1][0].SDO_SRID).toBe(4979)
  })
})
