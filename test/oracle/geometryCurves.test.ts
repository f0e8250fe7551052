import { describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import * as fc from "fast-check"
import { createRequire } from "node:module"
import * as Connection from "../../src/Connection.ts"
import { geoField, geometryBatch, geometryOf, hexColumn, ingestAndReadWkb, iso, queryTable } from "./geometrySupport.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

// Geometry collections, arcs, circles, compound elements and SRIDs through the driver and real node-oracledb over
// sockets: geoarrow.wkb / geoarrow.wkt ingest into SDO_GEOMETRY, and SDO_GEOMETRY reads as ISO WKB.
const server = useServer()

/* eslint-disable @typescript-eslint/no-explicit-any */
const oracledb: any = createRequire(import.meta.url)("oracledb")

/** A raw node-oracledb connection to the server under test (to read SDO_SRID, which the driver's WKB leaves out). */
const rawConnection = async (): Promise<any> => {
  const url = new URL(server.uri)
  return oracledb.getConnection({
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    connectString: `${url.hostname}:${url.port || 1521}${url.pathname}`
  })
}

/** Little-endian ISO WKB from a type code and a flat list of counts (numbers) and coordinates (arrays). */
const wkb = (type: number, ...body: Array<number | ReadonlyArray<number>>): Buffer => {
  const out: Array<Buffer> = [Buffer.from([1]), Buffer.alloc(4)]
  out[1]!.writeUInt32LE(type)
  for (const b of body) {
    if (typeof b === "number") {
      const n = Buffer.alloc(4)
      n.writeUInt32LE(b)
      out.push(n)
    } else out.push(Buffer.from(new Float64Array(b).buffer))
  }
  return Buffer.concat(out)
}
const collection = (type: number, ...members: Array<Buffer>) => Buffer.concat([wkb(type, members.length), ...members])

const arc = wkb(8, 3, [0, 0, 1, 1, 2, 0])
const line = wkb(2, 2, [10, 10, 10, 14])
const compound = collection(9, wkb(2, 2, [10, 10, 10, 14]), wkb(8, 3, [10, 14, 6, 10, 14, 10]))
const arcRing = wkb(8, 5, [0, 0, 4, -4, 8, 0, 4, 4, 0, 0])
const curvePolygon = collection(10, arcRing, wkb(2, 4, [3, 0, 4, 1, 5, 0, 3, 0]))
const polygon = wkb(3, 1, 5, [0, 0, 4, 0, 4, 4, 0, 4, 0, 0])

describe("SDO_GEOMETRY collections and curves", () => {
  it.effect("geoarrow.wkb GeometryCollection, CircularString, CompoundCurve, CurvePolygon, MultiCurve, MultiSurface and Z ingest and read back as the same WKB", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const values = [
        collection(7, wkb(1, [10, 5]), line, polygon, collection(4, wkb(1, [7, 7]), wkb(1, [8, 8])), arc, compound, curvePolygon),
        arc,
        compound,
        curvePolygon,
        collection(10, collection(9, wkb(2, 3, [6, 10, 10, 1, 14, 10]), wkb(8, 3, [14, 10, 10, 14, 6, 10]))),
        collection(11, line, arc, compound),
        collection(12, polygon, curvePolygon),
        collection(1007, wkb(1001, [1, 2, 3]), wkb(1008, 3, [0, 0, 1, 1, 1, 2, 2, 0, 3])),
        null
      ]
      expect(yield* ingestAndReadWkb(uniqueName("CURVES"), geoField("geom", "wkb"), values)).toEqual(values.map((v) => v?.toString("hex") ?? null))
    })), 30_000)

  it.effect("random geometries of every type, 2D and Z, ingest as WKB and read back byte for byte (fast-check)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      for (const dims of [2, 3] as const) {
        const values = fc.sample(geometryOf(dims), { numRuns: 40, seed: 1124 + dims }).map((g) => Buffer.from(iso(g, dims), "hex"))
        expect(yield* ingestAndReadWkb(uniqueName("RANDGEO"), geoField("geom", "wkb"), values)).toEqual(values.map((v) => v.toString("hex")))
      }
    })), 60_000)

  it.effect("Oracle's compound line, compound polygon, circle, arc polygon and heterogeneous collection read as ISO curves and GeometryCollection", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("ORASHAPES")
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(10), G SDO_GEOMETRY)`)
      const shapes = [
        "SDO_GEOMETRY(2002, NULL, NULL, SDO_ELEM_INFO_ARRAY(1, 4, 2, 1, 2, 1, 3, 2, 2), SDO_ORDINATE_ARRAY(10, 10, 10, 14, 6, 10, 14, 10))",
        "SDO_GEOMETRY(2003, NULL, NULL, SDO_ELEM_INFO_ARRAY(1, 1005, 2, 1, 2, 1, 5, 2, 2), SDO_ORDINATE_ARRAY(6, 10, 10, 1, 14, 10, 10, 14, 6, 10))",
        "SDO_GEOMETRY(2003, NULL, NULL, SDO_ELEM_INFO_ARRAY(1, 1003, 4), SDO_ORDINATE_ARRAY(8, 7, 10, 9, 8, 11))",
        "SDO_GEOMETRY(2003, NULL, NULL, SDO_ELEM_INFO_ARRAY(1, 1003, 2, 11, 2003, 1), SDO_ORDINATE_ARRAY(0, 0, 4, -4, 8, 0, 4, 4, 0, 0, 3, 0, 4, 1, 5, 0, 3, 0))",
        "SDO_GEOMETRY(2004, 4326, NULL, SDO_ELEM_INFO_ARRAY(1, 1, 1, 3, 2, 1, 7, 1003, 3, 11, 2, 2), SDO_ORDINATE_ARRAY(10, 5, 10, 10, 20, 10, 0, 0, 4, 4, 0, 0, 1, 1, 2, 0))"
      ]
      for (const [i, shape] of shapes.entries()) yield* conn.execute(`INSERT INTO ${t} VALUES (${i}, ${shape})`)
      const back = yield* queryTable(`SELECT G FROM ${t} ORDER BY ID`)
      expect(hexColumn(back, "G")).toEqual([
        compound,
        collection(10, collection(9, wkb(2, 3, [6, 10, 10, 1, 14, 10]), wkb(8, 3, [14, 10, 10, 14, 6, 10]))),
        // the circle through (8,7), (10,9), (8,11): center (8,9), closed through (6,9)
        collection(10, wkb(8, 5, [8, 7, 10, 9, 8, 11, 6, 9, 8, 7])),
        curvePolygon,
        // the rectangle (0,0)-(4,4) expanded, counterclockwise
        collection(7, wkb(1, [10, 5]), wkb(2, 2, [10, 10, 20, 10]), polygon, arc)
      ].map((b) => b.toString("hex")))
      // an element Oracle has but ISO WKB does not (an oriented point) fails naming column and row
      yield* conn.execute(`INSERT INTO ${t} VALUES (9, SDO_GEOMETRY(2001, NULL, NULL, SDO_ELEM_INFO_ARRAY(1, 1, 1, 3, 1, 0), SDO_ORDINATE_ARRAY(1, 2, 0, 1)))`)
      const error = yield* Effect.flip(queryTable(`SELECT G FROM ${t} ORDER BY ID`))
      expect(error.message).toContain("row 6")
      expect(error.message).toContain("oriented points have no WKB equivalent")
    })), 30_000)

  it.effect("geoarrow.wkt GEOMETRYCOLLECTION ingests like its WKB; a curve keyword or a nested multi geometry fails naming column, row and the forms accepted", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const text = "GEOMETRYCOLLECTION (POINT (10 5), LINESTRING (10 10, 20 10), POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0)), MULTIPOINT ((7 7), (8 8)))"
      expect(yield* ingestAndReadWkb(uniqueName("WKTGC"), geoField("geom", "wkt"), [text, "geometrycollection z (point z (1 2 3))"])).toEqual([
        collection(7, wkb(1, [10, 5]), wkb(2, 2, [10, 10, 20, 10]), polygon, collection(4, wkb(1, [7, 7]), wkb(1, [8, 8]))).toString("hex"),
        collection(1007, wkb(1001, [1, 2, 3])).toString("hex")
      ])
      for (const [bad, reason] of [["CURVEPOLYGON (CIRCULARSTRING (0 0, 1 1, 2 0, 1 -1, 0 0))", "CURVEPOLYGON (a curve)"], ["GEOMETRYCOLLECTION (MULTIPOLYGON (((0 0, 1 0, 0 1, 0 0))))", "MultiPolygon inside a GeometryCollection"]]) {
        const t = uniqueName("WKTBAD")
        const batch = geometryBatch(geoField("geom", "wkt"), ["POINT (1 2)", bad!])
        const error = yield* Effect.flip(conn.ingest({ schema: batch.schema, batches: Stream.make(batch) }, { targetTable: t }))
        expect(error.status).toBe("INVALID_ARGUMENT")
        expect(error.message).toContain('column "geom": row 2')
        expect(error.message).toContain(reason)
        expect(error.message).toContain("accepted: POINT, LINESTRING, POLYGON")
        expect((yield* Effect.flip(conn.getTableSchema(undefined, undefined, t))).status).toBe("NOT_FOUND")
      }
      // the same in WKB is INVALID_DATA, also naming column and row
      const batch = geometryBatch(geoField("geom", "wkb"), [arc, collection(7, collection(5, line))])
      const error = yield* Effect.flip(conn.ingest({ schema: batch.schema, batches: Stream.make(batch) }, { targetTable: uniqueName("WKBBAD") }))
      expect(error.status).toBe("INVALID_DATA")
      expect(error.message).toContain('column "geom": row 2: a MultiLineString inside a GeometryCollection')
    })), 30_000)
})

describe("SDO_SRID from the geoarrow CRS", () => {
  it.effect("a field's CRS (EPSG code, PROJJSON id, OGC:CRS84) sets SDO_SRID on every value; without one SDO_SRID stays NULL", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const cases: ReadonlyArray<readonly [string, "wkb" | "wkt", number | null]> = [
        [JSON.stringify({ crs: "EPSG:27700" }), "wkb", 27700],
        [JSON.stringify({ crs: { type: "GeographicCRS", name: "WGS 84", id: { authority: "EPSG", code: 4326 } } }), "wkt", 4326],
        [JSON.stringify({ crs: "OGC:CRS84", edges: "planar" }), "wkb", 4326],
        ["{}", "wkb", null]
      ]
      const raw = yield* Effect.promise(rawConnection)
      try {
        for (const [metadata, storage, srid] of cases) {
          const t = uniqueName("SRID")
          const values = storage === "wkb" ? [wkb(1, [1, 2]), arc, null] : ["POINT (1 2)", "LINESTRING (0 0, 1 1)", null]
          const batch = geometryBatch(geoField("geom", storage, metadata), values)
          expect(yield* conn.ingest({ schema: batch.schema, batches: Stream.make(batch) }, { targetTable: t })).toBe(3)
          const result: any = yield* Effect.promise(() => raw.execute(`SELECT "geom" FROM "${t}" ORDER BY "id"`, [], { dbObjectAsPojo: true }))
          const rows = result.rows as Array<Array<any>>
          expect(rows.map((r) => r[0]?.SDO_SRID), metadata).toEqual([srid, srid, undefined])
        }
      } finally {
        yield* Effect.promise(() => raw.close())
      }
    })), 30_000)

  it.effect("a CRS with no Oracle SRID fails INVALID_ARGUMENT naming the field and the forms accepted, before any table is created", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      for (const metadata of [JSON.stringify({ crs: "ESRI:102100" }), JSON.stringify({ crs: { type: "ProjectedCRS", name: "no id" } }), "{not json"]) {
        const t = uniqueName("BADCRS")
        const batch = geometryBatch(geoField("shape", "wkb", metadata), [wkb(1, [1, 2])])
        const error = yield* Effect.flip(conn.ingest({ schema: batch.schema, batches: Stream.make(batch) }, { targetTable: t }))
        expect(error.status, metadata).toBe("INVALID_ARGUMENT")
        expect(error.message, metadata).toContain('field "shape"')
        expect((yield* Effect.flip(conn.getTableSchema(undefined, undefined, t))).status).toBe("NOT_FOUND")
      }
      const batch = geometryBatch(geoField("shape", "wkb", JSON.stringify({ crs: "ESRI:102100" })), [wkb(1, [1, 2])])
      const error = yield* Effect.flip(conn.ingest({ schema: batch.schema, batches: Stream.make(batch) }, { targetTable: uniqueName("BADCRS") }))
      expect(error.message).toContain('accepted: "crs": "EPSG:<code>"')
      // appending to a table that exists leaves it as it was
      const t = uniqueName("APPENDCRS")
      const good = geometryBatch(geoField("shape", "wkb", JSON.stringify({ crs: "EPSG:4326" })), [wkb(1, [1, 2])])
      expect(yield* conn.ingest({ schema: good.schema, batches: Stream.make(good) }, { targetTable: t })).toBe(1)
      const appended = yield* Effect.flip(conn.ingest({ schema: batch.schema, batches: Stream.make(batch) }, { targetTable: t, mode: "append" }))
      expect(appended.status).toBe("INVALID_ARGUMENT")
      expect((yield* queryTable(`SELECT "id" FROM "${t}"`)).numRows).toBe(1)
    })), 30_000)
})
