/**
 * Copy memory: peak RSS growth of a process that runs the main job's HANA → Oracle copy (`cli/copy.ts` `copyQuery`,
 * given the row count as the main job gives it, so with its batch size: a 32nd of the table, at most
 * `COPY_BATCH_ROWS`) of COPY_MEMORY_ROWS (default 1,000,000) rows of the 8-column benchmark table and then, in a fresh
 * process, of 4× as many. Each size runs in its own child process (`--expose-gc`), which records RSS after connecting
 * and samples it every 5 ms while copying; both test servers run in child processes of their own, so the stored rows
 * are not counted. growth = peak − baseline; ratio = growth(4×) / growth(1×) (target ≤ 1.5: memory bounded by the
 * batches in flight, not by the rows copied).
 */
import { Context, Effect, Layer, ManagedRuntime } from "effect"
import * as Hana from "../layers/hana/index.ts"
import * as Oracle from "../layers/oracle/index.ts"
import * as Connection from "../src/Connection.ts"
import { copyBatchRows, copyQuery } from "../cli/copy.ts"
import { Progress } from "../cli/progress.ts"
import { startInChildProcess } from "../testkit/common/child-process.ts"
import { BENCH_COLUMNS, createBenchTableSql } from "./support/hana.ts"
import { runInChild, sampleRss } from "./support/child.ts"

const SMALL = Number(process.env["COPY_MEMORY_ROWS"] ?? 1_000_000)
const LARGE = SMALL * 4

const silentProgress = Layer.succeed(Progress, {
  start: (step: string) => ({ update: () => {}, finish: () => ({ step, rows: 0, bytes: 0, seconds: 0 }) })
})

const hanaLayer = (uri: string) => Connection.layer().pipe(Layer.provide(Hana.layerDatabase({ uri })))
const oracleLayer = (uri: string) => Connection.layer().pipe(Layer.provide(Oracle.layerDatabase({ uri })))

/** Child: copies table `source` (`rows` rows) into a new Oracle table and prints {rows, baseline_rss, peak_rss}. */
const child = async (hanaUri: string, oracleUri: string, source: string, rows: number): Promise<void> => {
  const runtime = ManagedRuntime.make(Layer.empty)
  try {
    const result = await runtime.runPromise(Effect.scoped(Effect.gen(function*() {
      const from = yield* Layer.build(hanaLayer(hanaUri))
      const to = yield* Layer.build(oracleLayer(oracleUri))
      const rss = sampleRss()
      const copied = yield* copyQuery(
        Context.get(from, Connection.Connection),
        Context.get(to, Connection.Connection),
        `SELECT ${BENCH_COLUMNS} FROM ${source}`,
        { targetTable: `${source}_COPY`, mode: "replace" },
        { step: "copy", totalRows: rows, onFinish: () => {} }
      ).pipe(Effect.onError(() => Effect.sync(rss.stop)))
      return { rows: copied, ...rss.stop() }
    }).pipe(Effect.provide(silentProgress))))
    process.stdout.write(`${JSON.stringify(result)}\n`)
  } finally {
    await runtime.dispose()
  }
}

const MB = 1024 * 1024
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits

/** Runs the measurement. */
export const run = async (): Promise<Record<string, unknown>> => {
  const [hanaServer, oracleServer] = await Promise.all([startInChildProcess("hana"), startInChildProcess("oracle")])
  const runtime = ManagedRuntime.make(Layer.empty)
  try {
    const measure = async (rows: number) => {
      const source = `COPY_MEMORY_${rows}`
      await runtime.runPromise(Effect.provide(Connection.execute(createBenchTableSql(source, rows)), hanaLayer(hanaServer.uri)))
      const measured = await runInChild(import.meta.url, {
        COPY_MEMORY_CHILD: "1",
        COPY_MEMORY_HANA_URI: hanaServer.uri,
        COPY_MEMORY_ORACLE_URI: oracleServer.uri,
        COPY_MEMORY_SOURCE: source,
        COPY_MEMORY_COUNT: String(rows)
      })
      if (measured.rows !== rows) throw new Error(`the copy child copied ${measured.rows} of ${rows} rows`)
      await runtime.runPromise(Effect.provide(Connection.execute(`DROP TABLE ${source}`), hanaLayer(hanaServer.uri)))
      return (measured.peak_rss - measured.baseline_rss) / MB
    }
    const growthSmall = await measure(SMALL)
    const growthLarge = await measure(LARGE)
    return {
      bench: "copy-memory",
      rows_small: SMALL,
      rows_large: LARGE,
      batch_rows_small: copyBatchRows(SMALL),
      batch_rows_large: copyBatchRows(LARGE),
      growth_small_mb: round(growthSmall, 1),
      growth_large_mb: round(growthLarge, 1),
      ratio: round(growthLarge / growthSmall, 3),
      target_ratio: 1.5
    }
  } finally {
    await runtime.dispose()
    await Promise.all([hanaServer.close(), oracleServer.close()])
  }
}

if (process.env["COPY_MEMORY_CHILD"] === "1") {
  const env = (name: string) => process.env[name]!
  child(env("COPY_MEMORY_HANA_URI"), env("COPY_MEMORY_ORACLE_URI"), env("COPY_MEMORY_SOURCE"), Number(env("COPY_MEMORY_COUNT"))).catch((e) => {
    process.stderr.write(`${String(e)}\n`)
    process.exit(1)
  })
}
