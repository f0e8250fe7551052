import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import type { Geometry, Position } from "../../layers/common/Geometry.ts"
import { readWkb } from "../../layers/common/Geometry.ts"
import {
  circleThroughPoints,
  type SdoGeometry,
  sdoGeometryToWkb,
  sridOfCrs,
  wkbToSdoGeometry,
  wktToSdoGeometry
} from "../../layers/oracle/SdoGeometry.ts"
import { geometryOf, iso, parts, pts } from "./geometrySupport.ts"

// SDO_GEOMETRY <-> ISO WKB as pure functions: Oracle Spatial's documented examples, and properties over random
// geometries of every ISO type the mapping takes (fast-check).

const hex = (g: SdoGeometry) => sdoGeometryToWkb(g).toString("hex")

describe("SDO_GEOMETRY to WKB", () => {
  it("SDO_GEOMETRY becomes OGC well-known binary (little endian): points, lines, polygons with holes, rectangles, multi types", () => {
    const wkb = (type: number, ...parts: Array<number | Array<number>>) => {
      const out: Array<Buffer> = []
      const head = Buffer.alloc(5)
      head[0] = 1
      head.writeUInt32LE(type, 1)
      out.push(head)
      for (const p of parts) {
        if (Array.isArray(p)) {
          const b = Buffer.alloc(p.length * 8)
          p.forEach((v, i) => b.writeDoubleLE(v, i * 8))
          out.push(b)
        } else {
          const b = Buffer.alloc(4)
          b.writeUInt32LE(p)
          out.push(b)
        }
      }
      return Buffer.concat(out).toString("hex")
    }
    const hex = (g: Parameters<typeof sdoGeometryToWkb>[0]) => sdoGeometryToWkb(g).toString("hex")
    expect(hex({ SDO_GTYPE: 2001, SDO_SRID: 4326, SDO_POINT: { X: 1.5, Y: -2 }, SDO_ELEM_INFO: null, SDO_ORDINATES: null })).toBe(wkb(1, [1.5, -2]))
    expect(hex({ SDO_GTYPE: 3001, SDO_POINT: { X: 1, Y: 2, Z: 3 } })).toBe(wkb(1001, [1, 2, 3]))
    expect(hex({ SDO_GTYPE: 2002, SDO_ELEM_INFO: [1, 2, 1], SDO_ORDINATES: [0, 0, 1, 1, 2, 0] })).toBe(wkb(2, 3, [0, 0, 1, 1, 2, 0]))
    const square = [0, 0, 10, 0, 10, 10, 0, 10, 0, 0]
    const hole = [2, 2, 2, 4, 4, 4, 4, 2, 2, 2]
    expect(hex({ SDO_GTYPE: 2003, SDO_ELEM_INFO: [1, 1003, 1, 11, 2003, 1], SDO_ORDINATES: [...square, ...hole] }))
      .toBe(wkb(3, 2, 5, square, 5, hole))
    expect(hex({ SDO_GTYPE: 2003, SDO_ELEM_INFO: [1, 1003, 3], SDO_ORDINATES: [0, 0, 10, 10] })).toBe(wkb(3, 1, 5, square))
    expect(hex({ SDO_GTYPE: 2005, SDO_ELEM_INFO: [1, 1, 2], SDO_ORDINATES: [1, 2, 3, 4] }))
      .toBe(wkb(4, 2) + wkb(1, [1, 2]) + wkb(1, [3, 4]))
    expect(hex({ SDO_GTYPE: 2007, SDO_ELEM_INFO: [1, 1003, 1, 11, 1003, 3], SDO_ORDINATES: [...square, 0, 0, 10, 10] }))
      .toBe(wkb(6, 2) + wkb(3, 1, 5, square) + wkb(3, 1, 5, square))
    // A measure dimension (LRS, L = 3 in 3302) is dropped.
    expect(hex({ SDO_GTYPE: 3302, SDO_ELEM_INFO: [1, 2, 1], SDO_ORDINATES: [0, 0, 5, 1, 1, 9] })).toBe(wkb(2, 2, [0, 0, 1, 1]))
    // arcs were refused before collections and curves were mapped; they are CircularStrings now (below)
    expect(hex({ SDO_GTYPE: 2002, SDO_ELEM_INFO: [1, 2, 2], SDO_ORDINATES: [0, 0, 1, 1, 2, 0] })).toBe(wkb(8, 3, [0, 0, 1, 1, 2, 0]))
  })

  it("reads Oracle Spatial's compound line, compound polygon, arc polygon and circle examples as ISO curves", () => {
    // Oracle Spatial Developer's Guide, "Geometry Examples": compound line string (1,4,2, 1,2,1, 3,2,2)
    expect(hex({ SDO_GTYPE: 2002, SDO_ELEM_INFO: [1, 4, 2, 1, 2, 1, 3, 2, 2], SDO_ORDINATES: [10, 10, 10, 14, 6, 10, 14, 10] }))
      .toBe(iso(parts("CompoundCurve", pts("LineString", 10, 10, 10, 14), pts("CircularString", 10, 14, 6, 10, 14, 10)), 2))
    // compound polygon (1,1005,2, 1,2,1, 5,2,2)
    expect(hex({ SDO_GTYPE: 2003, SDO_ELEM_INFO: [1, 1005, 2, 1, 2, 1, 5, 2, 2], SDO_ORDINATES: [6, 10, 10, 1, 14, 10, 10, 14, 6, 10] }))
      .toBe(iso(parts("CurvePolygon", parts("CompoundCurve", pts("LineString", 6, 10, 10, 1, 14, 10), pts("CircularString", 14, 10, 10, 14, 6, 10))), 2))
    // an arc polygon with a straight hole
    expect(hex({ SDO_GTYPE: 2003, SDO_ELEM_INFO: [1, 1003, 2, 11, 2003, 1], SDO_ORDINATES: [0, 0, 4, -4, 8, 0, 4, 4, 0, 0, 3, 0, 4, 1, 5, 0, 3, 0] }))
      .toBe(iso(parts("CurvePolygon", pts("CircularString", 0, 0, 4, -4, 8, 0, 4, 4, 0, 0), pts("LineString", 3, 0, 4, 1, 5, 0, 3, 0)), 2))
    // the circle cola_d of "Simple Example" (1,1003,4) through (8,7), (10,9), (8,11): center (8,9), radius 2; the
    // closing arc runs counterclockwise from (8,11) through (6,9) back to (8,7)
    expect(hex({ SDO_GTYPE: 2003, SDO_ELEM_INFO: [1, 1003, 4], SDO_ORDINATES: [8, 7, 10, 9, 8, 11] }))
      .toBe(iso(parts("CurvePolygon", pts("CircularString", 8, 7, 10, 9, 8, 11, 6, 9, 8, 7)), 2))
    // multi lines / polygons with an arc become MultiCurve / MultiSurface; without one they stay MultiLineString / MultiPolygon
    expect(hex({ SDO_GTYPE: 2006, SDO_ELEM_INFO: [1, 2, 1, 5, 2, 2], SDO_ORDINATES: [0, 0, 1, 1, 5, 5, 6, 6, 7, 5] }))
      .toBe(iso(parts("MultiCurve", pts("LineString", 0, 0, 1, 1), pts("CircularString", 5, 5, 6, 6, 7, 5)), 2))
    expect(hex({ SDO_GTYPE: 2007, SDO_ELEM_INFO: [1, 1003, 1, 9, 1003, 2], SDO_ORDINATES: [0, 0, 1, 0, 1, 1, 0, 0, 5, 5, 6, 6, 7, 5, 6, 4, 5, 5] }))
      .toBe(iso(parts("MultiSurface", parts("Polygon", pts("LineString", 0, 0, 1, 0, 1, 1, 0, 0)), parts("CurvePolygon", pts("CircularString", 5, 5, 6, 6, 7, 5, 6, 4, 5, 5))), 2))
  })

  it("reads a heterogeneous collection (x004) as a GeometryCollection: points, clusters, lines, polygons with holes, curves, Z", () => {
    // point, line, polygon with a hole, second polygon, point cluster, arc
    const info = [1, 1, 1, 3, 2, 1, 7, 1003, 1, 15, 2003, 1, 23, 1003, 3, 27, 1, 2, 31, 2, 2]
    const ordinates = [10, 5, 10, 10, 20, 10, 0, 0, 4, 0, 4, 4, 0, 0, 1, 1, 2, 2, 2, 1, 1, 1, 5, 5, 6, 6, 7, 7, 8, 8, 0, 0, 1, 1, 2, 0]
    expect(hex({ SDO_GTYPE: 2004, SDO_SRID: 4326, SDO_ELEM_INFO: info, SDO_ORDINATES: ordinates })).toBe(iso(parts(
      "GeometryCollection",
      pts("Point", 10, 5),
      pts("LineString", 10, 10, 20, 10),
      parts("Polygon", pts("LineString", 0, 0, 4, 0, 4, 4, 0, 0), pts("LineString", 1, 1, 2, 2, 2, 1, 1, 1)),
      parts("Polygon", pts("LineString", 5, 5, 6, 5, 6, 6, 5, 6, 5, 5)),
      parts("MultiPoint", pts("Point", 7, 7), pts("Point", 8, 8)),
      pts("CircularString", 0, 0, 1, 1, 2, 0)
    ), 2))
    const z: Geometry = parts("GeometryCollection", { type: "Point", points: [[1, 2, 3]], parts: [] }, { type: "LineString", points: [[0, 0, 1], [1, 1, 2]], parts: [] })
    expect(hex({ SDO_GTYPE: 3004, SDO_ELEM_INFO: [1, 1, 1, 4, 2, 1], SDO_ORDINATES: [1, 2, 3, 0, 0, 1, 1, 1, 2] })).toBe(iso(z, 3))
  })

  it("refuses what has no ISO form, saying what it is", () => {
    expect(() => hex({ SDO_GTYPE: 2004, SDO_ELEM_INFO: [1, 2003, 1], SDO_ORDINATES: [0, 0, 1, 1, 0, 0] })).toThrow(/interior ring comes before/)
    expect(() => hex({ SDO_GTYPE: 2001, SDO_ELEM_INFO: [1, 1, 0, 3, 0, 0], SDO_ORDINATES: [0, 0, 1, 0] })).toThrow(/oriented points/)
    expect(() => hex({ SDO_GTYPE: 3008, SDO_ELEM_INFO: [1, 1007, 1], SDO_ORDINATES: [0, 0, 0] })).toThrow(/solids/)
    expect(() => hex({ SDO_GTYPE: 2003, SDO_ELEM_INFO: [1, 1003, 4], SDO_ORDINATES: [0, 0, 1, 1, 2, 2] })).toThrow(/collinear/)
    expect(() => hex({ SDO_GTYPE: 2002, SDO_ELEM_INFO: [1, 4, 2, 1, 2, 1, 3, 2005, 1], SDO_ORDINATES: [0, 0, 1, 1, 2, 2] })).toThrow(/subelement 2/)
    // malformed arrays fail rather than losing ordinates
    expect(() => hex({ SDO_GTYPE: 2002, SDO_ELEM_INFO: [1, 2, 1], SDO_ORDINATES: [0, 0, 1, 1, 2] })).toThrow(/do not make whole vertices/)
    expect(() => hex({ SDO_GTYPE: 2006, SDO_ELEM_INFO: [1, 2, 1, 9, 2, 1], SDO_ORDINATES: [0, 0, 1, 1] })).toThrow(/offset 9 \(triplet 2\)/)
    expect(() => hex({ SDO_GTYPE: 2006, SDO_ELEM_INFO: [1, 2, 1, 2, 2, 1], SDO_ORDINATES: [0, 0, 1, 1] })).toThrow(/offset 2 \(triplet 2\)/)
    expect(() => hex({ SDO_GTYPE: 2002, SDO_ELEM_INFO: [1, 2], SDO_ORDINATES: [0, 0, 1, 1] })).toThrow(/not triplets/)
    // four dimensions without a measure would lose one; with a measure (L = 4) the measure is what is dropped
    expect(() => hex({ SDO_GTYPE: 4002, SDO_ELEM_INFO: [1, 2, 1], SDO_ORDINATES: [0, 0, 0, 0, 1, 1, 1, 1] })).toThrow(/4 dimensions besides a measure/)
    expect(hex({ SDO_GTYPE: 4402, SDO_ELEM_INFO: [1, 2, 1], SDO_ORDINATES: [0, 0, 5, 9, 1, 1, 6, 9] }))
      .toBe(iso({ type: "LineString", points: [[0, 0, 5], [1, 1, 6]], parts: [] }, 3))
  })

  it("a circle becomes a closed CircularString through its three points and the middle of the rest of the circle (fast-check)", () => {
    const coordinate = fc.integer({ min: -1000, max: 1000 })
    const point = fc.tuple(coordinate, coordinate)
    fc.assert(fc.property(point, point, point, (a, b, c) => {
      const cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
      fc.pre(cross !== 0)
      const ring = circleThroughPoints(a, b, c)
      expect(ring.slice(0, 3)).toEqual([a, b, c])
      expect(ring[4]).toEqual(a)
      const m = ring[3]!
      // m lies on the circle through a, b, c: the same distance from the center as a
      const d = 2 * cross
      const sq = (p: Position) => p[0]! ** 2 + p[1]! ** 2
      const ux = (sq(a) * (b[1] - c[1]) + sq(b) * (c[1] - a[1]) + sq(c) * (a[1] - b[1])) / d
      const uy = (sq(a) * (c[0] - b[0]) + sq(b) * (a[0] - c[0]) + sq(c) * (b[0] - a[0])) / d
      const r = Math.hypot(a[0] - ux, a[1] - uy)
      expect(Math.abs(Math.hypot(m[0]! - ux, m[1]! - uy) - r)).toBeLessThanOrEqual(1e-9 * Math.max(1, r))
      // c, m, a turn the same way as a, b, c: m is on the arc from c back to a that does not contain b
      const turn = (p: Position, q: Position, s: Position) => Math.sign((q[0]! - p[0]!) * (s[1]! - p[1]!) - (q[1]! - p[1]!) * (s[0]! - p[0]!))
      expect(turn(c, m, a)).toBe(Math.sign(cross))
      // and it is equally far from c and a (the middle of that arc)
      expect(Math.abs(Math.hypot(m[0]! - c[0], m[1]! - c[1]) - Math.hypot(m[0]! - a[0], m[1]! - a[1]))).toBeLessThanOrEqual(1e-9 * Math.max(1, r))
    }), { numRuns: 300, seed: 1124 })
  })
})

