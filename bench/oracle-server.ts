/**
 * Oracle test server throughput, measured with the raw, unmodified node-oracledb thin client:
 * - insert: executeMany of 1M rows (10 requests of 100k rows, 8 binds each) into an 8-column table;
 * - select: the 1M-row, 8-column SELECT (NUMBER(10), NUMBER(18,2), BINARY_DOUBLE, DATE, TIMESTAMP, two VARCHAR2,
 *   NUMBER(1)) fetched with fetchArraySize = prefetchRows = 10000 through resultSet.getRows.
 * The server runs in a worker thread (as it would in its own process via `npm run testkit -- oracle`), so client
 * and server each get a core. node-oracledb decodes every row in JS, so `rows_per_s` is bounded by the client;
 * `server_encode_rows_per_s` isolates the server side (rows encoded into TTC row data per second of server time).
 * `load_average` records how busy the shared machine was during the run.
 * Baseline in the same run: the engine cursor reading the same SELECT in-process (no protocol).
 * ratio = served seconds / baseline seconds. Targets: rows_per_s >= 300000, insert_rows_per_s >= 100000.
 */
import { createRequire } from "node:module"
import { loadavg } from "node:os"
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads"

const ROWS = 1_000_000
const BATCH = 100_000
const FETCH = 10_000

/* eslint-disable @typescript-eslint/no-explicit-any */
const oracledb: any = createRequire(import.meta.url)("oracledb")

interface WorkerReply {
  readonly connectString?: string
  readonly encodeMs?: number
  readonly baselineSeconds?: number
}

const startWorker = async (): Promise<{ worker: Worker; connectString: string; ask: (msg: string) => Promise<WorkerReply> }> => {
  const worker = new Worker(new URL(import.meta.url), { workerData: { role: "oracle-server" } })
  const pending: Array<(r: WorkerReply) => void> = []
  worker.on("message", (m: WorkerReply) => pending.shift()?.(m))
  const ask = (msg: string) =>
    new Promise<WorkerReply>((resolve) => {
      pending.push(resolve)
      worker.postMessage(msg)
    })
  const first = await new Promise<WorkerReply>((resolve, reject) => {
    pending.push(resolve)
    worker.once("error", reject)
  })
  return { worker, connectString: first.connectString!, ask }
}

const serve = async (): Promise<void> => {
  const { startOracleTestServer } = await import("../testkit/oracle/index.ts")
  const { rowEncodingTime } = await import("../testkit/oracle/messages/fetch.ts")
  const { Engine } = await import("../testkit/engine/index.ts")
  // account the server's row encoding time (FETCH replies)
  rowEncodingTime.enabled = true
  const server = await startOracleTestServer({ users: [{ name: "bench", password: "bench" }] })
  parentPort!.on("message", async (msg: string) => {
    if (msg === "encode") parentPort!.postMessage({ encodeMs: rowEncodingTime.ms })
    else if (msg === "baseline") {
      const engine = await Engine.open()
      const s = await engine.session()
      await s.execute(
        `CREATE TABLE bench AS SELECT i::DECIMAL(10,0) id, (i / 100)::DECIMAL(18,2) AS amount, i * 1.5 AS ratio,
         CAST(TIMESTAMP '2020-01-01' + to_days(CAST(i % 1000 AS INTEGER)) AS TIMESTAMP_S) AS day, TIMESTAMP '2020-01-01' + to_seconds(i) AS ts,
         'name_' || i AS name, 'a somewhat longer text value ' || i AS note, (i % 2)::DECIMAL(1,0) AS flag FROM range(${ROWS}) r(i)`
      )
      const start = performance.now()
      const cursor = await s.query("SELECT * FROM bench")
      let bytes = 0
      for (let c = await cursor.next(); c !== null; c = await cursor.next())
        for (let r = 0; r < c.rowCount; r++) bytes += (c.columns[5]!.bytes(r)?.length ?? 0) + (c.columns[6]!.bytes(r)?.length ?? 0)
      const baselineSeconds = (performance.now() - start) / 1000
      engine.close()
      parentPort!.postMessage({ baselineSeconds: bytes > 0 ? baselineSeconds : Number.NaN })
    } else if (msg === "close") {
      await server.close()
      parentPort!.postMessage({})
      parentPort!.close()
    }
  })
  parentPort!.postMessage({ connectString: server.connectString })
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === "oracle-server") void serve()

