/**
 * Oracle read path: ORACLE_READ_ROWS (default 1,000,000) rows × 8 columns (NUMBER(10), NUMBER(12,2),
 * BINARY_DOUBLE, DATE, TIMESTAMP(6), two VARCHAR2, BOOLEAN) from the Oracle test server (in a child process, so it
 * has its own core), read by our driver into Arrow record batches in batch mode, against raw node-oracledb fetching
 * the same SELECT as row arrays through resultSet.getRows, both with fetchArraySize = prefetchRows = 10000, on the
 * same server in the same run; runs alternate after one untimed run of each side whose content checksums must agree.
 * ratio = ours / raw oracledb (required ≤ 1.0, goal ≤ 0.5). Row mode is timed too (`row_mode_ratio`), to show that
 * batch mode is the faster path. Each side also reports the median CPU seconds per read of the measuring process and of
 * the server process (`*_client_cpu_s`, `*_server_cpu_s`).
 * Also exports the server/table helpers of the other Oracle benchmarks.
 */
import { createRequire } from "node:module"
import { Effect, Layer, ManagedRuntime, Result, Stream } from "effect"
import * as Oracle from "../layers/oracle/index.ts"
import { parseUri } from "../layers/oracle/Uri.ts"
import { type ChildServer, startInChildProcess } from "../testkit/common/child-process.ts"
import * as Connection from "../src/Connection.ts"
import { median } from "./run.ts"
import { type CpuSample, cpuFigures, timedWithCpu } from "./support/cpu.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
const oracledb: any = createRequire(import.meta.url)("oracledb")

const ROWS = Number(process.env["ORACLE_READ_ROWS"] ?? 1_000_000)
const RUNS = Number(process.env["ORACLE_READ_RUNS"] ?? 2)
/** Rows per round trip on both sides. */
export const FETCH = 10_000
/** The benchmark table's columns. */
export const BENCH_DDL =
  "(ID NUMBER(10), AMOUNT NUMBER(12,2), RATIO BINARY_DOUBLE, DAY DATE, TS TIMESTAMP(6), NAME VARCHAR2(40), NOTE VARCHAR2(80), FLAG BOOLEAN)"
/** Bind definitions of a raw executeMany into the benchmark table. */
export const bindDefs = () => [
  { type: oracledb.NUMBER },
  { type: oracledb.NUMBER },
  { type: oracledb.DB_TYPE_BINARY_DOUBLE },
  { type: oracledb.DATE },
  { type: oracledb.DB_TYPE_TIMESTAMP },
  { type: oracledb.STRING, maxSize: 40 },
  { type: oracledb.STRING, maxSize: 80 },
  { type: oracledb.DB_TYPE_BOOLEAN }
]
const DAY0 = Date.UTC(2020, 0, 1)
/** Row `i` of the benchmark data as raw oracledb bind values. */
export const rawRow = (i: number): Array<unknown> => [
  i,
  i / 100,
  i * 1.5,
  new Date(DAY0 + (i % 1000) * 86_400_000),
  new Date(DAY0 + i * 1000),
  `name_${i}`,
  `a somewhat longer text value ${i}`,
  i % 2 === 0
]

/** The Oracle test server in a child process (its CPU and memory are not the measuring process's). */
export const startServer = async (): Promise<{
  uri: string
  user: string | undefined
  password: string | undefined
  connectString: string
  stats: ChildServer["stats"]
  pid: number
  close: () => Promise<void>
}> => {
  const child = await startInChildProcess("oracle")
  const parsed = Result.getOrThrow(parseUri(child.uri))
  return {
    uri: child.uri,
    user: parsed.user,
    password: parsed.password,
    connectString: parsed.connectString,
    stats: child.stats,
    pid: child.pid,
    close: child.close
  }
}

/** Creates table `name` with `rows` benchmark rows through raw executeMany. */
export const fillTable = async (conn: any, name: string, rows: number): Promise<void> => {
  await conn.execute(`CREATE TABLE ${name} ${BENCH_DDL}`)
  for (let start = 0; start < rows; start += 100_000) {
    const batch: Array<Array<unknown>> = []
    for (let i = start; i < Math.min(rows, start + 100_000); i++) batch.push(rawRow(i))
    await conn.executeMany(`INSERT INTO ${name} VALUES (:1, :2, :3, :4, :5, :6, :7, :8)`, batch, { bindDefs: bindDefs() })
  }
  await conn.commit()
}

/** Our driver's layer on the server with the benchmark's fetch settings. */
export const oursLayer = (uri: string, mode: "batch" | "row" = "batch") =>
  Connection.layer().pipe(
    Layer.provide(Oracle.layerDatabase({
      uri,
      timezone: "UTC",
      "redo.statement.execution_mode": mode,
      "redo.statement.fetch_array_size": String(FETCH),
      "redo.statement.prefetch_rows": String(FETCH)
    }))
  )

