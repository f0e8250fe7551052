/**
 * Oracle statement semantics for one session on top of a testkit/engine session: statement classes and their
 * dispatch, translation, declared column types, ALTER SESSION. The roles around it have their own modules: a
 * statement's first rewrites (statement-preparation.ts), queries (session-queries.ts), DML (session-dml.ts), the
 * rights in force (session-rights.ts), transactions and statement-level atomicity (session-transaction.ts), the keys an
 * INSERT claims (session-key-claims.ts), executeMany's bulk paths (session-execute-many.ts), data dictionary queries
 * (session-dictionary.ts), the typed columns a statement mentions (session-columns.ts), engine failures as ORA- errors
 * (session-errors.ts), the locks its statements take (session-locking.ts); DDL runs in ddl.ts, row-lock waits in
 * row-locks.ts.
 */
import { hasFormatExpressions, MAY_HAVE_FORMAT } from "./format-model-sites.ts"
import { rowsOfQuery } from "./plsql/interpreter.ts"
import { tableTriggers } from "./plsql/trigger-definitions.ts"
import { withTableCollectionRows, withTableCollections } from "./plsql/client-table-collections.ts"
import { isMultiTableInsert, runMultiTableInsert } from "./multi-table-insert.ts"
import { setRole } from "./role-statements.ts"
import { packageNamedType } from "./plsql/package-type-binds.ts"
import { takeCompileWarning } from "./plsql/compile-errors.ts"
import type { DuckDBType, DuckDBValue } from "@duckdb/node-api"
import type { AppendTarget, BulkRows, ColumnInfo, Session as EngineSession } from "../engine/index.ts"
import { type BatchTarget, BatchTargets } from "./bulk-insert.ts"
import type { TableMeta } from "./catalog.ts"
import { type OracleDatabase, type SessionInfo } from "./database.ts"
import { columnTypeError, parseTimeError } from "./statement-checks.ts"
import { definesQuery, engineFunctionNames, unknownFunctionError } from "./function-names.ts"
import { OraError } from "./errors.ts"
import { significant, tokenize, type Tok } from "./lexer.ts"
import { Ddl } from "./ddl.ts"
import { RowLockWaits } from "./row-locks.ts"
import { SessionLocking } from "./session-locking.ts"
import type { Requester } from "./privileges.ts"
import { bindSpecType, describeColumns } from "./results.ts"
import { describeTypeBlock, namedTypesOf } from "./named-types.ts"
import { runPlsql } from "./plsql.ts"
import { DEFAULT_NLS_FORMATS, type NlsFormats } from "./nls-formats.ts"
import { datetimeBindTexts } from "./datetime-bind-texts.ts"
import { type BindSpec, classify, type ExecuteOptions, type QueryResult, type ResultColumn } from "./statement.ts"
import { type StatementResult, stripTerminator } from "./statement.ts"
import { type QueryShape } from "./translate.ts"
import { mergeOnColumnError, unsupportedClauseErrorOf } from "./clause-checks.ts"
import { type IsTable, sequenceRowSource } from "./sequence-rows.ts"
import { expandedFormatViews, hasFormatViews } from "./format-views.ts"
import { readingViewQueries, throughViewQueries } from "./format-view-rights.ts"
import { dmlWithFormatExpressions } from "./format-model-dml.ts"
import { operandTypeError } from "./operand-type-checks.ts"
import { setOperationTypeErrorOf } from "./set-operation-types.ts"
import { SessionTransaction } from "./session-transaction.ts"
import { KeyClaims } from "./session-key-claims.ts"
import { SessionQueries } from "./session-queries.ts"
import { SessionDml } from "./session-dml.ts"
import { SessionRights } from "./session-rights.ts"
import { prepareStatement } from "./statement-preparation.ts"
import { ExecuteMany } from "./session-execute-many.ts"
import { StatementColumns } from "./session-columns.ts"
import { mapEngineError } from "./session-errors.ts"
import { alterSession, searchPathSql, setSessionVariables } from "./session-variables.ts"
import { type TranslatedStatement, type TranslationContext, translateStatement } from "./session-translate.ts"
import { type AccessContext, checkAccess, dmlPrivileges } from "./session-access.ts"
import { checkViewWrite, viewRightsOf } from "./view-owner-privileges.ts"
import { SessionSqlIds } from "./session-sql-ids.ts"
import { type ReturningHost } from "./session-returning.ts"
import { noteCommittedWrites } from "./materialized-views.ts"
import { runThroughView, writeThroughView } from "./view-dml.ts"
import { shareSessionAttributes } from "./application-info.ts"
import type { TextDatetimeKind } from "./translate-types.ts"
import { runControlStatement } from "./session-control-statements.ts"
import { runBlockPerBindRow } from "./block-bind-rows.ts"

