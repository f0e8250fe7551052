/**
 * The INSERT / UPDATE / DELETE / MERGE statements of one session, a client's and a PL/SQL block's: the table a
 * statement writes (named by its errors), its row exclusive table lock, the rows it locks and the keys it claims,
 * triggers, stored functions called per row, RETURNING, NOVALIDATE foreign keys and executeMany's bulk paths.
 * sqlsession.ts dispatches to it; the locks are session-locking.ts, the keys session-key-claims.ts.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { BatchTarget } from "./bulk-insert.ts"
import type { TableMeta } from "./catalog.ts"
import { ora, OraError } from "./errors.ts"
import { anyIntervalBinds, hasIntervalBinds } from "./intervals.ts"
import { isKw, significant, tokenize, type Tok } from "./lexer.ts"
import { keyedTable, keysWrittenBy } from "./key-locks.ts"
import { checkMaterializedViewWrite } from "./materialized-views.ts"
import { checkUncheckedForeignKeys, hasUncheckedForeignKeys } from "./novalidate-foreign-keys.ts"
import { runPlsql } from "./plsql.ts"
import type { PlsqlHost } from "./plsql/host.ts"
import { callFromSql, rowsOfQuery } from "./plsql/interpreter.ts"
import { callingWhileWriting, writtenTable } from "./plsql/mutating-tables.ts"
import { writeProbe } from "./plsql/sql-functions.ts"
import { tableTriggers, type Trigger } from "./plsql/trigger-definitions.ts"
import { runMergeWithTriggers } from "./plsql/trigger-merge.ts"
import { runRowsWithTriggers, type TriggerSession } from "./plsql/triggers.ts"
import { engineStatement, type RowLockWaits } from "./row-locks.ts"
import { type IsTable, rewriteSequenceRows } from "./sequence-rows.ts"
import { dictionaryTablesOf } from "./session-dictionary.ts"
import type { ExecuteMany } from "./session-execute-many.ts"
import type { KeyClaims } from "./session-key-claims.ts"
import type { SessionLocking } from "./session-locking.ts"
import type { SessionQueries } from "./session-queries.ts"
import { dmlReturning, type ReturningHost } from "./session-returning.ts"
import { intervalParams, type SessionTransaction } from "./session-transaction.ts"
import type { TranslatedStatement } from "./session-translate.ts"
import { type BindSpec, classify, type DmlResult, type ExecuteOptions, returningClause, stripTerminator } from "./statement.ts"
import { runTriggeredRows } from "./trigger-restarts.ts"

/** What running a session's DML needs from the SQL session. */
export interface SessionDmlHost {
  /** The session itself: its engine, errors, privilege checks and the PL/SQL its triggers and functions run. */
  readonly session: PlsqlHost
  readonly txn: SessionTransaction
  readonly locks: RowLockWaits
  readonly locking: SessionLocking
  readonly keys: KeyClaims
  readonly many: ExecuteMany
  readonly returning: ReturningHost
  readonly queries: SessionQueries
  /** The roles the session has enabled (the dictionary views a write reads count their grants). */
  readonly enabledRoles: ReadonlySet<string>
  readonly isTable: IsTable
  translate(sql: string, specs?: ReadonlyArray<BindSpec>, source?: ReadonlyArray<Tok>): TranslatedStatement
}

/** The DML statements of one session. */
export class SessionDml {
  /** Table written by the DML statement being executed (for constraint names in errors). */
  target: TableMeta | undefined
  /** True while the DML statement being executed is an UPDATE (or MERGE), whose NOT NULL failures are ORA-01407. */
  isUpdate = false

  constructor(private readonly host: SessionDmlHost) {}

  private get s(): PlsqlHost {
    return this.host.session
  }

  /**
   * A PL/SQL block's DML (engine text), with a client's statement's locks: an UPDATE / DELETE locks the rows it writes
   * until the transaction ends, an INSERT waits for keys other open transactions inserted and holds its own. One that
   * fails releases the locks it took (session-transaction.ts), also when a handler catches its error.
   */
  runBlockDml(sql: string, params: ReadonlyArray<DuckDBValue>): Promise<number> {
    return this.host.txn.releasingLocksOnFailure(() => this.runBlockDmlOnce(sql, params))
  }

