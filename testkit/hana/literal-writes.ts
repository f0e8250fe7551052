/**
 * Values written into DECIMAL(p,s), SECONDDATE, TIME / SECONDTIME and integer columns are cut as HANA cuts them, before DuckDB's cast
 * would round them: HANA keeps s fraction digits of a DECIMAL(p,s) (SAP HANA SQL Reference, "Numeric Data Types": a
 * DECIMAL(5,4) column stores 3.14, 3.1415 and 3.141592 as 3.1400, 3.1415, 3.1415; SAP's blog "HANA SQL: Casting to
 * decimal (implicit or explicit) will not provide rounding", blogs.sap.com 2018-11-14, citing SAP Note 1895981),
 * whole seconds of a SECONDDATE ("Data Type Conversion": TIMESTAMP 2013-07-03 23:59:59.7777777 to SECONDDATE is
 * 2013-07-03 23:59:59) and of a TIME or SECONDTIME ("Datetime Data Types": both have second precision; stored as
 * DuckDB's TIME, which would keep microseconds) and truncates toward 0 into an integer type ("CAST Function (Data Type Conversion)": CAST(10.5
 * AS INTEGER) is 10). Covers a value of INSERT/UPSERT/REPLACE … VALUES, of UPDATE … SET col = value, of MERGE's UPDATE
 * SET and INSERT VALUES, and a select item of INSERT … SELECT [UNION ALL SELECT …]: a literal is cut in the text (a
 * number in exponent form and a number's text as well), any other expression (a computation, a column, a function,
 * a subquery, an expression holding a parameter) is wrapped in a function that cuts its value (`hana_cut_decimal`,
 * `hana_cut_seconds`, `hana_cut_time`, `hana_cut_integer`, below; sql-rewrite.ts uses them for CAST). A query whose rows may merge
 * before they are stored (DISTINCT, UNION, INTERSECT, EXCEPT, MINUS) or that starts with WITH is wrapped whole
 * (`SELECT … FROM (<query>)`), so rows merge on the values as written and are cut as they are stored. A bare
 * parameter is cut by binding.ts; DEFAULT and NULL are left alone.
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

/** A TIME text literal (`10:00:00.9`, or a datetime's text) without its fraction of a second. */
const wholeSecondsTimeLiteral = (text: string): string => text.replace(/^(\s*(?:\d{1,4}-\d{1,2}-\d{1,2}[ T])?\d{1,2}:\d{1,2}:\d{1,2})\.\d*/, "$1")

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
 * Session macros that cut an expression's value written into a DECIMAL(p,s), SECONDDATE, TIME or integer column: a
 * number's exact text is cut (a regular expression, or `hana_cut_decimal_text`, see {@link literalWriteFunctions})
 * and DuckDB's cast of the shorter text to the column's type then has nothing left to round.
 */
export const LITERAL_WRITE_MACROS: readonly string[] = [
  // A plain decimal text (`-12.345`) is cut by a regular expression, anything else (`1.5e-07`, ` +.5`) in JavaScript.
  "CREATE OR REPLACE TEMP MACRO hana_cut_decimal_of(t, s) AS CASE WHEN NOT regexp_full_match(t, '-?[0-9]+(\\.[0-9]*)?') " +
    "THEN hana_cut_decimal_text(t, CAST(s AS INTEGER)) WHEN s = 0 THEN regexp_replace(t, '\\.[0-9]*$', '') " +
    "ELSE regexp_replace(t, '(\\.[0-9]{' || CAST(s AS VARCHAR) || '})[0-9]+$', '\\1') END",
  // A TIMESTAMP's ticks (longdate.ts) become its text, which no DECIMAL cast reads (339), as HANA refuses the conversion.
  "CREATE OR REPLACE TEMP MACRO hana_cut_decimal(x, s) AS hana_cut_decimal_of(hana_as(x, CAST(NULL AS VARCHAR)), s)",
  "CREATE OR REPLACE TEMP MACRO hana_cut_seconds(x) AS date_trunc('second', hana_dt(x))",
  // DuckDB has no date_trunc for TIME: its text `HH:MM:SS[.ffffff]` is cut to the whole seconds instead.
  "CREATE OR REPLACE TEMP MACRO hana_cut_time(x) AS CAST(left(CAST(hana_as(x, CAST(NULL AS TIME)) AS VARCHAR), 8) AS TIME)",
  // An integer target truncates toward 0 (SAP HANA SQL Reference, "CAST Function (Data Type Conversion)": CAST(10.5
  // AS INTEGER) is 10; "Data Type Conversion": DECIMAL(10,2) 12345.67 to BIGINT is 12345): a fraction or a number's
  // text is cut as text, anything else (integers, booleans, a TIMESTAMP's ticks) converts as it did.
  "CREATE OR REPLACE TEMP MACRO hana_cut_integer(x) AS CASE WHEN typeof(x) IN ('DOUBLE', 'FLOAT', 'VARCHAR') OR typeof(x) LIKE 'DECIMAL%' " +
    "THEN CAST(hana_cut_decimal_of(CAST(x AS VARCHAR), 0) AS HUGEINT) ELSE hana_as(x, CAST(NULL AS HUGEINT)) END"
]

