/**
 * One Effect program, two databases: `report` names no database; it runs once with the HANA Layer and once with
 * the Oracle Layer, and both give the same answer.
 */
import * as Arrow from "apache-arrow"
import { Console, Effect, Stream } from "effect"
import { Connection } from "../src/Connection.ts"
import { fromTable } from "../src/Ingest.ts"
import { connection } from "./support.ts"

const orders = new Arrow.Table({
  REGION: Arrow.vectorFromArray(["EMEA", "APJ", "EMEA", "AMER"], new Arrow.Utf8()),
  AMOUNT: Arrow.vectorFromArray([120, 80, 45, 300], new Arrow.Int32())
})

/** Loads the orders and totals them per region; needs only a Connection. */
export const report = Effect.gen(function*() {
  const conn = yield* Connection
  yield* conn.ingest(fromTable(orders), { targetTable: "ORDERS", mode: "replace" })
  const batches = yield* Stream.runCollect(
    conn.query(`SELECT "REGION", SUM("AMOUNT") AS "TOTAL" FROM "ORDERS" GROUP BY "REGION" ORDER BY "REGION"`)
  )
  const totals = new Arrow.Table(batches).toArray().map((r) => `${r.REGION}=${Number(r.TOTAL)}`)
  yield* Console.log(`${conn.driverName}: ${totals.join(", ")}`)
  return totals
})

/** The same program on both Layers. */
export const main = Effect.all([
  report.pipe(Effect.provide(connection("hana"))),
  report.pipe(Effect.provide(connection("oracle")))
])
