import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { modulesOf, repoRoot } from "../support/importGraph.ts"

// A module a newcomer can read stays under about 600 lines; one that is longer says why on its first line
// (`// One module: <why>`), so the length is a decision, not an accident.
const LIMIT = 600
const sources = ["src", "layers", "testkit", "cli", "scripts", "bench", "examples"]

const overLimit = (): Array<{ readonly path: string; readonly lines: number; readonly reason: boolean }> =>
  sources.flatMap((dir) => modulesOf(`${repoRoot}/${dir}`)).flatMap((file) => {
    const text = readFileSync(file, "utf8")
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0)
    return lines > LIMIT ? [{ path: file.slice(repoRoot.length + 1), lines, reason: /^\/\/ One module: \S/.test(text) }] : []
  })

describe("module size", () => {
  it(`every source module over ${LIMIT} lines gives its reason on its first line`, () => {
    expect(overLimit().filter((f) => !f.reason).map((f) => `${f.path} (${f.lines} lines)`)).toEqual([])
  })

  it("counts the lines of the long modules it lets through (the check itself)", () => {
    const encoder = overLimit().find((f) => f.path === "layers/hana/IngestEncoder.ts")
    expect(encoder?.reason).toBe(true)
    expect(encoder!.lines).toBeGreaterThan(LIMIT)
  })
})
