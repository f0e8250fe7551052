/**
 * `adbc` end to end against test servers owned by this test: each command line run in-process through the CLI's own
 * Effect program (`cli/program.ts`, what the bin runs) with its output captured, checked through its output, its exit
 * code, and what it left in the databases (read back with the library). What only a child process shows (the built
 * bin, SIGINT, the process's exit code) is in process.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PassThrough, Readable } from "node:stream"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { DuckDBInstance } from "@duckdb/node-api"
import * as Arrow from "apache-arrow"
import { Cause, Context, type Duration, Effect, Exit, Fiber, Layer, Stream } from "effect"
import * as Hana from "../../layers/hana/index.ts"
import * as Oracle from "../../layers/oracle/index.ts"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { type HanaTestServerHandle, startHanaTestServer } from "../../testkit/hana/index.ts"
import { type OracleTestServerHandle, startOracleTestServer } from "../../testkit/oracle/index.ts"
import { copyQuery } from "../../cli/copy.ts"
import { ChecksumAccumulator, compareChecksums } from "../../cli/demo/checksum.ts"
import { DemoCheckFailed } from "../../cli/demo/job.ts"
import { lineitemBatch } from "../../cli/demo/lineitem.ts"
import { listTables } from "../../cli/demo/steps.ts"
import { describeExit } from "../../cli/errors.ts"
import { readArrow } from "../../cli/files.ts"
import * as Progress from "../../cli/progress.ts"
import { CliStdio } from "../../cli/stdio.ts"
import { runInProcess as runCli, startInProcess } from "./support.ts"

let hana: HanaTestServerHandle
let oracle: OracleTestServerHandle
const dir = mkdtempSync(join(tmpdir(), "adbc-cli-"))

const hanaConnection = () => Connection.layer().pipe(Layer.provide(Hana.layerDatabase({ uri: hana.uri })))
const oracleConnection = () => Connection.layer().pipe(Layer.provide(Oracle.layerDatabase({ uri: oracle.uri })))
const onHana = <A, E>(program: Effect.Effect<A, E, Connection.Connection>) =>
  Effect.runPromise(program.pipe(Effect.provide(hanaConnection())))
const onOracle = <A, E>(program: Effect.Effect<A, E, Connection.Connection>) =>
  Effect.runPromise(program.pipe(Effect.provide(oracleConnection())))
const rowsOf = (sql: string) =>
  Effect.gen(function*() {
    const conn = yield* Connection.Connection
    return new Arrow.Table(yield* Stream.runCollect(conn.query(sql))).toArray().map((r) => r.toJSON())
  })

/** Runs a copy with its progress lines written nowhere. */
const quietly = <A, E>(copy: Effect.Effect<A, E, Progress.Progress>) =>
  copy.pipe(
    Effect.provide(Progress.layerStdout),
    Effect.provide(Layer.succeed(CliStdio, {
      stdin: Readable.from([]),
      stdout: new PassThrough().resume(),
      stderr: new PassThrough().resume(),
      isTerminal: false,
      columns: undefined
    }))
  )

beforeAll(async () => {
  ;[hana, oracle] = await Promise.all([
    startHanaTestServer(),
    // LOADER holds the DBA role (CREATE ANY TABLE): it may ingest into TEST's schema, TEST not into LOADER's.
    startOracleTestServer({ users: [{ name: "TEST", password: "test" }, { name: "LOADER", password: "loader", dba: true }] })
  ])
  await onHana(Effect.gen(function*() {
    const conn = yield* Connection.Connection
    yield* conn.ingest(fromTable(new Arrow.Table([lineitemBatch(3, 0, 1000)])), { targetTable: "ITEMS", mode: "replace" })
  }))
}, 120_000)
afterAll(async () => {
  await Promise.all([hana?.close(), oracle?.close()])
})

const QUERY = `SELECT "L_ORDERKEY", "L_QUANTITY", "L_SHIPDATE", "L_COMMENT" FROM "ITEMS" WHERE "L_ORDERKEY" <= 2 ORDER BY "L_ORDERKEY", "L_LINENUMBER"`

describe.concurrent("adbc query", { timeout: 240_000 }, () => {
  it("prints an aligned table with the row count, truncated to --max-rows", async () => {
    const run = await runCli(["query", "--uri", hana.uri, "--max-rows", "3", QUERY])
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    const lines = run.stdout.trimEnd().split("\n")
    expect(lines[0]).toMatch(/^L_ORDERKEY \| L_QUANTITY \| L_SHIPDATE +\| L_COMMENT/)
    expect(lines).toHaveLength(2 + 3 + 1)
    expect(lines[2]).toMatch(/^ +1 \| +\d+\.00 \| \d{4}-\d{2}-\d{2} \| NULL/)
    expect(lines.at(-1)).toBe("(8 rows; first 3 shown)")
  })

  it("writes CSV and JSON lines with exact decimals and ISO dates", async () => {
    const [csv, jsonl] = await Promise.all([
      runCli(["query", "--uri", hana.uri, "--format", "csv", QUERY]),
      runCli(["query", "--uri", hana.uri, "--format", "jsonl", QUERY])
    ])
    expect([csv.code, jsonl.code]).toEqual([0, 0])
    const expected = await onHana(rowsOf(QUERY))
    const csvLines = csv.stdout.trimEnd().split("\n")
    expect(csvLines[0]).toBe("L_ORDERKEY,L_QUANTITY,L_SHIPDATE,L_COMMENT")
    expect(csvLines).toHaveLength(1 + expected.length)
    const json = jsonl.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(json.map((r) => r["L_ORDERKEY"])).toEqual(expected.map((r) => Number(r["L_ORDERKEY"])))
    expect(json[0]!["L_COMMENT"]).toBeNull()
    expect(json[1]!["L_COMMENT"]).toBe(expected[1]!["L_COMMENT"])
    expect(String(json[1]!["L_QUANTITY"])).toMatch(/^\d+\.00$/)
    expect(csvLines[2]).toBe(`${json[1]!["L_ORDERKEY"]},${json[1]!["L_QUANTITY"]},${json[1]!["L_SHIPDATE"]},${json[1]!["L_COMMENT"]}`)
  })

  it("writes Arrow IPC files (--output) and streams (stdout) that read back to the same table", async () => {
    const file = join(dir, "items.arrow")
    const [asFile, asStream] = await Promise.all([
      runCli(["query", "--uri", oracle.uri, "--format", "arrow", "--output", file, `SELECT 1 AS A, 'x' AS B FROM DUAL UNION ALL SELECT 2, NULL FROM DUAL`]),
      runCli(["query", "--uri", oracle.uri, "--format", "arrows", `SELECT 1 AS A, 'x' AS B FROM DUAL UNION ALL SELECT 2, NULL FROM DUAL`])
    ])
    expect([asFile.code, asStream.code]).toEqual([0, 0])
    const fromFile = Arrow.tableFromIPC(readFileSync(file))
    const fromStream = Arrow.tableFromIPC(asStream.stdoutBytes)
    expect(fromFile.toArray().map((r) => ({ A: Number(r.A), B: r.B }))).toEqual([{ A: 1, B: "x" }, { A: 2, B: null }])
    expect(fromStream.numRows).toBe(2)
  })
})