  private async runBlockDmlOnce(sql: string, params: ReadonlyArray<DuckDBValue>): Promise<number> {
    const t = engineStatement(sql)
    if (t !== undefined) await this.refreshDictionaryFor(t.toks)
    const target = t === undefined ? undefined : this.targetOf(t.toks)
    // its failures name its own table's constraints, not those of the client's last statement
    return this.withDmlTarget(target, t !== undefined && isKw(t.toks[0], "UPDATE", "MERGE"), () => this.checkingUncheckedForeignKeys(target, () => this.blockDml(sql, params, t, target)))
  }

  /** Runs `body` with the table a statement writes (and whether it updates) as the one errors name, restored after it. */
  private async withDmlTarget<T>(target: TableMeta | undefined, isUpdate: boolean, body: () => Promise<T>): Promise<T> {
    const outer = { target: this.target, isUpdate: this.isUpdate }
    this.target = target
    this.isUpdate = isUpdate
    try {
      return await body()
    } finally {
      this.target = outer.target
      this.isUpdate = outer.isUpdate
    }
  }

  private async blockDml(sql: string, params: ReadonlyArray<DuckDBValue>, t: ReturnType<typeof engineStatement>, target: TableMeta | undefined): Promise<number> {
    // an INTERVAL variable as the storage of the column it meets, for the row locks' query too (intervals.ts)
    if (hasIntervalBinds(params)) params = await intervalParams(this.s.engine, sql, params)
    await this.rowExclusive(target)
    // an INSERT of a key another open transaction inserted waits for it, as a client's INSERT does (key-locks.ts)
    const keyed = t !== undefined && isKw(t.toks[0], "INSERT") && returningClause(t.toks) === undefined ? keyedTable(target) : undefined
    if (keyed !== undefined) return (await this.host.keys.claiming(keyed, () => this.host.keys.runInsert(sql, params), true))!
    const written = t === undefined ? undefined : await this.host.locks.rowsToWrite(target, t, params)
    // and claims the keys it deletes or writes, and those it changes rows away from (session-key-claims.ts)
    const claimed = t === undefined ? undefined : keysWrittenBy(t.toks, target)
    return this.host.locking.writingRows(target, written, async () => {
      const n = claimed === undefined ? await this.s.runLogged(sql, params) : await this.host.keys.claimingWithOldKeys(claimed, target!, isKw(t!.toks[0], "DELETE") ? undefined : written, () => this.host.keys.runInsert(sql, params))
      if (written !== undefined && target !== undefined && this.host.txn.inTxn) this.host.locks.holdWrittenRows(target, written)
      return n
    })
  }

  /** The table an INSERT / UPDATE / DELETE / MERGE writes, when the catalog knows it. */
  targetOf(toks: ReadonlyArray<Tok>): TableMeta | undefined {
    return writtenTable(toks, (schema, name) => this.s.lookupTable(schema, name))
  }

  /**
   * Before a write that may read dictionary views (`INSERT INTO t SELECT ... FROM user_tables`): their snapshot tables
   * refreshed, which the write sees as its transaction starts after that. Inside a transaction already
   * open it reads the snapshot that transaction started on: the connection-local copies queries read there
   * (transaction-dictionary.ts) would be gone when a statement-level rollback or ROLLBACK TO SAVEPOINT replays the
   * write from its text, which would then read other dictionary rows and write other rows than it did.
   */
  private async refreshDictionaryFor(toks: ReadonlyArray<Tok>): Promise<void> {
    const dict = dictionaryTablesOf(toks)
    if (dict.size > 0 && !this.host.txn.inTxn) await this.s.db.withAdmin((admin) => this.s.db.refreshDictionary(admin, dict, { user: this.s.info.user, roles: this.host.enabledRoles }))
  }

