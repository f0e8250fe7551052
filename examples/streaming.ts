/**
 * Streaming a large result with bounded memory: 2,000,000 rows go by as Arrow batches of about 10,000 rows (HANA's
 * read_batch_rows is a best-effort cap: a batch ends on a fetch boundary, so it can run a few rows over); each batch is
 * summed and dropped, so the peak RSS stays near what one batch needs, not the whole result.
 */
import { Console, Effect, Layer, Stream } from "effect"
import { Connection } from "effect-adbc"
import * as Hana from "effect-adbc/hana"
import { HanaTestServer } from "effect-adbc/testkit/hana"

/** Streams `rows` generated rows and reports their count, their sum, the batch count, the largest batch and the peak RSS. */
export const streamRows = (rows: number) =>
  Effect.gen(function*() {
    const conn = yield* Connection.Connection
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

// The database: HANA named by HANA_URI (and the other HANA_ variables) when set, else the HANA test server,
// started for the program's lifetime.
const hana = process.env["HANA_URI"] !== undefined
  ? Hana.layerDatabaseConfig("HANA_")
  : Layer.unwrap(Effect.map(HanaTestServer, (server) => Hana.layerDatabase({ uri: server.uri }))).pipe(
    Layer.provide(HanaTestServer.layer())
  )

/** On HANA (the generator is HANA's SERIES_GENERATE_INTEGER). */
export const main = streamRows(2_000_000).pipe(Effect.provide(Connection.layer().pipe(Layer.provide(hana))))

// Run as a program (`node example.js`, `npx tsx example.ts`): imported, it only defines `main`.
if (import.meta.main) Effect.runPromise(main).then(() => process.exit(0), (error: unknown) => {
  console.error(String(error))
  process.exit(1)
})
