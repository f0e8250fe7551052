/**
 * Geometries as ISO well-known binary (ISO/IEC 13249-3 SQL/MM Spatial, whose codes 1-7 are OGC 06-103r4's Simple
 * Features and 8-12 its curves, as PostGIS and GEOS write them): one model for every type, a reader of either byte
 * order (ISO's Z codes +1000 and EWKB's Z flag), a little-endian ISO writer, and the GeoJSON that @terraformer/wkt
 * parses WKT into. M coordinates have no place in the model and are refused.
 *
 * @since 0.1.0
 */

/** A vertex: X, Y and, in 3D geometries, Z. @category models @since 0.1.0 */
export type Position = ReadonlyArray<number>

/** ISO WKB type codes (2D; Z adds 1000). @category models @since 0.1.0 */
export const WKB_TYPE = {
  Point: 1,
  LineString: 2,
  Polygon: 3,
  MultiPoint: 4,
  MultiLineString: 5,
  MultiPolygon: 6,
  GeometryCollection: 7,
  CircularString: 8,
  CompoundCurve: 9,
  CurvePolygon: 10,
  MultiCurve: 11,
  MultiSurface: 12
} as const

/** A geometry type name of {@link WKB_TYPE}. @category models @since 0.1.0 */
export type GeometryType = keyof typeof WKB_TYPE

/**
 * One geometry: Point, LineString and CircularString hold `points` (an empty Point none); every other type holds
 * `parts`: a Polygon its rings as LineStrings, a CompoundCurve its LineStrings and CircularStrings, a CurvePolygon
 * its rings as any of those three, the multi types and GeometryCollection their members.
 *
 * @category models
 * @since 0.1.0
 */
export interface Geometry {
  readonly type: GeometryType
  readonly points: ReadonlyArray<Position>
  readonly parts: ReadonlyArray<Geometry>
}

/** A geometry with its coordinate dimension (2: XY, 3: XYZ). @category models @since 0.1.0 */
export interface DimensionedGeometry {
  readonly geometry: Geometry
  readonly dims: 2 | 3
}

/** Builds a geometry of points. @category constructors @since 0.1.0 */
export const pointsGeometry = (type: "Point" | "LineString" | "CircularString", points: ReadonlyArray<Position>): Geometry => ({ type, points, parts: [] })

/** Builds a geometry of parts. @category constructors @since 0.1.0 */
export const partsGeometry = (type: Exclude<GeometryType, "Point" | "LineString" | "CircularString">, parts: ReadonlyArray<Geometry>): Geometry =>
  ({ type, points: [], parts })

/** The curve types: the members of a CurvePolygon or MultiCurve. @category models @since 0.1.0 */
export const CURVES: ReadonlyArray<GeometryType> = ["LineString", "CircularString", "CompoundCurve"]

/** The member types each type of parts allows (ISO/IEC 13249-3; a GeometryCollection allows every type). */
const MEMBERS: Partial<Record<GeometryType, ReadonlyArray<GeometryType>>> = {
  Polygon: ["LineString"],
  MultiPoint: ["Point"],
  MultiLineString: ["LineString"],
  MultiPolygon: ["Polygon"],
  CompoundCurve: ["LineString", "CircularString"],
  CurvePolygon: CURVES,
  MultiCurve: CURVES,
  MultiSurface: ["Polygon", "CurvePolygon"]
}

const TYPE_NAMES = new Map<number, GeometryType>(Object.entries(WKB_TYPE).map(([name, code]) => [code, name as GeometryType]))

/**
 * Reads one whole WKB geometry (bytes left over, a truncated value, an unknown type, a member its parent does not
 * allow, mixed dimensions, M coordinates and EWKB's embedded SRID throw). An empty Point (NaN coordinates) has no
 * points.
 *
 * @category decoding
 * @since 0.1.0
 */
export const readWkb = (wkb: Uint8Array): DimensionedGeometry => {
  const view = new DataView(wkb.buffer, wkb.byteOffset, wkb.byteLength)
  let o = 0
  let little = true
  let dims: 2 | 3 | undefined
  const need = (bytes: number) => {
    if (o + bytes > wkb.byteLength) throw new Error(`WKB ends after ${wkb.byteLength} bytes, inside a geometry`)
  }
  const u32 = () => {
    need(4)
    const v = view.getUint32(o, little)
    o += 4
    return v
  }
  const position = (): Position => {
    need(8 * dims!)
    const p: Array<number> = []
    for (let d = 0; d < dims!; d++, o += 8) p.push(view.getFloat64(o, little))
    return p
  }
  const positions = (): Array<Position> => {
    const n = u32()
    need(n * 8 * dims!)
    return Array.from({ length: n }, position)
  }
  const geometry = (allowed: ReadonlyArray<GeometryType> | undefined): Geometry => {
    need(1)
    const order = view.getUint8(o)
    if (order > 1) throw new Error(`WKB byte order ${order} at byte ${o} is neither 0 (big endian) nor 1 (little endian)`)
    little = order === 1
    o += 1
    const raw = u32()
    if ((raw & 0x20000000) !== 0) throw new Error("EWKB with an embedded SRID is not read here: give the CRS in the field's geoarrow metadata")
    const code = raw & 0x0fffffff
    if ((raw & 0x40000000) !== 0 || (code >= 2000 && code < 4000)) throw new Error("WKB geometries with M coordinates have no form here")
    const type = TYPE_NAMES.get(code % 1000)
    if (type === undefined || code >= 2000) throw new Error(`WKB geometry type ${code} is not one of ISO WKB's types 1-12 (2D) or 1001-1012 (Z)`)
    const d = (raw & 0x80000000) !== 0 || code >= 1000 ? 3 : 2
    if (dims !== undefined && d !== dims) throw new Error(`a ${type} with ${d} dimensions inside a geometry with ${dims}`)
    dims = d
    if (allowed !== undefined && !allowed.includes(type)) throw new Error(`a ${type} cannot be a part of this geometry (allowed: ${allowed.join(", ")})`)
    switch (type) {
      case "Point": {
        const p = position()
        return pointsGeometry(type, p.every(Number.isNaN) ? [] : [p])
      }
      case "LineString":
      case "CircularString":
        return pointsGeometry(type, positions())
      case "Polygon": {
        const n = u32()
        // every ring takes at least its 4-byte count
        need(n * 4)
        return partsGeometry(type, Array.from({ length: n }, () => pointsGeometry("LineString", positions())))
      }
      default: {
        const n = u32()
        // every member takes at least a 5-byte header: a bad count fails here, not after a huge allocation
        need(n * 5)
        return partsGeometry(type, Array.from({ length: n }, () => geometry(MEMBERS[type])))
      }
    }
  }
  const g = geometry(undefined)
  if (o !== wkb.byteLength) throw new Error(`${wkb.byteLength - o} bytes follow the WKB geometry`)
  return { geometry: g, dims: dims! }
}

