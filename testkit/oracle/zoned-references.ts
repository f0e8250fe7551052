/**
 * Column references resolved to the text datetime kind of the column they name where Oracle resolves them, in their
 * own query block (timestamp-precisions.ts blockSelect), marked on their tokens. The translator knows TIMESTAMP WITH
 * TIME ZONE and TIMESTAMP(7-9) columns by name across the whole statement (session-columns.ts textDatetimeColumnsOf):
 * a plain TIMESTAMP column named like a zoned column of another table would be read as zoned text. A reference
 * resolved here to a column of another kind (`p.t` of a TIMESTAMP table beside a TIMESTAMP WITH TIME ZONE `t`, a
 * derived table's item of such a column) keeps its own type: `textDatetimeKindOf` gives undefined for it.
 * An unqualified name is the one FROM item of its block that has it, else of the enclosing blocks outward (SQL Language
 * Reference, "Using Subqueries": "Oracle resolves unqualified columns in the subquery by looking in the tables named
 * in the subquery and then in the tables named in the parent statement"); a qualified one the item of that alias or
 * table name. A name the marks cannot resolve (a FROM item of unknown columns, two items with it) keeps the by-name kind.
 */
import type { TableMeta } from "./catalog.ts"
import { oracleName } from "./expression-names.ts"
import { findTopLevel, isKw, isName, isOp, matchParen, type Tok } from "./lexer.ts"
import { blockSelect } from "./timestamp-precisions.ts"
import type { TextDatetimeKind } from "./translate-types.ts"
import type { OraType } from "./types.ts"

/** Resolves a table name as the session sees it. */
type TableLookup = (schema: string | undefined, name: string) => TableMeta | undefined

/** The kind each marked reference token resolved to: null for a column that is no text datetime. */
const resolved = new WeakMap<Tok, TextDatetimeKind | null>()

/**
 * The text datetime kind of the column reference whose last name is `tok`: as its query block resolves it when
 * marked, else `names`' kind of its name.
 */
export const textDatetimeKindOf = (tok: Tok, names: ReadonlyMap<string, TextDatetimeKind> | undefined): TextDatetimeKind | undefined => {
  if (resolved.has(tok)) return resolved.get(tok) ?? undefined
  return names?.get(oracleName(tok))
}

/** The text datetime kind a column of `type` is stored as (session-columns.ts textDatetimeColumnsOf), or null. */
const kindOfType = (type: OraType): TextDatetimeKind | null =>
  type.kind === "timestamptz" || (type.kind === "timestampltz" && type.duck === "VARCHAR") ? "zoned" : type.kind === "timestamp" && type.duck === "VARCHAR" ? "wall" : null


/** Words after a FROM item that are no alias of it. */
const NOT_ALIAS = new Set([
  "WHERE", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "OUTER", "ON", "GROUP", "ORDER", "UNION", "MINUS", "INTERSECT", "EXCEPT", "FETCH",
  "OFFSET", "HAVING", "CONNECT", "START", "NATURAL", "FOR", "USING", "PIVOT", "UNPIVOT", "SET", "VALUES", "SELECT", "WITH", "AS", "PARTITION",
  "MODEL", "WINDOW", "SAMPLE", "RETURNING", "LOG"
])

/** Words that end a query block's FROM clause. */
const FROM_END = ["WHERE", "GROUP", "HAVING", "ORDER", "CONNECT", "START", "UNION", "INTERSECT", "MINUS", "EXCEPT", "FETCH", "OFFSET", "MODEL", "WINDOW", "FOR"]

/** A FROM item: a table (its columns known), a derived table or WITH query (the SELECT at `select`), or one of unknown columns. */
type FromItem =
  | { readonly kind: "table"; readonly name: string; readonly alias?: string; readonly meta: TableMeta }
  | { readonly kind: "query"; readonly name?: string; readonly alias?: string; readonly select: number; readonly names?: ReadonlyArray<string> }
  | { readonly kind: "unknown"; readonly name?: string; readonly alias?: string }

