/** ADBC rules of the catalog calls: GetInfo, GetObjects, GetTableTypes and GetTableSchema shapes. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { GET_INFO_SCHEMA, GET_OBJECTS_SCHEMA, InfoCode, ObjectDepth } from "../../../src/catalog/index.ts"
import * as Connection from "../../../src/Connection.ts"
import { fromTable } from "../../../src/Ingest.ts"
import { type ConformanceDriver, type ConformanceEnv, failure, numbers, uniqueTable } from "../harness.ts"

export const catalogRules = (driver: ConformanceDriver, env: () => ConformanceEnv) =>
  describe(`${driver.name}: catalog`, () => {
    it.effect("GetInfo has the ADBC schema, the driver's name and skips unknown codes", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const info = yield* conn.getInfo([InfoCode.VENDOR_NAME, InfoCode.DRIVER_NAME, 9999])
        expect(info.schema.fields.map(String)).toEqual(GET_INFO_SCHEMA.fields.map(String))
        expect(info.numRows).toBe(2)
        const values = new Map(
          Array.from({ length: info.numRows }, (_, i) => [info.getChild("info_name")!.get(i), info.getChild("info_value")!.get(i)])
        )
        expect(values.get(InfoCode.DRIVER_NAME)).toBe(`effect-adbc ${driver.name}`)
        expect(typeof values.get(InfoCode.VENDOR_NAME)).toBe("string")
      }).pipe(Effect.provide(env().layer())))

    it.effect("GetObjects has the ADBC schema, finds an ingested table and rejects a bad depth", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueTable("CAT")
        yield* conn.ingest(fromTable(numbers(1)), { targetTable: t })
        const objects = yield* conn.getObjects({ depth: ObjectDepth.ALL, tableName: t })
        expect(objects.schema.fields.map(String)).toEqual(GET_OBJECTS_SCHEMA.fields.map(String))
        const catalogs = objects.toArray().map((row) => row.toJSON() as { catalog_name: string })
        expect(catalogs.map((c) => c.catalog_name)).toContain(driver.catalog)
        expect(JSON.stringify(objects.toArray().map((row) => row.toJSON()))).toContain(t)
        expect(failure(yield* Effect.exit(conn.getObjects({ depth: 7 as ObjectDepth }))).status).toBe("INVALID_ARGUMENT")
      }).pipe(Effect.provide(env().layer())))

    it.effect("GetTableTypes lists the driver's table types; GetTableSchema describes a table or fails NOT_FOUND", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const types = yield* conn.getTableTypes
        expect([...types.getChild("table_type")!.toArray()]).toEqual([...driver.tableTypes])
        const t = uniqueTable("CAT")
        yield* conn.ingest(fromTable(numbers(1)), { targetTable: t })
        const schema = yield* conn.getTableSchema(undefined, undefined, t)
        expect(schema.fields.map((f) => f.name)).toEqual(["id", "name"])
        expect(String(schema.fields[0]!.type)).toBe(driver.ingestedTypes.id)
        expect(String(schema.fields[1]!.type)).toBe(driver.ingestedTypes.name)
        const missing = failure(yield* Effect.exit(conn.getTableSchema(undefined, undefined, uniqueTable("NOPE"))))
        expect(missing.status).toBe("NOT_FOUND")
      }).pipe(Effect.provide(env().layer())))
  })
