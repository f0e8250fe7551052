/**
 * PL/SQL functions declared in a query's WITH clause (12c; SQL Language Reference, "SELECT", plsql_declarations of
 * the WITH clause: `WITH FUNCTION f(...) RETURN t IS ... END; [FUNCTION | PROCEDURE ...;] [query_name AS (...), ...]
 * SELECT ...`): the declarations become a package of the session's schema that only this statement sees, hidden
 * from the dictionary, and the query calls its functions as it calls any packaged function (sql-functions.ts); the
 * package is gone when the statement has run.
 */
import { isKw, isOp, tokenize, type Tok } from "../lexer.ts"
import { oracleName } from "../translate.ts"
import type { Block } from "./ast.ts"
import type { PlsqlHost } from "./host.ts"
import { instancesOf, packagesOf, parseUnit } from "./stored-packages.ts"

let statements = 0

/** The declarations' block when significant tokens `toks` are exactly complete subprogram declarations; else undefined. */
const declarations = (source: string, toks: Array<Tok>): Block | undefined => {
  try {
    const block = parseUnit(source, [...toks, ...tokenize("END;").filter((t) => t.kind !== "ws").map((t) => ({ ...t, pos: source.length }))])
    return block.decls.length > 0 && block.decls.every((d) => d.k === "subprogram" && d.sub.body !== undefined) ? block : undefined
  } catch {
    return undefined
  }
}

/**
 * A query starting `WITH FUNCTION | PROCEDURE`, its declarations made a statement-private package: the query with
 * the calls of those functions qualified by the package, and what drops the package; undefined for any other text.
 */
export const inlineWithFunctions = (host: PlsqlHost, sql: string): { readonly sql: string; readonly release: () => void } | undefined => {
  if (!/^\s*WITH\s+(FUNCTION|PROCEDURE)\b/i.test(sql)) return undefined
  const all = tokenize(sql)
  const sig = all.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const at = (n: number) => all[sig[n] ?? -1]
  if (!isKw(at(0), "WITH") || !isKw(at(1), "FUNCTION", "PROCEDURE")) return undefined
  // the declarations end at the first `;` after which the rest is the query (or its other WITH items) and before
  // which the declarations parse as complete subprograms
  for (let n = 2; n < sig.length; n++) {
    if (!isOp(at(n), ";")) continue
    const next = at(n + 1)
    const cte = next !== undefined && (next.kind === "ident" || next.kind === "qident") && isKw(at(n + 2), "AS") && isOp(at(n + 3), "(")
    if (!isKw(next, "SELECT") && !cte) continue
    const block = declarations(sql, sig.slice(1, n + 1).map((k) => all[k]!))
    if (block === undefined) continue
    const name = `ORA$WF$${++statements}`
    const functions = new Set(block.decls.flatMap((d) => (d.k === "subprogram" ? [d.sub.name] : [])))
    // the specification: each subprogram's heading without its body
    const spec: Block = { ...block, decls: block.decls.map((d) => (d.k === "subprogram" ? { ...d, sub: (({ body: _, ...heading }) => heading)(d.sub) } : d)) }
    const key = `${host.schema}.${name}`
    packagesOf(host.db).set(key, { owner: host.schema, name, spec: { source: sql, block: spec }, body: { source: sql, block }, publicNames: functions, hidden: true })
    // the query: `WITH` kept for other items, the calls of the declared functions qualified by the package
    const query = sig.slice(n + 1).map((k, i) => {
      const t = all[k]!
      const prev = at(n + i)
      return (t.kind === "ident" || t.kind === "qident") && functions.has(oracleName(t)) && !isOp(prev, ".") ? `"${name}".${t.text}` : t.text
    })
    return {
      sql: `${cte ? "WITH " : ""}${query.join(" ")}`,
      release: () => {
        packagesOf(host.db).delete(key)
        instancesOf(host).delete(key)
      }
    }
  }
  return undefined
}