/** The scalar function behind `hana_cut_decimal`. */
export const literalWriteFunctions = (): Array<DuckDBScalarFunction> => [
  rowwiseFunction("hana_cut_decimal_text", [VARCHAR, INTEGER], VARCHAR, ([text, scale]) => cutDecimalText(String(text), Number(scale)))
]

/** Character types: a TIMESTAMP's ticks written into one are its text (longdate.ts). */
const TEXT_TYPES = new Set(["VARCHAR", "NVARCHAR", "CHAR", "NCHAR", "ALPHANUM", "SHORTTEXT", "CLOB", "NCLOB", "TEXT"])

/** A number's text with a fraction or an exponent (`1.239`, `1239E-3`, `' 1.239 '`). */
const DECIMAL_TEXT = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/

/** A literal the target column type may cut: a number with a fraction or an exponent, a number's text, or a text with a fraction of a second. */
const mayCut = (t: Token): boolean =>
  (t.t === "number" && /[.eE]/.test(t.v)) || (t.t === "string" && (/:\d{1,2}\.\d/.test(t.v) || (DECIMAL_TEXT.test(t.v) && /[.eE]/.test(t.v))))

/** The cut literal's SQL text for a column of this type, or undefined when nothing changes. */
const cutLiteral = (t: Token, type: HanaType): string | undefined => {
  if (INTEGER_TYPES.has(type.name)) return cutLiteral(t, { name: "DECIMAL", length: 38, scale: 0 })
  if (t.t === "number" && type.name === "DECIMAL" && type.scale >= 0) {
    // `1.239E0` is a DOUBLE: converted to DECIMAL(p,s) it is cut as any other value is.
    const cut = cutDecimalText(t.v, type.scale)
    return cut === t.v ? undefined : cut
  }
  if (t.t === "string" && type.name === "DECIMAL" && type.scale >= 0 && DECIMAL_TEXT.test(t.v)) {
    // A number's text converts to the column's type as the number does (SAP HANA SQL Reference, "Data Type
    // Conversion": character strings convert implicitly to numeric types); cut, it stays text.
    const cut = cutDecimalText(t.v.trim(), type.scale)
    return cut === t.v ? undefined : `'${cut}'`
  }
  if (t.t === "string" && (type.name === "SECONDDATE" || type.name === "TIME")) {
    const cut = type.name === "TIME" ? wholeSecondsTimeLiteral(t.v) : wholeSecondsLiteral(t.v)
    return cut === t.v ? undefined : `'${cut.replace(/'/g, "''")}'`
  }
  return undefined
}

