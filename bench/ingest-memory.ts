/**
 * Ingest memory: peak RSS growth of a process that bulk-ingests INGEST_MEMORY_ROWS (default 1,000,000) rows and then,
 * in a fresh process, 4× as many, through each driver (HANA and Oracle), create mode into a new table. The rows are
 * 8 mixed columns (int32, int64, float64, decimal128(18,2), utf8, date32, timestamp[us], bool) generated batch by
 * batch (INGEST_MEMORY_BATCH_ROWS, default 50,000) as the ingest pulls them: nothing holds the whole input. Each size
 * runs in its own child process (`--expose-gc`), which records RSS after connecting and samples it every 5 ms while
 * ingesting; each test server runs in a child process of its own, so its memory (the stored rows) is not counted.
 * growth = peak − baseline; per driver ratio = growth(4×) / growth(1×); `ratio` is the larger of the two
 * (target ≤ 1.5: memory bounded by the batch, not by the rows ingested). INGEST_MEMORY_DRIVERS (default
 * "hana,oracle") limits the drivers measured.
 */
import * as Arrow from "apache-arrow"
import { Effect, Layer, Stream } from "effect"
import * as Hana from "../layers/hana/index.ts"
import * as Connection from "../src/Connection.ts"
import { startInChildProcess } from "../testkit/common/child-process.ts"
import { oursLayer as oracleLayer } from "./oracle-read.ts"
import { runInChild, sampleRss } from "./support/child.ts"

const SMALL = Number(process.env["INGEST_MEMORY_ROWS"] ?? 1_000_000)
const LARGE = SMALL * 4
const BATCH = Number(process.env["INGEST_MEMORY_BATCH_ROWS"] ?? 50_000)
type DriverName = "hana" | "oracle"
/** INGEST_MEMORY_DRIVERS (comma-separated, default both) picks the drivers measured. */
const DRIVERS = (process.env["INGEST_MEMORY_DRIVERS"] ?? "hana,oracle").split(",") as ReadonlyArray<DriverName>

const schema = new Arrow.Schema([
  new Arrow.Field("ID", new Arrow.Int32(), false),
  new Arrow.Field("BIG", new Arrow.Int64(), false),
  new Arrow.Field("RATIO", new Arrow.Float64(), false),
  new Arrow.Field("AMOUNT", new Arrow.Decimal(2, 18, 128), false),
  new Arrow.Field("NAME", new Arrow.Utf8(), false),
  new Arrow.Field("DAY", new Arrow.DateDay(), false),
  new Arrow.Field("TS", new Arrow.TimestampMicrosecond(), false),
  new Arrow.Field("FLAG", new Arrow.Bool(), false)
])

const BASE_US = BigInt(Date.UTC(2020, 0, 1)) * 1000n

/** Rows `[start, start + n)` of the generated data as one record batch. */
const makeBatch = (start: number, n: number): Arrow.RecordBatch => {
  const amount = new Uint32Array(n * 4)
  const ts = new BigInt64Array(n)
  const flags = new Uint8Array(Math.ceil(n / 8))
  const names: Array<string> = new Array(n)
  for (let i = 0; i < n; i++) {
    const row = start + i
    amount[i * 4] = row * 7
    ts[i] = BASE_US + BigInt(row) * 1_000_000n
    if (row % 2 === 0) flags[i >> 3]! |= 1 << (i & 7)
    names[i] = `name_${row}`
  }
  const data = (type: Arrow.DataType, values: ArrayBufferView) =>
    Arrow.makeData({ type, length: n, nullCount: 0, data: values } as never) as Arrow.Data
  const children = [
    data(new Arrow.Int32(), Int32Array.from({ length: n }, (_, i) => start + i)),
    data(new Arrow.Int64(), BigInt64Array.from({ length: n }, (_, i) => BigInt(start + i) * 1000003n)),
    data(new Arrow.Float64(), Float64Array.from({ length: n }, (_, i) => (start + i) * 1.5)),
    data(new Arrow.Decimal(2, 18, 128), amount),
    Arrow.vectorFromArray(names, new Arrow.Utf8()).data[0]!,
    data(new Arrow.DateDay(), Int32Array.from({ length: n }, (_, i) => 18262 + ((start + i) % 1000))),
    data(new Arrow.TimestampMicrosecond(), ts),
    data(new Arrow.Bool(), flags)
  ]
  return new Arrow.RecordBatch(schema, Arrow.makeData({ type: new Arrow.Struct(schema.fields), length: n, children }))
}

const layerFor = (driver: DriverName, uri: string) =>
  driver === "hana" ? Connection.layer().pipe(Layer.provide(Hana.layerDatabase({ uri }))) : oracleLayer(uri)

/** Child: ingests `rows` generated rows and prints {rows, baseline_rss, peak_rss}. */
const child = async (driver: DriverName, uri: string, rows: number): Promise<void> => {
  const result = await Effect.runPromise(Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const rss = sampleRss()
    const batches = Stream.range(0, Math.ceil(rows / BATCH) - 1, 1).pipe(
      Stream.map((b) => makeBatch(b * BATCH, Math.min(BATCH, rows - b * BATCH))),
      Stream.tap(() => Effect.sync(rss.sample))
    )
    const count = yield* conn.ingest({ schema, batches }, { targetTable: `INGEST_MEMORY_${rows}` })
    return { rows: count, ...rss.stop() }
  }).pipe(Effect.provide(layerFor(driver, uri))))
  process.stdout.write(`${JSON.stringify(result)}\n`)
}

const runChild = async (driver: DriverName, uri: string, rows: number) => {
  const measured = await runInChild(import.meta.url, {
    INGEST_MEMORY_CHILD: "1",
    INGEST_MEMORY_DRIVER: driver,
    INGEST_MEMORY_URI: uri,
    INGEST_MEMORY_COUNT: String(rows)
  })
  if (measured.rows !== rows) throw new Error(`${driver} child ingested ${measured.rows} of ${rows} rows`)
  return measured
}

const MB = 1024 * 1024
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits

/** Runs the measurement. */
export const run = async (): Promise<Record<string, unknown>> => {
  const figures: Record<string, unknown> = {}
  const ratios: Array<number> = []
  for (const driver of DRIVERS) {
    const server = await startInChildProcess(driver)
    try {
      const small = await runChild(driver, server.uri, SMALL)
      const large = await runChild(driver, server.uri, LARGE)
      const growthSmall = (small.peak_rss - small.baseline_rss) / MB
      const growthLarge = (large.peak_rss - large.baseline_rss) / MB
      const ratio = growthLarge / growthSmall
      ratios.push(ratio)
      figures[`${driver}_growth_small_mb`] = round(growthSmall, 1)
      figures[`${driver}_growth_large_mb`] = round(growthLarge, 1)
      figures[`${driver}_ratio`] = round(ratio, 3)
    } finally {
      await server.close()
    }
  }
  return {
    bench: "ingest-memory",
    rows_small: SMALL,
    rows_large: LARGE,
    batch_rows: BATCH,
    ...figures,
    ratio: round(Math.max(...ratios), 3),
    target_ratio: 1.5
  }
}

if (process.env["INGEST_MEMORY_CHILD"] === "1") {
  const driver = process.env["INGEST_MEMORY_DRIVER"] as DriverName
  child(driver, process.env["INGEST_MEMORY_URI"]!, Number(process.env["INGEST_MEMORY_COUNT"])).catch((e) => {
    process.stderr.write(`${String(e)}\n`)
    process.exit(1)
  })
}
