/**
 * Oracle ingest path: ORACLE_INGEST_ROWS (default 1,000,000) rows of the 8-column benchmark table appended by our
 * driver's bulk ingest from an Arrow table (executeMany in chunks of redo.statement.insert_batch_rows), against a
 * hand-written raw node-oracledb executeMany with bindDefs of the same rows (prebuilt JS arrays, same chunk size),
 * on the same test server (child process) in the same run; both sides commit once, after their last chunk. Each side
 * runs once untimed, both tables are checked to hold the same rows, then ORACLE_INGEST_RUNS (default 3) timed runs
 * alternate, each into a freshly created table; medians. ratio = ours / raw (target ≤ 0.5, aim ≤ 0.35). Our side
 * takes the ingest fast path (layers/oracle/IngestEncoder.ts): bind rows encoded from the Arrow buffers.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import * as Arrow from "apache-arrow"
import { Effect, ManagedRuntime } from "effect"
import * as Connection from "../src/Connection.ts"
import { fromTable } from "../src/Ingest.ts"
import { BENCH_DDL, bindDefs, oursLayer, rawRow, startServer } from "./oracle-read.ts"
import { compareAsync, median } from "./run.ts"
import type { TimedSide } from "./run.ts"
import { statsDelta } from "./support/server-stats.ts"
import type { ServerStats } from "../testkit/common/stats.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
const oracledb: any = createRequire(import.meta.url)("oracledb")

const ROWS = Number(process.env["ORACLE_INGEST_ROWS"] ?? 1_000_000)
const RUNS = Number(process.env["ORACLE_INGEST_RUNS"] ?? 3)
const CHUNK = 65_536

/** The benchmark rows as an Arrow table with the columns' natural Arrow types. */
export const arrowTable = (rows: number): Arrow.Table => {
  const day0 = Date.UTC(2020, 0, 1) / 86_400_000
  const ts0 = BigInt(Date.UTC(2020, 0, 1)) * 1000n
  const amount = new Uint32Array(rows * 4)
  for (let i = 0; i < rows; i++) amount[i * 4] = i
  const ts = new BigInt64Array(rows)
  for (let i = 0; i < rows; i++) ts[i] = ts0 + BigInt(i) * 1_000_000n
  const flag = new Uint8Array(Math.ceil(rows / 8))
  for (let i = 0; i < rows; i += 2) flag[i >> 3]! |= 1 << (i & 7)
  return new Arrow.Table({
    ID: Arrow.makeVector(Int32Array.from({ length: rows }, (_, i) => i)),
    AMOUNT: Arrow.makeVector(Arrow.makeData({ type: new Arrow.Decimal(2, 12, 128), length: rows, data: amount })),
    RATIO: Arrow.makeVector(Float64Array.from({ length: rows }, (_, i) => i * 1.5)),
    DAY: Arrow.makeVector(Arrow.makeData({ type: new Arrow.DateDay(), length: rows, data: Int32Array.from({ length: rows }, (_, i) => day0 + (i % 1000)) })),
    TS: Arrow.makeVector(Arrow.makeData({ type: new Arrow.TimestampMicrosecond(), length: rows, data: ts })),
    NAME: Arrow.vectorFromArray(Array.from({ length: rows }, (_, i) => `name_${i}`), new Arrow.Utf8()),
    NOTE: Arrow.vectorFromArray(Array.from({ length: rows }, (_, i) => `a somewhat longer text value ${i}`), new Arrow.Utf8()),
    FLAG: Arrow.makeVector(Arrow.makeData({ type: new Arrow.Bool(), length: rows, data: flag }))
  })
}

/** CPU seconds process `pid` has used so far (Linux /proc; NaN elsewhere): the server's whole cost, not only its batch executions. */
const processCpu = (pid: number): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return Number.NaN
  }
}

/** Rows of `a` missing from `b` (MINUS: set difference over all eight columns). */
const missing = async (conn: any, a: string, b: string): Promise<number> =>
  Number((await conn.execute(`SELECT COUNT(*) FROM (SELECT * FROM ${a} MINUS SELECT * FROM ${b})`)).rows[0][0])

const seconds = (ms: number): number => Math.round(ms) / 1000

const count = async (conn: any, table: string): Promise<number> =>
  Number((await conn.execute(`SELECT COUNT(*) FROM ${table}`)).rows[0][0])

