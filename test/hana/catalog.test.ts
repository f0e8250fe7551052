import { describe, expect, it } from "@effect/vitest"
import type * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import { InfoCode, ObjectDepth } from "../../src/catalog/index.ts"
import * as Connection from "../../src/Connection.ts"
import { batchRows } from "../catalog/arrowPlain.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

interface PlainSchema {
  db_schema_name: string
  db_schema_tables: Array<{
    table_name: string
    table_type: string
    table_columns: Array<Record<string, unknown>> | null
    table_constraints: Array<Record<string, unknown>> | null
  }> | null
}
interface PlainCatalog {
  catalog_name: string
  catalog_db_schemas: Array<PlainSchema> | null
}

const objects = (batch: Arrow.RecordBatch) => batchRows(batch) as unknown as Array<PlainCatalog>

const setupSchema = Effect.gen(function*() {
  const conn = yield* Connection.Connection
  const schema = uniqueName("CAT")
  yield* conn.execute(`CREATE SCHEMA "${schema}"`)
  yield* conn.execute(`CREATE TABLE "${schema}"."ORDERS" ("ID" INTEGER NOT NULL PRIMARY KEY, "Note" NVARCHAR(20), AMOUNT DECIMAL(10,2))`)
  yield* conn.execute(`CREATE TABLE "${schema}"."MixedCase" (A INTEGER)`)
  yield* conn.execute(`CREATE VIEW "${schema}"."V_ORDERS" AS SELECT "ID" FROM "${schema}"."ORDERS"`)
  return schema
})

