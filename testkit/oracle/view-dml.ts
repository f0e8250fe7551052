/**
 * INSERT, UPDATE, DELETE and MERGE into a simple view write its base table, as Oracle does for an updatable view
 * (SQL Language Reference, "CREATE VIEW", "Notes on Updatable Views": "An updatable view is one you can use to
 * insert, update, or delete base table rows"; not updatable when its query contains a set operator, DISTINCT, an
 * aggregate or analytic function, GROUP BY, ORDER BY, MODEL, CONNECT BY or START WITH, a subquery in the select list,
 * or joins). Taken here: a view whose query reads one table or view with plain or renamed columns, expression
 * columns and an optional WHERE (a view over a view is written through the view under it), and join views
 * (join-view-dml.ts). The statement is rewritten onto the base table: the view's columns become
 * the base columns they are (an expression column read in a condition becomes its expression), UPDATE and DELETE keep
 * to the view's rows (its WHERE is added to theirs), and an INSERT without a column list names the base columns.
 *
 * Refused as Oracle refuses them (Database Error Messages): DML on a view created WITH READ ONLY ORA-42399 "cannot
 * perform a DML operation on a read-only view"; on a view that is not updatable (DISTINCT, GROUP BY, HAVING,
 * aggregates, analytic functions, set operators, ORDER BY, CONNECT BY, ROWNUM, row limiting) ORA-01732 "data
 * manipulation operation not legal on this view"; writing an expression column ORA-01733 "virtual column not allowed
 * here"; a row an INSERT or UPDATE through a view WITH CHECK OPTION leaves outside the view ORA-01402 "view WITH
 * CHECK OPTION where-clause violation". MERGE into a view with a WHERE matches only the view's rows (its condition is
 * added to the ON clause).
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { ora, OraError } from "./errors.ts"
import { oracleName } from "./expression-names.ts"
import { findTopLevel, isKw, isName, isOp, matchParen, significant, splitTopLevel, type Tok, tokenize } from "./lexer.ts"
import type { TableMeta } from "./catalog.ts"
import { type JoinView, joinView, mergeIntoJoinView, writeThroughJoinView } from "./join-view-dml.ts"
import { checkViewColumnNames } from "./view-column-names.ts"
import { type ErrorLogged, errorLogged, runErrorLogged } from "./dml-error-logging.ts"
import { type LoggedStatement, loggedStatement } from "./error-logged-statements.ts"
import { stripTerminator, type BindSpec, type ExecuteOptions, type StatementResult } from "./statement.ts"
import { quoteDuck } from "./names.ts"

/** How a view was created: WITH READ ONLY, WITH CHECK OPTION. */
export interface ViewOptions {
  readonly readOnly: boolean
  readonly checkOption: boolean
}

const options = new WeakMap<object, Map<string, ViewOptions>>()

/** The WITH READ ONLY / WITH CHECK OPTION of database `db`'s views, by `OWNER.NAME`. */
export const viewOptionsOf = (db: object): Map<string, ViewOptions> => {
  let m = options.get(db)
  if (m === undefined) options.set(db, (m = new Map()))
  return m
}

/** CREATE VIEW's query `text` without a trailing WITH READ ONLY / WITH CHECK OPTION, and which of them it had. */
export const viewClauses = (text: string): { readonly query: string; readonly options: ViewOptions } => {
  const m = /\s+WITH\s+(READ\s+ONLY|CHECK\s+OPTION)(?:\s+CONSTRAINT\s+\S+)?\s*$/i.exec(text)
  if (m === null) return { query: text, options: { readOnly: false, checkOption: false } }
  return { query: text.slice(0, m.index), options: { readOnly: /^READ/i.test(m[1]!), checkOption: /^CHECK/i.test(m[1]!) } }
}

type Lookup = (schema: string | undefined, name: string) => TableMeta | undefined

/** A view column: the base column it is, or the expression (Oracle text) it computes. */
type ViewColumn = { readonly base: string } | { readonly expr: string }

