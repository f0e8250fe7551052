/**
 * One Effect program, two databases: `report` names no database; it runs once with the HANA Layer and once with
 * the Oracle Layer, and both give the same answer.
 */
import * as Arrow from "apache-arrow"
import { Console, Effect, Layer, Stream } from "effect"
import { Connection, Ingest } from "effect-adbc"
import * as Hana from "effect-adbc/hana"
import { HanaTestServer } from "effect-adbc/testkit/hana"
import * as Oracle from "effect-adbc/oracle"
import { OracleTestServer } from "effect-adbc/testkit/oracle"

const orders = new Arrow.Table({
  REGION: Arrow.vectorFromArray(["EMEA", "APJ", "EMEA", "AMER"], new Arrow.Utf8()),
  AMOUNT: Arrow.vectorFromArray([120, 80, 45, 300], new Arrow.Int32())
})

/** Loads the orders and totals them per region; needs only a Connection. */
export const report = Effect.gen(function*() {
  const conn = yield* Connection.Connection
  yield* conn.ingest(Ingest.fromTable(orders), { targetTable: "ORDERS", mode: "replace" })
  const batches = yield* Stream.runCollect(
    conn.query(`SELECT "REGION", SUM("AMOUNT") AS "TOTAL" FROM "ORDERS" GROUP BY "REGION" ORDER BY "REGION"`)
  )
  const totals = new Arrow.Table(batches).toArray().map((r) => `${r.REGION}=${Number(r.TOTAL)}`)
  yield* Console.log(`${conn.driverName}: ${totals.join(", ")}`)
  return totals
})

// The database: HANA named by HANA_URI (and the other HANA_ variables) when set, else the HANA test server,
// started for the program's lifetime.
const hana = process.env["HANA_URI"] !== undefined
  ? Hana.layerDatabaseConfig("HANA_")
  : Layer.unwrap(Effect.map(HanaTestServer, (server) => Hana.layerDatabase({ uri: server.uri }))).pipe(
    Layer.provide(HanaTestServer.layer())
  )

// The database: Oracle named by ORACLE_URI (and the other ORACLE_ variables) when set, else the Oracle test server,
// started for the program's lifetime.
const oracle = process.env["ORACLE_URI"] !== undefined
  ? Oracle.layerDatabaseConfig("ORACLE_")
  : Layer.unwrap(Effect.map(OracleTestServer, (server) => Oracle.layerDatabase({ uri: server.uri }))).pipe(
    Layer.provide(OracleTestServer.layer())
  )

/** The same program on both Layers. */
export const main = Effect.all([
  report.pipe(Effect.provide(Connection.layer().pipe(Layer.provide(hana)))),
  report.pipe(Effect.provide(Connection.layer().pipe(Layer.provide(oracle))))
])

// Run as a program (`node example.js`, `npx tsx example.ts`): imported, it only defines `main`.
if (import.meta.main) Effect.runPromise(main).then(() => process.exit(0), (error: unknown) => {
  console.error(String(error))
  process.exit(1)
})
