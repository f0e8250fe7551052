/**
 * The locks one session's statements take, held until its transaction ends: FOR UPDATE's table and row locks (a
 * client's query, SELECT INTO, a PL/SQL cursor), the row exclusive table lock of DML, LOCK TABLE's table locks and the
 * row locks of the rows an UPDATE / DELETE / MERGE writes. The waits and lock tables behind them are row-locks.ts and
 * table-locks.ts; sqlsession.ts calls these where its statements run.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { TableMeta } from "./catalog.ts"
import { lockColumnError } from "./clause-checks.ts"
import { ora, OraError } from "./errors.ts"
import type { Tok } from "./lexer.ts"
import type { OracleFaults } from "./faults.ts"
import { parseLockTable, tablesToLock } from "./lock-table.ts"
import { type RowLockWaits, skipLockedQuery } from "./row-locks.ts"
import type { DmlResult } from "./statement.ts"
import { type TableLockHost, type TableLocks, tableLockKey, takeForUpdateTableLocks, takeTableLock } from "./table-locks.ts"
import type { QueryShape } from "./translate.ts"

/** What taking a session's locks needs from the SQL session. */
export interface SessionLockingHost {
  readonly db: { readonly tableLocks: TableLocks; readonly settings: { readonly lockWaitMs: number; readonly version: Parameters<typeof ora.tableNotFound>[0]; readonly faults?: Pick<OracleFaults, "holdWrites"> } }
  readonly info: { readonly sid: number }
  /** The session's waits for row locks and its row lock bookkeeping (row-locks.ts). */
  readonly locks: RowLockWaits
  /** The schema unqualified names resolve in. */
  readonly schema: string
  lookupTable(schema: string | undefined, name: string): TableMeta | undefined
  /** Opens the session's transaction, which the locks it takes last for. */
  begin(): Promise<void>
  /** True while a transaction is open. */
  readonly inTransaction: boolean
  /** A DML statement writes `meta` (the transaction's written tables, for the materialized views over them). */
  noteWritten(meta: TableMeta): void
}

/** The locks one session's statements take. */
export class SessionLocking {
  private readonly tableLockHost: TableLockHost

  constructor(private readonly host: SessionLockingHost) {
    this.tableLockHost = { db: host.db, info: host.info, waitForRowLock: (deadline, holders) => host.locks.waitForRowLock(deadline, holders) }
  }

  /**
   * The FOR UPDATE clause of a query (`shape.lock`), a client's or a PL/SQL block's (SELECT INTO, a cursor's OPEN):
   * checks its OF columns, then (unless `describeOnly`) takes the table lock and the row locks of the rows the query
   * selects (`params` its DuckDB parameters), waiting for other transactions' as row-locks.ts describes. Returns the
   * query's DuckDB text without the rows SKIP LOCKED leaves out (`translate` renders the query with further row id
   * columns, `lobRowids` those it already selects last: skipLockedQuery), undefined when the text stays.
   */
  async forUpdate(shape: QueryShape, params: ReadonlyArray<DuckDBValue>, lobRowids: ReadonlyArray<string>, translate: (lobRowids: ReadonlyArray<string>, extra: ReadonlyArray<string>) => string, describeOnly = false): Promise<{ sql: string; lobRowids: ReadonlyArray<string> } | undefined> {
    const lock = shape.lock
    if (lock === undefined) return undefined
    const lockColumn = lockColumnError(shape.from, lock, (schema, name) => this.host.lookupTable(schema, name))
    if (lockColumn !== undefined) throw lockColumn
    if (describeOnly) return undefined
    const locks = this.host.locks
    await takeForUpdateTableLocks(this.tableLockHost, locks.lockedTables(shape.from, lock), lock.wait)
    if (lock.wait !== "skip") {
      await locks.lockRows(shape.from, lock, params)
      return undefined
    }
    const skipped = await locks.lockRowsSkippingLocked(shape.from, lock, params)
    // SKIP LOCKED leaves out the rows other transactions hold, found by the row ids the query then selects last
    return skipped !== undefined && skipped.some((s) => s.held.length > 0) ? skipLockedQuery(skipped, lobRowids, translate) : undefined
  }

