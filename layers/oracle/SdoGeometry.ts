/**
 * MDSYS.SDO_GEOMETRY to and from ISO well-known binary / text (../common/Geometry.ts), and SDO_SRID from a geoarrow
 * CRS. Oracle Spatial Developer's Guide, "SDO_GEOMETRY Object Type"
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/spatl/sdo_geometry-object-type.html): SDO_GTYPE is
 * DLTT (D dimensions, L the measure dimension, TT 01 point, 02 line, 03 polygon, 04 collection, 05-07 multi);
 * SDO_ELEM_INFO holds triplets of ordinate offset (1-based), SDO_ETYPE and SDO_INTERPRETATION:
 *
 * - 1 point: interpretation 1 one point, n > 1 a cluster of n points (0, an oriented point, is not mapped);
 * - 2 line: 1 straight segments, 2 circular arcs (three points per arc, each arc starting where the last ended);
 * - 1003 / 2003 exterior / interior ring: 1 straight, 2 arcs, 3 rectangle (lower-left, upper-right), 4 circle
 *   (three distinct points on its circumference);
 * - 4 compound line, 1005 / 2005 compound exterior / interior ring: n = the number of subelement triplets that follow,
 *   each of SDO_ETYPE 2; a subelement ends at the next one's first vertex, which is stored once ("Compound Line
 *   String" and "Compound Polygon" examples, https://docs.oracle.com/database/121/SPATL/compound-line-string.htm,
 *   https://docs.oracle.com/database/121/SPATL/compound-polygon.htm: (1,4,2, 1,2,1, 3,2,2) over
 *   (10,10, 10,14, 6,10, 14,10) is a segment to (10,14) and an arc from there).
 *
 * The ISO counterparts are exact: arcs are CircularString, compound elements CompoundCurve, rings with arcs make a
 * CurvePolygon, and multi lines / polygons with arcs MultiCurve / MultiSurface; nothing is densified.
 *
 * @since 0.1.0
 */
import { createRequire } from "node:module"
import {
  CURVES,
  type DimensionedGeometry,
  fromWktGeoJson,
  type Geometry,
  partsGeometry,
  pointsGeometry,
  type Position,
  readWkb,
  type WktGeoJson,
  writeWkb
} from "../common/Geometry.ts"

/**
 * An MDSYS.SDO_GEOMETRY value as node-oracledb returns it with `dbObjectAsPojo`: attribute names as keys,
 * collections as arrays.
 *
 * @category models
 * @since 0.1.0
 */
export interface SdoGeometry {
  readonly SDO_GTYPE: number | null
  readonly SDO_SRID?: number | null
  readonly SDO_POINT?: { readonly X: number | null; readonly Y: number | null; readonly Z?: number | null } | null
  readonly SDO_ELEM_INFO?: ReadonlyArray<number> | null
  readonly SDO_ORDINATES?: ReadonlyArray<number> | null
}

/** An SDO_GEOMETRY bind value (a plain object node-oracledb turns into the MDSYS.SDO_GEOMETRY object type). @category models @since 0.1.0 */
export interface SdoValue {
  SDO_GTYPE: number
  SDO_SRID: number | null
  SDO_POINT: { X: number; Y: number; Z: number | null } | null
  SDO_ELEM_INFO: Array<number> | null
  SDO_ORDINATES: Array<number> | null
}

/**
 * The closed CircularString of an Oracle circle given by three points `a`, `b`, `c` on its circumference: the arc
 * a-b-c as given, then an arc from c back to a through `m`, the middle of the rest of the circle (the arc not
 * containing b), so the three given points are kept exactly and only `m` is computed. The center is where the
 * perpendicular bisectors meet (the circumcenter formula); `2 * cross(b - a, c - a)`, zero for collinear points,
 * is positive when a, b, c turn counterclockwise, and the closing arc keeps that direction.
 *
 * @category decoding
 * @since 0.1.0
 */
