/**
 * The declared fractional second precisions of the TIMESTAMP [WITH [LOCAL] TIME ZONE] columns a statement reads, which
 * FF prints ("Datetime Format Elements", FF: "the precision specified for the datetime data type"), and the resolution
 * of an unqualified column name two tables of the statement declare with different precisions: as Oracle resolves it,
 * the one FROM item of the name's own query block that has the column, else of the enclosing blocks outward (a
 * correlated name); two in one block make it ambiguous, ORA-00918 (SQL Language Reference, "Using Subqueries": "Oracle
 * resolves unqualified columns in the subquery by looking in the tables named in the subquery and then in the tables
 * named in the parent statement", https://docs.oracle.com/cd/B13789_01/server.101/b10759/queries007.htm).
 */
import type { TableMeta } from "./catalog.ts"
import { oracleName } from "./expression-names.ts"
import { isKw, isOp, significant, tokenize, type Tok } from "./lexer.ts"

/** Words after a table name that are no alias of it. */
const NOT_ALIAS_WORDS = new Set([
  "WHERE", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "ON", "GROUP", "ORDER", "UNION", "MINUS", "INTERSECT", "EXCEPT", "FETCH",
  "OFFSET", "HAVING", "CONNECT", "START", "NATURAL", "FOR", "USING", "PIVOT", "UNPIVOT", "SET", "VALUES", "SELECT", "WITH", "AS", "PARTITION"
])

/** Words that end a query block's FROM clause. */
const FROM_END = ["WHERE", "GROUP", "HAVING", "ORDER", "CONNECT", "START", "UNION", "INTERSECT", "MINUS", "EXCEPT", "FETCH", "OFFSET", "MODEL", "WINDOW", "FOR"]

/** True when `t` is a token that may be an alias after a table name (not a clause word). */
const isAliasToken = (t: Tok | undefined): t is Tok => t !== undefined && (t.kind === "qident" || (t.kind === "ident" && !NOT_ALIAS_WORDS.has(t.value)))

/**
 * The declared fractional second precision of the TIMESTAMP [WITH [LOCAL] TIME ZONE] columns of the tables `sql`
 * mentions, by name and by `table.name` / `alias.name` (a key two such columns give different precisions is left out).
 */
export const timestampPrecisionsOf = (sql: string, lookupTable: (schema: string | undefined, name: string) => TableMeta | undefined): ReadonlyMap<string, number> => {
  const out = new Map<string, number>()
  const clash = new Set<string>()
  const note = (name: string, scale: number) => {
    if (out.has(name) && out.get(name) !== scale) clash.add(name)
    out.set(name, scale)
  }
  const toks = significant(tokenize(sql))
  toks.forEach((t, k) => {
    if (t.kind !== "ident" && t.kind !== "qident") return
    // a table, and the alias after it: `alias.column` (and `table.column`) keys of its own (translate-cast.ts)
    const alias = toks[k + 1]
    for (const c of lookupTable(undefined, oracleName(t))?.columns ?? []) {
      if (!["timestamp", "timestamptz", "timestampltz"].includes(c.type.kind)) continue
      note(c.name, c.type.scale)
      note(`${oracleName(t)}.${c.name}`, c.type.scale)
      if (isAliasToken(alias)) note(`${oracleName(alias)}.${c.name}`, c.type.scale)
    }
  })
  for (const name of clash) out.delete(name)
  return out
}

/** The index of the SELECT of the query block token `at` (significant tokens) stands in, or -1 outside any. */
export const blockSelect = (toks: ReadonlyArray<Tok>, at: number): number => {
  let depth = 0
  for (let k = at - 1; k >= 0; k--) {
    if (isOp(toks[k], ")")) depth++
    else if (isOp(toks[k], "(")) depth = Math.max(0, depth - 1)
    else if (depth === 0 && isKw(toks[k], "SELECT")) return k
  }
  return -1
}

/** The table names (not subqueries) of the FROM clause of the query block whose SELECT is at `select`. */
const blockTables = (toks: ReadonlyArray<Tok>, select: number): Array<string> => {
  let depth = 0
  let k = select + 1
  for (; k < toks.length; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) {
      if (depth === 0) return []
      depth--
    } else if (depth === 0 && isKw(toks[k], "FROM")) break
  }
  const out: Array<string> = []
  let item = true
  for (k++, depth = 0; k < toks.length; k++) {
    const t = toks[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) {
      if (depth === 0) break
      depth--
    } else if (depth > 0) continue
    else if (isKw(t, ...FROM_END)) break
    else if (isOp(t, ",") || isKw(t, "JOIN")) item = true
    else if (isKw(t, "ON", "USING")) item = false
    else if (item && (t.kind === "ident" || t.kind === "qident")) {
      // [schema.]table: the last name before the alias
      const dotted = isOp(toks[k + 1], ".") && (toks[k + 2]?.kind === "ident" || toks[k + 2]?.kind === "qident")
      out.push(oracleName(dotted ? toks[k + 2]! : t))
      if (dotted) k += 2
      item = false
    }
  }
  return out
}

/**
 * The precision of unqualified column `name` at token `at` of `toks` (significant tokens), from `precisions`'
 * `table.name` keys: of the one table of its query block that has it, else of the enclosing blocks outward; undefined
 * where two tables of one block have it (ORA-00918, left to the engine) or none does.
 */
export const blockPrecisionOf = (toks: ReadonlyArray<Tok>, at: number, name: string, precisions: ReadonlyMap<string, number>): number | undefined => {
  for (let select = blockSelect(toks, at); select >= 0; select = blockSelect(toks, select)) {
    const found = [...new Set(blockTables(toks, select))].map((table) => precisions.get(`${table}.${name}`)).filter((p) => p !== undefined)
    if (found.length > 1) return undefined
    if (found.length === 1) return found[0]
  }
  return undefined
}
