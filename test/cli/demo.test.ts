/**
 * The main job end to end, as `npm start` runs it: a child process starting both test servers, then the same job
 * against servers this test owns, interrupted with SIGINT during the copy.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import * as Oracle from "../../layers/oracle/index.ts"
import * as Arrow from "apache-arrow"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import { startOracleTestServer } from "../../testkit/oracle/index.ts"
import { ChecksumAccumulator } from "../../cli/demo/checksum.ts"
import { lineitemBatch } from "../../cli/demo/lineitem.ts"
import { runCli, startCli } from "./support.ts"

describe("adbc demo (npm start)", () => {
  it("runs the whole job with --rows 20000 on both test servers and exits 0 with the summary", async () => {
    const run = await runCli(["demo", "--rows", "20000", "--seed", "7"])
    expect(run.stderr).not.toMatch(/error/i)
    expect(run.code).toBe(0)
    for (const step of ["ingest into HANA", "copy HANA → Oracle", "verify HANA", "verify Oracle"]) {
      expect(run.stdout).toMatch(new RegExp(`^${step} +20,000 +[\\d.]+ +[\\d.]+ +[\\d,]+ +[\\d.]+$`, "m"))
    }
    expect(run.stdout).toMatch(/^HANA +\S+ +SYSTEM +ADBC_DEMO_LINEITEM +TABLE +16$/m)
    expect(run.stdout).toMatch(/^Oracle +FREEPDB1 +TEST +ADBC_DEMO_LINEITEM +TABLE +16$/m)
    expect(run.stdout).toContain("checks passed")
  }, 240_000)

  it("stops on SIGINT during the copy with exit code 130, no open HANA cursor and Oracle's table as it was", async () => {
    const hana = await startHanaTestServer()
    const oracle = await startOracleTestServer()
    try {
      // Oracle already has the table with 3 rows; an interrupted replace must leave exactly those.
      const before = lineitemBatch(1, 0, 3)
      const oracleDb = Connection.layer().pipe(Layer.provide(Oracle.layerDatabase({ uri: oracle.uri })))
      const readBack = Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const batches = yield* Stream.runCollect(conn.query(`SELECT * FROM "ADBC_DEMO_LINEITEM"`))
        const checksum = new ChecksumAccumulator()
        for (const batch of batches) checksum.add(batch)
        return checksum.result()
      })
      await Effect.runPromise(Effect.gen(function*() {
        const conn = yield* Connection.Connection
        yield* conn.ingest(fromTable(new Arrow.Table([before])), { targetTable: "ADBC_DEMO_LINEITEM", mode: "create" })
      }).pipe(Effect.provide(oracleDb)))

      const demo = startCli(["demo", "--rows", "30000"], { env: { HANA_URI: hana.uri, ORACLE_URI: oracle.uri } })
      await demo.waitFor(/copy HANA → Oracle: started/)
      await new Promise((resolve) => setTimeout(resolve, 300))
      const interruptedAt = Date.now()
      demo.child.kill("SIGINT")
      const run = await demo.done
      expect(run.stdout).not.toContain("checks passed")
      expect(run.code).toBe(130)
      expect(Date.now() - interruptedAt).toBeLessThan(15_000)
      expect(hana.openResultSets()).toBe(0)

      const expected = new ChecksumAccumulator()
      expected.add(before)
      const after = await Effect.runPromise(readBack.pipe(Effect.provide(oracleDb)))
      expect(after).toEqual(expected.result())
    } finally {
      await hana.close()
      await oracle.close()
    }
  }, 240_000)
})
