/**
 * Catalog browsing: GetInfo (driver and database), GetTableTypes, GetObjects (catalogs → schemas → tables →
 * columns, filtered by LIKE patterns) and GetTableSchema (a table's Arrow schema).
 */
import * as Arrow from "apache-arrow"
import { Console, Effect, Layer } from "effect"
import { Catalog, Connection, Ingest } from "effect-adbc"
import * as Oracle from "effect-adbc/oracle"
import { OracleTestServer } from "effect-adbc/testkit/oracle"

type Row = Record<string, unknown>
const rows = (value: unknown): Array<Row> =>
  value === null || value === undefined ? [] : [...(value as Iterable<{ toJSON(): Row }>)].map((r) => r.toJSON())

/** Creates a table, then browses the catalog down to it; returns what it found. */
export const program = Effect.gen(function*() {
  const conn = yield* Connection.Connection
  yield* conn.ingest(Ingest.fromTable(new Arrow.Table({
    SKU: Arrow.vectorFromArray(["A-1"], new Arrow.Utf8()),
    STOCK: Arrow.vectorFromArray([3], new Arrow.Int32())
  })), { targetTable: "INVENTORY", mode: "replace" })

  const info = yield* conn.getInfo([Catalog.InfoCode.VENDOR_NAME, Catalog.InfoCode.DRIVER_NAME])
  const infoValues = [...(info.getChild("info_value") ?? [])].map(String)
  const types = [...(yield* conn.getTableTypes).getChild("table_type") ?? []].map(String)
  const objects = yield* conn.getObjects({ depth: Catalog.ObjectDepth.ALL, tableName: "INVENTORY" })
  const found = rows(objects).flatMap((catalog) =>
    rows(catalog["catalog_db_schemas"]).flatMap((schema) =>
      rows(schema["db_schema_tables"]).map((table) =>
        `${catalog["catalog_name"]}.${schema["db_schema_name"]}.${table["table_name"]} (${
          rows(table["table_columns"]).map((c) => `${c["column_name"]} ${c["xdbc_type_name"]}`).join(", ")
        })`
      )
    )
  )
  const schema = yield* conn.getTableSchema(undefined, undefined, "INVENTORY")
  yield* Console.log([
    `vendor and driver: ${infoValues.join(", ")}`,
    `table types: ${types.join(", ")}`,
    `GetObjects: ${found.join("; ")}`,
    `GetTableSchema: ${schema.fields.map((f) => `${f.name}: ${f.type}`).join(", ")}`
  ].join("\n"))
  return { infoValues, types, found, schema }
})

// The database: Oracle named by ORACLE_URI (and the other ORACLE_ variables) when set, else the Oracle test server,
// started for the program's lifetime.
const oracle = process.env["ORACLE_URI"] !== undefined
  ? Oracle.layerDatabaseConfig("ORACLE_")
  : Layer.unwrap(Effect.map(OracleTestServer, (server) => Oracle.layerDatabase({ uri: server.uri }))).pipe(
    Layer.provide(OracleTestServer.layer())
  )

/** On Oracle. */
export const main = program.pipe(Effect.provide(Connection.layer().pipe(Layer.provide(oracle))))

// Run as a program (`node example.js`, `npx tsx example.ts`): imported, it only defines `main`.
if (import.meta.main) Effect.runPromise(main).then(() => process.exit(0), (error: unknown) => {
  console.error(String(error))
  process.exit(1)
})
