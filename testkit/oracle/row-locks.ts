/**
 * Locks held until the locking session's transaction ends (or it rolls back to a savepoint marked before them:
 * lock-marks.ts), by table and key.
 *
 * DuckDB has no row locks (and records no write conflict between an UPDATE and a later DELETE of the same row), so
 * the database keeps them itself:
 * - row locks of `SELECT ... FOR UPDATE`, by DuckDB row id: other sessions' FOR UPDATE and UPDATE / DELETE of a
 *   locked row wait for its release ({@link RowLockWaits}), as they wait for Oracle's row lock;
 * - the primary / unique keys a transaction inserted, by constraint and key values: DuckDB lets a second transaction
 *   insert the same key and fails only its COMMIT, where Oracle makes the second insert wait for the first
 *   transaction and then raise ORA-00001 or go ahead (key-locks.ts).
 *
 * A session's waits for them (and for rows another transaction wrote) are {@link RowLockWaits}.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { TableMeta } from "./catalog.ts"
import type { WaitsFor } from "./deadlocks.ts"
import { ora, OraError } from "./errors.ts"
import { RowsBeingWritten } from "./rows-being-written.ts"
import { SessionLockLog } from "./session-lock-log.ts"
import { isKw, significantTokensOf } from "./lexer.ts"
import { duckIdent } from "./names.ts"
import { WriteConflictRestart } from "./session-transaction.ts"
import { AwaitedTransactions } from "./transaction-waits.ts"
import type { FromRef, RowLockClause } from "./translate.ts"
import { BIND_ROWS_PER_QUERY, bindRowsAsJson, type EngineStatement, renumberParams, writtenRowsParts, writtenRowsSql } from "./written-rows-sql.ts"

/** How many of a table's latest releases {@link RowLocks.releasedSince} can tell apart. */
const RELEASES_KEPT = 32

export class RowLocks<K = bigint> extends SessionLockLog<readonly [string, K]> {
  private readonly byTable = new Map<string, Map<K, number>>()
  /** The rows statements are writing now, held as locks of their sessions until they end (rows-being-written.ts). */
  readonly writing = new RowsBeingWritten<K>()
  private readonly releasesByTable = new Map<string, number>()
  /** The keys each of the latest releases on a table let go of, numbered as {@link releases} counts them. */
  private readonly releasedByTable = new Map<string, Array<{ readonly n: number; readonly rows: ReadonlyArray<K> }>>()

  /** Locks `rows` of `table` for session `sid` (rows it already holds stay held). */
  take(sid: number, table: string, rows: ReadonlyArray<K>): void {
    let locks = this.byTable.get(table)
    if (locks === undefined) this.byTable.set(table, (locks = new Map()))
    for (const row of rows) {
      if (locks.get(row) === sid) continue
      locks.set(row, sid)
      this.noteTaken(sid, [table, row])
    }
  }

  /** True when another session than `sid` holds a lock on `table` (a cheap test before looking at rows). */
  othersHoldIn(sid: number, table: string): boolean {
    const locks = this.byTable.get(table)
    if (this.writing.othersIn(sid, table)) return true
    if (locks === undefined) return false
    for (const holder of locks.values()) if (holder !== sid) return true
    return false
  }

  /** True when another session than `sid` holds one of `rows` of `table`. */
  othersHold(sid: number, table: string, rows: ReadonlyArray<K>): boolean {
    return this.holders(sid, table, rows).size > 0
  }

  /** True when session `sid` holds the lock on `row` of `table`. */
  heldBy(sid: number, table: string, row: K): boolean {
    return this.byTable.get(table)?.get(row) === sid
  }

  /** The sessions other than `sid` holding one of `rows` of `table`. */
  holders(sid: number, table: string, rows: ReadonlyArray<K>): Set<number> {
    const out = new Set<number>()
    const locks = this.byTable.get(table)
    if (locks === undefined && !this.writing.othersIn(sid, table)) return out
    for (const row of rows) {
      const holder = locks?.get(row) ?? this.writing.writer(sid, table, row)
      if (holder !== undefined && holder !== sid) out.add(holder)
    }
    return out
  }

