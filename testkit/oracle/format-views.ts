/**
 * Views whose query has a format model that is an expression (`CREATE VIEW v AS SELECT TO_CHAR(d, f) x FROM t`):
 * Oracle evaluates the model per row whenever the view is queried (SQL Language Reference, "TO_CHAR (datetime)":
 * "fmt ... can be a character expression"). The engine's view is written with the format values its query met when
 * it was created (format-model-sites.ts), so a client's query names the view's query instead, as an inline view
 * under the view's name or alias (`FROM v a` becomes `FROM (SELECT TO_CHAR(d, f) x FROM t) a`), and meets new
 * values as any query does.
 */
import type { TableMeta } from "./catalog.ts"
import { oracleName } from "./expression-names.ts"
import { hasFormatExpressions, MAY_HAVE_FORMAT } from "./format-model-sites.ts"
import { findTopLevel, isKw, isName, isOp, significant, splitTopLevel, type Tok, tokenize } from "./lexer.ts"
import { quoteDuck } from "./names.ts"


/** Words after a FROM item that are no alias. */
const NOT_ALIAS = new Set(["ON", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS", "NATURAL", "OUTER", "USING", "WHERE", "GROUP", "ORDER", "HAVING", "UNION", "INTERSECT", "MINUS", "EXCEPT", "CONNECT", "START", "FOR", "FETCH", "OFFSET", "PIVOT", "UNPIVOT", "SAMPLE", "AS", "PARTITION", "MODEL", "WINDOW", "QUALIFY", "LIMIT", "APPLY", "RETURNING", "LOG", "SET", "VALUES", "WHEN"])

/** The databases (any object standing for one) that have such a view: a query of another is not looked at. */
const withFormatViews = new WeakSet<object>()

/** Notes that database `db` has a view with a format expression. */
export const noteFormatView = (db: object): void => {
  withFormatViews.add(db)
}

/** Whether database `db` may have a view with a format expression. */
export const hasFormatViews = (db: object): boolean => withFormatViews.has(db)

/** Whether a view (its catalog entry) is one a query names by its query (see above). */
export const isFormatView = (meta: TableMeta | undefined): meta is TableMeta & { viewText: string } =>
  meta?.kind === "VIEW" && meta.viewText !== null && MAY_HAVE_FORMAT.test(meta.viewText) && hasFormatExpressions(tokenize(meta.viewText))

/** Per view (its catalog entry), the query a statement names in its place when it is not the view's text as written. */
const viewQueries = new WeakMap<TableMeta, string>()

/** Notes that a statement names view `meta` by `query` (its query with its items named: {@link namedViewQuery}). */
export const noteViewQuery = (meta: TableMeta, query: string): void => {
  viewQueries.set(meta, query)
}

/**
 * A view's query (`SELECT a, b x FROM t`) with its select items named `names` (the view's columns: `SELECT a AS "N1",
 * b AS "N2" FROM t`); undefined for a query this cannot name so (a WITH clause, a set operation, another number of
 * items, a `*` item unless `columns`, the query's own column names, are given and it has one: `SELECT t.*, f(x) FROM
 * t` as `SELECT t."A" AS "N1", t."B" AS "N2", f(x) AS "N3" FROM t`).
 */
export const namedViewQuery = (viewText: string, names: ReadonlyArray<string>, columns?: ReadonlyArray<string>): string | undefined => {
  const toks = significant(tokenize(viewText))
  if (!isKw(toks[0], "SELECT") || findTopLevel(toks, 1, toks.length, (t) => isKw(t, "UNION", "INTERSECT", "MINUS", "EXCEPT")) >= 0) return undefined
  const first = isKw(toks[1], "DISTINCT", "UNIQUE", "ALL") ? 2 : 1
  const fromAt = findTopLevel(toks, first, toks.length, (t) => isKw(t, "FROM"))
  if (fromAt < 0) return undefined
  const items = splitTopLevel(toks.slice(first, fromAt))
  if (items.some((item) => item.length === 0)) return undefined
  const stars = items.filter((item) => isOp(item[item.length - 1], "*"))
  // a `*` item stands for the query's columns the other items leave
  const span = stars.length === 1 && columns !== undefined && columns.length === names.length ? names.length - (items.length - 1) : items.length === names.length && stars.length === 0 ? 1 : -1
  if (span < 0) return undefined
  const text = (item: ReadonlyArray<Tok>) => viewText.slice(item[0]!.pos, item[item.length - 1]!.pos + item[item.length - 1]!.text.length)
  let n = 0
  const named = items.flatMap((item) => {
    if (isOp(item[item.length - 1], "*")) {
      const qualifier = item.length > 1 ? `${text(item.slice(0, -1))}` : ""
      return columns!.slice(n, n + span).map((c) => `${qualifier}${quoteDuck(c)} AS ${quoteDuck(names[n++]!)}`)
    }
    const last = item[item.length - 1]
    const prev = item[item.length - 2]
    // the item's own alias gives way to the view's column name
    const aliased = isName(last) && prev !== undefined && !isOp(prev, ".") && (isKw(prev, "AS") || prev.kind === "ident" || prev.kind === "qident" || isOp(prev, ")") || prev.kind === "str" || prev.kind === "num")
    const expr = aliased ? item.slice(0, isKw(prev, "AS") ? -2 : -1) : item
    return [`${text(expr)} AS ${quoteDuck(names[n++]!)}`]
  })
  return `${viewText.slice(0, toks[first]!.pos)}${named.join(", ")} ${viewText.slice(toks[fromAt]!.pos)}`
}

/** Finds a table or view by `[schema.]name`. */
type Lookup = (schema: string | undefined, name: string) => TableMeta | undefined

/** A FROM item of significant tokens `from..to` naming such a view, and the inline view standing for it. */
interface ViewEdit {
  readonly from: number
  readonly to: number
  readonly text: string
  /** The objects the view's query names. */
  readonly named: ReadonlyArray<TableMeta>
}

/**
 * `sql` (a client's query or DML statement) with each FROM item that names such a view replaced by its query; `sql` itself when there
 * is none. `lookup` finds a table or view by `[schema.]name`.
 */
export const expandFormatViews = (sql: string, lookup: Lookup): string => expandedFormatViews(sql, lookup).sql

/** {@link expandFormatViews}, with the objects the queries of the views named read (their owners' rights cover them). */
export const expandedFormatViews = (sql: string, lookup: Lookup): { readonly sql: string; readonly named: ReadonlyArray<TableMeta> } => {
  let text = sql
  const named: Array<TableMeta> = []
  // a view's query naming another such view: that one named by its query in turn
  for (let depth = 0; depth < DEPTH; depth++) {
    const toks = significant(tokenize(text))
    const edits = viewEdits(toks, lookup)
    if (edits.length === 0) break
    let out = ""
    let at = 0
    for (const e of edits) {
      out += `${text.slice(at, toks[e.from]!.pos)}${e.text}`
      at = toks[e.to]!.pos + toks[e.to]!.text.length
    }
    text = out + text.slice(at)
    named.push(...edits.flatMap((e) => e.named))
  }
  return { sql: text, named }
}

/**
 * The significant tokens `toks` (a PL/SQL block's query or DML statement) with each FROM item that names such a view
 * replaced by its query's tokens (placed where the item was), with the objects those queries name; undefined when
 * there is none.
 */
export const expandFormatViewTokens = (toks: ReadonlyArray<Tok>, lookup: Lookup): { readonly toks: ReadonlyArray<Tok>; readonly named: ReadonlyArray<TableMeta> } | undefined => {
  let sig = toks.filter((t) => t.kind !== "ws")
  const named: Array<TableMeta> = []
  let expanded = false
  for (let depth = 0; depth < DEPTH; depth++) {
    const edits = viewEdits(sig, lookup)
    if (edits.length === 0) break
    expanded = true
    const out: Array<Tok> = []
    let at = 0
    for (const e of edits) {
      out.push(...sig.slice(at, e.from), ...significant(tokenize(e.text)).map((t) => ({ ...t, pos: sig[e.from]!.pos })))
      at = e.to + 1
    }
    sig = [...out, ...sig.slice(at)]
    named.push(...edits.flatMap((e) => e.named))
  }
  return expanded ? { toks: sig, named } : undefined
}

/** A FROM item naming a table or view: the indices of its first name token, its name and its alias (if any). */
interface NamedItem {
  readonly first: number
  readonly nameAt: number
  readonly aliasAt: number | undefined
}

/** The FROM items of significant tokens `toks` that name a table or view (not a table function or remote object), in order. */
const namedItems = (toks: ReadonlyArray<Tok>): Array<NamedItem> => {
  // per parenthesis depth, whether its current clause is a FROM list
  const inFrom: Array<boolean> = [false]
  const items: Array<NamedItem> = []
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    if (isOp(t, "(")) inFrom.push(false)
    else if (isOp(t, ")")) inFrom.pop()
    else if (isKw(t, "FROM")) inFrom[inFrom.length - 1] = true
    else if (t.kind === "ident" && isKw(t, "WHERE", "GROUP", "ORDER", "HAVING", "UNION", "INTERSECT", "MINUS", "EXCEPT", "CONNECT", "START", "SELECT", "FETCH", "OFFSET")) inFrom[inFrom.length - 1] = false
    // (not the table a DELETE writes; a MERGE's USING source, not a join's USING column list)
    const item = (isKw(t, "FROM") && !isKw(toks[k - 1], "DELETE")) || isKw(t, "JOIN", "USING") || (isOp(t, ",") && inFrom[inFrom.length - 1] === true)
    if (!item || !isName(toks[k + 1])) continue
    const owned = isOp(toks[k + 2], ".") && isName(toks[k + 3])
    const nameAt = owned ? k + 3 : k + 1
    if (isOp(toks[nameAt + 1], "(") || isOp(toks[nameAt + 1], "@")) continue
    items.push({ first: k + 1, nameAt, aliasAt: isName(toks[nameAt + 1]) && !NOT_ALIAS.has(toks[nameAt + 1]!.value.toUpperCase()) ? nameAt + 1 : undefined })
  }
  return items
}

/**
 * A view's `query` with each FROM item naming a table or view of its owner `owner` without a schema qualified by it
 * (`FROM t` as `FROM "OWNER".t t`), as Oracle resolves the names of a view's query in its owner's schema, whoever
 * queries it (Database Concepts, "Overview of Views"); with the objects so named.
 */
const ownersQuery = (query: string, owner: string, lookup: Lookup): { readonly text: string; readonly named: ReadonlyArray<TableMeta> } => {
  const toks = significant(tokenize(query))
  // the names a WITH clause gives its subqueries are no tables
  const defined = new Set(toks.flatMap((t, k) => (isName(t) && isKw(toks[k + 1], "AS") && isOp(toks[k + 2], "(") ? [oracleName(t)] : [])))
  const named: Array<TableMeta> = []
  let text = ""
  let at = 0
  for (const item of namedItems(toks)) {
    const name = toks[item.nameAt]!
    const meta = item.first === item.nameAt ? (defined.has(oracleName(name)) ? undefined : lookup(owner, oracleName(name))) : lookup(oracleName(toks[item.first]!), oracleName(name))
    if (meta === undefined) continue
    named.push(meta)
    if (item.first !== item.nameAt) continue
    text += `${query.slice(at, name.pos)}${quoteDuck(owner)}.${name.text}${item.aliasAt === undefined ? ` ${name.text}` : ""}`
    at = name.pos + name.text.length
  }
  return { text: text + query.slice(at), named }
}

/** The FROM items of significant tokens `toks` that name such a view (see {@link expandFormatViews}), in order. */
const viewEdits = (toks: ReadonlyArray<Tok>, lookup: Lookup): Array<ViewEdit> =>
  namedItems(toks).flatMap((item) => {
    const meta = lookup(item.first === item.nameAt ? undefined : oracleName(toks[item.first]!), oracleName(toks[item.nameAt]!))
    const named = meta === undefined ? undefined : viewQueryOf(meta, lookup)
    if (named === undefined) return []
    const alias = toks[item.aliasAt ?? item.nameAt]!
    const query = ownersQuery(named, meta!.owner, lookup)
    return [{ from: item.first, to: item.aliasAt ?? item.nameAt, text: `(${query.text}) ${alias.text}`, named: query.named }]
  })

/** Views over views a statement names by their queries at most (a view cannot name itself, under it or not). */
const DEPTH = 8

/**
 * The query a statement names view `meta` by: a view with a format expression (its items named by its columns), or
 * a view whose query names one (its engine view would read the other's engine view); undefined for another, or one
 * whose items cannot be named so.
 */
const viewQueryOf = (meta: TableMeta, lookup: Lookup, depth = 0): string | undefined => {
  if (isFormatView(meta)) return viewQueries.get(meta) ?? namedViewQuery(meta.viewText, meta.columns.map((c) => c.name)) ?? meta.viewText
  if (meta.kind !== "VIEW" || meta.viewText === null || depth >= DEPTH) return undefined
  const toks = significant(tokenize(meta.viewText))
  const over = namedItems(toks).some((item) => {
    const under = lookup(item.first === item.nameAt ? meta.owner : oracleName(toks[item.first]!), oracleName(toks[item.nameAt]!))
    return under !== undefined && viewQueryOf(under, lookup, depth + 1) !== undefined
  })
  return over ? namedViewQuery(meta.viewText, meta.columns.map((c) => c.name)) : undefined
}
