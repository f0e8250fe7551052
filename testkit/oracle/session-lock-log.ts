/**
 * The locks each session took of one lock table, in the order it took them: how many it holds (the mark a savepoint
 * or a statement's start records: lock-marks.ts) and the release of those taken after such a mark, or of all of them
 * when its transaction ends. Row and key locks (row-locks.ts) and table locks (table-locks.ts) keep their own index
 * of who holds what and drop the entries released from it.
 */
export abstract class SessionLockLog<E> {
  private readonly bySession = new Map<number, Array<E>>()

  /** Notes that session `sid` took `entry` (after the entries it took before). */
  protected noteTaken(sid: number, entry: E): void {
    let held = this.bySession.get(sid)
    if (held === undefined) this.bySession.set(sid, (held = []))
    held.push(entry)
  }

  /** Each session with the entries it holds. */
  protected sessions(): Iterable<readonly [number, ReadonlyArray<E>]> {
    return this.bySession
  }

  /** Takes `entries` of session `sid` out of the lock table's own index (they were released). */
  protected abstract drop(sid: number, entries: ReadonlyArray<E>): void

  /** How many locks session `sid` took and holds: a mark for {@link releaseAfter}. */
  count(sid: number): number {
    return this.bySession.get(sid)?.length ?? 0
  }

  /**
   * Releases the locks session `sid` took after it held `mark` of them ({@link count}), keeping the earlier ones (a
   * lock it took before the mark and again after it stays held); true when it released any.
   */
  releaseAfter(sid: number, mark: number): boolean {
    const held = this.bySession.get(sid)
    if (held === undefined || held.length <= mark) return false
    this.drop(sid, held.splice(mark))
    if (held.length === 0) this.bySession.delete(sid)
    return true
  }

  /** Releases every lock of session `sid` (its transaction ended or it closed); true when it held any. */
  release(sid: number): boolean {
    const held = this.bySession.get(sid)
    if (held === undefined) return false
    this.bySession.delete(sid)
    this.drop(sid, held)
    return true
  }
}
