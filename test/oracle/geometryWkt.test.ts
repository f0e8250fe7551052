import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as fc from "fast-check"
import * as Connection from "../../src/Connection.ts"
import { geoField, geometryBatch, ingestAndReadWkb } from "./geometrySupport.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

// geoarrow.wkt columns ingest into SDO_GEOMETRY (the Ingest column of the Arrow-to-Oracle table) and read back as
// WKB (geoarrow.wkb): each value must read back as the WKB of the geometry its text describes.
const server = useServer()

type Coords = ReadonlyArray<number>
/** A geometry as the test builds it: its type, whether it has Z, and its coordinates nested as WKT nests them. */
type Geometry =
  | { readonly type: "POINT"; readonly z: boolean; readonly at: Coords }
  | { readonly type: "LINESTRING" | "MULTIPOINT"; readonly z: boolean; readonly at: ReadonlyArray<Coords> }
  | { readonly type: "POLYGON" | "MULTILINESTRING"; readonly z: boolean; readonly at: ReadonlyArray<ReadonlyArray<Coords>> }
  | { readonly type: "MULTIPOLYGON"; readonly z: boolean; readonly at: ReadonlyArray<ReadonlyArray<ReadonlyArray<Coords>>> }

const text = (g: Geometry): string => {
  const position = (p: Coords) => p.map(String).join(" ")
  const list = <A>(items: ReadonlyArray<A>, f: (a: A) => string) => `(${items.map(f).join(", ")})`
  const body = (() => {
    switch (g.type) {
      case "POINT":
        return list([g.at], position)
      case "LINESTRING":
      case "MULTIPOINT":
        return list(g.at, position)
      case "POLYGON":
      case "MULTILINESTRING":
        return list(g.at, (ring) => list(ring, position))
      case "MULTIPOLYGON":
        return list(g.at, (polygon) => list(polygon, (ring) => list(ring, position)))
    }
  })()
  return `${g.type}${g.z ? " Z" : ""} ${body}`
}

/** The little-endian ISO WKB of `g` (Z types are the 2D code + 1000), written here independently of the driver. */
const wkb = (g: Geometry): string => {
  const parts: Array<Buffer> = []
  const u32 = (v: number) => {
    const b = Buffer.alloc(4)
    b.writeUInt32LE(v)
    parts.push(b)
  }
  const header = (code: number) => {
    parts.push(Buffer.from([1]))
    u32(code + (g.z ? 1000 : 0))
  }
  const point = (p: Coords) => {
    const b = Buffer.alloc(p.length * 8)
    p.forEach((v, i) => b.writeDoubleLE(v, i * 8))
    parts.push(b)
  }
  const points = (ps: ReadonlyArray<Coords>) => {
    u32(ps.length)
    ps.forEach(point)
  }
  const rings = (rs: ReadonlyArray<ReadonlyArray<Coords>>) => {
    u32(rs.length)
    rs.forEach(points)
  }
  /** A multi geometry: its header and count, then each part as a whole geometry of the part's type. */
  const multi = <A>(code: number, partCode: number, members: ReadonlyArray<A>, body: (a: A) => void) => {
    header(code)
    u32(members.length)
    for (const member of members) {
      header(partCode)
      body(member)
    }
  }
  switch (g.type) {
    case "POINT":
      header(1)
      point(g.at)
      break
    case "LINESTRING":
      header(2)
      points(g.at)
      break
    case "POLYGON":
      header(3)
      rings(g.at)
      break
    case "MULTIPOINT":
      multi(4, 1, g.at, point)
      break
    case "MULTILINESTRING":
      multi(5, 2, g.at, points)
      break
    case "MULTIPOLYGON":
      multi(6, 3, g.at, rings)
      break
  }
  return Buffer.concat(parts).toString("hex")
}

const wktField = geoField("geom", "wkt")

/** Ingests `values` into a new table and reads the geometries back as hex WKB, in row order. */
const roundTrip = (values: ReadonlyArray<string | null>, field: Arrow.Field = wktField) => ingestAndReadWkb(uniqueName("WKT"), field, values)

const square = [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]
const hole = [[2, 2], [2, 4], [4, 4], [4, 2], [2, 2]]
const fixed: ReadonlyArray<Geometry> = [
  { type: "POINT", z: false, at: [1.5, -2.25] },
  { type: "LINESTRING", z: false, at: [[0, 0], [1, 1], [2, 0]] },
  { type: "POLYGON", z: false, at: [square, hole] },
  { type: "MULTIPOINT", z: false, at: [[1, 2], [3, 4]] },
  { type: "MULTILINESTRING", z: false, at: [[[0, 0], [1, 1]], [[5, 5], [6, 7], [8, 8]]] },
  { type: "MULTIPOLYGON", z: false, at: [[square], [hole]] },
  { type: "POINT", z: true, at: [1, 2, 3] },
  { type: "LINESTRING", z: true, at: [[0, 0, 1], [1, 1, 2]] },
  { type: "POLYGON", z: true, at: [[[0, 0, 5], [4, 0, 5], [4, 4, 6], [0, 0, 5]]] }
]

