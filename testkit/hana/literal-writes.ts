/**
 * Literals in SQL text written into DECIMAL(p,s) and SECONDDATE columns are cut as HANA cuts them, before DuckDB's
 * cast would round them: HANA keeps s fraction digits of a DECIMAL(p,s) (SAP HANA SQL Reference, "Numeric Data
 * Types": a DECIMAL(5,4) column stores 3.14, 3.1415 and 3.141592 as 3.1400, 3.1415, 3.1415) and whole seconds of a
 * SECONDDATE ("Datetime Data Types": year, month, day, hour, minute and second), the fraction dropped as for a
 * SECONDDATE parameter (binding.ts). Covers a literal standing alone as a value of INSERT/UPSERT/REPLACE … VALUES and
 * of UPDATE … SET col = literal, and as a select item of INSERT … SELECT [UNION ALL SELECT …]; an expression is still computed and cast by DuckDB.
 */
import type { Session } from "../engine/index.ts"
import { identOf, matching, sig, splitTopLevel, tokenize, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { declaredColumnTypes } from "./catalog.ts"
import { encodeName } from "./names.ts"
import { parseTypeText } from "./types.ts"
import type { HanaType } from "./types.ts"

/** A DECIMAL(p,s) number literal cut to s fraction digits (an exponent form is left as written). */
export const truncateDecimalLiteral = (text: string, scale: number): string => {
  const m = /^(\d*)\.(\d*)$/.exec(text)
  if (m === null || m[2]!.length <= scale) return text
  const whole = m[1]!.length === 0 ? "0" : m[1]!
  return scale === 0 ? whole : `${whole}.${m[2]!.slice(0, scale)}`
}

/** A SECONDDATE text literal without its fraction of a second. */
export const wholeSecondsLiteral = (text: string): string =>
  text.replace(/^(\s*\d{1,4}-\d{1,2}-\d{1,2}[ T]\d{1,2}:\d{1,2}:\d{1,2})\.\d*/, "$1")

/** A literal the target column type may cut: a number with a fraction, or a text with a fraction of a second. */
const mayCut = (t: Token): boolean =>
  (t.t === "number" && t.v.includes(".") && !/e/i.test(t.v)) || (t.t === "string" && /:\d{1,2}\.\d/.test(t.v))

/** The cut literal's SQL text for a column of this type, or undefined when nothing changes. */
const cutLiteral = (t: Token, type: HanaType): string | undefined => {
  if (t.t === "number" && type.name === "DECIMAL" && type.scale >= 0) {
    const cut = truncateDecimalLiteral(t.v, type.scale)
    return cut === t.v ? undefined : cut
  }
  if (t.t === "string" && type.name === "SECONDDATE") {
    const cut = wholeSecondsLiteral(t.v)
    return cut === t.v ? undefined : `'${cut.replace(/'/g, "''")}'`
  }
  return undefined
}

/** The literal token of a value item: `lit`, `-lit`, `+lit`, `TIMESTAMP 'lit'`, else undefined. */
const literalOf = (item: readonly Token[]): Token | undefined => {
  const [a, b] = item
  if (item.length === 1) return a
  if (item.length === 2 && a!.t === "op" && (a!.v === "-" || a!.v === "+") && b!.t === "number") return b
  if (item.length === 2 && ["TIMESTAMP", "SECONDDATE"].includes(upper(a)) && b!.t === "string") return b
  return undefined
}

/** `[schema.]table` at tokens[i]: its names and how many tokens it takes. */
const tableAt = (tokens: readonly Token[], i: number): { schema?: string; table: string; used: number } | undefined => {
  const first = identOf(tokens[i])
  if (first === undefined) return undefined
  if (tokens[i + 1]?.t === "op" && tokens[i + 1]!.v === ".") {
    const second = identOf(tokens[i + 2])
    return second === undefined ? undefined : { schema: first, table: second, used: 3 }
  }
  return { table: first, used: 1 }
}

/** A select item without its `AS alias` or bare alias. */
const withoutAlias = (item: readonly Token[]): readonly Token[] => {
  if (item.length >= 3 && upper(item[item.length - 2]) === "AS") return item.slice(0, -2)
  const last = item[item.length - 1]
  const before = item[item.length - 2]
  return item.length >= 2 && (last!.t === "word" || last!.t === "qident") && (before!.t === "number" || before!.t === "string")
    ? item.slice(0, -1)
    : item
}

/**
 * The select lists of `SELECT … [UNION ALL SELECT …]…` feeding an INSERT, or undefined when rows could merge before
 * they are stored (DISTINCT, UNION, INTERSECT, EXCEPT, MINUS): cutting a literal there could drop a row HANA keeps.
 */
const selectLists = (tokens: readonly Token[]): Token[][][] | undefined => {
  const lists: Token[][][] = []
  let depth = 0
  let start = -1
  let listEnd = -1
  const close = (at: number): void => {
    if (start >= 0) lists.push(splitTopLevel(tokens.slice(start, listEnd < 0 ? at : listEnd)))
    start = -1
    listEnd = -1
  }
  for (let k = 0; k < tokens.length; k++) {
    const tok = tokens[k]!
    if (tok.t === "op" && tok.v === "(") depth++
    else if (tok.t === "op" && tok.v === ")") depth--
    if (depth !== 0 || tok.t !== "word") continue
    const word = upper(tok)
    if (word === "SELECT") {
      if (["DISTINCT", "TOP"].includes(upper(tokens[k + 1]))) return undefined
      start = k + 1
    } else if (word === "UNION") {
      if (upper(tokens[k + 1]) !== "ALL") return undefined
      close(k)
    } else if (["INTERSECT", "EXCEPT", "MINUS"].includes(word)) return undefined
    else if (start >= 0 && listEnd < 0 && ["FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "INTO"].includes(word)) listEnd = k
  }
  close(tokens.length)
  return lists
}

interface Target {
  readonly schema?: string
  readonly table: string
  /** Column name, or its position in the table when the statement names no columns, and the literal that may be cut. */
  readonly writes: ReadonlyArray<{ readonly column: string | number; readonly literal: Token }>
}

/** The literal writes of an INSERT/UPSERT/REPLACE … VALUES or … SELECT, or of an UPDATE … SET statement. */
const targetOf = (tokens: readonly Token[]): Target | undefined => {
  const verb = upper(tokens[0])
  if (verb === "UPDATE") {
    const t = tableAt(tokens, 1)
    if (t === undefined) return undefined
    let i = 1 + t.used
    if (upper(tokens[i]) !== "SET") i++ // an alias
    if (upper(tokens[i]) !== "SET") return undefined
    let end = i + 1
    let depth = 0
    for (; end < tokens.length; end++) {
      const tok = tokens[end]!
      if (tok.t === "op" && tok.v === "(") depth++
      else if (tok.t === "op" && tok.v === ")") depth--
      else if (depth === 0 && ["WHERE", "FROM", "WITH"].includes(upper(tok))) break
    }
    const writes: Array<{ column: string; literal: Token }> = []
    for (const item of splitTopLevel(tokens.slice(i + 1, end))) {
      const column = identOf(item[0])
      const literal = item[1]?.v === "=" ? literalOf(item.slice(2)) : undefined
      if (column !== undefined && literal !== undefined && mayCut(literal)) writes.push({ column, literal })
    }
    return { ...(t.schema === undefined ? {} : { schema: t.schema }), table: t.table, writes }
  }
  if (verb !== "INSERT" && verb !== "UPSERT" && verb !== "REPLACE") return undefined
  let i = upper(tokens[1]) === "INTO" ? 2 : 1
  const t = tableAt(tokens, i)
  if (t === undefined) return undefined
  i += t.used
  let columns: Array<string | undefined> | undefined
  if (tokens[i]?.t === "op" && tokens[i]!.v === "(") {
    const close = matching(tokens, i)
    columns = splitTopLevel(tokens.slice(i + 1, close)).map((c) => (c.length === 1 ? identOf(c[0]) : undefined))
    i = close + 1
  }
  const writes: Array<{ column: string | number; literal: Token }> = []
  const write = (item: readonly Token[], k: number): void => {
    const literal = literalOf(item)
    const column = columns === undefined ? k : columns[k]
    if (column !== undefined && literal !== undefined && mayCut(literal)) writes.push({ column, literal })
  }
  if (upper(tokens[i]) === "SELECT") {
    for (const items of selectLists(tokens.slice(i)) ?? []) items.forEach((item, k) => write(withoutAlias(item), k))
    return { ...(t.schema === undefined ? {} : { schema: t.schema }), table: t.table, writes }
  }
  if (upper(tokens[i]) !== "VALUES") return undefined
  for (i++; tokens[i]?.t === "op" && tokens[i]!.v === "("; i++) {
    const close = matching(tokens, i)
    splitTopLevel(tokens.slice(i + 1, close)).forEach(write)
    i = close + 1
    if (!(tokens[i]?.t === "op" && tokens[i]!.v === ",")) break
  }
  return { ...(t.schema === undefined ? {} : { schema: t.schema }), table: t.table, writes }
}

/** Declared HANA types of a table's columns, by DuckDB name and by position. */
const columnTypes = async (session: Session, target: Target): Promise<{ byName: Map<string, HanaType>; ordered: HanaType[] }> => {
  const declared = await declaredColumnTypes(session, target.schema, target.table)
  const typeOf = (text: string): HanaType => parseTypeText(text) ?? { name: "", length: 0, scale: 0 }
  return {
    byName: new Map([...declared.byName].map(([name, text]) => [name, typeOf(text)])),
    ordered: declared.ordered.map(typeOf)
  }
}

/**
 * The statement with each literal written into a DECIMAL(p,s) or SECONDDATE column cut as HANA cuts it; any other
 * statement (or one this cannot read: translate reports its errors) comes back unchanged, without a catalog look-up.
 */
export const exactLiteralWrites = async (session: Session, sql: string): Promise<string> => {
  if (!/^\s*(?:INSERT|UPSERT|REPLACE|UPDATE)\b/i.test(sql)) return sql
  let target: Target | undefined
  try {
    target = targetOf(sig(tokenize(sql)))
  } catch {
    return sql
  }
  if (target === undefined || target.writes.length === 0) return sql
  const { byName, ordered } = await columnTypes(session, target)
  const edits: Array<{ pos: number; end: number; text: string }> = []
  for (const { column, literal } of target.writes) {
    const type = typeof column === "number" ? ordered[column] : byName.get(encodeName(column))
    const text = type === undefined ? undefined : cutLiteral(literal, type)
    if (text !== undefined && literal.pos !== undefined && literal.end !== undefined) edits.push({ pos: literal.pos, end: literal.end, text })
  }
  let out = sql
  for (const e of edits.sort((a, b) => b.pos - a.pos)) out = out.slice(0, e.pos) + e.text + out.slice(e.end)
  return out
}