/** The text datetime kinds of the column references of `toks` (significant tokens), resolved in their query blocks. */
const resolver = (toks: ReadonlyArray<Tok>, lookup: TableLookup, names: ReadonlyMap<string, TextDatetimeKind>, zonedValue?: (from: number, to: number) => boolean) => {
  /**
   * The SELECT of the WITH query named `name` (`name [(column, ...)] AS (SELECT ...)`) with the names of its column
   * list; -1 for one whose query is no plain SELECT, undefined for none.
   */
  const withQuery = (name: string): { readonly select: number; readonly names?: ReadonlyArray<string> } | undefined => {
    for (let k = 1; k < toks.length; k++) {
      const t = toks[k]!
      if (!isName(t) || oracleName(t) !== name || !(isKw(toks[k - 1], "WITH") || isOp(toks[k - 1], ","))) continue
      const list = isOp(toks[k + 1], "(") ? matchParen(toks, k + 1) : -1
      const as = list < 0 ? k + 1 : list + 1
      if (!isKw(toks[as], "AS") || !isOp(toks[as + 1], "(")) continue
      const select = isKw(toks[as + 2], "SELECT") ? as + 2 : -1
      return list < 0 ? { select } : { select, names: toks.slice(k + 2, list).filter((x) => !isOp(x, ",")).map(oracleName) }
    }
    return undefined
  }
  const blockItems = new Map<number, Array<FromItem>>()
  /** The FROM items of the query block whose SELECT is at `select`. */
  const itemsOf = (select: number): Array<FromItem> => {
    const known = blockItems.get(select)
    if (known !== undefined) return known
    const out: Array<FromItem> = []
    blockItems.set(select, out)
    let k = select + 1
    for (; k < toks.length; k++) {
      if (isOp(toks[k], "(")) {
        k = matchParen(toks, k)
        if (k < 0) return out
      } else if (isOp(toks[k], ")") || isKw(toks[k], "UNION", "INTERSECT", "MINUS", "EXCEPT")) return out
      else if (isKw(toks[k], "FROM")) break
    }
    let item = true
    for (k++; k > 0 && k < toks.length; k++) {
      const t = toks[k]!
      if (isOp(t, ")") || isKw(t, ...FROM_END)) break
      if (isOp(t, ",") || isKw(t, "JOIN")) item = true
      else if (isKw(t, "ON", "USING")) item = false
      else if (isOp(t, "(")) {
        const close = matchParen(toks, k)
        if (item) {
          const alias = isKw(toks[close + 1], "AS") ? toks[close + 2] : toks[close + 1]
          const named = isName(alias) && !NOT_ALIAS.has(alias.value) ? { alias: oracleName(alias) } : {}
          out.push(isKw(toks[k + 1], "SELECT") ? { kind: "query", select: k + 1, ...named } : { kind: "unknown", ...named })
          item = false
        }
        if (close < 0) break
        k = close
      } else if (item && isName(t)) {
        const dotted = isOp(toks[k + 1], ".") && isName(toks[k + 2])
        const last = dotted ? toks[k + 2]! : t
        const after = dotted ? k + 3 : k + 1
        const aliasAt = isKw(toks[after], "AS") ? after + 1 : after
        const alias = isName(toks[aliasAt]) && !NOT_ALIAS.has(toks[aliasAt]!.value) ? { alias: oracleName(toks[aliasAt]!) } : {}
        const name = oracleName(last)
        const query = dotted ? undefined : withQuery(name)
        const meta = query === undefined && !isOp(toks[after], "(") ? lookup(dotted ? oracleName(t) : undefined, name) : undefined
        out.push(query !== undefined && query.select >= 0 ? { kind: "query", name, ...query, ...alias } : query !== undefined ? { kind: "unknown", name, ...alias } : meta !== undefined ? { kind: "table", name, meta, ...alias } : { kind: "unknown", name, ...alias })
        k = after - 1
        item = false
      }
    }
    return out
  }
  /**
   * The select item of the query at `select` named `name` (by its alias or column, or by its place in `names`, a WITH
   * query's column list): [from, to) of its expression, or undefined.
   */
  const selectItem = (select: number, name: string, names?: ReadonlyArray<string>): [number, number] | "unknown" | undefined => {
    const place = names?.indexOf(name) ?? -1
    if (names !== undefined && place < 0) return undefined
    const start = isKw(toks[select + 1], "DISTINCT", "UNIQUE", "ALL") ? select + 2 : select + 1
    const fromAt = findTopLevel(toks, start, toks.length, (t) => isKw(t, "FROM"))
    if (fromAt < 0) return "unknown"
    for (let k = start, n = 0; k < fromAt; n++) {
      const comma = findTopLevel(toks, k, fromAt, (t) => isOp(t, ","))
      const end = comma < 0 ? fromAt : comma
      const last = toks[end - 1]
      if (isOp(last, "*")) return "unknown"
      const prev = toks[end - 2]
      const aliased = end - k >= 2 && isName(last) && !isOp(prev, ".") && (isKw(prev, "AS") || isName(prev) || isOp(prev, ")"))
      if (names !== undefined) {
        if (n === place) return aliased && !isKw(last, "END", "LOCAL") ? [k, isKw(prev, "AS") ? end - 2 : end - 1] : [k, end]
      } else if (aliased && !isKw(last, "END", "LOCAL")) {
        if (oracleName(last) === name) return [k, isKw(prev, "AS") ? end - 2 : end - 1]
      } else if (isName(last) && oracleName(last) === name) return [k, end]
      k = end + 1
    }
    return undefined
  }
  const memo = new Map<number, TextDatetimeKind | null | undefined>()
  /** The kind of item `name` of FROM item `item`: null when it is no text datetime, undefined when unknown. */
  const itemKind = (item: FromItem, name: string): TextDatetimeKind | null | undefined => {
    if (item.kind === "table") {
      const column = item.meta.columns.find((c) => c.name === name)
      return column === undefined ? undefined : kindOfType(column.type)
    }
    if (item.kind === "unknown") return undefined
    const expr = selectItem(item.select, name, item.names)
    if (expr === undefined || expr === "unknown") return undefined
    // a (qualified) column reference as the whole item
    let reference = isName(toks[expr[1] - 1]) && !isOp(toks[expr[1]], "(")
    for (let k = expr[0]; k < expr[1] - 1; k += 2) if (!isName(toks[k]) || !isOp(toks[k + 1], ".")) reference = false
    if (reference) return kindAt(expr[1] - 1)
    return zonedValue === undefined ? undefined : expressionKind(expr[0], expr[1], zonedValue)
  }
  /**
   * The kind of the expression [from, to): zoned by its form (zoned-aliases.ts isZonedValue, its references resolved
   * and marked first), null when every reference in it names a column that is no text datetime and it has no literal
   * or bind that may be one, else undefined.
   */
  const expressionKind = (from: number, to: number, zonedValue: (from: number, to: number) => boolean): TextDatetimeKind | null | undefined => {
    let plain = true
    for (let k = from; k < to; k++) {
      const t = toks[k]!
      if (t.kind === "bind" || isKw(t, "TIMESTAMP")) plain = false
      if (!isName(t) || isOp(toks[k + 1], "(") || isOp(toks[k + 1], ".") || !names.has(oracleName(t))) continue
      const kind = kindAt(k)
      if (kind !== undefined && !resolved.has(t)) resolved.set(t, kind)
      if (kind !== null) plain = false
    }
    return zonedValue(from, to) ? "zoned" : plain ? null : undefined
  }
  /** Whether FROM item `item` has a column or item `name`: undefined when its columns are unknown. */
  const hasColumn = (item: FromItem, name: string): boolean | undefined => {
    if (item.kind === "table") return item.meta.columns.some((c) => c.name === name)
    if (item.kind === "unknown") return undefined
    const expr = selectItem(item.select, name, item.names)
    return expr === "unknown" ? undefined : expr !== undefined
  }
  /** The kind of the column reference whose last name is at `at`: null when no text datetime, undefined when unresolved. */
  const kindAt = (at: number): TextDatetimeKind | null | undefined => {
    if (memo.has(at)) return memo.get(at)
    memo.set(at, undefined)
    const name = oracleName(toks[at]!)
    const qualifier = isOp(toks[at - 1], ".") && isName(toks[at - 2]) ? oracleName(toks[at - 2]!) : undefined
    let kind: TextDatetimeKind | null | undefined
    for (let select = blockSelect(toks, at); select >= 0; select = blockSelect(toks, select)) {
      const items = itemsOf(select)
      if (qualifier !== undefined) {
        const item = items.find((i) => i.alias === qualifier || (i.alias === undefined && i.name === qualifier))
        if (item === undefined) continue
        kind = itemKind(item, name)
        break
      }
      const having = items.map((i) => hasColumn(i, name))
      if (having.includes(undefined)) break
      const found = items.filter((_, n) => having[n] === true)
      if (found.length > 1) break
      if (found.length === 1) {
        kind = itemKind(found[0]!, name)
        break
      }
    }
    memo.set(at, kind)
    return kind
  }
  return kindAt
}