interface SimpleView {
  readonly base: TableMeta
  readonly columns: ReadonlyMap<string, ViewColumn>
  /** The view's columns in order. */
  readonly order: ReadonlyArray<string>
  /** The view's WHERE condition with the base table's qualifiers removed, if any. */
  readonly where: string | undefined
  /** The view's WHERE condition with its base table's columns qualified by `q` (a quoted name), if any. */
  readonly whereQualified: ((q: string) => string) | undefined
}

const NOT_UPDATABLE = () => new OraError(1732, "data manipulation operation not legal on this view")
const VIRTUAL_COLUMN = () => new OraError(1733, "virtual column not allowed here")

const AGGREGATES = new Set(["COUNT", "SUM", "AVG", "MIN", "MAX", "STDDEV", "VARIANCE", "LISTAGG", "MEDIAN", "COLLECT", "XMLAGG", "JSON_ARRAYAGG", "JSON_OBJECTAGG", "STATS_MODE", "RANK", "DENSE_RANK", "ROW_NUMBER"])
const CLAUSES_AFTER_FROM = ["GROUP", "HAVING", "CONNECT", "START", "UNION", "INTERSECT", "MINUS", "EXCEPT", "ORDER", "MODEL", "FETCH", "OFFSET"]

/** The view `meta` as a simple view over one table or a join view; throws Oracle's error (or ORA-03001) for one that is neither. */
const simpleView = (meta: TableMeta, lookup: Lookup): SimpleView | JoinView => {
  const text = meta.viewText ?? ""
  const toks = significant(tokenize(text))
  const unimplemented = (what: string) => ora.unimplemented(`DML through ${what}`)
  if (!isKw(toks[0], "SELECT")) throw unimplemented("a view whose query is no plain SELECT")
  if (isKw(toks[1], "DISTINCT", "UNIQUE")) throw NOT_UPDATABLE()
  if (toks.some((t) => isKw(t, "ROWNUM", "OVER"))) throw NOT_UPDATABLE()
  const from = findTopLevel(toks, 1, toks.length, (t) => isKw(t, "FROM"))
  if (from < 0) throw unimplemented("a view without FROM")
  if (findTopLevel(toks, from + 1, toks.length, (t) => isKw(t, ...CLAUSES_AFTER_FROM)) >= 0) throw NOT_UPDATABLE()
  const items = splitTopLevel(toks.slice(1, from))
  for (const item of items)
    for (let k = 0; k < item.length; k++) {
      if (isName(item[k]) && AGGREGATES.has(item[k]!.value) && isOp(item[k + 1], "(")) throw NOT_UPDATABLE()
      if (isOp(item[k], "(") && isKw(item[k + 1], "SELECT", "WITH")) throw NOT_UPDATABLE()
    }
  const whereAt = findTopLevel(toks, from + 1, toks.length, (t) => isKw(t, "WHERE"))
  const source = toks.slice(from + 1, whereAt < 0 ? toks.length : whereAt)
  const join = joinView(meta, toks, from, whereAt, lookup, (t) => keysOf(t, lookup))
  if (join !== undefined) return join
  if (source.some((t) => isOp(t, "("))) throw unimplemented("a view over a subquery")
  const qualified = isOp(source[1], ".")
  const [schema, name] = qualified ? [oracleName(source[0]!), oracleName(source[2]!)] : [undefined, oracleName(source[0]!)]
  const rest = source.slice(qualified ? 3 : 1)
  const alias = rest.length === 0 ? undefined : oracleName(rest[rest.length - 1]!)
  const base = lookup(schema, name)
  if (base === undefined) throw unimplemented("a view whose table is gone")
  // a view over a view: written through the view under it, whose own rules apply when the statement reaches it
  if (base.kind !== "TABLE" && base.kind !== "VIEW") throw unimplemented("a view over this kind of object")
  const qualifiers = new Set([base.name, ...(alias === undefined ? [] : [alias])])
  // the view's columns in order: `*` (or `q.*`) stands for the base table's
  const defined: Array<ViewColumn> = []
  for (const item of items) {
    const last = item[item.length - 1]!
    if (isOp(last, "*") && (item.length === 1 || (item.length === 3 && isOp(item[1], ".")))) {
      for (const c of base.columns) defined.push({ base: c.name })
      continue
    }
    // drop a trailing alias (`expr [AS] name`)
    let body = item
    if (item.length > 1 && isName(last) && (isKw(item[item.length - 2], "AS") || !(isOp(item[item.length - 2], ".") || item[item.length - 2]!.kind === "op"))) body = item.slice(0, isKw(item[item.length - 2], "AS") ? -2 : -1)
    const column = body.length === 1 && isName(body[0]) ? body[0] : body.length === 3 && isName(body[0]) && isOp(body[1], ".") && isName(body[2]) ? body[2] : undefined
    const known = column === undefined ? undefined : base.columns.find((c) => c.name === oracleName(column))
    if (known !== undefined) defined.push({ base: known.name })
    else defined.push({ expr: withoutQualifiers(text, body, qualifiers) })
  }
  if (defined.length !== meta.columns.length) throw unimplemented("this view")
  const columns = new Map<string, ViewColumn>()
  meta.columns.forEach((c, i) => columns.set(c.name, defined[i]!))
  const where = whereAt < 0 ? undefined : withoutQualifiers(text, toks.slice(whereAt + 1), qualifiers)
  const baseColumns = new Set(base.columns.map((c) => c.name))
  const whereQualified = whereAt < 0 ? undefined : (q: string) => qualifiedBy(text, toks.slice(whereAt + 1), qualifiers, baseColumns, q)
  return { base, columns, order: meta.columns.map((c) => c.name), where, whereQualified }
}

