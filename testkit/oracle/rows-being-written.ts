/**
 * The rows the statements running now write, by table, each marked for its session from the moment the statement
 * knows them (after waiting for their holders) until it ends, when the rows it kept become the session's row locks
 * (row-locks.ts). Oracle locks a row when a statement writes it, so another session's write or FOR UPDATE meeting it
 * waits for the writer's transaction (Database Concepts, "Row Locks (TX)"), a wait whose holder is known: a cycle
 * through it is a deadlock (deadlocks.ts), and it lasts until that transaction ends even when a rollback to a
 * savepoint undoes the write (transaction-waits.ts). DuckDB reports such a meeting only as a write conflict naming
 * no one; the marks name the writer.
 */
export class RowsBeingWritten<K> {
  private readonly byTable = new Map<string, Map<K, number>>()

  /** Marks `rows` of `table` as being written by session `sid`; the function returned takes these marks away. */
  mark(sid: number, table: string, rows: ReadonlyArray<K>): () => void {
    let marks = this.byTable.get(table)
    if (marks === undefined) this.byTable.set(table, (marks = new Map()))
    const taken: Array<K> = []
    for (const row of rows) {
      if (marks.has(row)) continue
      marks.set(row, sid)
      taken.push(row)
    }
    return () => {
      const now = this.byTable.get(table)
      if (now === undefined) return
      for (const row of taken) if (now.get(row) === sid) now.delete(row)
      if (now.size === 0) this.byTable.delete(table)
    }
  }

  /** The session other than `sid` writing `row` of `table`, if any. */
  writer(sid: number, table: string, row: K): number | undefined {
    const writer = this.byTable.get(table)?.get(row)
    return writer === sid ? undefined : writer
  }

  /** True when a session other than `sid` is writing rows of `table`. */
  othersIn(sid: number, table: string): boolean {
    const marks = this.byTable.get(table)
    if (marks === undefined) return false
    for (const writer of marks.values()) if (writer !== sid) return true
    return false
  }
}