/** One Oracle session's SQL state. */
export class SqlSession {
  schema: string
  sessionTz = "+00:00"
  /** NLS_NUMERIC_CHARACTERS of the session (TO_CHAR of a number writes its decimal character). */
  numericCharacters: string
  /** NLS_DATE_LANGUAGE of the session (month and day names in TO_CHAR and TO_DATE: date-language.ts). */
  dateLanguage = "AMERICAN"
  nlsFormats: NlsFormats = { ...DEFAULT_NLS_FORMATS }
  plsqlCcflags = ""
  private readonly ddlRunner: Ddl = new Ddl(this)
  private readonly locks: RowLockWaits = new RowLockWaits(this)
  private readonly batchTargets: BatchTargets = new BatchTargets(this)
  private readonly txn: SessionTransaction
  private readonly keys: KeyClaims
  private readonly many: ExecuteMany
  private readonly sqlIds: SessionSqlIds
  private readonly locking: SessionLocking
  private readonly returningHost: ReturningHost
  private readonly rights: SessionRights
  private readonly columns: StatementColumns = new StatementColumns((schema, name) => this.lookupTable(schema, name))
  private readonly queries: SessionQueries
  private readonly writes: SessionDml

  constructor(
    readonly db: OracleDatabase,
    readonly engine: EngineSession,
    readonly info: SessionInfo
  ) {
    this.schema = info.user
    const session = this
    this.rights = new SessionRights({
      db,
      engine,
      info,
      get schema() {
        return session.schema
      },
      set schema(schema) {
        session.schema = schema
      },
      setVars: () => this.setVars(engine)
    })
    this.numericCharacters = db.settings.numericCharacters ?? ".,"
    this.txn = new SessionTransaction({ engine, db, info, mapError: (e) => this.mapError(e), waitForRowLock: (deadline) => this.locks.waitForRowLock(deadline), searchPath: () => this.rights.searchPathText() })
    this.sqlIds = new SessionSqlIds(info, db.sqlArea)
    this.locking = new SessionLocking({
      db,
      info,
      locks: this.locks,
      get schema() {
        return session.schema
      },
      get inTransaction() {
        return session.txn.inTxn
      },
      lookupTable: (schema, name) => this.lookupTable(schema, name),
      begin: () => this.begin(),
      // what a materialized view over it learns at the commit (materialized-views.ts)
      noteWritten: (meta) => this.tablesWritten.add(`${meta.owner}.${meta.name}`)
    })
    this.keys = new KeyClaims({ db, info, txn: this.txn, locks: this.locks, readRows: (q, params) => this.engine.queryAll(q, params) })
    this.returningHost = { engine, txn: this.txn, keys: this.keys, mapError: (e) => this.mapError(e) }
    this.queries = new SessionQueries({
      session: this,
      get enabledRoles() {
        return session.enabledRoles
      },
      columns: this.columns,
      isTable: this.isTable,
      setVars: (s) => this.setVars(s),
      translation: () => this.translation(),
      access: () => this.access(),
      describe: (shape, cols, specs, lobTables) => this.describe(shape, cols, specs, lobTables)
    })
    this.writes = new SessionDml({
      session: this,
      txn: this.txn,
      locks: this.locks,
      locking: this.locking,
      keys: this.keys,
      get many() {
        return session.many
      },
      returning: this.returningHost,
      queries: this.queries,
      get enabledRoles() {
        return session.enabledRoles
      },
      isTable: this.isTable,
      translate: (sql, specs, source) => this.translate(sql, specs, source)
    })
    this.many = new ExecuteMany({
      engine,
      txn: this.txn,
      keys: this.keys,
      batchTargets: this.batchTargets,
      mapError: (e) => this.mapError(e),
      translate: (sql, specs) => this.translate(sql, specs),
      targetOf: (toks) => this.writes.targetOf(toks),
      datetimeBindTexts: () => datetimeBindTexts(this.nlsFormats, this.dateLanguage)
    })
  }