describe("geoarrow.wkt ingest into SDO_GEOMETRY", () => {
  it.effect("points, lines, polygons (with holes), their multi forms, 2D and Z, nulls: each reads back as its WKB", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const values = [...fixed.map(text), null, "point (7 8)", "  LineString(1 2,3 4)  "]
      const expected = [
        ...fixed.map(wkb),
        null,
        wkb({ type: "POINT", z: false, at: [7, 8] }),
        wkb({ type: "LINESTRING", z: false, at: [[1, 2], [3, 4]] })
      ]
      expect(yield* roundTrip(values)).toEqual(expected)
      // large_string storage too
      const large = geoField("geom", "wkt", "{}", new Arrow.LargeUtf8())
      expect(yield* roundTrip([text(fixed[2]!)], large)).toEqual([wkb(fixed[2]!)])
    })), 30_000)

  it.effect("random geometries of every type, 2D and Z, round-trip exactly (fast-check)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      // SDO ordinates are NUMBER: doubles whose digits it can hold keep every bit (-0 becomes 0 there; digits
      // below 1E-130 are refused, see the next test)
      const ordinate = fc.double({ min: -1e12, max: 1e12, noNaN: true }).map((v) => (Math.abs(v) < 1e-100 ? 0 : v))
      const geometry = fc.boolean().chain((z): fc.Arbitrary<Geometry> => {
        const position = fc.array(ordinate, { minLength: z ? 3 : 2, maxLength: z ? 3 : 2 })
        const line = fc.array(position, { minLength: 1, maxLength: 5 })
        const polygon = fc.array(line, { minLength: 1, maxLength: 3 })
        return fc.oneof(
          position.map((at) => ({ type: "POINT" as const, z, at })),
          line.map((at) => ({ type: "LINESTRING" as const, z, at })),
          line.map((at) => ({ type: "MULTIPOINT" as const, z, at })),
          polygon.map((at) => ({ type: "POLYGON" as const, z, at })),
          polygon.map((at) => ({ type: "MULTILINESTRING" as const, z, at })),
          fc.array(polygon, { minLength: 1, maxLength: 3 }).map((at) => ({ type: "MULTIPOLYGON" as const, z, at }))
        )
      })
      const geometries = fc.sample(geometry, { numRuns: 60, seed: 20261124 })
      expect(yield* roundTrip(geometries.map(text))).toEqual(geometries.map(wkb))
    })), 30_000)

  it.effect("text that is not one whole 2D/Z geometry fails INVALID_ARGUMENT naming column, row and the forms accepted; no table is left", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["POINT(1 2) trailing", "not well-known text"],
        ["LINESTRING(0 0, 1 1", "not well-known text"],
        ["CIRCLE(1 2)", "not well-known text"],
        ["POINT EMPTY", "EMPTY"],
        ["POINT M (1 2 3)", "M coordinates"],
        ["POINT Z (1 2)", "2 coordinates"],
        ["GEOMETRYCOLLECTION(MULTILINESTRING((0 0, 1 1)))", "a MultiLineString inside a GeometryCollection has no SDO_GEOMETRY form"],
        ["GEOMETRYCOLLECTION(GEOMETRYCOLLECTION(POINT(1 2)))", "a GeometryCollection inside a GeometryCollection"],
        ["CIRCULARSTRING(0 0, 1 1, 2 0)", "send curves as geoarrow.wkb"],
        ["LINESTRING(0 0, 1E-200 1)", "cannot be stored as an Oracle NUMBER"],
        ["POINT(1.2345678901234567E-120 0)", "cannot be stored as an Oracle NUMBER"]
      ]
      for (const [bad, reason] of cases) {
        const t = uniqueName("WKTBAD")
        const batch = geometryBatch(wktField, ["POINT(1 2)", null, bad])
        const error = yield* Effect.flip(conn.ingest({ schema: batch.schema, batches: Stream.make(batch) }, { targetTable: t }))
        expect(error.status, bad).toBe("INVALID_ARGUMENT")
        expect(error.message, bad).toContain('column "geom": row 3')
        expect(error.message, bad).toContain(reason)
        expect(error.message, bad).toContain("accepted: POINT, LINESTRING, POLYGON")
        expect((yield* Effect.flip(conn.getTableSchema(undefined, undefined, t))).status).toBe("NOT_FOUND")
      }
    })), 30_000)
})
