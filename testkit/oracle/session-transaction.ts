/**
 * One session's open transaction with Oracle's statement-level atomicity on top of DuckDB: the implicit start,
 * COMMIT / ROLLBACK, savepoints, and the replay log.
 *
 * DuckDB aborts a whole transaction when one statement fails, while Oracle only rolls back the failed
 * statement. The session therefore keeps a log of the successful statements of the open transaction and,
 * after a failure, rolls back and replays that log before reporting the error.
 */
import type { DuckDBType, DuckDBValue } from "@duckdb/node-api"
import type { AppendTarget, SealedRows, Session as EngineSession } from "../engine/index.ts"
import { OraError } from "./errors.ts"
import type { LockMarks } from "./lock-marks.ts"
import { hasIntervalBinds, intervalParamsFor } from "./intervals.ts"
import { insertWritingRows, volatileInsertReturning, volatileInsertTarget } from "./volatile-inserts.ts"
import { inPlaceUpdate, mergeWritingKeys, runInPlaceUpdate, runMergeWritingKeys } from "./in-place-updates.ts"
import { stableMergeRowsCheck } from "./merge-stable-rows.ts"
import { runVolatileWrite, volatileViewMerge, volatileWrite, type VolatileWrite } from "./volatile-updates.ts"

/** One successful statement of the open transaction, replayed after a later statement failed. */
export interface LogEntry {
  readonly sql: string
  readonly params: ReadonlyArray<DuckDBValue> | undefined
  readonly types: ReadonlyArray<DuckDBType | undefined> | undefined
  /** A batch appended column-wise (executeMany's fast path), replayed as such instead of `sql`. */
  readonly append?: { readonly table: string | AppendTarget; readonly rows: SealedRows }
  /** The statement setting the search path `sql` ran under (its unqualified names' schema), set again for its replay. */
  readonly searchPath?: string | undefined
}

/** What the transaction needs from its session. */
export interface TransactionHost {
  readonly engine: EngineSession
  readonly db: {
    /** Releases the row and key locks of session `sid`. */
    releaseLocks(sid: number): boolean
    /** A transaction ended: writers waiting for its rows retry. */
    transactionEnded(): void
    /** The marks of the row, key and table locks of session `sid` now (lock-marks.ts). */
    lockMarks(sid: number): LockMarks
    /** Releases the row, key and table locks session `sid` took after `marks`; true when it released any. */
    releaseLocksAfter(sid: number, marks: LockMarks): boolean
    readonly settings: { readonly lockWaitMs: number }
  }
  readonly info: { readonly sid: number }
  /** Maps an engine failure onto an ORA- error. */
  mapError(e: unknown): OraError
  /** Waits until another transaction's write that conflicted may have ended (row-locks.ts). */
  waitForRowLock(deadline: number): Promise<void>
  /** The statement setting the search path in force (a definer's rights unit's SQL runs under its owner's). */
  searchPath?(): string
}

/** The open transaction of one session and its replay log. */
export class SessionTransaction {
  private open = false
  private log: Array<LogEntry> = []
  /** Each savepoint's position in the replay log and the locks the transaction held there. */
  private readonly savepoints = new Map<string, Mark>()
  /** Releases of what the transaction's logged statements still use (their call sites), run when it ends. */
  private held: Array<() => void> = []
  /** Set inside {@link restartingOnConflict}: a write conflict is thrown as {@link WriteConflictRestart}, not waited out. */
  private conflictsRestart = false

  constructor(private readonly host: TransactionHost) {}

  /** True while a transaction is open. */
  get inTxn(): boolean {
    return this.open
  }

  /** The number of logged statements: a mark to {@link undoTo}. */
  get length(): number {
    return this.log.length
  }

  /** Logs a statement that succeeded outside {@link run} (RETURNING, appended batches). */
  push(entry: LogEntry): void {
    this.log.push(this.stamped(entry))
  }

  /** `entry` with the search path it ran under. */
  private stamped(entry: LogEntry): LogEntry {
    return { ...entry, searchPath: this.host.searchPath?.() }
  }

  /** Commits the open transaction. */
  async commit(): Promise<void> {
    this.savepoints.clear()
    this.releaseHeld()
    if (!this.open) return this.releaseLocks()
    this.open = false
    this.log = []
    try {
      await this.host.engine.commit()
    } catch (e) {
      // DuckDB checks some constraints only at commit (the transaction is then rolled back, as after Oracle's ORA-02091)
      throw this.host.mapError(e)
    } finally {
      this.host.db.releaseLocks(this.host.info.sid)
      this.host.db.transactionEnded()
    }
  }