describe("WKB to SDO_GEOMETRY and back", () => {
  it("every geometry of every type, 2D and Z, reads back from its SDO arrays as the same WKB bytes (fast-check)", () => {
    for (const dims of [2, 3] as const) {
      fc.assert(fc.property(geometryOf(dims), (g) => {
        const wkb = Buffer.from(iso(g, dims), "hex")
        const sdo = wkbToSdoGeometry(wkb, 4326)
        expect(sdo.SDO_SRID).toBe(4326)
        expect(Math.floor(sdo.SDO_GTYPE / 1000)).toBe(dims)
        expect(sdoGeometryToWkb(sdo).toString("hex")).toBe(wkb.toString("hex"))
      }), { numRuns: 400, seed: 20261124 + dims })
    }
  })

  it("any bytes, random or a valid value cut or altered, give an SDO value or an Error, never a crash or a hang (fast-check)", () => {
    const valid = geometryOf(2).map((g) => Buffer.from(iso(g, 2), "hex"))
    const altered = fc.tuple(valid, fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean()).map(([b, at, byte, cut]) => {
      const c = Buffer.from(b)
      if (cut) return c.subarray(0, at % c.length)
      c[at % c.length] = byte
      return c
    })
    fc.assert(fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }), altered), (bytes) => {
      try {
        const sdo = wkbToSdoGeometry(bytes)
        expect(sdo.SDO_GTYPE % 100).toBeGreaterThanOrEqual(1)
      } catch (e) {
        expect(e).toBeInstanceOf(Error)
      }
    }), { numRuns: 1000, seed: 7 })
  })

  it("writes Oracle's documented element info for compound lines and rings, arcs and collections", () => {
    const wkb = (g: Geometry) => Buffer.from(iso(g, 2), "hex")
    expect(wkbToSdoGeometry(wkb(parts("CompoundCurve", pts("LineString", 10, 10, 10, 14), pts("CircularString", 10, 14, 6, 10, 14, 10)))))
      .toEqual({ SDO_GTYPE: 2002, SDO_SRID: null, SDO_POINT: null, SDO_ELEM_INFO: [1, 4, 2, 1, 2, 1, 3, 2, 2], SDO_ORDINATES: [10, 10, 10, 14, 6, 10, 14, 10] })
    expect(wkbToSdoGeometry(wkb(parts("CurvePolygon", parts("CompoundCurve", pts("LineString", 6, 10, 10, 1, 14, 10), pts("CircularString", 14, 10, 10, 14, 6, 10))))))
      .toEqual({ SDO_GTYPE: 2003, SDO_SRID: null, SDO_POINT: null, SDO_ELEM_INFO: [1, 1005, 2, 1, 2, 1, 5, 2, 2], SDO_ORDINATES: [6, 10, 10, 1, 14, 10, 10, 14, 6, 10] })
    expect(wkbToSdoGeometry(wkb(parts("GeometryCollection", pts("Point", 10, 5), pts("LineString", 10, 10, 20, 10), parts("Polygon", pts("LineString", 10, 105, 15, 105, 20, 110, 10, 110, 10, 105)))), 8307))
      .toEqual({ SDO_GTYPE: 2004, SDO_SRID: 8307, SDO_POINT: null, SDO_ELEM_INFO: [1, 1, 1, 3, 2, 1, 7, 1003, 1], SDO_ORDINATES: [10, 5, 10, 10, 20, 10, 10, 105, 15, 105, 20, 110, 10, 110, 10, 105] })
  })

  it("refuses geometries with no SDO form, saying which and why", () => {
    const wkb = (g: Geometry) => Buffer.from(iso(g, 2), "hex")
    expect(() => wkbToSdoGeometry(wkb(parts("GeometryCollection", parts("MultiLineString", pts("LineString", 0, 0, 1, 1)))))).toThrow(/MultiLineString inside a GeometryCollection/)
    expect(() => wkbToSdoGeometry(wkb(parts("GeometryCollection", parts("GeometryCollection", pts("Point", 1, 2)))))).toThrow(/GeometryCollection inside a GeometryCollection/)
    expect(() => wkbToSdoGeometry(wkb(parts("GeometryCollection", parts("MultiPoint", pts("Point", 1, 2)))))).toThrow(/fewer than 2 points/)
    expect(() => wkbToSdoGeometry(wkb(parts("GeometryCollection")))).toThrow(/EMPTY GeometryCollection/)
    expect(() => wkbToSdoGeometry(wkb(parts("CompoundCurve", pts("LineString", 0, 0, 1, 1), pts("CircularString", 2, 2, 3, 3, 4, 2))))).toThrow(/part 2 of a CompoundCurve starts at \(2 2\), not where part 1 ends \(1 1\)/)
    // WKB structure: a member its parent does not allow, M coordinates, bytes left over, EWKB SRIDs
    expect(() => wkbToSdoGeometry(wkb(parts("MultiCurve", parts("Polygon", pts("LineString", 0, 0, 1, 1)))))).toThrow(/a Polygon cannot be a part/)
    expect(() => wkbToSdoGeometry(Buffer.from("01d2070000000000000000f03f00000000000000400000000000000840", "hex"))).toThrow(/M coordinates/)
    expect(() => wkbToSdoGeometry(Buffer.concat([wkb(pts("Point", 1, 2)), Buffer.from([0])]))).toThrow(/1 bytes follow/)
    expect(() => wkbToSdoGeometry(Buffer.from("0101000020e6100000000000000000f03f0000000000000040", "hex"))).toThrow(/EWKB with an embedded SRID/)
    expect(() => wkbToSdoGeometry(Buffer.from("0107000000ffffff7f", "hex"))).toThrow(/WKB ends/)
    expect(readWkb(Buffer.from("0101000000000000000000f87f000000000000f87f", "hex")).geometry.points).toEqual([])
  })
})

