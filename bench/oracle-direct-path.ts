/**
 * Oracle direct path load versus executeMany for a large append: ORACLE_DIRECT_PATH_ROWS (default 200,000) rows of
 * the 8-column benchmark table, from the same prebuilt JS row arrays, into two empty tables on the Oracle test server
 * (child process): raw node-oracledb `connection.directPathLoad` (one call; it always commits) against raw
 * `executeMany` with bindDefs in chunks of 65,536 rows (what the driver's ingest sends) plus a commit.
 * ratio = direct path seconds / executeMany seconds (below 1: direct path is faster).
 */
import { createRequire } from "node:module"
import { BENCH_DDL, bindDefs, rawRow, startServer } from "./oracle-read.ts"
import { collectGarbage } from "./run.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
const oracledb: any = createRequire(import.meta.url)("oracledb")

const ROWS = Number(process.env["ORACLE_DIRECT_PATH_ROWS"] ?? 200_000)
const CHUNK = 65_536
const COLUMNS = ["ID", "AMOUNT", "RATIO", "DAY", "TS", "NAME", "NOTE", "FLAG"]

const seconds = async (f: () => Promise<unknown>): Promise<number> => {
  collectGarbage()
  const start = process.hrtime.bigint()
  await f()
  return Number(process.hrtime.bigint() - start) / 1e9
}

/** Runs the comparison. */
export const run = async (): Promise<Record<string, unknown>> => {
  const server = await startServer()
  const conn = await oracledb.getConnection({ user: server.user, password: server.password, connectString: server.connectString })
  try {
    await conn.execute(`CREATE TABLE DP_MANY ${BENCH_DDL}`)
    await conn.execute(`CREATE TABLE DP_DIRECT ${BENCH_DDL}`)
    const rows: Array<Array<unknown>> = Array.from({ length: ROWS }, (_, i) => rawRow(i))
    const manyS = await seconds(async () => {
      for (let start = 0; start < ROWS; start += CHUNK) {
        await conn.executeMany("INSERT INTO DP_MANY VALUES (:1, :2, :3, :4, :5, :6, :7, :8)", rows.slice(start, start + CHUNK), {
          bindDefs: bindDefs()
        })
      }
      await conn.commit()
    })
    const schema = String((await conn.execute("SELECT SYS_CONTEXT('USERENV', 'CURRENT_SCHEMA') FROM DUAL")).rows[0][0])
    const directS = await seconds(() => conn.directPathLoad(schema, "DP_DIRECT", COLUMNS, rows))
    const many = Number((await conn.execute("SELECT COUNT(*) FROM DP_MANY")).rows[0][0])
    const direct = Number((await conn.execute("SELECT COUNT(*) FROM DP_DIRECT")).rows[0][0])
    if (many !== ROWS || direct !== ROWS) throw new Error(`loaded ${many} / ${direct} rows, expected ${ROWS}`)
    return {
      bench: "oracle-direct-path",
      rows: ROWS,
      execute_many_s: manyS,
      direct_path_s: directS,
      execute_many_rows_per_s: Math.round(ROWS / manyS),
      direct_path_rows_per_s: Math.round(ROWS / directS),
      baseline: "raw node-oracledb executeMany (bindDefs, 65,536-row chunks) + commit on the same server",
      ratio: directS / manyS
    }
  } finally {
    await conn.close()
    await server.close()
  }
}
