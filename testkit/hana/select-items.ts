/**
 * The select list of a query as HANA reads it: the names HANA gives unaliased expression columns, and the table
 * column (or star) behind each select item, with the top-level FROM items and which of them are the optional side of
 * an outer join (result column names and nullability, results.ts / select-columns.ts).
 */
import { matching, splitTopLevel, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { encodeName } from "./names.ts"

/** The token range [start, end) of the top-level select list, or undefined when there is none. */
const selectList = (tokens: readonly Token[]): { start: number; end: number } | undefined => {
  let depth = 0
  let start = -1
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.t === "op" && t.v === "(") depth++
    else if (t.t === "op" && t.v === ")") depth--
    else if (depth === 0 && upper(t) === "SELECT") {
      start = i + 1
      break
    }
  }
  if (start < 0) return undefined
  if (upper(tokens[start]) === "DISTINCT" || upper(tokens[start]) === "ALL") start++
  let end = tokens.length
  depth = 0
  for (let i = start; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.t === "op" && t.v === "(") depth++
    else if (t.t === "op" && t.v === ")") depth--
    else if (depth === 0 && ["FROM", "UNION", "INTERSECT", "EXCEPT", "MINUS", "ORDER", "LIMIT", "INTO"].includes(upper(t))) {
      end = i
      break
    }
  }
  return { start, end }
}

/**
 * Names HANA gives unaliased expression columns: the select item's text with unquoted words in upper case
 * (e.g. `COUNT(*)`). Undefined entries leave DuckDB's name (plain columns, aliases); undefined overall when a `*`
 * makes positions unknowable.
 */
