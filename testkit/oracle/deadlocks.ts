/**
 * Which session waits for which: the wait-for graph the database checks before a session waits for a row or key
 * lock. A wait that would close a cycle is a deadlock: Oracle fails that statement at once with ORA-00060 "deadlock
 * detected while waiting for resource" and rolls back the statement only, not the transaction (Database Concepts,
 * "Data Concurrency and Consistency", "Deadlocks":
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/cncpt/data-concurrency-and-consistency.html).
 */
import { OraError } from "./errors.ts"

export class WaitsFor {
  private readonly edges = new Map<number, Set<number>>()
  /** Waits that last while a call runs, not while a lock is held: a session waiting for its autonomous transaction. */
  private readonly calls = new Map<number, number>()

  /** Session `sid` waits, for as long as the call runs, for the transaction of `other` (an autonomous one it started). */
  awaitCall(sid: number, other: number): void {
    this.calls.set(sid, other)
  }

  /** The call {@link awaitCall} recorded for `sid` returned. */
  callReturned(sid: number): void {
    this.calls.delete(sid)
  }

  /**
   * Session `sid` is about to wait for the transactions of `holders`: records the wait, or throws ORA-00060 when one
   * of them already waits (directly or through others) for `sid`.
   */
  begin(sid: number, holders: ReadonlySet<number>): void {
    if (this.reaches(holders, sid)) {
      this.edges.delete(sid)
      throw new OraError(60, "deadlock detected while waiting for resource")
    }
    this.edges.set(sid, new Set(holders))
  }

  /** Session `sid` no longer waits (its wait ended, failed or was interrupted). */
  end(sid: number): void {
    this.edges.delete(sid)
  }

  /** The transaction of `sid` ended: nobody waits for it any more (its waiters retry and record their waits anew). */
  released(sid: number): void {
    for (const holders of this.edges.values()) holders.delete(sid)
  }

  private reaches(from: ReadonlySet<number>, target: number): boolean {
    const seen = new Set<number>()
    const todo = [...from]
    for (let s = todo.pop(); s !== undefined; s = todo.pop()) {
      if (s === target) return true
      if (seen.has(s)) continue
      seen.add(s)
      for (const next of this.edges.get(s) ?? []) todo.push(next)
      const called = this.calls.get(s)
      if (called !== undefined) todo.push(called)
    }
    return false
  }
}
