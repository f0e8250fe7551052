/**
 * Transactions with the connection pool: each fiber borrows its own connection; `withTransaction` commits when the
 * effect succeeds and rolls back when it fails, so a failed transfer leaves both balances as they were.
 */
import { Console, Effect, Layer, Stream } from "effect"
import { Connection, ConnectionPool } from "effect-adbc"
import * as Hana from "effect-adbc/hana"
import { HanaTestServer } from "effect-adbc/testkit/hana"

const balance = (conn: Connection.ConnectionShape, name: string) =>
  Effect.map(
    Stream.runCollect(conn.query(`SELECT "BALANCE" FROM "ACCOUNTS" WHERE "NAME" = '${name}'`)),
    (batches) => Number(batches[0]?.getChildAt(0)?.get(0))
  )

const transfer = (conn: Connection.ConnectionShape, amount: number) =>
  conn.withTransaction(Effect.gen(function*() {
    yield* conn.execute(`UPDATE "ACCOUNTS" SET "BALANCE" = "BALANCE" - ${amount} WHERE "NAME" = 'alice'`)
    yield* conn.execute(`UPDATE "ACCOUNTS" SET "BALANCE" = "BALANCE" + ${amount} WHERE "NAME" = 'bob'`)
    if ((yield* balance(conn, "alice")) < 0) return yield* Effect.fail(`alice cannot pay ${amount}`)
  }))

/** Two transfers on pooled connections, one of which fails and is rolled back; returns the final balances. */
export const program = Effect.gen(function*() {
  const connections = yield* ConnectionPool.ConnectionPool
  yield* connections.use((conn) =>
    Effect.gen(function*() {
      yield* conn.execute(`CREATE TABLE "ACCOUNTS" ("NAME" NVARCHAR(10), "BALANCE" INTEGER)`).pipe(Effect.ignore)
      yield* conn.execute(`DELETE FROM "ACCOUNTS"`)
      yield* conn.execute(`INSERT INTO "ACCOUNTS" VALUES ('alice', 100)`)
      yield* conn.execute(`INSERT INTO "ACCOUNTS" VALUES ('bob', 0)`)
    })
  )
  const outcomes = yield* Effect.all([
    connections.use((conn) => transfer(conn, 30)).pipe(Effect.as("30 moved"), Effect.catch((e) => Effect.succeed(`failed: ${e}`))),
    connections.use((conn) => transfer(conn, 500)).pipe(Effect.as("500 moved"), Effect.catch((e) => Effect.succeed(`rolled back: ${String(e)}`)))
  ], { concurrency: 1 })
  const balances = yield* connections.use((conn) => Effect.all([balance(conn, "alice"), balance(conn, "bob")]))
  yield* Console.log(`${outcomes.join("; ")}; alice ${balances[0]}, bob ${balances[1]}`)
  return { outcomes, balances }
})

// The database: HANA named by HANA_URI (and the other HANA_ variables) when set, else the HANA test server,
// started for the program's lifetime.
const hana = process.env["HANA_URI"] !== undefined
  ? Hana.layerDatabaseConfig("HANA_")
  : Layer.unwrap(Effect.map(HanaTestServer, (server) => Hana.layerDatabase({ uri: server.uri }))).pipe(
    Layer.provide(HanaTestServer.layer())
  )

/** On HANA with a pool of 4. */
export const main = program.pipe(Effect.provide(ConnectionPool.layer({ size: 4 }).pipe(Layer.provide(hana))))

// Run as a program (`node example.js`, `npx tsx example.ts`): imported, it only defines `main`.
if (import.meta.main) Effect.runPromise(main).then(() => process.exit(0), (error: unknown) => {
  console.error(String(error))
  process.exit(1)
})
