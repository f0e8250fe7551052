/**
 * Geometry test support: an ISO WKB writer independent of the driver, random geometries of every type, geoarrow fields, batches of an `id` column and one geometry column, and the ingest-then-read
 * round trip through the driver that the geometry tests share.
 */
import { expect } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as fc from "fast-check"
import type { Geometry, GeometryType, Position } from "../../layers/common/Geometry.ts"
import * as Connection from "../../src/Connection.ts"

/** A geoarrow.wkb (binary) or geoarrow.wkt (string, or `type`) field with extension metadata `metadata`. */
export const geoField = (name: string, storage: "wkb" | "wkt", metadata = "{}", type?: Arrow.DataType) =>
  new Arrow.Field(name, type ?? (storage === "wkb" ? new Arrow.Binary() : new Arrow.Utf8()), true, new Map([
    ["ARROW:extension:name", `geoarrow.${storage}`],
    ["ARROW:extension:metadata", metadata]
  ]))

const idField = new Arrow.Field("id", new Arrow.Int32(), false)

/** A batch of `id` (0, 1, ...) and `field` holding `values`. */
export const geometryBatch = (field: Arrow.Field, values: ReadonlyArray<Uint8Array | string | null>) =>
  new Arrow.RecordBatch(new Arrow.Schema([idField, field]), Arrow.makeData({
    type: new Arrow.Struct([idField, field]),
    length: values.length,
    nullCount: 0,
    children: [
      Arrow.vectorFromArray(values.map((_, i) => i), new Arrow.Int32()).data[0]!,
      Arrow.vectorFromArray([...values], field.type).data[0]!
    ]
  }))

/** The values of `column` as hex strings (null stays null). */
export const hexColumn = (table: Arrow.Table, column: string) =>
  (table.getChild(column)!.toArray() as Array<Uint8Array | null>).map((v) => (v === null ? null : Buffer.from(v).toString("hex")))

/** A query's whole result as a table, with extension types. */
export const queryTable = (sql: string) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(Stream.runCollect(conn.query(sql, { "redo.use_extension_type": "true" })), (batches) => new Arrow.Table(batches)))

/**
 * Ingests `values` of `field` into the new table `table` (an SDO_GEOMETRY column) and reads them back as hex WKB
 * (geoarrow.wkb), in row order.
 */
export const ingestAndReadWkb = (table: string, field: Arrow.Field, values: ReadonlyArray<Uint8Array | string | null>) =>
  Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const batch = geometryBatch(field, values)
    expect(yield* conn.ingest({ schema: batch.schema, batches: Stream.make(batch) }, { targetTable: table })).toBe(values.length)
    const type = (yield* conn.getTableSchema(undefined, undefined, table)).fields.find((f) => f.name === field.name)!
    expect(type.metadata.get("oracle.type-name")).toContain("SDO_GEOMETRY")
    const back = yield* queryTable(`SELECT "${field.name}" FROM "${table}" ORDER BY "id"`)
    expect(back.schema.fields[0]!.metadata.get("ARROW:extension:name")).toBe("geoarrow.wkb")
    return hexColumn(back, field.name)
  })

const CODES: Record<GeometryType, number> = {
  Point: 1, LineString: 2, Polygon: 3, MultiPoint: 4, MultiLineString: 5, MultiPolygon: 6, GeometryCollection: 7,
  CircularString: 8, CompoundCurve: 9, CurvePolygon: 10, MultiCurve: 11, MultiSurface: 12
}

/** Little-endian ISO WKB of `g`, written here independently of the driver (Polygon rings have no header). */
export const iso = (g: Geometry, dims: 2 | 3): string => {
  const chunks: Array<Buffer> = []
  const u32 = (v: number) => {
    const b = Buffer.alloc(4)
    b.writeUInt32LE(v)
    chunks.push(b)
  }
  const position = (p: Position) => {
    chunks.push(Buffer.from(new Float64Array(p).buffer))
  }
  const body = (x: Geometry, header: boolean): void => {
    if (header) {
      chunks.push(Buffer.from([1]))
      u32(CODES[x.type] + (dims === 3 ? 1000 : 0))
    }
    if (x.type === "Point") return position(x.points[0]!)
    if (x.type === "LineString" || x.type === "CircularString") {
      u32(x.points.length)
      return x.points.forEach(position)
    }
    u32(x.parts.length)
    x.parts.forEach((p) => body(p, x.type !== "Polygon"))
  }
  body(g, true)
  return Buffer.concat(chunks).toString("hex")
}

