/**
 * HANA test server throughput, measured with the raw, unmodified hdb client (data format version 8) against the
 * server running in a child process (`startInChildProcess`), so the server's CPU is not charged to the client:
 * - insert: 1M rows of the 8-column benchmark table (INTEGER NOT NULL, DECIMAL(18,2), DOUBLE, DATE, TIMESTAMP, two
 *   NVARCHAR, BOOLEAN) as prepared batch executions of 24,000 rows (one 2 MiB packet each);
 *   `insert_rows_per_s` is rows per second of server time (request to reply, from the server's own counters;
 *   `_per_cpu_s`: per second of the server process's CPU time, steadier on a loaded machine),
 *   `insert_end_to_end_rows_per_s` includes hdb's encoding and the network;
 * - select: the same 1M rows served with fetch size 50,000 and read through hdb's binary result-set stream (raw
 *   RESULT_SET bytes, so the client's row decoding is not timed); `rows_per_s` is end to end,
 *   `server_encode_rows_per_s` rows per second of the server's encoding time (engine reads included).
 * `clocks` names the clock each figure divides by; `load_average` records how busy the shared machine was.
 * Baseline in the same run: the engine cursor reading the same SELECT in-process (no protocol).
 * ratio = select seconds / baseline seconds. Targets: server_encode_rows_per_s, insert_rows_per_s and rows_per_s
 * >= 300000.
 */
import { loadavg } from "node:os"
import { Engine } from "../testkit/engine/index.ts"
import { startInChildProcess } from "../testkit/common/child-process.ts"
import { FIGURE_CLOCKS, perSecond, statsDelta } from "./support/server-stats.ts"
import { BENCH_COLUMNS, createHdbClient, hdbOptionsOf, promise } from "./support/hana.ts"

const ROWS = 1_000_000
const BATCH = 24_000
const FETCH_SIZE = 50_000

interface Statement {
  exec(values: unknown, cb: (err: Error | null, result?: unknown) => void): void
}
interface Client {
  connect(cb: (err: Error | null) => void): void
  exec(sql: string, cb: (err: Error | null, result?: unknown) => void): void
  prepare(sql: string, cb: (err: Error | null, statement?: Statement) => void): void
  execute(sql: string, cb: (err: Error | null, rs?: { createBinaryStream(): NodeJS.ReadableStream }) => void): void
  close(): void
}

const CREATE = `CREATE COLUMN TABLE BENCH (ID INTEGER NOT NULL, AMOUNT DECIMAL(18,2), RATIO DOUBLE, DAY DATE, TS TIMESTAMP,
  NAME NVARCHAR(40), NOTE NVARCHAR(60), FLAG BOOLEAN)`
