/**
 * Spatial types of the HANA test server: `ST_GEOMETRY[(srid)]` and `ST_POINT[(srid)]` columns, their constructors
 * (`ST_GeomFromText`, `ST_GeomFromWKB`, `ST_GeomFromEWKB`, `ST_PointFromText`, `NEW ST_Point(x, y [, srid])`,
 * `NEW ST_Point('POINT (x y)' [, srid])`) and methods (`g.ST_AsText()`, `ST_AsWKT`, `ST_AsEWKT`, `ST_AsWKB`,
 * `ST_AsEWKB`, `ST_X`, `ST_Y`, `ST_SRID`, `ST_GeometryType`), after the SAP HANA Spatial Reference ("ST_Geometry
 * Type", "ST_Point Type").
 *
 * Values are stored as little-endian EWKB (the SRID embedded) in a DuckDB BLOB. On the wire a result cell is the
 * geometry's plain WKB, type code ST_GEOMETRY 74 or ST_POINT 75 (hdb lib/protocol/common/ReadFunction.js reads both as
 * raw bytes): a real HANA sends WKB there, as SAP/go-hdb's driver test reads a spatial column back and compares it
 * with the geometry's WKB (driver/datatype_test.go, dttSpatial.run). A parameter of such a column takes WKB or EWKB
 * bytes (hdb lib/protocol/Writer.js writeST_GEOMETRY sends a Buffer, or a hex string, as BINARY).
 */
