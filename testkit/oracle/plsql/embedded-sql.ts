/**
 * SQL statements inside a block: queries and DML run with the block's names bound, stored functions in them called
 * per row (a trial run notes their arguments, then the statement is replayed: sql-functions.ts), SELECT ... INTO,
 * RETURNING ... INTO, record DML and TABLE(collection).
 */
import { resolveSynonymTokens } from "../synonym-resolution.ts"
import type { DuckDBValue } from "@duckdb/node-api"
import type { TableMeta } from "../catalog.ts"
import { sessionZoneWrites } from "../datetime-writes.ts"
import { ora, OraError } from "../errors.ts"
import { intervalLiteralTargets } from "../interval-writes.ts"
import { blockSelectBefore, isKw, isName, isOp, significantTokensOf, splitTopLevel } from "../lexer.ts"
import { oneRowSequenceRefs, rewriteSequenceRowTokens, sequenceRowSource } from "../sequence-rows.ts"
import { perRowSequenceValues } from "../sequence-row-lambdas.ts"
import { settleFormatValues } from "../format-model-sites.ts"
import { isProbe, probeSql, probedDml } from "./format-probes.ts"
import { expandFormatViewTokens, hasFormatViews } from "../format-views.ts"
import { readingViewQueries } from "../format-view-rights.ts"
import { canonicalNumberWrites } from "../number-writes.ts"
import { blankPaddedWrites } from "../char-writes.ts"
import { derivedLobRows, type DerivedLobRows, hidingDerivedLobRows } from "../derived-lob-rows.ts"
import { type LobSource, lobSourcesOf } from "../plsql-lobs.ts"
import { lobRowOf, type QueryResult, returningClause, type StatementResult } from "../statement.ts"
import { oracleName } from "../translate.ts"
import { rowidOf } from "../row-locks.ts"
import { assign, assignBulk, assignReturnedBulk, assignRow } from "./assignment.ts"
import { targetPackage } from "./package-instances.ts"
import type { Expr } from "./ast.ts"
import { collectionOfBind, PlsqlCollection } from "./collections.ts"
import type { Frame, Value } from "./context.ts"
import { PlsCompileError, sqlCompileError } from "./errors.ts"
import { evaluateValue, inlineCalls } from "./expressions.ts"
import { closingParen } from "./names.ts"
import { schemaCollectionType, storedBindCollection } from "./schema-collections.ts"
import { currentOfRow } from "./current-of.ts"
import { expandRecordDml, PlsqlRecord } from "./records.ts"
import { bindNames, columnsOf, render } from "./render.ts"
import { type BlockQueryResult, RowReader } from "./row-reader.ts"
import { locatorKey, locatorKeyOf } from "./lob-locators.ts"
import { lookup } from "./scope.ts"
import { storedFunctionCalls } from "./sql-functions.ts"
import { callableFromSql } from "./stored-packages.ts"
import { inlineTableCollections } from "./table-collections.ts"
import { refuseLocalCollectionsInDml } from "./local-collection-dml.ts"
import { rewriteRowSubqueries } from "../row-subqueries.ts"
import { unqualifySetTargets } from "../session-translate.ts"
import { dictionaryTablesOf } from "../session-dictionary.ts"
import { callingWhileWriting, checkMutating, writtenTable } from "./mutating-tables.ts"
import { tableTriggers } from "./trigger-definitions.ts"
import { rewriteSqlMethodCalls } from "./object-methods.ts"

/** The table an INSERT INTO / UPDATE / DELETE [FROM] / MERGE INTO writes. */
function dmlTarget(ctx: Frame, toks: Expr): TableMeta | undefined {
  return writtenTable(toks, (schema, name) => ctx.host.lookupTable(schema, name))
}

/**
 * Runs a DML statement of the block; stored functions in it are called per row (sql-functions.ts), local ones before
 * it; run again when a format model that is an expression meets new values (format-model-sites.ts).
 */
export function runDml(ctx: Frame, written: Expr): Promise<number> {
  // taking NEXTVAL: its format values met first by a query, so that it runs once (format-probes.ts)
  const read = async (probe: Expr) => (await openQuery(ctx, probe, false, "none")).cursor.close()
  return probedDml(ctx, written, read, () => settleFormatValues(() => runDmlOnce(ctx, written)))
}

