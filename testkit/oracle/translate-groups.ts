/**
 * Zoned values grouped, made DISTINCT and combined by set operations by instant (datetime-groups.ts), as Oracle
 * compares TIMESTAMP WITH TIME ZONE values, in subqueries, windows and the top-level query; and the ORDER BY of a set
 * operation over exact NUMBER or text datetime columns.
 */
import { findTopLevel, isKw, isOp, matchParen, type Tok } from "./lexer.ts"
import { oracleName } from "./expression-names.ts"
import { instantGrouping, instantSetOperations, type SetBranch } from "./datetime-groups.ts"
import { distinctItems, identOut, NOT_ALIAS, selectItemName } from "./translate-literals.ts"
import { asTextDatetime, datetimeArgument, textDatetimeExtreme, textDatetimeOfText } from "./translate-datetime-sql.ts"
import type { TranslatorCore } from "./translate-core.ts"
import type { TextDatetimeKind } from "./translate-types.ts"
import { textDatetimeKindOf } from "./zoned-references.ts"

/**
 * A zoned expression that groups by instant (datetime-groups.ts `expressionKeys`): tokens [from, to) as a GROUP BY
 * item, COUNT(DISTINCT ...) operand or PARTITION BY item by its instant key, and as an occurrence of a grouped one
 * in the select list, HAVING or ORDER BY (optionally with an alias) as the group's least value by instant, its own
 * zone kept. Undefined for other ranges and for expressions whose value is not zoned (TRUNC, EXTRACT, ...).
 */
export function groupedExpression(tr: TranslatorCore, from: number, to: number): string | undefined {
  const columns = tr.ctx.textDatetimeColumns
  if (columns === undefined || columns.size === 0 || tr.groupedRendering.has(from)) return undefined
  tr.instantGrouping ??= instantGrouping(tr.toks, (name) => textDatetimeKindOf(name, columns) === "zoned")
  const { expressionKeys, expressionRepresentatives } = tr.instantGrouping
  const alias = tr.toks[to - 1]
  const aliased = expressionRepresentatives.get(from) === to - 1 && (alias?.kind === "ident" || alias?.kind === "qident") && !NOT_ALIAS.has(alias.value)
  const key = expressionKeys.get(from) === to
  if (!key && !aliased && expressionRepresentatives.get(from) !== to) return undefined
  const end = aliased ? to - 1 : to
  tr.groupedRendering.add(from)
  let text: string
  try {
    text = tr.range(from, end)
  } finally {
    tr.groupedRendering.delete(from)
  }
  if ((tr.textDatetimeAt(from, end) ?? textDatetimeOfText(text)) !== "zoned") return undefined
  if (key) return `ora_tstz_key(${datetimeArgument(text, "zoned")})`
  const least = textDatetimeExtreme("MIN", text, "zoned")
  // grouped in ROLLUP / CUBE / GROUPING SETS: NULL in the rows that roll it up
  const rolled = tr.instantGrouping.expressionRolledKeys.get(from)
  const value = rolled === undefined ? least : `CASE WHEN grouping(${tr.range(rolled[0], rolled[1])}) = 1 THEN NULL ELSE ${least} END`
  return aliased ? `${value} ${identOut(alias!)}` : value
}

/**
 * A zoned column reference starting at `i` that groups by instant (datetime-groups.ts): a GROUP BY item or COUNT
 * (DISTINCT ...) operand as its instant key, a grouped reference outside aggregates as its group's least value by
 * instant (arg_min: one of the group's values, as DuckDB picks among equal instants), with the index after it.
 */
