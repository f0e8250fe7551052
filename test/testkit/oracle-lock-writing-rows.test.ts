import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, waitsForLock, withServer } from "./oracle/helpers.ts"

// Oracle locks a row when a statement writes it (Database Concepts, "Row Locks (TX)"), not when the statement ends:
// another session meeting the row while the statement is still running waits for the writer's transaction, a wait
// with a known holder, so a cycle through it is a deadlock broken at once with ORA-00060 (Database Concepts,
// "Deadlocks"), and the wait lasts until that transaction ends even when a rollback to a savepoint undoes the write
// ("Other transactions that have requested access to rows locked after the specified savepoint must continue to wait
// until the transaction is either committed or rolled back": 2 Day Developer's Guide, "Rolling Back Transactions").
// The server's `holdWrites` fault holds a statement once it knows its rows, before it writes them, so that another
// session meets them at that very moment without timing. The lock-wait limit is far above the test timeout, so a
// wait that never ends fails the test.
describe("Oracle test server: rows a running statement writes are locked while it writes them", () => {
  let server: OracleTestServerHandle
  let a: Conn
  let b: Conn
  let c: Conn
  beforeAll(async () => {
    const s = await withServer({ lockWaitMs: 600_000 })
    server = s.server
    a = await s.connect()
    b = await s.connect()
    c = await s.connect()
    for (const t of ["wr_dead", "wr_save", "wr_block"]) {
      await a.execute(`CREATE TABLE ${t} (id NUMBER PRIMARY KEY, v NUMBER)`)
      await a.executeMany(`INSERT INTO ${t} VALUES (:1, 0)`, [[1], [2]], { autoCommit: true })
    }
  })
  afterAll(async () => {
    server.faults.holdWrites = undefined
    await a?.close()
    await b?.close()
    await c?.close()
    await server?.close()
  })

  /** Holds the next write of `table` (OWNER.NAME) once its rows are known: `reached` when it is held, `release` lets it go on. */
  const holdNextWrite = (table: string) => {
    let release: () => void = () => undefined
    let reached: () => void = () => undefined
    const atHold = new Promise<void>((r) => (reached = r))
    const gate = new Promise<void>((r) => (release = r))
    server.faults.holdWrites = (t) => {
      if (t !== table) return undefined
      server.faults.holdWrites = undefined
      reached()
      return gate
    }
    return { reached: atHold, release: () => release() }
  }

  it("a session meeting a row another statement is writing waits for it by name: NOWAIT fails, and the cycle its wait closes is a deadlock (was: no wait, no detection)", async () => {
    await b.execute("UPDATE wr_dead SET v = 20 WHERE id = 2")
    const hold = holdNextWrite("TEST.WR_DEAD")
    const aWrite = a.execute("UPDATE wr_dead SET v = 10 WHERE id = 1")
    await hold.reached
    // row 1 is a's while its UPDATE runs
    expect(oraCode(await failure(() => c.execute("SELECT v FROM wr_dead WHERE id = 1 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    const bWaits = waitsForLock(server, () => b.execute("UPDATE wr_dead SET v = 21 WHERE id = 1"))
    expect(await bWaits.waiting).toBe(true)
    hold.release()
    expect((await aWrite).rowsAffected).toBe(1)
    // b waits for a, so a's wait for b's row 2 closes a cycle: ORA-00060 at once, a's first UPDATE stays
    const e = await failure(() => a.execute("UPDATE wr_dead SET v = 11 WHERE id = 2"))
    expect(oraCode(e)).toBe("ORA-00060")
    await a.commit()
    expect((await bWaits.result).rowsAffected).toBe(1)
    await b.commit()
    expect((await c.execute("SELECT id, v FROM wr_dead ORDER BY id")).rows).toEqual([
      [1, 21],
      [2, 20]
    ])
  })

  it("a PL/SQL block's UPDATE holds the rows it is writing too: another session's FOR UPDATE NOWAIT of one fails with ORA-00054, SKIP LOCKED skips it (was: free until the statement ended)", async () => {
    const hold = holdNextWrite("TEST.WR_BLOCK")
    const aWrite = a.execute("BEGIN UPDATE wr_block SET v = 1 WHERE id = 1; END;")
    await hold.reached
    expect(oraCode(await failure(() => c.execute("SELECT v FROM wr_block WHERE id = 1 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    expect((await c.execute("SELECT id FROM wr_block ORDER BY id FOR UPDATE SKIP LOCKED")).rows).toEqual([[2]])
    await c.rollback()
    hold.release()
    await aWrite
    // the block's row stays a's until its transaction ends
    expect(oraCode(await failure(() => c.execute("SELECT v FROM wr_block WHERE id = 1 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    await a.rollback()
    expect((await c.execute("SELECT v FROM wr_block WHERE id = 1 FOR UPDATE NOWAIT")).rows).toEqual([[0]])
    await c.rollback()
  })

  it("a wait for a row a running statement writes lasts until that transaction ends, also when a rollback to a savepoint undoes the write (was: no wait)", async () => {
    await a.execute("SAVEPOINT before_write")
    const hold = holdNextWrite("TEST.WR_SAVE")
    const aWrite = a.execute("UPDATE wr_save SET v = 1 WHERE id = 1")
    await hold.reached
    const bWaits = waitsForLock(server, () => b.execute("UPDATE wr_save SET v = v + 10 WHERE id = 1"))
    expect(await bWaits.waiting).toBe(true)
    hold.release()
    expect((await aWrite).rowsAffected).toBe(1)
    await a.execute("ROLLBACK TO SAVEPOINT before_write")
    // b goes on waiting for a's transaction: a writes the row again without waiting for b, and b's UPDATE then
    // adds to the value a committed
    expect((await a.execute("UPDATE wr_save SET v = 100 WHERE id = 1")).rowsAffected).toBe(1)
    await a.commit()
    expect((await bWaits.result).rowsAffected).toBe(1)
    await b.commit()
    expect((await c.execute("SELECT v FROM wr_save WHERE id = 1")).rows).toEqual([[110]])
  })
})