describe("WKT to SDO_GEOMETRY", () => {
  it("takes GEOMETRYCOLLECTION like its WKB, and refuses curve keywords pointing at WKB", () => {
    expect(wktToSdoGeometry("GeometryCollection (POINT (10 5), LINESTRING (10 10, 20 10), POLYGON ((10 105, 15 105, 20 110, 10 110, 10 105)))", 4326))
      .toEqual(wkbToSdoGeometry(Buffer.from(iso(parts("GeometryCollection", pts("Point", 10, 5), pts("LineString", 10, 10, 20, 10), parts("Polygon", pts("LineString", 10, 105, 15, 105, 20, 110, 10, 110, 10, 105))), 2), "hex"), 4326))
    expect(wktToSdoGeometry("GEOMETRYCOLLECTION (POINT Z (1 2 3), LINESTRING Z (0 0 1, 1 1 2))").SDO_GTYPE).toBe(3004)
    expect(() => wktToSdoGeometry("GEOMETRYCOLLECTION (POINT Z (1 2 3), POINT (1 2))")).toThrow(/2 coordinates where the geometry has 3/)
    expect(() => wktToSdoGeometry("CIRCULARSTRING (0 0, 1 1, 2 0)")).toThrow(/CIRCULARSTRING \(a curve\) is not read from WKT here: send curves as geoarrow.wkb/)
    expect(() => wktToSdoGeometry("geometrycollection (compoundcurve ((0 0, 1 1)))")).toThrow(/COMPOUNDCURVE/)
    expect(() => wktToSdoGeometry("GEOMETRYCOLLECTION EMPTY")).toThrow(/EMPTY/)
  })
})