  /** Rolls the open transaction back. */
  async rollback(): Promise<void> {
    this.savepoints.clear()
    this.releaseHeld()
    if (!this.open) return this.releaseLocks()
    this.open = false
    this.log = []
    await this.host.engine.rollback()
    this.host.db.releaseLocks(this.host.info.sid)
    this.host.db.transactionEnded()
  }

  /** Opens the transaction if none is open (statements and row locks then belong to it). */
  async begin(): Promise<void> {
    if (this.open) return
    this.releaseHeld()
    await this.host.engine.begin()
    this.open = true
    this.log = []
  }

  /** Runs a statement inside the transaction with Oracle statement-level atomicity. */
  run(sql: string, params?: ReadonlyArray<DuckDBValue>, types?: ReadonlyArray<DuckDBType | undefined>, lockWaitMs = this.host.db.settings.lockWaitMs): Promise<number> {
    const target = volatileInsertTarget(sql)
    if (target === undefined) {
      const write = volatileWrite(sql)
      if (write !== undefined) return this.loggedVolatileWrite(sql, write, params, types, lockWaitMs).then((out) => out.count)
      // a MERGE from a view computing DBMS_RANDOM or SYS_GUID reads it once, as a volatile source query is read
      if (/^\s*MERGE\b/i.test(sql))
        return volatileViewMerge(this.host.engine, sql).then((viewed) => (viewed === undefined ? this.runAsWritten(sql, params, types, lockWaitMs) : this.loggedVolatileWrite(sql, viewed, params, types, lockWaitMs).then((out) => out.count)))
      return this.runAsWritten(sql, params, types, lockWaitMs)
    }
    // the replay must write the rows this INSERT wrote, not evaluate NEXTVAL, SYSDATE or DBMS_RANDOM again
    let written: ReadonlyArray<LogEntry> = []
    return this.logged(sql, params, types, lockWaitMs, async (p) => {
      const inserted = await insertWritingRows(this.host.engine, sql, target, p, types)
      written = inserted.replay
      return inserted.rows.length
    }, () => written)
  }

  /** An UPDATE, DELETE or MERGE logged as its text, run again by a replay. */
  private runAsWritten(sql: string, params: ReadonlyArray<DuckDBValue> | undefined, types: ReadonlyArray<DuckDBType | undefined> | undefined, lockWaitMs: number): Promise<number> {
    const check = stableMergeRowsCheck(sql)
    return this.logged(sql, params, types, lockWaitMs, async (p) => {
      await check?.(this.host.engine, p, types)
      return this.host.engine.execute(sql, p, types)
    })
  }

  /**
   * {@link run} for a statement whose RETURNING rows are read (e.g. the keys an INSERT wrote); `keyColumns` are the
   * columns an index covers (keys included) of the table it writes, which a volatile UPDATE leaves out of a row's write
   * when they keep their values.
   */
  runReturning(sql: string, params: ReadonlyArray<DuckDBValue> | undefined, keyColumns: ReadonlyArray<string> = []): Promise<ReadonlyArray<ReadonlyArray<unknown>>> {
    const volatile = volatileInsertReturning(sql)
    const write = volatile === undefined ? volatileWrite(sql) : undefined
    if (write !== undefined) return this.loggedVolatileWrite(sql, write, params, undefined, this.host.db.settings.lockWaitMs, keyColumns).then((out) => out.rows)
    if (volatile === undefined) {
      const asWritten = () => {
        const check = stableMergeRowsCheck(sql)
        return this.logged(sql, params, undefined, this.host.db.settings.lockWaitMs, async (p) => {
          await check?.(this.host.engine, p, undefined)
          return this.host.engine.queryAll(sql, p)
        })
      }
      if (!/^\s*MERGE\b/i.test(sql)) return asWritten()
      return volatileViewMerge(this.host.engine, sql).then((viewed) => (viewed === undefined ? asWritten() : this.loggedVolatileWrite(sql, viewed, params, undefined, this.host.db.settings.lockWaitMs, keyColumns).then((out) => out.rows)))
    }
    let written: ReadonlyArray<LogEntry> = []
    return this.logged(sql, params, undefined, this.host.db.settings.lockWaitMs, async (p) => {
      const inserted = await insertWritingRows(this.host.engine, volatile.insert, volatile.target, p, undefined)
      written = inserted.replay
      const at = volatile.returned.map((name) => inserted.columns.indexOf(name))
      return inserted.rows.map((row) => at.map((i) => row[i]))
    }, () => written)
  }

