import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { startInChildProcess } from "../../testkit/common/child-process.ts"

describe("startInChildProcess with TESTKIT_CHILD_CPU_PROF", () => {
  it("writes the child server's V8 CPU profile into the directory when the server is closed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "child-cpu-prof-"))
    const before = process.env["TESTKIT_CHILD_CPU_PROF"]
    process.env["TESTKIT_CHILD_CPU_PROF"] = dir
    try {
      const server = await startInChildProcess("oracle")
      await server.close()
      const files = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))
      expect(files).toHaveLength(1)
      const profile = JSON.parse(readFileSync(join(dir, files[0]!), "utf8")) as { nodes: Array<unknown>; samples: Array<number> }
      expect(profile.nodes.length).toBeGreaterThan(0)
    } finally {
      if (before === undefined) delete process.env["TESTKIT_CHILD_CPU_PROF"]
      else process.env["TESTKIT_CHILD_CPU_PROF"] = before
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
