/**
 * Cancellation with Effect.timeout: a query that would stream for a long time is given 300 ms; when the time is up
 * its fiber is interrupted, the driver cancels the server call and releases the cursor, and the program goes on.
 */
import { Console, Effect, Option, Stream } from "effect"
import { Connection } from "../src/Connection.ts"
import { connection } from "./support.ts"

/** Reads a 50-million-row result for at most `millis`; returns the rows seen before the timeout. */
export const readFor = (millis: number) =>
  Effect.gen(function*() {
    const conn = yield* Connection
    let seen = 0
    const outcome = yield* conn.query(`SELECT GENERATED_PERIOD_START AS I FROM SERIES_GENERATE_INTEGER(1, 1, 50000001)`, {
      "dba.statement.fetch_size": "1000"
    }).pipe(
      Stream.runForEach((batch) => Effect.sync(() => void (seen += batch.numRows))),
      Effect.timeoutOption(`${millis} millis`)
    )
    const still = yield* Stream.runCollect(conn.query(`SELECT 1 AS OK FROM DUMMY`))
    yield* Console.log(
      `${Option.isNone(outcome) ? "timed out" : "finished"} after ${seen.toLocaleString("en-US")} rows; the connection still answers: ${
        still[0]?.getChildAt(0)?.get(0)
      }`
    )
    return { timedOut: Option.isNone(outcome), seen }
  })

/** On HANA. */
export const main = readFor(300).pipe(Effect.provide(connection("hana")))
