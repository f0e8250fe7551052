/**
 * Oracle LOB read path: ORACLE_LOB_ROWS (default 20,000) rows of (ID NUMBER(10), DOC CLOB, BIN BLOB) from the Oracle
 * test server (in a child process), every 10th row's LOBs empty (EMPTY_CLOB() / EMPTY_BLOB()) and every 10th NULL,
 * the others a 200-character text and 200 bytes. Our driver (batch mode) reads LOBs as locators and each non-empty
 * one whole (one LOB read round trip each), so that an empty LOB reads as a zero-length value and NULL as null.
 * Compared, in the same run on the same server, with raw node-oracledb:
 * - `lob`: Lob objects read with `getData()` (the same round trips; ratio_lob = ours / this);
 * - `inline`: the LOBs fetched as a string / Buffer (as LONG in the row data: no extra round trip, but an empty LOB
 *   reads as null), what the driver did before (ratio_inline = ours / this: the price of telling empty from NULL).
 * Both sides use fetchArraySize = prefetchRows = 1000; runs alternate after one untimed run of each.
 */
import { createRequire } from "node:module"
import { Effect, Layer, ManagedRuntime, Stream } from "effect"
import * as Oracle from "../layers/oracle/index.ts"
import * as Connection from "../src/Connection.ts"
import { startServer } from "./oracle-read.ts"
import { collectGarbage, median } from "./run.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
const oracledb: any = createRequire(import.meta.url)("oracledb")

const ROWS = Number(process.env["ORACLE_LOB_ROWS"] ?? 20_000)
const RUNS = Number(process.env["ORACLE_LOB_RUNS"] ?? 2)
const FETCH = 1000
const SELECT = "SELECT ID, DOC, BIN FROM BENCH_LOB"

const seconds = async (f: () => Promise<number>): Promise<number> => {
  collectGarbage()
  const start = process.hrtime.bigint()
  const rows = await f()
  if (rows !== ROWS) throw new Error(`read ${rows} rows, expected ${ROWS}`)
  return Number(process.hrtime.bigint() - start) / 1e9
}

/** Runs the comparison. */
export const run = async (): Promise<Record<string, unknown>> => {
  const server = await startServer()
  const conn = await oracledb.getConnection({ user: server.user, password: server.password, connectString: server.connectString })
  const runtime = ManagedRuntime.make(Connection.layer().pipe(
    Layer.provide(Oracle.layerDatabase({
      uri: server.uri,
      timezone: "UTC",
      "redo.statement.execution_mode": "batch",
      "redo.statement.fetch_array_size": String(FETCH),
      "redo.statement.prefetch_rows": String(FETCH)
    }))
  ))
  try {
    await conn.execute("CREATE TABLE BENCH_LOB (ID NUMBER(10), DOC CLOB, BIN BLOB)")
    const rows: Array<Array<unknown>> = []
    for (let i = 0; i < ROWS; i++) {
      if (i % 10 === 0 || i % 10 === 1) continue
      rows.push([i, `document ${i} `.padEnd(200, "x"), Buffer.alloc(200, i % 256)])
    }
    await conn.executeMany("INSERT INTO BENCH_LOB VALUES (:1, :2, :3)", rows, {
      bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.CLOB }, { type: oracledb.BLOB }]
    })
    const ids = (rest: number) => Array.from({ length: ROWS }, (_, i) => i).filter((i) => i % 10 === rest).map((i) => [i])
    const numberBind = { bindDefs: [{ type: oracledb.NUMBER }] }
    await conn.executeMany("INSERT INTO BENCH_LOB VALUES (:1, EMPTY_CLOB(), EMPTY_BLOB())", ids(0), numberBind)
    await conn.executeMany("INSERT INTO BENCH_LOB (ID) VALUES (:1)", ids(1), numberBind)
    await conn.commit()
    const ours = () =>
      runtime.runPromise(Effect.flatMap(Connection.Connection, (c) =>
        Stream.runFold(c.query(SELECT), () => 0, (n, batch) => n + batch.numRows)))
    const raw = (inline: boolean) => async () => {
      const r = await conn.execute(SELECT, [], {
        resultSet: true,
        fetchArraySize: FETCH,
        prefetchRows: FETCH,
        outFormat: oracledb.OUT_FORMAT_ARRAY,
        ...(inline ? { fetchInfo: { DOC: { type: oracledb.STRING }, BIN: { type: oracledb.BUFFER } } } : {})
      })
      let n = 0
      for (let page = await r.resultSet.getRows(FETCH); page.length > 0; page = await r.resultSet.getRows(FETCH)) {
        if (!inline) {
          for (const row of page) {
            for (const k of [1, 2]) {
              const lob = row[k]
              if (lob !== null) {
                row[k] = lob.length === 0 ? null : await lob.getData()
                lob.destroy()
              }
            }
          }
        }
        n += page.length
      }
      await r.resultSet.close()
      return n
    }
    const lob = raw(false)
    const inline = raw(true)
    // untimed: every side reads once (and the row count is checked on every run)
    for (const f of [ours, lob, inline]) await seconds(f)
    const times = new Map<() => Promise<number>, Array<number>>([[ours, []], [lob, []], [inline, []]])
    for (let i = 0; i < RUNS; i++) {
      for (const f of i % 2 === 0 ? [ours, lob, inline] : [inline, lob, ours]) times.get(f)!.push(await seconds(f))
    }
    const o = median(times.get(ours)!)
    const l = median(times.get(lob)!)
    const n = median(times.get(inline)!)
    return {
      bench: "oracle-lob-read",
      rows: ROWS,
      fetch_array_size: FETCH,
      runs: RUNS,
      ours_s: o,
      raw_lob_s: l,
      raw_inline_s: n,
      ours_rows_per_s: Math.round(ROWS / o),
      raw_lob_rows_per_s: Math.round(ROWS / l),
      raw_inline_rows_per_s: Math.round(ROWS / n),
      baseline: "raw node-oracledb: Lob objects + getData (ratio, ratio_lob); LOBs fetched inline as string/Buffer (ratio_inline)",
      ratio: o / l,
      ratio_lob: o / l,
      ratio_inline: o / n
    }
  } finally {
    await runtime.dispose()
    await conn.close()
    await server.close()
  }
}
