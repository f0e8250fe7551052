/**
 * Oracle test server throughput, measured with the raw, unmodified node-oracledb thin client against the server
 * running in a child process (`startInChildProcess("oracle")`), so the server's CPU is not charged to the client:
 * - insert: executeMany of 1M rows (10 requests of 100k rows, 8 binds each) into the 8-column benchmark table;
 *   `insert_rows_per_s` is rows per second of server time (decoding the bind rows and inserting them, from the
 *   server's own counters; `_per_cpu_s`: per second of the server process's CPU time, steadier on a loaded machine),
 *   `insert_end_to_end_rows_per_s` includes oracledb's encoding and the network;
 * - select: the 1M-row, 8-column SELECT (NUMBER(10), NUMBER(18,2), BINARY_DOUBLE, DATE, TIMESTAMP, two VARCHAR2,
 *   NUMBER(1)) fetched with fetchArraySize = prefetchRows = 10000 through resultSet.getRows. node-oracledb decodes
 *   every row in JS, so the end-to-end `rows_per_s` is bounded by the client; `server_encode_rows_per_s` is rows
 *   encoded into TTC row data per second of the server's encoding time (engine reads included).
 * - direct path: connection.directPathLoad of the same 1M rows (10 loads of 100k) into a second table of the same
 *   shape; `direct_path_rows_per_s` is rows per second of server time (reading the load stream pieces, laying the
 *   values out column-wise and appending them, from the same counters; `_per_cpu_s` per second of CPU time;
 *   `direct_path_end_to_end_rows_per_s` per second of the client's directPathLoad calls);
 * `clocks` names the clock each figure divides by; `load_average` records how busy the shared machine was.
 * Baseline in the same run: the engine cursor reading the same SELECT in-process (no protocol).
 * ratio = select seconds / baseline seconds. Targets (server side): server_encode_rows_per_s, insert_rows_per_s and
 * direct_path_rows_per_s >= 300000; the end-to-end rows_per_s is reported beside them.
 */
import { createRequire } from "node:module"
import { loadavg } from "node:os"
import { Engine } from "../testkit/engine/index.ts"
import { startInChildProcess } from "../testkit/common/child-process.ts"
import { FIGURE_CLOCKS, perSecond, statsDelta } from "./support/server-stats.ts"

const ROWS = 1_000_000
const BATCH = 100_000
const FETCH = 10_000

/* eslint-disable @typescript-eslint/no-explicit-any */
const oracledb: any = createRequire(import.meta.url)("oracledb")

const baselineSeconds = async (): Promise<number> => {
  const engine = await Engine.open()
  try {
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
    if (bytes === 0) throw new Error("baseline read nothing")
    return (performance.now() - start) / 1000
  } finally {
    engine.close()
  }
}

