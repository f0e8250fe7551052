/**
 * HANA test server throughput: a 1M-row, 8-column SELECT (INTEGER, DECIMAL(18,2), DOUBLE, DATE, TIMESTAMP, two
 * NVARCHAR, BOOLEAN) served to the raw, unmodified hdb client at data format version 8 with fetch size 50000,
 * read through hdb's binary result-set stream (raw RESULT_SET bytes, so the client's row decoding is not timed).
 * Baseline in the same run: the engine cursor reading the same SELECT in-process (no protocol).
 * ratio = server seconds / baseline seconds. Target: rows_per_s >= 300000.
 */
import { Engine } from "../testkit/engine/index.ts"
import { startHanaTestServer } from "../testkit/hana/index.ts"
import { BENCH_COLUMNS, createBenchTableSql, createHdbClient, promise } from "./support/hana.ts"

const ROWS = 1_000_000
const FETCH_SIZE = 50_000

interface Client {
  connect(cb: (err: Error | null) => void): void
  exec(sql: string, cb: (err: Error | null, result?: unknown) => void): void
  execute(sql: string, cb: (err: Error | null, rs?: { createBinaryStream(): NodeJS.ReadableStream }) => void): void
  close(): void
}



const CREATE = createBenchTableSql("BENCH", ROWS)
const SELECT = `SELECT ${BENCH_COLUMNS} FROM BENCH`


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

/** Serves the SELECT to hdb and reports rows/s. */
export const run = async (): Promise<Record<string, unknown>> => {
  const server = await startHanaTestServer()
  const client = createHdbClient<Client>({
    host: server.host, port: server.port, user: server.user, password: server.password, fetchSize: FETCH_SIZE, dataFormatSupport: 8
  })
  try {
    await promise((cb) => client.connect(cb))
    await promise((cb) => client.exec(CREATE, cb))
    const count = await promise<Array<{ N: number }>>((cb) => client.exec("SELECT COUNT(*) AS N FROM BENCH", cb))
    if (count[0]?.N !== ROWS) throw new Error(`expected ${ROWS} rows, found ${count[0]?.N}`)
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
    const baseline = await baselineSeconds()
    return {
      bench: "hana-server",
      rows: ROWS,
      columns: 8,
      fetch_size: FETCH_SIZE,
      data_format_version: 8,
      bytes,
      seconds: Math.round(seconds * 1000) / 1000,
      rows_per_s: Math.round(ROWS / seconds),
      baseline: "engine cursor reading the same SELECT in-process",
      baseline_seconds: Math.round(baseline * 1000) / 1000,
      ratio: Math.round((seconds / baseline) * 100) / 100,
      target_rows_per_s: 300_000
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