describe.concurrent("adbc query from a file, options from the environment", { timeout: 240_000 }, () => {
  it("reads the SQL from --file (trailing semicolon dropped) and the format and row limit from ADBC_FORMAT / ADBC_MAX_ROWS", async () => {
    const file = join(dir, "report.sql")
    writeFileSync(file, `${QUERY};\n`)
    const run = await runCli(["query", "--file", file], {
      env: { ADBC_URI: hana.uri, ADBC_FORMAT: "jsonl" }
    })
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)).toHaveLength(8)
    const limited = await runCli(["query", "--uri", hana.uri, QUERY], { env: { ADBC_MAX_ROWS: "2" } })
    expect(limited.stdout.trimEnd().split("\n").at(-1)).toBe("(8 rows; first 2 shown)")
    const bad = await runCli(["query", "--uri", hana.uri, QUERY], { env: { ADBC_MAX_ROWS: "0" } })
    expect(bad.code).toBe(2)
    expect(bad.stdout + bad.stderr).toMatch(/ADBC_MAX_ROWS/)
  })

  it("lists every flag of every command with its default and its environment variable in --help", async () => {
    const commands = ["query", "shell", "ingest", "copy", "objects", "info", "table-schema", "table-types", "testkit", "demo"]
    const helps = await Promise.all(commands.map((command) => runCli([command, "--help"])))
    for (const [i, help] of helps.entries()) {
      expect(help.code).toBe(0)
      const flags = help.stdout.slice(help.stdout.indexOf("\nFLAGS\n"), help.stdout.indexOf("\nGLOBAL FLAGS\n")).split("\n")
        .filter((line) => line.startsWith("  --"))
      expect(flags.length, commands[i]).toBeGreaterThan(0)
      // Repeatable flags (key=value, NAME:TYPE, pid files) have no single variable; every other flag names its variable.
      for (const line of flags.filter((l) => !/^ {2}--(\S+-)?(option|column|pid-file) /.test(l))) expect(line).toMatch(/env ADBC_[A-Z_]+/)
    }
    const text = Object.fromEntries(commands.map((c, i) => [c, helps[i]!.stdout]))
    expect(text["query"]).toMatch(/--max-rows .*\(default 100; env ADBC_MAX_ROWS\)/)
    expect(text["query"]).toMatch(/--format .*\(default table; env ADBC_FORMAT\)/)
    expect(text["shell"]).toMatch(/--history .*\(env ADBC_SHELL_HISTORY\)/)
    expect(text["ingest"]).toMatch(/--mode .*\(default create; env ADBC_INGEST_MODE\)/)
    expect(text["copy"]).toMatch(/--table .*\(env ADBC_COPY_TABLE\)/)
    expect(text["objects"]).toMatch(/--depth .*\(default all; env ADBC_OBJECTS_DEPTH\)/)
    expect(text["testkit"]).toMatch(/--port .*\(default 0; env ADBC_TESTKIT_PORT\)/)
    expect(text["demo"]).toMatch(/--rows .*\(default 200000; env ADBC_DEMO_ROWS\)/)
    expect(text["demo"]).toMatch(/--table .*\(default ADBC_DEMO_LINEITEM; env ADBC_DEMO_TABLE\)/)
    // numeric flags show what they take
    for (const [command, flag] of [["query", "max-rows"], ["query", "max-width"], ["ingest", "batch-rows"], ["testkit", "port"], ["demo", "rows"], ["demo", "seed"]]) {
      expect(text[command!], flag).toMatch(new RegExp(`^ {2}--${flag} integer `, "m"))
    }
    expect(text["demo"]).toMatch(/^ {2}--table string /m)
  })
})

