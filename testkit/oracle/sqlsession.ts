/**
 * Oracle statement semantics for one session on top of a testkit/engine session: statement classes,
 * translation, declared column types, transactions (implicit start, DDL commits, statement-level
 * atomicity), executeMany (bulk path), ALTER SESSION and the data dictionary. DDL runs in ddl.ts, row-lock waits in
 * row-locks.ts, and executeMany's column-wise layout and append targets come from bulk-insert.ts.
 *
 * DuckDB aborts a whole transaction when one statement fails, while Oracle only rolls back the failed
 * statement. The session therefore keeps a log of the successful statements of the open transaction and,
 * after a failure, rolls back and replays that log before reporting the error.
 */
import { callFromSql, rowsOfQuery } from "./plsql/interpreter.ts"
import { runWithTriggers, tableTriggers, type Trigger, type TriggerSession } from "./plsql/triggers.ts"
import { storedFunctionCalls, type StatementCalls, writeProbe } from "./plsql/sql-functions.ts"
import { callableFromSql, packagesOf } from "./plsql/stored-packages.ts"
import { takeCompileWarning } from "./plsql/stored-code.ts"
import * as crypto from "node:crypto"
import { DuckDBBlobValue, DuckDBListValue, DuckDBTimestampNanosecondsValue, DuckDBTimestampTZValue, DuckDBTimestampValue } from "@duckdb/node-api"
import type { DuckDBType, DuckDBValue } from "@duckdb/node-api"
import type { ColumnInfo, Cursor, Session as EngineSession } from "../engine/index.ts"
import { EngineError } from "../engine/index.ts"
import type { AppendTarget, BulkRows } from "../engine/index.ts"
import { type BatchTarget, BatchTargets, bulkRowsOfBinds } from "./bulk-insert.ts"
import type { TableMeta } from "./catalog.ts"
import { dictionaryShapes } from "./catalog.ts"
import { type OracleDatabase, type SessionInfo, sqlIdOf } from "./database.ts"
import { duplicateKeyColumns, fromDuckDb, logEngineFailure } from "./duckdb-errors.ts"
import { columnTypeError, parseTimeError, syntaxErrorOf } from "./statement-checks.ts"
import { definesQuery, engineFunctionNames, unknownFunctionError } from "./function-names.ts"
import { characterBinds } from "./character-arithmetic.ts"
import { withZonedAliases } from "./zoned-aliases.ts"
import { ora, OraError } from "./errors.ts"
import { rewriteJsonSql } from "./json-sql.ts"
import { rewriteDbmsLob } from "./lob-functions.ts"
import { rewriteBuiltinCalls } from "./builtin-functions.ts"
import { rewriteFloatConditions } from "./float-conditions.ts"
import { anyIntervalBinds, hasIntervalBinds, intervalParamsFor } from "./intervals.ts"
import { isKw, isOp, matchParen, significant, sqlString, tokenize, type Tok } from "./lexer.ts"
import { rewriteRowSubqueries } from "./row-subqueries.ts"
import { Ddl } from "./ddl.ts"
import { engineStatement, RowLockWaits } from "./row-locks.ts"
import { type ObjectPrivilege, objectAccessError, type Requester } from "./privileges.ts"
import { type KeyedTable, keyedTable, keysOfBulk, keysOfRows, returningKeys } from "./key-locks.ts"
import { returningLobPlan } from "./returning-lobs.ts"
import { bindSpecType, describeColumns } from "./results.ts"
import { decodeName, encodeName, quoteDuck } from "./names.ts"
import { withExactAliases } from "./number-aliases.ts"
import { withBinaryAliases } from "./binary-aliases.ts"
import { canonicalNumberWrites } from "./number-writes.ts"
import { zonedBinds } from "./datetime-binds.ts"
import { intervalColumnTypesOf, isExactInterval } from "./interval-exprs.ts"
import { datetimeInsertSelects, sessionZoneWrites } from "./datetime-writes.ts"
import { intervalLiteralTargets } from "./interval-writes.ts"
import { intervalBindKind, isLocalZoneBind, localZoneArithmetic } from "./local-zone-arithmetic.ts"
import { datetimeJoins } from "./datetime-joins.ts"
import { describeTypeBlock, namedTypesOf } from "./named-types.ts"
import type { ValueKind } from "./types.ts"
import { runPlsql } from "./plsql.ts"
import { rewriteAttributeAccess } from "./object-attributes.ts"
import { currentOffsetMinutes, sessionTimeZoneOf } from "./datetime.ts"
import {
  type BindSpec,
  classify,
  type DmlResult,
  type ExecuteOptions,
  type QueryResult,
  type ResultColumn,
  returningClause,
  type StatementResult,
  stripTerminator
} from "./statement.ts"
import { rewriteHierarchical } from "./hierarchical.ts"
import { rewriteOuterJoinPlus } from "./outer-join-plus.ts"
import { type BinaryKind, type ExactIntervalKind, type ExactIntervals, type FromRef, makeTranslator, oracleName, type TextDatetimeKind, translateQuery, type QueryShape } from "./translate.ts"
import type { OraType } from "./types.ts"
import { isAcceptedNoOp, isSessionParameter, unknownSessionParameter } from "./session-settings.ts"
import { parseLockTable } from "./lock-table.ts"
import { lockColumnError, mergeOnColumnError, unsupportedClauseErrorOf } from "./clause-checks.ts"
import { rewriteSampleClauses } from "./sample-clause.ts"
import { operandTypeError } from "./operand-type-checks.ts"
import { refuseLiteralObjectWrites } from "./object-writes.ts"
import { rewriteNumericIntervals } from "./numeric-intervals.ts"
import { checkDatetimeLiterals } from "./datetime-literal-checks.ts"

interface LogEntry {
  readonly sql: string
  readonly params: ReadonlyArray<DuckDBValue> | undefined
  readonly types: ReadonlyArray<DuckDBType | undefined> | undefined
  /** A batch appended column-wise (executeMany's fast path), replayed as such instead of `sql`. */
  readonly append?: { readonly table: string | AppendTarget; readonly rows: BulkRows }
}

const DICTIONARY_NAMES = new Set(Object.keys(dictionaryShapes).filter((n) => n !== "DUAL"))
const isDictionaryName = (v: string) =>
  DICTIONARY_NAMES.has(v) ||
  /^(USER|DBA)_(TABLES|VIEWS|TAB_COLUMNS|CONSTRAINTS|CONS_COLUMNS|OBJECTS|SEQUENCES|USERS|TAB_COMMENTS|COL_COMMENTS|INDEXES|IND_COLUMNS|TYPES|TYPE_ATTRS|COLL_TYPES|SOURCE|ERRORS|PROCEDURES|ARGUMENTS|TRIGGERS)$/.test(v) ||
  v === "TABS" ||
  v === "COLS"

const md5 = (b: Buffer) => crypto.createHash("md5").update(b).digest()

/** One Oracle session's SQL state. */
export class SqlSession {
  schema: string
  sessionTz = "+00:00"
  /** NLS_NUMERIC_CHARACTERS of the session (TO_CHAR of a number writes its decimal character). */
  numericCharacters: string
  private inTxn = false
  private log: Array<LogEntry> = []
  private readonly ddlRunner: Ddl = new Ddl(this)
  private readonly locks: RowLockWaits = new RowLockWaits(this)
  private readonly batchTargets: BatchTargets = new BatchTargets(this)

  constructor(
    readonly db: OracleDatabase,
    readonly engine: EngineSession,
    readonly info: SessionInfo
  ) {
    this.schema = info.user
    this.numericCharacters = db.settings.numericCharacters ?? ".,"
  }

  /** Sets the session variables used by SYS_CONTEXT/USER and the DuckDB search path. */
  async init(sessionTz: string): Promise<void> {
    await this.engine.execute("SET TimeZone = 'UTC'")
    this.sessionTz = sessionTz
    await this.setVars(this.engine)
    await this.setSearchPath()
  }

  private async setVars(s: EngineSession): Promise<void> {
    const u = this.db.catalog.users.get(this.info.user)
    const sch = this.db.catalog.users.get(this.schema)
    const vars: Record<string, string | number> = {
      ora_user: this.info.user,
      ora_uid: u?.userId ?? 0,
      ora_schema: this.schema,
      ora_schema_id: sch?.userId ?? 0,
      ora_sid: this.info.sid,
      ora_machine: this.info.machine,
      ora_osuser: this.info.osUser,
      ora_module: this.info.program,
      ora_action: "",
      ora_client_id: "",
      ora_client_info: "",
      ora_session_tz: this.sessionTz,
      ora_nls_numeric: this.numericCharacters,
      ora_session_tz_min: currentOffsetMinutes(this.sessionTz) ?? this.db.dbOffsetMinutes(),
      ora_session_tz_region: /^[+-]\d{1,2}:\d{2}$/.test(this.sessionTz) ? "" : this.sessionTz
    }
    await s.execute(
      Object.entries(vars)
        .map(([k, v]) => `SET VARIABLE ${k} = ${typeof v === "number" ? v : sqlString(v)}`)
        .join("; ")
    )
  }