export function groupedByInstant(tr: TranslatorCore, i: number): [string, number] | undefined {
  const columns = tr.ctx.textDatetimeColumns
  if (columns === undefined || columns.size === 0) return undefined
  tr.instantGrouping ??= instantGrouping(tr.toks, (name) => textDatetimeKindOf(name, columns) === "zoned")
  const reference = (end: number) => tr.toks.slice(i, end).map((t) => (t.kind === "op" ? t.value : identOut(t))).join("")
  const keyEnd = tr.instantGrouping.keys.get(i)
  if (keyEnd !== undefined) return [`ora_tstz_key(${datetimeArgument(reference(keyEnd), "zoned")})`, keyEnd]
  const representative = tr.instantGrouping.representatives.get(i)
  if (representative === undefined) return undefined
  const least = textDatetimeExtreme("MIN", reference(representative.end), "zoned")
  const rolled = representative.rolledKey
  const keyText = (from: number, to: number) => `ora_tstz_key(${datetimeArgument(tr.toks.slice(from, to).map((t) => (t.kind === "op" ? t.value : identOut(t))).join(""), "zoned")})`
  const text = rolled === undefined ? least : `CASE WHEN grouping(${keyText(rolled[0], rolled[1])}) = 1 THEN NULL ELSE ${least} END`
  return [representative.item ? `${text} AS ${identOut(tr.toks[representative.end - 1]!)}` : text, representative.end]
}

/**
 * `SELECT DISTINCT` of a subquery whose select list has a zoned column: `DISTINCT ON (...)` with that column's instant
 * key, so that one instant in several zones is one row (the top-level query's DISTINCT is translateQuery's); other
 * items are their own keys. Undefined without a zoned item, or with a bind among the items.
 */
export function subqueryDistinctByInstant(tr: TranslatorCore, i: number): [string, number] | undefined {
  const toks = tr.toks
  if (!isKw(toks[i], "DISTINCT", "UNIQUE") || !isKw(toks[i - 1], "SELECT") || !isOp(toks[i - 2], "(")) return undefined
  const items = distinctItems(toks, i + 1)
  if (items === undefined) return undefined
  const keys: Array<string> = []
  let zoned = false
  // every item is rendered once more for its key: not with binds, which count their renderings
  if (items.some(([from, to]) => toks.slice(from, to).some((t) => t.kind === "bind"))) return undefined
  for (const [from, to] of items) {
    const text = tr.range(from, to)
    const kind = tr.textDatetimeAt(from, to) ?? textDatetimeOfText(text)
    zoned ||= kind === "zoned"
    // a constant is the same in every row (and DuckDB refuses it as a key)
    if (to === from + 1 && (toks[from]!.kind === "str" || toks[from]!.kind === "num" || isKw(toks[from], "NULL"))) continue
    keys.push(kind === "zoned" ? `ora_tstz_key(${datetimeArgument(text, "zoned")})` : text)
  }
  return zoned ? [`DISTINCT ON (${keys.join(", ")})`, i + 1] : undefined
}

/**
 * A parenthesised query with UNION / INTERSECT / MINUS whose first select list has a zoned column, compared by
 * instant as at the top level (setOperationByInstant); undefined for others.
 */
export function subquerySetOperationByInstant(tr: TranslatorCore, i: number): [string, number] | undefined {
  const toks = tr.toks
  if (!isOp(toks[i], "(") || !isKw(toks[i + 1], "SELECT")) return undefined
  const close = matchParen(toks, i)
  if (findTopLevel(toks, i + 1, close, (t) => isKw(t, "UNION", "INTERSECT", "MINUS", "EXCEPT")) < 0) return undefined
  const listStart = isKw(toks[i + 2], "DISTINCT", "UNIQUE", "ALL") ? i + 3 : i + 2
  const fromAt = findTopLevel(toks, listStart, close, (t) => isKw(t, "FROM"))
  const items = distinctItems(toks, listStart)
  if (fromAt < 0 || items === undefined) return undefined
  const pieces = items.map(([from, to]) => tr.range(from, to))
  // ORDER BY a position or name of a text datetime item: by the result column's instant or wall clock
  const datetimes = new Map<string, { kind: TextDatetimeKind; output: string }>()
  for (const [k, item] of items.entries()) {
    const kind = tr.textDatetimeAt(item[0], item[1]) ?? textDatetimeOfText(pieces[k]!)
    const name = selectItemName(toks, item, tr.columnNameAt(item[0], item[1]) !== undefined)
    if (kind === undefined || name === undefined) continue
    datetimes.set(String(k + 1), { kind, output: identOut(name) }).set(name.value, { kind, output: identOut(name) })
  }
  const combined = setOperationByInstant(toks, tr, items, pieces, fromAt, close, (at) => exactSetOrder(toks, tr, at, close, new Map(), datetimes)?.order)
  return combined === undefined ? undefined : [`(${combined(tr.range(i + 1, fromAt))})`, close + 1]
}

