import { describe, expect, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

// docs/reliability.md names, for each promise, the tests that prove it: list items with a test file in backticks,
// followed by the quoted names of tests in that file. Every file must exist and every name must be a test's name.
const root = fileURLToPath(new URL("../../", import.meta.url))
const doc = readFileSync(`${root}docs/reliability.md`, "utf8")

/** The doc's list items, each joined onto one line. */
const listItems = (markdown: string): Array<string> => {
  const items: Array<string> = []
  for (const line of markdown.split("\n")) {
    if (line.startsWith("- ")) items.push(line.slice(2))
    else if (line.startsWith("  ") && items.length > 0 && line.trim() !== "") items[items.length - 1] += ` ${line.trim()}`
  }
  return items
}

/** Test references of list items: each quoted name belongs to the test file named last before it. */
const references = (items: ReadonlyArray<string>) => {
  const found: Array<{ readonly file: string; readonly names: Array<string> }> = []
  for (const item of items) {
    let current: { readonly file: string; readonly names: Array<string> } | undefined
    for (const match of item.matchAll(/`(test\/[^`]+\.ts)`|"([^"]+)"/g)) {
      if (match[1] !== undefined) {
        current = { file: match[1], names: [] }
        found.push(current)
      } else if (current !== undefined) current.names.push(match[2]!)
    }
  }
  return found
}

const squash = (text: string) => text.replace(/\s+/g, " ")

describe("docs/reliability.md", () => {
  const refs = references(listItems(doc))

  it("names test files for every promise, with test names", () => {
    expect(refs.length).toBeGreaterThan(15)
    expect(refs.reduce((n, r) => n + r.names.length, 0)).toBeGreaterThan(50)
  })

  it("names only test files that exist and test names that are in them", () => {
    const missing: Array<string> = []
    for (const { file, names } of refs) {
      if (!existsSync(`${root}${file}`)) {
        missing.push(`${file}: no such file`)
        continue
      }
      // a test name appears in its file as the first argument of it / it.effect / it.live (on one line)
      const source = squash(readFileSync(`${root}${file}`, "utf8"))
      for (const name of names) {
        if (!source.includes(squash(name))) missing.push(`${file}: no test named "${name}"`)
      }
    }
    expect(missing).toEqual([])
  })

  it("the checker finds a name that is not there", () => {
    const fake = references(listItems("- `test/core/reliabilityDoc.test.ts`: \"no test is called this\""))
    expect(fake).toEqual([{ file: "test/core/reliabilityDoc.test.ts", names: ["no test is called this"] }])
    const source = readFileSync(`${root}test/core/ingest.test.ts`, "utf8")
    expect(source.includes("no test is called this")).toBe(false)
  })
})
