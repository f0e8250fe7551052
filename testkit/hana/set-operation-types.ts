/**
 * `SELECT … UNION [ALL] | INTERSECT | EXCEPT | MINUS SELECT …` where a column is a TIMESTAMP in one branch and a
 * DATE, SECONDDATE or text in another. A TIMESTAMP is stored as 100 ns ticks (longdate.ts), and DuckDB would cast
 * the DATE to a number (and fail) or print the ticks' digits as text. Each branch is described first (its result
 * types, without running it), and the select items that meet a TIMESTAMP are converted in the statement text:
 *
 * - a DATE or SECONDDATE item becomes a TIMESTAMP (`HANA_LD(…)`), as HANA converts to the wider datetime type (as in
 *   datetime-mixing.ts), so the column is a TIMESTAMP with all seven digits;
 * - a TIMESTAMP item meeting a character item becomes its text in HANA's default format `YYYY-MM-DD HH24:MI:SS.FF7`
 *   ("Datetime Data Types"; `TO_VARCHAR(…)`), as the server converts a TIMESTAMP to text everywhere else (CAST, `||`,
 *   a character column). SAP's rule for the result type of a set operation of a datetime and a character column was
 *   not found in the sources at hand: a HANA converting by type precedence would instead read the text as a
 *   TIMESTAMP (and fail on one that is none).
 *
 * A set operation is looked for at the top of the statement, in a view's query (`CREATE VIEW … AS`), in every
 * parenthesised query (a subquery, a derived table, `CREATE TABLE … AS (…)`) and in a WITH's queries; the branches
 * of a WITH's main query and of a later WITH query are described after the WITH queries before them. The innermost
 * set operations are converted first (an outer branch can only be described once they are). A branch written
 * `SELECT * FROM …` has its `*` written out as its column names when one of them is converted (so its names must be
 * distinct). Branches that cannot be described on their own (a correlated subquery's) are left as written.
 */
import type { Session } from "../engine/index.ts"
import { matching, nameOf, sig, splitTopLevel, tokenize, upper } from "./lexer.ts"
import { decodeName } from "./names.ts"
import type { Token } from "./lexer.ts"
import { translateQuery } from "./query.ts"
import type { SessionValues } from "./translated.ts"

const SET_OPERATORS = new Set(["UNION", "INTERSECT", "EXCEPT", "MINUS"])
const DATETIMES = new Set(["DATE", "TIMESTAMP_S", "TIMESTAMP"])
const isOp = (t: Token | undefined, v: string): boolean => t?.t === "op" && t.v === v

/** The branches of a top-level set operation (ORDER BY / LIMIT of the whole left out), or undefined. */
const branchesOf = (tokens: readonly Token[]): Token[][] | undefined => {
  const branches: Token[][] = [[]]
  let depth = 0
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    if (depth === 0 && SET_OPERATORS.has(upper(t))) {
      branches.push([])
      if (["ALL", "DISTINCT"].includes(upper(tokens[i + 1]))) i++
      continue
    }
    if (depth === 0 && ((upper(t) === "ORDER" && upper(tokens[i + 1]) === "BY") || upper(t) === "LIMIT")) break
    branches[branches.length - 1]!.push(t)
  }
  return branches.length > 1 ? branches : undefined
}

/** A branch's select items (`star` for a lone `*`; undefined for `t.*` or anything but a plain SELECT … FROM). */
const itemsOf = (branch: readonly Token[]): { select: Token[]; items: Token[][]; star?: Token | undefined } | undefined => {
  let b = branch
  while (isOp(b[0], "(") && isOp(b[b.length - 1], ")")) b = b.slice(1, -1)
  if (upper(b[0]) !== "SELECT") return undefined
  let depth = 0
  let from = -1
  for (let i = 1; i < b.length && from < 0; i++) {
    if (isOp(b[i], "(")) depth++
    else if (isOp(b[i], ")")) depth--
    else if (depth === 0 && upper(b[i]) === "FROM") from = i
  }
  if (from < 0) return undefined
  let first = 1
  if (["DISTINCT", "ALL"].includes(upper(b[first]))) first++
  if (upper(b[first]) === "TOP") first += 2
  const items = splitTopLevel(b.slice(first, from))
  if (items.length === 1 && items[0]!.length === 1 && isOp(items[0]![0], "*")) return { select: [...b], items, star: items[0]![0] }
  if (items.some((it) => it.length === 0 || isOp(it[it.length - 1], "*"))) return undefined
  return { select: [...b], items }
}