export const selectItemNames = (tokens: readonly Token[], sql: string): Array<string | undefined> | undefined => {
  const list = selectList(tokens)
  if (list === undefined) return undefined
  const { start, end } = list
  const names: Array<string | undefined> = []
  for (const item of splitTopLevel(tokens.slice(start, end))) {
    const last = item[item.length - 1]
    if (item.length === 0 || last === undefined) return undefined
    if (last.t === "op" && last.v === "*") return undefined
    const plainColumn = item.every((t, k) => (k % 2 === 0 ? t.t === "word" || t.t === "qident" : t.t === "op" && t.v === "."))
    const aliased = item.length >= 2 && (last.t === "word" || last.t === "qident") && !(item[item.length - 2]!.t === "op")
    // `seq.NEXTVAL` / `seq.CURRVAL` (DuckDB's nextval('"SEQ"')) is named by its last part, as a qualified column is
    if (plainColumn && item.length >= 3 && ["NEXTVAL", "CURRVAL"].includes(upper(last))) {
      names.push(upper(last))
      continue
    }
    if (plainColumn || aliased || item[0]!.pos === undefined || last.end === undefined) {
      names.push(undefined)
      continue
    }
    const text = sql.slice(item[0]!.pos, last.end)
    names.push(text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|[\p{L}_#$][\p{L}\p{N}_#$]*/gu, (m) => (m.startsWith("'") || m.startsWith('"') ? m : m.toUpperCase())))
  }
  return names
}

/**
 * The function each select item is a whole call of (its alias aside), upper-cased (`CHAR(65) AS c` → CHAR); undefined
 * entries are anything else, undefined overall when a `*` makes positions unknowable.
 */
export const selectItemCalls = (tokens: readonly Token[]): Array<string | undefined> | undefined => {
  const list = selectList(tokens)
  if (list === undefined) return undefined
  const calls: Array<string | undefined> = []
  for (const item of splitTopLevel(tokens.slice(list.start, list.end))) {
    const last = item[item.length - 1]
    if (last === undefined || (last.t === "op" && last.v === "*")) return undefined
    const aliased = item.length >= 2 && (last.t === "word" || last.t === "qident") && !(item[item.length - 2]!.t === "op")
    const core = aliased ? item.slice(0, upper(item[item.length - 2]) === "AS" ? -2 : -1) : item
    const call = core.length >= 3 && core[0]!.t === "word" && core[1]!.t === "op" && core[1]!.v === "(" && matching(core, 1) === core.length - 1
    calls.push(call ? upper(core[0]) : undefined)
  }
  return calls
}

/** The table column a select item reads (through its alias and table qualifier), as DuckDB names them. */
export interface ColumnSource {
  readonly qualifier?: string
  readonly column: string
  /** The item reads the optional side of an outer join (its values may be NULL whatever the column declares). */
  readonly optional: boolean
}

/** A select item `*` (all FROM items) or `q.*` (the FROM item known as `q`). */
export interface StarSource {
  readonly star: string | undefined
}

/** What a select item reads: a table column, every column of a star, or (undefined) an expression. */
export type SelectItemSource = ColumnSource | StarSource | undefined

/** A top-level FROM item that is a table: the name it is known by (alias, else table name), its table and schema. */
export interface FromItem {
  readonly name: string
  readonly table: string
  readonly schema: string | undefined
  /** On the optional side of an outer join (its columns may be NULL whatever they declare). */
  readonly optional?: boolean
}

const nameOf = (t: Token): string => encodeName(t.t === "qident" ? t.v : t.v.toUpperCase())

/**
 * The table column behind each select item that is a (qualified) column reference, aliased or not: HANA resolves
 * such items to the column (its result metadata names the source table and column beside the display name, as
 * node-hdb's ResultSetMetadata fixtures show: https://github.com/SAP/node-hdb/blob/master/test/fixtures/resultSetMetadata.js),
 * so a NOT NULL column stays mandatory. Undefined entries are expressions; a `*` or `q.*` item is a StarSource
 * (results.ts expands it over the FROM items' columns).
 */
export const selectItemSources = (tokens: readonly Token[]): { sources: SelectItemSource[]; from: Array<FromItem | undefined> } | undefined => {
  const list = selectList(tokens)
  if (list === undefined) return undefined
  const optional = outerJoinSides(tokens, list.end)
  const out: SelectItemSource[] = []
  for (const item of splitTopLevel(tokens.slice(list.start, list.end))) {
    const last = item[item.length - 1]
    if (last === undefined) return undefined
    if (last.t === "op" && last.v === "*") {
      if (item.length === 1) out.push({ star: undefined })
      else if (item.length === 3 && item[1]!.t === "op" && item[1]!.v === ".") out.push({ star: nameOf(item[0]!) })
      else return undefined
      continue
    }
    const isName = (t: Token | undefined) => t !== undefined && (t.t === "word" || t.t === "qident")
    const aliased = item.length >= 2 && isName(last) && !(item[item.length - 2]!.t === "op")
    const core = aliased ? item.slice(0, upper(item[item.length - 2]) === "AS" ? -2 : -1) : item
    const chain = core.length % 2 === 1 && core.every((t, k) => (k % 2 === 0 ? isName(t) : t.t === "op" && t.v === "."))
    if (!chain || core.length > 5) {
      out.push(undefined)
      continue
    }
    const qualifier = core.length >= 3 ? nameOf(core[core.length - 3]!) : undefined
    // An unqualified column of an outer join may come from its optional side: nullable, as it may be.
    const opt = optional.all || (qualifier === undefined ? optional.names.size > 0 : optional.names.has(qualifier))
    out.push(qualifier === undefined ? { column: nameOf(core[core.length - 1]!), optional: opt } : { qualifier, column: nameOf(core[core.length - 1]!), optional: opt })
  }
  return { sources: out, from: optional.items }
}

const CLAUSE_ENDS = new Set(["WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "UNION", "EXCEPT", "INTERSECT", "MINUS", "FOR", "WINDOW", "QUALIFY"])
const NOT_ALIASES = new Set(["ON", "USING", "WHERE", "JOIN", "LEFT", "RIGHT", "INNER", "FULL", "CROSS", "OUTER", "NATURAL", "GROUP", "ORDER", "LIMIT", "HAVING", "UNION"])

/** The name (alias, else table name) a FROM item at tokens[k] is known by; undefined for an unaliased `( … )`. */
const fromItemName = (tokens: readonly Token[], k: number): string | undefined => fromItemAt(tokens, k).name

/** The FROM item at tokens[k]: its name (as fromItemName) and, for a table (`[schema.]table`), table and schema. */
const fromItemAt = (tokens: readonly Token[], k: number): { name: string | undefined; item: FromItem | undefined } => {
  let name: Token | undefined
  const parts: Token[] = []
  if (tokens[k]?.t === "op" && tokens[k]!.v === "(") {
    k = matching(tokens, k)
  } else {
    while (tokens[k] !== undefined && (tokens[k]!.t === "word" || tokens[k]!.t === "qident")) {
      name = tokens[k]
      parts.push(name!)
      if (tokens[k + 1]?.t === "op" && tokens[k + 1]!.v === ".") k += 2
      else break
    }
  }
  const next = tokens[k + 1]
  const alias =
    upper(next) === "AS" ? tokens[k + 2] : next !== undefined && (next.t === "qident" || (next.t === "word" && !NOT_ALIASES.has(upper(next)) && !CLAUSE_ENDS.has(upper(next)))) ? next : undefined
  const known = alias ?? name
  const table = parts.length === 1 || parts.length === 2 ? nameOf(parts[parts.length - 1]!) : undefined
  const item = known === undefined || table === undefined || tokens[k + 1]?.v === "(" ? undefined : { name: nameOf(known), table, schema: parts.length === 2 ? nameOf(parts[0]!) : undefined }
  return { name: known === undefined ? undefined : nameOf(known), item }
}

/**
 * The tables (by alias or name) on the optional side of the top-level outer joins after the select list: the right
 * side of LEFT JOIN, every table before a RIGHT JOIN; a FULL join (or a RIGHT JOIN after an unnamed group) makes
 * every table optional (`all`).
 */
const outerJoinSides = (tokens: readonly Token[], from: number): { names: Set<string>; all: boolean; items: Array<FromItem | undefined> } => {
  const names = new Set<string>()
  const items: Array<FromItem | undefined> = []
  const before: Array<string | undefined> = []
  let all = false
  let depth = 0
  let inFrom = false
  for (let i = from; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.t === "op" && t.v === "(") depth++
    else if (t.t === "op" && t.v === ")") depth--
    if (depth !== 0) continue
    const w = upper(t)
    if (CLAUSE_ENDS.has(w)) break
    if (w === "FROM" || (inFrom && t.t === "op" && t.v === ",")) {
      inFrom = true
      before.push(fromItemName(tokens, i + 1))
      items.push(fromItemAt(tokens, i + 1).item)
      continue
    }
    if (w !== "JOIN") continue
    let k = i - 1
    if (upper(tokens[k]) === "OUTER") k--
    const kind = upper(tokens[k])
    const item = fromItemName(tokens, i + 1)
    if (kind === "FULL") all = true
    if (kind === "LEFT" && item !== undefined) names.add(item)
    if (kind === "RIGHT") {
      if (before.some((n) => n === undefined)) all = true
      for (const n of before) if (n !== undefined) names.add(n)
    }
    before.push(item)
    items.push(fromItemAt(tokens, i + 1).item)
  }
  return { names, all, items: items.map((item) => (item !== undefined && (all || names.has(item.name)) ? { ...item, optional: true } : item)) }
}
