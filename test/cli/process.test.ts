/**
 * What only a real process shows: the bin as `npm pack` ships it (built once for this file, run with plain node),
 * every command and every output and input format once through it, its exit codes, SIGINT (exit 130, the server
 * call cancelled, nothing half-written) on a long query and during the main job's copy, and a reader of stdout that
 * goes away (exit 141, quietly). The tests run concurrently
 * once the one build is done: the SIGINT tests on servers of their own (they count the server's cursors), the others
 * on the file's shared pair. The details of each command are tested in-process (cli.test.ts, demo.test.ts).
 */
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { DuckDBInstance } from "@duckdb/node-api"
import * as Arrow from "apache-arrow"
import { Effect, Layer, Stream } from "effect"
import { ChecksumAccumulator } from "../../cli/demo/checksum.ts"
import { lineitemBatch } from "../../cli/demo/lineitem.ts"
import * as Oracle from "../../layers/oracle/index.ts"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { type HanaTestServerHandle, startHanaTestServer } from "../../testkit/hana/index.ts"
import { type OracleTestServerHandle, startOracleTestServer } from "../../testkit/oracle/index.ts"
import { buildBin, runBin, startCli } from "./support.ts"

let hana: HanaTestServerHandle
let oracle: OracleTestServerHandle

beforeAll(async () => {
  ;[hana, oracle] = await Promise.all([startHanaTestServer(), startOracleTestServer()])
}, 120_000)
afterAll(async () => {
  await Promise.all([hana?.close(), oracle?.close()])
})

const waitUntil = async (done: () => boolean, ms: number) => {
  const deadline = Date.now() + ms
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
}

