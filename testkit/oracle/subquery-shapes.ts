/**
 * The select-list shape of a subquery in a query's FROM clause (`SELECT * FROM (SELECT 1.5 x, SUM(p) s FROM t)`), so
 * that results.ts describes the enclosing query's columns as Oracle describes the subquery's items: a column of a
 * table with its declared type, a literal as NUMBER without precision, a number computed over columns with precision
 * 0 and scale 0 (number-describe.ts), where DuckDB's result type alone would say NUMBER(2,1) or NUMBER(38,2). Oracle
 * passes a view's column type on unchanged (JDBC reads `X1` of `SELECT X1 FROM (SELECT 1 AS X1 FROM DUAL)` as
 * precision 0, scale -127: https://github.com/OHDSI/DatabaseConnector/pull/189).
 */
import { findTopLevel, isKw, isName, isOp, matchParen, type Tok } from "./lexer.ts"
import { numberDescription } from "./number-describe.ts"
import { type BinaryKind, binaryKindOf, headingOf, oracleName } from "./expression-names.ts"
import type { FromRef, QueryShape, SelectItem } from "./translate-types.ts"
import { timestampPrecisionAt } from "./fraction-precision.ts"
import { textDatetimeOfText } from "./translate-datetime-sql.ts"
import { timestampLiteral } from "./translate-literals.ts"
import { numberType, timestampType } from "./types.ts"


/** Words that end a FROM item rather than alias it. */
const NOT_TABLE_ALIAS = new Set(["WHERE", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "ON", "GROUP", "ORDER", "UNION", "MINUS", "INTERSECT", "EXCEPT", "FETCH", "OFFSET", "HAVING", "CONNECT", "START", "NATURAL", "FOR", "USING", "PIVOT", "UNPIVOT"])

/** A subquery's shape with the output name of each item (its alias, its column, or its heading). */
export interface SubqueryShape extends QueryShape {
  readonly names: ReadonlyArray<string | undefined>
}

/** Of `[q.]name [[AS] alias]`: the column reference and its output name. */
const columnItem = (part: ReadonlyArray<Tok>): { item: SelectItem; name: string } | undefined => {
  const asAlias = part.length >= 3 && isKw(part[part.length - 2], "AS") && isName(part[part.length - 1])
  const bareAlias = !asAlias && (part.length === 2 || (part.length === 4 && isOp(part[1], "."))) && isName(part[part.length - 1])
  const body = asAlias ? part.slice(0, -2) : bareAlias ? part.slice(0, -1) : part
  const alias = asAlias || bareAlias ? oracleName(part[part.length - 1]!) : undefined
  if (body.length === 1 && isName(body[0])) return { item: { kind: "col", column: oracleName(body[0]) }, name: alias ?? oracleName(body[0]) }
  if (body.length === 3 && isName(body[0]) && isOp(body[1], ".") && isName(body[2])) return { item: { kind: "col", qualifier: oracleName(body[0]), column: oracleName(body[2]) }, name: alias ?? oracleName(body[2]) }
  return undefined
}

