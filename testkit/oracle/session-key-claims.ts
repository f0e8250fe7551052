/**
 * The primary / unique keys one session's INSERTs claim (key-locks.ts): an INSERT of a key another open transaction
 * inserted is undone and waits for that transaction, as Oracle's does (Database Concepts, "Row Locks (TX)").
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { BulkRows } from "../engine/index.ts"
import { ora } from "./errors.ts"
import type { Catalog, TableMeta } from "./catalog.ts"
import { indexedColumns } from "./indexed-columns.ts"
import { type KeyedTable, keysOfBulk, keysOfDuplicate, keysOfRowIdsSql, keysOfRows, returningKeys } from "./key-locks.ts"
import { decodeName } from "./names.ts"
import { duplicateKeyMessage } from "./session-errors.ts"
import type { RowLocks } from "./row-locks.ts"
import { AwaitedTransactions } from "./transaction-waits.ts"

/** What claiming keys needs from its session. */
export interface KeyClaimHost {
  readonly db: { readonly keyLocks: RowLocks<string>; readonly settings: { readonly lockWaitMs: number }; readonly catalog: Catalog; transactionsEnded(sid: number): number }
  readonly info: { readonly sid: number }
  /** The session's transaction (session-transaction.ts). */
  readonly txn: {
    readonly inTxn: boolean
    readonly length: number
    undoTo(mark: number): Promise<void>
    run(sql: string, params?: ReadonlyArray<DuckDBValue>): Promise<number>
    runWritingKeys(sql: string, params: ReadonlyArray<DuckDBValue>, keyColumns: ReadonlyArray<string>, returning: string, update?: UpdateClaim): Promise<{ readonly count: number; readonly keys: ReadonlyArray<ReadonlyArray<unknown>> }>
  }
  /** Reads rows inside the session's transaction (engine SQL). */
  readRows(sql: string, params: ReadonlyArray<DuckDBValue>): Promise<ReadonlyArray<ReadonlyArray<unknown>>>
  /** The session's lock waits (row-locks.ts). */
  readonly locks: { readonly interrupted: boolean; waitForRowLock(deadline: number, holders?: ReadonlySet<number>): Promise<void> }
}

/** What an UPDATE claiming keys tells its write in place (in-place-updates.ts). */
export interface UpdateClaim {
  /** The columns of the table an index covers, which a row's write leaves out where they keep their values. */
  readonly indexed: ReadonlyArray<string>
  /** True when the keys the rows held before are claimed anyway: those of rows keeping them need not be read back. */
  readonly oldKeysClaimed: boolean
}

/** The keys of one session's running INSERT and the waits for other transactions' keys. */
export class KeyClaims {
  /** Keys the running INSERT wrote into a table with primary-key or unique constraints (key-locks.ts). */
  private insertKeys: { readonly keyed: KeyedTable; readonly keys: Array<string>; readonly update: UpdateClaim | undefined } | undefined

  constructor(private readonly host: KeyClaimHost) {}

  /**
   * Runs `write` (an INSERT into `keyed`, which records the keys it writes in {@link insertKeys}) and claims its keys.
   * When another open transaction inserted one of them, the write is undone and, with `wait`, retried whenever a
   * transaction ends (then DuckDB raises the duplicate key if that transaction committed), until the lock wait
   * bound (ORA-30006) or a break (ORA-01013); without `wait` undefined is returned (the general path then waits). A
   * holder that releases the key by a rollback to a savepoint is still waited for until its transaction ends
   * (transaction-waits.ts). `update`: what an UPDATE's write in place needs (in-place-updates.ts).
   */
  async claiming<T>(keyed: KeyedTable, write: () => Promise<T>, wait: boolean, update?: UpdateClaim): Promise<T | undefined> {
    const host = this.host
    if (this.insertKeys !== undefined) return write()
    const deadline = Date.now() + host.db.settings.lockWaitMs
    const awaited = new AwaitedTransactions(host.db)
    for (;;) {
      const mark = host.txn.length
      const claim = { keyed, keys: new Array<string>(), update }
      this.insertKeys = claim
      // A holder whose COMMIT finishes while the write runs releases its keys before this check, although DuckDB
      // accepted the write against its uncommitted key (and would fail only this transaction's COMMIT): a release
      // during the write of a key the write wrote makes it run again, then DuckDB sees the other transaction's
      // outcome. Releases of other keys leave it alone (running it again would take its identity values anew).
      const releases = host.db.keyLocks.releases(keyed.table)
      let out: { readonly value: T } | undefined
      let duplicateHolders: ReadonlySet<number> | undefined
      try {
        out = { value: await write() }
      } catch (e) {
        // a duplicate of a key another open transaction holds (it deleted that row, or changed its key, without
        // committing yet) waits for that transaction, as Oracle's unique index entry is locked with the row
        duplicateHolders = wait ? this.holdersOfDuplicate(keyed, e) : undefined
        if (duplicateHolders !== undefined) awaited.note(duplicateHolders)
        else {
          // rows written before the failing one stay (executeMany without batchErrors), and so do their keys
          this.takeKeys(keyed, claim.keys.filter((k) => !host.db.keyLocks.othersHold(host.info.sid, keyed.table, [k])))
          throw e
        }
      } finally {
        this.insertKeys = undefined
      }
      if (out !== undefined) {
        awaited.note(host.db.keyLocks.holders(host.info.sid, keyed.table, claim.keys))
        const held = awaited.pending().size > 0
        // only a release of one of the keys it wrote can have let the write through against an uncommitted key
        const released = claim.keys.length === 0 ? [] : host.db.keyLocks.releasedSince(keyed.table, releases)
        if (!held && released !== undefined && !claim.keys.some((k) => released.includes(k))) {
          this.takeKeys(keyed, claim.keys)
          return out.value
        }
        await host.txn.undoTo(mark)
        if (!wait) return undefined
      } else await host.txn.undoTo(mark)
      // the holders whose transactions are still open (one may have ended while the write was undone)
      const holders = awaited.pending()
      if (holders.size > 0) await host.locks.waitForRowLock(deadline, holders)
      else if (host.locks.interrupted) throw ora.cancelled()
    }
  }