async function runDmlOnce(ctx: Frame, written: Expr): Promise<number> {
  const lookup = (schema: string | undefined, name: string) => ctx.host.lookupTable(schema, name)
  checkMutating(ctx.host, written, lookup)
  const viewed = formatViews(ctx, written)
  if (viewed === undefined) return runViewedDml(ctx, written)
  return readingViewQueries(ctx.host, () => written.filter((t) => t.kind !== "ws"), viewed.named, async () => {
    checkMutating(ctx.host, viewed.toks, lookup)
    return runViewedDml(ctx, viewed.toks)
  })
}

/** {@link runDmlOnce} of a statement whose format views are already named by their queries. */
async function runViewedDml(ctx: Frame, written: Expr): Promise<number> {
  // `UPDATE t a SET a.col = ...` and `SET (a, b) = (SELECT ...)` as the session's translation rewrites them
  const rewritten = unqualifySetTargets(rewriteRowSubqueries(sequenceRows(ctx, written))).filter((t) => t.kind !== "ws")
  // on a table with triggers, or through a view (its base table written: view-dml.ts), as a client's statement
  const target = dmlTarget(ctx, rewritten)
  if (target?.kind === "VIEW" || tableTriggers(ctx.host.db, target).length > 0) return triggeredDml(ctx, rewritten)
  ctx.host.checkStatementAccess(rewritten, target)
  // `TABLE(collection)` in the statement's subqueries: the collection's elements, as in a query
  const tabled = await tableCollections(ctx, rewritten)
  const source = tabled?.toks ?? rewritten
  const { toks: inlined, release: releaseCalls } = await inlineCalls(ctx, source, true, true)
  const release = () => {
    releaseCalls()
    tabled?.release()
  }
  const lookup = (schema: string | undefined, name: string) => ctx.host.lookupTable(schema, name)
  let rendered
  let calls
  try {
    const columns = columnsOf(ctx, inlined)
    calls = storedFunctionCalls(methodCalls(ctx, inlined), ctx.host.schema, (owner, name) => callableFromSql(ctx.host, owner, name), (name) => columns.has(name))
    rendered = render(ctx, blankPaddedWrites(intervalLiteralTargets(sessionZoneWrites(canonicalNumberWrites(calls?.toks ?? inlined, lookup), lookup), lookup), lookup), false, true)
  } finally {
    release()
  }
  const { params } = rendered
  const sql = perRowSequenceValues(rendered.sql)
  if (calls === undefined) return ctx.host.runBlockDml(sql, params)
  return calls.settleWrite(
    () => ctx.host.probeWrite(sql, params),
    () => ctx.host.runBlockDml(sql, params),
    callingWhileWriting(ctx.host, source, lookup, (fn, args) => ctx.callFromSql(fn, args)),
    (release) => ctx.host.holdUntilTransactionEnds(release)
  )
}

/**
 * DML on a table with triggers or through a view: run as the session runs a client's statement, which fires them
 * (triggers.ts) or writes the view's base table (view-dml.ts), the block's names bound as the client's binds; local
 * functions in it are called before it, stored ones by the session.
 */
async function triggeredDml(ctx: Frame, source: Expr): Promise<number> {
  const { toks: inlined, release } = await inlineCalls(ctx, source, true, true)
  let bound
  try {
    bound = bindNames(ctx, inlined, true)
  } finally {
    release()
  }
  const result = await ctx.host.execute(bound.rewritten.map((t) => t.text).join(" "), [bound.values], [], { batchErrors: false, dmlRowCounts: false })
  if (result.kind !== "dml") throw ora.invalidSql()
  return result.rowCount
}

/**
 * A view whose query has a format expression named by its query, as in a client's statement (format-views.ts), so
 * that rows its query did not meet when it was created are formatted by their own model; with the objects that query
 * names, read with the view owner's rights (format-view-rights.ts).
 */
const formatViews = (ctx: Frame, toks: Expr): { readonly toks: Expr; readonly named: ReadonlyArray<TableMeta> } | undefined =>
  hasFormatViews(ctx.host.db) ? expandFormatViewTokens(toks, (schema, name) => ctx.host.lookupTable(schema, name)) : undefined

