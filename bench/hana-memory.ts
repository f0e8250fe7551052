/**
 * HANA reader memory: peak RSS growth of a process streaming 1M vs 4M rows × 8 mixed columns from the HANA test
 * server through our driver with the default batch size (read_batch_rows 100000, fetch_size 50000), each size in
 * its own child process (the server runs in the parent, so its memory is not counted). Each child records RSS after
 * connecting, then samples RSS while reading every batch and dropping it. ratio = growth(4M) / growth(1M)
 * (target ≤ 1.5: memory is bounded by the batch size, not the result size). Sizes: HANA_MEMORY_ROWS
 * (default 1000000; the large run reads 4×).
 */
import { Effect, Layer, Stream } from "effect"
import * as Hana from "../layers/hana/index.ts"
import * as Connection from "../src/Connection.ts"
import { startHanaTestServer } from "../testkit/hana/index.ts"
import { runInChild, sampleRss } from "./support/child.ts"
import { createBenchTableSql, createHdbClient, promise } from "./support/hana.ts"

const SMALL = Number(process.env["HANA_MEMORY_ROWS"] ?? 1_000_000)
const LARGE = SMALL * 4

interface Client {
  connect(cb: (err: Error | null) => void): void
  exec(sql: string, cb: (err: Error | null, result?: unknown) => void): void
  close(): void
}



/** Child: streams the table and prints {rows, baseline_rss, peak_rss}. */
const child = async (uri: string, table: string): Promise<void> => {
  const layer = Connection.layer().pipe(Layer.provide(Hana.layerDatabase({ uri })))
  const result = await Effect.runPromise(Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const rss = sampleRss()
    const rows = yield* Stream.runFold(conn.query(`SELECT * FROM ${table}`), () => 0, (n, batch) => {
      rss.sample()
      return n + batch.numRows
    })
    return rss.stop(rows)
  }).pipe(Effect.provide(layer)))
  process.stdout.write(`${JSON.stringify(result)}\n`)
}

const runChild = (uri: string, table: string) =>
  runInChild(import.meta.url, { HANA_MEMORY_CHILD: "1", HANA_MEMORY_URI: uri, HANA_MEMORY_TABLE: table })

/** Runs both sizes and compares their RSS growth. */
export const run = async (): Promise<Record<string, unknown>> => {
  const server = await startHanaTestServer()
  const raw = createHdbClient<Client>({ host: server.host, port: server.port, user: server.user, password: server.password })
  try {
    await promise((cb) => raw.connect(cb))
    await promise((cb) => raw.exec(createBenchTableSql("MEM_SMALL", SMALL), cb))
    await promise((cb) => raw.exec(createBenchTableSql("MEM_LARGE", LARGE), cb))
    const small = await runChild(server.uri, "MEM_SMALL")
    const large = await runChild(server.uri, "MEM_LARGE")
    if (small.rows !== SMALL || large.rows !== LARGE) throw new Error(`read ${small.rows} / ${large.rows} rows`)
    const mb = (b: number) => Math.round((b / 2 ** 20) * 10) / 10
    const growthSmall = small.peak_rss - small.baseline_rss
    const growthLarge = large.peak_rss - large.baseline_rss
    return {
      bench: "hana-memory",
      small_rows: SMALL,
      large_rows: LARGE,
      columns: 8,
      read_batch_rows: 100_000,
      fetch_size: 50_000,
      small_rss_growth_mb: mb(growthSmall),
      large_rss_growth_mb: mb(growthLarge),
      small_peak_rss_mb: mb(small.peak_rss),
      large_peak_rss_mb: mb(large.peak_rss),
      ratio: Math.round((growthLarge / growthSmall) * 1000) / 1000,
      target_ratio: 1.5
    }
  } finally {
    raw.close()
    await server.close()
  }
}

if (process.env["HANA_MEMORY_CHILD"] === "1") {
  child(process.env["HANA_MEMORY_URI"]!, process.env["HANA_MEMORY_TABLE"]!).then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e)
      process.exit(1)
    }
  )
}
