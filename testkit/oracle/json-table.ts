/**
 * JSON_TABLE in a FROM clause rewritten, before translation, into a lateral inline view over the rows its row path
 * selects: `JSON_TABLE(doc, '$.items[*]' COLUMNS (...)) jt` becomes `LATERAL (SELECT ... FROM <one row per selected
 * item>) jt`, each regular column a JSON_VALUE, a FORMAT JSON column a JSON_QUERY and an EXISTS column a JSON_EXISTS
 * over the row's item (json-sql.ts then rewrites those calls), so a column behaves as the function it stands for, as the
 * JSON Developer's Guide says of it ("JSON_TABLE Generalizes SQL/JSON Query Functions and Conditions").
 *
 * Semantics (SQL Language Reference, "JSON_TABLE"; JSON Developer's Guide, "SQL/JSON Function JSON_TABLE", "COLUMNS
 * Clause of SQL/JSON Function JSON_TABLE"):
 * - laterally joined with the FROM items before it; a document that is no JSON, or a row path selecting nothing,
 *   gives no row (NULL ON ERROR, the default);
 * - `name FOR ORDINALITY` numbers the rows from 1 (per parent row under NESTED PATH); the default column type is
 *   VARCHAR2(4000); a column without PATH reads the field named as the column is written (`num` reads `$.num`, not
 *   `$.NUM`: René Nyffenegger's JSON_TABLE notes read lower-case keys so, renenyffenegger.ch/notes/development/
 *   databases/Oracle/SQL/functions/json/table/index); PATH takes a literal or simple dot notation (`PATH dct.val_1`);
 * - `NESTED [PATH] 'p' COLUMNS (...)` joins the rows `p` selects in each parent item as an outer join (a parent whose
 *   nested path selects nothing keeps one row with NULL nested columns); sibling NESTED clauses are joined as a union
 *   (a row of one sibling has NULL in the other's columns).
 */
import { OraError } from "./errors.ts"
import { isKw, isOp, matchParen, splitTopLevel, sqlString, tokenize, type Tok } from "./lexer.ts"

/** One entry of a COLUMNS clause. */
type Column =
  | { readonly kind: "ordinality"; readonly name: string }
  | { readonly kind: "value" | "query" | "exists"; readonly name: string; readonly path: string; readonly clauses: ReadonlyArray<Tok> }
  | { readonly kind: "nested"; readonly path: string; readonly columns: ReadonlyArray<Column> }

