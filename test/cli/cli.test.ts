/**
 * `adbc` end to end: each command spawned as a child process against test servers owned by this test, checked
 * through its output, its exit code, and what it left in the databases (read back with the library in-process).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Layer, Stream } from "effect"
import * as Hana from "../../layers/hana/index.ts"
import * as Oracle from "../../layers/oracle/index.ts"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { type HanaTestServerHandle, startHanaTestServer } from "../../testkit/hana/index.ts"
import { type OracleTestServerHandle, startOracleTestServer } from "../../testkit/oracle/index.ts"
import { lineitemBatch } from "../../cli/demo/lineitem.ts"
import { runCli, startCli } from "./support.ts"

let hana: HanaTestServerHandle
let oracle: OracleTestServerHandle
const dir = mkdtempSync(join(tmpdir(), "adbc-cli-"))

const onHana = <A, E>(program: Effect.Effect<A, E, Connection.Connection>) =>
  Effect.runPromise(program.pipe(Effect.provide(Connection.layer().pipe(Layer.provide(Hana.layerDatabase({ uri: hana.uri }))))))
const onOracle = <A, E>(program: Effect.Effect<A, E, Connection.Connection>) =>
  Effect.runPromise(program.pipe(Effect.provide(Connection.layer().pipe(Layer.provide(Oracle.layerDatabase({ uri: oracle.uri }))))))
const rowsOf = (sql: string) =>
  Effect.gen(function*() {
    const conn = yield* Connection.Connection
    return new Arrow.Table(yield* Stream.runCollect(conn.query(sql))).toArray().map((r) => r.toJSON())
  })

beforeAll(async () => {
  ;[hana, oracle] = await Promise.all([startHanaTestServer(), startOracleTestServer()])
  await onHana(Effect.gen(function*() {
    const conn = yield* Connection.Connection
    yield* conn.ingest(fromTable(new Arrow.Table([lineitemBatch(3, 0, 1000)])), { targetTable: "ITEMS", mode: "replace" })
  }))
}, 120_000)
afterAll(async () => {
  await Promise.all([hana?.close(), oracle?.close()])
})

const QUERY = `SELECT "L_ORDERKEY", "L_QUANTITY", "L_SHIPDATE", "L_COMMENT" FROM "ITEMS" WHERE "L_ORDERKEY" <= 2 ORDER BY "L_ORDERKEY", "L_LINENUMBER"`

describe.concurrent("adbc query", { timeout: 120_000 }, () => {
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
    const fromStream = Arrow.tableFromIPC(Buffer.from(asStream.stdout, "latin1"))
    expect(fromFile.toArray().map((r) => ({ A: Number(r.A), B: r.B }))).toEqual([{ A: 1, B: "x" }, { A: 2, B: null }])
    expect(fromStream.numRows).toBe(2)
  })
})