/** Runs the benchmark and returns its figures. */
export const run = async (): Promise<Record<string, unknown>> => {
  const server = await startInChildProcess("oracle")
  const uri = new URL(server.uri)
  const conn = await oracledb
    .getConnection({ user: decodeURIComponent(uri.username), password: decodeURIComponent(uri.password), connectString: `${uri.hostname}:${uri.port}${uri.pathname}` })
    .catch(async (e: unknown) => {
      await server.close()
      throw e
    })
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
    const beforeInsert = (await server.stats())!
    let insertSeconds = 0
    for (let start = 0; start < ROWS; start += BATCH) {
      const rows: Array<Array<unknown>> = []
      for (let i = start; i < start + BATCH; i++)
        rows.push([i, i / 100, i * 1.5, new Date(day0 + (i % 1000) * 86_400_000), new Date(day0 + i * 1000), `name_${i}`, `a somewhat longer text value ${i}`, i % 2])
      const t0 = performance.now()
      await conn.executeMany("INSERT INTO bench VALUES (:1, :2, :3, :4, :5, :6, :7, :8)", rows, { bindDefs })
      insertSeconds += (performance.now() - t0) / 1000
    }
    const inserted = statsDelta((await server.stats())!, beforeInsert)
    if (inserted.insertRows !== ROWS) throw new Error(`server counted ${inserted.insertRows} inserted rows, expected ${ROWS}`)
    await conn.commit()
    const count = (await conn.execute("SELECT COUNT(*) FROM bench")).rows[0][0]
    if (count !== ROWS) throw new Error(`inserted ${count} rows, expected ${ROWS}`)

    await conn.execute(
      "CREATE TABLE bench_dp (id NUMBER(10), amount NUMBER(18,2), ratio BINARY_DOUBLE, day DATE, ts TIMESTAMP, name VARCHAR2(40), note VARCHAR2(80), flag NUMBER(1))"
    )
    const beforeLoad = (await server.stats())!
    let loadSeconds = 0
    for (let start = 0; start < ROWS; start += BATCH) {
      const rows: Array<Array<unknown>> = []
      for (let i = start; i < start + BATCH; i++)
        rows.push([i, i / 100, i * 1.5, new Date(day0 + (i % 1000) * 86_400_000), new Date(day0 + i * 1000), `name_${i}`, `a somewhat longer text value ${i}`, i % 2])
      const t0 = performance.now()
      await conn.directPathLoad(decodeURIComponent(uri.username), "BENCH_DP", ["ID", "AMOUNT", "RATIO", "DAY", "TS", "NAME", "NOTE", "FLAG"], rows)
      loadSeconds += (performance.now() - t0) / 1000
    }
    const loaded = statsDelta((await server.stats())!, beforeLoad)
    if (loaded.insertRows !== ROWS) throw new Error(`server counted ${loaded.insertRows} direct path rows, expected ${ROWS}`)
    const loadedCount = (await conn.execute("SELECT COUNT(*) FROM bench_dp")).rows[0][0]
    if (loadedCount !== ROWS) throw new Error(`direct path loaded ${loadedCount} rows, expected ${ROWS}`)
    await conn.execute("DROP TABLE bench_dp")

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
    const beforeSelect = (await server.stats())!
    const selectSeconds = await select()
    const served = statsDelta((await server.stats())!, beforeSelect)
    if (served.encodedRows !== ROWS) throw new Error(`server encoded ${served.encodedRows} rows, expected ${ROWS}`)
    const baseline = await baselineSeconds()
    return {
      bench: "oracle-server",
      rows: ROWS,
      columns: 8,
      server: "child process",
      clocks: FIGURE_CLOCKS,
      insert_batch_rows: BATCH,
      insert_rows_per_s: perSecond(inserted.insertRows, inserted.insertMs),
      insert_rows_per_cpu_s: perSecond(inserted.insertRows, inserted.insertCpuMs),
      insert_end_to_end_rows_per_s: Math.round(ROWS / insertSeconds),
      direct_path_rows_per_s: perSecond(loaded.insertRows, loaded.insertMs),
      direct_path_rows_per_cpu_s: perSecond(loaded.insertRows, loaded.insertCpuMs),
      direct_path_end_to_end_rows_per_s: Math.round(ROWS / loadSeconds),
      fetch_array_size: FETCH,
      seconds: Math.round(selectSeconds * 1000) / 1000,
      server_encode_rows_per_s: perSecond(served.encodedRows, served.encodeMs),
      server_encode_rows_per_cpu_s: perSecond(served.encodedRows, served.encodeCpuMs),
      rows_per_s: Math.round(ROWS / selectSeconds),
      baseline: "engine cursor reading the same SELECT in-process",
      baseline_seconds: Math.round(baseline * 1000) / 1000,
      ratio: Math.round((selectSeconds / baseline) * 100) / 100,
      oracledb: oracledb.versionString,
      target_rows_per_s: 300_000,
      load_average: loadavg().map((l) => Math.round(l * 100) / 100)
    }
  } finally {
    await conn.close()
    await server.close()
  }
}