  private async setSearchPath(): Promise<void> {
    await this.engine.execute(`SET search_path = '${quoteDuck(encodeName(this.schema)).replace(/'/g, "''")},"SYS",main'`)
  }

  /** True while a transaction is open (reported to the client as "transaction in progress"). */
  get transactionInProgress(): boolean {
    return this.inTxn
  }

  /** Commits the open transaction. */
  async commit(): Promise<void> {
    this.savepoints.clear()
    this.releaseHeld()
    if (!this.inTxn) return
    this.inTxn = false
    this.log = []
    try {
      await this.engine.commit()
    } catch (e) {
      // DuckDB checks some constraints only at commit (the transaction is then rolled back, as after Oracle's ORA-02091)
      throw this.mapError(e)
    } finally {
      this.db.releaseLocks(this.info.sid)
      this.db.transactionEnded()
    }
  }

  /** Rolls the open transaction back. */
  async rollback(): Promise<void> {
    this.savepoints.clear()
    this.releaseHeld()
    if (!this.inTxn) return
    this.inTxn = false
    this.log = []
    await this.engine.rollback()
    this.db.releaseLocks(this.info.sid)
    this.db.transactionEnded()
  }

  /** Cancels the running statement (break): interrupts the engine and ends a wait for a row lock. */
  interrupt(): void {
    this.locks.interrupt()
    this.engine.interrupt()
  }

  /** A new call starts: a break from an earlier call no longer applies. */
  startCall(): void {
    this.locks.startCall()
  }

  /** Opens the transaction if none is open (statements and row locks then belong to it). */
  async begin(): Promise<void> {
    if (this.inTxn) return
    this.releaseHeld()
    await this.engine.begin()
    this.inTxn = true
    this.log = []
  }

  /** Runs a statement inside the transaction with Oracle statement-level atomicity. */
  runLogged(sql: string, params?: ReadonlyArray<DuckDBValue>, types?: ReadonlyArray<DuckDBType | undefined>, lockWaitMs = this.db.settings.lockWaitMs): Promise<number> {
    return this.logged(sql, params, types, lockWaitMs, (p) => this.engine.execute(sql, p, types))
  }

  /**
   * A PL/SQL block's DML (engine text), with a client's statement's locks: an UPDATE / DELETE locks the rows it writes
   * until the transaction ends, an INSERT waits for keys other open transactions inserted and holds its own.
   */
  async runBlockDml(sql: string, params: ReadonlyArray<DuckDBValue>): Promise<number> {
    const t = engineStatement(sql)
    const target = t === undefined ? undefined : this.targetOf(t.toks)
    // an INSERT of a key another open transaction inserted waits for it, as a client's INSERT does (key-locks.ts)
    const keyed = t !== undefined && isKw(t.toks[0], "INSERT") && returningClause(t.toks) === undefined ? keyedTable(target) : undefined
    if (keyed !== undefined) return (await this.claimingKeys(keyed, () => this.runInsert(sql, params), true))!
    const written = t === undefined ? undefined : await this.locks.rowsToWrite(target, t, params)
    const n = await this.runLogged(sql, params)
    if (written !== undefined && target !== undefined && this.inTxn) this.locks.holdWrittenRows(target, written)
    return n
  }

  /** {@link runLogged} for a statement whose RETURNING rows are read (e.g. the keys an INSERT wrote). */
  private runLoggedReturning(sql: string, params: ReadonlyArray<DuckDBValue> | undefined): Promise<ReadonlyArray<ReadonlyArray<unknown>>> {
    return this.logged(sql, params, undefined, this.db.settings.lockWaitMs, (p) => this.engine.queryAll(sql, p))
  }

  private async logged<T>(
    sql: string,
    params: ReadonlyArray<DuckDBValue> | undefined,
    types: ReadonlyArray<DuckDBType | undefined> | undefined,
    lockWaitMs: number,
    run: (params: ReadonlyArray<DuckDBValue> | undefined) => Promise<T>
  ): Promise<T> {
    const deadline = Date.now() + lockWaitMs
    for (;;) {
      await this.begin()
      try {
        if (hasIntervalBinds(params)) params = await this.intervalParams(sql, params!)
        const out = await run(params)
        this.log.push({ sql, params, types })
        return out
      } catch (e) {
        await this.recover()
        if (!isWriteConflict(e)) throw this.mapError(e)
        await this.locks.waitForRowLock(deadline)
      }
    }
  }

  /** Bound intervals as the storage of their parameters takes them (intervals.ts). */
  private async intervalParams(sql: string, params: ReadonlyArray<DuckDBValue>): Promise<Array<DuckDBValue>> {
    const prepared = await this.engine.prepare(sql)
    try {
      return intervalParamsFor(params, (i) => prepared.parameterType(i))
    } finally {
      prepared.close()
    }
  }

  private savepoints = new Map<string, number>()

  /** ROLLBACK TO SAVEPOINT: roll back and replay the transaction's statements up to the savepoint. */
  private async rollbackTo(name: string): Promise<void> {
    const mark = this.savepoints.get(name)
    if (mark === undefined || !this.inTxn) throw new OraError(1086, `savepoint '${name}' never established in this session or is invalid`)
    const keep = this.log.slice(0, mark)
    for (const [k, v] of this.savepoints) if (v > mark) this.savepoints.delete(k)
    this.log = keep
    await this.recover()
    if (!this.inTxn) {
      // nothing to replay: stay in a (new) transaction, as Oracle does after ROLLBACK TO SAVEPOINT
      await this.begin()
    }
  }

  /** PL/SQL (plsql/host.ts): a break arrived during the current call. */
  get callInterrupted(): boolean {
    return this.locks.interrupted
  }

  /** PL/SQL (plsql/host.ts): the engine failed part way through a statement; the transaction as it was before it. */
  async statementFailed(): Promise<void> {
    if (this.inTxn) await this.recover()
  }

  /** After a failed statement: roll back and replay the successful statements of the transaction. */
  private async recover(): Promise<void> {
    const log = this.log
    try {
      await this.engine.rollback()
    } catch {
      // already rolled back, or a break's interrupt landed on the ROLLBACK itself, which leaves DuckDB's transaction
      // open and aborted ("Current transaction is aborted" for every later statement): end it
      await this.engine.execute("ROLLBACK").catch(() => undefined)
    }
    this.inTxn = false
    this.log = []
    if (log.length === 0) return
    try {
      await this.engine.begin()
      this.inTxn = true
      for (const entry of log) {
        if (entry.append !== undefined) await this.engine.appendRows(entry.append.table, entry.append.rows)
        else await this.engine.execute(entry.sql, entry.params, entry.types)
      }
    } catch (e) {
      // a replay that failed (or a break's interrupt landing on it) leaves DuckDB's transaction aborted: end it
      // rather than fail every later statement with "Current transaction is aborted"
      await this.engine.rollback().catch(() => this.engine.execute("ROLLBACK").catch(() => undefined))
      this.inTxn = false
      this.db.releaseLocks(this.info.sid)
      this.db.transactionEnded()
      throw e
    }
    this.log = log
  }

  /** Maps an engine failure onto an ORA- error. */
  mapError(e: unknown): OraError {
    if (e instanceof OraError) return e
    const message = e instanceof Error ? e.message : String(e)
    const target = this.dmlTarget
    const integrity = integrityError(message, target, this.db.catalog.allTables())
    if (integrity !== undefined) return integrity
    const mapped = fromDuckDb(message, this.db.settings.version, decodeName, target?.owner ?? this.schema, this.statementSql)
    const err = mapped.code === 933 && /Parser Error/i.test(message) ? (syntaxErrorOf(this.statementSql) ?? mapped) : mapped
    logEngineFailure(this.db.settings, message, err)
    // an UPDATE to NULL is ORA-01407, an INSERT of NULL ORA-01400 (Error Messages, ORA-01407)
    const nulled = err.code === 1400 && this.dmlIsUpdate ? /\((.*)\)$/.exec(err.detail) : null
    if (nulled !== null) return new OraError(1407, `cannot update (${nulled[1]}) to NULL`)
    if (err.code === 1 && target !== undefined) {
      // name the table's primary key / unique constraint (23ai also names the table and columns)
      // the key DuckDB names (`Duplicate key "CODE: A"`) picks the constraint: a UNIQUE one is not the primary key
      const columns = duplicateKeyColumns(message, decodeName)
      const keyed = columns === undefined ? undefined : target.constraints.find((x) => (x.type === "P" || x.type === "U") && x.columns.length === columns.length && x.columns.every((n) => columns.includes(n)))
      const c = keyed ?? target.constraints.find((x) => x.type === "P") ?? target.constraints.find((x) => x.type === "U")
      if (c !== undefined) {
        const tail = this.db.settings.version === "23ai" ? ` on table ${target.owner}.${target.name} columns (${c.columns.join(", ")})` : ""
        return new OraError(1, `unique constraint (${target.owner}.${c.name}) violated${tail}`)
      }
    }
    return err
  }

  /** The Oracle text of the statement being executed (errors Oracle words with its parts). */
  private statementSql = ""
  /** Table written by the DML statement being executed (for constraint names in errors). */
  private dmlTarget: TableMeta | undefined
  /** True while the DML statement being executed is an UPDATE (or MERGE), whose NOT NULL failures are ORA-01407. */
  private dmlIsUpdate = false