/** The literal token of a value item: `lit`, `-lit`, `+lit`, `TIMESTAMP 'lit'`, else undefined. */
const literalOf = (item: readonly Token[]): Token | undefined => {
  const [a, b] = item
  if (item.length === 1) return a
  if (item.length === 2 && a!.t === "op" && (a!.v === "-" || a!.v === "+") && b!.t === "number") return b
  if (item.length === 2 && ["TIMESTAMP", "SECONDDATE", "TIME", "SECONDTIME"].includes(upper(a)) && b!.t === "string") return b
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
  // A bare parameter is cut by binding.ts; in an expression its type is inferred from the expression inside the cut.
  if (item.length === 0 || (item.length === 1 && (item[0]!.t === "param" || item[0]!.v === "?"))) return undefined
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
  /** An INSERT's query whose rows may merge (or that starts with WITH), wrapped whole, and the columns it fills. */
  readonly query?: { readonly tokens: readonly Token[]; readonly columns: ReadonlyArray<string | undefined> | undefined }
}

/** The top-level tokens from `start` up to the next word in `stops` (or the end). */
const untilWord = (tokens: readonly Token[], start: number, stops: readonly string[]): number => {
  let depth = 0
  let end = start
  for (; end < tokens.length; end++) {
    const tok = tokens[end]!
    if (tok.t === "op" && tok.v === "(") depth++
    else if (tok.t === "op" && tok.v === ")") depth--
    else if (depth === 0 && stops.includes(upper(tok))) break
  }
  return end
}

/** The writes of `col = value, …` assignments (a column named bare or qualified). */
const assignments = (tokens: readonly Token[]): Write[] => {
  const writes: Write[] = []
  for (const item of splitTopLevel(tokens)) {
    const eq = item.findIndex((t) => t.t === "op" && t.v === "=")
    const column = eq >= 1 ? identOf(item[eq - 1]) : undefined
    const w = column === undefined ? undefined : writeOf(column, item.slice(eq + 1))
    if (w !== undefined) writes.push(w)
  }
  return writes
}

/** `(col, …)` at tokens[i]: the names (undefined for an item that is no bare name) and the index after it. */
const columnList = (tokens: readonly Token[], i: number): { columns: Array<string | undefined> | undefined; next: number } => {
  if (!(tokens[i]?.t === "op" && tokens[i]!.v === "(")) return { columns: undefined, next: i }
  const close = matching(tokens, i)
  return { columns: splitTopLevel(tokens.slice(i + 1, close)).map((c) => (c.length === 1 ? identOf(c[0]) : undefined)), next: close + 1 }
}

/** The writes of `VALUES (…)[, (…)]…` at tokens[i] into `columns` (by position when undefined). */
const valueRows = (tokens: readonly Token[], i: number, columns: ReadonlyArray<string | undefined> | undefined): Write[] => {
  const writes: Write[] = []
  for (i++; tokens[i]?.t === "op" && tokens[i]!.v === "("; i++) {
    const close = matching(tokens, i)
    splitTopLevel(tokens.slice(i + 1, close)).forEach((item, k) => {
      const column = columns === undefined ? k : columns[k]
      const w = column === undefined ? undefined : writeOf(column, item)
      if (w !== undefined) writes.push(w)
    })
    i = close + 1
    if (!(tokens[i]?.t === "op" && tokens[i]!.v === ",")) break
  }
  return writes
}

/**
 * MERGE INTO's writes (SAP HANA SQL Reference, "MERGE INTO Statement"): each `WHEN MATCHED … THEN UPDATE SET` list
 * and `WHEN NOT MATCHED … THEN INSERT [(cols)] VALUES (…)`.
 */
const mergeTarget = (tokens: readonly Token[]): Target | undefined => {
  const t = tableAt(tokens, 2)
  if (t === undefined) return undefined
  const writes: Write[] = []
  let depth = 0
  for (let i = 2 + t.used; i < tokens.length; i++) {
    const tok = tokens[i]!
    if (tok.t === "op" && tok.v === "(") depth++
    else if (tok.t === "op" && tok.v === ")") depth--
    if (depth !== 0 || upper(tokens[i - 1]) !== "THEN") continue
    if (upper(tok) === "UPDATE" && upper(tokens[i + 1]) === "SET") {
      const end = untilWord(tokens, i + 2, ["WHEN"])
      writes.push(...assignments(tokens.slice(i + 2, end)))
    } else if (upper(tok) === "INSERT") {
      const { columns, next } = columnList(tokens, i + 1)
      if (upper(tokens[next]) === "VALUES") writes.push(...valueRows(tokens, next, columns))
    }
  }
  return { ...(t.schema === undefined ? {} : { schema: t.schema }), table: t.table, writes }
}

