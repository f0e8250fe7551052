import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { OPTIONS_DOC_PATH, renderOptionsDoc } from "../../scripts/options-doc.ts"
import { HanaOptions } from "../../layers/hana/HanaOptions.ts"
import { OracleOptions } from "../../layers/oracle/OracleOptions.ts"
import { StandardOptions } from "../../src/StandardOptions.ts"

describe("docs/options.md", () => {
  it("is what `npm run docs` generates from the option declarations (run it if this fails)", () => {
    expect(readFileSync(OPTIONS_DOC_PATH, "utf8")).toBe(renderOptionsDoc())
  })

  it("documents every declared key with its levels and accepted values", () => {
    const doc = renderOptionsDoc()
    for (const spec of [...StandardOptions, ...HanaOptions, ...OracleOptions]) {
      const row = doc.split("\n").find((line) => line.startsWith(`| \`${spec.key}\` |`))
      expect(row, spec.key).toBeDefined()
      expect(row).toContain(spec.levels.join(", "))
      expect(row).toContain(spec.accepted.replace(/\|/g, "\\|"))
    }
  })

  it("takes defaults from the declarations and meanings from their JSDoc", () => {
    const row = renderOptionsDoc().split("\n").find((line) => line.startsWith("| `dba.statement.fetch_size` |"))
    expect(row).toBe("| `dba.statement.fetch_size` | database, connection, statement | integer > 0 | 50000 | a positive integer | Rows per fetch round trip. |")
  })
})