describe.concurrent("adbc ingest, copy and the catalog commands", { timeout: 240_000 }, () => {
  it("ingests a CSV file with a given and inferred column types, then appends an Arrow IPC stream file", async () => {
    const csv = join(dir, "cities.csv")
    writeFileSync(csv, `CITY,POPULATION,FOUNDED,AREA\nWalldorf,15000,0793-01-01,19.90\n"Zürich, CH",421000,,87.88\n`)
    const run = await runCli(["ingest", csv, "--uri", hana.uri, "--table", "CITIES_CSV", "--column", "AREA:decimal(10,2)"])
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout).toContain("2 rows ingested into CITIES_CSV")
    expect(await onHana(rowsOf(`SELECT "CITY", "POPULATION", "FOUNDED", "AREA" FROM "CITIES_CSV" ORDER BY "CITY"`))).toEqual([
      { CITY: "Walldorf", POPULATION: 15000, FOUNDED: expect.anything(), AREA: expect.anything() },
      { CITY: "Zürich, CH", POPULATION: 421000, FOUNDED: null, AREA: expect.anything() }
    ])
    const schema = await onHana(Effect.flatMap(Connection.Connection, (c) => c.getTableSchema(undefined, undefined, "CITIES_CSV")))
    expect(schema.fields.map((f) => String(f.type))).toEqual(["Utf8", "Int32", "Date32<DAY>", "Decimal[10e+2]"])

    const arrows = join(dir, "more.arrows")
    const more = new Arrow.Table({
      CITY: Arrow.vectorFromArray(["Potsdam"], new Arrow.Utf8()),
      POPULATION: Arrow.vectorFromArray([183_000], new Arrow.Int32())
    })
    writeFileSync(arrows, Arrow.tableToIPC(more, "stream"))
    const appended = await runCli(["ingest", arrows, "--driver", "hana", "--table", "CITIES_CSV", "--mode", "append"], {
      env: { ADBC_URI: hana.uri }
    })
    expect(appended.code).toBe(0)
    expect(await onHana(rowsOf(`SELECT COUNT(*) AS N FROM "CITIES_CSV"`))).toEqual([{ N: 3n }])
  })

  it("ingests a .tsv file split on tabs into its real columns, and a file with another delimiter given by --delimiter", async () => {
    const tsv = join(dir, "cities.tsv")
    writeFileSync(tsv, `CITY\tPOPULATION\tNOTE\nWalldorf\t15000\tsmall, green\n"Zürich"\t421000\t\n`)
    const semicolons = join(dir, "cities-semicolons.txt")
    writeFileSync(semicolons, `CITY;POPULATION\nPotsdam;183000\n`)
    const [tabs, given] = await Promise.all([
      runCli(["ingest", tsv, "--uri", hana.uri, "--table", "CITIES_TSV"]),
      runCli(["ingest", semicolons, "--uri", hana.uri, "--table", "CITIES_SEMICOLONS", "--delimiter", ";"])
    ])
    expect(tabs.stderr).toBe("")
    expect([tabs.code, given.code]).toEqual([0, 0])
    const columns = await onHana(Effect.flatMap(Connection.Connection, (c) => c.getTableSchema(undefined, undefined, "CITIES_TSV")))
    expect(columns.fields.map((f) => `${f.name}:${f.type}`)).toEqual(["CITY:Utf8", "POPULATION:Int32", "NOTE:Utf8"])
    expect(await onHana(rowsOf(`SELECT "CITY", "POPULATION", "NOTE" FROM "CITIES_TSV" ORDER BY "CITY"`))).toEqual([
      { CITY: "Walldorf", POPULATION: 15000, NOTE: "small, green" },
      { CITY: "Zürich", POPULATION: 421000, NOTE: null }
    ])
    expect(await onHana(rowsOf(`SELECT "CITY", "POPULATION" FROM "CITIES_SEMICOLONS"`))).toEqual([{ CITY: "Potsdam", POPULATION: 183000 }])
  })

  it("refuses a delimited file whose header is one field holding a tab, ; or |, before connecting; --delimiter '\\t' and tab mean a tab", async () => {
    const excel = join(dir, "excel.txt")
    writeFileSync(excel, "A\tB\n1\t2\n3\t4\n")
    const european = join(dir, "european.csv")
    writeFileSync(european, "CITY;POPULATION\nPotsdam;183000\n")
    const piped = join(dir, "piped.txt")
    writeFileSync(piped, "CITY|POPULATION\nPotsdam|183000\n")
    const closed = ["--uri", "hdb://u:p@127.0.0.1:1", "--table", "X"]
    const [tabs, semicolons, pipes] = await Promise.all([
      runCli(["ingest", excel, ...closed]),
      runCli(["ingest", european, ...closed]),
      runCli(["ingest", piped, ...closed])
    ])
    // each fails on the file alone (the URI points at a closed port), naming the file, what it found and the flag to pass
    expect([tabs.code, semicolons.code, pipes.code]).toEqual([1, 1, 1])
    expect(tabs.stderr).toMatch(/^error: INVALID_DATA: .*excel\.txt: its header line is one field holding a tab .*--delimiter '\\t'/m)
    expect(semicolons.stderr).toMatch(/^error: INVALID_DATA: .*european\.csv: its header line is one field holding a ';' .*--delimiter ';'/m)
    expect(pipes.stderr).toMatch(/^error: INVALID_DATA: .*piped\.txt: its header line is one field holding a '\|' .*--delimiter '\|'/m)

    const [escaped, named] = await Promise.all([
      runCli(["ingest", excel, "--uri", hana.uri, "--table", "EXCEL_ESCAPED", "--delimiter", "\\t"]),
      runCli(["ingest", excel, "--uri", hana.uri, "--table", "EXCEL_NAMED", "--delimiter", "tab"])
    ])
    expect([escaped.stderr, named.stderr]).toEqual(["", ""])
    expect([escaped.code, named.code]).toEqual([0, 0])
    for (const table of ["EXCEL_ESCAPED", "EXCEL_NAMED"]) {
      expect(await onHana(rowsOf(`SELECT "A", "B" FROM "${table}" ORDER BY "A"`))).toEqual([{ A: 1, B: 2 }, { A: 3, B: 4 }])
    }
  })

  it("reports a CSV syntax error as INVALID_DATA with its line, not as a file it cannot read", async () => {
    const inch = join(dir, "inch.tsv")
    writeFileSync(inch, `NAME\tSIZE\n5" screen\t1\n`)
    const late = join(dir, "late-quote.csv")
    writeFileSync(late, `NAME,SIZE\n${"tv,1\n".repeat(1500)}5" screen,2\n`)
    const closed = ["--uri", "hdb://u:p@127.0.0.1:1", "--table", "X"]
    const [early, afterSample] = await Promise.all([
      runCli(["ingest", inch, ...closed]),
      runCli(["ingest", late, "--uri", hana.uri, "--table", "LATE_QUOTE"])
    ])
    expect([early.code, afterSample.code]).toEqual([1, 1])
    expect(early.stderr).toMatch(/^error: INVALID_DATA: .*inch\.tsv: line 2: Invalid Opening Quote/m)
    // past the rows sampled for types: found while streaming into the table
    expect(afterSample.stderr).toMatch(/^error: INVALID_DATA: .*late-quote\.csv: line 1502: Invalid Opening Quote/m)
  })

  it("ingests an Arrow IPC file (file format) into Oracle, the table and mode from the environment", async () => {
    const file = join(dir, "lineitems.arrow")
    writeFileSync(file, Arrow.tableToIPC(new Arrow.Table([lineitemBatch(9, 0, 500)]), "file"))
    const env = { ADBC_URI: oracle.uri, ADBC_INGEST_TABLE: "ITEMS_IPC", ADBC_INGEST_MODE: "replace" }
    const [first, second] = [await runCli(["ingest", file], { env }), await runCli(["ingest", file], { env })]
    expect(first.stderr).toBe("")
    expect([first.code, second.code]).toEqual([0, 0])
    expect(second.stdout).toContain("500 rows ingested into ITEMS_IPC")
    expect(await onOracle(rowsOf(`SELECT COUNT(*) AS N FROM "ITEMS_IPC"`))).toEqual([{ N: 500 }])
  })

  it("ingests a Parquet file written by DuckDB (3 row groups, 7 types, NULLs) into HANA in 4,000-row batches", async () => {
    const file = join(dir, "events.parquet")
    const duck = await DuckDBInstance.create(":memory:")
    const session = await duck.connect()
    await session.run(`COPY (
      SELECT i::INTEGER AS ID, (i * 1.25)::DECIMAL(18,2) AS AMOUNT, 'event ' || i AS NAME, DATE '2020-01-01' + i::INTEGER AS DAY,
        TIMESTAMP '2020-01-01 00:00:00' + i * INTERVAL 1 SECOND AS TS, i % 2 = 0 AS EVEN,
        CASE WHEN i % 7 = 0 THEN NULL ELSE i::BIGINT * 1000000 END AS BIG
      FROM range(25000) t(i)) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 10000)`)
    session.closeSync()
    const run = await runCli(["ingest", file, "--uri", hana.uri, "--table", "EVENTS_PARQUET", "--batch-rows", "4000"])
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout).toContain("25,000 rows ingested into EVENTS_PARQUET")
    const schema = await onHana(Effect.flatMap(Connection.Connection, (c) => c.getTableSchema(undefined, undefined, "EVENTS_PARQUET")))
    expect(schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual([
      "ID:Int32", "AMOUNT:Decimal[18e+2]", "NAME:Utf8", "DAY:Date32<DAY>", expect.stringMatching(/^TS:Timestamp<MICROSECOND/), "EVEN:Bool",
      "BIG:Int64"
    ])
    expect(await onHana(rowsOf(
      `SELECT COUNT(*) AS N, CAST(SUM("ID") AS BIGINT) AS S, COUNT("BIG") AS B,
        CAST(SUM(CASE WHEN "EVEN" THEN 1 ELSE 0 END) AS BIGINT) AS E FROM "EVENTS_PARQUET"`
    ))).toEqual([{ N: 25000n, S: BigInt((24999 * 25000) / 2), B: 25000n - 3572n, E: 12500n }])
    const [row] = await onHana(rowsOf(
      `SELECT "AMOUNT", "NAME", TO_VARCHAR("DAY", 'YYYY-MM-DD') AS D, TO_VARCHAR("TS", 'YYYY-MM-DD HH24:MI:SS') AS T, "BIG" FROM "EVENTS_PARQUET" WHERE "ID" = 12345`
    ))
    expect(row).toEqual({ AMOUNT: expect.anything(), NAME: "event 12345", D: "2053-10-19", T: "2020-01-01 03:25:45", BIG: 12345000000n })
    expect(String(row!["AMOUNT"])).toMatch(/^15431\.25$|^1543125$/)

    const fake = join(dir, "fake.parquet")
    writeFileSync(fake, "ID,NAME\n1,x\n")
    const [notParquet, missing] = await Promise.all([
      runCli(["ingest", fake, "--uri", "hdb://u:p@127.0.0.1:1", "--table", "X"]),
      runCli(["ingest", join(dir, "missing.parquet"), "--uri", "hdb://u:p@127.0.0.1:1", "--table", "X"])
    ])
    // Both fail on the file, before any connection attempt (the URI points at a closed port).
    expect([notParquet.code, missing.code]).toEqual([1, 1])
    expect(notParquet.stderr).toMatch(/^error: INVALID_DATA: .*fake\.parquet is not a readable Parquet file/m)
    expect(missing.stderr).toMatch(/^error: IO: cannot read .*missing\.parquet: /m)
  })

  it("stops an ingest on interrupt (Ctrl-C) with exit 130 and leaves the target table as it was", async () => {
    const file = join(dir, "many.arrows")
    const batches = Array.from({ length: 20 }, (_, i) => lineitemBatch(4, i * 5_000, 5_000))
    writeFileSync(file, Arrow.tableToIPC(new Arrow.Table(batches), "stream"))
    await onHana(Effect.flatMap(Connection.Connection, (conn) =>
      conn.ingest(fromTable(new Arrow.Table([lineitemBatch(4, 0, 3)])), { targetTable: "ITEMS_KEPT", mode: "replace" })))
    const ingest = startInProcess(["ingest", file, "--uri", hana.uri, "--table", "ITEMS_KEPT", "--mode", "append"])
    await ingest.waitFor(/ingest .*many\.arrows: started/)
    const run = await ingest.interrupt()
    expect(run.code).toBe(130)
    expect(run.stdout).not.toContain("rows ingested")
    expect(await onHana(rowsOf(`SELECT COUNT(*) AS N FROM "ITEMS_KEPT"`))).toEqual([{ N: 3n }])
  })

  /**
   * Copies `sql` from HANA into `table` on Oracle through connections that are watched: `onRead` sees each batch the
   * HANA reader hands out, `onInsert` each batch the Oracle ingest takes (each insert then waits for `beforeInsert`: a delay or an event).
   */
  const watchedCopy = (
    sql: string,
    table: string,
    options: Partial<Parameters<typeof copyQuery>[4]>,
    watch: {
      readonly onRead: (batch: Arrow.RecordBatch) => void
      readonly onInsert: (batch: Arrow.RecordBatch) => void
      /** Holds each batch before the ingest takes it: a delay, or an effect that waits for an event. */
      readonly beforeInsert: Duration.Input | Effect.Effect<void>
    }
  ) =>
    Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const hanaConn = Context.get(yield* Layer.build(hanaConnection()), Connection.Connection)
      const oracleConn = Context.get(yield* Layer.build(oracleConnection()), Connection.Connection)
      const from: Connection.ConnectionShape = {
        ...hanaConn,
        executeQuery: (query, queryOptions) =>
          Effect.map(hanaConn.executeQuery(query, queryOptions), (reader) => ({
            schema: reader.schema,
            batches: reader.batches.pipe(Stream.tap((batch) => Effect.sync(() => watch.onRead(batch))))
          }))
      }
      const to: Connection.ConnectionShape = {
        ...oracleConn,
        ingest: (data, ingestOptions) =>
          oracleConn.ingest({
            schema: data.schema,
            batches: data.batches.pipe(Stream.tap((batch) =>
              Effect.sync(() => watch.onInsert(batch)).pipe(
                Effect.andThen(Effect.isEffect(watch.beforeInsert) ? watch.beforeInsert : Effect.sleep(watch.beforeInsert))
              )
            ))
          }, ingestOptions)
      }
      return yield* copyQuery(from, to, sql, { targetTable: table, mode: "replace" }, { step: "copy", onFinish: () => {}, ...options })
        .pipe(quietly)
    })))

  it("copy streams: the source reads ahead of the insert, by at most the read-ahead (two batches) and one in flight", async () => {
    let produced = 0
    let consumed = 0
    let widest = 0
    let wake: (() => void) | undefined
    // Each batch is held from the ingest until the copy has read the next one (or all 20): a copy that did not read
    // ahead while its insert waits would never get there, and the bounded wait fails the test.
    const nextRead = Effect.callback<void>((resume) => {
      const check = () => {
        if (produced > consumed || produced >= 20) {
          wake = undefined
          widest = Math.max(widest, produced - consumed)
          resume(Effect.void)
        }
      }
      wake = check
      check()
    }).pipe(Effect.timeoutOrElse({ duration: "60 seconds", orElse: () => Effect.die(new Error("the copy did not read ahead while its insert waited")) }))
    const copied = await watchedCopy(`SELECT * FROM "ITEMS"`, "ITEMS_STREAMED", {
      readOptions: { "dba.statement.fetch_size": "50", "dba.statement.read_batch_rows": "50" }
    }, {
      onRead: () => {
        produced++
        wake?.()
      },
      onInsert: () => {
        consumed++
        widest = Math.max(widest, produced - consumed)
      },
      beforeInsert: nextRead
    })
    expect(copied).toBe(1000)
    expect([produced, consumed]).toEqual([20, 20])
    // At least one batch read ahead (the HANA fetch overlaps the Oracle insert), never more than the buffer allows.
    expect(widest).toBeGreaterThanOrEqual(1)
    expect(widest).toBeLessThanOrEqual(3)
  })

  it("the main job's copy (its row count known) holds a small fraction of the table, not the whole of it", async () => {
    const rows = 20_000
    await onHana(Effect.flatMap(Connection.Connection, (conn) =>
      conn.ingest(fromTable(new Arrow.Table([lineitemBatch(8, 0, rows)])), { targetTable: "ITEMS_20K", mode: "replace" })))
    let produced = 0
    let consumed = 0
    let largestBatch = 0
    let mostHeld = 0
    // Rows the HANA reader handed out, rows the Oracle ingest took; the batch being inserted is still held.
    const copied = await watchedCopy(`SELECT * FROM "ITEMS_20K"`, "ITEMS_20K", { totalRows: rows }, {
      onRead: (batch) => {
        produced += batch.numRows
        largestBatch = Math.max(largestBatch, batch.numRows)
      },
      onInsert: (batch) => {
        consumed += batch.numRows
        mostHeld = Math.max(mostHeld, produced - consumed + batch.numRows)
      },
      beforeInsert: "5 millis"
    })
    expect(copied).toBe(rows)
    expect(consumed).toBe(rows)
    // batches of about a 32nd of the table (HANA's batches may run over by up to a fetch's rounding); at most four held
    expect(largestBatch).toBeLessThanOrEqual(rows / 16)
    expect(mostHeld).toBeLessThanOrEqual(rows / 4)
  })

  it("copy sets its batch options (HANA fetches, Oracle insert cap) unless the caller set them", async () => {
    const key = "redo.statement.insert_batch_rows"
    const readOptions: Array<Readonly<Record<string, string>> | undefined> = []
    const capAfterCopy = (callerCap: string | undefined) =>
      Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        const hanaConn = Context.get(yield* Layer.build(hanaConnection()), Connection.Connection)
        const from: Connection.ConnectionShape = {
          ...hanaConn,
          executeQuery: (sql, options) => {
            readOptions.push(options)
            return hanaConn.executeQuery(sql, options)
          }
        }
        const oracleDatabase = Oracle.layerDatabase({ uri: oracle.uri, ...(callerCap === undefined ? {} : { [key]: callerCap }) })
        const to = Context.get(yield* Layer.build(Connection.layer().pipe(Layer.provide(oracleDatabase))), Connection.Connection)
        yield* copyQuery(from, to, `SELECT * FROM "ITEMS" WHERE "L_ORDERKEY" <= 2`, { targetTable: "ITEMS_CAP", mode: "replace" }, {
          step: "copy",
          onFinish: () => {},
          callerOptions: { from: callerCap === undefined ? {} : { "dba.statement.fetch_size": "7" }, to: callerCap === undefined ? {} : { [key]: callerCap } }
        }).pipe(quietly)
        return yield* to.getOption(key)
      })))
    expect(await capAfterCopy(undefined)).toBe("200000")
    expect(readOptions[0]).toEqual({ "dba.statement.fetch_size": "100000", "dba.statement.read_batch_rows": "100000" })
    expect(await capAfterCopy("1000")).toBe("1000")
    // the caller's fetch size stays (a database option, which a statement option would override); the batch size is ours
    expect(readOptions[1]).toEqual({ "dba.statement.read_batch_rows": "100000" })
  })

  it("copies a query's result from HANA to Oracle", async () => {
    const run = await runCli([
      "copy", "--from-uri", hana.uri, "--query", `SELECT * FROM "ITEMS"`, "--to-uri", oracle.uri, "--table", "ITEMS_COPY", "--mode", "replace"
    ])
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout).toContain("1,000 rows copied into ITEMS_COPY")
    // every value of every column arrived: the main job's order-independent checksum on both sides
    const checksumOf = (table: string) =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const accumulator = new ChecksumAccumulator()
        for (const batch of yield* Stream.runCollect(conn.query(`SELECT * FROM "${table}"`))) accumulator.add(batch)
        return accumulator.result()
      })
    const [source, target] = await Promise.all([onHana(checksumOf("ITEMS")), onOracle(checksumOf("ITEMS_COPY"))])
    expect(target.rows).toBe(1000)
    expect(compareChecksums(source, target)).toEqual([])
  })

  it("testkit starts a server, prints its URI and a command line that connects, and stops on interrupt", async () => {
    const server = startInProcess(["testkit", "oracle"])
    await server.waitFor(/Ctrl-C stops it/)
    const uri = server.stdout().trim()
    expect(uri).toMatch(/^oracle:\/\/\S+@127\.0\.0\.1:\d+\/\S+$/)
    const suggested = /adbc (query --uri '(\S+)' '([^']+)')/.exec(server.stderr())
    expect(suggested?.[2]).toBe(uri)
    const run = await runCli(["query", "--uri", suggested![2]!, "--format", "csv", suggested![3]!])
    expect(run.code).toBe(0)
    expect(run.stdout).toBe("DUMMY\nX\n")
    const stopped = await server.interrupt()
    expect(stopped.code).toBe(130)
    const refused = await runCli(["query", "--uri", uri, "SELECT 1 FROM DUAL"])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/^error: [A-Z_]+/)
  })

  it("lists objects, info, a table's schema and the table types", async () => {
    const [objects, info, schema, types] = await Promise.all([
      runCli(["objects", "--uri", hana.uri, "--schema", "SYSTEM", "--table", "ITEMS"]),
      runCli(["info", "--uri", hana.uri, "--format", "csv"]),
      runCli(["table-schema", "ITEMS", "--uri", hana.uri]),
      runCli(["table-types", "--uri", oracle.uri, "--format", "jsonl"])
    ])
    expect([objects.code, info.code, schema.code, types.code]).toEqual([0, 0, 0, 0])
    // GetObjects says which columns are NOT NULL (xdbc_is_nullable): the key is, the comment (it holds NULLs) is not.
    expect(objects.stdout).toMatch(/^catalog \S+\n  schema SYSTEM\n    table ITEMS\n      L_ORDERKEY BIGINT NOT NULL\n/m)
    expect(objects.stdout).toMatch(/^ {6}L_COMMENT \S+$/m)
    expect(info.stdout).toMatch(/^VENDOR_NAME,0,SAP HANA$/m)
    expect(info.stdout).toMatch(/^DRIVER_NAME,100,/m)
    expect(schema.stdout).toMatch(/^L_ORDERKEY +\| Int64 +\| false/m)
    expect(types.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as unknown)).toContainEqual({ table_type: "TABLE" })
  })
})

