import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { importsOf } from "../support/importGraph.ts"

// The structure tests (importCycle, servers-structure) trust this reader: a missed value import hides a cycle, a value
// import read as type-only hides it from the value-cycle checks.

/** The relative imports `source` makes, read from a module file in a fresh folder: value ones and all of them. */
const read = (source: string): { values: string[]; all: string[] } => {
  const dir = mkdtempSync(join(tmpdir(), "import-graph-"))
  try {
    const file = join(dir, "module.ts")
    writeFileSync(file, source)
    const names = (files: string[]) => files.map((f) => f.slice(dir.length + 1))
    return { values: names(importsOf(file, false)), all: names(importsOf(file)) }
  } finally {
    rmSync(dir, { recursive: true })
  }
}

describe("the import reader", () => {
  it("reads a multi-line import with a type specifier as a value import", () => {
    expect(read(`import {\n  type A,\n  b\n} from "./mixed.ts"\n`)).toEqual({ values: ["mixed.ts"], all: ["mixed.ts"] })
  })

  it("keeps an import with only type specifiers as a value import (verbatimModuleSyntax loads the module)", () => {
    expect(read(`import { type A } from "./a.ts"\n`).values).toEqual(["a.ts"])
  })

  it("reads `import type` as type-only, also when a package import without semicolons comes before it", () => {
    const source = `import type { Effect } from "effect"\nimport { b } from "./b.ts"\nimport type {\n  C\n} from "./c.ts"\n`
    expect(read(source)).toEqual({ values: ["b.ts"], all: ["b.ts", "c.ts"] })
  })

  it("counts side-effect imports as value imports", () => {
    expect(read(`import "./side.ts"\nexport const x = 1\n`).values).toEqual(["side.ts"])
  })

  it("counts dynamic import() with a literal specifier as a value import", () => {
    const source = `export const load = async () => {\n  const m = await import("./dyn.ts")\n  return m\n}\n`
    expect(read(source).values).toEqual(["dyn.ts"])
  })

  it("reads `export … from` as a value import and `export type … from` as type-only", () => {
    const source = `export { a } from "./a.ts"\nexport * from "./star.ts"\nexport type { T } from "./t.ts"\n`
    expect(read(source)).toEqual({ values: ["a.ts", "star.ts"], all: ["a.ts", "star.ts", "t.ts"] })
  })

  it("reads `import(\"…\")` types as type-only and ignores imports named in strings and comments", () => {
    const source = `// import { x } from "./comment.ts"\nconst s = 'import "./string.ts"'\nexport type M = typeof import("./m.ts")\n`
    expect(read(source)).toEqual({ values: [], all: ["m.ts"] })
  })
})
