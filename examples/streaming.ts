/**
 * Streaming a large result with bounded memory: 2,000,000 rows go by as Arrow batches of about 10,000 rows (HANA's
 * read_batch_rows is a best-effort cap: a batch ends on a fetch boundary, so it can run a few rows over); each batch is
 * summed and dropped, so the peak RSS stays near what one batch needs, not the whole result.
 */
import { Console, Effect, Stream } from "effect"
import { Connection } from "../src/Connection.ts"
import { connection } from "./support.ts"

/** Streams `rows` generated rows and reports their count, their sum, the batch count, the largest batch and the peak RSS. */
export const streamRows = (rows: number) =>
  Effect.gen(function*() {
    const conn = yield* Connection
    let peakRss = process.memoryUsage.rss()
    const result = yield* conn.query(
      `SELECT GENERATED_PERIOD_START AS I FROM SERIES_GENERATE_INTEGER(1, 1, ${rows + 1})`,
      { "dba.statement.fetch_size": "10000", "dba.statement.read_batch_rows": "10000" }
    ).pipe(
      Stream.runFold(() => ({ rows: 0, sum: 0, batches: 0, largestBatch: 0 }), (acc, batch) => {
        const column = batch.getChildAt(0)!
        for (let i = 0; i < batch.numRows; i++) acc.sum += Number(column.get(i))
        acc.rows += batch.numRows
        acc.batches++
        acc.largestBatch = Math.max(acc.largestBatch, batch.numRows)
        peakRss = Math.max(peakRss, process.memoryUsage.rss())
        return acc
      })
    )
    yield* Console.log(
      `${result.rows.toLocaleString("en-US")} rows in ${result.batches} batches, sum ${result.sum}, peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`
    )
    return { ...result, peakRss }
  })

/** On HANA (the generator is HANA's SERIES_GENERATE_INTEGER). */
export const main = streamRows(2_000_000).pipe(Effect.provide(connection("hana")))