  /** How often locks on `table` were released: a change tells that a holder's transaction ended meanwhile. */
  releases(table: string): number {
    return this.releasesByTable.get(table) ?? 0
  }

  /**
   * The locks on `table` released since {@link releases} gave `since`; undefined when that was too many releases ago
   * to tell (only the latest ones are kept).
   */
  releasedSince(table: string, since: number): ReadonlyArray<K> | undefined {
    const now = this.releases(table)
    if (now === since) return []
    const log = this.releasedByTable.get(table) ?? []
    if (log.length === 0 || log[0]!.n > since + 1) return undefined
    return log.filter((r) => r.n > since).flatMap((r) => r.rows)
  }

  protected drop(sid: number, held: ReadonlyArray<readonly [string, K]>): void {
    for (const table of new Set(held.map(([table]) => table))) {
      const n = this.releases(table) + 1
      this.releasesByTable.set(table, n)
      let log = this.releasedByTable.get(table)
      if (log === undefined) this.releasedByTable.set(table, (log = []))
      log.push({ n, rows: held.flatMap(([t, row]) => (t === table ? [row] : [])) })
      if (log.length > RELEASES_KEPT) log.shift()
    }
    for (const [table, row] of held) {
      const locks = this.byTable.get(table)
      if (locks?.get(row) !== sid) continue
      locks.delete(row)
      if (locks.size === 0) this.byTable.delete(table)
    }
  }
}

/** What waiting for row locks needs from the SQL session that waits. */
export interface LockWaitHost {
  readonly db: {
    readonly rowLocks: RowLocks
    /** Who waits for whom: a wait that closes a cycle fails with ORA-00060 (deadlocks.ts). */
    readonly waitsFor: WaitsFor
    readonly settings: { readonly lockWaitMs: number }
    /** The server's work counters: {@link RowLockWaits} counts the calls that waited (`lockWaits`). */
    readonly stats: { lockWaits: number }
    /** Resolves when some transaction ends or after `ms`; `abort` resolves it at once. */
    nextTransactionEnd(ms: number): { readonly ended: Promise<void>; readonly abort: () => void }
    /** How many transactions of session `sid` ended (transaction-waits.ts). */
    transactionsEnded(sid: number): number
  }
  readonly info: { readonly sid: number }
  lookupTable(schema: string | undefined, name: string): TableMeta | undefined
  /** Opens the session's transaction, which the locks it takes last for. */
  begin(): Promise<void>
  /** The DuckDB row ids a query selects; a failure restores the transaction and is thrown as an ORA- error. */
  rowIdsOf(sql: string, params: ReadonlyArray<DuckDBValue>): Promise<Array<bigint>>
  /** {@link rowIdsOf} of a query selecting further whole numbers after the row id: every column of each row. */
  rowIdTuplesOf(sql: string, params: ReadonlyArray<DuckDBValue>): Promise<Array<Array<bigint>>>
}

/** One session's waits for row locks (FOR UPDATE, and rows other transactions wrote or locked), ended by a break. */
export class RowLockWaits {
  /** Set by a break during the current call; reset only by {@link startCall}, so no nested wait forgets it. */
  private interruptedCall = false
  /** Whether the current call has waited for a lock yet (counted once per call in the server's `lockWaits`). */
  private waitedThisCall = false
  private lockWait: { readonly abort: () => void } | undefined
  /** Set inside {@link restartingAfterWaits}: a completed wait fails with {@link WriteConflictRestart}. */
  private restartAfterWait = false

  constructor(private readonly host: LockWaitHost) {}

  /** True when a break arrived during the current call. */
  get interrupted(): boolean {
    return this.interruptedCall
  }

  /** A break: the current wait ends (with ORA-01013), and so does any later one of the same call. */
  interrupt(): void {
    this.interruptedCall = true
    this.lockWait?.abort()
  }