/** The keys of table or view `meta` (join-view-dml.ts KeysOf): a view's are its base's (or key-preserved tables') it shows, in its names. */
const keysOf = (meta: TableMeta, lookup: Lookup, depth = 0): ReadonlyArray<ReadonlyArray<string>> | undefined => {
  if (meta.kind === "TABLE") return meta.constraints.filter((c) => (c.type === "P" || c.type === "U") && c.disabled !== true).map((c) => c.columns)
  if (depth > 32) return undefined
  let view: SimpleView | JoinView
  try {
    view = simpleView(meta, (schema, name) => lookup(schema ?? meta.owner, name))
  } catch {
    return undefined
  }
  // a join view's keys: those of its key-preserved tables it shows, each a key of its rows ("nested views must be
  // mergeable": a join of join views is one join)
  if ("keyPreserved" in view) {
    const join = view
    const shownAs = (i: number, col: string) => [...join.columns].find(([, c]) => "table" in c && c.table === i && c.column === col)?.[0]
    return join.tables.flatMap((t, i) => (join.keyPreserved.has(i) ? t.keys.flatMap((key) => (key.every((col) => shownAs(i, col) !== undefined) ? [key.map((col) => shownAs(i, col)!)] : [])) : []))
  }
  const under = keysOf(view.base, (schema, name) => lookup(schema ?? meta.owner, name), depth + 1)
  if (under === undefined) return undefined
  const named = (col: string) => [...view.columns].find(([, c]) => "base" in c && c.base === col)?.[0]
  return under.flatMap((key) => (key.every((col) => named(col) !== undefined) ? [key.map((col) => named(col)!)] : []))
}

/** The Oracle text of tokens `toks` (of `text`), with `q.` removed before columns where q is one of `qualifiers`. */
const withoutQualifiers = (text: string, toks: ReadonlyArray<Tok>, qualifiers: ReadonlySet<string>): string => {
  let out = ""
  let at = toks[0]?.pos ?? 0
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    if (isName(t) && isOp(toks[k + 1], ".") && isName(toks[k + 2]) && !isOp(toks[k - 1], ".") && qualifiers.has(oracleName(t))) {
      out += text.slice(at, t.pos)
      at = toks[k + 2]!.pos
    }
  }
  const last = toks[toks.length - 1]
  return out + text.slice(at, last === undefined ? at : last.pos + last.text.length)
}