export const circleThroughPoints = (a: Position, b: Position, c: Position): Array<Position> => {
  const [ax, ay] = [a[0]!, a[1]!]
  const [bx, by] = [b[0]!, b[1]!]
  const [cx, cy] = [c[0]!, c[1]!]
  const d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
  if (d === 0 || !Number.isFinite(d)) throw new Error("the three points of an SDO_GEOMETRY circle (interpretation 4) are collinear")
  const [sa, sb, sc] = [ax * ax + ay * ay, bx * bx + by * by, cx * cx + cy * cy]
  const ux = (sa * (by - cy) + sb * (cy - ay) + sc * (ay - by)) / d
  const uy = (sa * (cx - bx) + sb * (ax - cx) + sc * (bx - ax)) / d
  const r = Math.hypot(ax - ux, ay - uy)
  const toA = Math.atan2(ay - uy, ax - ux)
  const toC = Math.atan2(cy - uy, cx - ux)
  const turn = (x: number) => ((x % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI)
  const mid = d > 0 ? toC + turn(toA - toC) / 2 : toC - turn(toC - toA) / 2
  return [a, b, c, [ux + r * Math.cos(mid), uy + r * Math.sin(mid)], a]
}

/**
 * The ISO geometry of an SDO_GEOMETRY (see the module comment). Measures (LRS) are dropped, the geometry keeps X, Y
 * and, in 3D, Z; rectangles are expanded to their five corners (3D rectangles throw), circles become closed
 * CircularStrings ({@link circleThroughPoints}); oriented points, solids and unknown element types throw.
 *
 * @category decoding
 * @since 0.1.0
 */
export const sdoToGeometry = (g: SdoGeometry): DimensionedGeometry => {
  const gtype = g.SDO_GTYPE ?? 0
  const stride = Math.floor(gtype / 1000) || 2
  const measure = Math.floor(gtype / 100) % 10
  const axes = Array.from({ length: stride }, (_, i) => i).filter((i) => i !== measure - 1)
  if (axes.length < 2 || axes.length > 3) throw new Error(`SDO_GTYPE ${gtype} has ${axes.length} dimensions besides a measure; WKB here holds X, Y and Z`)
  const dims = axes.length as 2 | 3
  const kind = gtype % 100
  if (kind < 1 || kind > 7) throw new Error(`SDO_GEOMETRY with SDO_GTYPE ${gtype} (solids and unknown types) has no WKB equivalent`)
  const ordinates = g.SDO_ORDINATES ?? []
  const info = g.SDO_ELEM_INFO ?? []
  if (info.length === 0) {
    const p = g.SDO_POINT
    if (kind !== 1 || p === null || p === undefined || p.X === null || p.Y === null) {
      throw new Error(`SDO_GEOMETRY with SDO_GTYPE ${gtype} has neither SDO_ELEM_INFO nor an SDO_POINT`)
    }
    return { geometry: pointsGeometry("Point", [dims === 3 ? [p.X, p.Y, p.Z ?? Number.NaN] : [p.X, p.Y]]), dims }
  }
  if (info.length % 3 !== 0) throw new Error(`SDO_ELEM_INFO has ${info.length} numbers, not triplets`)
  const triplets = Array.from({ length: info.length / 3 }, (_, t) => ({ start: info[3 * t]! - 1, etype: info[3 * t + 1]!, interpretation: info[3 * t + 2]! }))
  triplets.forEach(({ start }, t) => {
    const before = t === 0 ? 0 : triplets[t - 1]!.start
    if (!Number.isInteger(start) || start < before || start >= ordinates.length || start % stride !== 0) {
      throw new Error(`SDO_ELEM_INFO offset ${start + 1} (triplet ${t + 1}) does not start a vertex after the previous element within the ${ordinates.length} SDO_ORDINATES`)
    }
  })
  const endOf = (t: number) => (t + 1 < triplets.length ? triplets[t + 1]!.start : ordinates.length)
  const vertices = (start: number, end: number): Array<Position> => {
    if ((end - start) % stride !== 0) throw new Error(`SDO_ORDINATES ${start + 1} to ${end} do not make whole vertices of ${stride} ordinates`)
    const out: Array<Position> = []
    for (let i = start; i + stride <= end; i += stride) out.push(axes.map((a) => ordinates[i + a]!))
    return out
  }
  type Ring = "exterior" | "interior" | undefined
  /** The element whose triplet is `t`, whether it is a ring, and the triplet after it (and its subelements). */
  const element = (t: number): { geometry: Geometry; ring: Ring; next: number } => {
    const { start, etype, interpretation } = triplets[t]!
    const ring: Ring = etype === 1003 || etype === 1005 ? "exterior" : etype === 2003 || etype === 2005 ? "interior" : undefined
    const at = `SDO_ELEM_INFO element ${t + 1} (SDO_ETYPE ${etype}, interpretation ${interpretation})`
    const simple = (end: number): Geometry => {
      const points = vertices(start, end)
      if (interpretation === 1) return pointsGeometry("LineString", points)
      if (interpretation === 2) return pointsGeometry("CircularString", points)
      if (ring !== undefined && interpretation === 3) {
        if (dims === 3) throw new Error(`${at}: 3D optimized rectangles have no WKB equivalent`)
        const [[x1, y1], [x2, y2]] = points as [[number, number], [number, number]]
        const corners: Array<Position> = ring === "exterior"
          ? [[x1, y1], [x2, y1], [x2, y2], [x1, y2], [x1, y1]]
          : [[x1, y1], [x1, y2], [x2, y2], [x2, y1], [x1, y1]]
        return pointsGeometry("LineString", corners)
      }
      if (ring !== undefined && interpretation === 4) {
        if (dims === 3 || points.length !== 3) throw new Error(`${at}: a circle needs three 2D points, got ${points.length} of ${dims} dimensions`)
        return pointsGeometry("CircularString", circleThroughPoints(points[0]!, points[1]!, points[2]!))
      }
      throw new Error(`${at} has no WKB equivalent`)
    }
    switch (etype) {
      case 1: {
        const points = vertices(start, endOf(t))
        if (interpretation < 1 || points.length !== interpretation) throw new Error(`${at}: ${interpretation === 0 ? "oriented points have no WKB equivalent" : `${points.length} points`}`)
        const geometry = interpretation === 1
          ? pointsGeometry("Point", points)
          : partsGeometry("MultiPoint", points.map((p) => pointsGeometry("Point", [p])))
        return { geometry, ring, next: t + 1 }
      }
      case 2:
      case 1003:
      case 2003:
        return { geometry: simple(endOf(t)), ring, next: t + 1 }
      case 4:
      case 1005:
      case 2005: {
        const parts: Array<Geometry> = []
        for (let j = 1; j <= interpretation; j++) {
          const sub = triplets[t + j]
          if (sub === undefined || sub.etype !== 2 || (sub.interpretation !== 1 && sub.interpretation !== 2)) {
            throw new Error(`${at}: subelement ${j} is not a line of straight segments or arcs`)
          }
          // a subelement ends with the first vertex of the next one
          const end = j < interpretation ? triplets[t + j + 1]!.start + stride : endOf(t + interpretation)
          const points = vertices(sub.start, end)
          parts.push(pointsGeometry(sub.interpretation === 1 ? "LineString" : "CircularString", points))
        }
        return { geometry: partsGeometry("CompoundCurve", parts), ring, next: t + interpretation + 1 }
      }
      default:
        throw new Error(`${at} has no WKB equivalent`)
    }
  }
  const elements: Array<{ geometry: Geometry; ring: Ring }> = []
  for (let t = 0; t < triplets.length;) {
    const e = element(t)
    elements.push(e)
    t = e.next
  }
  const polygonOf = (rings: ReadonlyArray<Geometry>) =>
    partsGeometry(rings.every((r) => r.type === "LineString") ? "Polygon" : "CurvePolygon", rings)
  /** Members in order, an exterior ring and the interior rings after it making one polygon. */
  const members = (): Array<Geometry> => {
    const out: Array<Geometry | Array<Geometry>> = []
    for (const e of elements) {
      const last = out[out.length - 1]
      if (e.ring === "exterior") out.push([e.geometry])
      else if (e.ring === "interior" && Array.isArray(last)) last.push(e.geometry)
      else if (e.ring === "interior") throw new Error(`SDO_GTYPE ${gtype}: an interior ring comes before any exterior ring`)
      else out.push(e.geometry)
    }
    return out.map((m) => (Array.isArray(m) ? polygonOf(m) : m))
  }
  const only = (types: ReadonlyArray<Geometry["type"]>, what: string): Array<Geometry> => {
    const ms = members()
    const bad = ms.find((m) => !types.includes(m.type))
    if (bad !== undefined) throw new Error(`SDO_GTYPE ${gtype} (${what}) holds a ${bad.type}`)
    return ms
  }
  const one = (types: ReadonlyArray<Geometry["type"]>, what: string): Geometry => {
    const ms = only(types, what)
    if (ms.length !== 1) throw new Error(`SDO_GTYPE ${gtype} (${what}) holds ${ms.length} elements`)
    return ms[0]!
  }
  switch (kind) {
    case 1:
      return { geometry: one(["Point"], "a point"), dims }
    case 2:
      return { geometry: one(CURVES, "a line"), dims }
    case 3:
      return { geometry: one(["Polygon", "CurvePolygon"], "a polygon"), dims }
    case 4:
      return { geometry: partsGeometry("GeometryCollection", members()), dims }
    case 5:
      return { geometry: partsGeometry("MultiPoint", only(["Point", "MultiPoint"], "points").flatMap((m) => (m.type === "Point" ? [m] : m.parts))), dims }
    case 6: {
      const lines = only(CURVES, "lines")
      return { geometry: partsGeometry(lines.every((l) => l.type === "LineString") ? "MultiLineString" : "MultiCurve", lines), dims }
    }
    case 7: {
      const polygons = only(["Polygon", "CurvePolygon"], "polygons")
      return { geometry: partsGeometry(polygons.every((p) => p.type === "Polygon") ? "MultiPolygon" : "MultiSurface", polygons), dims }
    }
    default:
      throw new Error(`SDO_GEOMETRY with SDO_GTYPE ${gtype} has no WKB equivalent`)
  }
}

/**
 * Little-endian ISO WKB of an SDO_GEOMETRY ({@link sdoToGeometry}).
 *
 * @category decoding
 * @since 0.1.0
 */
export const sdoGeometryToWkb = (g: SdoGeometry): Buffer => {
  const { dims, geometry } = sdoToGeometry(g)
  return writeWkb(geometry, dims)
}

/**
 * An ordinate as SDO_ORDINATES (Oracle NUMBER) holds it, else throws: NaN, infinities, magnitudes of 1E126 and
 * more, and values whose shortest decimal form has a digit below 1E-130 (Oracle Database SQL Language Reference,
 * "NUMBER Data Type": positive numbers from 1 x 10^-130; node-oracledb refuses such values with NJS-115,
 * lib/impl/datahandlers/buffer.js writeOracleNumber, without naming the row).
 */
const sdoOrdinate = (v: number): number => {
  if (v === 0) return v
  const [mantissa = "", exponent = "0"] = String(Math.abs(v)).split("e")
  const fraction = mantissa.split(".")[1] ?? ""
  const lastDigit = Number(exponent) - fraction.length
  if (!Number.isFinite(v) || Math.abs(v) >= 1e126 || lastDigit < -130) {
    throw new Error(`ordinate ${v} cannot be stored as an Oracle NUMBER (magnitudes below 1E126, digits down to 1E-130)`)
  }
  return v
}

/**
 * The SDO_GEOMETRY of an ISO geometry (the inverse of {@link sdoToGeometry}): a Point in SDO_POINT; lines,
 * CircularStrings (interpretation 2) and CompoundCurves (SDO_ETYPE 4 with one subelement per part, each part's first
 * vertex stored once, as the end of the part before); Polygon and CurvePolygon rings as 1003 / 2003 (1005 / 2005 when
 * compound); MultiPoint as a point cluster; GeometryCollection (SDO_GTYPE x004) of points, point clusters, curves and
 * polygons. Empty geometries, compound parts that do not join, and multi geometries or collections inside a
 * collection (SDO_ELEM_INFO has no element for them; give their parts as members) throw.
 *
 * @category binding
 * @since 0.1.0
 */
export const geometryToSdo = ({ dims, geometry }: DimensionedGeometry, srid: number | null): SdoValue => {
  const ordinates: Array<number> = []
  const elemInfo: Array<number> = []
  const push = (p: Position) => {
    for (const v of p) ordinates.push(sdoOrdinate(v))
  }
  const nonEmpty = (g: Geometry): Geometry => {
    if (g.points.length === 0 && g.parts.length === 0) throw new Error(`an EMPTY ${g.type} has no SDO_GEOMETRY form`)
    return g
  }
  const simple = (g: Geometry, etype: number) => {
    elemInfo.push(ordinates.length + 1, etype, g.type === "CircularString" ? 2 : 1)
    nonEmpty(g).points.forEach(push)
  }
  const compound = (g: Geometry, etype: number) => {
    elemInfo.push(ordinates.length + 1, etype, nonEmpty(g).parts.length)
    let end: Position | undefined
    g.parts.forEach((part, j) => {
      if (part.points.length < 2) throw new Error(`part ${j + 1} of a CompoundCurve has ${part.points.length} points (at least 2)`)
      const first = part.points[0]!
      if (end !== undefined && !first.every((v, d) => v === end![d])) {
        throw new Error(`part ${j + 1} of a CompoundCurve starts at (${first.join(" ")}), not where part ${j} ends (${end.join(" ")})`)
      }
      const interpretation = part.type === "CircularString" ? 2 : 1
      if (end === undefined) {
        elemInfo.push(ordinates.length + 1, 2, interpretation)
        part.points.forEach(push)
      } else {
        // the shared vertex is the last one written
        elemInfo.push(ordinates.length + 1 - dims, 2, interpretation)
        part.points.slice(1).forEach(push)
      }
      end = part.points[part.points.length - 1]
    })
  }
  const curve = (g: Geometry, etype: number, compoundEtype: number) => (g.type === "CompoundCurve" ? compound(g, compoundEtype) : simple(g, etype))
  const polygon = (g: Geometry) => nonEmpty(g).parts.forEach((ring, r) => curve(ring, r === 0 ? 1003 : 2003, r === 0 ? 1005 : 2005))
  const cluster = (points: ReadonlyArray<Geometry>) => {
    elemInfo.push(ordinates.length + 1, 1, points.length)
    points.forEach((p) => push(nonEmpty(p).points[0]!))
  }
  const shape = (tt: number): SdoValue =>
    ({ SDO_GTYPE: dims * 1000 + tt, SDO_SRID: srid, SDO_POINT: null, SDO_ELEM_INFO: elemInfo, SDO_ORDINATES: ordinates })
  switch (geometry.type) {
    case "Point": {
      const [x, y, z] = nonEmpty(geometry).points[0]!.map(sdoOrdinate)
      return { ...shape(1), SDO_POINT: { X: x!, Y: y!, Z: z ?? null }, SDO_ELEM_INFO: null, SDO_ORDINATES: null }
    }
    case "LineString":
    case "CircularString":
    case "CompoundCurve":
      curve(geometry, 2, 4)
      return shape(2)
    case "Polygon":
    case "CurvePolygon":
      polygon(geometry)
      return shape(3)
    case "MultiPoint":
      cluster(nonEmpty(geometry).parts)
      return shape(5)
    case "MultiLineString":
    case "MultiCurve":
      nonEmpty(geometry).parts.forEach((g) => curve(g, 2, 4))
      return shape(6)
    case "MultiPolygon":
    case "MultiSurface":
      nonEmpty(geometry).parts.forEach(polygon)
      return shape(7)
    case "GeometryCollection":
      for (const member of nonEmpty(geometry).parts) {
        switch (member.type) {
          case "Point":
            elemInfo.push(ordinates.length + 1, 1, 1)
            push(nonEmpty(member).points[0]!)
            break
          case "MultiPoint":
            // a one-point cluster would read back as a Point
            if (member.parts.length < 2) throw new Error("a MultiPoint of fewer than 2 points inside a GeometryCollection has no SDO_GEOMETRY form (give it as a Point)")
            cluster(member.parts)
            break
          case "LineString":
          case "CircularString":
          case "CompoundCurve":
            curve(member, 2, 4)
            break
          case "Polygon":
          case "CurvePolygon":
            polygon(member)
            break
          default:
            throw new Error(`a ${member.type} inside a GeometryCollection has no SDO_GEOMETRY form (an SDO collection holds points, point clusters, lines and polygons): give its parts as members`)
        }
      }
      return shape(4)
  }
}

/**
 * The SDO_GEOMETRY of well-known binary ({@link readWkb}, then {@link geometryToSdo}), with SDO_SRID `srid`.
 *
 * @category binding
 * @since 0.1.0
 */
export const wkbToSdoGeometry = (wkb: Uint8Array, srid: number | null = null): SdoValue => geometryToSdo(readWkb(wkb), srid)

/** @terraformer/wkt's parser (a grammar: anything but one whole geometry throws); the package has no typings. */
const { wktToGeoJSON } = createRequire(import.meta.url)("@terraformer/wkt") as { wktToGeoJSON: (wkt: string) => WktGeoJson }

/** WKT's curve keywords (ISO/IEC 13249-3), which @terraformer/wkt's grammar does not have. */
const CURVE_WKT = /\b(CIRCULARSTRING|COMPOUNDCURVE|CURVEPOLYGON|MULTICURVE|MULTISURFACE)\b/i

/**
 * The SDO_GEOMETRY of OGC well-known text (keywords in any case; parsed by @terraformer/wkt), with SDO_SRID `srid`:
 * the types of {@link geometryToSdo} but the curves, which that parser does not read (they throw saying to send them
 * as WKB). Text that is not one whole geometry, EMPTY geometries and M coordinates throw.
 *
 * @category binding
 * @since 0.1.0
 */
export const wktToSdoGeometry = (wkt: string, srid: number | null = null): SdoValue => {
  const curve = CURVE_WKT.exec(wkt)
  if (curve !== null) throw new Error(`${curve[1]!.toUpperCase()} (a curve) is not read from WKT here: send curves as geoarrow.wkb`)
  let g: WktGeoJson
  try {
    // the grammar's keywords are upper case; WKT's are case-insensitive (OGC 06-103r4, 7.2)
    g = wktToGeoJSON(wkt.toUpperCase())
  } catch (e) {
    throw new Error(`not well-known text (${(e instanceof Error ? e.message : String(e)).replace(/\s*\n\s*/g, " ")})`)
  }
  return geometryToSdo(fromWktGeoJson(g), srid)
}

/** The CRS forms {@link sridOfCrs} reads, as its errors name them. @category constants @since 0.1.0 */
export const CRS_ACCEPTED =
  `"crs": "EPSG:<code>" or "OGC:CRS84", a PROJJSON object whose "id" is {"authority": "EPSG", "code": <code>}, or "crs_type": "srid" with a numeric "crs"`

/**
 * The SDO_SRID of a geoarrow field's `ARROW:extension:metadata` (geoarrow extension-types.md: JSON with an optional
 * `crs`, a PROJJSON object or a string, and `crs_type`): null without a CRS; the EPSG code of `EPSG:<code>` or of a
 * PROJJSON `id`; 4326 for OGC:CRS84 (WGS 84 with longitude first, the order of every SDO_GEOMETRY, "where longitude
 * is first and latitude is second": Oracle Graph Developer's Guide, OPG_APIS.GET_LATLONG_FROM_V_COL usage notes,
 * https://docs.oracle.com/en/database/oracle/property-graph/23.2/spgdg/opg_apis-get_latlong_from_v_col.html); the
 * number itself for `crs_type` "srid". Anything else throws, naming what is accepted.
 *
 * @category binding
 * @since 0.1.0
 */
export const sridOfCrs = (metadata: string | undefined): number | null => {
  if (metadata === undefined || metadata.trim() === "") return null
  let parsed: unknown
  try {
    parsed = JSON.parse(metadata)
  } catch {
    throw new Error(`ARROW:extension:metadata is not JSON: ${JSON.stringify(metadata.slice(0, 80))}`)
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("ARROW:extension:metadata is not a JSON object")
  const { crs, crs_type: crsType } = parsed as { crs?: unknown; crs_type?: unknown }
  if (crs === undefined || crs === null) return null
  const code = (authority: unknown, value: unknown): number | undefined => {
    const n = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : Number.NaN
    if (typeof authority === "string" && authority.toUpperCase() === "EPSG" && Number.isSafeInteger(n) && n > 0) return n
    if (typeof authority === "string" && authority.toUpperCase() === "OGC" && String(value).toUpperCase() === "CRS84") return 4326
    return undefined
  }
  let srid: number | undefined
  if (crsType === "srid") srid = code("EPSG", crs)
  else if (typeof crs === "string") {
    const m = /^\s*([A-Za-z]+):(\w+)\s*$/.exec(crs)
    srid = m === null ? undefined : code(m[1], m[2])
  } else if (typeof crs === "object" && !Array.isArray(crs)) {
    const { id, ids } = crs as { id?: { authority?: unknown; code?: unknown }; ids?: ReadonlyArray<{ authority?: unknown; code?: unknown }> }
    const ident = id ?? ids?.[0]
    srid = ident === undefined ? undefined : code(ident.authority, ident.code)
  }
  if (srid === undefined) throw new Error(`the geoarrow CRS ${JSON.stringify(crs).slice(0, 120)} has no Oracle SRID here; accepted: ${CRS_ACCEPTED}`)
  return srid
}
