/**
 * Literals in SQL text written into DECIMAL(p,s) and SECONDDATE columns are cut as HANA cuts them, before DuckDB's
 * cast would round them: HANA keeps s fraction digits of a DECIMAL(p,s) (SAP HANA SQL Reference, "Numeric Data
 * Types": a DECIMAL(5,4) column stores 3.14, 3.1415 and 3.141592 as 3.1400, 3.1415, 3.1415) and whole seconds of a
 * SECONDDATE ("Datetime Data Types": year, month, day, hour, minute and second), the fraction dropped as for a
 * SECONDDATE parameter (binding.ts). Covers a value of INSERT/UPSERT/REPLACE … VALUES, of UPDATE … SET col = value
 * and a select item of INSERT … SELECT [UNION ALL SELECT …]: a literal is cut in the text, any other expression
 * (a computation, a column, a function, a subquery) is wrapped in a function that cuts its value
 * (`hana_cut_decimal`, `hana_cut_seconds`, below). An expression holding a parameter is left to DuckDB's cast (its
 * parameter types are inferred from the expression as written), as are DEFAULT and NULL.
 */
import { INTEGER, VARCHAR } from "@duckdb/node-api"
import type { DuckDBScalarFunction } from "@duckdb/node-api"
import type { Session } from "../engine/index.ts"
import { rowwiseFunction } from "../common/scalar-functions.ts"
import { identOf, matching, sig, splitTopLevel, tokenize, upper } from "./lexer.ts"
import type { Token } from "./lexer.ts"
import { declaredColumnTypes } from "./catalog.ts"
import { encodeName } from "./names.ts"
import { parseTypeText } from "./types.ts"
import type { HanaType } from "./types.ts"

/** A SECONDDATE text literal without its fraction of a second. */
const wholeSecondsLiteral = (text: string): string =>
  text.replace(/^(\s*\d{1,4}-\d{1,2}-\d{1,2}[ T]\d{1,2}:\d{1,2}:\d{1,2})\.\d*/, "$1")

/** The decimal text `text` (a number's text as DuckDB prints it, exponent forms included) cut to `scale` fraction digits. */
export const cutDecimalText = (text: string, scale: number): string => {
  const plain = /e/i.test(text) ? exponentFree(text) : text.trim()
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(plain)
  if (m === null) return text
  const fraction = (m[3] ?? "").slice(0, scale)
  return `${m[1]}${m[2] === "" ? "0" : m[2]}${fraction === "" ? "" : `.${fraction}`}`
}

/** `1.5e-07` as `0.00000015`: the digits moved by the exponent, none added or rounded. */
const exponentFree = (text: string): string => {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?e([+-]?\d+)\s*$/i.exec(text)
  if (m === null) return text
  const digits = `${m[2]}${m[3] ?? ""}`
  const point = m[2]!.length + Number(m[4])
  const whole = point <= 0 ? "0" : digits.slice(0, point).padEnd(point, "0")
  const fraction = point <= 0 ? "0".repeat(-point) + digits : digits.slice(point)
  return `${m[1]}${whole.replace(/^0+(?=\d)/, "")}${fraction === "" ? "" : `.${fraction}`}`
}

/**
 * Session macros that cut an expression's value written into a DECIMAL(p,s) or SECONDDATE column: the value's exact
 * text is cut (`hana_cut_decimal_text`, a scalar function, see {@link literalWriteFunctions}) and DuckDB's cast of the
 * shorter text to the column's type then has nothing left to round.
 */
export const LITERAL_WRITE_MACROS: readonly string[] = [
  "CREATE OR REPLACE TEMP MACRO hana_cut_decimal(x, s) AS hana_cut_decimal_text(CAST(x AS VARCHAR), CAST(s AS INTEGER))",
  "CREATE OR REPLACE TEMP MACRO hana_cut_seconds(x) AS date_trunc('second', hana_dt(x))"
]

/** The scalar function behind `hana_cut_decimal`. */
export const literalWriteFunctions = (): Array<DuckDBScalarFunction> => [
  rowwiseFunction("hana_cut_decimal_text", [VARCHAR, INTEGER], VARCHAR, ([text, scale]) => cutDecimalText(String(text), Number(scale)))
]

/** Character types: a TIMESTAMP's ticks written into one are its text (longdate.ts). */
const TEXT_TYPES = new Set(["VARCHAR", "NVARCHAR", "CHAR", "NCHAR", "ALPHANUM", "SHORTTEXT", "CLOB", "NCLOB", "TEXT"])

/** A literal the target column type may cut: a number with a fraction, or a text with a fraction of a second. */
const mayCut = (t: Token): boolean =>
  (t.t === "number" && t.v.includes(".") && !/e/i.test(t.v)) || (t.t === "string" && /:\d{1,2}\.\d/.test(t.v))

