/**
 * `npm run bench -- copy`: the HANA → Oracle copy of the main job (cli/copy.ts given the row count as the main job
 * gives it, so with the job's batch size, a 32nd of the table: the HANA reader's Arrow batches streamed into the
 * Oracle driver's bulk ingest) against the same copy with the raw clients: hdb's result set, fetched in pages of the
 * same size (not hdb's default 1,024 rows, which would slow the baseline down), read as a stream of row arrays, each
 * chunk of 10,000 rows converted to oracledb bind values and written with executeMany (bindDefs), one commit at the
 * end. Both test servers run in child processes
 * (testkit/common/child-process.ts), so their CPU time is not charged to either side. COPY_ROWS (default 1,000,000)
 * rows of the 8-column benchmark table (INTEGER, DECIMAL(18,2), DECIMAL, DATE, TIMESTAMP, two NVARCHAR, BOOLEAN).
 * ratio = ours / raw. Each side also reports the CPU seconds of the measuring process and of the two servers' work
 * (HANA result encoding, Oracle batch inserts), so a run on a loaded machine still shows where the time went.
 * Each side runs once, ours first, with no warm-up; only the two tables' row counts are compared.
 */
import { createRequire } from "node:module"
import { Context, Effect, Layer, ManagedRuntime } from "effect"
import * as Hana from "../layers/hana/index.ts"
import * as Oracle from "../layers/oracle/index.ts"
import * as Connection from "../src/Connection.ts"
import { copyBatchRows, copyQuery } from "../cli/copy.ts"
import { Progress } from "../cli/progress.ts"
import { type ChildServer, startInChildProcess } from "../testkit/common/child-process.ts"
import { BENCH_COLUMNS, createBenchTableSql, createHdbClient, promise } from "./support/hana.ts"
import { collectGarbage } from "./run.ts"
import { statsDelta } from "./support/server-stats.ts"
import { emptyStats } from "../testkit/common/stats.ts"

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const oracledb: any = createRequire(import.meta.url)("oracledb")

const CHUNK = 10_000
const SELECT = `SELECT ${BENCH_COLUMNS} FROM COPY_SOURCE`

interface HdbResultSet {
  createArrayStream(options: { arrayMode: number }): AsyncIterable<Array<Record<string, unknown>>>
  close(cb?: () => void): void
}
interface HdbClient {
  connect(cb: (err: Error | null) => void): void
  exec(sql: string, cb: (err: Error | null, result?: unknown) => void): void
  execute(sql: string, cb: (err: Error | null, rs?: HdbResultSet) => void): void
  setAutoCommit(on: boolean): void
  disconnect(cb?: () => void): void
}

const silentProgress = Layer.succeed(Progress, { start: (step: string) => ({ update: () => {}, finish: () => ({ step, rows: 0, bytes: 0, seconds: 0 }) }) })

const cpuSeconds = (used: NodeJS.CpuUsage): number => Math.round((used.user + used.system) / 1000) / 1000

/** Both servers' work counters now. */
const serverWork = async (hana: ChildServer, oracle: ChildServer) => {
  const [h, o] = await Promise.all([hana.stats(), oracle.stats()])
  return { hana: h ?? emptyStats(), oracle: o ?? emptyStats() }
}

/** CPU seconds the HANA server spent encoding results and the Oracle server inserting between two readings. */
const workSince = (before: Awaited<ReturnType<typeof serverWork>>, after: Awaited<ReturnType<typeof serverWork>>) => ({
  hana_encode: Math.round(statsDelta(after.hana, before.hana).encodeCpuMs) / 1000,
  oracle_insert: Math.round(statsDelta(after.oracle, before.oracle).insertCpuMs) / 1000
})