describe.concurrent("the built adbc bin", { timeout: 300_000 }, () => {
  it("prints help with every command, runs a query, and exits 1 (bad query) or 2 (bad flag) with the error", async () => {
    const bin = await buildBin()
    const [help, query, failed, usage, missing] = await Promise.all([
      runBin(bin, ["--help"]),
      runBin(bin, ["query", "--uri", hana.uri, "--format", "jsonl", "SELECT 1 AS A, 'ü' AS B FROM DUMMY"]),
      runBin(bin, ["query", "--uri", hana.uri, "SELECT FROM"]),
      runBin(bin, ["query", "--uri", hana.uri, "--max-rows", "none", "SELECT 1 FROM DUMMY"]),
      runBin(bin, ["ingest", "missing.csv", "--uri", hana.uri, "--table", "NEVER"])
    ])
    expect(help.code).toBe(0)
    for (const command of ["query", "ingest", "copy", "objects", "info", "table-schema", "table-types", "testkit", "demo"]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, "m"))
    }
    expect(query.stderr).toBe("")
    expect(query.code).toBe(0)
    expect(query.stdout).toBe(`{"A":1,"B":"ü"}\n`)
    expect(failed.code).toBe(1)
    expect(failed.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(/^error: INVALID_ARGUMENT \(vendor code 257, SQLSTATE 42000\): /)])
    expect(usage.code).toBe(2)
    expect(usage.stdout).toBe("")
    expect(usage.stderr.trimEnd().split("\n")).toEqual([
      `error: Invalid value for flag --max-rows: "none". Expected: a finite number`,
      "hint: adbc query --help lists every flag"
    ])
    // A missing file is one line, not Node's unhandled 'error' event with a stack.
    expect(missing.code).toBe(1)
    expect(missing.stderr).toBe("error: IO: cannot read missing.csv: ENOENT: no such file or directory, stat 'missing.csv'\n")
  })

  it("runs every command, every output format and every input format", async () => {
    const bin = await buildBin()
    const dir = mkdtempSync(join(tmpdir(), "adbc-bin-run-"))
    const files = { csv: join(dir, "c.csv"), tsv: join(dir, "t.tsv"), arrows: join(dir, "a.arrows"), parquet: join(dir, "p.parquet"), arrow: join(dir, "out.arrow") }
    writeFileSync(files.csv, "K,NAME\n1,one\n2,two\n")
    writeFileSync(files.tsv, "K\tNAME\n3\tthree, a comma\n")
    writeFileSync(files.arrows, Arrow.tableToIPC(new Arrow.Table({ K: Arrow.vectorFromArray([4], new Arrow.Int32()), NAME: Arrow.vectorFromArray(["four"]) }), "stream"))
    const duck = await DuckDBInstance.create(":memory:")
    const session = await duck.connect()
    await session.run(`COPY (SELECT 5::INTEGER AS K, 'five' AS NAME) TO '${files.parquet}' (FORMAT parquet)`)
    session.closeSync()
    const on = (uri: string) => ["--uri", uri]
    const ingested = await Promise.all([
      runBin(bin, ["ingest", files.csv, ...on(hana.uri), "--table", "BIN_CSV"]),
      runBin(bin, ["ingest", files.tsv, ...on(hana.uri), "--table", "BIN_TSV"]),
      runBin(bin, ["ingest", files.arrows, ...on(hana.uri), "--table", "BIN_ARROWS"]),
      runBin(bin, ["ingest", files.parquet, ...on(oracle.uri), "--table", "BIN_PARQUET"])
    ])
    for (const run of ingested) expect([run.code, run.stderr]).toEqual([0, ""])
    expect(ingested.map((run) => /^(\d+) rows ingested/m.exec(run.stdout)?.[1])).toEqual(["2", "1", "1", "1"])

    const sql = `SELECT "K", "NAME" FROM "BIN_CSV" UNION ALL SELECT "K", "NAME" FROM "BIN_TSV" UNION ALL SELECT "K", "NAME" FROM "BIN_ARROWS" ORDER BY "K"`
    const [table, csv, jsonl, arrow, arrows, copied, objects, info, schema, types] = await Promise.all([
      runBin(bin, ["query", ...on(hana.uri), sql]),
      runBin(bin, ["query", ...on(hana.uri), "--format", "csv", sql]),
      runBin(bin, ["query", ...on(hana.uri), "--format", "jsonl", sql]),
      runBin(bin, ["query", ...on(hana.uri), "--format", "arrow", "--output", files.arrow, sql]),
      runBin(bin, ["query", ...on(oracle.uri), "--format", "arrows", `SELECT "K", "NAME" FROM "BIN_PARQUET"`]),
      runBin(bin, ["copy", "--from-uri", hana.uri, "--query", sql, "--to-uri", oracle.uri, "--table", "BIN_COPY"]),
      runBin(bin, ["objects", ...on(hana.uri), "--table", "BIN_CSV"]),
      runBin(bin, ["info", ...on(oracle.uri), "--format", "csv"]),
      runBin(bin, ["table-schema", "BIN_TSV", ...on(hana.uri)]),
      runBin(bin, ["table-types", ...on(oracle.uri), "--format", "jsonl"])
    ])
    for (const run of [table, csv, jsonl, arrow, arrows, copied, objects, info, schema, types]) expect([run.code, run.stderr]).toEqual([0, ""])
    expect(table.stdout.trimEnd().split("\n").map((line) => line.replace(/ +/g, " "))).toEqual([
      "K | NAME", expect.stringMatching(/^-+/), "1 | one", "2 | two", "3 | three, a comma", "4 | four", "(4 rows)"
    ])
    expect(csv.stdout).toBe(`K,NAME\n1,one\n2,two\n3,"three, a comma"\n4,four\n`)
    expect(jsonl.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as unknown)).toEqual([
      { K: 1, NAME: "one" }, { K: 2, NAME: "two" }, { K: 3, NAME: "three, a comma" }, { K: 4, NAME: "four" }
    ])
    expect(Arrow.tableFromIPC(readFileSync(files.arrow)).toArray().map((r) => [Number(r.K), r.NAME])).toEqual([[1, "one"], [2, "two"], [3, "three, a comma"], [4, "four"]])
    expect(Arrow.tableFromIPC(arrows.stdoutBytes).toArray().map((r) => [Number(r.K), r.NAME])).toEqual([[5, "five"]])
    expect(copied.stdout).toContain("4 rows copied into BIN_COPY")
    expect(objects.stdout).toMatch(/^ {4}table BIN_CSV\n {6}K INTEGER/m)
    expect(info.stdout).toMatch(/^VENDOR_NAME,0,Oracle$/m)
    expect(schema.stdout).toMatch(/^NAME +\| Utf8 /m)
    expect(types.stdout).toContain(`{"table_type":"TABLE"}`)

    // testkit: serves until SIGINT; demo: the main job on this file's servers
    const server = startCli(bin, ["testkit", "hana", "--port", "0"])
    const [demo] = await Promise.all([
      runBin(bin, ["demo", "--rows", "3000", "--table", "BIN_DEMO"], { env: { HANA_URI: hana.uri, ORACLE_URI: oracle.uri } }),
      server.waitFor(/^hdb:\/\/\S+\n/)
    ])
    expect(demo.code).toBe(0)
    expect(demo.stdout).toContain("checks passed")
    const probe = await runBin(bin, ["query", "--uri", server.stdout().trim(), "--format", "csv", "SELECT 1 AS ONE FROM DUMMY"])
    expect(probe.stdout).toBe("ONE\n1\n")
    server.child.kill("SIGINT")
    expect((await server.done).code).toBe(130)
  })

  it("runs scripts from standard input, keeps CSV NULL apart from empty strings, writes Parquet, aligns wide text and names bad env values", async () => {
    const bin = await buildBin()
    const dir = mkdtempSync(join(tmpdir(), "adbc-bin-edges-"))
    const script = `CREATE COLUMN TABLE "BIN_EDGE" ("K" INTEGER, "S" NVARCHAR(20));\nINSERT INTO "BIN_EDGE" VALUES (1, '');\nINSERT INTO "BIN_EDGE" VALUES (2, NULL);\nINSERT INTO "BIN_EDGE" VALUES (3, '東京');\n`
    const setup = await runBin(bin, ["query", "--uri", hana.uri, "-f", "-"], { stdin: script })
    expect([setup.code, setup.stderr]).toEqual([0, ""])
    expect(setup.stdout).toBe("CREATE TABLE: done\nINSERT: 1 row affected\nINSERT: 1 row affected\nINSERT: 1 row affected\n")
    const csvFile = join(dir, "edge.csv")
    const parquetFile = join(dir, "edge.parquet")
    const select = `SELECT "K", "S" FROM "BIN_EDGE" ORDER BY "K"`
    const [csv, parquet, table, badEnv] = await Promise.all([
      runBin(bin, ["query", "--uri", hana.uri, "--format", "csv", "-o", csvFile, select]),
      runBin(bin, ["query", "--uri", hana.uri, "--format", "parquet", "-o", parquetFile, select]),
      runBin(bin, ["query", "--uri", hana.uri, select]),
      runBin(bin, ["query", "--uri", hana.uri, select], { env: { ADBC_MAX_WIDTH: "wide" } })
    ])
    for (const run of [csv, parquet, table]) expect([run.code, run.stderr]).toEqual([0, ""])
    expect(readFileSync(csvFile, "utf8")).toBe(`K,S\n1,""\n2,\n3,東京\n`)
    const ingested = await runBin(bin, ["ingest", csvFile, "--uri", hana.uri, "--table", "BIN_EDGE_BACK", "--column", "S:utf8"])
    expect([ingested.code, ingested.stderr]).toEqual([0, ""])
    const back = await runBin(bin, ["query", "--uri", hana.uri, "--format", "jsonl", `SELECT "K", "S" FROM "BIN_EDGE_BACK" ORDER BY "K"`])
    expect(back.stdout).toBe(`{"K":1,"S":""}\n{"K":2,"S":null}\n{"K":3,"S":"東京"}\n`)
    const duck = await DuckDBInstance.create(":memory:")
    const session = await duck.connect()
    const fromParquet = await session.runAndReadAll(`SELECT K, S FROM read_parquet('${parquetFile}') ORDER BY K`)
    expect(fromParquet.getRowObjectsJson()).toEqual([{ K: 1, S: "" }, { K: 2, S: null }, { K: 3, S: "東京" }])
    session.closeSync()
    // 東京 takes four terminal columns: the rows' separators line up with the header's.
    expect(table.stdout.split("\n").slice(0, 5)).toEqual(["K | S", "--+-----", "1 |", "2 | NULL", "3 | 東京"])
    expect(badEnv.code).toBe(2)
    expect(badEnv.stderr.split("\n")[0]).toBe(`error: environment variable ADBC_MAX_WIDTH="wide" is not accepted: Expected a finite number`)
  })

  it("shows query progress on a terminal while the result goes to a file (the bin on a pseudo-terminal), none on a pipe", async () => {
    const bin = await buildBin()
    const dir = mkdtempSync(join(tmpdir(), "adbc-bin-progress-"))
    const sql = `SELECT GENERATED_PERIOD_START AS I FROM SERIES_GENERATE_INTEGER(1, 0, 20000)`
    const args = (file: string) => [bin, "query", "--uri", hana.uri, "--format", "csv", "-o", join(dir, file), sql]
    // util-linux `script` gives the bin a terminal as its stdout (-e: its exit code; -q: no banner).
    const command = [process.execPath, ...args("tty.csv")].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ")
    const onTerminal = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], { stdio: ["pipe", "pipe", "pipe"] })
      let output = ""
      child.stdout.on("data", (chunk: Buffer) => void (output += chunk.toString("utf8")))
      child.stderr.on("data", (chunk: Buffer) => void (output += chunk.toString("utf8")))
      child.stdin.end()
      child.on("close", (code) => resolve({ code, output }))
    })
    const onPipe = await runBin(bin, args("pipe.csv").slice(1))
    expect(onTerminal.code).toBe(0)
    expect(onTerminal.output).toMatch(/query: 20,000 rows, \d+\.\d MB, [\d,]+ rows\/s/)
    expect([onPipe.code, onPipe.stdout, onPipe.stderr]).toEqual([0, "", ""])
    expect(readFileSync(join(dir, "tty.csv"), "utf8").split("\n")).toHaveLength(20_002)
    expect(readFileSync(join(dir, "pipe.csv"), "utf8")).toBe(readFileSync(join(dir, "tty.csv"), "utf8"))
  })

  it("stops test servers started with --pid-file through adbc testkit stop, without job control", async () => {
    const bin = await buildBin()
    const dir = mkdtempSync(join(tmpdir(), "adbc-pid-"))
    const pidFile = join(dir, "hana.pid")
    const server = startCli(bin, ["testkit", "hana", "--port", "0", "--pid-file", pidFile])
    await server.waitFor(/^hdb:\/\/\S+\n/)
    expect(Number(readFileSync(pidFile, "utf8").trim())).toBe(server.child.pid)
    const stop = await runBin(bin, ["testkit", "stop", "--pid-file", pidFile])
    expect([stop.code, stop.stderr]).toEqual([0, ""])
    expect(stop.stdout).toBe(`stopped the test server of ${pidFile} (pid ${server.child.pid})\n`)
    // testkit stop returns once the server has ended: its exit is already there to read.
    expect(server.child.exitCode ?? server.child.signalCode).not.toBeNull()
    expect((await server.done).code).toBe(130)
    expect(existsSync(pidFile)).toBe(false)
    const again = await runBin(bin, ["testkit", "stop", "--pid-file", pidFile])
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/^error: IO: cannot read .*hana\.pid: ENOENT/)
  })

  it("stops a long query on SIGINT with exit 130, leaving no open cursor on the server", async () => {
    // A server of its own: the other tests' statements must not count as this one's cursors.
    const server = await startHanaTestServer()
    try {
      await longQueryInterrupted(await buildBin(), server)
    } finally {
      await server.close()
    }
  })

  it("stops a long query quietly with exit 141 when the reader of stdout goes away (| head), leaving no open cursor", async () => {
    const server = await startHanaTestServer()
    try {
      const query = startCli(await buildBin(), ["query", "--uri", server.uri, "--format", "csv", "--option", "dba.statement.fetch_size=1000",
        "SELECT GENERATED_PERIOD_START AS I FROM SERIES_GENERATE_INTEGER(1, 0, 3000000)"])
      await query.waitFor(/^\d+\n\d+\n/m)
      query.child.stdout!.destroy()
      const run = await query.done
      expect(run.stderr).toBe("")
      expect(run.code).toBe(141)
      await waitUntil(() => server.openResultSets() === 0, 5_000)
      expect(server.openResultSets()).toBe(0)
    } finally {
      await server.close()
    }
  })

  it("stops the main job during the copy with exit code 130, no open HANA cursor and Oracle's table as it was", async () => {
    const [server, oracle] = await Promise.all([startHanaTestServer(), startOracleTestServer()])
    try {
      await demoInterrupted(await buildBin(), server, oracle)
    } finally {
      await Promise.all([server.close(), oracle.close()])
    }
  })
})

