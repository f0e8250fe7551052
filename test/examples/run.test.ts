/**
 * `npm run example -- NAME`: the runner (examples/run.ts) started the way that script starts it (tsx), on the test
 * servers it starts itself: an example by name with `--driver`, and an unknown name refused with the list.
 */
import { execFile } from "node:child_process"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { root } from "../cli/support.ts"

const runExample = (args: ReadonlyArray<string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const env: Record<string, string | undefined> = { ...process.env, HANA_URI: undefined, ORACLE_URI: undefined }
    for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key]
    const child = execFile(process.execPath, [join(root, "node_modules/tsx/dist/cli.mjs"), "examples/run.ts", ...args], { cwd: root, env })
    let stdout = ""
    let stderr = ""
    child.stdout!.on("data", (chunk: string) => void (stdout += chunk))
    child.stderr!.on("data", (chunk: string) => void (stderr += chunk))
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

describe.concurrent("npm run example", { timeout: 120_000 }, () => {
  it("runs the named example on the driver --driver names", async () => {
    const run = await runExample(["quickstart", "--driver", "oracle"])
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^ingested 4 rows into CITIES\n/m)
    expect(run.stdout).toMatch(/^read 4 rows in /m)
  })

  it("refuses an unknown example with exit 1, naming the ones there are", async () => {
    const run = await runExample(["no-such-example"])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/no example named no-such-example; available: .*cancellation.*streaming/)
  })
})
