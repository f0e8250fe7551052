/**
 * The queries of one session: a client's query from its Oracle text to a described cursor (format models met per
 * value, rewrites, translation, privileges, FOR UPDATE locks, dictionary snapshots, stored functions called per row),
 * a PL/SQL block's already translated query, and the stored functions a statement calls. sqlsession.ts dispatches to
 * it; the DML that reads through it is session-dml.ts.
 */
import { describeCharItems } from "./char-item-types.ts"
import { datetimeTextReads, isCharacterBind } from "./datetime-text-reads.ts"
import type { DuckDBValue } from "@duckdb/node-api"
import type { ColumnInfo, Cursor, Session as EngineSession } from "../engine/index.ts"
import { dynamicFormatModels, MAY_HAVE_FORMAT, peekingSql, probeFormatValuesOnce, type SequenceStates, settleFormatSites } from "./format-model-sites.ts"
import { inlineFormatBindTokens } from "./format-model-binds.ts"
import { engineSequenceStates } from "./format-model-dml.ts"
import { expandedFormatViews, hasFormatViews } from "./format-views.ts"
import { readingViewQueries } from "./format-view-rights.ts"
import { callFromSql } from "./plsql/interpreter.ts"
import type { PlsqlHost } from "./plsql/host.ts"
import { storedFunctionCalls, type StatementCalls } from "./plsql/sql-functions.ts"
import { callableFromSql, packagesOf } from "./plsql/stored-packages.ts"
import { namedResultOf, rewriteSqlMethodCalls } from "./plsql/object-methods.ts"
import { ora } from "./errors.ts"
import { hasIntervalBinds } from "./intervals.ts"
import { significant, tokenize, type Tok } from "./lexer.ts"
import { encodeName } from "./names.ts"
import { rewriteRowSubqueries } from "./row-subqueries.ts"
import { rewriteQuantifiedLists } from "./quantified-lists.ts"
import { rowidOf } from "./row-locks.ts"
import { derivedLobRows, withDerivedLobRows } from "./derived-lob-rows.ts"
import { withWrittenHeadings } from "./expression-names.ts"
import { intervalLiteralTargets } from "./interval-writes.ts"
import { datetimeOperandCasts } from "./datetime-operand-casts.ts"
import { intervalBindKind, isLocalZoneBind, localZoneArithmetic } from "./local-zone-arithmetic.ts"
import { datetimeJoins } from "./datetime-joins.ts"
import { rewriteNumericIntervals } from "./numeric-intervals.ts"
import { rewriteSampleClauses } from "./sample-clause.ts"
import { type IsTable, rewriteSequenceRows } from "./sequence-rows.ts"
import { perRowSequenceValues } from "./sequence-row-lambdas.ts"
import type { StatementColumns } from "./session-columns.ts"
import { dictionaryTablesOf, queryDictionary } from "./session-dictionary.ts"
import { type AccessContext, checkAccess } from "./session-access.ts"
import { boundIntervals, intervalParams } from "./session-transaction.ts"
import { bindNumberingTranslator, type TranslationContext } from "./session-translate.ts"
import { searchPathSql } from "./session-variables.ts"
import { withTransactionDictionary } from "./transaction-dictionary.ts"
import { type BindSpec, type QueryResult, type ResultColumn, stripTerminator } from "./statement.ts"
import { translateQuery, type QueryShape } from "./translate.ts"

/** What running a session's queries needs from the SQL session. */
export interface SessionQueriesHost {
  /** The session itself, whose stored functions a query calls and whose locks and errors it uses. */
  readonly session: PlsqlHost
  /** The roles the session has enabled (the dictionary views it reads count their grants). */
  readonly enabledRoles: ReadonlySet<string>
  readonly columns: StatementColumns
  readonly isTable: IsTable
  /** Sets the session's variables on `s` (the admin session reading the dictionary as this session). */
  setVars(s: EngineSession): Promise<void>
  translation(): TranslationContext
  access(): AccessContext
  describe(shape: QueryShape | undefined, cols: ReadonlyArray<ColumnInfo>, specs?: ReadonlyArray<BindSpec>, lobTables?: ReadonlyArray<number>): Array<ResultColumn>
}