/**
 * Marks each column reference of `toks` (a statement's significant tokens) whose name `names` knows as a text
 * datetime and that resolves in its query block to a column of another kind (or to a text datetime of the other
 * kind), where a table the statement names has such a column: read by {@link textDatetimeKindOf}. `zonedValue`
 * tells whether tokens [from, to) are a zoned value by their form (zoned-aliases.ts isZonedValue): with it a derived
 * table's item that is an expression (`MAX(t) t`) is resolved too.
 */
export const markTextDatetimeReferences = (toks: ReadonlyArray<Tok>, lookup: TableLookup, names: ReadonlyMap<string, TextDatetimeKind>, zonedValue?: (from: number, to: number) => boolean): void => {
  if (names.size === 0) return
  // the names some table of the statement has as a column of another kind than `names` says
  const contested = new Set<string>()
  toks.forEach((t, k) => {
    if (!isName(t) || isOp(toks[k + 1], "(")) return
    const meta = isOp(toks[k - 1], ".") ? (isName(toks[k - 2]) ? lookup(oracleName(toks[k - 2]!), oracleName(t)) : undefined) : lookup(undefined, oracleName(t))
    for (const c of meta?.columns ?? []) if (names.has(c.name) && kindOfType(c.type) !== names.get(c.name)) contested.add(c.name)
  })
  if (contested.size === 0) return
  const kindAt = resolver(toks, lookup, names, zonedValue)
  toks.forEach((t, k) => {
    if (!isName(t) || !contested.has(oracleName(t)) || isOp(toks[k + 1], "(") || isOp(toks[k + 1], ".") || resolved.has(t)) return
    const kind = kindAt(k)
    if (kind !== undefined) resolved.set(t, kind)
  })
}