  /**
   * {@link runReturning} of `sql` (an INSERT / UPDATE / DELETE / MERGE of a table whose key columns are `keyColumns`)
   * with `returning` (the RETURNING clause of those columns) appended: the rows it wrote and the keys they hold. An
   * UPDATE or MERGE the engine would rewrite for its RETURNING clause runs in place instead (in-place-updates.ts),
   * leaving out the columns `update.indexed` (those an index covers; the keys when not given) where they keep their
   * values.
   */
  async runWritingKeys(
    sql: string,
    params: ReadonlyArray<DuckDBValue>,
    keyColumns: ReadonlyArray<string>,
    returning: string,
    update?: { readonly indexed: ReadonlyArray<string>; readonly oldKeysClaimed: boolean }
  ): Promise<{ readonly count: number; readonly keys: ReadonlyArray<ReadonlyArray<unknown>> }> {
    // an INSERT or DELETE is not taken apart (a keyed table's every INSERT comes here)
    const indexed = update?.indexed ?? keyColumns
    const plan = /^\s*UPDATE\b/i.test(sql) ? inPlaceUpdate(sql + returning, indexed) : undefined
    const mergeParts = /^\s*MERGE\b/i.test(sql) ? mergeWritingKeys(sql) : undefined
    // a MERGE from a view computing DBMS_RANDOM or SYS_GUID reads it once (runReturning)
    const merge = mergeParts !== undefined && (await volatileViewMerge(this.host.engine, sql)) === undefined ? mergeParts : undefined
    if (plan === undefined && merge === undefined) {
      const keys = await this.runReturning(sql + returning, params, indexed)
      return { count: keys.length, keys }
    }
    const check = merge === undefined ? undefined : stableMergeRowsCheck(sql)
    let written: ReadonlyArray<LogEntry> = []
    const out = await this.logged(sql, params, undefined, this.host.db.settings.lockWaitMs, async (p) => {
      await check?.(this.host.engine, p, undefined)
      const done = plan !== undefined ? await runInPlaceUpdate(this.host.engine, plan, p, update?.oldKeysClaimed !== true) : await runMergeWritingKeys(this.host.engine, merge!, keyColumns, p)
      written = done.replay
      return done
    }, () => written)
    return { count: out.count, keys: out.rows }
  }

  /**
   * A volatile UPDATE or MERGE (volatile-updates.ts): computed, then written by row id, and logged as those writes so
   * that a replay keeps the values it wrote.
   */
  private loggedVolatileWrite(
    sql: string,
    write: VolatileWrite,
    params: ReadonlyArray<DuckDBValue> | undefined,
    types: ReadonlyArray<DuckDBType | undefined> | undefined,
    lockWaitMs: number,
    keyColumns?: ReadonlyArray<string>
  ): Promise<{ readonly count: number; readonly rows: ReadonlyArray<ReadonlyArray<unknown>> }> {
    let written: ReadonlyArray<LogEntry> = []
    return this.logged(sql, params, types, lockWaitMs, async (p) => {
      const out = await runVolatileWrite(this.host.engine, write, p, types, undefined, keyColumns)
      written = out.replay
      return out
    }, () => written)
  }

  private async logged<T>(
    sql: string,
    params: ReadonlyArray<DuckDBValue> | undefined,
    types: ReadonlyArray<DuckDBType | undefined> | undefined,
    lockWaitMs: number,
    run: (params: ReadonlyArray<DuckDBValue> | undefined) => Promise<T>,
    replay?: () => ReadonlyArray<LogEntry>
  ): Promise<T> {
    const deadline = Date.now() + lockWaitMs
    for (;;) {
      await this.begin()
      try {
        if (hasIntervalBinds(params)) params = await intervalParams(this.host.engine, sql, params!)
        const out = await run(params)
        if (replay === undefined) this.log.push(this.stamped({ sql, params, types }))
        else this.log.push(...replay().map((entry) => this.stamped(entry)))
        return out
      } catch (e) {
        await this.recover()
        if (!isWriteConflict(e)) throw this.host.mapError(e)
        if (this.conflictsRestart) throw new WriteConflictRestart()
        await this.host.waitForRowLock(deadline)
      }
    }
  }

