/**
 * Locks held until the locking session's transaction ends, by table and key.
 *
 * DuckDB has no row locks (and records no write conflict between an UPDATE and a later DELETE of the same row), so
 * the database keeps them itself:
 * - row locks of `SELECT ... FOR UPDATE`, by DuckDB row id: other sessions' FOR UPDATE and UPDATE / DELETE of a
 *   locked row wait for its release (sqlsession.ts), as they wait for Oracle's row lock;
 * - the primary / unique keys a transaction inserted, by constraint and key values: DuckDB lets a second transaction
 *   insert the same key and fails only its COMMIT, where Oracle makes the second insert wait for the first
 *   transaction and then raise ORA-00001 or go ahead (key-locks.ts).
 */
export class RowLocks<K = bigint> {
  private readonly byTable = new Map<string, Map<K, number>>()
  private readonly bySession = new Map<number, Array<readonly [string, K]>>()
  private readonly releasesByTable = new Map<string, number>()

  /** Locks `rows` of `table` for session `sid` (rows it already holds stay held). */
  take(sid: number, table: string, rows: ReadonlyArray<K>): void {
    let locks = this.byTable.get(table)
    if (locks === undefined) this.byTable.set(table, (locks = new Map()))
    let held = this.bySession.get(sid)
    if (held === undefined) this.bySession.set(sid, (held = []))
    for (const row of rows) {
      if (locks.get(row) === sid) continue
      locks.set(row, sid)
      held.push([table, row])
    }
  }

  /** True when another session than `sid` holds a lock on `table` (a cheap test before looking at rows). */
  othersHoldIn(sid: number, table: string): boolean {
    const locks = this.byTable.get(table)
    if (locks === undefined) return false
    for (const holder of locks.values()) if (holder !== sid) return true
    return false
  }

  /** True when another session than `sid` holds one of `rows` of `table`. */
  othersHold(sid: number, table: string, rows: ReadonlyArray<K>): boolean {
    const locks = this.byTable.get(table)
    if (locks === undefined) return false
    return rows.some((row) => {
      const holder = locks.get(row)
      return holder !== undefined && holder !== sid
    })
  }

  /** How often locks on `table` were released: a change tells that a holder's transaction ended meanwhile. */
  releases(table: string): number {
    return this.releasesByTable.get(table) ?? 0
  }

  /** Releases every lock of session `sid` (its transaction ended or it closed); true when it held any. */
  release(sid: number): boolean {
    const held = this.bySession.get(sid)
    if (held === undefined) return false
    this.bySession.delete(sid)
    for (const table of new Set(held.map(([table]) => table))) this.releasesByTable.set(table, this.releases(table) + 1)
    for (const [table, row] of held) {
      const locks = this.byTable.get(table)
      if (locks?.get(row) !== sid) continue
      locks.delete(row)
      if (locks.size === 0) this.byTable.delete(table)
    }
    return true
  }
}