/**
 * The Oracle text of tokens `toks` (of `text`) with the columns of `columns` qualified by `q`: those written bare and
 * those qualified by one of `qualifiers`.
 */
const qualifiedBy = (text: string, toks: ReadonlyArray<Tok>, qualifiers: ReadonlySet<string>, columns: ReadonlySet<string>, q: string): string => {
  let out = ""
  let at = toks[0]?.pos ?? 0
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!
    if (!isName(t) || isOp(toks[k + 1], "(") || isOp(toks[k + 1], ".")) continue
    const qualifier = isOp(toks[k - 1], ".") ? toks[k - 2] : undefined
    if (!columns.has(oracleName(t)) || (qualifier !== undefined && (!isName(qualifier) || isOp(toks[k - 3], ".") || !qualifiers.has(oracleName(qualifier))))) continue
    const from = qualifier === undefined ? t.pos : qualifier.pos
    out += `${text.slice(at, from)}${q}.${text.slice(t.pos, t.pos + t.text.length)}`
    at = t.pos + t.text.length
  }
  const last = toks[toks.length - 1]
  return out + text.slice(at, last === undefined ? at : last.pos + last.text.length)
}

/** A DML statement rewritten onto a view's base table, and what a WITH CHECK OPTION view checks after it. */
export interface ViewWrite {
  readonly sql: string
  /** The view written, and the table (or view under it) the statement now writes. */
  readonly view: TableMeta
  readonly base: TableMeta
  /** A query counting the base table's rows outside the view: an INSERT or UPDATE must not add to them. */
  readonly outsideRows?: string
  /** A statement with an error logging clause, run row by row when it fails (dml-error-logging.ts). */
  readonly errorLogged?: ErrorLogged
}

/**
 * DML statement `sql` (Oracle text) rewritten onto the base table of the view it writes, or undefined when its target
 * is no view (or a view with INSTEAD OF triggers); throws ORA-42399 / ORA-01732 / ORA-01733 (or ORA-03001) as above.
 */