const generated = (sql: string, pos: number): Array<Tok> => tokenize(sql).map((t) => ({ ...t, pos, heading: "" }))
const significant = (toks: ReadonlyArray<Tok>): Array<Tok> => toks.filter((t) => t.kind !== "ws")
const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`
const nameOf = (t: Tok): string => (t.kind === "qident" ? t.value : t.value.toUpperCase())

/** A path literal's text, or ORA-40454 when the tokens are no string literal. */
const pathLiteral = (t: Tok | undefined): string => {
  if (t?.kind !== "str") throw new OraError(40454, "path expression not a literal")
  return t.value
}

/**
 * A column's PATH at `sig[at]` and the number of tokens it takes: a path literal, or simple dot notation, names as
 * written (`PATH dct.val_1` reads `$.dct.val_1`, as René Nyffenegger's JSON_TABLE notes show Oracle taking it:
 * renenyffenegger.ch/notes/development/databases/Oracle/SQL/functions/json/table/index).
 */
const columnPath = (sig: ReadonlyArray<Tok>, at: number): [string, number] => {
  if (sig[at]?.kind !== "ident" && sig[at]?.kind !== "qident") return [pathLiteral(sig[at]), 1]
  const steps: Array<string> = []
  let k = at
  for (;;) {
    const t = sig[k]
    if (t === undefined || (t.kind !== "ident" && t.kind !== "qident")) throw new OraError(40454, "path expression not a literal")
    steps.push(t.kind === "qident" ? JSON.stringify(t.value) : t.text)
    if (!isOp(sig[k + 1], ".")) break
    k += 2
  }
  return [`$.${steps.join(".")}`, k - at + 1]
}

/** The entries of a `COLUMNS (...)` clause whose `(` is at `open` of `toks`. */
const columnsOf = (toks: ReadonlyArray<Tok>, open: number): Array<Column> => {
  const close = matchParen(toks, open)
  if (close < 0) throw new OraError(907, "missing right parenthesis")
  return splitTopLevel(toks.slice(open + 1, close))
    .filter((entry) => entry.some((t) => t.kind !== "ws"))
    .map(columnOf)
}

/** One COLUMNS entry: `name FOR ORDINALITY`, `NESTED [PATH] 'p' COLUMNS (...)` or a regular column. */
const columnOf = (entry: ReadonlyArray<Tok>): Column => {
  const sig = significant(entry)
  if (isKw(sig[0], "NESTED")) {
    const at = isKw(sig[1], "PATH") ? 2 : 1
    const path = pathLiteral(sig[at])
    const open = sig.findIndex((t, k) => k > at && isOp(t, "(") && isKw(sig[k - 1], "COLUMNS"))
    if (open < 0) throw new OraError(905, "missing keyword")
    return { kind: "nested", path, columns: columnsOf(sig, open) }
  }
  const head = sig[0]
  if (head === undefined || (head.kind !== "ident" && head.kind !== "qident")) throw new OraError(904, "invalid identifier")
  const name = nameOf(head)
  if (isKw(sig[1], "FOR") && isKw(sig[2], "ORDINALITY")) return { kind: "ordinality", name }
  const pathAt = sig.findIndex((t) => isKw(t, "PATH"))
  const [path, pathLength] = pathAt < 0 ? [`$.${head.kind === "qident" ? head.value : head.text}`, 0] : columnPath(sig, pathAt + 1)
  const spec = pathAt < 0 ? sig.slice(1) : [...sig.slice(1, pathAt), ...sig.slice(pathAt + 1 + pathLength)]
  const exists = spec.findIndex((t) => isKw(t, "EXISTS"))
  const format = spec.findIndex((t, k) => isKw(t, "FORMAT") && isKw(spec[k + 1], "JSON"))
  if (exists >= 0) return { kind: "exists", name, path, clauses: [...spec.slice(0, exists), ...spec.slice(exists + 1)] }
  if (format >= 0) return { kind: "query", name, path, clauses: [...spec.slice(0, format), ...spec.slice(format + 2)] }
  return { kind: "value", name, path, clauses: spec }
}

/** The output column names of a COLUMNS clause, nested ones included, in order. */
const namesOf = (columns: ReadonlyArray<Column>): Array<string> => columns.flatMap((c) => (c.kind === "nested" ? namesOf(c.columns) : [c.name]))

/** The text of a tokens list (for clauses copied into generated calls). */
const textOf = (toks: ReadonlyArray<Tok>): string => toks.map((t) => t.text).join(" ")

/**
 * A regular column's RETURNING clause and its other clauses: a leading type (`NUMBER`, `VARCHAR2(20)`, `DATE`, ...)
 * becomes `RETURNING type`; wrapper, quotes and ON ERROR / ON EMPTY clauses are kept for the function.
 */
const returningAndClauses = (clauses: ReadonlyArray<Tok>): string => {
  const first = clauses[0]
  const isType = first !== undefined && first.kind === "ident" && !isKw(first, "WITH", "WITHOUT", "ERROR", "NULL", "DEFAULT", "EMPTY", "TRUE", "FALSE", "KEEP", "OMIT", "ALLOW", "DISALLOW", "TRUNCATE")
  if (!isType) return textOf(clauses)
  let end = 1
  if (isOp(clauses[1], "(")) end = matchParen(clauses, 1) + 1
  return `RETURNING ${textOf(clauses.slice(0, end))} ${textOf(clauses.slice(end))}`
}

/**
 * A column's clauses with the table-level ON ERROR clause added when it has none of its own (`tableOnError`: e.g.
 * `ERROR ON ERROR`): the table-level clause is the default for its columns (SQL Language Reference, "JSON_TABLE",
 * JSON_table_on_error_clause; the SQL standard, ISO/IEC 9075-2 7.11 <JSON table>, says the same).
 */
const withTableOnError = (clauses: string, tableOnError: string): string => (tableOnError === "" || /\bON ERROR\b/i.test(clauses) ? clauses : `${clauses} ${tableOnError}`)

/** One column's select item over the row item `item` (a quoted DuckDB name). */
const columnItem = (column: Exclude<Column, { kind: "nested" }>, item: string, ordinal: string, tableOnError: string): string => {
  const as = ` AS ${quoted(column.name)}`
  switch (column.kind) {
    case "ordinality":
      return `CAST(${ordinal} AS NUMBER)${as}`
    case "exists": {
      const numeric = /^(NUMBER|INTEGER|INT)\b/i.test(column.clauses[0]?.value ?? "")
      return `CASE WHEN JSON_EXISTS(${item}, ${sqlString(column.path)}) THEN ${numeric ? "1" : "'true'"} ELSE ${numeric ? "0" : "'false'"} END${as}`
    }
    case "query":
      return `JSON_QUERY(${item}, ${sqlString(column.path)} ${withTableOnError(returningAndClauses(column.clauses), tableOnError)})${as}`
    default:
      return `JSON_VALUE(${item}, ${sqlString(column.path)} ${withTableOnError(returningAndClauses(column.clauses), tableOnError)})${as}`
  }
}

/** Numbers the generated names of one rewrite (`$I1`, `$R1`, ...) so that nested levels do not clash. */
class Levels {
  private n = 0
  next(): number {
    return ++this.n
  }
}

/**
 * The inline view of one level: a row per item that `path` selects in `source` (tokens of the document expression),
 * its columns, and its nested levels outer-joined (a union of siblings).
 */
/** The table-level clauses: `rowPath` for the row path expression (top level only), `onError` for every column. */
interface TableClauses {
  readonly rowPath: string
  readonly onError: string
}

const levelSql = (source: ReadonlyArray<Tok>, path: string, columns: ReadonlyArray<Column>, levels: Levels, pos: number, table: TableClauses): Array<Tok> => {
  const n = levels.next()
  const item = `"$I${n}"`
  const ordinal = `"$O${n}"`
  const list = `"$L${n}"`
  const own = columns.flatMap((c) => (c.kind === "nested" ? [] : [columnItem(c, `"$R${n}".${item}`, `"$R${n}".${ordinal}`, table.onError)]))
  const nested = columns.filter((c): c is Extract<Column, { kind: "nested" }> => c.kind === "nested")
  const nestedNames = nested.flatMap((c) => namesOf(c.columns))
  const items = [...own, ...nestedNames.map((name) => `"$N${n}".${quoted(name)}`)]
  const rows = [
    ...generated(`SELECT ${items.join(", ")} FROM (SELECT unnest(${list}) AS ${item}, generate_subscripts(${list}, 1) AS ${ordinal} FROM (SELECT ora_json_elements(JSON_QUERY(`, pos),
    ...source,
    ...generated(`, ${sqlString(path)} WITH WRAPPER ${table.rowPath})) AS ${list} FROM dual) "$S${n}") "$R${n}"`, pos)
  ]
  if (nested.length === 0) return rows
  const branches = nested.map((child) => {
    const names = namesOf(child.columns)
    const padded = nestedNames.map((name) => (names.includes(name) ? quoted(name) : `NULL AS ${quoted(name)}`))
    return [...generated(`SELECT ${padded.join(", ")} FROM (`, pos), ...levelSql(generated(`"$R${n}".${item}`, pos), child.path, child.columns, levels, pos, { rowPath: "", onError: table.onError }), ...generated(")", pos)]
  })
  const union = branches.flatMap((b, k) => (k === 0 ? b : [...generated(" UNION ALL ", pos), ...b]))
  return [...rows, ...generated(" LEFT JOIN LATERAL (", pos), ...union, ...generated(`) "$N${n}" ON 1 = 1`, pos)]
}

/** `JSON_TABLE(expr [FORMAT JSON] [, 'path'] [clauses] COLUMNS (...))` whose `(` is at `open`: its lateral inline view. */
const jsonTableSql = (toks: ReadonlyArray<Tok>, open: number, close: number, pos: number): Array<Tok> => {
  const args = splitTopLevel(toks.slice(open + 1, close))
  const last = args[args.length - 1] ?? []
  const columnsAt = last.findIndex((t, k) => isKw(t, "COLUMNS") && isOp(significant(last.slice(k + 1))[0], "("))
  if (columnsAt < 0) throw new OraError(905, "missing keyword")
  const clauseToks = args.length > 1 ? last.slice(0, columnsAt) : []
  const clauses = significant(clauseToks)
  const path = args.length > 1 ? pathLiteral(clauses[0]) : "$"
  const words = clauses.slice(1).map((t) => t.value).join(" ")
  // the table-level clause takes only ERROR or NULL (SQL Language Reference, "JSON_TABLE", JSON_table_on_error_clause
  // `{ ERROR | NULL } ON ERROR`; ORA-00907: the parser's code here is **unconfirmed**)
  if (/\b(DEFAULT|EMPTY|TRUE|FALSE)\b/.test(words)) throw new OraError(907, "missing right parenthesis")
  // ERROR | NULL ON ERROR and ON EMPTY at the table level: the row path's handling, and ON ERROR the columns' default
  const onError = /\b(ERROR|NULL) ON ERROR\b/.exec(words)?.[0] ?? ""
  const onEmpty = /\b(ERROR|NULL) ON EMPTY\b/.exec(words)?.[0] ?? ""
  const table = { rowPath: `${onError} ${onEmpty}`.trim(), onError }
  const docArg = args.length > 1 ? (args[0] ?? []) : last.slice(0, columnsAt)
  const sigDoc = significant(docArg)
  const doc = isKw(sigDoc[sigDoc.length - 1], "JSON") && isKw(sigDoc[sigDoc.length - 2], "FORMAT") ? docArg.slice(0, docArg.indexOf(sigDoc[sigDoc.length - 2]!)) : docArg
  const colOpen = last.findIndex((t, k) => k > columnsAt && isOp(t, "("))
  const columns = columnsOf(last, colOpen)
  return [...generated("LATERAL (", pos), ...levelSql(rewriteJsonTables(doc), path, columns, new Levels(), pos, table), ...generated(")", pos)]
}

/** Rewrites every `JSON_TABLE(...)` table expression of a statement (the tokens themselves when there is none). */
export const rewriteJsonTables = (toks: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  if (!toks.some((t) => t.kind === "ident" && t.value === "JSON_TABLE")) return toks
  const out: Array<Tok> = []
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    let open = k + 1
    while (toks[open]?.kind === "ws") open++
    if (t.kind === "ident" && t.value === "JSON_TABLE" && isOp(toks[open], "(") && !isOp(toks[k - 1], ".")) {
      const close = matchParen(toks, open)
      if (close < 0) throw new OraError(907, "missing right parenthesis")
      out.push(...jsonTableSql(toks, open, close, t.pos))
      k = close
    } else out.push(t)
  }
  return out
}

/** DuckDB macro the rewrite calls: the elements of a JSON array text, each as JSON text (NULL for no array). */
export const JSON_TABLE_MACROS: ReadonlyArray<string> = [`ora_json_elements(x) AS CAST(CAST(x AS JSON) AS JSON[])`]
