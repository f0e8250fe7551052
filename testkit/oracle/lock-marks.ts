/**
 * The locks a transaction took after a point in it: a savepoint, or the implicit savepoint Oracle marks before each
 * statement and PL/SQL block. A rollback to that point releases them and keeps the earlier ones: ROLLBACK TO
 * SAVEPOINT "Releases all table and row locks acquired after the specified savepoint" (2 Day Developer's Guide,
 * "Rolling Back Transactions":
 * https://docs.oracle.com/en/database/oracle/oracle-database/19/tdddg/rolling-back-transactions.html; PL/SQL Language
 * Reference, "ROLLBACK Statement": it "releases all locks acquired" since the savepoint, and "If the statement fails,
 * a rollback to this implicit savepoint is done"). DBMS_LOCK's user locks are not among them (user-locks.ts).
 */

/** How many row, key and table locks a session held at a point of its transaction (which {@link transaction} tells). */
export interface LockMarks {
  /** The session's count of ended transactions then: marks of an earlier transaction release nothing. */
  readonly transaction: number
  readonly rows: number
  readonly keys: number
  readonly tables: number
}

/** What this module needs of a lock table (session-lock-log.ts, which RowLocks and TableLocks extend): counts and releases in order taken. */
export interface CountedLocks {
  count(sid: number): number
  releaseAfter(sid: number, count: number): boolean
}

/** The lock tables of a database and its count of each session's ended transactions. */
export interface LockTables {
  readonly rowLocks: CountedLocks
  readonly keyLocks: CountedLocks
  readonly tableLocks: CountedLocks
  transactionsEnded(sid: number): number
}

/** The marks of what session `sid` holds now. */
export const lockMarksOf = (db: LockTables, sid: number): LockMarks => ({
  transaction: db.transactionsEnded(sid),
  rows: db.rowLocks.count(sid),
  keys: db.keyLocks.count(sid),
  tables: db.tableLocks.count(sid)
})

/** Releases the row, key and table locks session `sid` took after `marks` in the same transaction; true when it released any. */
export const releaseLocksAfter = (db: LockTables, sid: number, marks: LockMarks): boolean => {
  if (db.transactionsEnded(sid) !== marks.transaction) return false
  const rows = db.rowLocks.releaseAfter(sid, marks.rows)
  const keys = db.keyLocks.releaseAfter(sid, marks.keys)
  return db.tableLocks.releaseAfter(sid, marks.tables) || rows || keys
}
