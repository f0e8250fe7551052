/**
 * Oracle streaming memory: peak RSS of this process while our driver streams ORACLE_MEMORY_ROWS (default
 * 1,000,000) rows of the 8-column benchmark table into Arrow batches (each batch dropped after counting), versus
 * streaming 4× as many rows, with the test server in a child process (its memory is not counted). RSS is sampled
 * every 10 ms during each stream. ratio = peak(4×) / peak(1×) (target ≤ 1.5: memory must not grow with the
 * result's size).
 */
import { createRequire } from "node:module"
import { Effect, ManagedRuntime, Stream } from "effect"
import * as Connection from "../src/Connection.ts"
import { fillTable, oursLayer, startServer } from "./oracle-read.ts"
import { collectGarbage } from "./run.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
const oracledb: any = createRequire(import.meta.url)("oracledb")

const ROWS = Number(process.env["ORACLE_MEMORY_ROWS"] ?? 1_000_000)

/** Peak RSS (bytes) sampled while `f` runs. */
const peakRss = async (f: () => Promise<number>): Promise<{ peak: number; rows: number }> => {
  collectGarbage()
  let peak = process.memoryUsage().rss
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 10)
  try {
    const rows = await f()
    return { peak: Math.max(peak, process.memoryUsage().rss), rows }
  } finally {
    clearInterval(timer)
  }
}

/** Runs the measurement. */
export const run = async (): Promise<Record<string, unknown>> => {
  const server = await startServer()
  const conn = await oracledb.getConnection({ user: server.user, password: server.password, connectString: server.connectString })
  const runtime = ManagedRuntime.make(oursLayer(server.uri))
  try {
    await fillTable(conn, "MEM_SMALL", ROWS)
    await fillTable(conn, "MEM_LARGE", ROWS * 4)
    await conn.close()
    const stream = (table: string) => () =>
      runtime.runPromise(
        Effect.flatMap(Connection.Connection, (c) =>
          Stream.runFold(c.query(`SELECT * FROM ${table}`), () => 0, (n, batch) => n + batch.numRows))
      )
    await stream("MEM_SMALL")() // warm-up: code, connection and builders allocated once
    const small = await peakRss(stream("MEM_SMALL"))
    const large = await peakRss(stream("MEM_LARGE"))
    if (small.rows !== ROWS || large.rows !== ROWS * 4) throw new Error(`streamed ${small.rows} / ${large.rows} rows`)
    return {
      bench: "oracle-memory",
      rows_small: ROWS,
      rows_large: ROWS * 4,
      peak_rss_small_mb: Math.round(small.peak / 2 ** 20),
      peak_rss_large_mb: Math.round(large.peak / 2 ** 20),
      baseline: "peak RSS streaming 1x the rows",
      ratio: large.peak / small.peak
    }
  } finally {
    await runtime.dispose()
    await server.close()
  }
}
