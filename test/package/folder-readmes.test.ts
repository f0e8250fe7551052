import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"
import { repoRoot } from "../support/importGraph.ts"

// A newcomer finds a module from its folder's README: every TypeScript file under these folders is named, in
// backticks, by its file name or its path below that folder, in the README.md at the folder's top; for the two
// drivers, in that README's Layout section.
const folders = ["layers/common", "testkit/common", "testkit/engine", "testkit/hana", "testkit/oracle", "cli"] as const
const layoutSectionOnly = ["layers/hana", "layers/oracle"] as const

const tsFilesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : tsFilesUnder(path)
    return name.endsWith(".ts") ? [path] : []
  })

/** The files of `folder` its README does not name. */
const unnamedIn = (folder: string, readme: string): ReadonlyArray<string> =>
  tsFilesUnder(join(repoRoot, folder))
    .map((path) => relative(join(repoRoot, folder), path))
    .filter((path) => {
      const name = path.slice(path.lastIndexOf("/") + 1)
      return !readme.includes(`\`${name}\``) && !readme.includes(`\`${path}\``)
    })

describe("folder READMEs name their modules", () => {
  for (const folder of folders) {
    it(folder, () => {
      const readme = readFileSync(join(repoRoot, folder, "README.md"), "utf8")
      expect(tsFilesUnder(join(repoRoot, folder)).length).toBeGreaterThan(3)
      expect(unnamedIn(folder, readme)).toEqual([])
    })
  }

  for (const folder of layoutSectionOnly) {
    it(`${folder} (its Layout section)`, () => {
      const readme = readFileSync(join(repoRoot, folder, "README.md"), "utf8")
      const layout = /^## Layout\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1] ?? ""
      expect(layout.length, `${folder}/README.md has a Layout section`).toBeGreaterThan(0)
      expect(unnamedIn(folder, layout)).toEqual([])
    })
  }

  it("reports a module the README leaves out", () => {
    const readme = readFileSync(join(repoRoot, "testkit/common/README.md"), "utf8")
    expect(unnamedIn("testkit/common", readme.replace("`civil.ts`", "civil arithmetic"))).toEqual(["civil.ts"])
  })
})