/** One sequence value per row for NEXTVAL and CURRVAL of a sequence in a query block (sequence-rows.ts). */
const sequenceRows = (ctx: Frame, toks: Expr): Expr => rewriteSequenceRowTokens(toks, (schema, name) => sequenceRowSource(ctx.host.lookupTable(schema, name)))

/**
 * Runs a query of the block; stored functions in it are called per row (sql-functions.ts), local ones before it. A
 * format model that is an expression (format-model-sites.ts) meets its values on a first reading of all the rows, run
 * again until it meets no new one, before the query is opened.
 */
export function openQuery(ctx: Frame, statement: Expr, withRowid: boolean | "lobs" | "tables" | DerivedLobRows = false, locking: ForUpdateLocking = "open"): Promise<BlockQueryResult> {
  // a statement derived-lob-rows.ts rewrote: its hidden row id items are its last columns
  if (typeof withRowid === "object") return settleFormatValues(async () => hidingDerivedLobRows(await openQueryOnce(ctx, statement, false, locking), withRowid))
  return settleFormatValues(() => openQueryOnce(ctx, statement, withRowid, locking))
}

/**
 * When a block's query FOR UPDATE locks its rows: "open" all of them as it opens (SELECT INTO, BULK COLLECT); "fetch"
 * as a cursor does (explicit, a cursor FOR loop, OPEN FOR of a cursor variable, also when the client fetches it:
 * skip-locked-fetch.ts), all at OPEN but with SKIP LOCKED each row as it is fetched; "none" for a query run only to
 * describe its row.
 */
export type ForUpdateLocking = "open" | "fetch" | "none"

async function openQueryOnce(ctx: Frame, statement: Expr, wanted: boolean | "lobs" | "tables", locking: ForUpdateLocking): Promise<BlockQueryResult> {
  const resolved = resolveSynonymTokens(ctx.host.db, ctx.host.schema, statement)
  const viewed = formatViews(ctx, resolved)
  if (viewed === undefined) return openViewedQuery(ctx, resolved, wanted, locking)
  // the synonyms the views' queries name
  return readingViewQueries(ctx.host, () => resolved.filter((t) => t.kind !== "ws"), viewed.named, async () => openViewedQuery(ctx, resolveSynonymTokens(ctx.host.db, ctx.host.schema, viewed.toks), wanted, locking))
}