import { createRequire } from "node:module"
import { BLOB, DOUBLE, INTEGER, VARCHAR, blobValue } from "@duckdb/node-api"
import type { DuckDBBlobValue, DuckDBConnection, DuckDBScalarFunction } from "@duckdb/node-api"
import { fromWktGeoJson, readWkb, writeWkb } from "../../layers/common/Geometry.ts"
import type { DimensionedGeometry, Geometry, WktGeoJson } from "../../layers/common/Geometry.ts"
import { rowwiseFunction as fn } from "../common/scalar-functions.ts"
import { HanaError } from "./errors.ts"
import { matching, sig, tokenize, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"

/** @terraformer/wkt's parser and writer (the package has no typings). */
const wkt = createRequire(import.meta.url)("@terraformer/wkt") as {
  wktToGeoJSON: (text: string) => WktGeoJson
  geojsonToWKT: (g: unknown) => string
}

const SRID_FLAG = 0x20000000

/** A stored geometry: its WKB (no SRID) and SRID (0 when none was given). */
interface Stored {
  readonly wkb: Uint8Array
  readonly srid: number
}

/** Splits EWKB (or plain WKB) into WKB and SRID. Big-endian input is kept as it is. */
export const splitEwkb = (bytes: Uint8Array): Stored => {
  if (bytes.length < 9) return { wkb: bytes, srid: 0 }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const little = bytes[0] === 1
  const type = view.getUint32(1, little)
  if ((type & SRID_FLAG) === 0) return { wkb: bytes, srid: 0 }
  const srid = view.getUint32(5, little)
  const out = new Uint8Array(bytes.length - 4)
  out[0] = bytes[0]!
  const outView = new DataView(out.buffer)
  outView.setUint32(1, type & ~SRID_FLAG, little)
  out.set(bytes.subarray(9), 5)
  return { wkb: out, srid }
}

/** EWKB of WKB with `srid` (plain WKB when srid is 0). */
const toEwkb = (wkb: Uint8Array, srid: number): Buffer => {
  if (srid === 0) return Buffer.from(wkb)
  const little = wkb[0] === 1
  const out = Buffer.alloc(wkb.length + 4)
  out[0] = wkb[0]!
  const type = new DataView(wkb.buffer, wkb.byteOffset, wkb.byteLength).getUint32(1, little)
  if (little) {
    out.writeUInt32LE((type | SRID_FLAG) >>> 0, 1)
    out.writeUInt32LE(srid, 5)
  } else {
    out.writeUInt32BE((type | SRID_FLAG) >>> 0, 1)
    out.writeUInt32BE(srid, 5)
  }
  out.set(wkb.subarray(5), 9)
  return out
}

/** The plain WKB a result cell carries (the SRID, kept in storage, travels with the column, not the value). */
export const wireWkb = (stored: Uint8Array): Uint8Array => splitEwkb(stored).wkb

const parsed = (bytes: Uint8Array): DimensionedGeometry => {
  try {
    return readWkb(splitEwkb(bytes).wkb)
  } catch (e) {
    throw new Error(`invalid spatial value: ${e instanceof Error ? e.message : String(e)}`)
  }
}

const fromText = (text: string, srid: number): Buffer => {
  let g: DimensionedGeometry
  try {
    g = fromWktGeoJson(wkt.wktToGeoJSON(text.trim()))
  } catch (e) {
    throw new Error(`invalid spatial value: ${JSON.stringify(text)} is not well-known text (${e instanceof Error ? e.message : String(e)})`)
  }
  return toEwkb(writeWkb(g.geometry, g.dims), srid)
}

const geoJson = (g: Geometry): unknown => {
  const coords = (x: Geometry): unknown => {
    switch (x.type) {
      case "Point":
        return x.points[0] ?? []
      case "LineString":
        return x.points
      case "Polygon":
      case "MultiLineString":
        return x.parts.map((p) => p.points)
      case "MultiPoint":
        return x.parts.map((p) => p.points[0] ?? [])
      case "MultiPolygon":
        return x.parts.map((p) => p.parts.map((r) => r.points))
      default:
        throw new Error(`ST_AsText of a ${x.type} is not supported by the test server`)
    }
  }
  if (g.type === "GeometryCollection") return { type: g.type, geometries: g.parts.map(geoJson) }
  return { type: g.type, coordinates: coords(g) }
}

/** WKT as HANA prints it (`POINT (1 2)`); an empty point as `POINT EMPTY`. */
const asText = (bytes: Uint8Array): string => {
  const { geometry } = parsed(bytes)
  if (geometry.type === "Point" && geometry.points.length === 0) return "POINT EMPTY"
  return wkt.geojsonToWKT(geoJson(geometry))
}

const point = (bytes: Uint8Array): ReadonlyArray<number> => {
  const { geometry } = parsed(bytes)
  // SAP HANA Spatial Reference, ST_X / ST_Y: methods of ST_Point.
  if (geometry.type !== "Point") throw new Error(`ST_X and ST_Y apply to an ST_Point, not to a ${geometry.type}`)
  return geometry.points[0] ?? [Number.NaN, Number.NaN]
}

const bytesOf = (v: unknown): Uint8Array => (v as DuckDBBlobValue).bytes

const pointOf = (x: number, y: number, srid: number): Buffer => toEwkb(writeWkb({ type: "Point", points: [[x, y]], parts: [] }, 2), srid)

/** The functions the rewritten SQL calls (see {@link rewriteSpatial}). */
const functions = (): Array<DuckDBScalarFunction> => [
  fn("hana_st_geomfromtext", [VARCHAR], BLOB, ([t]) => blobValue(fromText(String(t), 0))),
  fn("hana_st_geomfromtext", [VARCHAR, INTEGER], BLOB, ([t, s]) => blobValue(fromText(String(t), Number(s)))),
  fn("hana_st_geomfromwkb", [BLOB], BLOB, ([b]) => blobValue(Buffer.from(splitEwkb(bytesOf(b)).wkb))),
  fn("hana_st_geomfromwkb", [BLOB, INTEGER], BLOB, ([b, s]) => blobValue(toEwkb(splitEwkb(bytesOf(b)).wkb, Number(s)))),
  fn("hana_st_geomfromewkb", [BLOB], BLOB, ([b]) => {
    parsed(bytesOf(b))
    return blobValue(Buffer.from(bytesOf(b)))
  }),
  fn("hana_st_point", [DOUBLE, DOUBLE], BLOB, ([x, y]) => blobValue(pointOf(Number(x), Number(y), 0))),
  fn("hana_st_point", [DOUBLE, DOUBLE, INTEGER], BLOB, ([x, y, s]) => blobValue(pointOf(Number(x), Number(y), Number(s)))),
  fn("hana_st_astext", [BLOB], VARCHAR, ([b]) => asText(bytesOf(b))),
  fn("hana_st_asewkt", [BLOB], VARCHAR, ([b]) => {
    const srid = splitEwkb(bytesOf(b)).srid
    return `SRID=${srid};${asText(bytesOf(b))}`
  }),
  fn("hana_st_aswkb", [BLOB], BLOB, ([b]) => blobValue(Buffer.from(splitEwkb(bytesOf(b)).wkb))),
  fn("hana_st_asewkb", [BLOB], BLOB, ([b]) => {
    const s = splitEwkb(bytesOf(b))
    return blobValue(toEwkb(s.wkb, s.srid))
  }),
  fn("hana_st_x", [BLOB], DOUBLE, ([b]) => point(bytesOf(b))[0]!),
  fn("hana_st_y", [BLOB], DOUBLE, ([b]) => point(bytesOf(b))[1]!),
  fn("hana_st_srid", [BLOB], INTEGER, ([b]) => splitEwkb(bytesOf(b)).srid),
  fn("hana_st_geometrytype", [BLOB], VARCHAR, ([b]) => `ST_${parsed(bytesOf(b)).geometry.type}`)
]

/** Registers the spatial functions in the database `connection` belongs to. */
export const registerSpatialFunctions = (connection: DuckDBConnection): void => {
  for (const f of functions()) connection.registerScalarFunction(f)
}

/** Constructor functions (called by name) and the function each becomes. */
const CONSTRUCTORS: ReadonlyMap<string, string> = new Map([
  ["ST_GEOMFROMTEXT", "hana_st_geomfromtext"],
  ["ST_POINTFROMTEXT", "hana_st_geomfromtext"],
  ["ST_GEOMFROMWKT", "hana_st_geomfromtext"],
  ["ST_GEOMFROMWKB", "hana_st_geomfromwkb"],
  ["ST_GEOMFROMEWKB", "hana_st_geomfromewkb"]
])

/** Methods (`value.ST_X()`) and the function each becomes. */
const METHODS: ReadonlyMap<string, string> = new Map([
  ["ST_ASTEXT", "hana_st_astext"],
  ["ST_ASWKT", "hana_st_astext"],
  ["ST_ASEWKT", "hana_st_asewkt"],
  ["ST_ASWKB", "hana_st_aswkb"],
  ["ST_ASBINARY", "hana_st_aswkb"],
  ["ST_ASEWKB", "hana_st_asewkb"],
  ["ST_X", "hana_st_x"],
  ["ST_Y", "hana_st_y"],
  ["ST_SRID", "hana_st_srid"],
  ["ST_GEOMETRYTYPE", "hana_st_geometrytype"]
])

const isOp = (t: Token | undefined, v: string): boolean => t !== undefined && t.t === "op" && t.v === v

/** Index of the `(` matching the `)` at tokens[close]. */
const openingOf = (tokens: readonly Token[], close: number): number => {
  let depth = 0
  for (let j = close; j >= 0; j--) {
    if (isOp(tokens[j], ")")) depth++
    else if (isOp(tokens[j], "(")) {
      depth--
      if (depth === 0) return j
    }
  }
  throw HanaError.syntax("unbalanced parentheses", 0)
}

/** Start (token index) of the operand that ends at tokens[end]: a dotted name, or a call / parenthesized group. */
const operandStart = (tokens: readonly Token[], end: number): number => {
  let i = end
  if (isOp(tokens[i], ")")) {
    i = openingOf(tokens, i)
    if (tokens[i - 1]?.t === "word" || tokens[i - 1]?.t === "qident") {
      i--
      if (upper(tokens[i - 1]) === "NEW") i--
    }
    return i
  }
  while (isOp(tokens[i - 1], ".") && (tokens[i - 2]?.t === "word" || tokens[i - 2]?.t === "qident")) i -= 2
  return i
}

/**
 * Rewrites HANA's spatial syntax into calls of the functions above: `ST_GeomFromText(…)` → `hana_st_geomfromtext(…)`,
 * `NEW ST_Point(…)` → `hana_st_point(…)` (a WKT argument → `hana_st_geomfromtext`), `x.ST_AsText()` →
 * `hana_st_astext(x)`. SQL without `ST_` is returned as it is.
 */
export const rewriteSpatial = (sql: string): string => {
  if (!/ST_/i.test(sql)) return sql
  let text = sql
  // One construct per pass, innermost first in text order, until none is left.
  for (let guard = 0; guard < 1000; guard++) {
    const tokens = sig(tokenize(text))
    const step = rewriteOne(text, tokens)
    if (step === undefined) return text
    text = step
  }
  throw HanaError.syntax("too many spatial expressions", 0)
}

const rewriteOne = (text: string, tokens: readonly Token[]): string | undefined => {
  for (let i = 0; i < tokens.length; i++) {
    const name = upper(tokens[i])
    if (!name.startsWith("ST_") || !isOp(tokens[i + 1], "(")) continue
    const close = matching(tokens, i + 1)
    const method = METHODS.get(name)
    if (method !== undefined && isOp(tokens[i - 1], ".")) {
      if (close !== i + 2) throw HanaError.unsupported(`${tokens[i]!.v} with arguments`)
      const start = operandStart(tokens, i - 2)
      const operand = text.slice(tokens[start]!.pos!, tokens[i - 2]!.end!)
      return `${text.slice(0, tokens[start]!.pos!)}${method}(${operand})${text.slice(tokens[close]!.end!)}`
    }
    const isNew = upper(tokens[i - 1]) === "NEW"
    const from = isNew ? i - 1 : i
    let target = CONSTRUCTORS.get(name)
    // Without NEW, ST_POINT(…) and ST_GEOMETRY(…) are column types with an SRID (`p ST_POINT(4326)`).
    if (name === "ST_POINT" && isNew) target = tokens[i + 2]?.t === "string" ? "hana_st_geomfromtext" : "hana_st_point"
    if (name === "ST_GEOMETRY" && isNew) target = "hana_st_geomfromtext"
    if (target === undefined) {
      if (method !== undefined) throw HanaError.syntax(`${tokens[i]!.v} is a method: write value.${tokens[i]!.v}()`, tokens[i]!.pos ?? 0)
      continue
    }
    return `${text.slice(0, tokens[from]!.pos!)}${target}(${text.slice(tokens[i + 1]!.end!, tokens[close]!.pos!)})${text.slice(tokens[close]!.end!)}`
  }
  return undefined
}