describe("SDO_SRID of a geoarrow CRS", () => {
  it("reads EPSG codes, OGC:CRS84, PROJJSON ids and crs_type srid; no CRS is no SRID; anything else throws naming what is accepted", () => {
    expect(sridOfCrs(undefined)).toBe(null)
    expect(sridOfCrs("")).toBe(null)
    expect(sridOfCrs("{}")).toBe(null)
    expect(sridOfCrs(JSON.stringify({ crs: "EPSG:4326" }))).toBe(4326)
    expect(sridOfCrs(JSON.stringify({ crs: "epsg:27700", edges: "planar" }))).toBe(27700)
    expect(sridOfCrs(JSON.stringify({ crs: "OGC:CRS84" }))).toBe(4326)
    expect(sridOfCrs(JSON.stringify({ crs: { type: "ProjectedCRS", name: "WGS 84 / Pseudo-Mercator", id: { authority: "EPSG", code: 3857 } } }))).toBe(3857)
    expect(sridOfCrs(JSON.stringify({ crs: { type: "GeographicCRS", ids: [{ authority: "EPSG", code: "4979" }] } }))).toBe(4979)
    expect(sridOfCrs(JSON.stringify({ crs: 8307, crs_type: "srid" }))).toBe(8307)
    for (const bad of [{ crs: "ESRI:102100" }, { crs: "GEOGCRS[\"WGS 84\"]" }, { crs: { type: "GeographicCRS", name: "no id" } }, { crs: "EPSG:abc" }, { crs: 12 }]) {
      expect(() => sridOfCrs(JSON.stringify(bad)), JSON.stringify(bad)).toThrow(/has no Oracle SRID here; accepted: "crs": "EPSG:<code>"/)
    }
    expect(() => sridOfCrs("{crs")).toThrow(/not JSON/)
  })
})