/** {@link openQueryOnce} of a query whose synonyms are resolved and whose format views are named by their queries. */
async function openViewedQuery(ctx: Frame, resolved: Expr, wanted: boolean | "lobs" | "tables", locking: ForUpdateLocking): Promise<BlockQueryResult> {
  const query = sequenceRows(ctx, resolved)
  checkMutating(ctx.host, query, (schema, name) => ctx.host.lookupTable(schema, name))
  ctx.host.checkStatementAccess(query)
  const tabled = await tableCollections(ctx, query)
  const source = tabled?.toks ?? query
  const { toks, release: releaseCalls } = await inlineCalls(ctx, source, true, true)
  const release = () => {
    releaseCalls()
    tabled?.release()
  }
  const columns = columnsOf(ctx, toks)
  const calls = storedFunctionCalls(methodCalls(ctx, toks), ctx.host.schema, (owner, name) => callableFromSql(ctx.host, owner, name), (name) => columns.has(name))
  let rendered
  try {
    rendered = render(ctx, calls?.toks ?? toks, true, true, wanted)
  } finally {
    release()
  }
  let withRowid = rendered.lobTables ?? wanted === true
  const { params, shape } = rendered
  // a FOR UPDATE cursor's row ids, by table, for WHERE CURRENT OF (plsql/current-of.ts)
  const rowidTables = wanted === "tables" && shape !== undefined && rendered.lobTables !== undefined ? { rowidTables: rendered.lobTables.map((k) => shape.from[k]!), ...(shape.lock !== undefined && { rowLock: shape.lock }) } : {}
  let sql = probeSql(ctx, perRowSequenceValues(rendered.sql))
  // FOR UPDATE (SELECT INTO, a cursor's OPEN) locks the rows as a client's query does, all of them before the first
  // fetch: "the database locks all rows in the result set when you open the cursor" (PL/SQL Language Reference,
  // "SELECT FOR UPDATE and FOR UPDATE Cursors": https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/static-sql.html)
  let claimFetchedRow: BlockQueryResult["claimFetchedRow"]
  if (shape?.lock !== undefined && rendered.translate !== undefined && locking === "fetch" && shape.lock.wait === "skip") {
    // SKIP LOCKED in a cursor locks each row as it is fetched, so that `OPEN; FETCH INTO; CLOSE` takes one row (an SQL
    // trace shows no locking reads at OPEN: https://practical-sql-tuning.blogspot.com/2013/12); the row ids of its
    // locked tables are selected last
    const atFetch = await ctx.host.skipLockedAtFetch(shape)
    const selected = rendered.lobTables ?? (wanted === true ? [0] : [])
    const tables = [...selected, ...atFetch.tables.filter((k) => !selected.includes(k))]
    sql = perRowSequenceValues(rendered.translate(tables.map((k) => rowidOf(shape.from, shape.from[k]!)), []))
    if (tables.length > selected.length) withRowid = tables
    const positions = atFetch.tables.map((k) => tables.indexOf(k))
    claimFetchedRow = (rowids) => atFetch.claim(positions.map((p) => rowids[p]))
  } else if (shape?.lock !== undefined && rendered.translate !== undefined) {
    const locked = await ctx.host.lockForUpdate(shape, params, rendered.lobRowids ?? [], rendered.translate, locking === "none")
    if (locked !== undefined) {
      sql = perRowSequenceValues(locked.sql)
      // SKIP LOCKED over one table selects its row id last
      if (withRowid === false && locked.lobRowids.length > 0) withRowid = true
    }
  }
  // a dictionary view shows the catalog as it is now (a table the block just created included)
  const dictionary = dictionaryTablesOf(toks)
  if (rendered.formatExpressions === true && calls === undefined) {
    const read = await ctx.host.queryDuck(sql, params, shape, withRowid, dictionary)
    try {
      while ((await read.cursor.next()) !== null);
    } finally {
      read.cursor.close()
    }
    // a DML statement's probe has met its values (format-probes.ts)
    if (isProbe(ctx)) return read
  }
  if (calls === undefined) return { ...(await ctx.host.queryDuck(sql, params, shape, withRowid, dictionary)), ...(claimFetchedRow !== undefined && { claimFetchedRow }), ...rowidTables }
  let result: QueryResult | undefined
  const cursor = await calls.settle(
    async () => (result = await ctx.host.queryDuck(sql, params, shape, withRowid, dictionary)).cursor,
    (fn, args) => ctx.callFromSql(fn, args)
  )
  return { ...result!, cursor, ...(claimFetchedRow !== undefined && { claimFetchedRow }), ...rowidTables }
}

/** `alias.col.f(args)` of object columns as calls of their types' methods (object-methods.ts). */
const methodCalls = (ctx: Frame, toks: Expr): Expr => [...rewriteSqlMethodCalls(toks, ctx.host.db, ctx.host.schema, (schema, name) => ctx.host.lookupTable(schema, name))]

/**
 * A query's `TABLE(collection)` as the query of its elements (table-collections.ts): of a collection variable, an
 * index-by array bind, a DbObject collection bind or a schema collection type's constructor (`TABLE(nums(1, 2))`,
 * made first); undefined when it has none.
 */
