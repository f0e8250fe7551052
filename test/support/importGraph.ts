/**
 * The repository's import graph read from source text: relative imports (static, side-effect, dynamic `import()`,
 * `export … from`, type-only ones) resolved to files, and the cycles in it. Used by the structure tests.
 */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"

/** The repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..")

/** Every `.ts` module under `dir` (absolute), sub-folders included. */
export const modulesOf = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? modulesOf(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []
  )

/** One module specifier a source names, and whether the import is erased when the module is compiled. */
export interface ImportRef {
  readonly specifier: string
  readonly typeOnly: boolean
}

/**
 * Every module a TypeScript source imports, read with the TypeScript parser: import and `export … from` declarations,
 * `import()` calls with a literal specifier, and `import("…")` types. Only `import type` / `export type` declarations
 * and `import("…")` types are type-only: under `verbatimModuleSyntax` (tsconfig.json) a declaration whose specifiers
 * are all `type` ones, `import { type A } from "./a.ts"`, still loads its module (it compiles to `import {} from`,
 * TypeScript handbook, "verbatimModuleSyntax").
 */
export const importsIn = (source: string): ImportRef[] => {
  const file = ts.createSourceFile("module.ts", source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
  const out: ImportRef[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({ specifier: node.moduleSpecifier.text, typeOnly: node.importClause?.isTypeOnly === true })
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly })
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments
      if (arg && ts.isStringLiteralLike(arg)) out.push({ specifier: arg.text, typeOnly: false })
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal
      if (ts.isStringLiteral(literal)) out.push({ specifier: literal.text, typeOnly: true })
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return out
}

/** The imports read per module file, so that the structure tests parse each module once per run. */
const importsRead = new Map<string, ImportRef[]>()

/** Relative imports of one module, resolved to files; type-only ones only when `withTypes`. */
export const importsOf = (file: string, withTypes = true): string[] => {
  let refs = importsRead.get(file)
  if (refs === undefined) importsRead.set(file, refs = importsIn(readFileSync(file, "utf8")))
  return refs
    .filter((ref) => /^\.{1,2}\//.test(ref.specifier) && (withTypes || !ref.typeOnly))
    .map((ref) => resolve(dirname(file), ref.specifier))
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
