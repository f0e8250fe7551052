/**
 * DBMS_LOCK's user locks (PL/SQL Packages and Types Reference, DBMS_LOCK): numbered locks any session can take in
 * one of six modes, held until RELEASE, the end of the holding session, or — when requested with release_on_commit
 * — the end of its transaction. Lock ids 0..1073741823 are the application's; ALLOCATE_UNIQUE gives a name an id of
 * 1073741824..1999999999 and a handle that stands for it. The modes' compatibility is the package's table ("Lock
 * Compatibility Rules"): NL with every mode; SS with all but X; SX with NL, SS, SX; S with NL, SS, S; SSX with NL, SS;
 * X with NL only.
 */

/** NL_MODE 1, SS_MODE 2, SX_MODE 3, S_MODE 4, SSX_MODE 5, X_MODE 6. */
export type UserLockMode = 1 | 2 | 3 | 4 | 5 | 6

const COMPATIBLE: Readonly<Record<UserLockMode, ReadonlyArray<UserLockMode>>> = {
  1: [1, 2, 3, 4, 5, 6],
  2: [1, 2, 3, 4, 5],
  3: [1, 2, 3],
  4: [1, 2, 4],
  5: [1, 2],
  6: [1]
}

/** Whether `n` is a mode number. */
export const isUserLockMode = (n: number): n is UserLockMode => Number.isInteger(n) && n >= 1 && n <= 6

/** First id ALLOCATE_UNIQUE gives; the largest id it gives. */
const FIRST_ALLOCATED = 1073741824
const LAST_ALLOCATED = 1999999999

interface Hold {
  mode: UserLockMode
  readonly releaseOnCommit: boolean
}

/** The user locks of one database. */
export class UserLocks {
  private readonly held = new Map<number, Map<number, Hold>>()
  private readonly named = new Map<string, number>()
  private nextAllocated = FIRST_ALLOCATED

  /** ALLOCATE_UNIQUE: the handle of lock name `name` (the same for every session, made on first use). */
  handleOf(name: string): string {
    let id = this.named.get(name)
    if (id === undefined) {
      id = this.nextAllocated++
      this.named.set(name, id)
    }
    return `${id}${id}`
  }

  /** The id a handle stands for, or undefined for text no ALLOCATE_UNIQUE gave. */
  idOfHandle(handle: string): number | undefined {
    const m = /^(\d{10})\1$/.exec(handle)
    const id = m === null ? undefined : Number(m[1])
    return id !== undefined && id >= FIRST_ALLOCATED && id <= LAST_ALLOCATED && [...this.named.values()].includes(id) ? id : undefined
  }

  /** The mode session `sid` holds lock `id` in, if it does (`live`: whether a session is still connected). */
  modeOf(id: number, sid: number): UserLockMode | undefined {
    return this.held.get(id)?.get(sid)?.mode
  }

  /** Whether `sid` may hold `id` in `mode` beside the other live sessions that hold it. */
  grantable(id: number, sid: number, mode: UserLockMode, live: (sid: number) => boolean): boolean {
    for (const [other, hold] of this.held.get(id) ?? []) {
      if (other === sid) continue
      if (!live(other)) this.held.get(id)!.delete(other)
      else if (!COMPATIBLE[hold.mode].includes(mode)) return false
    }
    return true
  }

  /** Records `sid` holding `id` in `mode` (a conversion changes the mode of the hold it has). */
  grant(id: number, sid: number, mode: UserLockMode, releaseOnCommit: boolean): void {
    let holders = this.held.get(id)
    if (holders === undefined) this.held.set(id, (holders = new Map()))
    const hold = holders.get(sid)
    if (hold !== undefined) hold.mode = mode
    else holders.set(sid, { mode, releaseOnCommit })
  }

  /** RELEASE: false when `sid` does not hold `id`. */
  release(id: number, sid: number): boolean {
    const holders = this.held.get(id)
    if (holders?.delete(sid) !== true) return false
    if (holders.size === 0) this.held.delete(id)
    return true
  }

  /** The transaction of `sid` ended: the locks it took with release_on_commit are released; true when there were any. */
  releaseOnCommit(sid: number): boolean {
    let any = false
    for (const [id, holders] of this.held) {
      if (holders.get(sid)?.releaseOnCommit === true) {
        holders.delete(sid)
        any = true
        if (holders.size === 0) this.held.delete(id)
      }
    }
    return any
  }
}