/** Runs the comparison. */
export const run = async (): Promise<Record<string, unknown>> => {
  const server = await startServer()
  const conn = await oracledb.getConnection({ user: server.user, password: server.password, connectString: server.connectString })
  const runtime = ManagedRuntime.make(oursLayer(server.uri))
  try {
    const table = arrowTable(ROWS)
    const raw: Array<Array<unknown>> = Array.from({ length: ROWS }, (_, i) => rawRow(i))
    const recreate = async (name: string) => {
      await conn.execute(`DROP TABLE ${name}`).catch(() => undefined)
      await conn.execute(`CREATE TABLE ${name} ${BENCH_DDL}`)
    }
    // Both sides commit once, after the last chunk (the ingest's own transaction; executeMany without autoCommit).
    const baseline = async () => {
      for (let start = 0; start < ROWS; start += CHUNK) {
        await conn.executeMany("INSERT INTO INGEST_RAW VALUES (:1, :2, :3, :4, :5, :6, :7, :8)", raw.slice(start, start + CHUNK), {
          bindDefs: bindDefs(),
          autoCommit: false
        })
      }
      await conn.commit()
    }
    const ours = () =>
      runtime.runPromise(
        Effect.flatMap(Connection.Connection, (c) => c.ingest(fromTable(table), { targetTable: "INGEST_OURS", mode: "append" }))
      )
    // Untimed first run of each side (the warm-up), then the check that both stored the same rows.
    await recreate("INGEST_OURS")
    await ours()
    await recreate("INGEST_RAW")
    await baseline()
    const counts = [await count(conn, "INGEST_OURS"), await count(conn, "INGEST_RAW")]
    const differing = [await missing(conn, "INGEST_OURS", "INGEST_RAW"), await missing(conn, "INGEST_RAW", "INGEST_OURS")]
    if (counts.some((n) => n !== ROWS) || differing.some((n) => n !== 0)) {
      throw new Error(`stored ${counts.join(" / ")} rows (expected ${ROWS}); rows only in ours / only in raw: ${differing.join(" / ")}`)
    }
    /** A timed side whose table is recreated before each run and whose server CPU (child process) is recorded. */
    const side = (name: string, insert: () => Promise<unknown>, serverCpu: Array<number>, processCpuS: Array<number>): TimedSide => {
      let before: ServerStats | undefined
      let processBefore = 0
      return {
        before: async () => {
          await recreate(name)
          before = await server.stats()
          processBefore = processCpu(server.pid)
        },
        run: insert,
        after: async () => {
          processCpuS.push(processCpu(server.pid) - processBefore)
          const after = await server.stats()
          if (before !== undefined && after !== undefined) serverCpu.push(statsDelta(after, before).insertCpuMs / 1000)
          if ((await count(conn, name)) !== ROWS) throw new Error(`${name} holds ${await count(conn, name)} rows, expected ${ROWS}`)
        }
      }
    }
    const oursServer: Array<number> = []
    const baseServer: Array<number> = []
    const oursProcess: Array<number> = []
    const baseProcess: Array<number> = []
    const c = await compareAsync(
      side("INGEST_OURS", ours, oursServer, oursProcess),
      side("INGEST_RAW", baseline, baseServer, baseProcess),
      { warmup: 0, runs: RUNS }
    )
    return {
      bench: "oracle-ingest",
      rows: ROWS,
      columns: 8,
      chunk_rows: CHUNK,
      runs: RUNS,
      ours_s: seconds(c.ours_ms),
      baseline_s: seconds(c.baseline_ms),
      ours_samples_s: c.ours_samples_ms.map(seconds),
      baseline_samples_s: c.baseline_samples_ms.map(seconds),
      ours_client_cpu_s: seconds(c.ours_cpu_ms),
      baseline_client_cpu_s: seconds(c.baseline_cpu_ms),
      ours_server_cpu_s: seconds(median(oursServer) * 1000),
      baseline_server_cpu_s: seconds(median(baseServer) * 1000),
      ours_server_process_cpu_s: seconds(median(oursProcess) * 1000),
      baseline_server_process_cpu_s: seconds(median(baseProcess) * 1000),
      baseline: "raw node-oracledb executeMany with bindDefs, same chunks, one commit, same server",
      ratio: c.ratio
    }
  } finally {
    await runtime.dispose()
    await conn.close()
    await server.close()
  }
}