async function tableCollections(ctx: Frame, source: Expr): Promise<{ toks: Expr; release: () => void } | undefined> {
  const made: Array<string> = []
  const madeValue = (value: Value) => {
    const key = `\u0000F${++ctx.calls}`
    made.push(key)
    ctx.callResults.set(key, { value })
    return key
  }
  let query = source
  for (let k = 0; k < query.length; k++) {
    const inner = isKw(query[k], "TABLE") && isOp(query[k + 1], "(") && !isOp(query[k - 1], ".") ? query.slice(k + 2, closingParen(query, k + 1)) : undefined
    const open = inner !== undefined && isOp(inner[1], ".") ? 3 : 1
    if (inner === undefined || !isOp(inner[open], "(") || closingParen(inner, open) !== inner.length - 1) continue
    const typeName = inner.slice(0, open).filter((t) => !isOp(t, ".")).map(oracleName).join(" . ")
    if (lookup(ctx, oracleName(inner[0]!)) !== undefined || schemaCollectionType(ctx, typeName) === undefined) continue
    const value = await evaluateValue(ctx, inner)
    query = [...query.slice(0, k + 2), { ...inner[0]!, kind: "bind", text: ":c", value: madeValue(value) }, ...query.slice(k + 2 + inner.length)]
  }
  const toks = inlineTableCollections(
    query,
    (name) => {
      if (name.kind === "bind") {
        const constructed = ctx.callResults.get(name.value)?.value
        if (constructed instanceof PlsqlCollection) return constructed as PlsqlCollection<unknown>
        const idx = ctx.binds.binds.get(name.value) ?? -1
        const v = ctx.binds.values[idx]
        if (typeof v === "string") return storedBindCollection(v, ctx.binds.specs?.[idx])
        return Array.isArray(v) ? (collectionOfBind(v) as PlsqlCollection<unknown>) : undefined
      }
      if (name.kind !== "ident" && name.kind !== "qident") return undefined
      const slot = lookup(ctx, oracleName(name))
      if (slot?.k !== "var") return undefined
      return slot.value instanceof PlsqlCollection ? (slot.value as PlsqlCollection<unknown>) : undefined
    },
    (e) => (e instanceof PlsqlRecord ? e.fields : undefined),
    madeValue
  )
  if (toks === undefined && made.length > 0) return { toks: query, release: () => made.forEach((key) => ctx.callResults.delete(key)) }
  return toks === undefined ? undefined : { toks, release: () => made.forEach((key) => ctx.callResults.delete(key)) }
}

/**
 * A one-row INSERT ... VALUES naming NEXTVAL and CURRVAL (or NEXTVAL twice) of one sequence: the sequence's next value
 * taken first and written in for each of them, as Oracle "increments the sequence and returns the same value for both
 * CURRVAL and NEXTVAL regardless of their order within the statement" (SQL Language Reference, "Sequence
 * Pseudocolumns"); the engine would compute each reference on its own.
 */
export async function oneSequenceValue(ctx: Frame, toks: Expr): Promise<Expr> {
  const sequences = oneRowSequenceRefs(toks)
  if (sequences === undefined) return toks
  const out = [...toks]
  const replaced: Array<readonly [number, number, string]> = []
  for (const { next, refs } of sequences) {
    const reader = new RowReader(await openQuery(ctx, significantTokensOf(`SELECT ${next} FROM dual`)!.map((t) => ({ ...t, pos: toks[0]!.pos }))), ctx.host)
    let value: string
    try {
      value = String((await reader.next())![0])
    } finally {
      reader.close()
    }
    for (const [from, to] of refs) replaced.push([from, to, value])
  }
  // from the last reference back, so that the earlier positions stay
  for (const [from, to, value] of replaced.sort((a, b) => b[0] - a[0])) out.splice(from, to + 1 - from, { kind: "num", text: value, value, pos: toks[from]!.pos })
  return out
}

/** `INSERT ... VALUES rec` and `UPDATE ... SET ROW = rec` with the record's fields (records.ts). */
export function expandRecords(ctx: Frame, toks: Expr): Expr {
  return expandRecordDml(
    toks,
    (name) => {
      const slot = lookup(ctx, name)
      return slot?.k === "var" && slot.value instanceof PlsqlRecord ? [...slot.value.fields.keys()] : undefined
    },
    (schema, table) => ctx.host.lookupTable(schema, table)?.columns.map((c) => c.name)
  )
}

/**
 * Runs `f`, the static SQL statement `statement` of a block: an unknown name in it (ORA-00904) is the compile error
 * Oracle reports before the block runs, which no handler catches (errors.ts, sqlCompileError). The server finds it
 * when it reaches the statement; what the block did before is undone with the failed call, as Oracle does not run it.
 */
export async function compiledSql<T>(ctx: Frame, statement: Expr, f: () => Promise<T>): Promise<T> {
  try {
    return await f()
  } catch (e) {
    if (!(e instanceof OraError) || e instanceof PlsCompileError || e.code !== 904) throw e
    const name = /^"([^"]+)"/.exec(e.detail)?.[1]
    const at = statement.find((t) => (t.kind === "ident" || t.kind === "qident") && oracleName(t) === name) ?? statement[0]
    throw sqlCompileError(ctx.source, at?.pos ?? 0, statement[0]?.pos ?? 0, e)
  }
}