  /** A new call starts: a break from an earlier call no longer applies. */
  startCall(): void {
    this.interruptedCall = false
    this.waitedThisCall = false
  }

  /**
   * The call ended: the session waits for nobody. A wait stays in the wait-for graph (deadlocks.ts) until then, not
   * only while it sleeps: the statement retried between two waits is still waiting for the same holders, and a
   * session closing the cycle meanwhile must see it, or neither side would fail and both would wait for good. A
   * holder whose transaction ends leaves the graph at once (WaitsFor.released).
   */
  endCall(): void {
    this.host.db.waitsFor.end(this.host.info.sid)
  }

  /**
   * Runs `body`, a write whose values were computed before it waited (a row a statement with triggers writes after
   * its BEFORE row triggers): once a wait for another transaction ends, it fails with {@link WriteConflictRestart}
   * for the statement to start over on the rows as that transaction left them (trigger-restarts.ts).
   */
  async restartingAfterWaits<T>(body: () => Promise<T>): Promise<T> {
    const outer = this.restartAfterWait
    this.restartAfterWait = true
    try {
      return await body()
    } finally {
      this.restartAfterWait = outer
    }
  }

  /**
   * Another transaction changed a row this statement writes. Oracle makes the writer wait for the row lock until that
   * transaction ends; DuckDB reports the conflict at once, so the statement is retried (on a fresh snapshot, after
   * the statement-level rollback) whenever a transaction ends, and at short intervals, until `deadline`: then
   * ORA-30006, as Oracle reports a lock wait that timed out (SELECT ... FOR UPDATE WAIT n). A break ends the wait
   * with ORA-01013. When the sessions holding the lock are known (`holders`), a wait for a session that waits for this
   * one fails at once with ORA-00060 (deadlocks.ts).
   */
  async waitForRowLock(deadline: number, holders?: ReadonlySet<number>): Promise<void> {
    const left = deadline - Date.now()
    const sid = this.host.info.sid
    if (left <= 0) {
      // the wait is over: a handler of the error may go on in the same call without waiting
      this.host.db.waitsFor.end(sid)
      throw new OraError(30006, "resource busy; acquire with WAIT timeout expired")
    }
    if (holders !== undefined) this.host.db.waitsFor.begin(sid, holders)
    if (!this.waitedThisCall) {
      this.waitedThisCall = true
      this.host.db.stats.lockWaits++
    }
    const wait = this.host.db.nextTransactionEnd(Math.min(left, 50))
    this.lockWait = wait
    try {
      await wait.ended
    } finally {
      this.lockWait = undefined
    }
    if (this.interruptedCall) {
      this.host.db.waitsFor.end(sid)
      throw ora.cancelled()
    }
    if (this.restartAfterWait) throw new WriteConflictRestart()
  }

  /**
   * SELECT ... FOR UPDATE: locks the rows the query selects from each of its tables (those of the `OF` columns when
   * given) until the transaction ends, after waiting for rows another transaction locked. NOWAIT fails at once with
   * ORA-00054 and WAIT n after n seconds with ORA-30006, as the SQL Language Reference describes the
   * for_update_clause: https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/SELECT.html
   */
  async lockRows(from: ReadonlyArray<FromRef>, lock: RowLockClause, params: ReadonlyArray<DuckDBValue>): Promise<void> {
    const host = this.host
    const waitMs = lock.wait === "nowait" ? 0 : typeof lock.wait === "number" ? lock.wait * 1000 : host.db.settings.lockWaitMs
    const deadline = Date.now() + waitMs
    for (;;) {
      const taken: Array<{ key: string; rows: Array<bigint> }> = []
      for (const { ref, meta } of this.lockedTables(from, lock)) {
        const rows = await this.waitForLockedRows(meta, `SELECT ${rowidOf(from, ref)} ${lock.source}`, params, Math.max(0, deadline - Date.now()), lock.wait === "nowait")
        taken.push({ key: lockKey(meta), rows })
      }
      // a row another session took meanwhile: this one waits for it as the loop tests again
      if (taken.length === 0 || (await this.takeIfFree(taken))) return
    }
  }