/** The tokens of an item without its alias (`x AS a`, `x a`). */
const valueOf = (item: readonly Token[]): readonly Token[] => {
  const n = item.length
  if (n >= 3 && upper(item[n - 2]) === "AS") return item.slice(0, n - 2)
  const last = item[n - 1]!
  const before = item[n - 2]
  if (n >= 2 && (last.t === "word" || last.t === "qident") && !isOp(before, ".") && (before?.t === "word" || before?.t === "qident" || isOp(before, ")") || before?.t === "string" || before?.t === "number")) {
    return item.slice(0, n - 1)
  }
  return item
}

/** A query's tokens (`start` … `end` exclusive) and the WITH queries its branches are described after. */
interface Scope {
  readonly start: number
  readonly end: number
  readonly depth: number
  readonly prefix: readonly Token[]
}

/** A replacement of the text `pos` … `end` of the statement. */
interface Edit {
  readonly pos: number
  readonly end: number
  readonly text: string
}

/** Where the query of a statement starts: itself, or a view's query after its AS; undefined for other statements. */
const queryStart = (tokens: readonly Token[]): number | undefined => {
  if (["SELECT", "WITH"].includes(upper(tokens[0])) || isOp(tokens[0], "(")) return 0
  let i = 1
  if (upper(tokens[0]) !== "CREATE") return undefined
  if (upper(tokens[i]) === "OR" && upper(tokens[i + 1]) === "REPLACE") i += 2
  if (upper(tokens[i]) !== "VIEW") return undefined
  let depth = 0
  for (let j = i + 1; j < tokens.length; j++) {
    if (isOp(tokens[j], "(")) depth++
    else if (isOp(tokens[j], ")")) depth--
    else if (depth === 0 && upper(tokens[j]) === "AS") return j + 1
  }
  return undefined
}

