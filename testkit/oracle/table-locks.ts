/**
 * Table locks (TM) held until the locking session's transaction ends: those LOCK TABLE takes in the mode it names,
 * and the row exclusive (SX) lock every INSERT, UPDATE, DELETE and MERGE takes on its table. Modes conflict as the
 * SQL Language Reference lists them ("Automatic Locks in DML Operations",
 * https://docs.oracle.com/database/122/SQLRF/Automatic-Locks-in-DML-Operations.htm; Database Concepts, "Table
 * Locks (TM)"): ROW SHARE conflicts with EXCLUSIVE; ROW EXCLUSIVE with SHARE, SHARE ROW EXCLUSIVE and EXCLUSIVE;
 * SHARE with ROW EXCLUSIVE, SHARE ROW EXCLUSIVE and EXCLUSIVE; SHARE ROW EXCLUSIVE with all but ROW SHARE;
 * EXCLUSIVE with all. A session never conflicts with itself, and queries take no table lock.
 */
import { OraError } from "./errors.ts"
import { SessionLockLog } from "./session-lock-log.ts"

/** A table lock mode: ROW SHARE, ROW EXCLUSIVE, SHARE, SHARE ROW EXCLUSIVE, EXCLUSIVE. */
export type TableLockMode = "RS" | "RX" | "S" | "SRX" | "X"

const CONFLICTS: Record<TableLockMode, ReadonlySet<TableLockMode>> = {
  RS: new Set(["X"]),
  RX: new Set(["S", "SRX", "X"]),
  S: new Set(["RX", "SRX", "X"]),
  SRX: new Set(["RX", "S", "SRX", "X"]),
  X: new Set(["RS", "RX", "S", "SRX", "X"])
}

/** The mode a LOCK TABLE statement names (`ROW SHARE`, `SHARE UPDATE`, ...), upper case, words separated by one space. */
export const tableLockModeOf = (words: string): TableLockMode =>
  words === "ROW SHARE" || words === "SHARE UPDATE" ? "RS" : words === "ROW EXCLUSIVE" ? "RX" : words === "SHARE" ? "S" : words === "SHARE ROW EXCLUSIVE" ? "SRX" : "X"

/** The table locks of one database, by table lock key (`OWNER.NAME`) and session. */
export class TableLocks extends SessionLockLog<readonly [string, TableLockMode]> {
  private readonly byTable = new Map<string, Map<number, Set<TableLockMode>>>()
  /** How many sessions hold a mode other than ROW SHARE / ROW EXCLUSIVE (a cheap test for the bulk paths). */
  private strong = 0

  /** The sessions other than `sid` holding a lock on `table` that conflicts with `mode`. */
  conflicting(sid: number, table: string, mode: TableLockMode): Set<number> {
    const out = new Set<number>()
    for (const [holder, modes] of this.byTable.get(table) ?? []) {
      if (holder === sid) continue
      for (const m of modes) if (CONFLICTS[mode].has(m)) out.add(holder)
    }
    return out
  }

  /** True when a session other than `sid` holds a SHARE, SHARE ROW EXCLUSIVE or EXCLUSIVE lock on some table. */
  othersHoldStrong(sid: number): boolean {
    if (this.strong === 0) return false
    for (const [holder, held] of this.sessions()) if (holder !== sid && held.some(([, m]) => m !== "RS" && m !== "RX")) return true
    return false
  }

  /** Session `sid` holds `table` in `mode` (with the modes it held already) until {@link release}. */
  take(sid: number, table: string, mode: TableLockMode): void {
    let holders = this.byTable.get(table)
    if (holders === undefined) this.byTable.set(table, (holders = new Map()))
    let modes = holders.get(sid)
    if (modes === undefined) holders.set(sid, (modes = new Set()))
    if (modes.has(mode)) return
    modes.add(mode)
    if (mode !== "RS" && mode !== "RX") this.strong++
    // the table and mode, in the order taken: a rollback to a mark keeps the modes held before it (a ROW SHARE lock
    // taken before the mark outlives an EXCLUSIVE one on the same table taken after it)
    this.noteTaken(sid, [table, mode])
  }

