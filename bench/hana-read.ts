/**
 * HANA read path: 1M rows × 8 mixed columns (INTEGER, DECIMAL(18,2), DECIMAL(21,1) (`INTEGER * 1.5`, a FIXED12 on
 * the wire), DATE, TIMESTAMP, two NVARCHAR, BOOLEAN) from the HANA test server, read by our driver into Arrow record
 * batches (bytes decoded straight into the column builders), against raw hdb fetching the same SELECT as row arrays
 * (`exec` with `rowsAsArray`), both at data format version 8 with fetch size 50000, each side on one connection
 * opened before the timed runs, on the same server (in a child process, so that its CPU is not charged to the
 * clients being measured) in the same run; runs alternate.
 * ratio = ours / raw hdb (target ≤ 1.0). Rows: HANA_READ_ROWS (default 1,000,000). Each side also reports the median
 * CPU seconds per read of the measuring process and of the server process (`*_client_cpu_s`, `*_server_cpu_s`).
 */
import { Effect, Layer, ManagedRuntime, Stream } from "effect"
import * as Hana from "../layers/hana/index.ts"
import * as Connection from "../src/Connection.ts"
import { startInChildProcess } from "../testkit/common/child-process.ts"
import { type CpuSample, cpuFigures, timedWithCpu } from "./support/cpu.ts"
import { BENCH_COLUMNS, createBenchTableSql, createHdbClient, hdbOptionsOf, promise, rawHdbComparison } from "./support/hana.ts"

const ROWS = Number(process.env["HANA_READ_ROWS"] ?? 1_000_000)
const FETCH_SIZE = 50_000
const RUNS = Number(process.env["HANA_READ_RUNS"] ?? 3)

interface Client {
  connect(cb: (err: Error | null) => void): void
  exec(sql: string, options: object, cb: (err: Error | null, result?: unknown) => void): void
  close(): void
}

const CREATE = createBenchTableSql("BENCH_READ", ROWS)
const SELECT = `SELECT ${BENCH_COLUMNS} FROM BENCH_READ`


/** Runs the comparison. */
export const run = async (): Promise<Record<string, unknown>> => {
  const server = await startInChildProcess("hana")
  const raw = createHdbClient<Client>({ ...hdbOptionsOf(server.uri), fetchSize: FETCH_SIZE, dataFormatSupport: 8 })
  let runtime: ManagedRuntime.ManagedRuntime<Connection.Connection, unknown> | undefined
  try {
    await promise((cb) => raw.connect(cb))
    await promise((cb) => raw.exec(CREATE, {}, cb))
    // One connection for all of our reads, as raw hdb reads on one connected client: neither side's timer includes
    // a connect and its authentication.
    runtime = ManagedRuntime.make(Connection.layer().pipe(
      Layer.provide(Hana.layerDatabase({ uri: server.uri, "dba.statement.fetch_size": String(FETCH_SIZE) }))
    ))
    const connected = runtime
    const ours = () =>
      connected.runPromise(
        Effect.flatMap(Connection.Connection, (conn) =>
          Stream.runFold(conn.query(SELECT), () => 0, (n, batch) => n + batch.numRows))
      )
    const baseline = () =>
      promise<Array<Array<unknown>>>((cb) => raw.exec(SELECT, { rowsAsArray: true }, cb)).then((rows) => rows.length)

    await ours()
    await baseline()
    const oursS: Array<CpuSample<number>> = []
    const baseS: Array<CpuSample<number>> = []
    for (let i = 0; i < RUNS; i++) {
      const order = i % 2 === 0 ? [ours, baseline] : [baseline, ours]
      for (const f of order) {
        const r = await timedWithCpu(server.pid, f)
        if (r.result !== ROWS) throw new Error(`read ${r.result} rows, expected ${ROWS}`)
        ;(f === ours ? oursS : baseS).push(r)
      }
    }
    return {
      bench: "hana-read",
      rows: ROWS,
      columns: 8,
      fetch_size: FETCH_SIZE,
      runs: RUNS,
      ...rawHdbComparison(ROWS, oursS.map((r) => r.s), baseS.map((r) => r.s)),
      ...cpuFigures("ours", oursS),
      ...cpuFigures("raw_hdb", baseS),
      baseline: "raw hdb exec(SELECT, { rowsAsArray: true }) on the same server",
      target_ratio: 1.0
    }
  } finally {
    await runtime?.dispose()
    raw.close()
    await server.close()
  }
}