/** SIGINT during a long query: exit 130, the server's cursor closed. */
const longQueryInterrupted = async (bin: string, hana: HanaTestServerHandle) => {
  const query = startCli(bin, ["query", "--uri", hana.uri, "--format", "csv", "--option", "dba.statement.fetch_size=1000",
    "SELECT GENERATED_PERIOD_START AS I FROM SERIES_GENERATE_INTEGER(1, 0, 3000000)"])
  await query.waitFor(/^\d+\n\d+\n/m)
  expect(hana.openResultSets()).toBeGreaterThan(0)
  query.child.kill("SIGINT")
  const run = await query.done
  expect(run.code).toBe(130)
  expect(run.stdout.trimEnd().split("\n").length).toBeLessThan(3_000_001)
  await waitUntil(() => hana.openResultSets() === 0, 5_000)
  expect(hana.openResultSets()).toBe(0)
}

/** SIGINT during the main job's copy: exit 130, no HANA cursor left, Oracle's table as it was. */
const demoInterrupted = async (bin: string, hana: HanaTestServerHandle, oracle: OracleTestServerHandle) => {
  // Oracle already has the table with 3 rows; an interrupted replace must leave exactly those.
  const before = lineitemBatch(1, 0, 3)
  const oracleDb = Connection.layer().pipe(Layer.provide(Oracle.layerDatabase({ uri: oracle.uri })))
  const readBack = Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const batches = yield* Stream.runCollect(conn.query(`SELECT * FROM "DEMO_SIGINT"`))
    const checksum = new ChecksumAccumulator()
    for (const batch of batches) checksum.add(batch)
    return checksum.result()
  })
  await Effect.runPromise(Effect.gen(function*() {
    const conn = yield* Connection.Connection
    yield* conn.ingest(fromTable(new Arrow.Table([before])), { targetTable: "DEMO_SIGINT", mode: "create" })
  }).pipe(Effect.provide(oracleDb)))

  const demo = startCli(bin, ["demo", "--rows", "30000", "--table", "DEMO_SIGINT"], {
    env: { HANA_URI: hana.uri, ORACLE_URI: oracle.uri }
  })
  await demo.waitFor(/copy HANA → Oracle: started/)
  // Hold the reply to the copy's first insert: the copy is then mid-way, with rows written inside its transaction,
  // however fast the machine; SIGINT comes while it waits, and the reply is let go after it.
  const insertsBefore = oracle.stats.insertCalls
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  const firstInsertHeld = new Promise<void>((reached) => {
    oracle.faults.holdReplies = () => {
      if (oracle.stats.insertCalls <= insertsBefore) return undefined
      reached()
      return released
    }
  })
  await Promise.race([
    firstInsertHeld,
    demo.done.then((run) => Promise.reject(new Error(`the demo ended (exit ${run.code}) before its first insert`)))
  ])
  const interruptedAt = Date.now()
  demo.child.kill("SIGINT")
  release()
  oracle.faults.holdReplies = undefined
  const run = await demo.done
  expect(run.stdout).not.toContain("checks passed")
  expect(run.code).toBe(130)
  expect(Date.now() - interruptedAt).toBeLessThan(15_000)
  await waitUntil(() => hana.openResultSets() === 0, 5_000)
  expect(hana.openResultSets()).toBe(0)

  const expected = new ChecksumAccumulator()
  expected.add(before)
  expect(await Effect.runPromise(readBack.pipe(Effect.provide(oracleDb)))).toEqual(expected.result())
}