  /** SAVEPOINT: a position in the replay log of the transaction (which it opens) and the locks it holds there. */
  async savepoint(name: string): Promise<void> {
    await this.begin()
    this.savepoints.set(name, this.mark())
  }

  /**
   * ROLLBACK TO SAVEPOINT: roll back and replay the transaction's statements up to the savepoint, and release the row,
   * key and table locks taken after it (lock-marks.ts).
   */
  async rollbackTo(name: string): Promise<void> {
    const mark = this.savepoints.get(name)
    if (mark === undefined || !this.open) throw new OraError(1086, `savepoint '${name}' never established in this session or is invalid`)
    const keep = this.log.slice(0, mark.log)
    for (const [k, v] of this.savepoints) if (v.order > mark.order) this.savepoints.delete(k)
    this.log = keep
    await this.recover()
    this.releaseLocksAfter(mark.locks)
    if (!this.open) {
      // nothing to replay: stay in a (new) transaction, as Oracle does after ROLLBACK TO SAVEPOINT
      await this.begin()
    }
  }

  /** The transaction as it is now: its log position and locks. */
  private mark(): Mark {
    return { log: this.log.length, locks: this.host.db.lockMarks(this.host.info.sid), order: this.marks++ }
  }

  /** Marks taken so far: savepoints set after one have a higher order. */
  private marks = 0

  /**
   * Releases the locks taken after `locks`. A session waiting for one of the rows or keys goes on waiting for this
   * transaction's end (transaction-waits.ts); one waiting for a table lock goes ahead (table-locks.ts).
   */
  private releaseLocksAfter(locks: LockMarks): void {
    if (this.host.db.releaseLocksAfter(this.host.info.sid, locks)) this.host.db.transactionEnded()
  }

  /** Drops the statements logged after `mark` and restores the transaction as it was there. */
  async undoTo(mark: number): Promise<void> {
    this.log = this.log.slice(0, mark)
    await this.recover()
  }

  /** After a failed statement: roll back and replay the successful statements of the transaction. */
  async recover(): Promise<void> {
    const engine = this.host.engine
    const log = this.log
    try {
      await engine.rollback()
    } catch {
      // already rolled back, or a break's interrupt landed on the ROLLBACK itself, which leaves DuckDB's transaction
      // open and aborted ("Current transaction is aborted" for every later statement): end it
      await engine.execute("ROLLBACK").catch(() => undefined)
    }
    this.open = false
    this.log = []
    if (log.length === 0) return
    // each statement under the search path it ran under, the one in force again after them
    const current = this.host.searchPath?.()
    let path = current
    try {
      await engine.begin()
      this.open = true
      for (const entry of log) {
        if (entry.searchPath !== undefined && entry.searchPath !== path) await engine.execute((path = entry.searchPath))
        if (entry.append !== undefined) await engine.appendRows(entry.append.table, entry.append.rows)
        else await engine.execute(entry.sql, entry.params, entry.types)
      }
      if (current !== undefined && path !== current) await engine.execute(current)
    } catch (e) {
      if (current !== undefined && path !== current) await engine.execute(current).catch(() => undefined)
      // a replay that failed (or a break's interrupt landing on it) leaves DuckDB's transaction aborted: end it
      // rather than fail every later statement with "Current transaction is aborted"
      await engine.rollback().catch(() => engine.execute("ROLLBACK").catch(() => undefined))
      this.open = false
      this.host.db.releaseLocks(this.host.info.sid)
      this.host.db.transactionEnded()
      throw e
    }
    this.log = log
  }

  /**
   * Runs `body`, a write whose values were computed from the statement's snapshot (a row a statement with triggers
   * writes after its BEFORE row triggers): when it meets another transaction's change, it fails with
   * {@link WriteConflictRestart} (the transaction restored on a fresh snapshot) for the statement to start over.
   */
  async restartingOnConflict<T>(body: () => Promise<T>): Promise<T> {
    const outer = this.conflictsRestart
    this.conflictsRestart = true
    try {
      return await body()
    } finally {
      this.conflictsRestart = outer
    }
  }