  protected drop(sid: number, held: ReadonlyArray<readonly [string, TableLockMode]>): void {
    for (const [table, mode] of held) {
      const holders = this.byTable.get(table)
      const modes = holders?.get(sid)
      if (holders === undefined || modes === undefined || !modes.delete(mode)) continue
      if (mode !== "RS" && mode !== "RX") this.strong--
      if (modes.size === 0) holders.delete(sid)
      if (holders.size === 0) this.byTable.delete(table)
    }
  }
}

/** The table lock key of a table (`OWNER.NAME`, as row-locks.ts keys its rows). */
export const tableLockKey = (meta: { readonly owner: string; readonly name: string }): string => `${meta.owner}.${meta.name}`

/** What taking a table lock needs from the session that takes it. */
export interface TableLockHost {
  readonly db: { readonly tableLocks: TableLocks; readonly settings: { readonly lockWaitMs: number } }
  readonly info: { readonly sid: number }
  /** Waits for a transaction of `holders` to end (row-locks.ts: counted, deadlock-checked, ended by a break). */
  waitForRowLock(deadline: number, holders?: ReadonlySet<number>): Promise<void>
}

/**
 * Takes `table` in `mode` until the session's transaction ends (its COMMIT or ROLLBACK releases it; so does a rollback
 * to a savepoint marked before it, and the failure of the statement that took it, which rolls back to the implicit
 * savepoint before the statement: session-transaction.ts), after waiting for other transactions holding a conflicting
 * lock: `"nowait"` fails at once with ORA-00054, a number of seconds (LOCK TABLE ... WAIT n) or the server's
 * `lockWaitMs` ends the wait with ORA-30006 (or ORA-00060 for a deadlock, ORA-01013 for a break). The wait is for
 * the conflicting locks themselves (the table's TM enqueue), not for their holders' transactions: when a rollback to a
 * savepoint releases them, the waiting session goes ahead.
 */
export const takeTableLock = async (host: TableLockHost, table: string, mode: TableLockMode, wait: "wait" | "nowait" | number = "wait"): Promise<void> => {
  const locks = host.db.tableLocks
  const sid = host.info.sid
  const deadline = Date.now() + (wait === "nowait" ? 0 : wait === "wait" ? host.db.settings.lockWaitMs : wait * 1000)
  for (;;) {
    const holders = locks.conflicting(sid, table, mode)
    if (holders.size === 0) break
    if (wait === "nowait") throw new OraError(54, "resource busy and acquire with NOWAIT specified or timeout expired")
    await host.waitForRowLock(deadline, holders)
  }
  locks.take(sid, table, mode)
}

/**
 * SELECT ... FOR UPDATE holds each table whose rows it locks (`tables`) in row exclusive (SX) mode until the
 * transaction ends, as DML does (Database Concepts, "Table Locks (TM)", "Summary of Locks Obtained by DML
 * Statements": "SELECT ... FROM table FOR UPDATE OF ... | Yes | SX"): another session's LOCK TABLE in SHARE or
 * EXCLUSIVE mode waits for it, and it waits for theirs (NOWAIT: ORA-00054; SKIP LOCKED waits, as for DML). The
 * engine's transaction (its snapshot) is left to start after the row lock waits; COMMIT and ROLLBACK release the
 * table locks also when none started.
 */
export const takeForUpdateTableLocks = async (
  host: TableLockHost,
  tables: ReadonlyArray<{ readonly meta: { readonly owner: string; readonly name: string } }>,
  wait: "nowait" | "skip" | number | undefined
): Promise<void> => {
  for (const { meta } of tables) await takeTableLock(host, tableLockKey(meta), "RX", wait === "skip" || wait === undefined ? "wait" : wait)
}
