/**
 * What the HANA benchmarks share: the raw hdb client (loaded as the unmodified package), a callback-to-promise
 * helper, and the 1M-row, 8-column table (INTEGER, DECIMAL(18,2), DOUBLE, DATE, TIMESTAMP, two NVARCHAR, BOOLEAN)
 * generated on the HANA test server.
 */
import { createRequire } from "node:module"
import { median } from "../run.ts"

/** A node-style callback. */
export type Callback = (err: Error | null, result?: unknown) => void

/** Runs a callback API as a promise. */
export const promise = <A>(f: (cb: Callback) => void): Promise<A> =>
  new Promise((resolve, reject) => f((err, result) => (err ? reject(err) : resolve(result as A))))

const hdb = createRequire(import.meta.url)("hdb") as { createClient(options: Record<string, unknown>): unknown }

/** A client of the unmodified `hdb` package, typed by the caller with the methods it uses. */
export const createHdbClient = <Client>(options: Record<string, unknown>): Client => hdb.createClient(options) as Client

/** hdb's connect options (host, port, user, password) of a test server URI `hdb://USER:PASSWORD@HOST:PORT`. */
export const hdbOptionsOf = (uri: string): { host: string; port: number; user: string; password: string } => {
  const url = new URL(uri)
  return {
    host: url.hostname,
    port: Number(url.port),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password)
  }
}

/** The benchmark's columns, in order. */
export const BENCH_COLUMNS = "ID, AMOUNT, RATIO, DAY, TS, NAME, NOTE, FLAG"

/** HANA SQL creating table `name` with `rows` generated rows of the benchmark's 8 mixed columns. */
export const createBenchTableSql = (name: string, rows: number): string => `CREATE COLUMN TABLE ${name} AS (SELECT
  CAST(GENERATED_PERIOD_START AS INTEGER) AS ID,
  CAST(GENERATED_PERIOD_START / 100 AS DECIMAL(18,2)) AS AMOUNT,
  GENERATED_PERIOD_START * 1.5 AS RATIO,
  ADD_DAYS(TO_DATE('2020-01-01'), MOD(GENERATED_PERIOD_START, 1000)) AS DAY,
  ADD_SECONDS(TO_TIMESTAMP('2020-01-01 00:00:00'), GENERATED_PERIOD_START) AS TS,
  'name_' || GENERATED_PERIOD_START AS NAME,
  'a somewhat longer text value ' || GENERATED_PERIOD_START AS NOTE,
  MOD(GENERATED_PERIOD_START, 2) = 0 AS FLAG
  FROM SERIES_GENERATE_INTEGER(1, 0, ${rows}))`

const round3 = (x: number): number => Math.round(x * 1000) / 1000

/** The figures every HANA ours-versus-raw-hdb benchmark reports, from per-run seconds of each side. */
export const rawHdbComparison = (rows: number, ours: ReadonlyArray<number>, raw: ReadonlyArray<number>) => {
  const o = median(ours)
  const b = median(raw)
  return {
    ours_s: round3(o),
    raw_hdb_s: round3(b),
    ours_rows_per_s: Math.round(rows / o),
    raw_hdb_rows_per_s: Math.round(rows / b),
    ours_samples_s: ours.map(round3),
    raw_hdb_samples_s: raw.map(round3),
    ratio: round3(o / b)
  }
}