/** The literal writes of an INSERT/UPSERT/REPLACE … VALUES or … SELECT, of an UPDATE … SET or of a MERGE INTO statement. */
const targetOf = (tokens: readonly Token[]): Target | undefined => {
  const verb = upper(tokens[0])
  if (verb === "MERGE" && upper(tokens[1]) === "INTO") return mergeTarget(tokens)
  if (verb === "UPDATE") {
    const t = tableAt(tokens, 1)
    if (t === undefined) return undefined
    let i = 1 + t.used
    if (upper(tokens[i]) !== "SET") i++ // an alias
    if (upper(tokens[i]) !== "SET") return undefined
    const end = untilWord(tokens, i + 1, ["WHERE", "FROM", "WITH"])
    return { ...(t.schema === undefined ? {} : { schema: t.schema }), table: t.table, writes: assignments(tokens.slice(i + 1, end)) }
  }
  if (verb !== "INSERT" && verb !== "UPSERT" && verb !== "REPLACE") return undefined
  const t = tableAt(tokens, upper(tokens[1]) === "INTO" ? 2 : 1)
  if (t === undefined) return undefined
  const { columns, next: i } = columnList(tokens, (upper(tokens[1]) === "INTO" ? 2 : 1) + t.used)
  const table = { ...(t.schema === undefined ? {} : { schema: t.schema }), table: t.table }
  const first = tokens[i]
  if (upper(first) === "SELECT" || upper(first) === "WITH" || (first?.t === "op" && first.v === "(")) {
    const lists = upper(first) === "SELECT" ? selectLists(tokens.slice(i)) : undefined
    if (lists === undefined) {
      // UPSERT's `WITH PRIMARY KEY` ends the query
      const wpk = tokens.findIndex((tok, k) => k > i && upper(tok) === "WITH" && upper(tokens[k + 1]) === "PRIMARY")
      return { ...table, writes: [], query: { tokens: tokens.slice(i, wpk < 0 ? tokens.length : wpk), columns } }
    }
    const writes: Write[] = []
    for (const items of lists) {
      items.forEach((item, k) => {
        const column = columns === undefined ? k : columns[k]
        const w = column === undefined ? undefined : writeOf(column, withoutAlias(item))
        if (w !== undefined) writes.push(w)
      })
    }
    return { ...table, writes }
  }
  return upper(first) === "VALUES" ? { ...table, writes: valueRows(tokens, i, columns) } : undefined
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

/** HANA's integer types, which truncate what they are given toward 0. */
export const INTEGER_TYPES: ReadonlySet<string> = new Set(["TINYINT", "SMALLINT", "INTEGER", "BIGINT"])

/** The SQL that cuts a value written into a column of this type, or undefined when the type keeps it as it is. */
const cutExpression = (value: string, type: HanaType | undefined): string | undefined =>
  type?.name === "DECIMAL" && type.scale >= 0
    ? `HANA_CUT_DECIMAL(${value}, ${type.scale})`
    : type?.name === "SECONDDATE"
      ? `HANA_CUT_SECONDS(${value})`
      : type?.name === "TIME"
        ? `HANA_CUT_TIME(${value})`
        : type !== undefined && INTEGER_TYPES.has(type.name)
          ? `HANA_CUT_INTEGER(${value})`
          : undefined

/**
 * How many columns a query makes: the items of its first select list (the main one of a WITH, the inner one of a
 * parenthesised query), or undefined when a `*` stands for an unknown number of them.
 */
const queryWidth = (tokens: readonly Token[]): number | undefined => {
  if (tokens[0]?.t === "op" && tokens[0].v === "(") return queryWidth(tokens.slice(1, matching(tokens, 0)))
  let depth = 0
  for (let k = 0; k < tokens.length; k++) {
    const tok = tokens[k]!
    if (tok.t === "op" && tok.v === "(") depth++
    else if (tok.t === "op" && tok.v === ")") depth--
    if (depth !== 0 || upper(tok) !== "SELECT") continue
    let start = k + 1
    if (["DISTINCT", "ALL"].includes(upper(tokens[start]))) start++
    const end = untilWord(tokens, start, ["FROM", "INTO", "UNION", "INTERSECT", "EXCEPT", "MINUS", "WHERE", "GROUP", "ORDER", "LIMIT"])
    const items = splitTopLevel(tokens.slice(start, end))
    return items.some((item) => item[item.length - 1]?.v === "*") ? undefined : items.length
  }
  return undefined
}

/**
 * `SELECT HANA_W.C1, HANA_CUT_DECIMAL(HANA_W.C2, 2), … FROM (<query>) AS HANA_W (C1, C2, …)`: the query's rows as it
 * makes them (merged on the values as written), each value cut as the column it fills keeps it. Undefined when no
 * column cuts, or when the query's width is known and not the columns'.
 */
const wrappedQuery = (sql: string, query: NonNullable<Target["query"]>, types: ReadonlyArray<HanaType | undefined>): { pos: number; end: number; text: string } | undefined => {
  const first = query.tokens[0]
  const last = query.tokens[query.tokens.length - 1]
  if (first?.pos === undefined || last?.end === undefined || !types.some((t) => cutExpression("", t) !== undefined)) return undefined
  // A query of known width that does not fill the columns is left for DuckDB's INSERT to report; one with a `*` is
  // taken to fill them (else the alias list below fails, with 257 as well).
  const width = queryWidth(query.tokens)
  if (width !== undefined && width !== types.length) return undefined
  const names = types.map((_, k) => `C${k + 1}`)
  const items = names.map((name, k) => cutExpression(`HANA_W.${name}`, types[k]) ?? `HANA_W.${name}`)
  return { pos: first.pos, end: last.end, text: `SELECT ${items.join(", ")} FROM (${sql.slice(first.pos, last.end)}) AS HANA_W (${names.join(", ")})` }
}

/**
 * The statement with each value written into a DECIMAL(p,s), SECONDDATE, TIME or integer column cut as HANA cuts it; any other
 * statement (or one this cannot read: translate reports its errors) comes back unchanged, without a catalog look-up.
 */
export const exactLiteralWrites = async (session: Session, sql: string): Promise<string> => {
  if (!/^\s*(?:INSERT|UPSERT|REPLACE|UPDATE|MERGE)\b/i.test(sql)) return sql
  let target: Target | undefined
  try {
    target = targetOf(sig(tokenize(sql)))
  } catch {
    return sql
  }
  if (target === undefined || (target.writes.length === 0 && target.query === undefined)) return sql
  const { byName, ordered } = await columnTypes(session, target)
  const edits: Array<{ pos: number; end: number; text: string }> = []
  const query = target.query === undefined ? undefined : wrappedQuery(sql, target.query, target.query.columns?.map((c) => (c === undefined ? undefined : byName.get(encodeName(c)))) ?? ordered)
  if (query !== undefined) edits.push(query)
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
    // An integer column's expression holding a parameter keeps DuckDB's typing of the parameter (no cut around it).
    const cut = INTEGER_TYPES.has(type.name) && expression.some((t) => t.t === "param") ? undefined : cutExpression(value, type)
    if (cut !== undefined) edits.push({ pos: first.pos, end: last.end, text: cut })
    // A TIMESTAMP's ticks (longdate.ts) written into a DATE or TIME are its date or time, into text its text.
    else if (type.name === "DATE" || type.name === "TIME") edits.push({ pos: first.pos, end: last.end, text: `HANA_AS(${value}, CAST(NULL AS ${type.name}))` })
    else if (TEXT_TYPES.has(type.name)) edits.push({ pos: first.pos, end: last.end, text: `HANA_LD_TEXT(${value})` })
  }
  let out = sql
  for (const e of edits.sort((a, b) => b.pos - a.pos)) out = out.slice(0, e.pos) + e.text + out.slice(e.end)
  return out
}
