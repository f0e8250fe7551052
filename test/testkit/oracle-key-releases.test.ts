import { describe, expect, it } from "@effect/vitest"
import { RowLocks } from "../../testkit/oracle/row-locks.ts"

/**
 * Which keys the releases on a table let go of since a point (row-locks.ts `releasedSince`): an INSERT into a keyed
 * table runs again only when another transaction released one of the keys it wrote meanwhile (session-key-claims.ts),
 * not for every release on the table, which took identity values anew and left gaps two concurrent inserts never
 * leave on Oracle.
 */
describe("Oracle test server: key lock releases since a point", () => {
  it("names the keys released since the point, none when nothing was released, and cannot tell for a point too old", () => {
    const locks = new RowLocks<string>()
    locks.take(1, "T", ["1"])
    locks.take(2, "T", ["2", "3"])
    locks.take(2, "U", ["9"])
    const since = locks.releases("T")
    expect(locks.releasedSince("T", since)).toEqual([])
    locks.release(2)
    expect(locks.releasedSince("T", since)).toEqual(["2", "3"])
    expect(locks.releasedSince("U", 0)).toEqual(["9"])
    locks.release(1)
    expect(locks.releasedSince("T", since)).toEqual(["2", "3", "1"])
    // a session's later keys released after a mark: only those
    locks.take(3, "T", ["4"])
    const mark = locks.count(3)
    locks.take(3, "T", ["5"])
    const before = locks.releases("T")
    locks.releaseAfter(3, mark)
    expect(locks.releasedSince("T", before)).toEqual(["5"])
    // only the latest releases are kept: a point older than them gives no answer
    const old = locks.releases("T")
    for (let i = 0; i < 40; i++) {
      locks.take(4, "T", [`k${i}`])
      locks.release(4)
    }
    expect(locks.releasedSince("T", old)).toBeUndefined()
    expect(locks.releasedSince("T", locks.releases("T") - 1)).toEqual(["k39"])
  })
})