  /**
   * FOR UPDATE SKIP LOCKED of a PL/SQL cursor, whose rows Oracle locks as they are fetched: its OF columns checked and
   * its table locks taken now; the FROM tables (indexes into `shape.from`) whose rows it locks, and `claim`, which
   * locks a fetched row's rows of them (their row ids in that order) or tells that the cursor skips it
   * (row-locks.ts claimFetchedRow).
   */
  async skipLockedAtFetch(shape: QueryShape): Promise<{ tables: ReadonlyArray<number>; claim: (rowids: ReadonlyArray<bigint | undefined>) => Promise<boolean> }> {
    const lock = shape.lock
    if (lock === undefined) return { tables: [], claim: async () => true }
    const lockColumn = lockColumnError(shape.from, lock, (schema, name) => this.host.lookupTable(schema, name))
    if (lockColumn !== undefined) throw lockColumn
    const locked = this.host.locks.lockedTables(shape.from, lock)
    await takeForUpdateTableLocks(this.tableLockHost, locked, lock.wait)
    const metas = locked.map((t) => t.meta)
    // a row the cursor locked: once it is free again, the transaction the cursor locked in has ended, and fetching on
    // is ORA-01002, "fetching after a COMMIT has been issued will return the error" for a cursor opened FOR UPDATE
    // (Database Error Messages, ORA-01002; so also after autocommit ended the execute that sent its first rows)
    let lockedRow: { readonly meta: TableMeta; readonly row: bigint } | undefined
    const claim = async (rowids: ReadonlyArray<bigint | undefined>): Promise<boolean> => {
      if (lockedRow !== undefined && !this.host.locks.holdsRow(lockedRow.meta, lockedRow.row)) throw new OraError(1002, "fetch out of sequence")
      const claimed = await this.host.locks.claimFetchedRow(metas, rowids)
      const k = rowids.findIndex((r) => r !== undefined)
      if (claimed && lockedRow === undefined && k >= 0) lockedRow = { meta: metas[k]!, row: rowids[k]! }
      return claimed
    }
    return { tables: locked.map((t) => shape.from.indexOf(t.ref)), claim }
  }

  /**
   * The row exclusive lock a DML statement takes on its table until the transaction ends (table-locks.ts), after
   * waiting for another transaction's SHARE / SHARE ROW EXCLUSIVE / EXCLUSIVE lock; with `wait` false, false instead
   * of waiting.
   */
  async rowExclusive(meta: TableMeta | undefined, wait = true): Promise<boolean> {
    if (meta === undefined || meta.kind !== "TABLE") return true
    this.host.noteWritten(meta)
    const key = tableLockKey(meta)
    if (!wait && this.host.db.tableLocks.conflicting(this.host.info.sid, key, "RX").size > 0) return false
    await takeTableLock(this.tableLockHost, key, "RX")
    return true
  }

  /** LOCK TABLE: each lock is held to the end of the transaction the statement starts (lock-table.ts, table-locks.ts). */
  async lockTable(sql: string): Promise<void> {
    const host = this.host
    const lock = parseLockTable(sql)
    const tables = tablesToLock(lock.tables, (schema, name) => host.lookupTable(schema, name), (t) => ora.tableNotFound(host.db.settings.version, t.schema ?? host.schema, t.name))
    await host.begin()
    for (const meta of tables) await takeTableLock(this.tableLockHost, tableLockKey(meta), lock.mode, lock.wait)
  }

  /**
   * Runs `write`, an UPDATE / DELETE / MERGE of `target` (translated, `t`) for each of `bindRows`, given the rows it
   * writes (row-locks.ts rowsToWriteForEach, after waiting for their holders), and locks them until the transaction
   * ends: all of them when it succeeds, less those of the bind rows that failed with batchErrors; when it fails at a
   * bind row (`rowOffset`), those of the bind rows before it, whose writes stay as in Oracle.
   */
  async holdingWrittenRows(target: TableMeta | undefined, t: { toks: Array<Tok>; text: (a: number, b: number) => string }, bindRows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, write: (written: ReadonlyArray<bigint> | undefined) => Promise<DmlResult>): Promise<DmlResult> {
    const locks = this.host.locks
    const written = await locks.rowsToWriteForEach(target, t, bindRows)
    const hold = (kept: (bindRow: number) => boolean) => {
      if (written !== undefined && target !== undefined && this.host.inTransaction) locks.holdWrittenRows(target, written.filter((_, k) => kept(k)).flat())
    }
    return this.writingRows(target, written?.flat(), async () => {
      let result: DmlResult
      try {
        result = await write(written?.flat())
      } catch (e) {
        const failedAt = (e as { rowOffset?: number }).rowOffset
        if (failedAt !== undefined) hold((k) => k < failedAt)
        throw e
      }
      // with batchErrors, the rows of the bind rows that failed were rolled back with their own run
      const failed = new Set(result.batchErrors.map((b) => b.offset))
      hold((k) => !failed.has(k))
      return result
    })
  }

  /**
   * Runs `write`, a statement writing `rows` of `target` (known before it writes them, undefined when not), with the
   * rows marked as being written by this session until it ends (rows-being-written.ts): another session meeting one
   * meanwhile waits for this session's transaction, as for the row locks `write` records when it succeeds. The
   * server's `holdWrites` fault holds the statement once its rows are marked.
   */
  async writingRows<T>(target: TableMeta | undefined, rows: ReadonlyArray<bigint> | undefined, write: () => Promise<T>): Promise<T> {
    if (target === undefined || rows === undefined) return write()
    const unmark = this.host.locks.markWriting(target, rows)
    try {
      const held = this.host.db.settings.faults?.holdWrites?.(tableLockKey(target))
      if (held !== undefined) await held
      return await write()
    } finally {
      unmark()
    }
  }
}