export const writeThroughView = (db: object, oracleSql: string, lookup: Lookup, hasInsteadOfTriggers: (view: TableMeta) => boolean): ViewWrite | undefined => {
  // LOG ERRORS: the statement without it runs (through the view it writes, if it does) and its failing rows are logged
  const logged = errorLogged(oracleSql, lookup)
  if (logged !== undefined) {
    const onTable = { ...logged, ...onBaseTable(db, logged, lookup, hasInsteadOfTriggers) }
    return { sql: logged.sql, view: logged.target, base: onTable.onTable?.target ?? logged.target, errorLogged: onTable }
  }
  const sql = stripTerminator(oracleSql)
  const sig = significant(tokenize(sql))
  const verb = sig[0]
  if (!isKw(verb, "INSERT", "UPDATE", "DELETE", "MERGE")) return undefined
  const at = isKw(sig[1], "INTO", "FROM") ? 2 : 1
  if (!isName(sig[at])) return undefined
  const qualified = isOp(sig[at + 1], ".") && isName(sig[at + 2])
  const meta = qualified ? lookup(oracleName(sig[at]!), oracleName(sig[at + 2]!)) : lookup(undefined, oracleName(sig[at]!))
  if (meta === undefined || meta.kind !== "VIEW") return undefined
  // a view's INSTEAD OF triggers write in place of the statement (plsql/triggers.ts); a MERGE into it is ORA-38106
  if (hasInsteadOfTriggers(meta)) {
    if (isKw(verb, "MERGE")) throw mergeIntoJoinView()
    return undefined
  }
  const opts = viewOptionsOf(db).get(`${meta.owner}.${meta.name}`)
  if (opts?.readOnly === true) throw new OraError(42399, "cannot perform a DML operation on a read-only view")
  // the view's own names resolve in its owner's schema
  const view = simpleView(meta, (schema, name) => lookup(schema ?? meta.owner, name))
  const nameEnd = qualified ? at + 3 : at + 1
  const aliasTok = isName(sig[nameEnd]) && !isKw(sig[nameEnd], "SET", "WHERE", "USING", "VALUES", "SELECT", "WITH", "RETURNING", "RETURN", "LOG") ? sig[nameEnd] : undefined
  // the statement names the view's own columns only
  const qualifiers = new Set([aliasTok === undefined ? meta.name : oracleName(aliasTok)])
  const under = "keyPreserved" in view ? view.tables.flatMap((t) => t.meta.columns) : view.base.columns
  checkViewColumnNames(sig, nameEnd + (aliasTok === undefined ? 0 : 1), qualifiers, new Set(view.columns.keys()), new Set(under.map((c) => c.name)), writtenColumnPositions(sig, nameEnd + (aliasTok === undefined ? 0 : 1)))
  if ("keyPreserved" in view) {
    const write = writeThroughJoinView(sql, sig, meta, view, at, nameEnd, aliasTok)
    return { sql: write.sql, view: meta, base: write.base }
  }
  const edits: Array<{ from: number; to: number; text: string }> = []
  const end = (t: Tok) => t.pos + t.text.length
  // the target: the base table, under the view's name unless the statement gives an alias
  const target = `${quoteDuck(view.base.owner)}.${quoteDuck(view.base.name)}`
  const named = aliasTok === undefined && !isKw(verb, "INSERT") ? `${target} ${quoteDuck(meta.name)}` : target
  edits.push({ from: sig[at]!.pos, to: end(sig[nameEnd - 1]!), text: isKw(verb, "DELETE") && at === 1 ? `FROM ${named}` : named })
  // the columns it writes must be base columns
  for (const k of writtenColumnPositions(sig, nameEnd + (aliasTok === undefined ? 0 : 1))) {
    const c = view.columns.get(oracleName(sig[k]!))
    if (c !== undefined && "expr" in c) throw VIRTUAL_COLUMN()
  }
  // column references: a renamed column its base name, an expression column its expression
  for (let k = nameEnd + (aliasTok === undefined ? 0 : 1); k < sig.length; k++) {
    const t = sig[k]!
    if (!isName(t) || isOp(sig[k + 1], "(")) continue
    const qualifier = isOp(sig[k - 1], ".") ? sig[k - 2] : undefined
    if (qualifier !== undefined && !qualifiers.has(oracleName(qualifier))) continue
    if (isOp(sig[k + 1], ".")) continue
    const c = view.columns.get(oracleName(t))
    if (c === undefined || ("base" in c && c.base === oracleName(t))) continue
    const text = "base" in c ? quoteDuck(c.base) : `(${c.expr})`
    edits.push({ from: "expr" in c && qualifier !== undefined ? qualifier.pos : t.pos, to: end(t), text })
  }
  // an INSERT without a column list names the base columns the view's are
  const insertAt = isKw(verb, "INSERT") ? nameEnd - 1 : sig.findIndex((t, k) => isKw(t, "INSERT") && isKw(sig[k - 1], "THEN"))
  if (insertAt >= 0 && !isOp(sig[insertAt + 1], "(")) {
    const names = view.order.map((n) => view.columns.get(n)!)
    if (names.some((c) => "expr" in c)) throw VIRTUAL_COLUMN()
    edits.push({ from: end(sig[insertAt]!), to: end(sig[insertAt]!), text: ` (${names.map((c) => quoteDuck((c as { base: string }).base)).join(", ")})` })
  }
  // UPDATE and DELETE keep to the view's rows
  if (view.where !== undefined) {
    // MERGE matches only the view's rows: a source row matching none of them takes the NOT MATCHED branch
    if (isKw(verb, "MERGE")) {
      const on = findTopLevel(sig, nameEnd, sig.length, (t) => isKw(t, "ON"))
      if (on < 0 || !isOp(sig[on + 1], "(")) throw ora.invalidSql()
      const close = matchParen(sig, on + 1)
      edits.push({ from: end(sig[on + 1]!), to: end(sig[on + 1]!), text: "(" })
      edits.push({ from: sig[close]!.pos, to: sig[close]!.pos, text: `) AND (${view.whereQualified!(aliasTok === undefined ? quoteDuck(meta.name) : aliasTok.text)})` })
    }
    if (isKw(verb, "UPDATE", "DELETE")) {
      const stop = findTopLevel(sig, nameEnd, sig.length, (t) => isKw(t, "RETURNING", "RETURN", "LOG"))
      const whereAt = findTopLevel(sig, nameEnd, stop < 0 ? sig.length : stop, (t) => isKw(t, "WHERE"))
      const tail = stop < 0 ? sql.length : sig[stop]!.pos
      if (whereAt < 0) edits.push({ from: tail, to: tail, text: ` WHERE (${view.where}) ` })
      else {
        edits.push({ from: sig[whereAt]!.pos, to: end(sig[whereAt]!), text: `WHERE (${view.where}) AND (` })
        edits.push({ from: tail, to: tail, text: ") " })
      }
    }
  }
  edits.sort((a, b) => a.from - b.from || a.to - b.to)
  let out = ""
  let pos = 0
  for (const e of edits) {
    out += sql.slice(pos, e.from) + e.text
    pos = e.to
  }
  out += sql.slice(pos)
  const check = opts?.checkOption === true && view.where !== undefined && isKw(verb, "INSERT", "UPDATE", "MERGE")
  return { sql: out, view: meta, base: view.base, ...(check ? { outsideRows: `SELECT COUNT(*) - COUNT(CASE WHEN ${view.where} THEN 1 END) FROM ${target}` } : {}) }
}