  /** SQL_ID of the statement the session ran last (V$SESSION.PREV_SQL_ID once the next one starts). */
  private lastSqlId: string | null = null

  /** A call starts running `sql`: V$SESSION shows it ACTIVE with the statement's SQL_ID, the previous one as PREV_SQL_ID. */
  noteSql(sql: string): void {
    if (this.lastSqlId !== null) this.info.prevSqlId = this.lastSqlId
    this.info.sqlId = this.lastSqlId = sqlIdOf(sql, md5)
    this.info.status = "ACTIVE"
  }

  /** A FETCH continues the query `sql` (ACTIVE again, PREV_SQL_ID unchanged). */
  resumeSql(sql: string): void {
    this.info.sqlId = sqlIdOf(sql, md5)
    this.info.status = "ACTIVE"
  }

  /**
   * The call ended: INACTIVE, and SQL_ID back to NULL, except after a cancel, where the cancelled statement's SQL_ID
   * stays until the next statement runs (as Oracle is expected to show a cancelled query in V$SESSION). Not confirmed:
   * the Oracle Database Reference defines SQL_ID only as the statement "currently being executed"
   * (https://docs.oracle.com/cd/B28359_01/server.111/b28320/dynviews_3016.htm) and says nothing about a cancel.
   */
  finishSql(cancelled: boolean): void {
    this.info.status = "INACTIVE"
    if (cancelled || this.info.sqlId === null) return
    this.info.prevSqlId = this.info.sqlId
    this.info.sqlId = null
  }

  /**
   * One run of a PL/SQL block, atomic as Oracle makes a top-level call: a block that fails undoes its own writes
   * (the transaction's earlier statements stay), by replaying the log up to where the block started.
   */
  private runBlock(sql: string, values: ReadonlyArray<DuckDBValue>, specs: ReadonlyArray<BindSpec>): Promise<StatementResult> {
    return this.atomically(() => runPlsql(this, sql, values, specs))
  }

  /** Runs `body`, undoing the writes it logged when it fails (Oracle's statement-level atomicity of one call). */
  private async atomically<T>(body: () => Promise<T>): Promise<T> {
    const mark = this.log.length
    try {
      return await body()
    } catch (e) {
      if (this.inTxn && this.log.length > mark) {
        this.log = this.log.slice(0, mark)
        await this.recover()
      }
      throw e
    }
  }

  /** ORA-00904 for a call of a function Oracle does not have that the engine would answer (function-names.ts). */
  private async unknownFunction(sql: string): Promise<OraError | undefined> {
    const names = await engineFunctionNames(this.db, () => this.engine.queryAll("SELECT DISTINCT function_name FROM duckdb_functions()"))
    const procedures = [...this.db.procedures.keys()]
    return unknownFunctionError(sql, names, (name) => procedures.some((k) => k.endsWith(`.${name}`)) || namedTypesOf(this.db).hasName(name))
  }

