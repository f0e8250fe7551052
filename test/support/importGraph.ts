/**
 * The repository's import graph read from source text: static relative imports (`import`, `import type`,
 * `export … from`) resolved to files, and the cycles in it. Used by the structure tests.
 */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

/** The repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..")

/** Every `.ts` module under `dir` (absolute), sub-folders included. */
export const modulesOf = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? modulesOf(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []
  )

/** Relative imports of one module, resolved to files; `import type` / `export type` ones only when `withTypes`. */
export const importsOf = (file: string, withTypes = true): string[] => {
  const text = readFileSync(file, "utf8")
  const out: string[] = []
  for (const m of text.matchAll(/^(import type|export type|import|export)\b[^;]*?\bfrom\s+"(\.{1,2}\/[^"]+)"/gms)) {
    if (withTypes || !m[1]!.endsWith(" type")) out.push(resolve(dirname(file), m[2]!))
  }
  return out
}

/** Every cycle of an import graph (module → modules it imports), each as its path back to its first module. */
export const findCycles = (edges: ReadonlyMap<string, readonly string[]>): string[][] => {
  const cycles: string[][] = []
  const state = new Map<string, "open" | "done">()
  const stack: string[] = []
  const visit = (f: string): void => {
    state.set(f, "open")
    stack.push(f)
    for (const g of edges.get(f) ?? []) {
      if (state.get(g) === "open") cycles.push([...stack.slice(stack.indexOf(g)), g])
      else if (state.get(g) === undefined) visit(g)
    }
    stack.pop()
    state.set(f, "done")
  }
  for (const f of edges.keys()) if (state.get(f) === undefined) visit(f)
  return cycles
}

/**
 * The import cycles among the modules under `dirs` (relative to the repository), as repository-relative paths; with
 * `withTypes` false only cycles of value imports (the ones that make module evaluation order matter).
 */
export const cyclesIn = (dirs: ReadonlyArray<string>, withTypes = true): string[][] => {
  const files = dirs.flatMap((dir) => modulesOf(join(repoRoot, dir)))
  const inside = new Set(files)
  const edges = new Map(files.map((f) => [f, importsOf(f, withTypes).filter((g) => inside.has(g))]))
  return findCycles(edges).map((c) => c.map((p) => p.slice(repoRoot.length + 1)))
}
