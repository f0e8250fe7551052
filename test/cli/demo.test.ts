/**
 * The main job end to end, as `npm start` runs it but in-process (the CLI's own program, exit code as the bin
 * computes it): both test servers started by the job, 20,000 rows, the table name from the environment. Its SIGINT
 * test runs the built bin: see process.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
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
})