/**
 * Error-logged statement `stmt` with the statement an UPDATE or DELETE of a view (or a MERGE's UPDATE into one) is on
 * the table under the view (through every view on the way), which runs row by row by that table's rowids; as it is
 * when the view is written otherwise (INSTEAD OF triggers) or not at all (its own error then comes from the whole run).
 */
const onBaseTable = (db: object, stmt: LoggedStatement, lookup: Lookup, hasInsteadOfTriggers: (view: TableMeta) => boolean): LoggedStatement => {
  if (stmt.parts !== undefined) return { ...stmt, parts: stmt.parts.map((p) => onBaseTable(db, p, lookup, hasInsteadOfTriggers)) }
  if (stmt.target.kind !== "VIEW" || stmt.verb === "INSERT") return stmt
  try {
    let sql = stmt.sql
    for (let depth = 0; depth < 32; depth++) {
      const write = writeThroughView(db, sql, lookup, hasInsteadOfTriggers)
      if (write === undefined) return stmt
      sql = write.sql
      if (write.base.kind === "TABLE") return { ...stmt, onTable: loggedStatement(sql, lookup) }
    }
  } catch {
    // the view's own error
  }
  return stmt
}

/**
 * Positions in `sig` of the column names a DML statement writes (its target starting at `from`): an INSERT's column
 * list, the targets of UPDATE ... SET and of MERGE's UPDATE SET and INSERT (...).
 */
const writtenColumnPositions = (sig: ReadonlyArray<Tok>, from: number): Array<number> => {
  const out: Array<number> = []
  const list = (open: number) => {
    const close = matchParen(sig, open)
    for (let k = open + 1; k < close; k++) if (isName(sig[k]) && !isOp(sig[k + 1], ".")) out.push(k)
  }
  if (isKw(sig[0], "INSERT") && isOp(sig[from], "(")) list(from)
  for (let k = from; k < sig.length; k++) {
    if (isKw(sig[k], "INSERT") && isKw(sig[k - 1], "THEN") && isOp(sig[k + 1], "(")) list(k + 1)
    if (!isKw(sig[k], "SET")) continue
    // SET a = ..., (b, c) = (...), q.d = ...: each item's target before its `=`
    let depth = 0
    let item = true
    for (let j = k + 1; j < sig.length; j++) {
      const t = sig[j]!
      if (depth === 0 && isKw(t, "WHERE", "DELETE", "WHEN", "RETURNING", "RETURN", "LOG")) break
      if (item && depth === 0 && isOp(t, "(")) {
        list(j)
        j = matchParen(sig, j)
        item = false
        continue
      }
      if (isOp(t, "(")) depth++
      else if (isOp(t, ")")) depth--
      else if (depth === 0 && isOp(t, ",")) item = true
      else if (item && isName(t) && isOp(sig[j + 1], "=")) {
        out.push(j)
        item = false
      }
    }
  }
  return out
}