  /** The tables of `from` whose rows a FOR UPDATE clause locks: every table, or those of its `OF` columns. */
  lockedTables(from: ReadonlyArray<FromRef>, lock: RowLockClause): Array<{ readonly ref: FromRef; readonly meta: TableMeta }> {
    const out: Array<{ readonly ref: FromRef; readonly meta: TableMeta }> = []
    for (const ref of from) {
      const meta = this.host.lookupTable(ref.schema, ref.table)
      if (meta === undefined || meta.kind !== "TABLE") continue
      const named = (q: string | undefined) => q === undefined || q === (ref.alias ?? ref.table)
      if (lock.of.length > 0 && !lock.of.some((c) => named(c.qualifier) && meta.columns.some((m) => m.name === c.column))) continue
      out.push({ ref, meta })
    }
    return out
  }

  /**
   * SELECT ... FOR UPDATE SKIP LOCKED: locks the rows the query selects that no other transaction holds, without
   * waiting, and returns for each locked table (every FROM table, or those of the `OF` columns) its row id expression
   * and the row ids another transaction holds, which the query must leave out ({@link skipLockedQuery}); undefined when
   * no table is locked. Oracle "skip[s] any rows that are found to be already locked by another transaction" (SQL
   * Language Reference, SELECT, for_update_clause); over a join a result row is left out when a row of any locked
   * table in it is held, and the rows of the others are locked.
   */
  async lockRowsSkippingLocked(from: ReadonlyArray<FromRef>, lock: RowLockClause, params: ReadonlyArray<DuckDBValue>): Promise<ReadonlyArray<SkippedRows> | undefined> {
    const host = this.host
    const tables = this.lockedTables(from, lock)
    if (tables.length === 0) return undefined
    const sid = host.info.sid
    const rowids = tables.map(({ ref }) => rowidOf(from, ref))
    const columns = rowids.map((r, k) => `${r} AS ora_r${k}`).join(", ")
    for (;;) {
      const held: Array<Array<bigint>> = []
      for (const [k, { meta }] of tables.entries()) {
        const { sql, values } = renumberParams(`SELECT ${rowids[k]} ${lock.source}`, params)
        held.push((await host.rowIdsOf(sql, values)).filter((row) => host.db.rowLocks.othersHold(sid, lockKey(meta), [row])))
      }
      const unheld = held.flatMap((h, k) => (h.length === 0 ? [] : [`ora_r${k} IN (${h.join(", ")})`]))
      const taken: Array<{ key: string; rows: Array<bigint> }> = []
      for (const [k, { meta }] of tables.entries()) {
        const query = `SELECT ora_r${k} FROM (SELECT ${columns} ${lock.source}) AS ora_skip${unheld.length > 0 ? ` WHERE NOT (${unheld.join(" OR ")})` : ""}`
        const { sql, values } = renumberParams(query, params)
        taken.push({ key: lockKey(meta), rows: await host.rowIdsOf(sql, values) })
      }
      // rows another session took meanwhile are skipped on a new pass
      if (taken.some((t) => t.rows.length > 0) && !(await this.takeIfFree(taken))) continue
      return rowids.map((rowid, k) => ({ rowid, held: held[k]! }))
    }
  }

  /**
   * A row a PL/SQL cursor FOR UPDATE SKIP LOCKED fetched, which Oracle locks as it fetches it: the rows of `tables` it
   * holds (`rowids`, one per table; undefined for an outer join's missing row) are locked until the transaction ends,
   * unless another transaction holds one of them: then false, and the cursor skips the row.
   */
  async claimFetchedRow(tables: ReadonlyArray<TableMeta>, rowids: ReadonlyArray<bigint | undefined>): Promise<boolean> {
    const rows = tables.flatMap((meta, k) => (rowids[k] === undefined ? [] : [{ key: lockKey(meta), rows: [rowids[k]!] }]))
    return rows.length === 0 || this.takeIfFree(rows)
  }

