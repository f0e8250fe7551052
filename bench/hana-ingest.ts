/**
 * HANA ingest path: rows × 8 mixed columns (INTEGER, BIGINT, DOUBLE, DECIMAL(18,2), NVARCHAR, DATE, TIMESTAMP,
 * BOOLEAN) bulk-ingested by our driver from an Arrow table (create mode: DDL, prepared INSERT, Arrow columns encoded
 * straight into EXECUTE parameter parts, one transaction) against a hand-written raw hdb prepared batch insert of the
 * same rows (already JS row arrays, built before its timer starts; chunks of 32,000, autocommit off and one COMMIT),
 * into a fresh table on the same test server in the same run; after one untimed run of each side the two tables must
 * hold the same rows (EXCEPT both ways); timed runs alternate, and each side's input is the only
 * large data alive during its runs. The test server runs in a child process, so its CPU is not charged to the
 * client process; its own batch-insert time per side is reported (server_insert_s), and so are the median CPU
 * seconds per run of the measuring process and of the server process (`*_client_cpu_s`, `*_server_cpu_s`; each run
 * starts after a full GC). ratio = ours / raw hdb (target ≤ 0.5).
 *
 * Rows: HANA_INGEST_ROWS (default 1,000,000); timed runs per side: HANA_INGEST_RUNS (default 3).
 */
import * as Arrow from "apache-arrow"
import { Effect, Layer } from "effect"
import * as Hana from "../layers/hana/index.ts"
import * as Connection from "../src/Connection.ts"
import { fromTable } from "../src/Ingest.ts"
import { startInChildProcess } from "../testkit/common/child-process.ts"
import { type CpuSample, cpuFigures, timedWithCpu } from "./support/cpu.ts"
import { median } from "./run.ts"
import { createHdbClient, hdbOptionsOf, promise, rawHdbComparison } from "./support/hana.ts"

const round3 = (x: number): number => Math.round(x * 1000) / 1000

const ROWS = Number(process.env["HANA_INGEST_ROWS"] ?? 1_000_000)
const RUNS = Number(process.env["HANA_INGEST_RUNS"] ?? 3)
const CHUNK = 32_000

interface Statement {
  exec(values: unknown, cb: (err: Error | null, result?: unknown) => void): void
  drop(cb: (err: Error | null) => void): void
}
interface Client {
  connect(cb: (err: Error | null) => void): void
  exec(sql: string, cb: (err: Error | null, result?: unknown) => void): void
  prepare(sql: string, cb: (err: Error | null, statement?: Statement) => void): void
  setAutoCommit(on: boolean): void
  commit(cb: (err: Error | null) => void): void
  close(): void
}


const pad = (n: number, w = 2) => String(n).padStart(w, "0")
const BASE_MS = Date.UTC(2020, 0, 1)

/** The data as raw row arrays (hdb's accepted inputs: numbers, strings, booleans). */
const makeRows = (): Array<Array<unknown>> => makeData(true).rows

