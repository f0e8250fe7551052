import { existsSync, readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

const root = new URL("../../", import.meta.url)
const manifest = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
  readonly exports: Record<string, { readonly types: string; readonly default: string } | string | null>
  readonly files: ReadonlyArray<string>
}

/** The dist/ paths the build (tsconfig.build.json, rootDir ".") emits for a source module. */
const built = (source: string) => ({
  types: `./dist/${source.replace(/\.ts$/, ".d.ts")}`,
  default: `./dist/${source.replace(/\.ts$/, ".js")}`
})

const entryPoints = (folder: string): ReadonlyArray<string> =>
  readdirSync(new URL(folder, root)).filter((name) => existsSync(new URL(`${folder}/${name}/index.ts`, root)))

describe("package.json exports", () => {
  it("maps effect-adbc to the core barrel", () => {
    expect(manifest.exports["."]).toEqual(built("src/index.ts"))
  })

  it("has one entry per driver Layer folder", () => {
    const drivers = entryPoints("layers").filter((name) => name !== "shared")
    expect(drivers).toContain("hana")
    for (const driver of drivers) expect(manifest.exports[`./${driver}`], driver).toEqual(built(`layers/${driver}/index.ts`))
  })

  it("has one entry per test server", () => {
    for (const server of ["hana", "oracle"]) {
      expect(manifest.exports[`./testkit/${server}`], server).toEqual(built(`testkit/${server}/index.ts`))
    }
  })

  it("closes internal modules and ships only the build and the docs", () => {
    expect(manifest.exports["./*/internal/*"]).toBeNull()
    expect(manifest.files).toContain("dist")
    expect(manifest.files.some((f) => f === "src" || f.startsWith("test/") || f.startsWith("bench"))).toBe(false)
  })
})