/** A SQL statement of a block: SELECT ... INTO, DML (RETURNING too), anything else run as the client would. */
export const sqlStatement = (ctx: Frame, statement: Expr): Promise<void> => compiledSql(ctx, statement, () => runStatement(ctx, statement))

async function runStatement(ctx: Frame, statement: Expr): Promise<void> {
  let toks = resolveSynonymTokens(ctx.host.db, ctx.host.schema, statement)
  const head = toks[0]!
  if (isKw(head, "SELECT", "WITH") || isOp(head, "(")) {
    const into = toks.findIndex((t) => isKw(t, "INTO"))
    if (isKw(toks[into - 1], "COLLECT") && isKw(toks[into - 2], "BULK")) return selectBulk(ctx, toks, into)
    const from = toks.findIndex((t, k) => k > into && isKw(t, "FROM"))
    if (into < 0 || from < into) throw new PlsCompileError(ctx.source, head.pos, 428, "an INTO clause is expected in ctx SELECT statement")
    const targets = splitTopLevel(toks.slice(into + 1, from))
    for (const target of targets) await targetPackage(ctx, target)
    const single = targets.map((t) => t[0]!)
    // the main query's select list (after a WITH clause's blocks); a lone star stands for every target's column, and
    // a WITH clause or a star leaves no FROM ... WHERE to write through without the row's id
    const select = Math.max(0, blockSelectBefore(toks, into))
    const listed = splitTopLevel(toks.slice(select + 1, into))
    const star = listed.length === 1 && isOp(listed[0]![listed[0]!.length - 1], "*")
    const sources = lobSourcesOf(star ? single.map((t) => [t]) : listed, single, star || select > 0 ? [] : toks.slice(from))
    // a LOB column's locator points at the row fetched (SecureFiles and Large Objects Developer's Guide, "LOB
    // Locators"), a join's at its own table's row: it remembers that row's id
    // through a FROM subquery or UNION ALL, hidden row id items carry the rows up (derived-lob-rows.ts)
    const query = [...toks.slice(0, into), ...toks.slice(from)]
    const derived = sources.size > 0 ? derivedLobRows(query, (schema, name) => ctx.host.lookupTable(schema, name)) : undefined
    const reader = new RowReader(await openQuery(ctx, derived?.toks ?? query, derived ?? (sources.size > 0 ? "lobs" : false)), ctx.host)
    let rowids: ReadonlyArray<bigint | undefined> = []
    try {
      const row = await reader.next()
      if (row === undefined) throw ora.noDataFound()
      rowids = reader.rowids
      if ((await reader.next()) !== undefined) throw new OraError(1422, "exact fetch returns more than requested number of rows")
      assignRow(ctx, targets, reader.names, row)
    } finally {
      reader.close()
    }
    ctx.sqlRowCount = 1
    for (const [name, source] of sources) {
      const column = reader.result.columns[single.findIndex((t) => t.value === name)]
      const row = column === undefined ? undefined : lobRowOf(column, (k) => rowids[k])
      ctx.lobs.set(name, row === undefined ? source : { ...source, row })
    }
    await fieldLocators(ctx, targets, reader.names, (i) => {
      const column = reader.result.columns[i]
      return column === undefined ? undefined : lobRowOf(column, (k) => rowids[k])
    }, toks.slice(from).some((t, k, all) => isKw(t, "FOR") && isKw(all[k + 1], "UPDATE")))
    return
  }
  if (isKw(head, "INSERT", "UPDATE", "DELETE", "MERGE")) {
    refuseLocalCollectionsInDml(ctx, toks)
    toks = await oneSequenceValue(ctx, currentOfRow(ctx, expandRecords(ctx, toks)))
    const ret = returningClause(toks)
    ctx.sqlRowCount = ret === undefined ? await runDml(ctx, toks) : await dmlReturning(ctx, toks, ret.into)
    return
  }
  await ctx.host.execute(toks.map((t) => t.text).join(" "), [], [], { batchErrors: false, dmlRowCounts: false })
}