  /**
   * Runs `body`, undoing the writes it logged and releasing the locks it took when it fails (Oracle's statement-level
   * atomicity of one call).
   */
  async atomically<T>(body: () => Promise<T>): Promise<T> {
    const mark = this.mark()
    try {
      return await body()
    } catch (e) {
      if (this.host.db.lockMarks(this.host.info.sid).transaction !== mark.locks.transaction) {
        // it ended the transaction it started in (a block's COMMIT or ROLLBACK): its pending (uncommitted) work is
        // all of the transaction open now, which it began, so the call's rollback undoes that one, locks included.
        // A top-level call that fails rolls back "all pending effects" of its cursor (a Stack Overflow answer,
        // translated at https://it.sqldat.com/mks/hfe/1004063668.html); T. Kyte (Expert Oracle Database
        // Architecture, "Procedure-Level Atomicity") describes it as a savepoint wrapped around the call, which a
        // COMMIT inside it erases with the transaction, leaving the committed work as it is
        await this.rollback()
        throw e
      }
      if (this.open && this.log.length > mark.log) {
        this.log = this.log.slice(0, mark.log)
        await this.recover()
      }
      this.releaseLocksAfter(mark.locks)
      throw e
    }
  }

  /**
   * Runs `body`, a statement: when it fails and none of its writes is left (its statement-level rollback undid them),
   * the locks it took are released too, as the rollback to the implicit savepoint before it releases them. A failure
   * that keeps some of its writes (an executeMany's rows before the failing one) keeps their locks.
   */
  async releasingLocksOnFailure<T>(body: () => Promise<T>): Promise<T> {
    const mark = this.mark()
    try {
      return await body()
    } catch (e) {
      if (this.log.length <= mark.log) this.releaseLocksAfter(mark.locks)
      throw e
    }
  }

  /**
   * The locks of a transaction whose statements all failed (rolled back to no statement, so no engine transaction
   * is open): Oracle keeps them until COMMIT or ROLLBACK, and so does the session.
   */
  private releaseLocks(): void {
    if (this.host.db.releaseLocks(this.host.info.sid)) this.host.db.transactionEnded()
  }

  /** Keeps what a logged statement uses until the transaction ends. */
  holdUntilEnd(release: () => void): void {
    this.held.push(release)
  }

  private releaseHeld(): void {
    const held = this.held
    this.held = []
    for (const release of held) release()
  }
}

/**
 * A write inside {@link SessionTransaction.restartingOnConflict} met a row another transaction changed since the
 * statement's snapshot: the statement is rolled back and started over on the rows as they are now, as Oracle restarts
 * an UPDATE whose rows changed between its consistent read and its current read (firing BEFORE row triggers again:
 * T. Kyte, Expert Oracle Database Architecture, "Concurrency and Multiversioning", "Seeing a Restart"). Its code is
 * that of a lock wait that timed out, should it ever reach a client.
 */
export class WriteConflictRestart extends OraError {
  constructor() {
    super(30006, "resource busy; acquire with WAIT timeout expired")
  }
}

/** A point of the transaction: its replay log position and the locks it held there, in the order marks were taken. */
interface Mark {
  readonly log: number
  readonly locks: LockMarks
  readonly order: number
}

/** Bound intervals as the storage of their parameters takes them (intervals.ts). */
export const intervalParams = async (engine: EngineSession, sql: string, params: ReadonlyArray<DuckDBValue>): Promise<Array<DuckDBValue>> => {
  const prepared = await engine.prepare(sql)
  try {
    return intervalParamsFor(params, (i) => prepared.parameterType(i))
  } finally {
    prepared.close()
  }
}

/**
 * {@link intervalParams} for a PL/SQL block's query (an INTERVAL variable meeting an exact-storage column): the
 * parameters as they are where the engine cannot prepare the statement without their values (`SELECT $1 + INTERVAL
 * '1' MONTH` fails "Unexpected type id: 0"), which then computes on the bound DuckDB INTERVAL as before.
 */
export const boundIntervals = (engine: EngineSession, sql: string, params: ReadonlyArray<DuckDBValue>): Promise<ReadonlyArray<DuckDBValue>> =>
  intervalParams(engine, sql, params).catch(() => params)

/** DuckDB's write-write conflict: another transaction changed (or holds an uncommitted change of) the row. */
const isWriteConflict = (e: unknown): boolean =>
  /TransactionContext Error: (?:Conflict|Catalog write-write conflict)/i.test(e instanceof Error ? e.message : String(e))
