import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { declaredDefault, docsByKey, renderOptionsDoc } from "../../scripts/options-doc.ts"
import { HanaOptions } from "../../layers/hana/HanaOptions.ts"
import { OracleOptions } from "../../layers/oracle/OracleOptions.ts"
import { StandardOptions } from "../../src/StandardOptions.ts"
import { TelemetryOptions } from "../../src/Telemetry.ts"

// An option's default lives in its declaration (`default:` in the option spec) and nowhere else: drivers read it with
// `ResolvedOptions.value`, docs/options.md renders it from the spec, and no module keeps a second copy.
const root = fileURLToPath(new URL("../..", import.meta.url))

const sourceFiles = (dir: string): ReadonlyArray<string> =>
  readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path)
    return path.endsWith(".ts") ? [path] : []
  })

const optionSources = ["src/StandardOptions.ts", "src/Telemetry.ts", "layers/hana/HanaOptions.ts", "layers/oracle/OracleOptions.ts"]

describe("option defaults", () => {
  it("no driver or core module reads an option with a fallback of its own (getOr) instead of the declared default", () => {
    const offenders = [...sourceFiles("src"), ...sourceFiles("layers")]
      .filter((path) => path !== join("src", "Options.ts"))
      .filter((path) => /\.getOr\(/.test(readFileSync(join(root, path), "utf8").replace(/(Result|Option)\.getOr/g, "")))
    expect(offenders).toEqual([])
  })

  it("no option module keeps DEFAULT_* constants beside the specs", () => {
    for (const path of optionSources) {
      expect(readFileSync(join(root, path), "utf8"), path).not.toMatch(/export const DEFAULT_/)
    }
  })

  it("no module outside the option modules restates a declared default in a DEFAULT_* object", () => {
    const declared = new Set(
      [...StandardOptions, ...TelemetryOptions, ...HanaOptions, ...OracleOptions]
        .map((spec) => spec.default)
        .filter((value): value is string => typeof value === "string")
    )
    const restated = [...sourceFiles("src"), ...sourceFiles("layers")]
      .filter((path) => !optionSources.includes(path))
      .flatMap((path) =>
        [...readFileSync(join(root, path), "utf8").matchAll(/const (DEFAULT_\w+)[^=]*=\s*\{([^}]*)\}/g)].flatMap((m) =>
          [...m[2]!.matchAll(/:\s*"([^"]*)"/g)].filter((v) => declared.has(v[1]!)).map((v) => `${path} ${m[1]}: "${v[1]}"`)
        )
      )
    expect(restated).toEqual([])
  })

  it("no declaration's JSDoc states a default: the generated doc takes it from the spec", () => {
    for (const path of optionSources) {
      for (const [key, doc] of docsByKey(path)) expect(doc, key).not.toMatch(/\(default\b|\bunset by default\b/)
    }
  })

  it("the doc's default column is the declared default", () => {
    const lines = renderOptionsDoc().split("\n")
    for (const spec of [...StandardOptions, ...TelemetryOptions, ...HanaOptions, ...OracleOptions]) {
      const row = lines.find((line) => line.startsWith(`| \`${spec.key}\` |`))
      expect(row?.split(" | ")[3], spec.key).toBe(spec.default === undefined ? "—" : declaredDefault(spec.default))
    }
  })

  it("declares the defaults the drivers apply", () => {
    const byKey = new Map([...StandardOptions, ...OracleOptions].map((spec) => [spec.key, spec.default]))
    expect(byKey.get("redo.statement.fetch_array_size")).toBe(100)
    expect(byKey.get("redo.use_high_precision")).toBe(true)
    expect(byKey.get("redo.statement.read_batch_approx_bytes")).toBe(0)
    expect(byKey.get("adbc.ingest.mode")).toBe("adbc.ingest.mode.create")
    expect(byKey.get("adbc.ingest.temporary")).toBe(false)
  })
})