/** Runs the benchmark and returns its figures. */
export const run = async (): Promise<Record<string, unknown>> => {
  const { worker, connectString, ask } = await startWorker()
  const conn = await oracledb.getConnection({ user: "bench", password: "bench", connectString })
  try {
    await conn.execute(
      "CREATE TABLE bench (id NUMBER(10), amount NUMBER(18,2), ratio BINARY_DOUBLE, day DATE, ts TIMESTAMP, name VARCHAR2(40), note VARCHAR2(80), flag NUMBER(1))"
    )
    const bindDefs = [
      { type: oracledb.NUMBER },
      { type: oracledb.NUMBER },
      { type: oracledb.DB_TYPE_BINARY_DOUBLE },
      { type: oracledb.DATE },
      { type: oracledb.DB_TYPE_TIMESTAMP },
      { type: oracledb.STRING, maxSize: 40 },
      { type: oracledb.STRING, maxSize: 80 },
      { type: oracledb.NUMBER }
    ]
    const day0 = Date.UTC(2020, 0, 1)
    let insertSeconds = 0
    for (let start = 0; start < ROWS; start += BATCH) {
      const rows: Array<Array<unknown>> = []
      for (let i = start; i < start + BATCH; i++)
        rows.push([i, i / 100, i * 1.5, new Date(day0 + (i % 1000) * 86_400_000), new Date(day0 + i * 1000), `name_${i}`, `a somewhat longer text value ${i}`, i % 2])
      const t0 = performance.now()
      await conn.executeMany("INSERT INTO bench VALUES (:1, :2, :3, :4, :5, :6, :7, :8)", rows, { bindDefs })
      insertSeconds += (performance.now() - t0) / 1000
    }
    await conn.commit()
    const count = (await conn.execute("SELECT COUNT(*) FROM bench")).rows[0][0]
    if (count !== ROWS) throw new Error(`inserted ${count} rows, expected ${ROWS}`)

    const select = async (): Promise<number> => {
      const t0 = performance.now()
      const r = await conn.execute("SELECT id, amount, ratio, day, ts, name, note, flag FROM bench", [], {
        resultSet: true,
        fetchArraySize: FETCH,
        prefetchRows: FETCH
      })
      let n = 0
      for (let rows = await r.resultSet.getRows(FETCH); rows.length > 0; rows = await r.resultSet.getRows(FETCH)) n += rows.length
      await r.resultSet.close()
      if (n !== ROWS) throw new Error(`fetched ${n} rows, expected ${ROWS}`)
      return (performance.now() - t0) / 1000
    }
    await select() // warm-up
    const before = (await ask("encode")).encodeMs!
    const selectSeconds = await select()
    const encodeSeconds = ((await ask("encode")).encodeMs! - before) / 1000
    const baselineSeconds = (await ask("baseline")).baselineSeconds!
    return {
      bench: "oracle-server",
      rows: ROWS,
      columns: 8,
      fetch_array_size: FETCH,
      seconds: selectSeconds,
      rows_per_s: Math.round(ROWS / selectSeconds),
      server_encode_rows_per_s: Math.round(ROWS / encodeSeconds),
      insert_rows: ROWS,
      insert_seconds: insertSeconds,
      insert_rows_per_s: Math.round(ROWS / insertSeconds),
      load_average: loadavg()[0],
      baseline: "testkit engine cursor, same SELECT, in-process",
      baseline_seconds: baselineSeconds,
      ratio: selectSeconds / baselineSeconds,
      oracledb: oracledb.versionString,
      targets: { rows_per_s: 300000, insert_rows_per_s: 100000 }
    }
  } finally {
    await conn.close()
    await ask("close")
    await worker.terminate()
  }
}