/** The cut literal's SQL text for a column of this type, or undefined when nothing changes. */
const cutLiteral = (t: Token, type: HanaType): string | undefined => {
  if (t.t === "number" && type.name === "DECIMAL" && type.scale >= 0) {
    // An exponent form is left to DuckDB's cast (README): the literal is cut only as written.
    const cut = /e/i.test(t.v) ? t.v : cutDecimalText(t.v, type.scale)
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

/** A value written into a column: a literal that may be cut, or an expression whose value may be. */
type Write =
  | { readonly column: string | number; readonly literal: Token; readonly item: readonly Token[] }
  | { readonly column: string | number; readonly expression: readonly Token[] }

/** A text a TIMESTAMP column may read as a datetime (its ticks, longdate.ts); hana_ld fails a malformed one with 303. */
const DATETIME_TEXT = /^\s*\d/

/** The write of `item` into `column`, or undefined when nothing could be cut or converted (a number without a fraction, `?`, …). */
const writeOf = (column: string | number, item: readonly Token[]): Write | undefined => {
  const literal = literalOf(item)
  if (literal !== undefined && (literal.t === "number" || literal.t === "string")) {
    // any number too: into a TIMESTAMP column it is no ticks count (hana_ld fails it with 303, as it does a computed number)
    return mayCut(literal) || literal.t === "number" || (literal.t === "string" && DATETIME_TEXT.test(literal.v)) ? { column, literal, item } : undefined
  }
  if (item.length === 0 || item.some((t) => t.t === "param" || t.v === "?")) return undefined
  if (item.length === 1 && ["DEFAULT", "NULL"].includes(upper(item[0]))) return undefined
  // `*` and `q.*` stand for several columns
  if (item[item.length - 1]!.v === "*" && (item.length === 1 || item[item.length - 2]!.v === ".")) return undefined
  return { column, expression: item }
}

interface Target {
  readonly schema?: string
  readonly table: string
  /** Column name, or its position in the table when the statement names no columns, and the value written there. */
  readonly writes: ReadonlyArray<Write>
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
    const writes: Array<Write> = []
    for (const item of splitTopLevel(tokens.slice(i + 1, end))) {
      const column = identOf(item[0])
      const w = column !== undefined && item[1]?.v === "=" ? writeOf(column, item.slice(2)) : undefined
      if (w !== undefined) writes.push(w)
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
  const writes: Array<Write> = []
  const write = (item: readonly Token[], k: number): void => {
    const column = columns === undefined ? k : columns[k]
    const w = column === undefined ? undefined : writeOf(column, item)
    if (w !== undefined) writes.push(w)
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
 * The statement with each value written into a DECIMAL(p,s) or SECONDDATE column cut as HANA cuts it; any other
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
  for (const w of target.writes) {
    const type = typeof w.column === "number" ? ordered[w.column] : byName.get(encodeName(w.column))
    if (type === undefined) continue
    if (type.name === "TIMESTAMP") {
      // Ticks (longdate.ts): a text read with all seven fraction digits, any other datetime converted.
      const items = "literal" in w ? w.item : w.expression
      const [first, last] = [items[0]!, items[items.length - 1]!]
      if (first.pos !== undefined && last.end !== undefined) edits.push({ pos: first.pos, end: last.end, text: `HANA_LD(${sql.slice(first.pos, last.end)})` })
      continue
    }
    // A TIMESTAMP literal is ticks (sql-rewrite.ts): into another column it is converted as an expression is.
    const typedTimestamp = "literal" in w && w.item.length === 2 && ["TIMESTAMP", "LONGDATE"].includes(upper(w.item[0]))
    if ("literal" in w && !typedTimestamp) {
      const text = cutLiteral(w.literal, type)
      if (text !== undefined && w.literal.pos !== undefined && w.literal.end !== undefined) edits.push({ pos: w.literal.pos, end: w.literal.end, text })
      continue
    }
    const expression = "literal" in w ? w.item : w.expression
    const first = expression[0]!
    const last = expression[expression.length - 1]!
    if (first.pos === undefined || last.end === undefined) continue
    const value = sql.slice(first.pos, last.end)
    if (type.name === "DECIMAL" && type.scale >= 0) edits.push({ pos: first.pos, end: last.end, text: `HANA_CUT_DECIMAL(${value}, ${type.scale})` })
    else if (type.name === "SECONDDATE") edits.push({ pos: first.pos, end: last.end, text: `HANA_CUT_SECONDS(${value})` })
    // A TIMESTAMP's ticks (longdate.ts) written into a DATE or TIME are its date or time, into text its text.
    else if (type.name === "DATE" || type.name === "TIME") edits.push({ pos: first.pos, end: last.end, text: `HANA_AS(${value}, CAST(NULL AS ${type.name}))` })
    else if (TEXT_TYPES.has(type.name)) edits.push({ pos: first.pos, end: last.end, text: `HANA_LD_TEXT(${value})` })
  }
  let out = sql
  for (const e of edits.sort((a, b) => b.pos - a.pos)) out = out.slice(0, e.pos) + e.text + out.slice(e.end)
  return out
}