/**
 * The locators a `SELECT ... INTO` gave record fields and collection elements: a record target's LOB fields (`R.DOC`)
 * and a field or element target (`r.doc`, `c(i)`) each name the table row their column was read from; any other
 * such key of the target is dropped (lob-locators.ts locatorKeyOf).
 */
async function fieldLocators(ctx: Frame, targets: ReadonlyArray<Expr>, names: ReadonlyArray<string>, rowOf: (column: number) => LobSource["row"], locked: boolean): Promise<void> {
  const keyed: Array<[string, LobSource["row"]]> = []
  const only = targets.length === 1 && targets[0]!.length === 1 ? lookup(ctx, oracleName(targets[0]![0]!)) : undefined
  if (only?.k === "var" && only.value instanceof PlsqlRecord) {
    const record = locatorKey(targets[0]![0]!)
    for (const k of [...ctx.lobs.keys()]) if (k.startsWith(`${record}.`)) ctx.lobs.delete(k)
    names.forEach((n, i) => keyed.push([`${record}.${n}`, rowOf(i)]))
  } else {
    for (const [i, t] of targets.entries()) {
      // (a subscript is evaluated again only where a locator is to be kept or dropped)
      const row = t.length > 1 ? rowOf(i) : undefined
      const key = t.length > 1 && (row !== undefined || ctx.lobs.size > 0) ? await locatorKeyOf(ctx, t) : undefined
      if (key !== undefined) keyed.push([key, row])
    }
  }
  for (const [key, row] of keyed) {
    if (row === undefined) ctx.lobs.delete(key)
    else ctx.lobs.set(key, { column: [], fromWhere: [], locked, row })
  }
}

/** `SELECT ... BULK COLLECT INTO collections FROM ...`: every row, SQL%ROWCOUNT their number. */
async function selectBulk(ctx: Frame, toks: Expr, into: number): Promise<void> {
  const from = toks.findIndex((t, k) => k > into && isKw(t, "FROM"))
  if (from < 0) throw new OraError(923, "FROM keyword not found where expected")
  const query = [...toks.slice(0, into - 2), ...toks.slice(from)]
  // a plain column or a star may be a LOB column: each row's locator names its row, as SELECT INTO's (runStatement)
  const select = Math.max(0, blockSelectBefore(toks, into - 2))
  const plain = splitTopLevel(toks.slice(select + 1, into - 2)).some((item) => item.every((t) => isName(t) || isOp(t, ".") || isOp(t, "*")))
  const derived = plain ? derivedLobRows(query, (schema, name) => ctx.host.lookupTable(schema, name)) : undefined
  const reader = new RowReader(await openQuery(ctx, derived?.toks ?? query, derived ?? (plain ? "lobs" : false)), ctx.host)
  try {
    const rows: Array<Array<DuckDBValue>> = []
    const rowids: Array<ReadonlyArray<bigint | undefined>> = []
    for (let row = await reader.next(); row !== undefined; row = await reader.next()) {
      rows.push(row)
      rowids.push(reader.rowids)
    }
    const targets = splitTopLevel(toks.slice(into + 1, from))
    assignBulk(ctx, targets, reader.names, rows)
    ctx.sqlRowCount = rows.length
    if (plain) bulkLocators(ctx, targets, reader.names, (column, r) => {
      const c = reader.result.columns[column]
      return c === undefined ? undefined : lobRowOf(c, (k) => rowids[r]?.[k])
    }, rows.length, toks.slice(from).some((t, k, all) => isKw(t, "FOR") && isKw(all[k + 1], "UPDATE")))
  } finally {
    reader.close()
  }
}

/**
 * The locators BULK COLLECT gave its collections' elements: `C(n)` (or `C(n).DOC` for a collection of records) names
 * the table row its column was read from (lob-locators.ts locatorKeyOf); the collections' older keys are dropped.
 */
function bulkLocators(ctx: Frame, targets: ReadonlyArray<Expr>, names: ReadonlyArray<string>, rowOf: (column: number, row: number) => LobSource["row"], count: number, locked: boolean): void {
  const records = targets.length === 1 && names.length > 1
  targets.forEach((t, i) => {
    if (t.length !== 1) return
    const name = locatorKey(t[0]!)
    for (const k of [...ctx.lobs.keys()]) if (k.startsWith(`${name}(`)) ctx.lobs.delete(k)
    for (let r = 0; r < count; r++) {
      const columns = records ? names.map((n, c) => [`${name}(${r + 1}).${n}`, c] as const) : [[`${name}(${r + 1})`, i] as const]
      for (const [key, column] of columns) {
        const row = rowOf(column, r)
        if (row !== undefined) ctx.lobs.set(key, { column: [], fromWhere: [], locked, row })
      }
    }
  })
}