const INSERT = `INSERT INTO BENCH (${BENCH_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
const SELECT = `SELECT ${BENCH_COLUMNS} FROM BENCH`

const pad = (n: number, w = 2): string => String(n).padStart(w, "0")
const BASE_MS = Date.UTC(2020, 0, 1)

/** Rows [start, start + n) as hdb input arrays. */
const batchRows = (start: number, n: number): unknown[][] => {
  const rows: unknown[][] = new Array(n)
  for (let k = 0; k < n; k++) {
    const i = start + k
    const day = new Date(BASE_MS + (i % 1000) * 86_400_000)
    const ts = new Date(BASE_MS + i * 1000)
    rows[k] = [
      i,
      (i / 100).toFixed(2),
      i * 1.5,
      `${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}`,
      `${ts.getUTCFullYear()}-${pad(ts.getUTCMonth() + 1)}-${pad(ts.getUTCDate())} ${pad(ts.getUTCHours())}:${pad(ts.getUTCMinutes())}:${pad(ts.getUTCSeconds())}`,
      `name_${i}`,
      `a somewhat longer text value ${i}`,
      i % 2 === 0
    ]
  }
  return rows
}

const baselineSeconds = async (): Promise<number> => {
  const engine = await Engine.open()
  try {
    const s = await engine.session()
    await s.execute(
      `CREATE TABLE bench AS SELECT i::INTEGER id, (i / 100)::DECIMAL(18,2) AS amount, i * 1.5 AS ratio,
       DATE '2020-01-01' + (i % 1000)::INTEGER AS day, TIMESTAMP '2020-01-01' + to_seconds(i) AS ts, 'name_' || i AS name,
       'a somewhat longer text value ' || i AS note, i % 2 = 0 AS flag FROM range(${ROWS}) r(i)`
    )
    const start = process.hrtime.bigint()
    const cursor = await s.query("SELECT * FROM bench")
    let bytes = 0
    for (let c = await cursor.next(); c !== null; c = await cursor.next()) {
      for (let r = 0; r < c.rowCount; r++) bytes += (c.columns[5]!.bytes(r)?.length ?? 0) + (c.columns[6]!.bytes(r)?.length ?? 0)
    }
    if (bytes === 0) throw new Error("baseline read nothing")
    return Number(process.hrtime.bigint() - start) / 1e9
  } finally {
    engine.close()
  }
}

/** Inserts and serves the benchmark table through hdb and reports rows/s. */
export const run = async (): Promise<Record<string, unknown>> => {
  const server = await startInChildProcess("hana")
  const client = createHdbClient<Client>({
    ...hdbOptionsOf(server.uri),
    fetchSize: FETCH_SIZE,
    dataFormatSupport: 8,
    packetSize: 1 << 21,
    packetSizeLimit: 1 << 21
  })
  try {
    await promise((cb) => client.connect(cb))
    await promise((cb) => client.exec(CREATE, cb))
    const insert = await promise<Statement>((cb) => client.prepare(INSERT, cb))
    const beforeInsert = (await server.stats())!
    let insertSeconds = 0
    for (let start = 0; start < ROWS; start += BATCH) {
      const rows = batchRows(start, Math.min(BATCH, ROWS - start))
      const t0 = process.hrtime.bigint()
      await promise((cb) => insert.exec(rows, cb))
      insertSeconds += Number(process.hrtime.bigint() - t0) / 1e9
    }
    const inserted = statsDelta((await server.stats())!, beforeInsert)
    const count = await promise<Array<{ N: number }>>((cb) => client.exec("SELECT COUNT(*) AS N FROM BENCH", cb))
    if (count[0]?.N !== ROWS) throw new Error(`expected ${ROWS} rows, found ${count[0]?.N}`)

    const beforeSelect = (await server.stats())!
    const start = process.hrtime.bigint()
    const rs = await promise<{ createBinaryStream(): NodeJS.ReadableStream }>((cb) => client.execute(SELECT, cb))
    let bytes = 0
    await new Promise<void>((resolve, reject) => {
      const stream = rs.createBinaryStream()
      stream.on("data", (chunk: Buffer) => {
        bytes += chunk.length
      })
      stream.on("end", () => resolve())
      stream.on("error", reject)
    })
    const seconds = Number(process.hrtime.bigint() - start) / 1e9
    const served = statsDelta((await server.stats())!, beforeSelect)
    if (served.encodedRows !== ROWS) throw new Error(`server encoded ${served.encodedRows} rows, expected ${ROWS}`)
    const baseline = await baselineSeconds()
    return {
      bench: "hana-server",
      rows: ROWS,
      columns: 8,
      server: "child process",
      clocks: FIGURE_CLOCKS,
      insert_batch_rows: BATCH,
      insert_rows_per_s: perSecond(inserted.insertRows, inserted.insertMs),
      insert_rows_per_cpu_s: perSecond(inserted.insertRows, inserted.insertCpuMs),
      insert_end_to_end_rows_per_s: Math.round(ROWS / insertSeconds),
      fetch_size: FETCH_SIZE,
      data_format_version: 8,
      bytes,
      seconds: Math.round(seconds * 1000) / 1000,
      server_encode_rows_per_s: perSecond(served.encodedRows, served.encodeMs),
      server_encode_rows_per_cpu_s: perSecond(served.encodedRows, served.encodeCpuMs),
      rows_per_s: Math.round(ROWS / seconds),
      baseline: "engine cursor reading the same SELECT in-process",
      baseline_seconds: Math.round(baseline * 1000) / 1000,
      ratio: Math.round((seconds / baseline) * 100) / 100,
      target_rows_per_s: 300_000,
      load_average: loadavg().map((l) => Math.round(l * 100) / 100)
    }
  } finally {
    client.close()
    await server.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().then((r) => console.log(JSON.stringify(r)), (e: unknown) => {
    console.error(e)
    process.exit(1)
  })
}
