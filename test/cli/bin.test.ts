/**
 * The built bin: `tsc -p tsconfig.build.json` (emit only; `npm run typecheck` checks the types) into a scratch
 * package, then `dist/cli/main.js` run with plain node, as `npx adbc` runs it after install.
 */
import { execFileSync, spawn } from "node:child_process"
import { copyFileSync, mkdtempSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type HanaTestServerHandle, startHanaTestServer } from "../../testkit/hana/index.ts"
import { root } from "./support.ts"

const pkg = mkdtempSync(join(tmpdir(), "adbc-bin-"))
let hana: HanaTestServerHandle

const runBin = (args: ReadonlyArray<string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [join(pkg, "dist/cli/main.js"), ...args], { cwd: pkg, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (c: Buffer) => void (stdout += c.toString()))
    child.stderr.on("data", (c: Buffer) => void (stderr += c.toString()))
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

beforeAll(async () => {
  copyFileSync(join(root, "package.json"), join(pkg, "package.json"))
  symlinkSync(join(root, "node_modules"), join(pkg, "node_modules"))
  execFileSync(process.execPath, [
    join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json"), "--outDir", join(pkg, "dist"),
    "--noCheck", "--declaration", "false", "--declarationMap", "false", "--sourceMap", "false", "--inlineSources", "false"
  ], { cwd: root, stdio: "inherit" })
  hana = await startHanaTestServer()
}, 300_000)
afterAll(async () => {
  await hana?.close()
})

describe("the built adbc bin", { timeout: 120_000 }, () => {
  it("prints help with every command, runs a query, and exits 1 with one error line on a bad query", async () => {
    const [help, query, failed] = await Promise.all([
      runBin(["--help"]),
      runBin(["query", "--uri", hana.uri, "--format", "jsonl", "SELECT 1 AS A, 'ü' AS B FROM DUMMY"]),
      runBin(["query", "--uri", hana.uri, "SELECT FROM"])
    ])
    expect(help.code).toBe(0)
    for (const command of ["query", "ingest", "copy", "objects", "info", "table-schema", "table-types", "testkit", "demo"]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, "m"))
    }
    expect(query.stderr).toBe("")
    expect(query.code).toBe(0)
    expect(query.stdout).toBe(`{"A":1,"B":"ü"}\n`)
    expect(failed.code).toBe(1)
    expect(failed.stderr).toMatch(/^error: INVALID_ARGUMENT \(vendor code 257, SQLSTATE 42000\): /)
  })
})
