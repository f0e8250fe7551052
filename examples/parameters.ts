/**
 * Binding parameters: a prepared statement runs with Arrow parameter rows (column i is parameter i), once for a
 * query and once as a batched INSERT of several rows in one execution.
 */
import * as Arrow from "apache-arrow"
import { Console, Effect, Layer, Stream } from "effect"
import { Connection } from "effect-adbc"
import * as Hana from "effect-adbc/hana"
import { HanaTestServer } from "effect-adbc/testkit/hana"

/** Inserts three rows through one bound batch, then selects with a bound bound. */
export const program = Effect.gen(function*() {
  const conn = yield* Connection.Connection
  yield* conn.execute(`CREATE TABLE "PRODUCTS" ("NAME" NVARCHAR(40), "PRICE" DECIMAL(10,2))`).pipe(Effect.ignore)
  yield* conn.execute(`DELETE FROM "PRODUCTS"`)

  const insert = yield* conn.statement()
  yield* insert.setSqlQuery(`INSERT INTO "PRODUCTS" VALUES (?, ?)`)
  yield* insert.bind(new Arrow.Table({
    NAME: Arrow.vectorFromArray(["pen", "lamp", "desk"], new Arrow.Utf8()),
    PRICE: Arrow.vectorFromArray([1.5, 24.9, 199], new Arrow.Float64())
  }))
  const inserted = yield* insert.executeUpdate

  const select = yield* conn.statement()
  yield* select.setSqlQuery(`SELECT "NAME" FROM "PRODUCTS" WHERE "PRICE" > ? ORDER BY "PRICE"`)
  yield* select.bind(new Arrow.Table({ MIN: Arrow.vectorFromArray([10], new Arrow.Float64()) }))
  const names = yield* Effect.scoped(Effect.flatMap(select.executeQuery, (reader) => Stream.runCollect(reader.batches))).pipe(
    Effect.map((batches) => new Arrow.Table(batches).toArray().map((r) => String(r.NAME)))
  )
  yield* Console.log(`inserted ${inserted} rows with one bound batch; priced above 10: ${names.join(", ")}`)
  return { inserted, names }
}).pipe(Effect.scoped)

// The database: HANA named by HANA_URI (and the other HANA_ variables) when set, else the HANA test server,
// started for the program's lifetime.
const hana = process.env["HANA_URI"] !== undefined
  ? Hana.layerDatabaseConfig("HANA_")
  : Layer.unwrap(Effect.map(HanaTestServer, (server) => Hana.layerDatabase({ uri: server.uri }))).pipe(
    Layer.provide(HanaTestServer.layer())
  )

/** On HANA (`?` placeholders; Oracle takes `:1, :2`). */
export const main = program.pipe(Effect.provide(Connection.layer().pipe(Layer.provide(hana))))

// Run as a program (`node example.js`, `npx tsx example.ts`): imported, it only defines `main`.
if (import.meta.main) Effect.runPromise(main).then(() => process.exit(0), (error: unknown) => {
  console.error(String(error))
  process.exit(1)
})
