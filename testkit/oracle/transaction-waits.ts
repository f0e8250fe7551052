/**
 * The transactions a session waiting for a row or key lock waits for. Oracle enqueues such a session on the holder's
 * transaction, not on the row: it waits until that transaction commits or rolls back, also when a rollback to a
 * savepoint released the row meanwhile ("Other transactions that have requested access to rows locked after the
 * specified savepoint must continue to wait until the transaction is either committed or rolled back. Other
 * transactions that have not requested the rows can request and access the rows immediately": 2 Day Developer's
 * Guide, "Rolling Back Transactions":
 * https://docs.oracle.com/en/database/oracle/oracle-database/19/tdddg/rolling-back-transactions.html).
 */

/** The holders one lock wait met, each with the transaction it held the lock in. */
export class AwaitedTransactions {
  private readonly awaited = new Map<number, number>()

  constructor(private readonly db: { transactionsEnded(sid: number): number }) {}

  /** The wait met `holders`: it lasts until the transaction each one is in now ends. */
  note(holders: Iterable<number>): void {
    for (const sid of holders) if (!this.awaited.has(sid)) this.awaited.set(sid, this.db.transactionsEnded(sid))
  }

  /** The noted sessions whose transaction has not ended yet. */
  pending(): Set<number> {
    const out = new Set<number>()
    for (const [sid, ended] of this.awaited) {
      if (this.db.transactionsEnded(sid) === ended) out.add(sid)
      else this.awaited.delete(sid)
    }
    return out
  }
}
