/**
 * Effect SQL insert path: SQL_INSERT_ROWS (default 100,000) rows × 8 columns (the read benchmarks' table) inserted
 * with `sql.insert` in chunks of SQL_INSERT_CHUNK (default 10,000) records, each chunk one statement that the client
 * runs as one array-DML execution, against each raw client's own batch insert of the same chunks: hdb
 * `prepare` + `exec` with an array of rows, oracledb `executeMany` with bind definitions. HANA and Oracle test
 * servers in child processes; runs alternate, the table is emptied before each run; medians.
 * ratio = the larger of the two ours / raw ratios (target ≤ 1.2); `hana_ratio` and `oracle_ratio` report each.
 */
import { createRequire } from "node:module"
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import * as HanaClient from "../layers/hana/HanaClient.ts"
import * as OracleClient from "../layers/oracle/OracleClient.ts"
import { startInChildProcess } from "../testkit/common/child-process.ts"
import { BENCH_DDL, bindDefs, rawRow, startServer } from "./oracle-read.ts"
import { compareAsync } from "./run.ts"
import { createHdbClient, hdbOptionsOf, promise } from "./support/hana.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
const oracledb: any = createRequire(import.meta.url)("oracledb")

const ROWS = Number(process.env["SQL_INSERT_ROWS"] ?? 100_000)
const CHUNK = Number(process.env["SQL_INSERT_CHUNK"] ?? 10_000)
const RUNS = Number(process.env["SQL_INSERT_RUNS"] ?? 3)
const COLUMNS = ["ID", "AMOUNT", "RATIO", "DAY", "TS", "NAME", "NOTE", "FLAG"] as const
const HANA_DDL =
  "(ID INTEGER, AMOUNT DECIMAL(12,2), RATIO DOUBLE, DAY DATE, TS TIMESTAMP, NAME NVARCHAR(40), NOTE NVARCHAR(80), FLAG BOOLEAN)"

/** The benchmark rows as records (what an application hands to sql.insert) and as raw bind rows, in chunks. */
const chunks = <A>(make: (i: number) => A): Array<Array<A>> => {
  const out: Array<Array<A>> = []
  for (let start = 0; start < ROWS; start += CHUNK) {
    out.push(Array.from({ length: Math.min(CHUNK, ROWS - start) }, (_, k) => make(start + k)))
  }
  return out
}
const record = (i: number): Record<string, unknown> => {
  const values = rawRow(i)
  return Object.fromEntries(COLUMNS.map((c, k) => [c, values[k]]))
}
/** hdb binds temporal values as text (lib/protocol/Writer.js). */
const hdbRow = (i: number): Array<unknown> => {
  const [id, amount, ratio, day, ts, name, note, flag] = rawRow(i) as [number, number, number, Date, Date, string, string, boolean]
  return [id, amount, ratio, day.toISOString().slice(0, 10), ts.toISOString().replace("T", " ").slice(0, 23), name, note, flag]
}

const ourInsert = (table: string, records: Array<Array<Record<string, unknown>>>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.forEach(records, (chunk) =>
      sql`INSERT INTO ${sql(table)} ${sql.insert(chunk as [Record<string, unknown>, ...Array<Record<string, unknown>>])}`, {
      discard: true
    }))

const count = (table: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ C: number }>`SELECT COUNT(*) AS C FROM ${sql(table)}`)

interface HdbClient {
  connect(cb: (err: Error | null) => void): void
  exec(sql: string, cb: (err: Error | null, result?: unknown) => void): void
  prepare(sql: string, cb: (err: Error | null, statement?: any) => void): void
  close(): void
}

const hanaSide = async () => {
  const server = await startInChildProcess("hana")
  const raw = createHdbClient<HdbClient>({ ...hdbOptionsOf(server.uri) })
  await promise((cb) => raw.connect(cb))
  await promise((cb) => raw.exec(`CREATE COLUMN TABLE INS_OURS ${HANA_DDL}`, cb))
  await promise((cb) => raw.exec(`CREATE COLUMN TABLE INS_RAW ${HANA_DDL}`, cb))
  const runtime = ManagedRuntime.make(HanaClient.layer({ uri: server.uri, poolSize: 1 }))
  const records = chunks(record)
  const rows = chunks(hdbRow)
  const statement = await promise<any>((cb) => raw.prepare("INSERT INTO INS_RAW VALUES (?, ?, ?, ?, ?, ?, ?, ?)", cb))
  const comparison = await compareAsync(
    {
      before: () => promise((cb) => raw.exec("TRUNCATE TABLE INS_OURS", cb)),
      run: () => runtime.runPromise(ourInsert("INS_OURS", records)),
      after: async () => {
        const [c] = await runtime.runPromise(count("INS_OURS"))
        if (c?.C !== ROWS) throw new Error(`ours inserted ${c?.C} rows, expected ${ROWS}`)
      }
    },
    {
      before: () => promise((cb) => raw.exec("TRUNCATE TABLE INS_RAW", cb)),
      run: async () => {
        for (const chunk of rows) await promise((cb) => statement.exec(chunk, cb))
      }
    },
    { warmup: 1, runs: RUNS }
  )
  await runtime.dispose()
  raw.close()
  await server.close()
  return comparison
}

const oracleSide = async () => {
  const server = await startServer()
  const conn = await oracledb.getConnection({ user: server.user, password: server.password, connectString: server.connectString })
  await conn.execute(`CREATE TABLE INS_OURS ${BENCH_DDL}`)
  await conn.execute(`CREATE TABLE INS_RAW ${BENCH_DDL}`)
  const runtime = ManagedRuntime.make(OracleClient.layer({ uri: server.uri, poolSize: 1 }))
  const records = chunks(record)
  const rows = chunks(rawRow)
  const comparison = await compareAsync(
    {
      before: () => conn.execute("TRUNCATE TABLE INS_OURS"),
      run: () => runtime.runPromise(ourInsert("INS_OURS", records)),
      after: async () => {
        const [c] = await runtime.runPromise(count("INS_OURS"))
        if (c?.C !== ROWS) throw new Error(`ours inserted ${c?.C} rows, expected ${ROWS}`)
      }
    },
    {
      before: () => conn.execute("TRUNCATE TABLE INS_RAW"),
      run: async () => {
        for (const chunk of rows) {
          await conn.executeMany("INSERT INTO INS_RAW VALUES (:1, :2, :3, :4, :5, :6, :7, :8)", chunk, {
            bindDefs: bindDefs(),
            autoCommit: true
          })
        }
      }
    },
    { warmup: 1, runs: RUNS }
  )
  await runtime.dispose()
  await conn.close()
  await server.close()
  return comparison
}

/** Runs both comparisons. */
export const run = async (): Promise<Record<string, unknown>> => {
  const hana = await hanaSide()
  const oracle = await oracleSide()
  return {
    bench: "sql-insert",
    rows: ROWS,
    chunk: CHUNK,
    runs: RUNS,
    hana,
    oracle,
    hana_ratio: hana.ratio,
    oracle_ratio: oracle.ratio,
    baseline: "hdb prepare + exec(rows) / oracledb executeMany(rows, bindDefs), same chunks, same servers",
    ratio: Math.max(hana.ratio, oracle.ratio),
    target_ratio: 1.2
  }
}