  /**
   * Takes the locks on `taken` when no other transaction holds one of them (false then, taking none), in the
   * session's transaction, opened first: the test and the taking must not be split by a wait, or two sessions locking
   * the same row at once would both find it free and both take it.
   */
  private async takeIfFree(taken: ReadonlyArray<{ readonly key: string; readonly rows: ReadonlyArray<bigint> }>): Promise<boolean> {
    await this.host.begin()
    const { rowLocks } = this.host.db
    const sid = this.host.info.sid
    if (taken.some((t) => rowLocks.othersHold(sid, t.key, t.rows))) return false
    for (const t of taken) rowLocks.take(sid, t.key, t.rows)
    return true
  }

  /** True when this session holds the lock on `row` of `meta`. */
  holdsRow(meta: TableMeta, row: bigint): boolean {
    return this.host.db.rowLocks.heldBy(this.host.info.sid, lockKey(meta), row)
  }

  /** True when another session holds a FOR UPDATE lock on some row of `meta` (a cheap test before {@link waitForRowLocksOf}). */
  othersLockRowsOf(meta: TableMeta | undefined): boolean {
    return meta !== undefined && this.host.db.rowLocks.othersHoldIn(this.host.info.sid, lockKey(meta))
  }

  /**
   * UPDATE / DELETE (translated, `t`) of `meta`, a table with rows another session locked FOR UPDATE: waits until the
   * rows it writes are free.
   */
  async waitForRowLocksOf(meta: TableMeta | undefined, t: EngineStatement, params: ReadonlyArray<DuckDBValue>): Promise<void> {
    if (meta === undefined || !this.othersLockRowsOf(meta)) return
    const rowidSql = writtenRowsSql(t)
    if (rowidSql !== undefined) await this.waitForLockedRows(meta, rowidSql, params, this.host.db.settings.lockWaitMs, false)
  }

  /**
   * UPDATE / DELETE (translated, `t`) of `meta`: the DuckDB row ids of the rows it will write, once no other
   * transaction holds them (undefined for other statements). The session locks them when the statement succeeded
   * ({@link holdWrittenRows}): Oracle locks every row a DML statement changes until the transaction ends, so that
   * another transaction's FOR UPDATE waits for them (NOWAIT: ORA-00054) and its DELETE waits as its UPDATE does
   * (Database Concepts, "Data Concurrency and Consistency", "Row Locks (TX)":
   * https://docs.oracle.com/en/database/oracle/oracle-database/23/cncpt/data-concurrency-and-consistency.html).
   */
  async rowsToWrite(meta: TableMeta | undefined, t: EngineStatement, params: ReadonlyArray<DuckDBValue>): Promise<Array<bigint> | undefined> {
    if (meta === undefined || meta.kind !== "TABLE") return undefined
    const rowidSql = writtenRowsSql(t)
    if (rowidSql === undefined) return undefined
    try {
      return await this.waitForLockedRows(meta, rowidSql, params, this.host.db.settings.lockWaitMs, false)
    } catch (e) {
      // a MERGE whose target-source join the engine refuses on its own still runs (its rows stay unlocked)
      if (isKw(t.toks[0], "MERGE") && !isLockFailure(e)) return undefined
      throw e
    }
  }