  /** Executes one statement for each bind row (one row when there are no binds). */
  async execute(sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<StatementResult> {
    const cls = classify(sql)
    this.statementSql = sql
    const parseError =
      cls === "query" || cls === "dml"
        ? (unsupportedClauseErrorOf(sql) ?? mergeOnColumnError(sql) ?? parseTimeError(sql) ?? operandTypeError(sql, { numbers: this.columnsOfKind(sql, "number"), dates: this.columnsOfKind(sql, "date"), others: this.columnsOf(sql, (t) => t.kind !== "number" && t.kind !== "date") }) ?? (await this.unknownFunction(sql)))
        : cls === "ddl" ? (columnTypeError(sql) ?? (definesQuery(sql) ? await this.unknownFunction(sql) : undefined)) : undefined
    if (parseError !== undefined) throw parseError
    switch (cls) {
      case "query":
        return this.query(sql, rows[0] ?? [], specs)
      case "dml":
        return this.dml(sql, rows, specs, opts)
      case "ddl":
        await this.commit()
        await this.ddl(sql)
        return takeCompileWarning(this) ? { kind: "done", compileWarning: true } : { kind: "done" }
      case "plsql": {
        const described = await describeTypeBlock(namedTypesOf(this.db), this.schema, this.engine, sql, rows[0] ?? [])
        if (described !== undefined) return described
        // an executeMany of a block runs it once per bind row, in order, stopping at the first that fails (its row
        // number travels with the error, as for DML); the reply carries the last run's bind values
        let result = await this.runBlock(sql, rows[0] ?? [], specs)
        for (let i = 1; i < rows.length; i++) {
          try {
            result = await this.runBlock(sql, rows[i]!, specs)
          } catch (e) {
            const err = this.mapError(e)
            ;(err as OraError & { rowOffset?: number }).rowOffset = i
            throw err
          }
        }
        return result
      }
      case "commit":
        await this.commit()
        return { kind: "done" }
      case "rollback": {
        const to = /^\s*ROLLBACK\s+(?:WORK\s+)?TO\s+(?:SAVEPOINT\s+)?("?)([^"\s;]+)\1\s*;?\s*$/i.exec(sql)
        if (to !== null) {
          await this.rollbackTo(to[1] === '"' ? to[2]! : to[2]!.toUpperCase())
          return { kind: "done" }
        }
        await this.rollback()
        return { kind: "done" }
      }
      default: {
        const kw = sql.trim().split(/\s+/)[0]?.toUpperCase() ?? ""
        const sp = /^\s*SAVEPOINT\s+("?)([^"\s;]+)\1\s*;?\s*$/i.exec(sql)
        if (sp !== null) {
          // a savepoint is a position in the replay log of the transaction
          await this.begin()
          this.savepoints.set(sp[1] === '"' ? sp[2]! : sp[2]!.toUpperCase(), this.log.length)
          return { kind: "done" }
        }
        if (kw === "SET") return { kind: "done" }
        if (kw === "LOCK") {
          for (const t of parseLockTable(sql))
            if (this.lookupTable(t.schema, t.name) === undefined) throw ora.tableNotFound(this.db.settings.version, t.schema ?? this.schema, t.name)
          // a lock is held to the end of the transaction the statement starts (not modelled: no table locks)
          await this.begin()
          return { kind: "done" }
        }
        if (kw === "EXPLAIN") throw ora.unimplemented(kw)
        throw ora.invalidSql()
      }
    }
  }

  /**
   * Translates an Oracle expression/statement fragment with positional binds; `specs` (of a DML request's binds)
   * tell which binds are NUMBERs, whose quotients are computed on every digit as in queries.
   */
  translate(sql: string, specs?: ReadonlyArray<BindSpec>, source: ReadonlyArray<Tok> = tokenize(sql)): { toks: Array<Tok>; text: (from: number, to: number) => string; binds: Array<string> } {
    const lookup = (schema: string | undefined, name: string) => this.lookupTable(schema, name)
    const rewritten = localZoneArithmetic(unqualifySetTargets(rewriteRowSubqueries(rewriteNumericIntervals([...source]))), lookup, (n) => intervalBindKind(specs?.[n - 1]), (n) => isLocalZoneBind(specs?.[n - 1]))
    refuseLiteralObjectWrites(rewritten, lookup)
    const written = intervalLiteralTargets(datetimeInsertSelects(sessionZoneWrites(canonicalNumberWrites(rewritten, lookup), lookup), lookup), lookup)
    const { toks, tr, binds } = this.bindNumberingTranslator(written, sql, specs)
    return { toks, text: (a, b) => tr.range(a, b), binds }
  }

  /**
   * A translator over `tokens` whose bind variables become `$1…$n`, numbered in source order; `specs` (of a query's
   * binds, by number) tell which are NUMBERs, divided on every digit.
   */
  private bindNumberingTranslator(source: ReadonlyArray<Tok>, sql: string, specs?: ReadonlyArray<BindSpec>) {
    const lookup = (schema: string | undefined, name: string) => this.lookupTable(schema, name)
    const attributes = rewriteAttributeAccess(rewriteFloatConditions(rewriteDbmsLob(rewriteBuiltinCalls(rewriteJsonSql(rewriteHierarchical(rewriteOuterJoinPlus(source, lookup), lookup), this.db.settings.version, this.columnsOfKind(sql, "json")), this.schema))), (schema, name) => this.lookupTable(schema, name))
    checkDatetimeLiterals(source)
    const tokens = namedTypesOf(this.db).rewriteConstructors(this.schema, attributes)
    const binds: Array<string> = []
    const numbers = new Map<Tok, number>()
    const { toks, tr } = makeTranslator(tokens, {
      bind: (name, tok) => {
        let n = numbers.get(tok)
        if (n === undefined) {
          binds.push(name)
          n = binds.length
          numbers.set(tok, n)
        }
        return `$${n}`
      },
      dbTimeZone: this.db.settings.dbTimeZone,
      dateColumns: this.dateColumnsOf(sql),
      exactIntervals: this.exactIntervalsOf(sql),
      exactIntervalColumns: this.exactIntervalColumnsOf(sql),
      intervalColumnTypes: intervalColumnTypesOf(sql, (schema, name) => this.lookupTable(schema, name)),
      dayColumns: this.columnsOfKind(sql, "date"),
      intervalColumns: this.columnsOf(sql, (t) => t.kind === "intervalds" || t.kind === "intervalym"),
      localZoneColumns: this.columnsOfKind(sql, "timestampltz"),
      sessionTimeZone: this.sessionTz,
      binaryColumns: this.binaryColumnsOf(sql),
      exactNumberColumns: this.exactNumberColumnsOf(sql),
      boundedNumberColumns: this.boundedNumberColumnsOf(sql),
      ...(specs !== undefined ? { numberBind: (n: number) => bindSpecType(specs[n - 1])?.kind === "number", datetimeBind: zonedBinds(specs), ...characterBinds(specs) } : {}),
      characterColumns: this.columnsOf(sql, (t) => t.kind === "varchar" || t.kind === "nvarchar"),
      textDatetimeColumns: this.textDatetimeColumnsOf(sql)
    })
    // numbered in source order, which rewrites that move clauses (hierarchical.ts, outer-join-plus.ts) keep in `pos`
    toks
      .flatMap((t, k) => (t.kind === "bind" ? [{ pos: t.pos, k }] : []))
      .sort((a, b) => a.pos - b.pos)
      .forEach(({ k }) => tr.range(k, k + 1))
    return { toks, tr, binds }
  }

  /** The session user's rights, for privilege checks (privileges.ts). */
  get requester(): Requester {
    return { user: this.info.user, dba: this.db.dbaUsers.has(this.info.user), grants: this.db.grants, version: this.db.settings.version }
  }

  /**
   * Checks the privileges a statement needs on other schemas' tables and views: `target.privileges` on the table a
   * DML statement writes, SELECT on every other one it names (qualified, or in `from` unqualified under another
   * CURRENT_SCHEMA), and SELECT ANY DICTIONARY (here: DBA) for the DBA_* views.
   */
  private checkAccess(toks: ReadonlyArray<Tok>, from: ReadonlyArray<FromRef>, target?: { readonly meta: TableMeta; readonly privileges: ReadonlyArray<ObjectPrivilege> }): void {
    const who = this.requester
    if (who.dba) return
    const dbaView = toks.find((t) => t.kind === "ident" && t.value.startsWith("DBA_") && isDictionaryName(t.value))
    if (dbaView !== undefined) throw ora.tableNotFound(who.version, undefined, dbaView.value)
    const check = (meta: TableMeta, privilege: ObjectPrivilege) => {
      const e = objectAccessError(who, meta.owner, meta.name, privilege)
      if (e !== undefined) throw e
    }
    if (target !== undefined) for (const p of target.privileges) check(target.meta, p)
    const isName = (t: Tok | undefined) => t !== undefined && (t.kind === "ident" || t.kind === "qident")
    for (let k = 0; k + 2 < toks.length; k++) {
      if (!isName(toks[k]) || !isOp(toks[k + 1], ".") || !isName(toks[k + 2]) || isOp(toks[k + 3], ".") || isOp(toks[k + 3], "(") || isOp(toks[k - 1], ".")) continue
      const owner = oracleName(toks[k]!)
      if (owner === who.user || !this.db.catalog.users.has(owner)) continue
      const meta = this.db.catalog.getTable(owner, oracleName(toks[k + 2]!))
      if (meta !== undefined && meta !== target?.meta) check(meta, "SELECT")
    }
    if (this.schema === who.user) return
    for (const f of from) {
      const meta = f.schema === undefined ? this.lookupTable(undefined, f.table) : undefined
      if (meta !== undefined && meta !== target?.meta) check(meta, "SELECT")
    }
  }

  /** Runs a query and describes its columns. */
  async query(sql: string, params: ReadonlyArray<DuckDBValue>, specs: ReadonlyArray<BindSpec> = [], describeOnly = false): Promise<QueryResult> {
    const lookup = (schema: string | undefined, name: string) => this.lookupTable(schema, name)
    const source = datetimeJoins(intervalLiteralTargets(localZoneArithmetic(rewriteRowSubqueries(rewriteNumericIntervals(tokenize(rewriteSampleClauses(stripTerminator(sql))))), lookup, (n) => intervalBindKind(specs[n - 1]), (n) => isLocalZoneBind(specs[n - 1])), lookup), lookup)
    const calls = this.db.procedures.size === 0 && packagesOf(this.db).size === 0 ? undefined : this.storedFunctionCalls(source, sql)
    const { toks, tr, binds } = this.bindNumberingTranslator(calls?.toks ?? source, sql, specs)
    let { sql: duckSql, shape } = translateQuery(toks, tr)
    this.checkAccess(toks, shape.from)
    let withRowid = this.selectsTableLob(toks, shape)
    if (withRowid) duckSql = translateQuery(toks, tr, true).sql
    if (binds.length > params.length) throw ora.notAllBound()
    let p = params.slice(0, binds.length)
    const lockColumn = shape.lock === undefined ? undefined : lockColumnError(shape.from, shape.lock, lookup)
    if (lockColumn !== undefined) throw lockColumn
    // describing a statement (parse only) takes no row locks
    if (!describeOnly && shape.lock !== undefined && shape.lock.wait !== "skip") await this.locks.lockRows(shape.from, shape.lock, p)
    const skipped = !describeOnly && shape.lock?.wait === "skip" ? await this.locks.lockRowsSkippingLocked(shape.from, shape.lock, p) : undefined
    if (skipped !== undefined && skipped.length > 0) {
      // SKIP LOCKED leaves out the rows other transactions hold, found by the row id the query then selects last
      if (!withRowid) duckSql = translateQuery(toks, tr, true).sql
      withRowid = true
      duckSql = `SELECT * FROM (${duckSql}) AS ora_skip_locked WHERE "ora$lob_rowid" NOT IN (${skipped.join(", ")})`
    }
    const dict = new Set(toks.filter((t) => t.kind === "ident" && isDictionaryName(t.value)).map((t) => t.value))
    let cursor: Cursor
    try {
      if (dict.size > 0) {
        const resolved = new Set([...dict].map((n) => n.replace(/^(USER|DBA)_/, "ALL_")).map((n) => (n === "TABS" ? "ALL_TABLES" : n === "COLS" ? "ALL_TAB_COLUMNS" : n)))
        const run = () =>
          this.db.withAdmin(async (admin) => {
            await this.db.refreshDictionary(admin, resolved)
            await this.setVars(admin)
            await admin.execute(`SET search_path = '${quoteDuck(encodeName(this.schema)).replace(/'/g, "''")},"SYS",main'`)
            return admin.query(duckSql, p)
          })
        cursor = calls === undefined ? await run() : await calls.settle(run, (fn, args) => callFromSql(this, fn, args))
      } else {
        if (hasIntervalBinds(p)) p = await this.intervalParams(duckSql, p)
        const run = () => this.engine.query(duckSql, p)
        cursor = calls === undefined ? await run() : await calls.settle(run, (fn, args) => callFromSql(this, fn, args))
      }
    } catch (e) {
      if (this.inTxn) await this.recover()
      throw this.mapError(e)
    }
    if (!withRowid) return { kind: "query", columns: this.describe(shape, cursor.columns, specs), cursor }
    const described = cursor.columns.length - 1
    return { kind: "query", columns: this.describe(shape, cursor.columns.slice(0, described), specs), cursor, rowidColumn: described }
  }

  /** The stored functions a client's query calls (plsql/sql-functions.ts), undefined when it calls none. */
  private storedFunctionCalls(source: ReadonlyArray<Tok>, sql: string): StatementCalls | undefined {
    return storedFunctionCalls(source, this.schema, (owner, name) => callableFromSql(this, owner, name), (name) => this.columnsOf(sql, () => true).has(name))
  }

  /**
   * True when a query reads LOB columns of its one table row by row (no grouping, DISTINCT or set operation), so
   * that their locators can name the row a LOB write goes to.
   */
  private selectsTableLob(toks: ReadonlyArray<Tok>, shape: QueryShape): boolean {
    if (shape.from.length !== 1 || shape.items.some((i) => i.kind === "aggregate")) return false
    const meta = this.lookupTable(shape.from[0]!.schema, shape.from[0]!.table)
    if (meta === undefined || meta.kind !== "TABLE") return false
    const isLob = (name: string) => meta.columns.some((c) => c.name === name && (c.type.kind === "clob" || c.type.kind === "nclob" || c.type.kind === "blob"))
    if (!shape.items.some((i) => (i.kind === "star" && meta.columns.some((c) => isLob(c.name))) || (i.kind === "col" && isLob(i.column)))) return false
    let depth = 0
    for (const t of toks) {
      if (isOp(t, "(")) depth++
      else if (isOp(t, ")")) depth--
      else if (depth === 0 && isKw(t, "GROUP", "DISTINCT", "UNIQUE", "UNION", "INTERSECT", "MINUS", "EXCEPT", "HAVING", "CONNECT")) return false
    }
    return true
  }

  /** The DuckDB row ids a query selects; a failure restores the transaction and is thrown as an ORA- error. */
  async rowIdsOf(sql: string, params: ReadonlyArray<DuckDBValue>): Promise<Array<bigint>> {
    try {
      return (await this.engine.queryAll(sql, params)).map((r) => BigInt(String(r[0])))
    } catch (e) {
      if (this.inTxn) await this.recover()
      throw this.mapError(e)
    }
  }

  /** DATE/TIMESTAMP column names of the tables a statement mentions (identifier match against the catalog). */
  dateColumnsOf(sql: string): ReadonlySet<string> {
    return this.columnsOf(sql, (t) => ["date", "timestamp", "timestamptz", "timestampltz"].includes(t.kind))
  }

  /** Names of the NUMBER columns without precision (stored as exact decimal text) of the tables a statement mentions. */
  exactNumberColumnsOf(sql: string): ReadonlySet<string> {
    const out = new Set(this.columnsOf(sql, (t) => t.kind === "number" && t.duck === "VARCHAR"))
    // and those the statement itself declares (CHECK constraints of CREATE TABLE / ALTER TABLE ADD name them)
    const toks = tokenize(sql).filter((t) => t.kind !== "ws")
    if (isKw(toks[0], "CREATE", "ALTER"))
      toks.forEach((t, k) => {
        if ((t.kind === "ident" || t.kind === "qident") && isKw(toks[k + 1], "NUMBER") && !isOp(toks[k + 2], "(")) out.add(oracleName(t))
      })
    // and the names the statement's subqueries and WITH blocks give such values
    return withExactAliases(toks, out, this.boundedNumberColumnsOf(sql))
  }

  /** NUMBER(p[,s]) column names (DuckDB DECIMAL / integers) of the tables a statement mentions. */
  boundedNumberColumnsOf(sql: string): ReadonlySet<string> {
    return this.columnsOf(sql, (t) => t.kind === "number" && t.duck !== "VARCHAR")
  }

  /** Names of the columns of a type `keep` accepts, of the tables a statement mentions (identifier match against the catalog). */
  private columnsOf(sql: string, keep: (type: OraType) => boolean): ReadonlySet<string> {
    const out = new Set<string>()
    for (const t of tokenize(sql)) {
      if (t.kind !== "ident" && t.kind !== "qident") continue
      const meta = this.lookupTable(undefined, oracleName(t))
      if (meta === undefined) continue
      for (const c of meta.columns) if (keep(c.type)) out.add(c.name)
    }
    return out
  }

  /** TIMESTAMP WITH TIME ZONE and TIMESTAMP(7-9) columns (stored as text) of the tables a statement mentions. */
  textDatetimeColumnsOf(sql: string): ReadonlyMap<string, TextDatetimeKind> {
    const out = new Map<string, TextDatetimeKind>()
    for (const name of this.columnsOf(sql, (t) => t.kind === "timestamp" && t.duck === "VARCHAR")) out.set(name, "wall")
    for (const name of this.columnsOfKind(sql, "timestamptz")) out.set(name, "zoned")
    for (const name of this.columnsOf(sql, (t) => t.kind === "timestampltz" && t.duck === "VARCHAR")) out.set(name, "zoned")
    // and the names the statement's subqueries and WITH blocks give zoned values (zoned-aliases.ts)
    return withZonedAliases(significant(tokenize(sql)), out)
  }

  /** Names of the columns of `kind` of the tables a statement mentions (identifier match against the catalog). */
  columnsOfKind(sql: string, kind: ValueKind): ReadonlySet<string> {
    const out = new Set<string>()
    for (const t of tokenize(sql)) {
      if (t.kind !== "ident" && t.kind !== "qident") continue
      for (const c of this.lookupTable(undefined, oracleName(t))?.columns ?? []) if (c.type.kind === kind) out.add(c.name)
    }
    return out
  }

  /** BINARY_DOUBLE / BINARY_FLOAT column names of the tables a statement mentions (identifier match, as dateColumnsOf). */
  binaryColumnsOf(sql: string): ReadonlyMap<string, BinaryKind> {
    const out = new Map<string, BinaryKind>()
    for (const t of tokenize(sql)) {
      if (t.kind !== "ident" && t.kind !== "qident") continue
      const meta = this.lookupTable(undefined, oracleName(t))
      if (meta === undefined) continue
      for (const c of meta.columns) if (c.type.kind === "double" || c.type.kind === "float") out.set(c.name, c.type.kind)
    }
    // and the names the statement's subqueries and WITH blocks give such values (binary-aliases.ts)
    return withBinaryAliases(significant(tokenize(sql)), out)
  }

  /** Interval kinds all of whose columns in the tables a statement mentions are stored exactly (intervals.ts). */
  exactIntervalsOf(sql: string): ExactIntervals {
    const exact = { ds: false, ym: false }
    const plain = { ds: false, ym: false }
    for (const t of tokenize(sql)) {
      if (t.kind !== "ident" && t.kind !== "qident") continue
      for (const c of this.lookupTable(undefined, oracleName(t))?.columns ?? []) {
        const kind = c.type.kind === "intervalds" ? "ds" : c.type.kind === "intervalym" ? "ym" : undefined
        if (kind !== undefined) (c.type.duck === "INTERVAL" ? plain : exact)[kind] = true
      }
    }
    return { dayToSecond: exact.ds && !plain.ds, yearToMonth: exact.ym && !plain.ym }
  }

  /** The interval columns stored exactly (intervals.ts) of the tables a statement mentions, by name. */
  exactIntervalColumnsOf(sql: string): ReadonlyMap<string, ExactIntervalKind> {
    const out = new Map<string, ExactIntervalKind>()
    for (const name of this.columnsOf(sql, (t) => t.kind === "intervalds" && t.duck !== "INTERVAL")) out.set(name, "dayToSecond")
    for (const name of this.columnsOf(sql, (t) => t.kind === "intervalym" && t.duck !== "INTERVAL")) out.set(name, "yearToMonth")
    // aliases a subquery gives exact interval columns (interval-exprs.ts)
    for (const [name, t] of intervalColumnTypesOf(sql, (schema, table) => this.lookupTable(schema, table))) if (!out.has(name) && isExactInterval(t)) out.set(name, t.kind === "intervalds" ? "dayToSecond" : "yearToMonth")
    return out
  }

  /** Runs an already translated DuckDB query and describes its columns. */
  async queryDuck(duckSql: string, params: ReadonlyArray<DuckDBValue>, shape?: QueryShape): Promise<QueryResult> {
    try {
      const cursor = await this.engine.query(duckSql, params)
      return { kind: "query", columns: this.describe(shape, cursor.columns), cursor }
    } catch (e) {
      if (this.inTxn) await this.recover()
      throw this.mapError(e)
    }
  }

  /** Resolves an unqualified or qualified table name visible to this session. */
  lookupTable(schema: string | undefined, name: string): TableMeta | undefined {
    if (schema !== undefined) return this.db.catalog.getTable(schema, name)
    return this.db.catalog.getTable(this.schema, name) ?? this.db.catalog.getTable("SYS", name)
  }

  /** Maps result columns to declared types where the select list makes that possible. */
  describe(shape: QueryShape | undefined, cols: ReadonlyArray<ColumnInfo>, specs: ReadonlyArray<BindSpec> = []): Array<ResultColumn> {
    return describeColumns(shape, cols, this.db.settings.version, (schema, name) => this.lookupTable(schema, name), (n) => bindSpecType(specs[n - 1]))
  }

  /** The table an INSERT / UPDATE / DELETE / MERGE writes, when the catalog knows it. */
  private targetOf(toks: ReadonlyArray<Tok>): TableMeta | undefined {
    const at = isKw(toks[1], "INTO", "FROM") ? 2 : 1
    const a = toks[at]
    if (a === undefined || (a.kind !== "ident" && a.kind !== "qident")) return undefined
    return isOp(toks[at + 1], ".") && toks[at + 2] !== undefined
      ? this.lookupTable(oracleName(a), oracleName(toks[at + 2]!))
      : this.lookupTable(undefined, oracleName(a))
  }

  /** Keys the running INSERT wrote into a table with primary-key or unique constraints (key-locks.ts). */
  private insertKeys: { readonly keyed: KeyedTable; readonly keys: Array<string> } | undefined

  /**
   * Runs `write` (an INSERT into `keyed`, which records the keys it writes in {@link insertKeys}) and claims its keys.
   * When another open transaction inserted one of them, the write is undone and, with `wait`, retried whenever a
   * transaction ends (then DuckDB raises the duplicate key if that transaction committed), until the lock wait
   * bound (ORA-30006) or a break (ORA-01013); without `wait` undefined is returned (the general path then waits).
   */
  private async claimingKeys<T>(keyed: KeyedTable, write: () => Promise<T>, wait: boolean): Promise<T | undefined> {
    if (this.insertKeys !== undefined) return write()
    const deadline = Date.now() + this.db.settings.lockWaitMs
    for (;;) {
      const mark = this.log.length
      const claim = { keyed, keys: new Array<string>() }
      this.insertKeys = claim
      // A holder whose COMMIT finishes while the write runs releases its keys before this check, although DuckDB
      // accepted the write against its uncommitted key (and would fail only this transaction's COMMIT): a release
      // on the table during the write makes the write run again, then DuckDB sees the other transaction's outcome.
      const releases = this.db.keyLocks.releases(keyed.table)
      let out: T
      try {
        out = await write()
      } catch (e) {
        // rows written before the failing one stay (executeMany without batchErrors), and so do their keys
        this.takeKeys(keyed, claim.keys.filter((k) => !this.db.keyLocks.othersHold(this.info.sid, keyed.table, [k])))
        throw e
      } finally {
        this.insertKeys = undefined
      }
      const holders = this.db.keyLocks.holders(this.info.sid, keyed.table, claim.keys)
      const held = holders.size > 0
      if (!held && (claim.keys.length === 0 || this.db.keyLocks.releases(keyed.table) === releases)) {
        this.takeKeys(keyed, claim.keys)
        return out
      }
      this.log = this.log.slice(0, mark)
      await this.recover()
      if (!wait) return undefined
      if (held) await this.locks.waitForRowLock(deadline, holders)
      else if (this.locks.interrupted) throw ora.cancelled()
    }
  }

  private takeKeys(keyed: KeyedTable, keys: ReadonlyArray<string>): void {
    if (keys.length > 0 && this.inTxn) this.db.keyLocks.take(this.info.sid, keyed.table, keys)
  }

  /** Runs an INSERT logged; into a keyed table (inside {@link claimingKeys}) it returns and records the keys it wrote. */
  private async runInsert(sql: string, params: ReadonlyArray<DuckDBValue>): Promise<number> {
    const claim = this.insertKeys
    if (claim === undefined) return this.runLogged(sql, params)
    const written = await this.runLoggedReturning(sql + returningKeys(claim.keyed), params)
    claim.keys.push(...keysOfRows(claim.keyed, written))
    return written.length
  }

  private async dml(sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<DmlResult> {
    const triggers = tableTriggers(this.db, this.targetOf(significant(tokenize(stripTerminator(sql)))))
    if (triggers.length > 0) return this.dmlWithTriggers(sql, triggers, rows)
    const calls = this.db.procedures.size === 0 && packagesOf(this.db).size === 0 ? undefined : this.storedFunctionCalls(tokenize(stripTerminator(sql)), sql)
    const t = this.translate(stripTerminator(sql), specs, calls?.toks)
    if (calls === undefined) return this.dmlTranslated(sql, t, rows, specs, opts)
    // stored functions called per row (plsql/sql-functions.ts): probe runs undone until every call is answered
    const probe = writeProbe(t.toks, t.text)
    return calls.settleWrite(
      async () => {
        for (const r of rows.length === 0 ? [[]] : rows) await this.probeWrite(probe, r.slice(0, t.binds.length))
      },
      // row by row: the bulk paths build their own statement text
      () => this.dmlTranslated(sql, t, rows, specs, opts, true),
      (fn, args) => callFromSql(this, fn, args),
      (release) => this.holdUntilTransactionEnds(release)
    )
  }

  /** Releases of what the transaction's logged statements still use (their call sites), run when it ends. */
  private held: Array<() => void> = []

  /** PL/SQL (plsql/host.ts): keeps what a logged statement uses until the transaction ends. */
  holdUntilTransactionEnds(release: () => void): void {
    this.held.push(release)
  }

  private releaseHeld(): void {
    const held = this.held
    this.held = []
    for (const release of held) release()
  }

  /** A DML statement on a table with triggers, row by row (plsql/triggers.ts), once per bind row. */
  private async dmlWithTriggers(sql: string, triggers: ReadonlyArray<Trigger>, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>): Promise<DmlResult> {
    const target = this.targetOf(significant(tokenize(stripTerminator(sql))))!
    if (isKw(tokenize(sql).find((t) => t.kind !== "ws"), "MERGE")) throw ora.unimplemented("MERGE into a table with triggers")
    const session: TriggerSession = {
      db: this.db,
      query: (q, params) => this.query(q, params),
      rowsOf: (result) => rowsOfQuery(this, result),
      runLogged: (q, params) => this.runLogged(q, params),
      runBlock: (block, values) => runPlsql(this, block, values, []),
      atomically: (body) => this.atomically(body)
    }
    let total = 0
    const list = rows.length === 0 ? [[]] : rows
    for (let i = 0; i < list.length; i++) {
      try {
        total += await runWithTriggers(session, target, triggers, stripTerminator(sql), list[i]!)
      } catch (e) {
        const err = this.mapError(e)
        if (list.length > 1) (err as OraError & { rowOffset?: number }).rowOffset = i
        throw err
      }
    }
    return { kind: "dml", rowCount: total, rowCounts: [], batchErrors: [] }
  }

  /**
   * PL/SQL (plsql/host.ts): runs a write and undoes it (the transaction as it was before it), for the stored
   * functions it calls to note their argument tuples; its error, if any, is left to the real run.
   */
  async probeWrite(duckSql: string, params: ReadonlyArray<DuckDBValue>): Promise<void> {
    await this.begin()
    try {
      await this.engine.execute(duckSql, hasIntervalBinds(params) ? await this.intervalParams(duckSql, params) : params)
    } catch {
      // the real run reports it
    }
    await this.recover()
  }

  private async dmlTranslated(sql: string, t: { toks: Array<Tok>; text: (a: number, b: number) => string; binds: Array<string> }, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions, rowByRow = false): Promise<DmlResult> {
    if (isKw(t.toks[0], "INSERT") && !isKw(t.toks[1], "INTO")) throw new OraError(925, "missing INTO keyword")
    this.dmlTarget = this.targetOf(t.toks)
    this.dmlIsUpdate = isKw(t.toks[0], "UPDATE", "MERGE")
    const verb = t.toks[0]?.value
    const privileges: Array<ObjectPrivilege> = verb === "MERGE" ? ["INSERT", "UPDATE"] : verb === "INSERT" || verb === "UPDATE" || verb === "DELETE" ? [verb] : []
    this.checkAccess(t.toks, [], this.dmlTarget === undefined ? undefined : { meta: this.dmlTarget, privileges })
    const keyed = isKw(t.toks[0], "INSERT") && returningClause(t.toks) === undefined ? keyedTable(this.dmlTarget) : undefined
    if (keyed === undefined) {
      // an UPDATE / DELETE locks the rows it writes, for each bind row of an executeMany, until the transaction ends (row-locks.ts)
      const target = this.dmlTarget
      const written = await this.locks.rowsToWriteForEach(target, t, rows)
      const result = await this.dmlOnce(sql, t, rows, specs, opts, rowByRow)
      if (written !== undefined && target !== undefined && this.inTxn) this.locks.holdWrittenRows(target, written)
      return result
    }
    return (await this.claimingKeys(keyed, () => this.dmlOnce(sql, t, rows, specs, opts, rowByRow), true))!
  }

  private async dmlOnce(sql: string, t: { toks: Array<Tok>; text: (a: number, b: number) => string; binds: Array<string> }, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions, rowByRow = false): Promise<DmlResult> {
    if (this.locks.othersLockRowsOf(this.dmlTarget))
      for (const r of rows.length === 0 ? [[]] : rows) await this.locks.waitForRowLocksOf(this.dmlTarget, t, r)
    const ret = returningClause(t.toks)
    if (ret !== undefined) return this.dmlReturning(t, ret, rows)
    const duckSql = t.text(0, t.toks.length)
    const nBinds = t.binds.length
    for (const r of rows) if (r.length < nBinds) throw ora.notAllBound()
    // bound intervals need their parameter's storage type (intervalParams), known only per statement
    const bulkable = rows.length > 1 && !rowByRow && !anyIntervalBinds(rows)
    if (bulkable) {
      // all rows or none, so a success has no batch errors
      const appended = await this.appendBinds(t, rows, specs)
      if (appended !== undefined) return { kind: "dml", rowCount: appended, rowCounts: opts.dmlRowCounts ? rows.map(() => 1) : [], batchErrors: [] }
    }
    if (bulkable && !opts.batchErrors) {
      const bulk = this.bulkInsert(t.toks, t.text, nBinds)
      if (bulk !== undefined) {
        // one VARCHAR parameter per bind column holding a JSON array: DuckDB's JSON reader turns it into a list
        // far faster than binding list values element by element
        const params: Array<DuckDBValue> = []
        const exprs: Array<string> = []
        for (let b = 0; b < nBinds; b++) {
          const col = jsonColumn(rows, b)
          params.push(col.json)
          exprs.push(col.expr(`$${b + 1}`))
        }
        try {
          const n = await this.runInsert(bulk(exprs), params)
          return { kind: "dml", rowCount: n, rowCounts: opts.dmlRowCounts ? rows.map(() => 1) : [], batchErrors: [] }
        } catch (e) {
          if (!(e instanceof OraError)) throw e
        }
        // locate the failing row by bisection with bulk inserts; rows before it stay inserted, as in Oracle
        const inserted = await this.bisectInsert(sql, rows, specs, (offset, err) => {
          ;(err as OraError & { rowOffset?: number }).rowOffset = offset
          throw err
        })
        return { kind: "dml", rowCount: inserted, rowCounts: opts.dmlRowCounts ? rows.map(() => 1) : [], batchErrors: [] }
      }
    }
    if (bulkable && opts.batchErrors && !opts.dmlRowCounts && this.bulkInsert(t.toks, t.text, nBinds) !== undefined) {
      // batch errors: chunks inserted whole, a failing chunk bisected down to its failing rows, each reported alone
      // with its own error (a row-by-row insert would also be far slower for large requests)
      const errors: Array<{ offset: number; error: OraError }> = []
      const inserted = await this.bisectInsert(sql, rows, specs, (offset, error) => errors.push({ offset, error }))
      // a failed attempt can leave DuckDB's transaction aborted: roll back to the statements and chunks that succeeded
      if (errors.length > 0) await this.recover()
      return { kind: "dml", rowCount: inserted, rowCounts: [], batchErrors: errors }
    }
    let total = 0
    const counts: Array<number> = []
    const errors: Array<{ offset: number; error: OraError }> = []
    const list = rows.length === 0 ? [[]] : rows
    for (let i = 0; i < list.length; i++) {
      try {
        const n = await this.runInsert(duckSql, list[i]!.slice(0, nBinds))
        total += n
        counts.push(n)
      } catch (e) {
        const err = this.mapError(e)
        if (!opts.batchErrors) {
          if (list.length > 1) (err as OraError & { rowOffset?: number }).rowOffset = i
          throw err
        }
        errors.push({ offset: i, error: err })
        counts.push(0)
      }
    }
    return { kind: "dml", rowCount: total, rowCounts: opts.dmlRowCounts ? counts : [], batchErrors: errors }
  }

  /**
   * Inserts `rows` in bulk chunks, a failing chunk bisected down to its failing rows, each handed to `failed` (which
   * may throw to stop); returns the rows inserted.
   */
  private async bisectInsert(
    sql: string,
    rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>,
    specs: ReadonlyArray<BindSpec>,
    failed: (offset: number, error: OraError) => void
  ): Promise<number> {
    let inserted = 0
    const bisect = async (lo: number, hi: number): Promise<void> => {
      try {
        inserted += (await this.bulkChunk(sql, rows.slice(lo, hi), specs)) ?? 0
      } catch (e) {
        if (hi - lo === 1) return failed(lo, this.mapError(e))
        const mid = (lo + hi) >> 1
        await bisect(lo, mid)
        await bisect(mid, hi)
      }
    }
    await bisect(0, rows.length)
    return inserted
  }

  /**
   * For `INSERT ... VALUES (...)` with binds: inserts a chunk of bind rows through the bulk path and returns the
   * number of rows inserted; undefined when the statement cannot take the bulk path. Failures are ORA- errors
   * (the transaction is restored first). `specs` are the binds' metadata (see {@link translate}).
   */
  async bulkChunk(sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs?: ReadonlyArray<BindSpec>): Promise<number | undefined> {
    if (classify(sql) !== "dml" || anyIntervalBinds(rows)) return undefined
    const t = this.translate(stripTerminator(sql), specs)
    if (!isKw(t.toks[0], "INSERT") || returningClause(t.toks) !== undefined) return undefined
    const nBinds = t.binds.length
    const bulk = this.bulkInsert(t.toks, t.text, nBinds)
    const write = async (): Promise<number | undefined> => {
      const appended = await this.appendBinds(t, rows, specs ?? [])
      if (appended !== undefined || bulk === undefined) return appended
      const params: Array<DuckDBValue> = []
      const exprs: Array<string> = []
      for (let b = 0; b < nBinds; b++) {
        const col = jsonColumn(rows, b)
        params.push(col.json)
        exprs.push(col.expr(`$${b + 1}`))
      }
      return this.runInsert(bulk(exprs), params)
    }
    const keyed = keyedTable(this.targetOf(t.toks))
    return keyed === undefined ? write() : this.claimingKeys(keyed, write, false)
  }

  /**
   * executeMany's fast path: `INSERT INTO t [(columns)] VALUES (:1, …, :n)` with one bind per target column is
   * appended column-wise (`Session.appendRows`); undefined, with nothing written, when the statement or a value needs
   * the general path (which then also reports any error with its row offset).
   */
  private async appendBinds(t: { toks: Array<Tok>; text: (a: number, b: number) => string; binds: Array<string> }, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>): Promise<number | undefined> {
    const target = await this.batchTargets.of(t)
    if (target === undefined) return undefined
    const bulk = bulkRowsOfBinds(rows, target.columns, target.zoned, specs)
    if (bulk === undefined) return undefined
    return this.appendBulk(target.table, bulk)
  }

  /**
   * The append target of an executeMany INSERT (bulk-insert.ts {@link BatchTargets}), for bind rows decoded straight
   * into {@link BulkRows} while the request arrives; undefined when the statement needs the general path.
   */
  async appendTargetOf(sql: string): Promise<BatchTarget | undefined> {
    if (classify(sql) !== "dml") return undefined
    const t = this.translate(stripTerminator(sql))
    if (!isKw(t.toks[0], "INSERT") || returningClause(t.toks) !== undefined) return undefined
    return this.batchTargets.of(t)
  }

  /**
   * Appends rows laid out for an append target inside the transaction (logged for statement-level recovery); on a
   * failure the transaction is restored and undefined returned (the general path then reports the error).
   */
  async appendBulk(table: string | AppendTarget, bulk: BulkRows): Promise<number | undefined> {
    const append = async (): Promise<number | undefined> => {
      await this.begin()
      try {
        const n = await this.engine.appendRows(table, bulk)
        this.log.push({ sql: "", params: undefined, types: undefined, append: { table, rows: bulk } })
        const claim = this.insertKeys
        if (claim !== undefined) claim.keys.push(...(keysOfBulk(claim.keyed, bulk) ?? []))
        return n
      } catch {
        await this.recover()
        return undefined
      }
    }
    // tables with keys are appended through staging, by their INSERT's table text (BatchTargets)
    const keyed = this.batchTargets.keyedTableOf(table)
    return keyed === undefined ? append() : this.claimingKeys(keyed, append, false)
  }

  /** DML ... RETURNING exprs INTO :binds, executed per bind row with DuckDB's RETURNING. */
  private async dmlReturning(
    t: { toks: Array<Tok>; text: (a: number, b: number) => string; binds: Array<string> },
    ret: { at: number; into: number; outs: number },
    rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>
  ): Promise<DmlResult> {
    const nIn = t.binds.length - ret.outs
    const plan = returningLobPlan(t.toks, t.toks.slice(ret.at + 1, ret.into), this.dmlTarget)
    const sql = `${t.text(0, ret.at)} RETURNING ${t.text(ret.at + 1, ret.into)}${plan?.extraReturning ?? ""}`
    const returned: Array<Array<unknown>> = Array.from({ length: ret.outs }, () => [])
    const lobs = plan?.columns.map((source) => (source === undefined ? undefined : { source, rowids: new Array<bigint>() }))
    let total = 0
    await this.begin()
    for (const row of rows.length === 0 ? [[]] : rows) {
      const params = row.slice(0, nIn)
      try {
        const cursor = await this.engine.query(sql, params)
        const extras: Array<Array<unknown>> = []
        for (let c = await cursor.next(); c !== null; c = await cursor.next()) {
          for (let i = 0; i < c.rowCount; i++) {
            for (let k = 0; k < ret.outs; k++) returned[k]!.push(c.columns[k]?.value(i) ?? null)
            extras.push(Array.from({ length: plan?.extraCount ?? 0 }, (_, k) => c.columns[ret.outs + k]?.value(i) ?? null))
          }
        }
        total += extras.length
        this.log.push({ sql, params, types: undefined })
        if (plan !== undefined && extras.length > 0) {
          const rowids = await plan.rowIds((q, p) => this.engine.queryAll(q, p).then((r) => r.map((x) => BigInt(String(x[0])))), extras)
          for (const l of lobs ?? []) l?.rowids.push(...rowids)
        }
      } catch (e) {
        await this.recover()
        throw this.mapError(e)
      }
    }
    return { kind: "dml", rowCount: total, rowCounts: [], batchErrors: [], returning: returned, ...(lobs !== undefined ? { returningLobs: lobs } : {}) }
  }

  /** INSERT INTO t [(cols)] VALUES (exprs) -> INSERT ... SELECT over unnest()ed bind columns, or undefined. */
  private bulkInsert(toks: ReadonlyArray<Tok>, text: (a: number, b: number) => string, nBinds: number): ((exprs: ReadonlyArray<string>) => string) | undefined {
    const valuesAt = toks.findIndex((x) => isKw(x, "VALUES"))
    if (valuesAt < 0 || nBinds === 0 || !isOp(toks[valuesAt + 1], "(")) return undefined
    const close = matchParen(toks, valuesAt + 1)
    if (close !== toks.length - 1) return undefined
    const head = text(0, valuesAt)
    // re-render the VALUES expressions with bind k -> column p<k> of the unnest subquery
    const inner = text(valuesAt + 2, close).replace(/\$(\d+)/g, (_, d: string) => `"p${d}"`)
    return (exprs) => `${head} SELECT ${inner} FROM (SELECT ${exprs.map((e, k) => `${e} AS "p${k + 1}"`).join(", ")})`
  }

  /** Executes DDL (after the implicit commit). */
  ddl(sql: string): Promise<void> {
    return this.ddlRunner.run(sql)
  }

  /** ALTER SESSION SET CURRENT_SCHEMA | TIME_ZONE | NLS_NUMERIC_CHARACTERS (others are accepted and ignored). */
  async alterSession(toks: ReadonlyArray<Tok>): Promise<void> {
    if (isAcceptedNoOp(toks)) return
    if (!isKw(toks[2], "SET")) throw new OraError(922, "missing or invalid option")
    const param = toks[3]?.value
    const valueTok = toks[5]
    if (!isOp(toks[4], "=") || valueTok === undefined) throw new OraError(922, "missing or invalid option")
    if (param === undefined || !isSessionParameter(param)) throw unknownSessionParameter()
    if (param === "CURRENT_SCHEMA") {
      const name = oracleName(valueTok)
      if (!this.db.catalog.users.has(name)) throw ora.userNotFound(name)
      this.schema = name
      this.info.schema = name
      await this.setVars(this.engine)
      await this.setSearchPath()
      return
    }
    if (param === "TIME_ZONE") {
      const v = valueTok.kind === "str" ? valueTok.value : valueTok.value
      const zone = v === "LOCAL" || v === "DBTIMEZONE" ? this.db.settings.dbTimeZone : sessionTimeZoneOf(v)
      if (zone === undefined) throw new OraError(1882, "timezone region not found")
      this.sessionTz = zone
      await this.setVars(this.engine)
      return
    }
    if (param === "NLS_NUMERIC_CHARACTERS" && valueTok.kind === "str") {
      this.numericCharacters = valueTok.value
      await this.setVars(this.engine)
      return
    }
    // the other parameters Oracle knows are accepted and ignored
  }

}

