/**
 * The main job end to end, as `npm start` runs it but in-process (the CLI's own program, exit code as the bin
 * computes it): both test servers started by the job, 20,000 rows, the table name from the environment. Then the job
 * with a row deleted on Oracle between the copy and the verification: its checks must fail it. Its SIGINT test runs
 * the built bin: see process.test.ts.
 */
import { PassThrough, Readable } from "node:stream"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Layer } from "effect"
import * as Connection from "../../src/Connection.ts"
import { runDemo } from "../../cli/demo/job.ts"
import { describeExit } from "../../cli/errors.ts"
import * as Progress from "../../cli/progress.ts"
import { CliStdio, layerConsole } from "../../cli/stdio.ts"
import { runInProcess } from "./support.ts"

describe("adbc demo (npm start)", () => {
  it("runs the whole job with --rows 20000 on both test servers and exits 0 with the summary", async () => {
    const run = await runInProcess(["demo", "--rows", "20000", "--seed", "7"], { env: { ADBC_DEMO_TABLE: "DEMO_FROM_ENV" } })
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    for (const step of ["ingest into HANA", "copy HANA → Oracle", "verify HANA", "verify Oracle"]) {
      expect(run.stdout).toMatch(new RegExp(`^${step}: started$`, "m"))
      expect(run.stdout).toMatch(new RegExp(`^${step} +20,000 +[\\d.]+ +[\\d.]+ +[\\d,]+ +[\\d.]+$`, "m"))
    }
    expect(run.stdout).toMatch(/^HANA +\S+ +SYSTEM +DEMO_FROM_ENV +TABLE +16$/m)
    expect(run.stdout).toMatch(/^Oracle +FREEPDB1 +TEST +DEMO_FROM_ENV +TABLE +16$/m)
    expect(run.stdout).toContain("checks passed: row counts and checksums of all 16 columns match on HANA and Oracle")
  }, 240_000)

  it("fails its checks (exit 3, one line naming Oracle's count and checksum) when a row goes missing on Oracle after the copy", async () => {
    let stdout = ""
    const out = new PassThrough().setEncoding("utf8").on("data", (chunk: string) => void (stdout += chunk))
    const stdio = Layer.succeed(CliStdio, { stdin: Readable.from([]), stdout: out, stderr: new PassThrough().resume(), isTerminal: false, columns: undefined })
    const deleteOneRow = Connection.execute(`DELETE FROM "DEMO_TAMPERED" WHERE "L_ORDERKEY" = 1 AND "L_LINENUMBER" = 1`)
    const exit = await Effect.runPromiseExit(
      Effect.scoped(runDemo({ rows: 2000, seed: 3, table: "DEMO_TAMPERED" }, { afterCopy: Effect.asVoid(deleteOneRow) })).pipe(
        Effect.provide(Progress.layerStdout),
        Effect.provide(layerConsole),
        Effect.provide(stdio),
        // no HANA_URI / ORACLE_URI from the test's own environment: the job starts both test servers
        Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: {} }))
      )
    )
    expect(Exit.isFailure(exit)).toBe(true)
    const { code, lines } = describeExit(exit, false)
    expect(code).toBe(3)
    expect(lines).toEqual(["error: checks failed: Oracle: COUNT(*) is 1999, expected 2000; Oracle: row count 1999, expected 2000"])
    expect(stdout).toMatch(/^checks FAILED:\n {2}Oracle: COUNT\(\*\) is 1999, expected 2000\n/m)
    expect(stdout).not.toContain("checks passed")
  }, 240_000)
})