/**
 * `f(zoned, ...) OVER (...)` of a window function returning its argument's values (LAG, LEAD, FIRST_VALUE,
 * LAST_VALUE, NTH_VALUE) as a zoned value, so that it is described as TIMESTAMP WITH TIME ZONE; MIN / MAX OVER by
 * instant (the value with the least / greatest instant, its zone kept). Undefined for other calls.
 */
export function zonedWindowCall(tr: TranslatorCore, at: number, text: string, window: string): string | undefined {
  const toks = tr.toks
  const name = toks[at]!.value
  if (toks[at]!.kind !== "ident" || !isOp(toks[at + 1], "(") || !["LAG", "LEAD", "FIRST_VALUE", "LAST_VALUE", "NTH_VALUE", "MIN", "MAX"].includes(name)) return undefined
  const first = tr.args(at + 1).parts[0]
  if (first === undefined || toks.slice(first[0], first[1]).some((t) => t.kind === "bind")) return undefined
  // `FIRST_VALUE(t IGNORE NULLS)`: the operand before the nulls clause
  const end = isKw(toks[first[1] - 1], "NULLS") && isKw(toks[first[1] - 2], "IGNORE", "RESPECT") ? first[1] - 2 : first[1]
  const operand = tr.range(first[0], end)
  // (a TIMESTAMP(7-9) too, by its wall clock)
  const kind = tr.textDatetimeAt(first[0], end) ?? textDatetimeOfText(operand)
  if (kind === undefined) return undefined
  if (name === "MIN" || name === "MAX")
    return asTextDatetime(`${name === "MIN" ? "arg_min" : "arg_max"}(CAST(${operand} AS VARCHAR), ora_tstz_key(${datetimeArgument(operand, kind)})) ${window}`, kind)
  return asTextDatetime(`${text} ${window}`, kind)
}


/**
 * The ORDER BY of a set operation (UNION / MINUS / INTERSECT) that names exact NUMBER columns of the result by
 * position or name, ordered by their numbers: DuckDB orders a set operation's result only by plain columns, so the
 * set operation (`query`, from its first FROM up to the ORDER BY) becomes a subquery the `order` clause sorts.
 * Undefined when the ORDER BY names no such column.
 */
export const exactSetOrder = (
  toks: ReadonlyArray<Tok>,
  tr: TranslatorCore,
  fromAt: number,
  end: number,
  outputs: ReadonlyMap<string, string>,
  /** Text datetime items by position and name: ordered by their result column's instant or wall clock. */
  datetimes: ReadonlyMap<string, { readonly kind: TextDatetimeKind; readonly output: string }> = new Map()
): { readonly query: string; readonly order: string } | undefined => {
  let orderAt = -1
  let depth = 0
  for (let k = fromAt; k < end; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isKw(toks[k], "ORDER") && isKw(toks[k + 1], "BY")) orderAt = k
  }
  if (orderAt < 0 || (outputs.size === 0 && datetimes.size === 0)) return undefined
  let itemsEnd = end
  depth = 0
  for (let k = orderAt + 2; k < end; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isKw(toks[k], "FETCH", "OFFSET")) {
      itemsEnd = k
      break
    }
  }
  const items: Array<string> = []
  let exact = false
  let start = orderAt + 2
  for (let k = orderAt + 2; k <= itemsEnd; k++) {
    if (k < itemsEnd && !isOp(toks[k], ",")) {
      if (isOp(toks[k], "(")) k = matchParen(toks, k)
      continue
    }
    const ref = toks[start]
    const named = ref !== undefined && (ref.kind === "num" || ref.kind === "ident" || ref.kind === "qident")
    const refKey = ref === undefined ? "" : ref.kind === "num" ? ref.value : oracleName(ref)
    const output = named ? outputs.get(refKey) : undefined
    const datetime = named && (ref.kind === "num" || ref.kind === "ident") ? datetimes.get(ref.value) : undefined
    const tail = start + 1 < k ? ` ${tr.range(start + 1, k)}` : ""
    if (output !== undefined) {
      exact = true
      items.push(`ora_number_key(CAST(${output} AS VARCHAR))${tail}`)
    } else if (datetime !== undefined) {
      exact = true
      items.push(`ora_tstz_key(${datetimeArgument(datetime.output, datetime.kind)})${tail}`)
    } else items.push(tr.range(start, k))
    start = k + 1
  }
  if (!exact) return undefined
  return { query: tr.range(fromAt, orderAt), order: `ORDER BY ${items.join(", ")}${itemsEnd < end ? ` ${tr.range(itemsEnd, end)}` : ""}` }
}