const SELECT = "SELECT ID, AMOUNT, RATIO, DAY, TS, NAME, NOTE, FLAG FROM BENCH_READ"

/** An order-independent checksum of the columns both sides read as the same JS values (ID, RATIO, NAME, NOTE, FLAG). */
class Checksum {
  ids = 0
  ratios = 0
  chars = 0
  flags = 0
  add(id: number, ratio: number, name: string, note: string, flag: boolean): void {
    this.ids += id
    this.ratios += ratio
    this.chars += name.length * 7 + note.length
    if (flag) this.flags++
  }
  text(): string {
    return `${this.ids}/${this.ratios}/${this.chars}/${this.flags}`
  }
}

/** Runs the comparison. */
export const run = async (): Promise<Record<string, unknown>> => {
  const server = await startServer()
  const conn = await oracledb.getConnection({ user: server.user, password: server.password, connectString: server.connectString })
  const runtime = ManagedRuntime.make(oursLayer(server.uri))
  const rowRuntime = ManagedRuntime.make(oursLayer(server.uri, "row"))
  try {
    await fillTable(conn, "BENCH_READ", ROWS)
    // One connection per client for all runs, as the baseline keeps its one connection.
    const oursCount = (rt: typeof runtime) => () =>
      rt.runPromise(
        Effect.flatMap(Connection.Connection, (c) => Stream.runFold(c.query(SELECT), () => 0, (n, batch) => n + batch.numRows))
      )
    const ours = oursCount(runtime)
    const oursRow = oursCount(rowRuntime)
    const baselineRows = async (onRows: (rows: Array<Array<any>>) => void) => {
      const r = await conn.execute(SELECT, [], { resultSet: true, fetchArraySize: FETCH, prefetchRows: FETCH, outFormat: oracledb.OUT_FORMAT_ARRAY })
      let n = 0
      for (let rows = await r.resultSet.getRows(FETCH); rows.length > 0; rows = await r.resultSet.getRows(FETCH)) {
        onRows(rows)
        n += rows.length
      }
      await r.resultSet.close()
      return n
    }
    const baseline = () => baselineRows(() => {})
    // Untimed: both sides read once and must agree on the content, not only the row count.
    const oursSum = new Checksum()
    await runtime.runPromise(Effect.flatMap(Connection.Connection, (c) =>
      Stream.runForEach(c.query(SELECT), (batch) =>
        Effect.sync(() => {
          const id = batch.getChild("ID")!, ratio = batch.getChild("RATIO")!, name = batch.getChild("NAME")!
          const note = batch.getChild("NOTE")!, flag = batch.getChild("FLAG")!
          for (let i = 0; i < batch.numRows; i++) {
            oursSum.add(Number(id.get(i)), ratio.get(i), name.get(i), note.get(i), flag.get(i))
          }
        }))))
    const rawSum = new Checksum()
    await baselineRows((rows) => {
      for (const row of rows) rawSum.add(row[0], row[2], row[5], row[6], row[7])
    })
    if (oursSum.text() !== rawSum.text()) throw new Error(`content differs: ours ${oursSum.text()}, raw ${rawSum.text()}`)
    await oursRow()
    const times = new Map<() => Promise<number>, Array<number>>([[ours, []], [baseline, []], [oursRow, []]])
    const cpu = new Map<() => Promise<number>, Array<CpuSample<number>>>([[ours, []], [baseline, []], [oursRow, []]])
    for (let i = 0; i < RUNS; i++) {
      for (const f of i % 2 === 0 ? [ours, baseline, oursRow] : [oursRow, baseline, ours]) {
        const r = await timedWithCpu(server.pid, f)
        if (r.result !== ROWS) throw new Error(`read ${r.result} rows, expected ${ROWS}`)
        times.get(f)!.push(r.s)
        cpu.get(f)!.push(r)
      }
    }
    const o = median(times.get(ours)!)
    const b = median(times.get(baseline)!)
    const rowMode = median(times.get(oursRow)!)
    return {
      bench: "oracle-read",
      rows: ROWS,
      columns: 8,
      fetch_array_size: FETCH,
      runs: RUNS,
      ours_s: o,
      baseline_s: b,
      ours_rows_per_s: Math.round(ROWS / o),
      baseline_rows_per_s: Math.round(ROWS / b),
      row_mode_s: rowMode,
      row_mode_rows_per_s: Math.round(ROWS / rowMode),
      row_mode_ratio: rowMode / b,
      ...cpuFigures("ours", cpu.get(ours)!),
      ...cpuFigures("baseline", cpu.get(baseline)!),
      baseline: "raw node-oracledb execute(resultSet) + getRows arrays on the same server",
      ratio: o / b
    }
  } finally {
    await runtime.dispose()
    await rowRuntime.dispose()
    await conn.close()
    await server.close()
  }
}
