/**
 * Effect SQL read path on HANA: HANA_SQL_READ_ROWS (default 1,000,000) rows × 8 columns (the hana-read table) read
 * as row objects through `HanaClient` (`sql\`SELECT …\``: the driver's wire-to-Arrow read, then one object per row),
 * against raw hdb `exec(SELECT)` returning the same rows as objects; fetch size 50,000 and data format version 8 on
 * both, one connection each, same server (in a child process), runs alternating, medians.
 * ratio = ours / raw hdb (target ≤ 1.1).
 */
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import * as HanaClient from "../layers/hana/HanaClient.ts"
import { startInChildProcess } from "../testkit/common/child-process.ts"
import { collectGarbage } from "./run.ts"
import { BENCH_COLUMNS, createBenchTableSql, createHdbClient, hdbOptionsOf, promise, rawHdbComparison } from "./support/hana.ts"

const ROWS = Number(process.env["HANA_SQL_READ_ROWS"] ?? 1_000_000)
const RUNS = Number(process.env["HANA_SQL_READ_RUNS"] ?? 3)
const FETCH_SIZE = 50_000
const SELECT = `SELECT ${BENCH_COLUMNS} FROM BENCH_SQL_READ`

interface Client {
  connect(cb: (err: Error | null) => void): void
  exec(sql: string, options: object, cb: (err: Error | null, result?: unknown) => void): void
  close(): void
}

const seconds = async (f: () => Promise<ReadonlyArray<Record<string, unknown>>>) => {
  collectGarbage()
  const start = process.hrtime.bigint()
  const rows = await f()
  return { s: Number(process.hrtime.bigint() - start) / 1e9, rows }
}

/** Runs the comparison. */
export const run = async (): Promise<Record<string, unknown>> => {
  const server = await startInChildProcess("hana")
  const raw = createHdbClient<Client>({ ...hdbOptionsOf(server.uri), fetchSize: FETCH_SIZE, dataFormatSupport: 8 })
  const runtime = ManagedRuntime.make(
    HanaClient.layer({ uri: server.uri, poolSize: 1, options: { "dba.statement.fetch_size": String(FETCH_SIZE) } })
  )
  try {
    await promise((cb) => raw.connect(cb))
    await promise((cb) => raw.exec(createBenchTableSql("BENCH_SQL_READ", ROWS), {}, cb))
    const ours = () => runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<Record<string, unknown>>(SELECT)))
    const baseline = () => promise<ReadonlyArray<Record<string, unknown>>>((cb) => raw.exec(SELECT, {}, cb))
    // untimed: both read once and must agree on every ID, NAME and FLAG
    const [a, b] = [await ours(), await baseline()]
    const key = (rows: ReadonlyArray<Record<string, unknown>>) =>
      rows.map((r) => `${r["ID"]}:${r["NAME"]}:${r["FLAG"]}`).sort().join(",").length
    if (a.length !== ROWS || b.length !== ROWS || key(a) !== key(b)) throw new Error("ours and raw hdb read different rows")
    const oursS: Array<number> = []
    const baseS: Array<number> = []
    for (let i = 0; i < RUNS; i++) {
      for (const f of i % 2 === 0 ? [ours, baseline] : [baseline, ours]) {
        const r = await seconds(f)
        if (r.rows.length !== ROWS) throw new Error(`read ${r.rows.length} rows, expected ${ROWS}`)
        ;(f === ours ? oursS : baseS).push(r.s)
      }
    }
    return {
      bench: "sql-read-hana",
      rows: ROWS,
      columns: 8,
      fetch_size: FETCH_SIZE,
      runs: RUNS,
      ...rawHdbComparison(ROWS, oursS, baseS),
      baseline: "raw hdb exec(SELECT) returning row objects on the same server",
      target_ratio: 1.1
    }
  } finally {
    await runtime.dispose()
    raw.close()
    await server.close()
  }
}
