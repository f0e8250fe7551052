import { readdirSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { cyclesIn as cyclesAmong, findCycles, importsOf, modulesOf, repoRoot } from "../support/importGraph.ts"

/**
 * The test servers are cut along the protocols' seams, name the modules of the same role the same way, and have no
 * import cycles between their modules (a cycle makes module order matter and hides which module owns what). The cycle
 * check walks the relative imports (`import`, `import type` and `export … from`) of every module of a server
 * directory and lists the cycles.
 */
const root = repoRoot
const cyclesIn = (dir: string, withTypes = true) => cyclesAmong([dir], withTypes)

describe("test server structure", () => {
  it("finds the cycles of an import graph (the checker itself)", () => {
    const graph = new Map([
      ["connection", ["server-context", "wire"]],
      ["server-context", ["connection"]],
      ["wire", []]
    ])
    expect(findCycles(graph)).toEqual([["connection", "server-context", "connection"]])
    expect(findCycles(new Map([["a", ["b"]], ["b", []]]))).toEqual([])
    const server = join(root, "testkit/hana/server.ts")
    const context = join(root, "testkit/hana/server-context.ts")
    expect(importsOf(server)).toContain(context)
    // server.ts imports server-context.ts for types only
    expect(importsOf(server, false)).not.toContain(context)
  })

  it("names the modules that play the same role in both servers the same way", () => {
    const roles = [
      ...["server", "server-context", "layer", "index", "faults", "session", "sqlsession", "statement", "results"],
      ...["catalog", "auth", "errors", "lexer", "translate", "names", "types", "wire", "encode", "params"],
      ...["bulk-insert", "datetime"]
    ]
    const names = (dir: string) => new Set(readdirSync(join(root, dir)).map((f) => f.replace(/\.ts$/, "")))
    const hana = names("testkit/hana")
    const oracle = names("testkit/oracle")
    expect(roles.filter((role) => !hana.has(role))).toEqual([])
    expect(roles.filter((role) => !oracle.has(role))).toEqual([])
  })

  it("has no import cycle among the HANA server's modules (server-context ↔ connection is gone)", () => {
    expect(cyclesIn("testkit/hana")).toEqual([])
  })

  it("has no value-import cycle among the Oracle server's modules, and none at all among the engine's", () => {
    expect(cyclesIn("testkit/oracle", false)).toEqual([])
    expect(cyclesIn("testkit/engine")).toEqual([])
  })

  it("has no value-import cycle anywhere under testkit/ (servers, engine, common)", () => {
    expect(cyclesIn("testkit", false)).toEqual([])
  })

  it("has no import cycle, type-only ones included, through the Oracle translator or the type modules", () => {
    // types.ts <-> pickle.ts (OraType / NamedType) and translate.ts <-> subquery-shapes.ts were type-only cycles; the
    // shared types now live in type-shapes.ts and translate-types.ts (test/core/importCycle.test.ts checks the whole tree).
    const files = modulesOf(join(root, "testkit/oracle"))
    const edges = new Map(files.map((f) => [f, importsOf(f)]))
    const reachesItself = (start: string): boolean => {
      const seen = new Set<string>()
      const pending = [...(edges.get(start) ?? [])]
      while (pending.length > 0) {
        const f = pending.pop()!
        if (f === start) return true
        if (seen.has(f)) continue
        seen.add(f)
        pending.push(...(edges.get(f) ?? []))
      }
      return false
    }
    const owned = files.filter((f) => /\/(translate[\w-]*|types|type-shapes|pickle|subquery-shapes)\.ts$/.test(f))
    expect(owned.length).toBeGreaterThan(10)
    expect(owned.filter(reachesItself).map((f) => f.slice(root.length + 1))).toEqual([])
  })
})
