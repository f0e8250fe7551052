/**
 * The four ingest modes: create (fails if the table exists), append, replace and create_append, each atomic.
 */
import * as Arrow from "apache-arrow"
import { Console, Effect, Layer, Stream } from "effect"
import { Connection, Ingest } from "effect-adbc"
import * as Oracle from "effect-adbc/oracle"
import { OracleTestServer } from "effect-adbc/testkit/oracle"

const rows = (...ids: Array<number>) => Ingest.fromTable(new Arrow.Table({ ID: Arrow.vectorFromArray(ids, new Arrow.Int32()) }))

/** Runs each mode on the table EVENTS and returns the row count after each step. */
export const program = Effect.gen(function*() {
  const conn = yield* Connection.Connection
  const count = Effect.map(
    Stream.runCollect(conn.query(`SELECT COUNT(*) AS N FROM "EVENTS"`)),
    (batches) => Number(batches[0]?.getChildAt(0)?.get(0))
  )
  yield* conn.execute(`DROP TABLE "EVENTS"`).pipe(Effect.ignore)
  const steps: Array<string> = []
  const step = (label: string) => Effect.flatMap(count, (n) => Effect.sync(() => void steps.push(`${label}: ${n} rows`)))

  yield* conn.ingest(rows(1, 2), { targetTable: "EVENTS", mode: "create" })
  yield* step("create")
  const again = yield* conn.ingest(rows(3), { targetTable: "EVENTS", mode: "create" }).pipe(Effect.flip)
  steps.push(`create again: ${again.status}`)
  yield* conn.ingest(rows(3), { targetTable: "EVENTS", mode: "append" })
  yield* step("append")
  yield* conn.ingest(rows(7), { targetTable: "EVENTS", mode: "replace" })
  yield* step("replace")
  yield* conn.ingest(rows(8, 9), { targetTable: "EVENTS", mode: "create_append" })
  yield* step("create_append")
  yield* Console.log(steps.join("\n"))
  return steps
})

// The database: Oracle named by ORACLE_URI (and the other ORACLE_ variables) when set, else the Oracle test server,
// started for the program's lifetime.
const oracle = process.env["ORACLE_URI"] !== undefined
  ? Oracle.layerDatabaseConfig("ORACLE_")
  : Layer.unwrap(Effect.map(OracleTestServer, (server) => Oracle.layerDatabase({ uri: server.uri }))).pipe(
    Layer.provide(OracleTestServer.layer())
  )

/** On Oracle (the modes behave the same on HANA). */
export const main = program.pipe(Effect.provide(Connection.layer().pipe(Layer.provide(oracle))))

// Run as a program (`node example.js`, `npx tsx example.ts`): imported, it only defines `main`.
if (import.meta.main) Effect.runPromise(main).then(() => process.exit(0), (error: unknown) => {
  console.error(String(error))
  process.exit(1)
})
