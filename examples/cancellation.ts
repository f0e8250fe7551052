/**
 * Cancellation with Effect.timeout: a query that would stream for a long time is given 300 ms; when the time is up
 * its fiber is interrupted, the driver cancels the server call and releases the cursor, and the program goes on
 * (Effect.timeout fails with a TimeoutError, caught here).
 * The connections come from a pool: should the server not confirm the cancel within the driver's answer budget, the
 * driver drops that connection rather than wait (it reports itself unusable), and the pool hands out a fresh one.
 */
import { Console, Effect, Layer, Stream } from "effect"
import { ConnectionPool } from "effect-adbc"
import * as Hana from "effect-adbc/hana"
import { HanaTestServer } from "effect-adbc/testkit/hana"

/**
 * Reads a 50-million-row result for at most `millis`; returns whether the time ran out, the rows seen before, how
 * long the read took until it was stopped, and what the database answered afterwards.
 */
export const readFor = (millis: number) =>
  Effect.gen(function*() {
    const connections = yield* ConnectionPool.ConnectionPool
    let seen = 0
    const started = Date.now()
    const timedOut = yield* connections.use((conn) =>
      conn.query(`SELECT GENERATED_PERIOD_START AS I FROM SERIES_GENERATE_INTEGER(1, 1, 50000001)`, {
        "dba.statement.fetch_size": "1000"
      }).pipe(Stream.runForEach((batch) => Effect.sync(() => void (seen += batch.numRows))))
    ).pipe(
      Effect.timeout(`${millis} millis`),
      Effect.as(false),
      Effect.catchTag("TimeoutError", () => Effect.succeed(true))
    )
    const stoppedAfterMs = Date.now() - started
    const still = yield* connections.use((conn) => Stream.runCollect(conn.query(`SELECT 1 AS OK FROM DUMMY`)))
    const answer = Number(still[0]?.getChildAt(0)?.get(0))
    yield* Console.log(
      `${timedOut ? "timed out" : "finished"} after ${seen.toLocaleString("en-US")} rows and ${stoppedAfterMs} ms; the database still answers: ${answer}`
    )
    return { timedOut, seen, stoppedAfterMs, answer }
  })

// The database: HANA named by HANA_URI (and the other HANA_ variables) when set, else the HANA test server,
// started for the program's lifetime.
const hana = process.env["HANA_URI"] !== undefined
  ? Hana.layerDatabaseConfig("HANA_")
  : Layer.unwrap(Effect.map(HanaTestServer, (server) => Hana.layerDatabase({ uri: server.uri }))).pipe(
    Layer.provide(HanaTestServer.layer())
  )

/** On HANA, with a pool of one connection. */
export const main = readFor(300).pipe(Effect.provide(ConnectionPool.layer({ size: 1 }).pipe(Layer.provide(hana))))

// Run as a program (`node example.js`, `npx tsx example.ts`): imported, it only defines `main`.
if (import.meta.main) Effect.runPromise(main).then(() => process.exit(0), (error: unknown) => {
  console.error(String(error))
  process.exit(1)
})
