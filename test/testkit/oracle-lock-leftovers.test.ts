import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, oracledb, waitsForLock, withSessions } from "./oracle/helpers.ts"

// Row locks follow the data a failed call leaves: what a statement-level rollback undoes is unlocked, what it keeps
// stays locked until the transaction ends (Database Concepts, "Row Locks (TX)"; 2 Day Developer's Guide, "Rolling Back
// Transactions": a rollback to a savepoint "Releases all table and row locks acquired after the specified savepoint").
describe("Oracle test server: row locks of failed calls and of SKIP LOCKED REF CURSORs", () => {
  let env: Awaited<ReturnType<typeof withSessions>>
  let a: Conn
  let b: Conn
  beforeAll(async () => {
    env = await withSessions(2)
    ;[a, b] = env.sessions
    for (const t of ["ll_many", "ll_batch", "ll_plsql", "ll_ref", "ll_out", "ll_where", "ll_where_del"]) {
      await a.execute(`CREATE TABLE ${t} (id NUMBER PRIMARY KEY, v NUMBER CHECK (v < 100))`)
      await a.executeMany(`INSERT INTO ${t} VALUES (:1, 0)`, [[1], [2], [3], [4]], { autoCommit: true })
    }
  })
  afterAll(() => env?.close())

  const nowaitCode = async (table: string, id: number): Promise<string | undefined> => {
    try {
      await b.execute(`SELECT v FROM ${table} WHERE id = :1 FOR UPDATE NOWAIT`, [id])
      return undefined
    } catch (e) {
      return oraCode(e)
    } finally {
      await b.rollback()
    }
  }

  // an executeMany is the statement run once per bind row; the row that fails is rolled back alone, the rows written
  // before it stay written (and so locked), as the node-oracledb docs' "batchErrors" section describes for the
  // failure without it: "the rows before it were processed"
  it("an executeMany that fails on its third bind row keeps the first two rows locked until the commit (was: unlocked)", async () => {
    const e = await failure(() => a.executeMany("UPDATE ll_many SET v = :1 WHERE id = :2", [[5, 1], [6, 2], [500, 3], [7, 4]]))
    expect(oraCode(e)).toBe("ORA-02290")
    expect(await nowaitCode("ll_many", 1)).toBe("ORA-00054")
    expect(await nowaitCode("ll_many", 2)).toBe("ORA-00054")
    // the failing row and the one never run stay free
    expect(await nowaitCode("ll_many", 3)).toBeUndefined()
    expect(await nowaitCode("ll_many", 4)).toBeUndefined()
    const updating = waitsForLock(env.server, () => b.execute("UPDATE ll_many SET v = v + 10 WHERE id = 2"))
    expect(await updating.waiting).toBe(true)
    await a.commit()
    expect((await updating.result).rowsAffected).toBe(1)
    await b.commit()
    expect((await a.execute("SELECT id, v FROM ll_many ORDER BY id")).rows).toEqual([[1, 5], [2, 16], [3, 0], [4, 0]])
  })

  // the failure in the WHERE of a bind row (not in the row written) stops there too, after the bind rows before it
  // wrote their rows (node-oracledb "executeMany()": without batchErrors processing stops at the first error)
  it("an executeMany UPDATE / DELETE whose WHERE fails at its second bind row keeps the first one's write and lock (was: undone)", async () => {
    const e = await failure(() => a.executeMany("UPDATE ll_where SET v = 7 WHERE id = :1 AND 1 / :2 > 0", [[1, 1], [2, 0], [3, 1]]))
    expect(oraCode(e)).toBe("ORA-01476")
    expect((await a.execute("SELECT id, v FROM ll_where ORDER BY id")).rows).toEqual([[1, 7], [2, 0], [3, 0], [4, 0]])
    expect(await nowaitCode("ll_where", 1)).toBe("ORA-00054")
    expect(await nowaitCode("ll_where", 2)).toBeUndefined()
    const d = await failure(() => a.executeMany("DELETE FROM ll_where_del WHERE id = :1 AND TO_NUMBER(:2) > 0", [[1, "1"], [2, "x"]]))
    expect(oraCode(d)).toBe("ORA-01722")
    expect((await a.execute("SELECT id FROM ll_where_del ORDER BY id")).rows).toEqual([[2], [3], [4]])
    await a.rollback()
    expect((await a.execute("SELECT COUNT(*) FROM ll_where_del")).rows).toEqual([[4]])
  })

  it("an executeMany with batchErrors keeps the rows that succeeded locked, not the failed one's", async () => {
    const r = await a.executeMany("UPDATE ll_batch SET v = :1 WHERE id = :2", [[5, 1], [500, 2], [6, 3]], { batchErrors: true })
    expect(r.batchErrors.map((x: { offset: number }) => x.offset)).toEqual([1])
    expect(await nowaitCode("ll_batch", 1)).toBe("ORA-00054")
    expect(await nowaitCode("ll_batch", 3)).toBe("ORA-00054")
    expect(await nowaitCode("ll_batch", 2)).toBeUndefined()
    await a.commit()
    expect(await nowaitCode("ll_batch", 1)).toBeUndefined()
  })

  // a block's unhandled exception rolls back the call's pending (uncommitted) work: after a COMMIT inside it, that is
  // what it did after the COMMIT, in the transaction the COMMIT began
  it("a block that committed and then failed releases the rows it locked after its COMMIT, with their changes (was: kept locked)", async () => {
    const e = await failure(() =>
      a.execute(`BEGIN
  UPDATE ll_plsql SET v = 1 WHERE id = 1;
  COMMIT;
  UPDATE ll_plsql SET v = 2 WHERE id = 2;
  RAISE_APPLICATION_ERROR(-20001, 'late failure');
END;`)
    )
    expect(oraCode(e)).toBe("ORA-20001")
    expect(await nowaitCode("ll_plsql", 2)).toBeUndefined()
    expect(await nowaitCode("ll_plsql", 1)).toBeUndefined()
    expect((await b.execute("SELECT id, v FROM ll_plsql WHERE id <= 2 ORDER BY id")).rows).toEqual([[1, 1], [2, 0]])
    expect((await a.execute("SELECT id, v FROM ll_plsql WHERE id <= 2 ORDER BY id")).rows).toEqual([[1, 1], [2, 0]])
    await a.rollback()
  })

  it("a block whose COMMIT ends the transaction of earlier calls and which then fails leaves no row locked", async () => {
    await a.execute("UPDATE ll_plsql SET v = 3 WHERE id = 3")
    const e = await failure(() => a.execute("BEGIN COMMIT; UPDATE ll_plsql SET v = 4 WHERE id = 4; RAISE_APPLICATION_ERROR(-20002, 'x'); END;"))
    expect(oraCode(e)).toBe("ORA-20002")
    // row 3 was committed by the block's COMMIT, row 4's change undone: neither is locked
    expect(await nowaitCode("ll_plsql", 3)).toBeUndefined()
    expect(await nowaitCode("ll_plsql", 4)).toBeUndefined()
    expect((await b.execute("SELECT id, v FROM ll_plsql WHERE id >= 3 ORDER BY id")).rows).toEqual([[3, 3], [4, 0]])
  })

  // "FOR UPDATE SKIP LOCKED" locks a row when it is fetched, not at OPEN: D. Nikiforov, "SKIP LOCKED and the locking
  // moment" (http://dnikiforov.blogspot.com/2009/03/skip-locked-and-locking-moment.html) opens a REF CURSOR FOR ...
  // SKIP LOCKED, locks one of its rows from another session, then prints the cursor without that row
  it("a REF CURSOR FOR UPDATE SKIP LOCKED fetched once in a block locks one row (was: all rows at OPEN)", async () => {
    await a.execute("DECLARE rc SYS_REFCURSOR; v NUMBER; BEGIN OPEN rc FOR SELECT id FROM ll_ref ORDER BY id FOR UPDATE SKIP LOCKED; FETCH rc INTO v; CLOSE rc; END;")
    expect(await nowaitCode("ll_ref", 1)).toBe("ORA-00054")
    expect(await nowaitCode("ll_ref", 2)).toBeUndefined()
    await a.rollback()
  })

  it("a REF CURSOR FOR UPDATE SKIP LOCKED returned to the client skips a row locked after its OPEN and locks what the client fetches (was: locked at OPEN)", async () => {
    const opened = await a.execute("BEGIN OPEN :rc FOR SELECT id, 'r' || id AS s, NULLIF(id, 3) AS n FROM ll_out ORDER BY id FOR UPDATE SKIP LOCKED; END;", { rc: { dir: oracledb.BIND_OUT, type: oracledb.CURSOR } })
    // nothing is locked before the fetch: another session locks row 1 without waiting
    expect((await b.execute("SELECT v FROM ll_out WHERE id = 1 FOR UPDATE NOWAIT")).rows).toEqual([[0]])
    const rc = opened.outBinds.rc
    const rows = await rc.getRows()
    await rc.close()
    expect(rows).toEqual([
      [2, "r2", 2],
      [3, "r3", null],
      [4, "r4", 4]
    ])
    await b.rollback()
    expect(await nowaitCode("ll_out", 2)).toBe("ORA-00054")
    expect(await nowaitCode("ll_out", 1)).toBeUndefined()
    await a.rollback()
  })
})