/** The item `part` of a subquery's select list. */
const itemOf = (part: ReadonlyArray<Tok>, binaryColumns: ReadonlyMap<string, BinaryKind> | undefined): { item: SelectItem; name: string | undefined } => {
  if (part.length === 1 && isOp(part[0], "*")) return { item: { kind: "star" }, name: undefined }
  if (part.length === 3 && isName(part[0]) && isOp(part[1], ".") && isOp(part[2], "*")) return { item: { kind: "star", qualifier: oracleName(part[0]) }, name: undefined }
  const last = part[part.length - 1]
  const before = part[part.length - 2]
  const aliased = part.length >= 2 && isName(last) && !isOp(before, ".") && (isKw(before, "AS") || (before !== undefined && (before.kind !== "op" || isOp(before, ")"))))
  const expression = aliased ? part.slice(0, isKw(before, "AS") ? -2 : -1) : part
  const name = aliased ? oracleName(last) : headingOf(part)
  const column = columnItem(part)
  if (column !== undefined && !(column.item.kind === "col" && column.item.column === "ROWID")) return column
  const k = isOp(expression[0], "-") || isOp(expression[0], "+") ? 1 : 0
  if (expression.length === k + 1 && expression[k]?.kind === "num" && !/[fFdD]$/.test(expression[k].text)) return { item: { kind: "typed", type: numberType() }, name }
  // CAST(x AS TIMESTAMP(p)): of that precision; a TIMESTAMP literal (of its kind) and TO_TIMESTAMP: 9
  const zoned = isKw(expression[0], "TIMESTAMP") && expression[1]?.kind === "str" && textDatetimeOfText(timestampLiteral(expression[1].value)) === "zoned"
  const fsp = timestampPrecisionAt(expression, 0, expression.length)
  if (fsp !== undefined) return { item: { kind: "typed", type: timestampType(fsp, zoned ? "tz" : "") }, name }
  const binary = binaryKindOf(expression, 0, expression.length, binaryColumns)
  const typing = binary !== undefined ? { binary } : {}
  if (isKw(expression[0], "COUNT", "SUM", "AVG") && isOp(expression[1], "(")) {
    let end = matchParen(expression, 1) + 1
    if (isKw(expression[end], "OVER") && isOp(expression[end + 1], "(")) end = matchParen(expression, end + 1) + 1
    if (end === expression.length) return { item: { kind: "aggregate", ...typing }, name }
  }
  return { item: { kind: "expr", ...typing, number: numberDescription(part) }, name }
}

/** The FROM items of a (sub)query from `at` (after FROM) to `end`: tables and, with their shapes, subqueries. */
export const fromRefs = (
  toks: ReadonlyArray<Tok>, at: number, end: number, binaryColumns: ReadonlyMap<string, BinaryKind> | undefined,
  /** The statement's WITH blocks by name (withBlockShapes): a table reference naming one is that block's query. */
  blocks: ReadonlyMap<string, SubqueryShape> = new Map()
): Array<FromRef> => {
  const out: Array<FromRef> = []
  let k = at
  const ref = () => {
    const r = fromItemAt(toks, k, binaryColumns)
    if (r === undefined) return
    const block = r.ref.schema === undefined && r.ref.query === undefined ? blocks.get(r.ref.table) : undefined
    // a query name is treated as an inline view (SQL Language Reference, SELECT, subquery_factoring_clause)
    const item = block === undefined ? r.ref : { table: "", alias: r.ref.alias ?? r.ref.table, query: block }
    const merged = joinMerging(toks, k, r.next)
    out.push(merged === undefined ? item : { ...item, merged })
    k = r.next
  }
  ref()
  for (let depth = 0; k < end; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && (isOp(toks[k], ",") || isKw(toks[k], "JOIN"))) {
      k++
      ref()
      k--
    } else if (depth === 0 && isKw(toks[k], "WHERE", "GROUP", "ORDER", "UNION", "MINUS", "INTERSECT")) break
  }
  return out
}

/** How the FROM item in tokens [at, next) is joined when its join merges common columns (FromRef `merged`). */
const joinMerging = (toks: ReadonlyArray<Tok>, at: number, next: number): FromRef["merged"] => {
  if (!isKw(toks[at - 1], "JOIN")) return undefined
  let k = at - 2
  while (isKw(toks[k], "INNER", "LEFT", "RIGHT", "FULL", "OUTER")) k--
  if (isKw(toks[k], "NATURAL")) return "natural"
  if (!isKw(toks[next], "USING") || !isOp(toks[next + 1], "(")) return undefined
  const close = matchParen(toks, next + 1)
  return close < 0 ? undefined : { using: toks.slice(next + 2, close).filter((t) => isName(t)).map((t) => oracleName(t)) }
}

/**
 * The FROM item at `at`: a table `[schema.]name [[AS] alias]` or a parenthesised subquery `(SELECT ...) [[AS] alias]`
 * with its shape, and the index after it; undefined when `at` starts neither.
 */