/** The same data as an Arrow table and (when asked) as raw row arrays. */
const makeData = (withRows = false) => {
  const id = new Int32Array(ROWS)
  const big = new BigInt64Array(ROWS)
  const ratio = new Float64Array(ROWS)
  const amount = new Uint32Array(ROWS * 4)
  const names: Array<string> = []
  const days = new Int32Array(ROWS)
  const ts = new BigInt64Array(ROWS)
  const flags: Array<boolean> = []
  const rows: Array<Array<unknown>> = new Array(ROWS)
  for (let i = 0; i < ROWS; i++) {
    id[i] = i
    big[i] = BigInt(i) * 1000003n
    ratio[i] = i * 1.5
    amount[i * 4] = i * 7 // unscaled at scale 2
    names.push(`name_${i}`)
    days[i] = 18262 + (i % 1000)
    const ms = BASE_MS + i * 1000
    ts[i] = BigInt(ms) * 1000n
    flags.push(i % 2 === 0)
    if (!withRows) continue
    const d = new Date(18262 * 86_400_000 + (i % 1000) * 86_400_000)
    const t = new Date(ms)
    rows[i] = [
      i,
      i * 1000003,
      i * 1.5,
      ((i * 7) / 100).toFixed(2),
      `name_${i}`,
      `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
      `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())} ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}`,
      i % 2 === 0
    ]
  }
  const data = (type: Arrow.DataType, values: ArrayBufferView) =>
    Arrow.makeVector(Arrow.makeData({ type, length: ROWS, nullCount: 0, data: values } as never))
  const table = new Arrow.Table({
    ID: data(new Arrow.Int32(), id),
    BIG: data(new Arrow.Int64(), big),
    RATIO: data(new Arrow.Float64(), ratio),
    AMOUNT: data(new Arrow.Decimal(2, 18, 128), amount),
    NAME: Arrow.vectorFromArray(names, new Arrow.Utf8()),
    DAY: data(new Arrow.DateDay(), days),
    TS: data(new Arrow.TimestampMicrosecond(), ts),
    FLAG: Arrow.vectorFromArray(flags, new Arrow.Bool())
  })
  return { table, rows }
}


/** Fails unless tables `a` and `b` hold the same rows (EXCEPT both ways, and ROWS rows each). */
const sameRows = async (client: Client, a: string, b: string): Promise<void> => {
  const scalar = async (sql: string) =>
    Number(Object.values((await promise<Array<Record<string, unknown>>>((cb) => client.exec(sql, cb)))[0]!)[0])
  const only = async (x: string, y: string) => scalar(`SELECT COUNT(*) AS N FROM (SELECT * FROM "${x}" EXCEPT SELECT * FROM "${y}")`)
  const figures = [await scalar(`SELECT COUNT(*) AS N FROM "${a}"`), await scalar(`SELECT COUNT(*) AS N FROM "${b}"`), await only(a, b), await only(b, a)]
  if (figures[0] !== ROWS || figures[1] !== ROWS || figures[2] !== 0 || figures[3] !== 0) {
    throw new Error(`${a} / ${b} hold ${figures[0]} / ${figures[1]} rows (expected ${ROWS}); rows only in one: ${figures[2]} / ${figures[3]}`)
  }
}

/** Runs the comparison. */
export const run = async (): Promise<Record<string, unknown>> => {
  const server = await startInChildProcess("hana")
  const raw = createHdbClient<Client>({ ...hdbOptionsOf(server.uri), dataFormatSupport: 8 })
  const { table } = makeData()
  let n = 0
  try {
    await promise((cb) => raw.connect(cb))
    const layer = Connection.layer().pipe(Layer.provide(Hana.layerDatabase({ uri: server.uri })))
    const oursS: Array<number> = []
    const baseS: Array<number> = []
    const oursServerS: Array<number> = []
    const baseServerS: Array<number> = []
    const oursCpu: Array<CpuSample<unknown>> = []
    const baseCpu: Array<CpuSample<unknown>> = []
    // One connection on each side for the whole run, opened before timing.
    await Effect.runPromise(Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const ours = Effect.gen(function*() {
        const count = yield* conn.ingest(fromTable(table), { targetTable: `ING_OURS_${n++}` })
        if (count !== ROWS) throw new Error(`ingested ${count}`)
      })
      // The raw side's row arrays exist only during its own runs (built before its timer starts), so neither side's
      // input inflates the other's garbage collection.
      let rows: Array<Array<unknown>> = []
      const prepareBaseline = Effect.sync(() => {
        rows = makeRows()
      })
      const releaseBaseline = Effect.sync(() => {
        rows = []
      })
      const baseline = Effect.promise(async () => {
        const name = `ING_RAW_${n++}`
        await promise((cb) =>
          raw.exec(
            `CREATE TABLE "${name}" ("ID" INTEGER, "BIG" BIGINT, "RATIO" DOUBLE, "AMOUNT" DECIMAL(18,2), "NAME" NVARCHAR(5000), "DAY" DATE, "TS" TIMESTAMP, "FLAG" BOOLEAN)`,
            cb
          )
        )
        const statement = await promise<Statement>((cb) => raw.prepare(`INSERT INTO "${name}" VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, cb))
        raw.setAutoCommit(false)
        for (let start = 0; start < ROWS; start += CHUNK) {
          await promise((cb) => statement.exec(rows.slice(start, start + CHUNK), cb))
        }
        await promise((cb) => raw.commit(cb))
        raw.setAutoCommit(true)
        await promise((cb) => statement.drop(cb))
      })
      const timed = (f: Effect.Effect<void, unknown>, into: Array<number>, serverInto: Array<number>) =>
        Effect.gen(function*() {
          const before = yield* Effect.promise(() => server.stats())
          const sample = yield* Effect.promise(() => timedWithCpu(server.pid, () => Effect.runPromise(Effect.orDie(f))))
          into.push(sample.s)
          ;(into === oursS ? oursCpu : baseCpu).push(sample)
          const after = yield* Effect.promise(() => server.stats())
          serverInto.push(((after?.insertMs ?? 0) - (before?.insertMs ?? 0)) / 1000)
        })
      const timedBaseline = Effect.andThen(prepareBaseline, timed(baseline, baseS, baseServerS)).pipe(Effect.andThen(releaseBaseline))
      yield* ours
      yield* prepareBaseline
      yield* baseline
      yield* releaseBaseline
      yield* Effect.promise(() => sameRows(raw, "ING_OURS_0", "ING_RAW_1"))
      for (let i = 0; i < RUNS; i++) {
        if (i % 2 === 0) {
          yield* timed(ours, oursS, oursServerS)
          yield* timedBaseline
        } else {
          yield* timedBaseline
          yield* timed(ours, oursS, oursServerS)
        }
      }
    }).pipe(Effect.provide(layer)))
    return {
      bench: "hana-ingest",
      rows: ROWS,
      columns: 8,
      runs: RUNS,
      ...rawHdbComparison(ROWS, oursS, baseS),
      ours_server_insert_s: round3(median(oursServerS)),
      raw_hdb_server_insert_s: round3(median(baseServerS)),
      ...cpuFigures("ours", oursCpu),
      ...cpuFigures("raw_hdb", baseCpu),
      baseline: "raw hdb prepared INSERT, exec of 32,000-row chunks of JS row arrays, one COMMIT",
      target_ratio: 0.5
    }
  } finally {
    raw.close()
    await server.close()
  }
}