/** Runs the benchmark. */
export const run = async (): Promise<Record<string, unknown>> => {
  const rows = Number(process.env["COPY_ROWS"] ?? 1_000_000)
  const batchRows = copyBatchRows(rows)
  const [hanaServer, oracleServer] = await Promise.all([startInChildProcess("hana"), startInChildProcess("oracle")])
  const hana = Connection.layer().pipe(Layer.provide(Hana.layerDatabase({ uri: hanaServer.uri })))
  const oracle = Connection.layer().pipe(Layer.provide(Oracle.layerDatabase({ uri: oracleServer.uri })))
  const runtime = ManagedRuntime.make(Layer.empty)
  try {
    await runtime.runPromise(Effect.provide(Connection.execute(createBenchTableSql("COPY_SOURCE", rows)), hana))

    // ours: the main job's copy
    collectGarbage()
    const oursBefore = await serverWork(hanaServer, oracleServer)
    const oursStart = performance.now()
    const oursCpu = process.cpuUsage()
    const copied = await runtime.runPromise(Effect.scoped(Effect.gen(function*() {
      const from = yield* Layer.build(hana)
      const to = yield* Layer.build(oracle)
      return yield* copyQuery(Context.get(from, Connection.Connection), Context.get(to, Connection.Connection), SELECT, {
        targetTable: "COPY_OURS",
        mode: "replace"
      }, { step: "copy", totalRows: rows, onFinish: () => {} })
    }).pipe(Effect.provide(silentProgress))))
    const oursSeconds = (performance.now() - oursStart) / 1000
    const oursClientCpu = cpuSeconds(process.cpuUsage(oursCpu))
    const oursServers = workSince(oursBefore, await serverWork(hanaServer, oracleServer))

    // raw: hdb rows in, oracledb executeMany out
    const { username: user, password, hostname: host, port } = new URL(hanaServer.uri.replace(/^hdb:/, "http:"))
    // hdb's fetch size: ours, within hdb's own maximum (2^15 - 1 rows, hdb/lib/protocol/ResultSet.js MAX_FETCH_SIZE)
    const fetchSize = Math.min(batchRows, 2 ** 15 - 1)
    const source = createHdbClient<HdbClient>({
      host, port: Number(port), user: decodeURIComponent(user), password: decodeURIComponent(password), fetchSize
    })
    await promise((cb) => source.connect(cb))
    const target = await oracledb.getConnection({
      user: "TEST", password: "test", connectString: oracleServer.uri.replace(/^oracle:\/\/[^@]*@/, "")
    })
    await target.execute(
      "CREATE TABLE COPY_RAW (ID NUMBER(10), AMOUNT NUMBER(18,2), RATIO NUMBER, DAY DATE, TS TIMESTAMP(6), NAME NVARCHAR2(2000), NOTE NVARCHAR2(2000), FLAG BOOLEAN)"
    )
    const bindDefs = [
      { type: oracledb.NUMBER }, { type: oracledb.NUMBER }, { type: oracledb.NUMBER }, { type: oracledb.DATE },
      { type: oracledb.DB_TYPE_TIMESTAMP }, { type: oracledb.STRING, maxSize: 2000 }, { type: oracledb.STRING, maxSize: 2000 },
      { type: oracledb.DB_TYPE_BOOLEAN }
    ]
    collectGarbage()
    const rawBefore = await serverWork(hanaServer, oracleServer)
    const rawStart = performance.now()
    const rawCpu = process.cpuUsage()
    const rs = await promise<HdbResultSet>((cb) => source.execute(SELECT, cb))
    let rawRows = 0
    for await (const chunk of rs.createArrayStream({ arrayMode: CHUNK })) {
      const binds = chunk.map((r) => [
        r["ID"], Number(r["AMOUNT"]), Number(r["RATIO"]), new Date(`${r["DAY"]}T00:00:00Z`), new Date(`${r["TS"]}Z`),
        r["NAME"], r["NOTE"], r["FLAG"] === null ? null : Boolean(r["FLAG"])
      ])
      await target.executeMany("INSERT INTO COPY_RAW VALUES (:1, :2, :3, :4, :5, :6, :7, :8)", binds, { bindDefs, autoCommit: false })
      rawRows += binds.length
    }
    await target.commit()
    const rawSeconds = (performance.now() - rawStart) / 1000
    const rawClientCpu = cpuSeconds(process.cpuUsage(rawCpu))
    const rawServers = workSince(rawBefore, await serverWork(hanaServer, oracleServer))
    await target.close()
    source.disconnect()

    if (copied !== rows || rawRows !== rows) throw new Error(`copied ${copied} (ours) and ${rawRows} (raw) of ${rows} rows`)
    return {
      rows,
      batch_rows: batchRows,
      raw_fetch_size: Math.min(batchRows, 2 ** 15 - 1),
      ours_s: Math.round(oursSeconds * 1000) / 1000,
      raw_s: Math.round(rawSeconds * 1000) / 1000,
      ours_rows_per_s: Math.round(rows / oursSeconds),
      raw_rows_per_s: Math.round(rows / rawSeconds),
      ours_client_cpu_s: oursClientCpu,
      raw_client_cpu_s: rawClientCpu,
      ours_servers_cpu_s: oursServers,
      raw_servers_cpu_s: rawServers,
      baseline: "raw hdb result set fetched in pages of our batch size, read as an array stream (10,000-row chunks), into raw oracledb executeMany with bindDefs, one commit",
      ratio: Math.round((oursSeconds / rawSeconds) * 10000) / 10000
    }
  } finally {
    await runtime.dispose()
    await Promise.all([hanaServer.close(), oracleServer.close()])
  }
}