  /**
   * {@link rowsToWrite} for each bind row of a statement (one row for execute, several for executeMany, which Oracle
   * runs as the statement once per bind row, locking what each run changes): the rows of each bind row, in order, so
   * that a call failing at one of them locks those the bind rows before it wrote. The rows of many bind rows are found
   * with one query per chunk (the WHERE clause joined with the bind rows and their numbers), not one per bind row.
   */
  async rowsToWriteForEach(meta: TableMeta | undefined, t: EngineStatement, bindRows: ReadonlyArray<ReadonlyArray<DuckDBValue>>): Promise<Array<ReadonlyArray<bigint>> | undefined> {
    if (bindRows.length <= 1) {
      const rows = await this.rowsToWrite(meta, t, bindRows[0] ?? [])
      return rows === undefined ? undefined : [rows]
    }
    // a bind row whose WHERE fails finds none: the write fails at it after the bind rows before it wrote theirs,
    // which stay as in Oracle (node-oracledb "executeMany()": without batchErrors, processing stops at the first error);
    // only a statement error (an OraError) is the write's own: anything else is a fault of the server, rethrown
    const eachAlone = async (params: ReadonlyArray<DuckDBValue>) =>
      (await this.rowsToWrite(meta, t, params).catch((e: unknown) => (e instanceof OraError && !isLockFailure(e) ? [] : Promise.reject(e)))) ?? []
    if (isKw(t.toks[0], "MERGE")) {
      if (meta === undefined || meta.kind !== "TABLE") return undefined
      const all: Array<ReadonlyArray<bigint>> = []
      for (const params of bindRows) all.push(await eachAlone(params))
      return all
    }
    const parts = writtenRowsParts(t)
    if (meta === undefined || meta.kind !== "TABLE" || parts === undefined) return undefined
    const lockWaitMs = this.host.db.settings.lockWaitMs
    const used = [...new Set([...parts.where.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))]
    if (used.length === 0) {
      // a WHERE without binds selects the same rows for every bind row
      const rows = await this.waitForLockedRows(meta, writtenRowsSql(t)!, [], lockWaitMs, false)
      return bindRows.map(() => rows)
    }
    const where = parts.where.replace(/\$(\d+)/g, (_, d: string) => `ora_bind_rows.b${d}`)
    const all: Array<Array<bigint>> = bindRows.map(() => [])
    for (let at = 0; at < bindRows.length; at += BIND_ROWS_PER_QUERY) {
      const chunk = bindRows.slice(at, at + BIND_ROWS_PER_QUERY)
      const joined = bindRowsAsJson(chunk, used)
      if (joined === undefined) {
        // values JSON cannot carry exactly (datetimes, bigints, binaries, mixed types): one query per bind row
        for (const [k, params] of chunk.entries()) all[at + k] = [...(await eachAlone(params))]
        continue
      }
      const sql = `SELECT DISTINCT rowid, ora_bind_rows.ora_n FROM ${parts.table}, (SELECT ${joined.columns}) AS ora_bind_rows WHERE ${where}`
      try {
        for (const [row, n] of await this.waitForLockedRowTuples(meta, sql, joined.values, lockWaitMs, false)) all[at + Number(n)]!.push(row!)
      } catch (e) {
        // a lock wait that failed fails the statement; a join DuckDB refuses (a text bind compared with a number
        // column, which a bound parameter would have been cast to) is retried one bind row at a time
        if (isLockFailure(e)) throw e
        for (const [k, params] of chunk.entries()) all[at + k] = [...(await eachAlone(params))]
      }
    }
    return all
  }

  /** Marks `rows` of `meta` as being written by the session's statement until the function returned is called (rows-being-written.ts). */
  markWriting(meta: TableMeta, rows: ReadonlyArray<bigint>): () => void {
    return this.host.db.rowLocks.writing.mark(this.host.info.sid, lockKey(meta), rows)
  }

  /** Locks `rows` of `meta`, which the session's open transaction just wrote, until the transaction ends. */
  holdWrittenRows(meta: TableMeta, rows: ReadonlyArray<bigint>): void {
    if (rows.length > 0) this.host.db.rowLocks.take(this.host.info.sid, lockKey(meta), rows)
  }

  /**
   * The DuckDB row ids `rowidSql` selects from `meta`, once no other transaction holds a lock on any of them: waits
   * (as for a row another transaction wrote) until their holders' transactions end (a rollback to a savepoint that
   * releases the rows does not end the wait: transaction-waits.ts), `waitMs` passes (ORA-30006; ORA-00054 when
   * `nowait`) or a break arrives (ORA-01013).
   */
  private async waitForLockedRows(meta: TableMeta, rowidSql: string, params: ReadonlyArray<DuckDBValue>, waitMs: number, nowait: boolean): Promise<Array<bigint>> {
    return (await this.waitForLockedRowTuples(meta, rowidSql, params, waitMs, nowait)).map((r) => r[0]!)
  }