/** A Point, LineString or CircularString of 2D points given as x1, y1, x2, y2, ... */
export const pts = (type: "Point" | "LineString" | "CircularString", ...flat: Array<number>): Geometry => {
  const points: Array<Position> = []
  for (let i = 0; i < flat.length; i += 2) points.push([flat[i]!, flat[i + 1]!])
  return { type, points, parts: [] }
}
/** A geometry of parts. */
export const parts = (type: GeometryType, ...members: Array<Geometry>): Geometry => ({ type, points: [], parts: members })

/** Random geometries of every type the mapping takes, in `dims` dimensions (ordinates Oracle NUMBER can hold). */
export const geometryOf = (dims: 2 | 3): fc.Arbitrary<Geometry> => {
  const ordinate = fc.double({ min: -1e9, max: 1e9, noNaN: true }).map((v) => (Math.abs(v) < 1e-100 ? 0 : v))
  const position = fc.array(ordinate, { minLength: dims, maxLength: dims }) as fc.Arbitrary<Position>
  const line = fc.array(position, { minLength: 2, maxLength: 5 }).map((points): Geometry => ({ type: "LineString", points, parts: [] }))
  const arc = fc.integer({ min: 1, max: 3 }).chain((n) => fc.array(position, { minLength: 2 * n + 1, maxLength: 2 * n + 1 }))
    .map((points): Geometry => ({ type: "CircularString", points, parts: [] }))
  // parts joined end to start, as ISO requires
  const compound = fc.array(fc.oneof(line, arc), { minLength: 1, maxLength: 3 }).map((ps): Geometry => {
    const joined = ps.map((p, i) => (i === 0 ? p : { ...p, points: [ps[i - 1]!.points[ps[i - 1]!.points.length - 1]!, ...p.points.slice(1)] }))
    // a part's end is the next one's start: fix the chain left to right
    for (let i = 1; i < joined.length; i++) {
      const prev = joined[i - 1]!.points
      joined[i] = { ...joined[i]!, points: [prev[prev.length - 1]!, ...joined[i]!.points.slice(1)] }
    }
    return parts("CompoundCurve", ...joined)
  })
  const point = position.map((p): Geometry => ({ type: "Point", points: [p], parts: [] }))
  const polygon = fc.array(line, { minLength: 1, maxLength: 3 }).map((rings) => parts("Polygon", ...rings))
  const curved = fc.oneof(arc, compound)
  // a CurvePolygon / MultiCurve / MultiSurface with no arc at all is a Polygon / MultiLineString / MultiPolygon in Oracle
  const curvePolygon = fc.tuple(curved, fc.array(fc.oneof(line, curved), { maxLength: 2 })).map(([first, rest]) => parts("CurvePolygon", first, ...rest))
  const anyCurve = fc.oneof(line, arc, compound)
  return fc.oneof(
    point,
    line,
    arc,
    compound,
    polygon,
    curvePolygon,
    fc.array(point, { minLength: 1, maxLength: 4 }).map((ps) => parts("MultiPoint", ...ps)),
    fc.array(line, { minLength: 1, maxLength: 3 }).map((ls) => parts("MultiLineString", ...ls)),
    fc.tuple(curved, fc.array(anyCurve, { maxLength: 2 })).map(([c, cs]) => parts("MultiCurve", ...cs, c)),
    fc.array(polygon, { minLength: 1, maxLength: 3 }).map((ps) => parts("MultiPolygon", ...ps)),
    fc.tuple(curvePolygon, fc.array(fc.oneof(polygon, curvePolygon), { maxLength: 2 })).map(([c, ps]) => parts("MultiSurface", c, ...ps)),
    fc.array(
      fc.oneof(point, line, arc, compound, polygon, curvePolygon, fc.array(point, { minLength: 2, maxLength: 3 }).map((ps) => parts("MultiPoint", ...ps))),
      { minLength: 1, maxLength: 4 }
    ).map((ms) => parts("GeometryCollection", ...ms))
  )
}