describe.concurrent("adbc ingest --temporary and --schema", { timeout: 240_000 }, () => {
  const file = join(dir, "fifty.arrows")
  writeFileSync(file, Arrow.tableToIPC(new Arrow.Table([lineitemBatch(5, 0, 50)]), "stream"))
  const tablesNamed = (pattern: string) => (conn: typeof onHana) =>
    conn(listTables(pattern)).then((tables) => tables.map((t) => `${t.dbSchema}.${t.table}`).sort())
  const loaderUri = () => oracle.uri.replace(/\/\/[^@]*@/, "//LOADER:loader@")

  it("HANA: --temporary ingests into a local temporary table that ends with the CLI's session; without it the table stays", async () => {
    const [temporary, kept] = await Promise.all([
      runCli(["ingest", file, "--uri", hana.uri, "--table", "TMP_ITEMS", "--temporary"]),
      runCli(["ingest", file, "--uri", hana.uri, "--table", "TMP_ITEMS_KEPT"])
    ])
    expect(temporary.stderr).toBe("")
    expect([temporary.code, kept.code]).toEqual([0, 0])
    expect(temporary.stdout).toContain("50 rows ingested into TMP_ITEMS (temporary, gone when the session ended)")
    // HANA drops a local temporary table (the driver's "#TMP_ITEMS") when its session ends: no session has it now.
    expect(await tablesNamed("%TMP_ITEMS%")(onHana)).toEqual(["SYSTEM.TMP_ITEMS_KEPT"])
    const lookup = await Effect.runPromise(Effect.exit(rowsOf(`SELECT COUNT(*) AS N FROM "#TMP_ITEMS"`).pipe(Effect.provide(hanaConnection()))))
    expect(Exit.isFailure(lookup)).toBe(true)
    expect(await onHana(rowsOf(`SELECT COUNT(*) AS N FROM "TMP_ITEMS_KEPT"`))).toEqual([{ N: 50n }])
  })

  it("Oracle: --temporary fails with one NOT_IMPLEMENTED line and creates nothing", async () => {
    const run = await runCli(["ingest", file, "--uri", oracle.uri, "--table", "TMP_ITEMS", "--temporary"])
    expect(run.code).toBe(1)
    expect(run.stdout).not.toContain("rows ingested")
    expect(run.stderr.trimEnd().split("\n")).toEqual(["error: NOT_IMPLEMENTED: the oracle driver does not support ingest into a temporary table (adbc.ingest.temporary)"])
    expect(await tablesNamed("TMP_ITEMS")(onOracle)).toEqual([])
  })

  it("HANA: --schema S creates the table in S (GetObjects lists it there only); a missing schema is one error line", async () => {
    await onHana(Connection.execute(`CREATE SCHEMA "SALES"`))
    const [inSales, missing] = await Promise.all([
      runCli(["ingest", file, "--uri", hana.uri, "--table", "SCHEMA_ITEMS", "--schema", "SALES"]),
      runCli(["ingest", file, "--uri", hana.uri, "--table", "SCHEMA_ITEMS_LOST", "--schema", "NO_SUCH_SCHEMA"])
    ])
    expect(inSales.stderr).toBe("")
    expect(inSales.code).toBe(0)
    expect(inSales.stdout).toContain("50 rows ingested into SALES.SCHEMA_ITEMS")
    expect(await tablesNamed("SCHEMA_ITEMS%")(onHana)).toEqual(["SALES.SCHEMA_ITEMS"])
    expect(await onHana(rowsOf(`SELECT COUNT(*) AS N FROM "SALES"."SCHEMA_ITEMS"`))).toEqual([{ N: 50n }])
    expect(missing.code).toBe(1)
    expect(missing.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(/^error: NOT_FOUND \(vendor code 362, SQLSTATE \w+\): (\[362\] )?invalid schema name: NO_SUCH_SCHEMA$/)])
  })

  it("Oracle: --schema S creates the table in S when the user may (CREATE ANY TABLE), ORA-01031 when not", async () => {
    const [asLoader, asTest] = await Promise.all([
      runCli(["ingest", file, "--uri", loaderUri(), "--table", "SCHEMA_ITEMS", "--schema", "TEST"]),
      runCli(["ingest", file, "--uri", oracle.uri, "--table", "SCHEMA_ITEMS_REFUSED", "--schema", "LOADER"])
    ])
    expect(asLoader.stderr).toBe("")
    expect(asLoader.code).toBe(0)
    expect(asLoader.stdout).toContain("50 rows ingested into TEST.SCHEMA_ITEMS")
    expect(await tablesNamed("SCHEMA_ITEMS%")(onOracle)).toEqual(["TEST.SCHEMA_ITEMS"])
    expect(await onOracle(rowsOf(`SELECT COUNT(*) AS N FROM "SCHEMA_ITEMS"`))).toEqual([{ N: 50 }])
    expect(asTest.code).toBe(1)
    expect(asTest.stderr.trimEnd().split("\n")).toEqual([
      // node-oracledb's message ends with a line "Help: URL"; adbc keeps it, on the same line
      expect.stringMatching(/^error: UNAUTHORIZED \(vendor code 1031, SQLSTATE 42000\): ORA-01031: insufficient privileges Help: https:\S+$/)
    ])
    expect(await tablesNamed("SCHEMA_ITEMS_REFUSED")(onOracle)).toEqual([])
  })

  it("rejects --temporary with --schema, or with --mode append, before connecting", async () => {
    const closed = "hdb://u:p@127.0.0.1:1"
    const [withSchema, withAppend, copyWithSchema] = await Promise.all([
      runCli(["ingest", file, "--uri", closed, "--table", "T", "--temporary", "--schema", "SALES"]),
      runCli(["ingest", file, "--uri", closed, "--table", "T", "--temporary", "--mode", "append"]),
      runCli(["copy", "--from-uri", closed, "--query", "SELECT 1 FROM DUMMY", "--to-uri", closed, "--table", "T", "--temporary", "--schema", "SALES"])
    ])
    for (const run of [withSchema, withAppend, copyWithSchema]) expect(run.code).toBe(1)
    expect(withSchema.stderr.trimEnd()).toBe(
      "error: INVALID_ARGUMENT: --temporary and --schema SALES cannot be combined: a temporary table is created where the session keeps its own, not in a named schema"
    )
    expect(copyWithSchema.stderr).toBe(withSchema.stderr)
    expect(withAppend.stderr.trimEnd()).toBe(
      "error: INVALID_ARGUMENT: --temporary with --mode append: a temporary table lives only in its session and each adbc run opens a new one, so there is none to append to; use --mode create"
    )
  })
})