describe("catalog", () => {
  it.effect("GetObjects at every depth: one catalog db, SYS and _SYS_* hidden, TABLE and VIEW", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const schema = yield* setupSchema
      const catalogs = objects(yield* conn.getObjects({ depth: ObjectDepth.CATALOGS }))
      expect(catalogs).toEqual([{ catalog_name: "db", catalog_db_schemas: null }])

      const schemas = objects(yield* conn.getObjects({ depth: ObjectDepth.DB_SCHEMAS }))
      const names = schemas[0]!.catalog_db_schemas!.map((s) => s.db_schema_name)
      expect(names).toContain(schema)
      expect(names.filter((n) => n === "SYS" || n.startsWith("_SYS_"))).toEqual([])
      expect(schemas[0]!.catalog_db_schemas!.every((s) => s.db_schema_tables === null)).toBe(true)

      const tables = objects(yield* conn.getObjects({ depth: ObjectDepth.TABLES, dbSchema: schema }))
      const listed = tables[0]!.catalog_db_schemas![0]!.db_schema_tables!
      expect(listed.map((t) => [t.table_name, t.table_type, t.table_columns])).toEqual([
        ["MixedCase", "TABLE", null],
        ["ORDERS", "TABLE", null],
        ["V_ORDERS", "VIEW", null]
      ])

      const views = objects(yield* conn.getObjects({ depth: ObjectDepth.TABLES, dbSchema: schema, tableTypes: ["VIEW"] }))
      expect(views[0]!.catalog_db_schemas![0]!.db_schema_tables!.map((t) => t.table_name)).toEqual(["V_ORDERS"])

      const all = objects(yield* conn.getObjects({ depth: ObjectDepth.ALL, dbSchema: schema, tableName: "ORD%" }))
      const orders = all[0]!.catalog_db_schemas![0]!.db_schema_tables!.find((t) => t.table_name === "ORDERS")!
      expect(orders.table_columns!.map((c) => [c["column_name"], c["ordinal_position"], c["xdbc_type_name"], c["xdbc_is_nullable"]])).toEqual([
        ["ID", 1, "INTEGER", "NO"],
        ["Note", 2, "NVARCHAR", "YES"],
        ["AMOUNT", 3, "DECIMAL", "YES"]
      ])
      expect(orders.table_constraints!.map((c) => [c["constraint_type"], c["constraint_column_names"]])).toEqual([
        ["PRIMARY KEY", ["ID"]]
      ])
      const filtered = objects(
        yield* conn.getObjects({ depth: ObjectDepth.ALL, dbSchema: schema, tableName: "ORDERS", columnName: "N%" })
      )
      expect(filtered[0]!.catalog_db_schemas![0]!.db_schema_tables![0]!.table_columns!.map((c) => [c["column_name"], c["ordinal_position"]]))
        .toEqual([["Note", 2]])
      yield* conn.execute(
        `CREATE TABLE "${schema}"."LINES" ("ORDER_ID" INTEGER, "N" INTEGER, FOREIGN KEY ("ORDER_ID") REFERENCES "${schema}"."ORDERS" ("ID"))`
      )
      const lines = objects(yield* conn.getObjects({ depth: ObjectDepth.ALL, dbSchema: schema, tableName: "LINES" }))
      const fk = lines[0]!.catalog_db_schemas![0]!.db_schema_tables![0]!.table_constraints!
      expect(fk.map((c) => [c["constraint_type"], c["constraint_column_names"], c["constraint_column_usage"]])).toEqual([
        ["FOREIGN KEY", ["ORDER_ID"], [{ fk_catalog: "db", fk_db_schema: schema, fk_table: "ORDERS", fk_column_name: "ID" }]]
      ])
      const otherCatalog = objects(yield* conn.getObjects({ depth: ObjectDepth.ALL, catalog: "other" }))
      expect(otherCatalog).toEqual([])
    })))

  it.effect("GetObjects lists CHECK constraints with their columns beside PRIMARY KEY and UNIQUE", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const schema = uniqueName("CHK")
      yield* conn.execute(`CREATE SCHEMA "${schema}"`)
      yield* conn.execute(`CREATE TABLE "${schema}"."T" (ID INTEGER PRIMARY KEY, QTY INTEGER, LO INTEGER, HI INTEGER, NAME NVARCHAR(10), CODE VARCHAR(5) UNIQUE, CHECK (QTY > 0), CHECK (LO <= HI))`)
      const found = objects(yield* conn.getObjects({ depth: ObjectDepth.ALL, dbSchema: schema, tableName: "T" }))[0]!
        .catalog_db_schemas![0]!.db_schema_tables![0]!.table_constraints!
      const listed = found.map((c) => [c["constraint_type"], [...(c["constraint_column_names"] as Array<string>)].sort(), c["constraint_column_usage"]])
      expect(listed.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
        ["CHECK", ["HI", "LO"], null],
        ["CHECK", ["QTY"], null],
        ["PRIMARY KEY", ["ID"], null],
        ["UNIQUE", ["CODE"], null]
      ])
    })))

  it.effect("mixed-case rule: names match exactly as stored (unquoted names are stored upper case)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const schema = yield* setupSchema
      const lower = objects(yield* conn.getObjects({ depth: ObjectDepth.TABLES, dbSchema: schema, tableName: "orders" }))
      expect(lower[0]!.catalog_db_schemas![0]!.db_schema_tables).toEqual([])
      const mixed = objects(yield* conn.getObjects({ depth: ObjectDepth.TABLES, dbSchema: schema, tableName: "MixedCase" }))
      expect(mixed[0]!.catalog_db_schemas![0]!.db_schema_tables!.map((t) => t.table_name)).toEqual(["MixedCase"])
      const upper = objects(yield* conn.getObjects({ depth: ObjectDepth.TABLES, dbSchema: schema, tableName: "MIXEDCASE" }))
      expect(upper[0]!.catalog_db_schemas![0]!.db_schema_tables).toEqual([])
      const notFound = yield* Effect.flip(conn.getTableSchema(undefined, schema, "MIXEDCASE"))
      expect(notFound.status).toBe("NOT_FOUND")
      const found = yield* conn.getTableSchema(undefined, schema, "MixedCase")
      expect(found.fields.map((f) => f.name)).toEqual(["A"])
    })))

  it.effect("local temporary tables of this connection are listed as TABLE with their # name and columns", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const name = `#${uniqueName("TT")}`
      yield* conn.execute(`CREATE LOCAL TEMPORARY TABLE "${name}" (K INTEGER, V NVARCHAR(10))`)
      const current = yield* conn.getOption("adbc.connection.db_schema")
      const all = objects(yield* conn.getObjects({ depth: ObjectDepth.ALL, tableName: name }))
      const schemas = all[0]!.catalog_db_schemas!.filter((s) => (s.db_schema_tables ?? []).length > 0)
      expect(schemas.map((s) => s.db_schema_name)).toEqual([current])
      const table = schemas[0]!.db_schema_tables![0]!
      expect(table.table_name).toBe(name)
      expect(table.table_type).toBe("TABLE")
      expect(table.table_columns!.map((c) => c["column_name"])).toEqual(["K", "V"])
    })))

  it.effect("current schema get/set (SET SCHEMA); catalog is db and read-only; table schema and types; info", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const schema = yield* setupSchema
      expect(yield* conn.getOption("adbc.connection.catalog")).toBe("db")
      const setCatalog = yield* Effect.flip(conn.setOption("adbc.connection.catalog", "db2"))
      expect(setCatalog.status).toBe("NOT_IMPLEMENTED")
      yield* conn.setOption("adbc.connection.db_schema", schema)
      expect(yield* conn.getOption("adbc.connection.db_schema")).toBe(schema)
      const rows = yield* Stream.runCollect(conn.query("SELECT COUNT(*) AS C FROM ORDERS"))
      expect(Number(rows[0]!.getChild("C")!.get(0))).toBe(0)
      const ts = yield* conn.getTableSchema("db", schema, "ORDERS")
      expect(ts.fields.map((f) => [f.name, String(f.type), f.nullable])).toEqual([
        ["ID", "Int32", false],
        ["Note", "Utf8", true],
        ["AMOUNT", "Decimal[10e+2]", true]
      ])
      const wrongCatalog = yield* Effect.flip(conn.getTableSchema("other", schema, "ORDERS"))
      expect(wrongCatalog.status).toBe("NOT_FOUND")
      const types = batchRows(yield* conn.getTableTypes).map((r) => r["table_type"])
      expect(types).toEqual(["TABLE", "VIEW"])
      const info = batchRows(yield* conn.getInfo([InfoCode.VENDOR_NAME, InfoCode.DRIVER_NAME]))
      expect(info.map((r) => r["info_name"])).toEqual([InfoCode.VENDOR_NAME, InfoCode.DRIVER_NAME])
      expect(JSON.stringify(info)).toContain("SAP HANA")
    })))

  it.effect("defaultSchema URI parameter sets the initial schema", () =>
    Effect.gen(function*() {
      const schema = yield* withConnection(server.uri, setupSchema)
      const sep = server.uri.includes("?") ? "&" : "?"
      const current = yield* withConnection(
        `${server.uri}${sep}defaultSchema=${encodeURIComponent(schema)}`,
        Effect.flatMap(Connection.Connection, (conn) => conn.getOption("adbc.connection.db_schema"))
      )
      expect(current).toBe(schema)
    }))
})