/**
 * `DML ... RETURNING exprs INTO targets`: run as the session runs such a statement from a client (the block's names
 * as binds, the targets as OUT binds); one row's values assigned, TOO_MANY_ROWS for more.
 */
async function dmlReturning(ctx: Frame, toks: Expr, into: number): Promise<number> {
  if (isKw(toks[into - 1], "COLLECT") && isKw(toks[into - 2], "BULK")) return dmlReturningBulk(ctx, toks, into)
  const targets = splitTopLevel(toks.slice(into + 1))
  const { rewritten, values } = bindNames(ctx, toks.slice(0, into + 1), true)
  const outs = targets.map((_, i) => `:r${i + 1}`)
  const text = `${rewritten.map((t) => t.text).join(" ")} ${outs.join(", ")}`
  const result = await singleRowDml(ctx, text, [...values, ...targets.map(() => null)])
  targets.forEach((t, i) => assign(ctx, t, (result.returning?.[i]?.[0] ?? null) as DuckDBValue))
  // a LOB column the DML wrote: the variable is a locator of that (locked) row, for DBMS_LOB writes
  targets.forEach((t, i) => {
    const lob = result.returningLobs?.[i]
    const rowid = lob?.rowids[0]
    if (lob !== undefined && rowid !== undefined && t.length === 1 && t[0]!.kind !== "bind") ctx.lobs.set(t[0]!.value, { column: [], fromWhere: [], locked: true, row: { ...lob.source, rowid } })
  })
  return result.rowCount
}

/** The hidden savepoint a single-row RETURNING INTO rolls back to. */
const RETURNING_SAVEPOINT = '"ORA$RETURNING_INTO"'

/**
 * Runs a DML statement (client text, bind values `row`) whose RETURNING INTO takes one row. When it wrote several, its
 * changes are undone before TOO_MANY_ROWS is raised: the failed statement leaves nothing behind for a handler to see
 * (statement-level atomicity, PL/SQL Language Reference, "PL/SQL Error Handling"; Database Concepts,
 * "Statement-Level Atomicity").
 */
export async function singleRowDml(ctx: Frame, sql: string, row: ReadonlyArray<DuckDBValue>): Promise<Extract<StatementResult, { kind: "dml" }>> {
  const once = { batchErrors: false, dmlRowCounts: false }
  await ctx.host.execute(`SAVEPOINT ${RETURNING_SAVEPOINT}`, [[]], [], once)
  const result = await ctx.host.execute(sql, [row], [], once)
  if (result.kind !== "dml") throw ora.invalidSql()
  // the rows it returned: one for all those it wrote when RETURNING aggregates them (`RETURNING SUM(x) INTO v`)
  if ((result.returning?.[0]?.length ?? result.rowCount) > 1) {
    await ctx.host.execute(`ROLLBACK TO SAVEPOINT ${RETURNING_SAVEPOINT}`, [[]], [], once)
    throw new OraError(1422, "exact fetch returns more than requested number of rows")
  }
  return result
}

/** `DML ... RETURNING exprs BULK COLLECT INTO collections`: every returned row, one collection per expression. */
async function dmlReturningBulk(ctx: Frame, toks: Expr, into: number): Promise<number> {
  const targets = splitTopLevel(toks.slice(into + 1))
  const { rewritten, values } = bindNames(ctx, [...toks.slice(0, into - 2), toks[into]!], true)
  const outs = targets.map((_, i) => `:r${i + 1}`)
  const text = `${rewritten.map((t) => t.text).join(" ")} ${outs.join(", ")}`
  const result = await ctx.host.execute(text, [[...values, ...targets.map(() => null)]], [], { batchErrors: false, dmlRowCounts: false })
  if (result.kind !== "dml") throw ora.invalidSql()
  assignReturnedBulk(ctx, targets, result.returning ?? [], result.rowCount)
  return result.rowCount
}