  /** Runs an INSERT / UPDATE / DELETE / MERGE (Oracle text) once per bind row. */
  async dml(oracleSql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<DmlResult> {
    const sql = rewriteSequenceRows(stripTerminator(oracleSql), this.host.isTable), written = significant(tokenize(stripTerminator(sql)))
    await this.refreshDictionaryFor(written)
    const triggers = tableTriggers(this.s.db, this.targetOf(written))
    if (triggers.length > 0) return this.dmlWithTriggers(sql, triggers, rows)
    const calls = this.host.queries.callsOf(tokenize(stripTerminator(sql)), sql)
    const t = this.host.translate(stripTerminator(sql), specs, calls?.toks)
    if (calls === undefined) return this.dmlTranslated(sql, t, rows, specs, opts)
    // stored functions called per row (plsql/sql-functions.ts): probe runs undone until every call is answered
    const probe = writeProbe(t.toks, t.text)
    return calls.settleWrite(
      async () => {
        for (const r of rows.length === 0 ? [[]] : rows) await this.probeWrite(probe, r.slice(0, t.binds.length))
      },
      // row by row: the bulk paths build their own statement text
      () => this.dmlTranslated(sql, t, rows, specs, opts, true),
      callingWhileWriting(this.s, tokenize(stripTerminator(sql)), (schema, name) => this.s.lookupTable(schema, name), (fn, args) => callFromSql(this.s, fn, args)),
      (release) => this.s.holdUntilTransactionEnds(release)
    )
  }

  /** A DML statement on a table with triggers, row by row (plsql/triggers.ts), once per bind row. */
  private async dmlWithTriggers(sql: string, triggers: ReadonlyArray<Trigger>, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>): Promise<DmlResult> {
    const target = this.targetOf(significant(tokenize(stripTerminator(sql))))!
    const run = isKw(tokenize(sql).find((t) => t.kind !== "ws"), "MERGE") ? runMergeWithTriggers : runRowsWithTriggers
    await this.rowExclusive(target)
    const session: TriggerSession = {
      db: this.s.db,
      host: this.s,
      query: (q, params) => this.host.queries.query(q, params),
      rowsOf: (result) => rowsOfQuery(this.s, result),
      // each row's write locks its row (after waiting for its holder, deadlock-checked) and claims its keys, as a
      // statement without triggers does; a write conflict or a wait starts the bind row's run over (trigger-restarts.ts)
      runLogged: (q, params) => this.host.txn.restartingOnConflict(() => this.host.locks.restartingAfterWaits(() => this.runBlockDml(q, params))),
      runBlock: (block, values) => runPlsql(this.s, block, values, []),
      atomically: (body) => this.host.txn.atomically(body)
    }
    const deadline = Date.now() + this.s.db.settings.lockWaitMs
    const done = await runTriggeredRows(
      { runOne: (row) => run(session, target, triggers, stripTerminator(sql), [row], (e) => this.s.mapError(e)), waitBeforeRestart: () => this.host.locks.waitForRowLock(deadline) },
      rows
    )
    return { kind: "dml", rowCount: done.count, rowCounts: [], batchErrors: [], ...(done.returning !== undefined ? { returning: done.returning } : {}) }
  }

  /**
   * PL/SQL (plsql/host.ts): runs a write and undoes it (the transaction as it was before it), for the stored
   * functions it calls to note their argument tuples; its error, if any, is left to the real run.
   */
  async probeWrite(duckSql: string, params: ReadonlyArray<DuckDBValue>): Promise<void> {
    await this.host.txn.begin()
    try {
      await this.s.engine.execute(duckSql, hasIntervalBinds(params) ? await intervalParams(this.s.engine, duckSql, params) : params)
    } catch {
      // the real run reports it
    }
    await this.host.txn.recover()
  }

  private dmlTranslated(sql: string, t: { toks: Array<Tok>; text: (a: number, b: number) => string; binds: Array<string> }, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions, rowByRow = false): Promise<DmlResult> {
    return this.checkingUncheckedForeignKeys(this.targetOf(t.toks), () => this.dmlWrite(sql, t, rows, specs, opts, rowByRow))
  }

  /** Runs `write` of `target`, failing it as a whole when it breaks a foreign key enabled NOVALIDATE (novalidate-foreign-keys.ts). */
  private checkingUncheckedForeignKeys<T>(target: TableMeta | undefined, write: () => Promise<T>): Promise<T> {
    if (!hasUncheckedForeignKeys(this.s, target)) return write()
    return this.host.txn.atomically(async () => {
      const out = await write()
      await checkUncheckedForeignKeys(this.s, target!)
      return out
    })
  }

  private async dmlWrite(sql: string, t: { toks: Array<Tok>; text: (a: number, b: number) => string; binds: Array<string> }, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions, rowByRow = false): Promise<DmlResult> {
    if (isKw(t.toks[0], "INSERT") && !isKw(t.toks[1], "INTO")) throw new OraError(925, "missing INTO keyword")
    this.target = this.targetOf(t.toks)
    checkMaterializedViewWrite(this.s.db, this.target)
    this.isUpdate = isKw(t.toks[0], "UPDATE", "MERGE")
    this.s.checkStatementAccess(t.toks, this.target)
    await this.rowExclusive(this.target)
    const keyed = isKw(t.toks[0], "INSERT") ? keyedTable(this.target) : undefined
    if (keyed === undefined) {
      // an UPDATE / DELETE locks the rows it writes, for each bind row of an executeMany, until the transaction ends,
      // and claims the keys it deletes or writes: another transaction's write of one of them waits (session-key-claims.ts)
      const target = this.target
      const claimed = keysWrittenBy(t.toks, target)
      const run = () => this.dmlOnce(sql, t, rows, specs, opts, rowByRow)
      // the query finding the rows to lock binds intervals as the storage of the column they meet (intervals.ts)
      const lockRows: Array<ReadonlyArray<DuckDBValue>> = []
      for (const r of rows) lockRows.push(hasIntervalBinds(r) ? await intervalParams(this.s.engine, t.text(0, t.toks.length), r) : r)
      return this.host.locking.holdingWrittenRows(target, t, lockRows, (written) => (claimed === undefined ? run() : this.host.keys.claimingWithOldKeys(claimed, target!, isKw(t.toks[0], "DELETE") ? undefined : written, run)))
    }
    return (await this.host.keys.claiming(keyed, () => this.dmlOnce(sql, t, rows, specs, opts, rowByRow), true))!
  }

  private async dmlOnce(sql: string, t: { toks: Array<Tok>; text: (a: number, b: number) => string; binds: Array<string> }, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions, rowByRow = false): Promise<DmlResult> {
    if (this.host.locks.othersLockRowsOf(this.target))
      for (const r of rows.length === 0 ? [[]] : rows) await this.host.locks.waitForRowLocksOf(this.target, t, r)
    const ret = returningClause(t.toks)
    if (ret !== undefined) return dmlReturning(this.host.returning, this.target, t, ret, rows)
    const duckSql = t.text(0, t.toks.length)
    const nBinds = t.binds.length
    for (const r of rows) if (r.length < nBinds) throw ora.notAllBound()
    // bound intervals need their parameter's storage type (intervalParams), known only per statement
    const bulkable = rows.length > 1 && !rowByRow && !anyIntervalBinds(rows)
    if (bulkable) {
      // executeMany's bulk paths (session-execute-many.ts)
      const bulk = await this.host.many.bulk(sql, t, rows, specs, opts)
      if (bulk !== undefined) return bulk
    }
    let total = 0
    const counts: Array<number> = []
    const errors: Array<{ offset: number; error: OraError }> = []
    const list = rows.length === 0 ? [[]] : rows
    for (let i = 0; i < list.length; i++) {
      try {
        const n = await this.host.keys.runInsert(duckSql, list[i]!.slice(0, nBinds))
        total += n
        counts.push(n)
      } catch (e) {
        const err = this.s.mapError(e)
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
   * For `INSERT ... VALUES (...)` with binds: inserts a chunk of bind rows through the bulk path and returns the
   * number of rows inserted; undefined when the statement cannot take the bulk path (session-execute-many.ts), or
   * would wait for another transaction's table lock (the statement's own run then waits).
   */
  async bulkChunk(sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs?: ReadonlyArray<BindSpec>): Promise<number | undefined> {
    if (classify(sql) === "dml" && !(await this.rowExclusive(this.targetOf(significant(tokenize(stripTerminator(sql)))), false))) return undefined
    return this.host.many.bulkChunk(sql, rows, specs)
  }

  /**
   * The append target of an executeMany INSERT, undefined when the statement needs the general path
   * (session-execute-many.ts) or would wait for another transaction's table lock.
   */
  async appendTargetOf(sql: string): Promise<BatchTarget | undefined> {
    if (classify(sql) === "dml" && !(await this.rowExclusive(this.targetOf(significant(tokenize(stripTerminator(sql)))), false))) return undefined
    return this.host.many.appendTargetOf(sql)
  }

  /** The row exclusive lock a DML statement takes on its table (session-locking.ts); with `wait` false, false instead of waiting. */
  private rowExclusive(meta: TableMeta | undefined, wait = true): Promise<boolean> {
    return this.host.locking.rowExclusive(meta, wait)
  }
}