  /** Sets the session variables used by SYS_CONTEXT/USER and the DuckDB search path. */
  async init(sessionTz: string): Promise<void> {
    await this.engine.execute("SET TimeZone = 'UTC'")
    this.sessionTz = sessionTz
    await this.setVars(this.engine)
    await this.setSearchPath()
  }

  private setVars(s: EngineSession): Promise<void> {
    return setSessionVariables(this, s)
  }

  private async setSearchPath(): Promise<void> {
    await this.engine.execute(searchPathSql(this.schema))
  }

  /** True while a transaction is open (reported to the client as "transaction in progress"). */
  get transactionInProgress(): boolean {
    return this.txn.inTxn
  }

  /** Commits the open transaction. */
  async commit(): Promise<void> {
    const written = this.tablesWritten
    this.tablesWritten = new Set()
    await this.txn.commit()
    noteCommittedWrites(this.db, written)
  }

  /** Rolls the open transaction back. */
  rollback(): Promise<void> {
    this.tablesWritten = new Set()
    return this.txn.rollback()
  }

  /** Cancels the running statement (break): interrupts the engine and ends a wait for a row lock. */
  interrupt(): void {
    this.locks.interrupt()
    this.engine.interrupt()
    // the break reaches the statement an autonomous transaction of this session is running
    this.autonomous?.interrupt()
  }

  /** A new call starts: a break from an earlier call no longer applies. */
  startCall(): void {
    this.locks.startCall()
  }

  /** The call ended: the session no longer waits for any lock (row-locks.ts `endCall`). */
  endCall(): void {
    this.locks.endCall()
  }

  /** Opens the transaction if none is open (statements and row locks then belong to it). */
  begin(): Promise<void> {
    return this.txn.begin()
  }

  /** Runs a statement inside the transaction with Oracle statement-level atomicity. */
  runLogged(sql: string, params?: ReadonlyArray<DuckDBValue>, types?: ReadonlyArray<DuckDBType | undefined>, lockWaitMs = this.db.settings.lockWaitMs): Promise<number> {
    return this.txn.run(sql, params, types, lockWaitMs)
  }

  /**
   * A PL/SQL block's DML (engine text), with a client's statement's locks (session-dml.ts). One that fails releases
   * the locks it took (session-transaction.ts), also when a handler catches its error.
   */
  runBlockDml(sql: string, params: ReadonlyArray<DuckDBValue>): Promise<number> {
    return this.writes.runBlockDml(sql, params)
  }

  /** PL/SQL (plsql/host.ts): a break arrived during the current call. */
  get callInterrupted(): boolean {
    return this.locks.interrupted || (this.parent?.callInterrupted ?? false)
  }

  /** PL/SQL (plsql/host.ts): the engine failed part way through a statement; the transaction as it was before it. */
  async statementFailed(): Promise<void> {
    if (this.txn.inTxn) await this.txn.recover()
  }

  /** Maps an engine failure onto an ORA- error. */
  mapError(e: unknown): OraError {
    return mapEngineError(e, { settings: this.db.settings, tables: this.db.catalog.allTables(), schema: this.schema, sql: this.statementSql, target: this.writes.target, isUpdate: this.writes.isUpdate, objects: this.db.catalog.allObjects() })
  }

  /** The Oracle text of the statement being executed (errors Oracle words with its parts). */
  private statementSql = ""
  /** The tables the open transaction wrote (`OWNER.NAME`), for the materialized views over them at its commit. */
  private tablesWritten = new Set<string>()

  /** A request carries `sql` to parse (V$SQL: session-sql-ids.ts). */
  noteParse(sql: string): void {
    this.sqlIds.noteParse(sql)
  }

  /** A call starts running `sql` (V$SESSION's STATUS, SQL_ID and PREV_SQL_ID: session-sql-ids.ts). */
  noteSql(sql: string): void {
    this.sqlIds.noteSql(sql)
  }

  /** A FETCH continues the query `sql`. */
  resumeSql(sql: string): void {
    this.sqlIds.resumeSql(sql)
  }

  /** The call ended (`cancelled`: by a break, whose statement V$SESSION still shows). */
  finishSql(cancelled: boolean): void {
    this.sqlIds.finishSql(cancelled)
  }