const fromItemAt = (toks: ReadonlyArray<Tok>, at: number, binaryColumns: ReadonlyMap<string, BinaryKind> | undefined): { ref: FromRef; next: number } | undefined => {
  let k: number
  let ref: { schema?: string; table: string; query?: SubqueryShape }
  if (isOp(toks[at], "(") && isKw(toks[at + 1], "SELECT")) {
    const close = matchParen(toks, at)
    const query = subqueryShape(toks, at + 1, close, binaryColumns)
    ref = { table: "", ...(query !== undefined ? { query } : {}) }
    k = close + 1
  } else if (isName(toks[at])) {
    const qualified = isOp(toks[at + 1], ".") && isName(toks[at + 2])
    ref = qualified ? { schema: oracleName(toks[at]!), table: oracleName(toks[at + 2]!) } : { table: oracleName(toks[at]!) }
    k = qualified ? at + 3 : at + 1
  } else return undefined
  if (isKw(toks[k], "AS")) k++
  const alias = toks[k]
  const named = isName(alias) && !(alias.kind === "ident" && NOT_TABLE_ALIAS.has(alias.value))
  return { ref: { ...ref, ...(named ? { alias: oracleName(alias) } : {}) }, next: named ? k + 1 : k }
}

/** The shape of the query `SELECT ... FROM ...` in tokens [at, end) (its first branch, for a set operation). */
const subqueryShape = (toks: ReadonlyArray<Tok>, at: number, end: number, binaryColumns: ReadonlyMap<string, BinaryKind> | undefined): SubqueryShape | undefined => {
  let start = at + 1
  if (isKw(toks[start], "DISTINCT", "UNIQUE", "ALL")) start++
  const fromAt = findTopLevel(toks, start, end, (t) => isKw(t, "FROM"))
  if (fromAt < 0) return undefined
  const items: Array<SelectItem> = []
  const names: Array<string | undefined> = []
  let itemStart = start
  for (let k = start; k <= fromAt; k++) {
    if (k < fromAt && !isOp(toks[k], ",")) {
      if (isOp(toks[k], "(")) k = matchParen(toks, k)
      continue
    }
    const { item, name } = itemOf(toks.slice(itemStart, k), binaryColumns)
    items.push(item)
    names.push(name)
    itemStart = k + 1
  }
  return { items, names, from: fromRefs(toks, fromAt + 1, end, binaryColumns) }
}

/**
 * The shapes of a statement's WITH blocks (`WITH name AS (SELECT ...), ...`) by name; a block with a column list
 * (`name (a, b) AS (...)`) has its items renamed by it (left out when recursive or when the list does not name each
 * item).
 */
export const withBlockShapes = (toks: ReadonlyArray<Tok>, binaryColumns: ReadonlyMap<string, BinaryKind> | undefined): Map<string, SubqueryShape> => {
  const out = new Map<string, SubqueryShape>()
  if (!isKw(toks[0], "WITH")) return out
  // WITH RECURSIVE: the hierarchical query rewrite's (hierarchical.ts), its anchor's shape
  let k = isKw(toks[1], "RECURSIVE") ? 2 : 1
  while (isName(toks[k])) {
    const listClose = isOp(toks[k + 1], "(") ? matchParen(toks, k + 1) : -1
    const n = listClose < 0 ? k + 1 : listClose + 1
    if (!isKw(toks[n], "AS") || !isOp(toks[n + 1], "(") || !isKw(toks[n + 2], "SELECT")) break
    const close = matchParen(toks, n + 1)
    const name = oracleName(toks[k]!)
    const list = listClose < 0 ? undefined : toks.slice(k + 2, listClose).filter((t) => !isOp(t, ",")).map(oracleName)
    const recursive = list !== undefined && toks.slice(n + 2, close).some((t) => isName(t) && oracleName(t) === name)
    const shape = recursive ? undefined : subqueryShape(toks, n + 2, close, binaryColumns)
    if (shape !== undefined && list === undefined) out.set(name, shape)
    else if (shape !== undefined && list!.length === shape.names.length && shape.items.every((i) => i.kind !== "star")) out.set(name, { ...shape, names: list! })
    if (!isOp(toks[close + 1], ",")) break
    k = close + 2
  }
  return out
}
