import { describe, expect, it } from "@effect/vitest"
import type * as Arrow from "apache-arrow"
import { Effect } from "effect"
import { ObjectDepth } from "../../src/catalog/index.ts"
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

describe("catalog", () => {
  it.effect("GetObjects: the current pluggable database is the only catalog, users are its schemas", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const schema = yield* conn.getOption("adbc.connection.db_schema")
      const orders = uniqueName("ORDERS")
      yield* conn.execute(`CREATE TABLE ${orders} (ID NUMBER(10) NOT NULL PRIMARY KEY, "Note" NVARCHAR2(20), AMOUNT NUMBER(10,2))`)
      yield* conn.execute(`CREATE VIEW V_${orders} AS SELECT ID FROM ${orders}`)
      const catalog = yield* conn.getOption("adbc.connection.catalog")
      expect(catalog).toBe(server.server?.serviceName ?? catalog)
      const catalogs = objects(yield* conn.getObjects({ depth: ObjectDepth.CATALOGS }))
      expect(catalogs.map((c) => c.catalog_name)).toEqual([catalog])
      const schemas = objects(yield* conn.getObjects({ depth: ObjectDepth.DB_SCHEMAS }))
      expect(schemas[0]!.catalog_db_schemas!.map((s) => s.db_schema_name)).toContain(schema)
      const tables = objects(yield* conn.getObjects({ depth: ObjectDepth.TABLES, dbSchema: schema, tableName: `%${orders}` }))
      const listed = tables[0]!.catalog_db_schemas!.flatMap((s) => s.db_schema_tables ?? []).map((t) => [t.table_name, t.table_type])
      expect(listed.sort()).toEqual([[orders, "TABLE"], [`V_${orders}`, "VIEW"]])
      const all = objects(yield* conn.getObjects({ depth: ObjectDepth.ALL, dbSchema: schema, tableName: orders }))
      const table = all[0]!.catalog_db_schemas![0]!.db_schema_tables![0]!
      expect(table.table_columns!.map((c) => [c["column_name"], c["ordinal_position"], c["xdbc_type_name"], c["xdbc_is_nullable"]])).toEqual([
        ["ID", 1, "NUMBER", "NO"],
        ["Note", 2, "NVARCHAR2", "YES"],
        ["AMOUNT", 3, "NUMBER", "YES"]
      ])
      expect(table.table_constraints!.map((c) => [c["constraint_type"], c["constraint_column_names"]])).toEqual([["PRIMARY KEY", ["ID"]]])
      const other = objects(yield* conn.getObjects({ depth: ObjectDepth.ALL, catalog: "OTHER" }))
      expect(other[0]?.catalog_db_schemas ?? null).toBeNull()
    })))

  it.effect("GetObjects constraints: FOREIGN KEY with the referenced table and columns, UNIQUE, PRIMARY KEY over two columns", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const schema = yield* conn.getOption("adbc.connection.db_schema")
      const parent = uniqueName("PARENT")
      const child = uniqueName("CHILD")
      yield* conn.execute(`CREATE TABLE ${parent} (A NUMBER(10) NOT NULL, B NUMBER(10) NOT NULL, CODE VARCHAR2(10), PRIMARY KEY (A, B), UNIQUE (CODE))`)
      yield* conn.execute(`CREATE TABLE ${child} (ID NUMBER(10), PA NUMBER(10), PB NUMBER(10), FOREIGN KEY (PA, PB) REFERENCES ${parent} (A, B))`)
      const constraintsOf = (table: string) =>
        Effect.map(conn.getObjects({ depth: ObjectDepth.ALL, dbSchema: schema, tableName: table }), (batch) => {
          const found = objects(batch)[0]!.catalog_db_schemas![0]!.db_schema_tables![0]!.table_constraints ?? []
          return found.map((c) => [c["constraint_type"], c["constraint_column_names"], c["constraint_column_usage"]])
        })
      const catalog = yield* conn.getOption("adbc.connection.catalog")
      expect((yield* constraintsOf(parent)).sort((x, y) => String(x[0]).localeCompare(String(y[0])))).toEqual([
        ["PRIMARY KEY", ["A", "B"], null],
        ["UNIQUE", ["CODE"], null]
      ])
      expect(yield* constraintsOf(child)).toEqual([[
        "FOREIGN KEY",
        ["PA", "PB"],
        [
          { fk_catalog: catalog, fk_db_schema: schema, fk_table: parent, fk_column_name: "A" },
          { fk_catalog: catalog, fk_db_schema: schema, fk_table: parent, fk_column_name: "B" }
        ]
      ]])
    })))

  it.effect("GetObjects constraints: CHECK with the columns its condition names; NOT NULL constraints are not listed", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const schema = yield* conn.getOption("adbc.connection.db_schema")
      const t = uniqueName("CHK")
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(10) PRIMARY KEY, QTY NUMBER(5) NOT NULL CONSTRAINT ${t}_QTY CHECK (QTY > 0), LO NUMBER(5), HI NUMBER(5), CONSTRAINT ${t}_RANGE CHECK (LO <= HI))`)
      const batch = yield* conn.getObjects({ depth: ObjectDepth.ALL, dbSchema: schema, tableName: t })
      const found = objects(batch)[0]!.catalog_db_schemas![0]!.db_schema_tables![0]!.table_constraints ?? []
      // a check constraint's columns come in the dictionary's order, which Oracle does not define: compared sorted
      const listed = found.map((c) => [c["constraint_name"], c["constraint_type"], [...(c["constraint_column_names"] as Array<string>)].sort(), c["constraint_column_usage"]])
      expect(listed.filter((c) => c[1] === "CHECK").sort((x, y) => String(x[0]).localeCompare(String(y[0])))).toEqual([
        [`${t}_QTY`, "CHECK", ["QTY"], null],
        [`${t}_RANGE`, "CHECK", ["HI", "LO"], null]
      ])
      expect(listed.map((c) => c[1]).sort()).toEqual(["CHECK", "CHECK", "PRIMARY KEY"])
    })))

  it.effect("GetTableSchema, current schema get/set, read-only catalog", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const schema = yield* conn.getOption("adbc.connection.db_schema")
      const t = uniqueName("TS")
      yield* conn.execute(`CREATE TABLE ${t} (A NUMBER(10,2) NOT NULL, "b" VARCHAR2(5))`)
      const ts = yield* conn.getTableSchema(undefined, schema, t)
      expect(ts.fields.map((f) => [f.name, String(f.type), f.nullable, f.metadata.get("oracle.type-name")])).toEqual([
        ["A", "Decimal[10e+2]", false, "NUMBER(10,2)"],
        ["b", "Utf8", true, "VARCHAR2(5)"]
      ])
      expect((yield* Effect.flip(conn.getTableSchema(undefined, schema, t.toLowerCase()))).status).toBe("NOT_FOUND")
      expect((yield* Effect.flip(conn.getTableSchema("OTHER", schema, t))).status).toBe("NOT_FOUND")
      expect((yield* Effect.flip(conn.setOption("adbc.connection.catalog", "X"))).status).toBe("NOT_IMPLEMENTED")
      yield* conn.setOption("adbc.connection.db_schema", "SYS")
      expect(yield* conn.getOption("adbc.connection.db_schema")).toBe("SYS")
      yield* conn.setOption("adbc.connection.db_schema", schema)
      expect(yield* conn.getOption("adbc.connection.db_schema")).toBe(schema)
    })))
})