  /** {@link waitForLockedRows} of a query selecting a row id and further numbers (kept with it). */
  private async waitForLockedRowTuples(meta: TableMeta, rowidSql: string, params: ReadonlyArray<DuckDBValue>, waitMs: number, nowait: boolean): Promise<Array<Array<bigint>>> {
    const { sql, values } = renumberParams(rowidSql, params)
    const deadline = Date.now() + waitMs
    const awaited = new AwaitedTransactions(this.host.db)
    for (;;) {
      const tuples = await this.host.rowIdTuplesOf(sql, values)
      awaited.note(this.host.db.rowLocks.holders(this.host.info.sid, lockKey(meta), tuples.map((r) => r[0]!)))
      const holders = awaited.pending()
      if (holders.size === 0) return tuples
      if (nowait) throw new OraError(54, "resource busy and acquire with NOWAIT specified or timeout expired")
      await this.waitForRowLock(deadline, holders)
    }
  }
}

/** The tokens of engine SQL text (a PL/SQL block's translated DML) with the text between two of them, for {@link RowLockWaits.rowsToWrite}. */
export const engineStatement = (sql: string): EngineStatement | undefined => {
  const toks = significantTokensOf(sql)
  if (toks === undefined) return undefined
  return { toks, text: (a, b) => sql.slice(toks[a]?.pos ?? sql.length, toks[b]?.pos ?? sql.length) }
}

/** True for the errors a lock wait ends with: NOWAIT (ORA-00054), deadlock (ORA-00060), timeout (ORA-30006), break (ORA-01013). */
const isLockFailure = (e: unknown): boolean => e instanceof OraError && (e.code === 54 || e.code === 60 || e.code === 30006 || e.code === 1013)

/** The row-lock key of a table. */
const lockKey = (meta: TableMeta): string => `${meta.owner}.${meta.name}`

/** The DuckDB row id expression of FROM table `ref` in a query reading `from`: qualified in a join. */
export const rowidOf = (from: ReadonlyArray<FromRef>, ref: FromRef): string => (from.length > 1 ? `${duckIdent(ref.alias ?? ref.table)}.rowid` : "rowid")

/** A table's rows a SKIP LOCKED query leaves out: its row id expression in the query and the row ids others hold. */
export type SkippedRows = { readonly rowid: string; readonly held: ReadonlyArray<bigint> }

/**
 * The DuckDB text of a SKIP LOCKED query without the rows others hold ({@link RowLockWaits.lockRowsSkippingLocked}):
 * one table by the undescribed row id the query then selects last (also a LOB locator's), a join by each locked
 * table's row id selected after the items and left out of the result. `translate` renders the query with those.
 */
export const skipLockedQuery = (
  skipped: ReadonlyArray<SkippedRows>,
  lobRowids: ReadonlyArray<string>,
  translate: (lobRowids: ReadonlyArray<string>, extra: ReadonlyArray<string>) => string
): { sql: string; lobRowids: ReadonlyArray<string> } => {
  if (skipped.length === 1 && skipped[0]!.rowid === "rowid") {
    return { sql: `SELECT * FROM (${translate(["rowid"], [])}) AS ora_skip_locked WHERE "ora$lob_rowid" NOT IN (${skipped[0]!.held.join(", ")})`, lobRowids: ["rowid"] }
  }
  const names = skipped.map((_, k) => `"ora$skip_rowid_${k}"`)
  const held = skipped.flatMap((s, k) => (s.held.length === 0 ? [] : [`${names[k]} IN (${s.held.join(", ")})`]))
  const query = translate(lobRowids, skipped.map((s, k) => `${s.rowid} AS ${names[k]}`))
  return { sql: `SELECT * EXCLUDE (${names.join(", ")}) FROM (${query}) AS ora_skip_locked WHERE NOT (${held.join(" OR ")})`, lobRowids }
}