/** What running a write through a view needs of the session. */
export interface ViewWriteHost {
  execute(sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<StatementResult>
  atomically<T>(body: () => Promise<T>): Promise<T>
  /** The single number a query (Oracle text, bound by `bound`) gives. */
  count(sql: string, bound?: ReadonlyArray<DuckDBValue>, specs?: ReadonlyArray<BindSpec>): Promise<number>
  /** The first column of the rows a query (Oracle text) gives. */
  column(sql: string): Promise<ReadonlyArray<DuckDBValue>>
}

/** Runs `write` (as rewritten onto the base table); ORA-01402, the statement undone, when it leaves rows outside a WITH CHECK OPTION view. */
export const runThroughView = (host: ViewWriteHost, write: ViewWrite, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<StatementResult> => {
  if (write.errorLogged !== undefined) return runErrorLogged(host, write.errorLogged, rows, specs, opts)
  const outside = write.outsideRows
  if (outside === undefined) return host.execute(write.sql, rows, specs, opts)
  return host.atomically(async () => {
    const before = await host.count(outside)
    const result = await host.execute(write.sql, rows, specs, opts)
    if ((await host.count(outside)) > before) throw new OraError(1402, "view WITH CHECK OPTION where-clause violation")
    return result
  })
}

/**
 * The rows of ALL_UPDATABLE_COLUMNS: every column of the tables (YES, YES, YES) and views of `tables`; a view's
 * column as DML through it may write it here (an expression column neither updatable nor insertable, every column of
 * a read-only or non-updatable view NO).
 */
export const updatableColumnRows = (db: object, tables: Iterable<TableMeta>, lookup: (owner: string, name: string) => TableMeta | undefined): Array<[string, Array<Array<unknown>>]> => {
  const rows: Array<Array<unknown>> = []
  const viewOf = (t: TableMeta): SimpleView | JoinView | undefined => {
    try {
      return viewOptionsOf(db).get(`${t.owner}.${t.name}`)?.readOnly === true ? undefined : simpleView(t, (schema, name) => lookup(schema ?? t.owner, name))
    } catch {
      return undefined
    }
  }
  // through a view over a view, as the view under it allows (depth: a bound against views defined in a cycle)
  const writable = (t: TableMeta, column: string | undefined, depth = 0): boolean => {
    if (t.kind === "TABLE") return true
    const view = depth > 32 ? undefined : viewOf(t)
    if (view === undefined) return false
    if ("keyPreserved" in view) {
      // as the table (or join view) under it allows
      const under = (i: number, col: string | undefined) => view.tables[i]!.subquery === true || writable(view.tables[i]!.meta, col, depth + 1)
      if (column === undefined) return view.keyPreserved.size === 1 && under([...view.keyPreserved][0]!, undefined)
      const c = view.columns.get(column)
      // a column a NATURAL / USING join shares is written by none (ORA-01733, join-view-dml.ts)
      return c !== undefined && "table" in c && c.shared === undefined && view.keyPreserved.has(c.table) && under(c.table, c.column)
    }
    if (column === undefined) return writable(view.base, undefined, depth + 1)
    const c = view.columns.get(column)
    return c !== undefined && "base" in c && writable(view.base, c.base, depth + 1)
  }
  for (const t of tables) {
    if (t.kind === "TABLE") {
      for (const c of t.columns) rows.push([t.owner, t.name, c.name, "YES", "YES", "YES"])
      continue
    }
    const deletable = writable(t, undefined) ? "YES" : "NO"
    for (const c of t.columns) {
      const yes = writable(t, c.name) ? "YES" : "NO"
      rows.push([t.owner, t.name, c.name, yes, yes, deletable])
    }
  }
  return [["ALL_UPDATABLE_COLUMNS", rows]]
}