/**
 * Little-endian ISO WKB of `g` (Z types as the 2D code + 1000; an empty Point as NaN coordinates).
 *
 * @category encoding
 * @since 0.1.0
 */
export const writeWkb = (g: Geometry, dims: 2 | 3): Buffer => {
  let size = 0
  const measure = (x: Geometry, header: boolean): void => {
    size += header ? 5 : 0
    if (x.type === "Point") size += 8 * dims
    else if (x.type === "LineString" || x.type === "CircularString") size += 4 + 8 * dims * x.points.length
    else {
      size += 4
      for (const p of x.parts) measure(p, x.type !== "Polygon")
    }
  }
  measure(g, true)
  const out = Buffer.alloc(size)
  let o = 0
  const u32 = (v: number) => {
    o = out.writeUInt32LE(v, o)
  }
  const position = (p: Position) => {
    for (let d = 0; d < dims; d++) o = out.writeDoubleLE(p[d] ?? Number.NaN, o)
  }
  const write = (x: Geometry, header: boolean): void => {
    if (header) {
      o = out.writeUInt8(1, o)
      u32(WKB_TYPE[x.type] + (dims === 3 ? 1000 : 0))
    }
    if (x.type === "Point") position(x.points[0] ?? [])
    else if (x.type === "LineString" || x.type === "CircularString") {
      u32(x.points.length)
      x.points.forEach(position)
    } else {
      u32(x.parts.length)
      for (const p of x.parts) write(p, x.type !== "Polygon")
    }
  }
  write(g, true)
  return out
}

/** GeoJSON as @terraformer/wkt returns it, with its `z` / `m` flags for WKT's `Z` / `M` forms. @category models @since 0.1.0 */
export interface WktGeoJson {
  readonly type: string
  readonly coordinates?: unknown
  readonly geometries?: ReadonlyArray<WktGeoJson>
  readonly properties?: { readonly z?: boolean; readonly m?: boolean }
}

/**
 * The geometry of @terraformer/wkt's GeoJSON: Point, LineString, Polygon, their multi forms and GeometryCollection,
 * 2D, or 3D when any part is marked `Z` (then every position has three coordinates). M coordinates, positions of the
 * wrong length and other types throw; EMPTY geometries come back empty (no points or parts).
 *
 * @category decoding
 * @since 0.1.0
 */
export const fromWktGeoJson = (g: WktGeoJson): DimensionedGeometry => {
  const flagged = (x: WktGeoJson, flag: "z" | "m"): boolean => x.properties?.[flag] === true || (x.geometries ?? []).some((m) => flagged(m, flag))
  if (flagged(g, "m")) throw new Error("geometries with M coordinates have no form here")
  const dims = flagged(g, "z") ? 3 : 2
  const position = (p: unknown): Position => {
    const at = p as ReadonlyArray<number>
    if (at.length !== dims) throw new Error(`a position has ${at.length} coordinates where the geometry has ${dims}`)
    return at
  }
  const line = (c: unknown) => pointsGeometry("LineString", (c as ReadonlyArray<unknown>).map(position))
  const polygon = (c: unknown) => partsGeometry("Polygon", (c as ReadonlyArray<unknown>).map(line))
  const convert = (x: WktGeoJson): Geometry => {
    const c = x.coordinates as ReadonlyArray<unknown>
    switch (x.type) {
      case "Point":
        return pointsGeometry("Point", c.length === 0 ? [] : [position(c)])
      case "LineString":
        return line(c)
      case "Polygon":
        return polygon(c)
      case "MultiPoint":
        return partsGeometry("MultiPoint", c.map((p) => pointsGeometry("Point", [position(p)])))
      case "MultiLineString":
        return partsGeometry("MultiLineString", c.map(line))
      case "MultiPolygon":
        return partsGeometry("MultiPolygon", c.map(polygon))
      case "GeometryCollection":
        return partsGeometry("GeometryCollection", (x.geometries ?? []).map(convert))
      default:
        throw new Error(`a ${x.type} has no form here`)
    }
  }
  return { geometry: convert(g), dims }
}