/**
 * UPDATE/MERGE: Oracle allows `SET alias.col = ...`; DuckDB wants the bare column name, so the qualifier of
 * SET targets is dropped.
 */
const unqualifySetTargets = (all: ReadonlyArray<Tok>): ReadonlyArray<Tok> => {
  const sig = all.filter((t) => t.kind !== "ws")
  if (!isKw(sig[0], "UPDATE", "MERGE")) return all
  const drop = new Set<Tok>()
  let inSet = false
  let depth = 0
  for (let k = 0; k < sig.length; k++) {
    const t = sig[k]!
    if (isOp(t, "(")) depth++
    else if (isOp(t, ")")) depth--
    if (isKw(t, "SET")) {
      inSet = true
      continue
    }
    if (isKw(t, "WHERE", "WHEN", "RETURNING", "RETURN")) inSet = false
    const prev = sig[k - 1]
    if (inSet && depth === 0 && (isKw(prev, "SET") || isOp(prev, ",")) && (t.kind === "ident" || t.kind === "qident") && isOp(sig[k + 1], ".") && isOp(sig[k + 3], "=")) {
      drop.add(t)
      drop.add(sig[k + 1]!)
    }
  }
  return all.filter((t) => !drop.has(t))
}

/** A bind column as one JSON array parameter and the SQL expression that unnests it with the right type. */
const jsonColumn = (rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, b: number): { json: string; expr: (p: string) => string } => {
  const n = rows.length
  const values: Array<unknown> = new Array(n)
  let kind: "number" | "string" | "boolean" | "timestamp" | "timestamp_ns" | "timestamptz" | "blob" | "list" | "other" | "null" = "null"
  let mixed = false
  for (let i = 0; i < n; i++) {
    const v = rows[i]![b] ?? null
    if (v === null) {
      values[i] = null
      continue
    }
    const t = typeof v
    if (t === "number" || t === "string" || t === "boolean") {
      if (kind === "null") kind = t as "number" | "string" | "boolean"
      else if (kind !== t) mixed = true
      values[i] = v
      continue
    }
    if (v instanceof DuckDBTimestampValue) {
      if (kind === "null") kind = "timestamp"
      else if (kind !== "timestamp") mixed = true
      values[i] = v.micros
    } else if (v instanceof DuckDBTimestampNanosecondsValue) {
      if (kind === "null") kind = "timestamp_ns"
      else if (kind !== "timestamp_ns") mixed = true
      values[i] = v.nanos
    } else if (v instanceof DuckDBTimestampTZValue) {
      if (kind === "null") kind = "timestamptz"
      else if (kind !== "timestamptz") mixed = true
      values[i] = v.micros
    } else if (v instanceof DuckDBListValue) {
      if (kind === "null") kind = "list"
      else if (kind !== "list") mixed = true
      values[i] = v.items
    } else if (v instanceof DuckDBBlobValue) {
      if (kind === "null") kind = "blob"
      else if (kind !== "blob") mixed = true
      values[i] = Buffer.from(v.bytes).toString("hex")
    } else {
      if (kind === "null") kind = "other"
      else if (kind !== "other") mixed = true
      values[i] = String(v)
    }
  }
  if (mixed) {
    // e.g. NUMBER binds where some values need exact decimal text: send everything as text
    for (let i = 0; i < n; i++) {
      const v = values[i]
      if (v !== null && typeof v !== "string") values[i] = String(rows[i]![b])
    }
    kind = "string"
  }
  // microseconds beyond 2^53 (before 1685, after 2255) are no JS numbers: bigints are written as JSON integers
  const json = kind === "timestamp" || kind === "timestamp_ns" || kind === "timestamptz" ? `[${values.map((v) => (v === null ? "null" : String(v))).join(",")}]` : JSON.stringify(values)
  const list = (t: string) => (p: string) => `unnest(CAST(CAST(${p} AS JSON) AS ${t}[]))`
  switch (kind) {
    case "number":
      // integers as BIGINT: their text in a NUMBER column without precision (decimal text) is canonical ("500",
      // where a DOUBLE would give "500.0" and a key 500 would not clash with it)
      return { json, expr: list(values.every((v) => v === null || Number.isSafeInteger(v)) ? "BIGINT" : "DOUBLE") }
    case "boolean":
      return { json, expr: list("BOOLEAN") }
    case "timestamp":
      return { json, expr: (p) => `make_timestamp(${list("BIGINT")(p)})` }
    case "timestamp_ns":
      return { json, expr: (p) => `make_timestamp_ns(${list("BIGINT")(p)})` }
    case "timestamptz":
      return { json, expr: (p) => `CAST(make_timestamp(${list("BIGINT")(p)}) AS TIMESTAMPTZ)` }
    case "blob":
      return { json, expr: (p) => `unhex(${list("VARCHAR")(p)})` }
    case "list":
      return { json, expr: list("DOUBLE[]") }
    case "other":
      return { json, expr: (p) => `CAST(${list("VARCHAR")(p)} AS INTERVAL)` }
    default:
      return { json, expr: list("VARCHAR") }
  }
}

