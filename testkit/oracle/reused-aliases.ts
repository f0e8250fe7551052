/**
 * One alias given to two tables of a FROM clause (`SELECT * FROM t a, t a`), which Oracle runs and the engine refuses
 * as an ambiguous table reference: the later table is renamed (`"A#2"`), and a column `a.c` qualified by the alias
 * names the table that has a column c, ORA-00918 "column ambiguously defined" when both have it (Oracle resolves a
 * reused alias's columns by name and raises ORA-00918 only for a column both tables have: Jonathan Lewis, "Using bug",
 * Oracle Scratchpad, 2020; **unconfirmed** in Oracle's documentation). Only FROM items that are tables or views by
 * name are seen (a FROM item `(subquery) a` is not); a statement without a reused alias is left as it is.
 */
import { OraError } from "./errors.ts"
import { isKw, isName, isOp, matchParen, type Tok } from "./lexer.ts"
import { oracleName } from "./expression-names.ts"
import type { TableLookup } from "./query-blocks.ts"


/** Words that end a FROM item's table name: no alias. */
const NOT_ALIAS = new Set(["WHERE", "GROUP", "ORDER", "HAVING", "CONNECT", "START", "UNION", "INTERSECT", "MINUS", "EXCEPT", "FETCH", "OFFSET", "FOR", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "ON", "USING", "OUTER", "SAMPLE", "PARTITION", "WINDOW", "MODEL", "PIVOT", "UNPIVOT", "AS", "CROSS"])

interface Item {
  readonly aliasAt: number
  readonly alias: string
  /** The table's column names, undefined when the name is no table or view (read only for a reused alias). */
  readonly columns: () => ReadonlySet<string> | undefined
}

/** `toks` (a statement's tokens, whitespace included) with a reused FROM alias told apart, or as they are. */
export const rewriteReusedAliases = (toks: ReadonlyArray<Tok>, lookup: TableLookup): ReadonlyArray<Tok> => {
  const at = toks.flatMap((t, k) => (t.kind === "ws" ? [] : [k]))
  const sig = at.map((k) => toks[k]!)
  const renamed = new Map<number, string>()
  const qualified = new Map<number, string>()
  for (let f = 0; f < sig.length; f++) {
    if (!isKw(sig[f], "FROM")) continue
    // the block's FROM items: after FROM, a comma or JOIN, at the FROM's depth, up to the block's end
    const items: Array<Item> = []
    let depth = 0
    let end = sig.length
    for (let k = f + 1; k < sig.length; k++) {
      const t = sig[k]!
      if (isOp(t, "(")) {
        k = matchParen(sig, k)
        if (k < 0) return toks
        continue
      }
      if (isOp(t, ")")) {
        end = k
        break
      }
      if (depth === 0 && isKw(t, "WHERE", "GROUP", "ORDER", "HAVING", "CONNECT", "START", "UNION", "INTERSECT", "MINUS", "EXCEPT", "FETCH", "OFFSET", "FOR")) {
        end = k
        break
      }
      const starts = k === f + 1 || isOp(sig[k - 1], ",") || isKw(sig[k - 1], "JOIN")
      if (!starts || !isName(t)) continue
      const owner = isOp(sig[k + 1], ".") && isName(sig[k + 2]) ? oracleName(t) : undefined
      const nameAt = owner === undefined ? k : k + 2
      const aliasAt = isKw(sig[nameAt + 1], "AS") ? nameAt + 2 : nameAt + 1
      const table = oracleName(sig[nameAt]!)
      const hasAlias = isName(sig[aliasAt]) && !(sig[aliasAt]!.kind === "ident" && NOT_ALIAS.has(sig[aliasAt]!.value))
      const columns = () => {
        const meta = lookup(owner, table)
        return meta === undefined ? undefined : new Set(meta.columns.map((c) => c.name))
      }
      items.push({ aliasAt: hasAlias ? aliasAt : nameAt, alias: oracleName(sig[hasAlias ? aliasAt : nameAt]!), columns })
    }
    const byAlias = new Map<string, Array<Item>>()
    for (const item of items) byAlias.set(item.alias, [...(byAlias.get(item.alias) ?? []), item])
    for (const [alias, same] of byAlias) {
      if (same.length < 2) continue
      const columns = same.map((item) => item.columns())
      if (columns.some((c) => c === undefined)) continue
      same.slice(1).forEach((item, n) => renamed.set(item.aliasAt, `"${alias}#${n + 2}"`))
      // the block's `alias.column` references (from its SELECT, before FROM, to its end)
      let start = f
      for (let depthBack = 0; start > 0; start--) {
        if (isOp(sig[start - 1], ")")) depthBack++
        else if (isOp(sig[start - 1], "(")) {
          if (depthBack === 0) break
          depthBack--
        }
      }
      for (let k = start; k < end; k++) {
        if (!isName(sig[k]) || !isOp(sig[k + 1], ".") || !isName(sig[k + 2]) || oracleName(sig[k]!) !== alias || isOp(sig[k - 1], ".")) continue
        if (same.some((item) => item.aliasAt === k)) continue
        const column = oracleName(sig[k + 2]!)
        const owners = columns.flatMap((c, n) => (c!.has(column) ? [n] : []))
        if (owners.length > 1) throw new OraError(918, "column ambiguously defined")
        if (owners[0] !== undefined && owners[0] > 0) qualified.set(k, `"${alias}#${owners[0] + 1}"`)
      }
    }
  }
  if (renamed.size === 0) return toks
  const out = [...toks]
  for (const [s, name] of [...renamed, ...qualified]) {
    const t = toks[at[s]!]!
    out[at[s]!] = { ...t, kind: "qident", text: name, value: name.slice(1, -1) }
  }
  return out
}
