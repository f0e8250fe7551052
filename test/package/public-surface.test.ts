import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import * as Api from "../../src/index.ts"

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8")

// Functions that take the core's internal types (the connection's session, a driver cursor) live under src/internal,
// which the package's exports map closes ("./*/internal/*": null): the public modules do not offer them.
describe("the public surface", () => {
  it("offers no constructor that takes internal types", () => {
    expect(Object.keys(Api.Statement)).not.toContain("make")
    expect(Object.keys(Api.Reader)).not.toContain("fromCursor")
    expect(Object.keys(Api.Reader)).not.toContain("fromRows")
    expect(Object.keys(Api.Reader)).not.toContain("withOutColumns")
    expect(Object.keys(Api.Reader)).not.toContain("emptyCursor")
    expect(Object.keys(Api.Ingest)).not.toContain("runIngest")
  })

  it("keeps what users call", () => {
    expect(Object.keys(Api.Reader)).toEqual(expect.arrayContaining(["Reader", "collect", "toTable"]))
    expect(Object.keys(Api.Ingest)).toEqual(expect.arrayContaining(["Ingest", "fromTable", "ingestOptionEntries"]))
    expect(Object.keys(Api.Statement)).toContain("Statement")
  })

  it("the README's entry-point list names every module and type the package root exports", () => {
    const index = read("src/index.ts")
    const names = [
      ...[...index.matchAll(/export \* as (\w+)/g)].map((m) => m[1]!),
      ...[...index.matchAll(/export type \{([^}]*)\}/g)].flatMap((m) => m[1]!.split(",").map((name) => name.trim()))
    ]
    const readme = read("README.md")
    const entryPoints = readme.slice(readme.indexOf("Entry points:"), readme.indexOf("Internal modules are not exported"))
    expect(names.length).toBeGreaterThan(10)
    expect(names.filter((name) => !entryPoints.includes(`\`${name}\``))).toEqual([])
  })
})