/** The queries of one session. */
export class SessionQueries {
  constructor(private readonly host: SessionQueriesHost) {}

  /**
   * Runs a query and describes its columns. With `lockAsFetched` (a client's query, a dynamic OPEN FOR), FOR UPDATE
   * SKIP LOCKED locks no row now: the result's claimFetchedRow locks each as it is fetched (skip-locked-fetch.ts).
   */
  async query(oracleSql: string, bound: ReadonlyArray<DuckDBValue>, boundSpecs: ReadonlyArray<BindSpec> = [], describeOnly = false, lockAsFetched = false): Promise<QueryResult> {
    const s = this.host.session
    if (!hasFormatViews(s.db)) return this.queryViewed(oracleSql, bound, boundSpecs, describeOnly, lockAsFetched)
    // a view with a format expression named by its query, read with its owner's rights (format-view-rights.ts)
    const viewed = expandedFormatViews(oracleSql, (schema, name) => s.lookupTable(schema, name))
    if (viewed.sql === oracleSql) return this.queryViewed(oracleSql, bound, boundSpecs, describeOnly, lockAsFetched)
    return readingViewQueries(s, () => significant(tokenize(oracleSql)), viewed.named, () => this.queryViewed(viewed.sql, bound, boundSpecs, describeOnly, lockAsFetched))
  }

  /** {@link query} of `sql`, its views with a format expression named by their queries. */
  private async queryViewed(sql: string, bound: ReadonlyArray<DuckDBValue>, boundSpecs: ReadonlyArray<BindSpec>, describeOnly: boolean, lockAsFetched: boolean): Promise<QueryResult> {
    if (!MAY_HAVE_FORMAT.test(sql)) return this.queryOnce(sql, bound, boundSpecs, describeOnly, false, lockAsFetched)
    // a format model that is an expression is evaluated per value met (format-model-sites.ts); a query taking NEXTVAL
    // learns them first from itself without it, so that it runs (and advances the sequence) once
    // (the probe of a query is the query itself, with all its binds)
    if (!describeOnly) await probeFormatValuesOnce(sql, [bound], boundSpecs, (q, _params, _specs, peeking) => this.readAll(q, bound, boundSpecs, peeking, lockAsFetched), this.sequenceStates)
    return settleFormatSites(sql, () => this.queryOnce(sql, bound, boundSpecs, describeOnly, false, lockAsFetched))
  }

  /** The engine's sequences as a format probe peeks at them (format-model-dml.ts), unqualified ones in this schema. */
  readonly sequenceStates = async (): Promise<{ readonly schema: string; readonly states: SequenceStates }> => ({ schema: encodeName(this.host.session.schema), states: await engineSequenceStates((q) => this.host.session.engine.queryAll(q)) })