  /**
   * One run of a PL/SQL block, atomic as Oracle makes a top-level call: a block that fails undoes its own writes
   * (the transaction's earlier statements stay), by replaying the log up to where the block started.
   */
  private runBlock(sql: string, values: ReadonlyArray<DuckDBValue>, specs: ReadonlyArray<BindSpec>): Promise<StatementResult> {
    return this.txn.atomically(() => runPlsql(this, sql, values, specs))
  }

  /** ORA-00904 for a call of a function Oracle does not have that the engine would answer (function-names.ts). */
  private async unknownFunction(sql: string): Promise<OraError | undefined> {
    const names = await engineFunctionNames(this.db, () => this.engine.queryAll("SELECT DISTINCT function_name FROM duckdb_functions()"))
    const procedures = [...this.db.procedures.keys()]
    return unknownFunctionError(sql, names, (name) => procedures.some((k) => k.endsWith(`.${name}`)) || namedTypesOf(this.db).hasName(name))
  }

  /**
   * Executes one statement for each bind row (one row when there are no binds). A statement that fails releases the
   * locks it took (session-transaction.ts).
   */
  execute(given: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<StatementResult> {
    return this.txn.releasingLocksOnFailure(() => this.executeOnce(given, rows, specs, opts))
  }

  private async executeOnce(given: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<StatementResult> {
    const cls = classify(given)
    // conditional compilation, bound format models, WITH FUNCTION, synonyms (statement-preparation.ts)
    const prepared = await prepareStatement(this, cls, given, rows, specs, opts)
    if ("result" in prepared) return prepared.result
    const sql = prepared.sql
    this.statementSql = sql
    // INSERT ALL / FIRST: one single-table INSERT per INTO clause, each checked and run as a statement of its own
    if (cls === "dml" && isMultiTableInsert(sql)) return runMultiTableInsert({ execute: (...a) => this.execute(...a), atomically: (body) => this.txn.atomically(body) }, sql, rows, specs, opts)
    // into an updatable view: onto its base table (view-dml.ts)
    const viaView = cls === "dml" ? writeThroughView(this.db, sql, (schema, name) => this.lookupTable(schema, name), (view) => tableTriggers(this.db, view).length > 0) : undefined
    if (viaView !== undefined) {
      // the privileges of a write through a view are the view's (its own write's when it is under the view written)
      const toks = significant(tokenize(stripTerminator(sql)))
      if (this.viewBase?.has(viaView.view) !== true) this.checkStatementAccess(toks, viaView.view)
      // and the view's owner's on what it writes (view-owner-privileges.ts)
      checkViewWrite(viewRightsOf(this.db), viaView.view, viaView.base, dmlPrivileges(toks[0]?.value))
      const outer = this.viewBase
      // a view over a view: the outer views stay unchecked too (a join view's rewrite reads the view it writes)
      this.viewBase = new Set([...(outer ?? []), viaView.base, viaView.view])
      try {
        return await runThroughView({ execute: (...a) => this.execute(...a), atomically: (body) => this.txn.atomically(body), count: async (q, bound = [], boundSpecs = []) => Number((await rowsOfQuery(this, await this.query(q, bound, boundSpecs)))[0]?.[0] ?? 0), column: async (q) => (await rowsOfQuery(this, await this.query(q, []))).map((r) => r[0] ?? null) }, viaView, rows, specs, opts)
      } finally {
        this.viewBase = outer
      }
    }
    const parseError =
      cls === "query" || cls === "dml"
        ? (unsupportedClauseErrorOf(sql) ?? mergeOnColumnError(sql) ?? parseTimeError(sql) ?? operandTypeError(sql, { numbers: this.columns.columnsOfKind(sql, "number"), dates: this.columns.columnsOfKind(sql, "date"), others: this.columns.columnsOf(sql, (t) => t.kind !== "number" && t.kind !== "date"), characters: this.columns.columnsOf(sql, (t) => t.dictName === "VARCHAR2" || t.dictName === "CHAR") }) ?? (await this.unknownFunction(sql)) ?? setOperationTypeErrorOf(sql, (schema, name) => this.lookupTable(schema, name)))
        : cls === "ddl" ? (columnTypeError(sql) ?? (definesQuery(sql) ? ((await this.unknownFunction(sql)) ?? setOperationTypeErrorOf(sql, (schema, name) => this.lookupTable(schema, name))) : undefined)) : undefined
    if (parseError !== undefined) throw parseError
    switch (cls) {
      case "query":
        return this.query(...(await withTableCollections(this, sql, rows[0] ?? [], specs)), false, opts.lockAsFetched === true)
      case "dml": {
        // a view with a format expression named by its query, read with its owner's rights (format-view-rights.ts)
        const viewed = hasFormatViews(this.db) ? expandedFormatViews(sql, (schema, name) => this.lookupTable(schema, name)) : { sql, named: [] }
        const host = { readAll: this.queries.readAll.bind(this.queries), sequences: this.queries.sequenceStates, atomically: (body: () => Promise<StatementResult>) => this.txn.atomically(body), dml: async (text: string, r: ReadonlyArray<ReadonlyArray<DuckDBValue>>, s: ReadonlyArray<BindSpec>) => this.writes.dml(...(await withTableCollectionRows(this, text, r, s)), opts) }
        const formatDml = () => dmlWithFormatExpressions<DuckDBValue, BindSpec, StatementResult>(host, viewed.sql, rows, specs)
        if (MAY_HAVE_FORMAT.test(viewed.sql) && hasFormatExpressions(tokenize(viewed.sql))) return viewed.sql === sql ? formatDml() : readingViewQueries(this, () => significant(tokenize(sql)), viewed.named, formatDml)
        return this.writes.dml(...(await withTableCollectionRows(this, sql, rows, specs)), opts)
      }
      case "ddl":
        await this.commit()
        await this.ddl(sql)
        return takeCompileWarning(this) ? { kind: "done", compileWarning: true } : { kind: "done" }
      case "plsql": {
        const described = await describeTypeBlock(namedTypesOf(this.db), this.schema, this.engine, sql, rows[0] ?? [], (parts) => packageNamedType(this, parts))
        if (described !== undefined) return described
        return runBlockPerBindRow((values) => this.runBlock(sql, values, specs), (e) => this.mapError(e), rows)
      }
      case "commit":
        await this.commit()
        return { kind: "done" }
      default:
        return runControlStatement(
          {
            rollback: () => this.rollback(),
            rollbackTo: (name) => this.txn.rollbackTo(name),
            savepoint: (name) => this.txn.savepoint(name),
            setRole: (toks) => setRole({ auth: this.db.auth, user: this.info.user, setEnabledRoles: (roles) => this.setEnabledRoles(roles) }, toks),
            lockTable: (sql) => this.locking.lockTable(sql)
          },
          cls === "rollback",
          sql
        )
    }
  }

  /**
   * Translates an Oracle expression/statement fragment with positional binds; `specs` (of a DML request's binds)
   * tell which binds are NUMBERs, whose quotients are computed on every digit as in queries (session-translate.ts).
   */
  translate(sql: string, specs?: ReadonlyArray<BindSpec>, source: ReadonlyArray<Tok> = tokenize(sql)): TranslatedStatement {
    return translateStatement(this.translation(), sql, specs, source)
  }

  /** What translating a statement needs from this session, as it is now (schema, time zone). */
  translation(): TranslationContext {
    return { db: this.db, schema: this.schema, sessionTz: this.sessionTz, columns: this.columns, lookupTable: (schema, name) => this.lookupTable(schema, name) }
  }

  /** Who reads and writes, for the privilege checks of a statement (session-access.ts). */
  private access(): AccessContext {
    return { who: this.requester, catalog: this.db.catalog, schema: this.schema, lookupTable: (schema, name) => this.lookupTable(schema, name), throughView: throughViewQueries(this, this.viewBase), viewRights: viewRightsOf(this.db) }
  }

  /**
   * Checks the privileges statement `toks` needs with the rights in force (a block's statement too): those of the
   * DML on `target`, the table it writes, and SELECT on the other schemas' tables it names (session-access.ts).
   */
  checkStatementAccess(toks: ReadonlyArray<Tok>, target?: TableMeta): void {
    checkAccess(this.access(), toks, [], target === undefined ? undefined : { meta: target, privileges: dmlPrivileges(toks[0]?.value) })
  }

  /** The session user's rights, for privilege checks (session-rights.ts). */
  get requester(): Requester {
    return this.rights.requester
  }

  /** The table (or view) a write through a view is reaching, whose privileges are not checked (session-access.ts). */
  private viewBase: ReadonlySet<TableMeta> | undefined

  /** Runs `body`, the code of a stored unit, with the rights of `owner` (definer's rights: session-rights.ts). */
  runAs<T>(owner: string | undefined, body: () => Promise<T>): Promise<T> {
    return this.rights.runAs(owner, body)
  }

  /** The user whose privileges are active (SYS_CONTEXT('USERENV', 'CURRENT_USER')). */
  get currentUser(): string {
    return this.rights.currentUser
  }

  /** The roles the session has enabled (session-rights.ts). */
  get enabledRoles(): ReadonlySet<string> {
    return this.rights.roles
  }

  /** SET ROLE (role-statements.ts): the roles enabled from now on, shown to the session's SQL too. */
  setEnabledRoles(roles: ReadonlySet<string>): Promise<void> {
    return this.rights.setEnabledRoles(roles)
  }

  /**
   * A session for an autonomous transaction this one starts (plsql/autonomous.ts): the same user, schema, roles, NLS
   * settings, SID and attributes, its own engine session, so its own transaction and row locks (held under a SID of
   * its own, which no V$SESSION row shows).
   */
  async openAutonomous(): Promise<SqlSession> {
    const engine = await this.db.engine.session()
    const info: SessionInfo = Object.create(this.info, { sid: { value: this.db.newSid() } })
    const own = new SqlSession(this.db, engine, info)
    own.parent = this
    own.schema = this.schema
    own.rights.roles = this.rights.roles
    own.numericCharacters = this.numericCharacters
    own.dateLanguage = this.dateLanguage
    own.nlsFormats = { ...this.nlsFormats }
    own.plsqlCcflags = this.plsqlCcflags
    await own.init(this.sessionTz)
    await engine.execute(`SET VARIABLE ora_sid = ${this.info.sid}`)
    await shareSessionAttributes(this.info, info, engine)
    this.autonomous = own
    return own
  }

  /** The session an autonomous one was opened from: package state and DBMS_OUTPUT are that session's. */
  parent: SqlSession | undefined
  /** The autonomous session this one is running a routine on, if any (a break interrupts it too). */
  private autonomous: SqlSession | undefined

  /** Ends an autonomous session (its transaction already ended): its engine session closes. */
  async closeAutonomous(): Promise<void> {
    if (this.parent !== undefined) this.parent.autonomous = undefined
    this.endCall()
    if (this.db.releaseLocks(this.info.sid)) this.db.transactionEnded()
    await this.engine.close()
  }

  /** Runs a query and describes its columns (session-queries.ts). */
  query(oracleSql: string, bound: ReadonlyArray<DuckDBValue>, boundSpecs: ReadonlyArray<BindSpec> = [], describeOnly = false, lockAsFetched = false): Promise<QueryResult> {
    return this.queries.query(oracleSql, bound, boundSpecs, describeOnly, lockAsFetched)
  }

  /** The FOR UPDATE clause of a query: its locks taken, its text without the rows SKIP LOCKED leaves out (session-locking.ts). */
  lockForUpdate(shape: QueryShape, params: ReadonlyArray<DuckDBValue>, lobRowids: ReadonlyArray<string>, translate: (lobRowids: ReadonlyArray<string>, extra: ReadonlyArray<string>) => string, describeOnly = false): Promise<{ sql: string; lobRowids: ReadonlyArray<string> } | undefined> {
    return this.locking.forUpdate(shape, params, lobRowids, translate, describeOnly)
  }

  /** FOR UPDATE SKIP LOCKED of a PL/SQL cursor, which locks its rows as they are fetched (session-locking.ts). */
  skipLockedAtFetch(shape: QueryShape): Promise<{ tables: ReadonlyArray<number>; claim: (rowids: ReadonlyArray<bigint | undefined>) => Promise<boolean> }> {
    return this.locking.skipLockedAtFetch(shape)
  }

  /** The DuckDB row ids a query selects; a failure restores the transaction and is thrown as an ORA- error. */
  async rowIdsOf(sql: string, params: ReadonlyArray<DuckDBValue>): Promise<Array<bigint>> {
    return (await this.rowIdTuplesOf(sql, params)).map((r) => r[0]!)
  }

  /** The row ids and further whole numbers each row of a query selects; a failure as {@link rowIdsOf}'s. */
  async rowIdTuplesOf(sql: string, params: ReadonlyArray<DuckDBValue>): Promise<Array<Array<bigint>>> {
    try {
      return (await this.engine.queryAll(sql, params)).map((r) => r.map((v) => BigInt(String(v))))
    } catch (e) {
      if (this.txn.inTxn) await this.txn.recover()
      throw this.mapError(e)
    }
  }

  /** DATE/TIMESTAMP column names of the tables a statement mentions (identifier match against the catalog). */
  dateColumnsOf(sql: string): ReadonlySet<string> {
    return this.columns.dateColumnsOf(sql)
  }

  /** Names of the NUMBER columns without precision (stored as exact decimal text) of the tables a statement mentions. */
  exactNumberColumnsOf(sql: string): ReadonlySet<string> {
    return this.columns.exactNumberColumnsOf(sql)
  }

  /** Zoned and wall-clock text datetime columns, by name, of the tables a statement mentions. */
  textDatetimeColumnsOf(sql: string): ReadonlyMap<string, TextDatetimeKind> {
    return this.columns.textDatetimeColumnsOf(sql)
  }

  /** NUMBER(p[,s]) column names (DuckDB DECIMAL / integers) of the tables a statement mentions. */
  boundedNumberColumnsOf(sql: string): ReadonlySet<string> {
    return this.columns.boundedNumberColumnsOf(sql)
  }

  /**
   * Runs an already translated DuckDB query and describes its columns; one reading `dictionary` tables runs as a
   * client's query of them does (refreshed first, on the admin session as this session).
   */
  queryDuck(duckSql: string, params: ReadonlyArray<DuckDBValue>, shape?: QueryShape, withRowid: boolean | ReadonlyArray<number> = false, dictionary?: ReadonlySet<string>): Promise<QueryResult> {
    return this.queries.queryDuck(duckSql, params, shape, withRowid, dictionary)
  }

  /** Resolves an unqualified or qualified table name visible to this session. */
  lookupTable(schema: string | undefined, name: string): TableMeta | undefined {
    if (schema !== undefined) return this.db.catalog.getTable(schema, name)
    return this.db.catalog.getTable(this.schema, name) ?? this.db.catalog.getTable("SYS", name)
  }

  /** Maps result columns to declared types where the select list makes that possible. */
  describe(shape: QueryShape | undefined, cols: ReadonlyArray<ColumnInfo>, specs: ReadonlyArray<BindSpec> = [], lobTables?: ReadonlyArray<number>): Array<ResultColumn> {
    return describeColumns(shape, cols, this.db.settings.version, (schema, name) => this.lookupTable(schema, name), (n) => bindSpecType(specs[n - 1]), lobTables)
  }

  /** Whether a name is a table of the catalog, or a view's columns (sequence-rows.ts joins tables back by row id). */
  private readonly isTable: IsTable = (schema, name) => sequenceRowSource(this.lookupTable(schema, name))

  /** PL/SQL (plsql/host.ts): keeps what a logged statement uses until the transaction ends. */
  holdUntilTransactionEnds(release: () => void): void {
    this.txn.holdUntilEnd(release)
  }

  /** PL/SQL (plsql/host.ts): runs a write and undoes it, for the stored functions it calls to note their arguments (session-dml.ts). */
  probeWrite(duckSql: string, params: ReadonlyArray<DuckDBValue>): Promise<void> {
    return this.writes.probeWrite(duckSql, params)
  }

  /** For `INSERT ... VALUES (...)` with binds: inserts a chunk of bind rows through the bulk path (session-dml.ts). */
  bulkChunk(sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs?: ReadonlyArray<BindSpec>): Promise<number | undefined> {
    return this.writes.bulkChunk(sql, rows, specs)
  }

  /** The append target of an executeMany INSERT, undefined when the statement needs the general path (session-dml.ts). */
  appendTargetOf(sql: string): Promise<BatchTarget | undefined> {
    return this.writes.appendTargetOf(sql)
  }

  /** Appends rows laid out for an append target inside the transaction; undefined on a failure (session-execute-many.ts). */
  appendBulk(table: string | AppendTarget, bulk: BulkRows): Promise<number | undefined> {
    return this.many.appendBulk(table, bulk)
  }

  /** Executes DDL (after the implicit commit). */
  ddl(sql: string): Promise<void> {
    return this.ddlRunner.run(sql)
  }

  /** ALTER SESSION SET CURRENT_SCHEMA | TIME_ZONE | NLS_NUMERIC_CHARACTERS (others are accepted and ignored). */
  alterSession(toks: ReadonlyArray<Tok>): Promise<void> {
    return alterSession(this, toks)
  }
}
