import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { CHILD_V8_FLAGS, startInChildProcess } from "../../testkit/common/child-process.ts"

describe("startInChildProcess", () => {
  it("starts the child server with V8's garbage collection on its main thread only (--single-threaded-gc)", async () => {
    expect(CHILD_V8_FLAGS).toContain("--single-threaded-gc")
    const server = await startInChildProcess("oracle")
    try {
      // the child's command line (Linux /proc): NUL-separated arguments
      const args = readFileSync(`/proc/${server.pid}/cmdline`, "utf8").split("\0")
      expect(args).toContain("--single-threaded-gc")
      expect(server.uri).toMatch(/^oracle:\/\//)
    } finally {
      await server.close()
    }
  }, 60_000)

  it("starts the child server with a 128 MB initial old generation, so loading the testkit does not leave it collecting its whole heap every few MB", async () => {
    expect(CHILD_V8_FLAGS).toContain("--initial-old-space-size=128")
    const server = await startInChildProcess("hana")
    try {
      const args = readFileSync(`/proc/${server.pid}/cmdline`, "utf8").split("\0")
      expect(args).toContain("--initial-old-space-size=128")
      expect(server.uri).toMatch(/^hdb:\/\//)
    } finally {
      await server.close()
    }
  }, 60_000)
})