/** The queries of `tokens` (see the module comment), a WITH split into its queries and its main query. */
const scopesOf = (tokens: readonly Token[]): Scope[] => {
  const scopes: Scope[] = []
  const add = (start: number, end: number, depth: number, prefix: readonly Token[]): void => {
    if (upper(tokens[start]) !== "WITH") {
      scopes.push({ start, end, depth, prefix })
      return
    }
    // WITH name [(columns)] AS (query) [, …] main: each query described after the ones before it
    let i = start + 1
    while (i < end) {
      let open = i + 1
      if (isOp(tokens[open], "(")) open = matching(tokens, open) + 1
      if (upper(tokens[open]) !== "AS" || !isOp(tokens[open + 1], "(")) return
      const close = matching(tokens, open + 1)
      const before = tokens.slice(start, isOp(tokens[i - 1], ",") ? i - 1 : i)
      add(open + 2, close, depth + 1, before.length > 1 ? [...prefix, ...before] : prefix)
      i = close + 1
      if (!isOp(tokens[i], ",")) break
      i++
    }
    scopes.push({ start: i, end, depth, prefix: [...prefix, ...tokens.slice(start, i)] })
  }
  const top = queryStart(tokens)
  if (top !== undefined) add(top, tokens.length, 0, [])
  const inScope = new Set(scopes.map((s) => s.start))
  let depth = 0
  for (let i = 0; i < tokens.length; i++) {
    if (isOp(tokens[i], ")")) depth--
    if (!isOp(tokens[i], "(")) continue
    depth++
    if (!["SELECT", "WITH"].includes(upper(tokens[i + 1])) || inScope.has(i + 1)) continue
    const before = scopes.length
    add(i + 1, matching(tokens, i), depth, [])
    for (const s of scopes.slice(before)) inScope.add(s.start)
  }
  return scopes
}

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`

/** The edits converting the set operation of `scope` (none when it has none, or its branches cannot be described). */
const scopeEdits = async (session: Session, sql: string, tokens: readonly Token[], scope: Scope, values: SessionValues): Promise<Edit[]> => {
  const branches = branchesOf(tokens.slice(scope.start, scope.end))?.map(itemsOf)
  if (branches === undefined || branches.some((b) => b === undefined)) return []
  const described = branches as Array<{ select: Token[]; items: Token[][]; star?: Token | undefined }>
  const columns: Array<Array<{ name: string; type: string }>> = []
  for (const b of described) {
    try {
      const t = translateQuery([...scope.prefix, ...b.select], values)
      if (t.kind !== "query") return []
      const prepared = await session.prepare(t.sql)
      columns.push(prepared.columns.map((c) => ({ name: decodeName(c.name), type: c.type.toString() })))
      prepared.close()
    } catch {
      return []
    }
  }
  const width = columns[0]!.length
  if (columns.some((c, k) => c.length !== width || (described[k]!.star === undefined && described[k]!.items.length !== width))) return []
  // the conversion of each branch's column (undefined: none)
  const converts = described.map(() => new Array<string | undefined>(width).fill(undefined))
  for (let col = 0; col < width; col++) {
    const column = columns.map((c) => c[col]!.type)
    if (!column.includes("UBIGINT")) continue
    const text = column.includes("VARCHAR")
    column.forEach((type, k) => {
      converts[k]![col] = text ? (type === "UBIGINT" ? "TO_VARCHAR" : undefined) : DATETIMES.has(type) ? "HANA_LD" : undefined
    })
  }
  const edits: Edit[] = []
  for (let k = 0; k < described.length; k++) {
    const { items, star } = described[k]!
    if (!converts[k]!.some((c) => c !== undefined)) continue
    if (star !== undefined) {
      // `*` written out as its columns, the converted ones named as they were
      const names = columns[k]!.map((c) => c.name)
      if (new Set(names).size !== names.length || star.pos === undefined || star.end === undefined) return []
      const list = names.map((n, col) => (converts[k]![col] === undefined ? quoted(n) : `${converts[k]![col]}(${quoted(n)}) AS ${quoted(n)}`))
      edits.push({ pos: star.pos, end: star.end, text: list.join(", ") })
      continue
    }
    for (let col = 0; col < width; col++) {
      const convert = converts[k]![col]
      const item = items[col]!
      const value = valueOf(item)
      const [first, last] = [value[0], value[value.length - 1]]
      if (convert === undefined || first?.pos === undefined || last?.end === undefined) continue
      const written = sql.slice(first.pos, last.end)
      // the first branch names the column: as HANA names the item written there (a column by its name, else its text)
      const named = value.every((t, j) => (j % 2 === 0 ? t.t === "word" || t.t === "qident" : isOp(t, ".")))
      const alias = k > 0 || value.length < item.length ? "" : ` AS ${quoted(named ? nameOf(last)! : written)}`
      edits.push({ pos: first.pos, end: last.end, text: `${convert}(${written})${alias}` })
    }
  }
  return edits
}

/**
 * `sql` with the select items of its set operations that meet a TIMESTAMP converted (see the module comment); any
 * other statement, and one whose branches cannot be described, unchanged (running it reports its own error).
 */
export const typedSetOperations = async (session: Session, sql: string, values: SessionValues): Promise<string> => {
  if (!/\b(?:UNION|INTERSECT|EXCEPT|MINUS)\b/i.test(sql)) return sql
  // scopes already described without edits, by their text (a later round leaves them as they were)
  const settled = new Set<string>()
  let out = sql
  // one depth per round, innermost first: an outer branch is described with its inner set operations converted
  for (let round = 0; round < 16; round++) {
    let tokens: Token[]
    try {
      tokens = sig(tokenize(out))
    } catch {
      return out
    }
    let scopes: Scope[]
    try {
      scopes = scopesOf(tokens).filter((s) => tokens.slice(s.start, s.end).some((t) => SET_OPERATORS.has(upper(t))))
    } catch {
      return out
    }
    let edits: Edit[] = []
    for (const depth of [...new Set(scopes.map((s) => s.depth))].sort((a, b) => b - a)) {
      for (const scope of scopes.filter((s) => s.depth === depth)) {
        const key = `${scope.depth}:${out.slice(tokens[scope.start]?.pos ?? 0, tokens[scope.end - 1]?.end ?? 0)}`
        if (settled.has(key)) continue
        const found = await scopeEdits(session, out, tokens, scope, values)
        if (found.length === 0) settled.add(key)
        edits = edits.concat(found)
      }
      if (edits.length > 0) break
    }
    if (edits.length === 0) return out
    for (const e of edits.sort((a, b) => b.pos - a.pos)) out = out.slice(0, e.pos) + e.text + out.slice(e.end)
  }
  return out
}
