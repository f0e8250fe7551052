/**
 * Copy memory: peak RSS growth of a process that copies COPY_MEMORY_ROWS (default 1,000,000) rows from HANA to Oracle
 * and then, in a fresh process, 4× as many, the way the main job does (cli/copy.ts given the row count, so batches of
 * `copyBatchRows(rows)`: one HANA fetch, one Arrow batch, one Oracle insert call each, at most two read ahead;
 * COPY_MEMORY_UNSIZED=1 copies as `adbc copy` does instead, row count not given, fixed COPY_BATCH_ROWS batches).
 * The source is the 8-column benchmark table of `npm run bench -- copy`. Each size runs in its own child process
 * (`--expose-gc`), which records RSS after connecting to both servers and samples it every 5 ms while copying; both
 * test servers run in child processes of their own, so the stored rows are not counted.
 * growth = peak − baseline; ratio = growth(4×) / growth(1×) (target ≤ 1.5: memory bounded by the batches in flight,
 * not by the rows copied).
 */
import { Context, Effect, Layer } from "effect"
import * as Hana from "../layers/hana/index.ts"
import * as Oracle from "../layers/oracle/index.ts"
import * as Connection from "../src/Connection.ts"
import { COPY_BATCH_ROWS, copyBatchRows, copyQuery } from "../cli/copy.ts"
import { Progress } from "../cli/progress.ts"
import { startInChildProcess } from "../testkit/common/child-process.ts"
import { BENCH_COLUMNS, createBenchTableSql } from "./support/hana.ts"
import { runInChild, sampleRss } from "./support/child.ts"

const SMALL = Number(process.env["COPY_MEMORY_ROWS"] ?? 1_000_000)
const LARGE = SMALL * 4
/** Whether the copy is told its row count (the main job) or not (`adbc copy`). */
const SIZED = process.env["COPY_MEMORY_UNSIZED"] !== "1"
const batchRowsOf = (rows: number) => (SIZED ? copyBatchRows(rows) : COPY_BATCH_ROWS)

const silentProgress = Layer.succeed(Progress, { start: (step: string) => ({ update: () => {}, finish: () => ({ step, rows: 0, bytes: 0, seconds: 0 }) }) })

const hanaLayer = (uri: string) => Connection.layer().pipe(Layer.provide(Hana.layerDatabase({ uri })))
const oracleLayer = (uri: string) => Connection.layer().pipe(Layer.provide(Oracle.layerDatabase({ uri })))

const sourceTable = (rows: number) => `COPY_MEMORY_${rows}`

/** Child: copies the `rows`-row source table into Oracle and prints {rows, baseline_rss, peak_rss}. */
const child = async (hanaUri: string, oracleUri: string, rows: number): Promise<void> => {
  const result = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const from = Context.get(yield* Layer.build(hanaLayer(hanaUri)), Connection.Connection)
    const to = Context.get(yield* Layer.build(oracleLayer(oracleUri)), Connection.Connection)
    const rss = sampleRss()
    const copied = yield* copyQuery(from, to, `SELECT ${BENCH_COLUMNS} FROM ${sourceTable(rows)}`, {
      targetTable: sourceTable(rows),
      mode: "replace"
    }, { step: "copy", onFinish: () => {}, ...(SIZED ? { totalRows: rows } : {}) })
    return { rows: copied, ...rss.stop() }
  }).pipe(Effect.provide(silentProgress))))
  process.stdout.write(`${JSON.stringify(result)}\n`)
}

const runChild = async (hanaUri: string, oracleUri: string, rows: number) => {
  const measured = await runInChild(import.meta.url, {
    COPY_MEMORY_CHILD: "1",
    COPY_MEMORY_HANA_URI: hanaUri,
    COPY_MEMORY_ORACLE_URI: oracleUri,
    COPY_MEMORY_COUNT: String(rows)
  })
  if (measured.rows !== rows) throw new Error(`copy child copied ${measured.rows} of ${rows} rows`)
  return measured
}

const MB = 1024 * 1024
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits

/** Runs the measurement. */
export const run = async (): Promise<Record<string, unknown>> => {
  const [hanaServer, oracleServer] = await Promise.all([startInChildProcess("hana"), startInChildProcess("oracle")])
  try {
    for (const rows of [SMALL, LARGE]) {
      await Effect.runPromise(Effect.provide(Connection.execute(createBenchTableSql(sourceTable(rows), rows)), hanaLayer(hanaServer.uri)))
    }
    const small = await runChild(hanaServer.uri, oracleServer.uri, SMALL)
    const large = await runChild(hanaServer.uri, oracleServer.uri, LARGE)
    const growthSmall = (small.peak_rss - small.baseline_rss) / MB
    const growthLarge = (large.peak_rss - large.baseline_rss) / MB
    return {
      bench: "copy-memory",
      rows_small: SMALL,
      rows_large: LARGE,
      copy_of_known_size: SIZED,
      batch_rows_small: batchRowsOf(SMALL),
      batch_rows_large: batchRowsOf(LARGE),
      growth_small_mb: round(growthSmall, 1),
      growth_large_mb: round(growthLarge, 1),
      ratio: round(growthLarge / growthSmall, 3),
      target_ratio: 1.5
    }
  } finally {
    await Promise.all([hanaServer.close(), oracleServer.close()])
  }
}

if (process.env["COPY_MEMORY_CHILD"] === "1") {
  child(process.env["COPY_MEMORY_HANA_URI"]!, process.env["COPY_MEMORY_ORACLE_URI"]!, Number(process.env["COPY_MEMORY_COUNT"])).catch((e) => {
    process.stderr.write(`${String(e)}\n`)
    process.exit(1)
  })
}
