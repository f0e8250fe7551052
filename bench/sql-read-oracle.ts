/**
 * Effect SQL read path on Oracle: ORACLE_SQL_READ_ROWS (default 1,000,000) rows × 8 columns (the oracle-read table)
 * read as row objects through `OracleClient` (`sql\`SELECT …\``: the driver's batch-mode wire-to-Arrow read, then one
 * object per row), against raw oracledb `execute(SELECT, [], { outFormat: OUT_FORMAT_OBJECT })` returning the same
 * rows as objects; fetchArraySize = prefetchRows = 10,000 on both, one connection each, same server (in a child
 * process), runs alternating, medians. ratio = ours / raw oracledb (target ≤ 1.1).
 */
import { createRequire } from "node:module"
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import * as OracleClient from "../layers/oracle/OracleClient.ts"
import { FETCH, fillTable, startServer } from "./oracle-read.ts"
import { collectGarbage, median } from "./run.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
const oracledb: any = createRequire(import.meta.url)("oracledb")

const ROWS = Number(process.env["ORACLE_SQL_READ_ROWS"] ?? 1_000_000)
const RUNS = Number(process.env["ORACLE_SQL_READ_RUNS"] ?? 3)
const SELECT = "SELECT ID, AMOUNT, RATIO, DAY, TS, NAME, NOTE, FLAG FROM BENCH_SQL_READ"

const seconds = async (f: () => Promise<ReadonlyArray<Record<string, unknown>>>) => {
  collectGarbage()
  const start = process.hrtime.bigint()
  const rows = await f()
  return { s: Number(process.hrtime.bigint() - start) / 1e9, rows }
}

/** Runs the comparison. */
export const run = async (): Promise<Record<string, unknown>> => {
  const server = await startServer()
  const conn = await oracledb.getConnection({ user: server.user, password: server.password, connectString: server.connectString })
  const runtime = ManagedRuntime.make(OracleClient.layer({
    uri: server.uri,
    poolSize: 1,
    options: { "redo.statement.fetch_array_size": String(FETCH), "redo.statement.prefetch_rows": String(FETCH) }
  }))
  try {
    await fillTable(conn, "BENCH_SQL_READ", ROWS)
    const ours = () => runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<Record<string, unknown>>(SELECT)))
    const baseline = async (): Promise<ReadonlyArray<Record<string, unknown>>> =>
      (await conn.execute(SELECT, [], {
        outFormat: oracledb.OUT_FORMAT_OBJECT,
        fetchArraySize: FETCH,
        prefetchRows: FETCH
      })).rows
    const [a, b] = [await ours(), await baseline()]
    const key = (rows: ReadonlyArray<Record<string, unknown>>) => {
      let sum = 0
      for (const r of rows) sum += Number(r["ID"]) + String(r["NAME"]).length + (r["FLAG"] ? 1 : 0)
      return sum
    }
    if (a.length !== ROWS || b.length !== ROWS || key(a) !== key(b)) throw new Error("ours and raw oracledb read different rows")
    const oursS: Array<number> = []
    const baseS: Array<number> = []
    for (let i = 0; i < RUNS; i++) {
      for (const f of i % 2 === 0 ? [ours, baseline] : [baseline, ours]) {
        const r = await seconds(f)
        if (r.rows.length !== ROWS) throw new Error(`read ${r.rows.length} rows, expected ${ROWS}`)
        ;(f === ours ? oursS : baseS).push(r.s)
      }
    }
    const o = median(oursS)
    const bs = median(baseS)
    return {
      bench: "sql-read-oracle",
      rows: ROWS,
      columns: 8,
      fetch_array_size: FETCH,
      runs: RUNS,
      ours_s: o,
      baseline_s: bs,
      ours_samples_s: oursS,
      baseline_samples_s: baseS,
      baseline: "raw oracledb execute(SELECT, { outFormat: OUT_FORMAT_OBJECT }) on the same server",
      ratio: o / bs,
      target_ratio: 1.1
    }
  } finally {
    await runtime.dispose()
    await conn.close()
    await server.close()
  }
}