describe("files adbc ingest reads", () => {
  /** The descriptors this process holds open on `path`. */
  const openOn = (path: string) =>
    readdirSync("/proc/self/fd").filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === path
      } catch {
        return false
      }
    })

  it("an Arrow IPC file's handle closes with the ingest's scope, read through or not", async () => {
    const file = join(dir, "closes.arrow")
    writeFileSync(file, Arrow.tableToIPC(new Arrow.Table([lineitemBatch(5, 0, 100)]), "file"))
    const rows = await Effect.runPromise(Effect.scoped(Effect.flatMap(readArrow(file), (data) =>
      Stream.runFold(data.batches, () => 0, (n, batch) => n + batch.numRows))))
    expect(rows).toBe(100)
    // the schema only: the ingest failed before reading a batch
    await Effect.runPromise(Effect.scoped(readArrow(file)))
    expect(openOn(file)).toEqual([])
  })
})

describe("how adbc ends and shows progress", () => {
  it("exits 3 with the failed checks when the main job's checks fail, 130 when interrupted", () => {
    const failed = describeExit(Exit.fail(new DemoCheckFailed({ problems: ["Oracle: COUNT(*) is 9, expected 10"] })), false)
    expect(failed).toEqual({ code: 3, lines: ["error: checks failed: Oracle: COUNT(*) is 9, expected 10"] })
    expect(describeExit(Exit.interrupt(1), false).code).toBe(130)
  })

  it("draws a bar redrawn in place on a terminal and prints one line per step start and end otherwise", () => {
    const written: Record<"tty" | "narrow" | "plain", string> = { tty: "", narrow: "", plain: "" }
    for (const kind of ["tty", "narrow", "plain"] as const) {
      const progress = Progress.make({
        write: (text) => void (written[kind] += text),
        isTerminal: kind !== "plain",
        columns: kind === "narrow" ? 30 : 200
      })
      const task = progress.start("copy", 1000)
      task.update(500, 4000)
      const figures = task.finish()
      expect(figures).toMatchObject({ step: "copy", rows: 500, bytes: 4000 })
    }
    expect(written.tty).toMatch(/^\rcopy: \[#{10}-{10}\] +50% 500\/1,000 rows, 0\.0 MB, [\d,]+ rows\/s/)
    expect(written.tty.endsWith("\n")).toBe(true)
    expect(written.narrow.split("\n")[0]!.split("\r").map((line) => line.length)).toEqual([0, 29, 29])
    expect(written.plain).toMatch(/^copy: started\ncopy: 500 rows in \d+\.\d\d s\n$/)
  })
})

describe.concurrent("adbc failures", { timeout: 240_000 }, () => {
  it("prints one line with status, vendor code and SQLSTATE and exits 1; --verbose adds the cause", async () => {
    const [plain, verbose] = await Promise.all([
      runCli(["query", "--uri", hana.uri, "SELEC 1 FROM DUMMY"]),
      runCli(["query", "--verbose", "--uri", hana.uri, "SELEC 1 FROM DUMMY"])
    ])
    expect(plain.code).toBe(1)
    expect(plain.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(/^error: INVALID_ARGUMENT \(vendor code 257, SQLSTATE 42000\): .*syntax error/)])
    expect(verbose.code).toBe(1)
    expect(verbose.stderr.trimEnd().split("\n").length).toBeGreaterThan(1)
  })

  it("rejects bad input before connecting: unknown option key (exit 1), bad flag value (exit 2), no driver (exit 1)", async () => {
    const [option, format, driver] = await Promise.all([
      runCli(["query", "--uri", "hdb://u:p@127.0.0.1:1", "--option", "dba.statement.fetch_sise=10", "SELECT 1 FROM DUMMY"]),
      runCli(["query", "--uri", hana.uri, "--format", "xml", "SELECT 1 FROM DUMMY"]),
      runCli(["query", "--uri", "postgres://u:p@h/d", "SELECT 1"])
    ])
    expect(option.code).toBe(1)
    expect(option.stderr).toMatch(/^error: NOT_IMPLEMENTED: .*dba\.statement\.fetch_sise.*dba\.statement\.fetch_size/m)
    expect(format.code).toBe(2)
    // one line naming the flag, the value and what is accepted, and where to look; no help text
    expect(format.stdout).toBe("")
    expect(format.stderr.trimEnd().split("\n")).toEqual([
      expect.stringMatching(/^error: Invalid value for flag --format: "xml"\. Expected: .*csv.*$/),
      "hint: adbc query --help lists every flag"
    ])
    expect(driver.code).toBe(1)
    expect(driver.stderr).toMatch(/^error: INVALID_ARGUMENT: cannot tell the driver from the URI's scheme: pass --driver \(hana, oracle\)/m)
  })

  it("never prints the password of a URI, even with --verbose", async () => {
    const wrong = hana.uri.replace(/:([^:@/]+)@/, ":Sup3rSecretPw@")
    const run = await runCli(["info", "--verbose", "--uri", wrong])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^error: UNAUTHENTICATED/m)
    expect(run.stdout + run.stderr).not.toContain("Sup3rSecretPw")
  })
})

// Not concurrent: these tests switch faults that act on every session of the shared servers.
describe("copy against server faults", { timeout: 240_000 }, () => {
  /** Copies ITEMS into Oracle's `table` in 50-row fetches and 50-row insert calls, so several inserts precede the end. */
  const smallBatchCopy = (table: string) =>
    Effect.scoped(Effect.gen(function*() {
      const from = Context.get(yield* Layer.build(hanaConnection()), Connection.Connection)
      const to = Context.get(yield* Layer.build(oracleConnection()), Connection.Connection)
      return yield* copyQuery(from, to, `SELECT * FROM "ITEMS"`, { targetTable: table, mode: "replace" }, {
        step: "copy",
        onFinish: () => {},
        readOptions: { "dba.statement.fetch_size": "50", "dba.statement.read_batch_rows": "50" },
        writeOptions: { "redo.statement.insert_batch_rows": "50" }
      }).pipe(quietly)
    }))

  /** Creates Oracle's `table` with three rows; returns an effect that reads its row count back. */
  const oracleTableOfThree = async (table: string) => {
    const made = await Effect.runPromiseExit(Effect.flatMap(Connection.Connection, (conn) =>
      conn.ingest(fromTable(new Arrow.Table([lineitemBatch(1, 0, 3)])), { targetTable: table, mode: "create" })).pipe(
        Effect.provide(oracleConnection())
      ))
    if (Exit.isFailure(made)) throw new Error(Cause.pretty(made.cause))
    return () =>
      Effect.runPromise(Effect.flatMap(Connection.Connection, (conn) =>
        Stream.runCollect(conn.query(`SELECT COUNT(*) AS N FROM "${table}"`))).pipe(
          Effect.map((batches) => Number(batches[0]!.getChildAt(0)!.get(0))),
          Effect.provide(oracleConnection())
        ))
  }

  /**
   * Holds the Oracle server's reply to the first batch insert from now on (its stats count the insert before the reply
   * goes out) until `release`; `held` settles once that reply is being held.
   */
  const holdFirstInsertReply = () => {
    let release = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    let holding = () => {}
    const held = new Promise<void>((resolve) => {
      holding = resolve
    })
    const insertsBefore = oracle.stats.insertRows
    oracle.faults.holdReplies = () => {
      if (oracle.stats.insertRows === insertsBefore) return undefined
      holding()
      return released
    }
    return { held, insertsBefore, release }
  }

  it("copy overlaps the two servers: while Oracle holds its reply to the first insert, HANA serves the next fetches", async () => {
    const fetched = () => hana.stats.encodedRows
    const startRows = fetched()
    const { held, insertsBefore, release } = holdFirstInsertReply()
    try {
      const copying = Effect.runPromise(smallBatchCopy("ITEMS_OVERLAP"))
      // The first insert (50 rows) waits for its reply; the source goes on: the batch being inserted, two read ahead
      // and the one waiting to enter the buffer. A copy that read only when the insert asked would stop at 100.
      const readAhead = Effect.gen(function*() {
        while (fetched() - startRows < 200) yield* Effect.sleep("2 millis")
      }).pipe(Effect.timeoutOrElse({
        duration: "60 seconds",
        orElse: () => Effect.die(new Error(`HANA served ${fetched() - startRows} rows while the first insert waited`))
      }))
      await held
      await Effect.runPromise(readAhead)
      expect(oracle.stats.insertRows - insertsBefore).toBe(50)
      release()
      expect(await copying).toBe(1000)
    } finally {
      release()
      delete oracle.faults.holdReplies
    }
  })

  it("a copy whose source fails mid-read fails and leaves the target table as it was, though inserts had run", async () => {
    const count = await oracleTableOfThree("ITEMS_READ_FAILS")
    const insertsBefore = oracle.stats.insertRows
    // the copy's HANA session (the only one open meanwhile) loses its socket after its 14th reply, about 11 of its 20
    // fetches in: with at most four batches read ahead, the Oracle side has taken several batches by then
    hana.faults.dropAfterReplies = 14
    try {
      const exit = await Effect.runPromiseExit(smallBatchCopy("ITEMS_READ_FAILS"))
      expect(Exit.isFailure(exit)).toBe(true)
    } finally {
      delete hana.faults.dropAfterReplies
    }
    expect(oracle.stats.insertRows - insertsBefore).toBeGreaterThan(0)
    expect(await count()).toBe(3)
  })

  it("interrupting a copy while Oracle holds an insert reply ends both sides: HANA's cursor closes, Oracle's table as it was", async () => {
    const count = await oracleTableOfThree("ITEMS_STOPPED")
    const { held, release } = holdFirstInsertReply()
    try {
      const fiber = Effect.runFork(smallBatchCopy("ITEMS_STOPPED"))
      await held
      expect(hana.openResultSets()).toBe(1)
      const interrupted = Effect.runPromise(Effect.exit(Fiber.interrupt(fiber)))
      release()
      await interrupted
      const exit = await Effect.runPromise(Fiber.await(fiber))
      expect(Exit.hasInterrupts(exit)).toBe(true)
      expect(hana.openResultSets()).toBe(0)
    } finally {
      release()
      delete oracle.faults.holdReplies
    }
    expect(await count()).toBe(3)
  })
})
