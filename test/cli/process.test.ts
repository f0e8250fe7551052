/**
 * What only a real process shows: the bin as `npm pack` ships it (built once for this file, run with plain node),
 * its exit codes, and SIGINT (exit 130, the server call cancelled, nothing half-written) on a long query and during
 * the main job's copy. The tests run concurrently, each on servers of its own, once the one build is done.
 * Everything else runs in-process (cli.test.ts, demo.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
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

beforeAll(async () => {
  hana = await startHanaTestServer()
}, 120_000)
afterAll(async () => {
  await hana?.close()
})

const waitUntil = async (done: () => boolean, ms: number) => {
  const deadline = Date.now() + ms
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
}

describe.concurrent("the built adbc bin", { timeout: 300_000 }, () => {
  it("prints help with every command, runs a query, and exits 1 (bad query) or 2 (bad flag) with the error", async () => {
    const bin = await buildBin()
    const [help, query, failed, usage] = await Promise.all([
      runBin(bin, ["--help"]),
      runBin(bin, ["query", "--uri", hana.uri, "--format", "jsonl", "SELECT 1 AS A, 'ü' AS B FROM DUMMY"]),
      runBin(bin, ["query", "--uri", hana.uri, "SELECT FROM"]),
      runBin(bin, ["query", "--uri", hana.uri, "--max-rows", "none", "SELECT 1 FROM DUMMY"])
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
    expect(usage.stderr).toMatch(/--max-rows/)
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
  await new Promise((resolve) => setTimeout(resolve, 300))
  const interruptedAt = Date.now()
  demo.child.kill("SIGINT")
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