/**
 * A top-level chain of UNION / INTERSECT / MINUS whose select list has a TIMESTAMP WITH TIME ZONE item, compared by
 * instant (datetime-groups.ts instantSetOperations): the SQL given the first branch's rendered select list; undefined
 * when no item is zoned. A trailing ORDER BY / FETCH / OFFSET applies to the whole result.
 */
export const setOperationByInstant = (
  toks: ReadonlyArray<Tok>, tr: TranslatorCore, itemRanges: ReadonlyArray<[number, number]>, pieces: ReadonlyArray<string>, fromAt: number, end: number,
  /** The trailing ORDER BY starting at a token, ordering the result's columns by their keys (exactSetOrder). */
  orderOf: (from: number) => string | undefined = () => undefined
): ((selectList: string) => string) | undefined => {
  const kinds = itemRanges.map(([from, to], k) => tr.textDatetimeAt(from, to) ?? tr.textDatetimeAt(from, to - 1) ?? tr.textDatetimeAt(from, to - 2) ?? textDatetimeOfText(pieces[k] ?? ""))
  if (!kinds.includes("zoned") || pieces.some((p) => /\*\s*$/.test(p))) return undefined
  const operators: Array<{ at: number; op: SetBranch["op"]; next: number }> = []
  let trailing = end
  let depth = 0
  for (let k = fromAt; k < end; k++) {
    if (isOp(toks[k], "(")) depth++
    else if (isOp(toks[k], ")")) depth--
    else if (depth === 0 && isKw(toks[k], "UNION", "INTERSECT", "MINUS", "EXCEPT")) {
      const all = isKw(toks[k], "UNION") && isKw(toks[k + 1], "ALL")
      operators.push({ at: k, op: all ? "UNION ALL" : isKw(toks[k], "UNION") ? "UNION" : isKw(toks[k], "INTERSECT") ? "INTERSECT" : "MINUS", next: all ? k + 2 : k + 1 })
      trailing = end
    } else if (depth === 0 && operators.length > 0 && trailing === end && ((isKw(toks[k], "ORDER") && isKw(toks[k + 1], "BY")) || isKw(toks[k], "FETCH", "OFFSET"))) trailing = k
  }
  if (operators.length === 0) return undefined
  const branches = operators.map((o, n) => ({ op: o.op, sql: tr.range(o.next, n + 1 < operators.length ? operators[n + 1]!.at : trailing) }))
  const keys = kinds.map((kind, k) => (kind === "zoned" ? `ora_tstz_key(${datetimeArgument(`#${k + 1}`, "zoned")})` : `#${k + 1}`))
  const rest = trailing < end ? ` ${orderOf(trailing) ?? tr.range(trailing, end)}` : ""
  return (selectList) => {
    const combined = instantSetOperations(`${selectList} ${tr.range(fromAt, operators[0]!.at)}`, branches, keys)
    return rest === "" ? combined : `SELECT * FROM (${combined})${rest}`
  }
}
