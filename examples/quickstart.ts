/**
 * The quickest tour, independent of the database: ingest an Arrow table, read it back as a stream of Arrow record
 * batches, and list the table through GetObjects. Runs unchanged on any driver Layer.
 */
import * as Arrow from "apache-arrow"
import { Console, Effect, Layer, Stream } from "effect"
import { Catalog, Connection, Ingest } from "effect-adbc"
import * as Hana from "effect-adbc/hana"
import * as Oracle from "effect-adbc/oracle"
import { HanaTestServer } from "effect-adbc/testkit/hana"
import { OracleTestServer } from "effect-adbc/testkit/oracle"

/** A small Arrow table of city populations. */
export const cities = new Arrow.Table({
  CITY: Arrow.vectorFromArray(["Walldorf", "Redwood Shores", "Zürich", "東京"], new Arrow.Utf8()),
  POPULATION: Arrow.vectorFromArray([15_000n, 6_000n, 421_000n, 14_000_000n], new Arrow.Int64()),
  AREA_KM2: Arrow.vectorFromArray([19.9, 4.4, 87.9, 2194.1], new Arrow.Float64())
})

/** Ingests {@link cities}, reads them back sorted by population, and returns what was read. */
export const quickstart = Effect.gen(function*() {
  const conn = yield* Connection.Connection
  const inserted = yield* conn.ingest(Ingest.fromTable(cities), { targetTable: "CITIES", mode: "replace" })
  yield* Console.log(`ingested ${inserted} rows into CITIES`)

  const batches = yield* Stream.runCollect(
    conn.query(`SELECT "CITY", "POPULATION", "AREA_KM2" FROM "CITIES" ORDER BY "POPULATION" DESC`)
  )
  const table = new Arrow.Table(batches)
  yield* Console.log(`read ${table.numRows} rows in ${batches.length} Arrow batch(es); schema: ${table.schema.fields.map((f) => `${f.name}: ${f.type}`).join(", ")}`)
  for (const row of table) yield* Console.log(`  ${row.CITY}: ${row.POPULATION} people on ${row.AREA_KM2} km²`)

  const objects = yield* conn.getObjects({ depth: Catalog.ObjectDepth.TABLES, tableName: "CITIES" })
  yield* Console.log(`GetObjects found CITIES in catalog ${String(objects.getChild("catalog_name")?.get(0))}`)
  return table
})

/**
 * A Connection on `driver`: the database its URI variable names (`HANA_URI` or `ORACLE_URI`, with that driver's
 * other options from the same environment) when set, else its test server, started for the program's lifetime.
 */
export const connectionOn = (driver: "hana" | "oracle") => {
  const database = driver === "hana"
    ? process.env["HANA_URI"] !== undefined
      ? Hana.layerDatabaseConfig("HANA_")
      : Layer.unwrap(Effect.map(HanaTestServer, (server) => Hana.layerDatabase({ uri: server.uri }))).pipe(
        Layer.provide(HanaTestServer.layer())
      )
    : process.env["ORACLE_URI"] !== undefined
    ? Oracle.layerDatabaseConfig("ORACLE_")
    : Layer.unwrap(Effect.map(OracleTestServer, (server) => Oracle.layerDatabase({ uri: server.uri }))).pipe(
      Layer.provide(OracleTestServer.layer())
    )
  return Connection.layer().pipe(Layer.provide(database))
}

/** The quickstart on `driver` (HANA unless told). */
export const main = (driver: "hana" | "oracle" = "hana") => quickstart.pipe(Effect.provide(connectionOn(driver)))

// Run as a program (`node quickstart.js [oracle]`, `npx tsx quickstart.ts`): imported, it only defines `main`.
if (import.meta.main) {
  Effect.runPromise(main(process.argv[2] === "oracle" ? "oracle" : "hana")).then(() => process.exit(0), (error: unknown) => {
    console.error(String(error))
    process.exit(1)
  })
}
