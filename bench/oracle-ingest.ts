/**
 * Oracle ingest path: ORACLE_INGEST_ROWS (default 1,000,000) rows of the 8-column benchmark table appended by our
 * driver's bulk ingest from an Arrow table (executeMany in chunks of redo.statement.insert_batch_rows), against a
 * hand-written raw node-oracledb executeMany with bindDefs of the same rows (prebuilt JS arrays, same chunk size),
 * on the same test server (child process) in the same run. ratio = ours / raw (target ≤ 0.5, aim ≤ 0.35). Our side
 * takes the ingest fast path (layers/oracle/IngestEncoder.ts): bind rows encoded from the Arrow buffers.
 */
import { createRequire } from "node:module"
import * as Arrow from "apache-arrow"
import { Effect, ManagedRuntime } from "effect"
import * as Connection from "../src/Connection.ts"
import { fromTable } from "../src/Ingest.ts"
import { BENCH_DDL, bindDefs, oursLayer, rawRow, startServer } from "./oracle-read.ts"
import { collectGarbage } from "./run.ts"
import { statsDelta } from "./support/server-stats.ts"
import type { ServerStats } from "../testkit/common/stats.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
const oracledb: any = createRequire(import.meta.url)("oracledb")

const ROWS = Number(process.env["ORACLE_INGEST_ROWS"] ?? 1_000_000)
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

/**
 * Wall-clock seconds of `f`, the CPU seconds the measuring process spent, and the server's CPU seconds in its batch
 * executions (it runs in a child process).
 */
const seconds = async (
  f: () => Promise<unknown>,
  stats: () => Promise<ServerStats | undefined>
): Promise<{ wall: number; cpu: number; serverCpu: number }> => {
  collectGarbage()
  const before = await stats()
  const cpu = process.cpuUsage()
  const start = process.hrtime.bigint()
  await f()
  const used = process.cpuUsage(cpu)
  const wall = Number(process.hrtime.bigint() - start) / 1e9
  const after = await stats()
  const serverCpu = before === undefined || after === undefined ? Number.NaN : statsDelta(after, before).insertCpuMs / 1000
  return { wall, cpu: (used.user + used.system) / 1e6, serverCpu }
}

/** Runs the comparison. */
export const run = async (): Promise<Record<string, unknown>> => {
  const server = await startServer()
  const conn = await oracledb.getConnection({ user: server.user, password: server.password, connectString: server.connectString })
  const runtime = ManagedRuntime.make(oursLayer(server.uri))
  try {
    await conn.execute(`CREATE TABLE INGEST_OURS ${BENCH_DDL}`)
    await conn.execute(`CREATE TABLE INGEST_RAW ${BENCH_DDL}`)
    const table = arrowTable(ROWS)
    const raw: Array<Array<unknown>> = Array.from({ length: ROWS }, (_, i) => rawRow(i))
    const baseline = async () => {
      for (let start = 0; start < ROWS; start += CHUNK) {
        await conn.executeMany("INSERT INTO INGEST_RAW VALUES (:1, :2, :3, :4, :5, :6, :7, :8)", raw.slice(start, start + CHUNK), {
          bindDefs: bindDefs(),
          autoCommit: true
        })
      }
    }
    const ours = () =>
      runtime.runPromise(
        Effect.flatMap(Connection.Connection, (c) => c.ingest(fromTable(table), { targetTable: "INGEST_OURS", mode: "append" }))
      )
    const baseS = await seconds(baseline, server.stats)
    const oursS = await seconds(ours, server.stats)
    const o = (await conn.execute("SELECT COUNT(*) FROM INGEST_OURS")).rows[0][0]
    const r = (await conn.execute("SELECT COUNT(*) FROM INGEST_RAW")).rows[0][0]
    if (o !== ROWS || r !== ROWS) throw new Error(`inserted ${o} / ${r} rows, expected ${ROWS}`)
    return {
      bench: "oracle-ingest",
      rows: ROWS,
      columns: 8,
      chunk_rows: CHUNK,
      ours_s: oursS.wall,
      baseline_s: baseS.wall,
      ours_client_cpu_s: oursS.cpu,
      baseline_client_cpu_s: baseS.cpu,
      ours_server_cpu_s: oursS.serverCpu,
      baseline_server_cpu_s: baseS.serverCpu,
      baseline: "raw node-oracledb executeMany with bindDefs, same chunks, same server",
      ratio: oursS.wall / baseS.wall
    }
  } finally {
    await runtime.dispose()
    await conn.close()
    await server.close()
  }
}
