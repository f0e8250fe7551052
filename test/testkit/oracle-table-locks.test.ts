import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn, TwoSessions } from "./oracle/helpers.ts"
import { failure, oraCode, waitsForLock, openTwoSessions } from "./oracle/helpers.ts"

// LOCK TABLE takes a table lock (TM) held to the end of the transaction. Oracle's modes conflict as the SQL Language
// Reference, "Automatic Locks in DML Operations", and Database Concepts, "Table Locks (TM)", list them: DML takes a
// row exclusive (SX) lock, which waits for another transaction's SHARE, SHARE ROW EXCLUSIVE or EXCLUSIVE lock; a
// SHARE lock waits for another transaction's DML on the table; queries never wait. NOWAIT fails at once with
// ORA-00054 (SQL Language Reference, "LOCK TABLE":
// https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/LOCK-TABLE.html).
describe("Oracle test server: LOCK TABLE takes a table lock", () => {
  let env: TwoSessions["env"]
  let a: Conn
  let b: Conn
  beforeAll(async () => {
    ;({ env, a, b } = await openTwoSessions([
      "CREATE TABLE tl_t (id NUMBER PRIMARY KEY, v NUMBER)",
      "INSERT INTO tl_t VALUES (1, 0)"
    ]))
  })
  afterAll(() => env?.close())

  it("IN EXCLUSIVE MODE makes another session's INSERT, UPDATE and DELETE wait for the commit; queries do not wait", async () => {
    await a.execute("LOCK TABLE tl_t IN EXCLUSIVE MODE")
    expect((await b.execute("SELECT v FROM tl_t WHERE id = 1")).rows).toEqual([[0]])
    const inserting = waitsForLock(env.server, () => b.execute("INSERT INTO tl_t VALUES (2, 0)"))
    expect(await inserting.waiting).toBe(true)
    await a.commit()
    expect((await inserting.result).rowsAffected).toBe(1)
    await b.commit()
    await a.execute("LOCK TABLE tl_t IN EXCLUSIVE MODE")
    const updating = waitsForLock(env.server, () => b.execute("UPDATE tl_t SET v = 5 WHERE id = 2"))
    expect(await updating.waiting).toBe(true)
    await a.rollback()
    expect((await updating.result).rowsAffected).toBe(1)
    await b.commit()
  })

  it("NOWAIT fails with ORA-00054 while another transaction holds a conflicting lock, and succeeds once it ended", async () => {
    await a.execute("LOCK TABLE tl_t IN SHARE MODE")
    expect(oraCode(await failure(() => b.execute("LOCK TABLE tl_t IN EXCLUSIVE MODE NOWAIT")))).toBe("ORA-00054")
    // SHARE locks of two transactions coexist
    await b.execute("LOCK TABLE tl_t IN SHARE MODE NOWAIT")
    await b.rollback()
    await a.commit()
    await b.execute("LOCK TABLE tl_t IN EXCLUSIVE MODE NOWAIT")
    await b.rollback()
  })

  it("IN SHARE MODE makes another session's DML wait, and waits itself for another transaction's open DML", async () => {
    await a.execute("LOCK TABLE tl_t IN SHARE MODE")
    const deleting = waitsForLock(env.server, () => b.execute("DELETE FROM tl_t WHERE id = 2"))
    expect(await deleting.waiting).toBe(true)
    await a.commit()
    expect((await deleting.result).rowsAffected).toBe(1)
    // b's open DELETE holds the table in row exclusive mode: a's SHARE lock waits for it, NOWAIT fails
    expect(oraCode(await failure(() => a.execute("LOCK TABLE tl_t IN SHARE MODE NOWAIT")))).toBe("ORA-00054")
    const locking = waitsForLock(env.server, () => a.execute("LOCK TABLE tl_t IN SHARE MODE"))
    expect(await locking.waiting).toBe(true)
    await b.commit()
    await locking.result
    await a.rollback()
  })

  it("an executeMany whose rows arrive in a large request waits for another transaction's EXCLUSIVE lock", async () => {
    // enough rows that the server decodes them while the request arrives (messages/bulk-receive.ts) and appends them
    const rows = Array.from({ length: 5000 }, (_, i) => [100 + i, i])
    await a.execute("LOCK TABLE tl_t IN EXCLUSIVE MODE")
    const many = waitsForLock(env.server, () => b.executeMany("INSERT INTO tl_t VALUES (:1, :2)", rows))
    expect(await many.waiting).toBe(true)
    await a.commit()
    expect((await many.result).rowsAffected).toBe(5000)
    await b.rollback()
  })

  it("a session's own lock does not make its own DML wait, and ROW SHARE / ROW EXCLUSIVE locks let other sessions write", async () => {
    await a.execute("LOCK TABLE tl_t IN EXCLUSIVE MODE")
    expect((await a.execute("UPDATE tl_t SET v = 9 WHERE id = 1")).rowsAffected).toBe(1)
    await a.commit()
    await a.execute("LOCK TABLE tl_t IN ROW EXCLUSIVE MODE")
    expect((await b.execute("INSERT INTO tl_t VALUES (3, 0)")).rowsAffected).toBe(1)
    await b.commit()
    await a.commit()
  })
})