  private async queryOnce(sql: string, bound: ReadonlyArray<DuckDBValue>, boundSpecs: ReadonlyArray<BindSpec>, describeOnly: boolean, peeking = false, lockAsFetched = false): Promise<QueryResult> {
    const s = this.host.session
    const lookup = (schema: string | undefined, name: string) => s.lookupTable(schema, name)
    // a bound format model (TO_CHAR(x, :fmt)) as the literal it is, its column heading the bind's (format-model-binds.ts)
    const inlined = inlineFormatBindTokens(tokenize(rewriteSequenceRows(rewriteSampleClauses(stripTerminator(sql)), this.host.isTable)), bound, boundSpecs, describeOnly)
    const { params, specs } = inlined
    // unaliased items keep the headings of their text as written through the rewrites below (expression-names.ts)
    const written = withWrittenHeadings(inlined.toks)
    const tokens = (MAY_HAVE_FORMAT.test(sql) ? dynamicFormatModels(written, sql, describeOnly)?.toks : undefined) ?? written
    const rewritten = datetimeJoins(intervalLiteralTargets(localZoneArithmetic(datetimeOperandCasts(rewriteRowSubqueries(rewriteQuantifiedLists(rewriteNumericIntervals(datetimeTextReads(tokens, lookup, (n) => isCharacterBind(specs[n - 1]))))), lookup, (n) => specs[n - 1]?.dty), lookup, (n) => intervalBindKind(specs[n - 1]), (n) => isLocalZoneBind(specs[n - 1])), lookup), lookup)
    // LOB columns read through FROM subqueries or UNION ALL: hidden row id items for their locators
    const derived = derivedLobRows(rewritten, lookup)
    const source = derived?.toks ?? rewritten
    const calls = this.callsOf(source, sql)
    const { toks, tr, binds } = bindNumberingTranslator(this.host.translation(), calls?.toks ?? source, sql, specs)
    let { sql: duckSql, shape } = translateQuery(toks, tr)
    shape = describeCharItems(toks, shape, lookup, specs)
    checkAccess(this.host.access(), toks, shape.from)
    // LOB columns read from tables: each one's row id selected last, for locators that write back
    const lobTables = derived === undefined ? this.host.columns.lobTablesOf(toks, shape) : []
    let lobRowids: ReadonlyArray<string> = lobTables.map((k) => rowidOf(shape.from, shape.from[k]!))
    if (lobRowids.length > 0) duckSql = translateQuery(toks, tr, lobRowids).sql
    if (binds.length > params.length) throw ora.notAllBound()
    let p = params.slice(0, binds.length)
    let claimFetchedRow: QueryResult["claimFetchedRow"]
    if (lockAsFetched && !describeOnly && shape.lock?.wait === "skip") {
      // its rows locked as they are fetched, by their row ids selected last (none by a format probe, which only reads)
      if (!peeking) {
        const atFetch = await s.skipLockedAtFetch(shape)
        const tables = [...lobTables, ...atFetch.tables.filter((k) => !lobTables.includes(k))]
        lobRowids = tables.map((k) => rowidOf(shape.from, shape.from[k]!))
        duckSql = translateQuery(toks, tr, lobRowids).sql
        const positions = atFetch.tables.map((k) => (derived?.hidden ?? 0) + tables.indexOf(k))
        claimFetchedRow = (rowids) => atFetch.claim(positions.map((at) => rowids[at]))
      }
    } else {
      // describing a statement (parse only) takes no row locks
      const locked = await s.lockForUpdate(shape, p, lobRowids, (rowids, extra) => translateQuery(toks, tr, rowids, extra).sql, describeOnly)
      if (locked !== undefined) ({ sql: duckSql, lobRowids } = locked)
    }
    duckSql = perRowSequenceValues(duckSql)
    if (peeking) duckSql = peekingSql(duckSql)
    const dict = dictionaryTablesOf(toks)
    let cursor: Cursor
    try {
      if (dict.size === 0 && hasIntervalBinds(p)) p = await intervalParams(s.engine, duckSql, p)
      const run = () => (dict.size > 0 ? this.dictionaryQuery(dict, duckSql, p) : s.engine.query(duckSql, p))
      cursor = calls === undefined ? await run() : await calls.settle(run, (fn, args) => callFromSql(s, fn, args))
    } catch (e) {
      await s.statementFailed()
      throw s.mapError(e)
    }
    const described = cursor.columns.length - lobRowids.length - (derived?.hidden ?? 0)
    const columns = this.host.describe(shape, cursor.columns.slice(0, described), specs, lobTables)
    return { kind: "query", columns: derived === undefined ? columns : withDerivedLobRows(columns, derived), cursor, ...((lobRowids.length > 0 || derived !== undefined) && { rowidColumn: described }), ...(claimFetchedRow !== undefined && { claimFetchedRow }) }
  }

