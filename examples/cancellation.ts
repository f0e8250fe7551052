/**
 * Cancellation with Effect.timeout: a query that would stream for a long time is given 300 ms; when the time is up
 * its fiber is interrupted, the driver cancels the server call and releases the cursor, and the program goes on.
 * The connections come from a pool: should the server not confirm the cancel within the driver's answer budget, the
 * driver drops that connection rather than wait (it reports itself unusable), and the pool hands out a fresh one.
 */
import { Console, Effect, Option, Stream } from "effect"
import { ConnectionPool } from "../src/ConnectionPool.ts"
import { pool } from "./support.ts"

/** Reads a 50-million-row result for at most `millis`; returns the rows seen before the timeout. */
export const readFor = (millis: number) =>
  Effect.gen(function*() {
    const connections = yield* ConnectionPool
    let seen = 0
    const outcome = yield* connections.use((conn) =>
      conn.query(`SELECT GENERATED_PERIOD_START AS I FROM SERIES_GENERATE_INTEGER(1, 1, 50000001)`, {
        "dba.statement.fetch_size": "1000"
      }).pipe(Stream.runForEach((batch) => Effect.sync(() => void (seen += batch.numRows))))
    ).pipe(Effect.timeoutOption(`${millis} millis`))
    const still = yield* connections.use((conn) => Stream.runCollect(conn.query(`SELECT 1 AS OK FROM DUMMY`)))
    yield* Console.log(
      `${Option.isNone(outcome) ? "timed out" : "finished"} after ${seen.toLocaleString("en-US")} rows; the database still answers: ${
        still[0]?.getChildAt(0)?.get(0)
      }`
    )
    return { timedOut: Option.isNone(outcome), seen }
  })

/** On HANA, with a pool of one connection. */
export const main = readFor(300).pipe(Effect.provide(pool("hana", 1)))