export { EngineError }

/**
 * Foreign-key and check violations as Oracle reports them, naming the constraint: ORA-02291 (parent key not found),
 * ORA-02292 (child record found) and ORA-02290 (check constraint violated).
 */
const integrityError = (message: string, target: TableMeta | undefined, tables: Iterable<TableMeta>): OraError | undefined => {
  // checks the server adds itself (declared sizes) raise their own ORA- error
  if (target === undefined || /ORA-\d{5}/.test(message)) return undefined
  const name = (c: { name: string } | undefined) => `${target.owner}.${c?.name ?? "SYS_C00"}`
  if (/Violates foreign key constraint because key .* does not exist in the referenced table/i.test(message)) {
    const fk = target.constraints.find((c) => c.type === "R")
    return new OraError(2291, `integrity constraint (${name(fk)}) violated - parent key not found`)
  }
  if (/Violates foreign key constraint because key .* (?:is still referenced|still referenced)/i.test(message)) {
    const keys = new Set(target.constraints.filter((c) => c.type === "P" || c.type === "U").map((c) => c.name))
    for (const t of tables)
      for (const c of t.constraints)
        if (c.type === "R" && c.refOwner === target.owner && c.refConstraint !== null && keys.has(c.refConstraint))
          return new OraError(2292, `integrity constraint (${t.owner}.${c.name}) violated - child record found`)
    return new OraError(2292, `integrity constraint (${name(undefined)}) violated - child record found`)
  }
  const check = /CHECK constraint failed on table \S+ with expression CHECK\((.*)\)\s*$/im.exec(message)
  if (check !== null) {
    const expression = check[1]!.toUpperCase()
    const checks = target.constraints.filter((c) => c.type === "C" && c.searchCondition !== null && !/IS NOT NULL$/i.test(c.searchCondition))
    const named = checks.find((c) => c.columns.length > 0 && c.columns.every((col) => expression.includes(col.toUpperCase()))) ?? checks[0]
    return new OraError(2290, `check constraint (${name(named)}) violated`)
  }
  return undefined
}

/** DuckDB's write-write conflict: another transaction changed (or holds an uncommitted change of) the row. */
const isWriteConflict = (e: unknown): boolean =>
  /TransactionContext Error: (?:Conflict|Catalog write-write conflict)/i.test(e instanceof Error ? e.message : String(e))
