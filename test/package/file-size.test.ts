import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { modulesOf, repoRoot } from "../support/importGraph.ts"

// A module a newcomer can read stays under about 600 lines; one that is longer says why on its first line
// (`// One module: <why>`), so the length is a decision, not an accident.
const LIMIT = 600
const sources = ["src", "layers", "testkit", "cli", "scripts", "bench", "examples"]

interface Measured {
  readonly path: string
  readonly lines: number
  readonly reason: boolean
}

/** A module's length and whether it gives its reason, when it is over the limit. */
const measure = (path: string, text: string): Measured | undefined => {
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0)
  return lines > LIMIT ? { path, lines, reason: /^\/\/ One module: \S/.test(text) } : undefined
}

const overLimit = (): ReadonlyArray<Measured> =>
  sources.flatMap((dir) => modulesOf(`${repoRoot}/${dir}`)).flatMap((file) => {
    const measured = measure(file.slice(repoRoot.length + 1), readFileSync(file, "utf8"))
    return measured === undefined ? [] : [measured]
  })

const linesOf = (n: number, first = "const a = 1"): string => [first, ...Array.from({ length: n - 1 }, (_, i) => `const x${i} = ${i}`)].join("\n") + "\n"

describe("module size", () => {
  it(`every source module over ${LIMIT} lines gives its reason on its first line`, () => {
    expect(overLimit().filter((f) => !f.reason).map((f) => `${f.path} (${f.lines} lines)`)).toEqual([])
  })

  it("counts lines and reads the reason line (the check itself)", () => {
    expect(measure("a.ts", linesOf(LIMIT))).toBeUndefined()
    expect(measure("a.ts", linesOf(LIMIT + 1))).toEqual({ path: "a.ts", lines: LIMIT + 1, reason: false })
    expect(measure("a.ts", linesOf(LIMIT + 1, "// One module: the hot loop needs it"))?.reason).toBe(true)
    expect(measure("a.ts", linesOf(LIMIT + 1, "// One module:"))?.reason).toBe(false)
  })
})
