/**
 * Geometry test support: geoarrow fields, batches of an `id` column and one geometry column, and the ingest-then-read
 * round trip through the driver that the geometry tests share.
 */
import { expect } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
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