  /**
   * A query reading `dictionary` snapshot tables: inside an open transaction on this session over copies of them
   * (transaction-dictionary.ts), so that it sees the transaction's own changes; else refreshed first, on the admin
   * session as this session.
   */
  private dictionaryQuery(dictionary: ReadonlySet<string>, duckSql: string, params: ReadonlyArray<DuckDBValue>): Promise<Cursor> {
    const s = this.host.session
    const asker = { user: s.info.user, roles: this.host.enabledRoles }
    if (s.engine.inTransaction) return withTransactionDictionary(s.db, s.engine, duckSql, dictionary, asker, (rename) => s.engine.query(rename(duckSql), params))
    return queryDictionary(s.db, dictionary, async (admin) => {
      await this.host.setVars(admin)
      await admin.execute(searchPathSql(s.schema))
    }, duckSql, params, asker)
  }

  /** Runs a client's query and reads all its rows; a failure while reading restores the transaction. */
  async readAll(sql: string, bound: ReadonlyArray<DuckDBValue>, specs: ReadonlyArray<BindSpec>, peeking = false, lockAsFetched = false): Promise<void> {
    const { cursor } = (await this.queryOnce(sql, bound, specs, false, peeking, lockAsFetched)) as { cursor: Cursor }
    try {
      while ((await cursor.next()) !== null);
    } catch (e) {
      await this.host.session.statementFailed()
      throw e
    } finally {
      cursor.close()
    }
  }

  /**
   * Runs an already translated DuckDB query and describes its columns; one reading `dictionary` tables runs as a
   * client's query of them does (refreshed first, on the admin session as this session).
   */
  async queryDuck(duckSql: string, params: ReadonlyArray<DuckDBValue>, shape?: QueryShape, withRowid: boolean | ReadonlyArray<number> = false, dictionary?: ReadonlySet<string>): Promise<QueryResult> {
    const s = this.host.session
    try {
      const cursor = dictionary === undefined || dictionary.size === 0 ? await s.engine.query(duckSql, hasIntervalBinds(params) ? await boundIntervals(s.engine, duckSql, params) : params) : await this.dictionaryQuery(dictionary, duckSql, params)
      const rowids = withRowid === true ? 1 : withRowid === false ? 0 : withRowid.length
      const described = cursor.columns.length - rowids
      const lobTables = typeof withRowid === "boolean" ? undefined : withRowid
      return { kind: "query", columns: this.host.describe(shape, cursor.columns.slice(0, described), [], lobTables), cursor, ...(rowids > 0 && { rowidColumn: described }) }
    } catch (e) {
      await s.statementFailed()
      throw s.mapError(e)
    }
  }

  /**
   * The stored functions statement `sql` (its tokens `source`) calls (plsql/sql-functions.ts), undefined when it calls
   * none. With no stored function to call: the errors of comparing objects of types without a MAP or ORDER method
   * (ORA-22950, ORA-22901: object-comparisons.ts, multiset-conditions.ts), which the method-call rewrite raises.
   */
  callsOf(source: ReadonlyArray<Tok>, sql: string): StatementCalls | undefined {
    const s = this.host.session
    const lookup = (schema: string | undefined, name: string) => s.lookupTable(schema, name)
    const columns = this.host.columns
    if (s.db.procedures.size === 0 && packagesOf(s.db).size === 0) {
      if (columns.columnsOf(sql, (t) => t.named?.kind === "object" || t.named?.kind === "table").size > 0) rewriteSqlMethodCalls(source, s.db, s.schema, lookup)
      return undefined
    }
    return storedFunctionCalls(rewriteSqlMethodCalls(source, s.db, s.schema, lookup), s.schema, (owner, name) => callableFromSql(s, owner, name), (name) => columns.columnsOf(sql, () => true).has(name), (fn) => namedResultOf(s.db, s.schema, fn))
  }
}
