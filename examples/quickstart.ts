/**
 * The quickest tour, independent of the database: ingest an Arrow table, read it back as a stream of Arrow record
 * batches, and list the table through GetObjects. Runs unchanged on any driver Layer.
 */
import * as Arrow from "apache-arrow"
import { Console, Effect, Stream } from "effect"
import { ObjectDepth } from "../src/catalog/index.ts"
import { Connection } from "../src/Connection.ts"
import { fromTable } from "../src/Ingest.ts"

/** A small Arrow table of city populations. */
export const cities = new Arrow.Table({
  CITY: Arrow.vectorFromArray(["Walldorf", "Redwood Shores", "Zürich", "東京"], new Arrow.Utf8()),
  POPULATION: Arrow.vectorFromArray([15_000n, 6_000n, 421_000n, 14_000_000n], new Arrow.Int64()),
  AREA_KM2: Arrow.vectorFromArray([19.9, 4.4, 87.9, 2194.1], new Arrow.Float64())
})

/** Ingests {@link cities}, reads them back sorted by population, and returns what was read. */
export const quickstart = Effect.gen(function*() {
  const conn = yield* Connection
  const inserted = yield* conn.ingest(fromTable(cities), { targetTable: "CITIES", mode: "replace" })
  yield* Console.log(`ingested ${inserted} rows into CITIES`)

  const batches = yield* Stream.runCollect(
    conn.query(`SELECT "CITY", "POPULATION", "AREA_KM2" FROM "CITIES" ORDER BY "POPULATION" DESC`)
  )
  const table = new Arrow.Table(batches)
  yield* Console.log(`read ${table.numRows} rows in ${batches.length} Arrow batch(es); schema: ${table.schema.fields.map((f) => `${f.name}: ${f.type}`).join(", ")}`)
  for (const row of table) yield* Console.log(`  ${row.CITY}: ${row.POPULATION} people on ${row.AREA_KM2} km²`)

  const objects = yield* conn.getObjects({ depth: ObjectDepth.TABLES, tableName: "CITIES" })
  yield* Console.log(`GetObjects found CITIES in catalog ${String(objects.getChild("catalog_name")?.get(0))}`)
  return table
})