  /** The other sessions holding the key an ORA-00001 `e` names, undefined when none does (or it names none). */
  private holdersOfDuplicate(keyed: KeyedTable, e: unknown): ReadonlySet<number> | undefined {
    const message = duplicateKeyMessage(e)
    if (message === undefined || !this.host.db.keyLocks.othersHoldIn(this.host.info.sid, keyed.table)) return undefined
    const holders = this.host.db.keyLocks.holders(this.host.info.sid, keyed.table, keysOfDuplicate(keyed, message, decodeName))
    return holders.size > 0 ? holders : undefined
  }

  /**
   * Runs `write`, an UPDATE / DELETE / MERGE of `meta` changing rows `rowids` (row-locks.ts; undefined for a DELETE,
   * whose RETURNING gives the keys it removes), claiming the keys it
   * writes (as {@link claiming}) and, once it succeeded, the keys those rows held before: Oracle keeps the old key
   * an UPDATE changes a row away from locked with the row until the transaction ends, so that another transaction's
   * INSERT of it waits, then goes ahead after a COMMIT or raises ORA-00001 after a ROLLBACK (Database Concepts,
   * "Row Locks (TX)").
   */
  async claimingWithOldKeys<T>(keyed: KeyedTable, meta: TableMeta, rowids: ReadonlyArray<bigint> | undefined, write: () => Promise<T>): Promise<T> {
    const old = rowids === undefined || rowids.length === 0 ? [] : keysOfRows(keyed, await this.host.readRows(keysOfRowIdsSql(keyed, meta, rowids.length), [...rowids]))
    // a row the write keeps in place keeps its keys: claimed here with the old keys, not read back after it
    const out = (await this.claiming(keyed, write, true, { indexed: this.indexedColumnsOf(meta), oldKeysClaimed: rowids !== undefined }))!
    this.takeKeys(keyed, old)
    return out
  }

  private takeKeys(keyed: KeyedTable, keys: ReadonlyArray<string>): void {
    if (keys.length > 0 && this.host.txn.inTxn) this.host.db.keyLocks.take(this.host.info.sid, keyed.table, keys)
  }

  /** Runs an INSERT logged; into a keyed table (inside {@link claiming}) it returns and records the keys it wrote. */
  async runInsert(sql: string, params: ReadonlyArray<DuckDBValue>): Promise<number> {
    const claim = this.insertKeys
    if (claim === undefined) return this.host.txn.run(sql, params)
    const written = await this.host.txn.runWritingKeys(sql, params, claim.keyed.columns, returningKeys(claim.keyed), claim.update)
    claim.keys.push(...keysOfRows(claim.keyed, written.keys))
    return written.count
  }

  /** The columns of `meta` a DuckDB index covers (indexed-columns.ts): an UPDATE writes a row in place only without them. */
  indexedColumnsOf(meta: TableMeta | undefined): ReadonlyArray<string> {
    return indexedColumns(this.host.db.catalog, meta)
  }

  /** The key columns the running claim needs a statement with its own RETURNING clause to return too (none: undefined). */
  get returnedColumns(): ReadonlyArray<string> | undefined {
    return this.insertKeys?.keyed.columns
  }

  /** Records the keys a statement returned in {@link returnedColumns} order. */
  noteReturned(rows: ReadonlyArray<ReadonlyArray<unknown>>): void {
    const claim = this.insertKeys
    if (claim !== undefined) claim.keys.push(...keysOfRows(claim.keyed, rows))
  }

  /** Records the keys of rows the running INSERT appended (executeMany's fast path). */
  noteBulk(bulk: BulkRows): void {
    const claim = this.insertKeys
    if (claim !== undefined) claim.keys.push(...(keysOfBulk(claim.keyed, bulk) ?? []))
  }
}
