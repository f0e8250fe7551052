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
 * Only a top-level set operation of plain SELECTs with their items written out is looked at (no `*`, no WITH).
 */
import type { Session } from "../engine/index.ts"
import { nameOf, sig, splitTopLevel, tokenize, upper } from "./lexer.ts"
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

/** A branch's select items (undefined for `*` or anything but a plain SELECT … FROM). */
const itemsOf = (branch: readonly Token[]): { select: Token[]; items: Token[][] } | undefined => {
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

/**
 * `sql` with the select items of a set operation that meet a TIMESTAMP converted (see the module comment); any
 * other statement, and one whose branches cannot be described, unchanged (running it reports its own error).
 */
export const typedSetOperations = async (session: Session, sql: string, values: SessionValues): Promise<string> => {
  if (!/\b(?:UNION|INTERSECT|EXCEPT|MINUS)\b/i.test(sql)) return sql
  let tokens: Token[]
  try {
    tokens = sig(tokenize(sql))
  } catch {
    return sql
  }
  if (upper(tokens[0]) !== "SELECT" && !isOp(tokens[0], "(")) return sql
  const branches = branchesOf(tokens)?.map(itemsOf)
  if (branches === undefined || branches.some((b) => b === undefined)) return sql
  const described = branches as Array<{ select: Token[]; items: Token[][] }>
  const width = described[0]!.items.length
  if (described.some((b) => b.items.length !== width)) return sql
  const types: string[][] = []
  for (const b of described) {
    try {
      const t = translateQuery(b.select, values)
      if (t.kind !== "query") return sql
      const prepared = await session.prepare(t.sql)
      types.push(prepared.columns.map((c) => c.type.toString()))
      prepared.close()
    } catch {
      return sql
    }
  }
  const edits: Array<{ pos: number; end: number; text: string }> = []
  for (let col = 0; col < width; col++) {
    const column = types.map((t) => t[col] ?? "")
    if (!column.includes("UBIGINT")) continue
    const text = column.includes("VARCHAR")
    for (let k = 0; k < described.length; k++) {
      const type = column[k]!
      const convert = text ? (type === "UBIGINT" ? "TO_VARCHAR" : undefined) : DATETIMES.has(type) ? "HANA_LD" : undefined
      const item = described[k]!.items[col]!
      const value = valueOf(item)
      const [first, last] = [value[0], value[value.length - 1]]
      if (convert === undefined || first?.pos === undefined || last?.end === undefined) continue
      const written = sql.slice(first.pos, last.end)
      // the first branch names the column: as HANA names the item written there (a column by its name, else its text)
      const named = value.every((t, j) => (j % 2 === 0 ? t.t === "word" || t.t === "qident" : isOp(t, ".")))
      const alias = k > 0 || value.length < item.length ? "" : ` AS "${(named ? nameOf(last)! : written).replace(/"/g, '""')}"`
      edits.push({ pos: first.pos, end: last.end, text: `${convert}(${written})${alias}` })
    }
  }
  let out = sql
  for (const e of edits.sort((a, b) => b.pos - a.pos)) out = out.slice(0, e.pos) + e.text + out.slice(e.end)
  return out
}
