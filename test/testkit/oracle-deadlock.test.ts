import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, waitsForLock, withServer } from "./oracle/helpers.ts"

// Two transactions each waiting for a row lock the other holds: Oracle detects the deadlock at once and fails the
// statement of one of them with ORA-00060 "deadlock detected while waiting for resource", rolling back that statement
// only; the transaction keeps its earlier work and locks, and the other transaction keeps waiting until it ends
// (Database Concepts, "Data Concurrency and Consistency", "Deadlocks":
// https://docs.oracle.com/en/database/oracle/oracle-database/23/cncpt/data-concurrency-and-consistency.html).
// The server's lock-wait limit is far above the test timeout, so a missing detection fails the test (ORA-30006 late).
describe("Oracle test server: deadlocks between row locks", () => {
  let server: OracleTestServerHandle
  let a: Conn
  let b: Conn
  let c: Conn
  beforeAll(async () => {
    const s = await withServer({ lockWaitMs: 60_000 })
    server = s.server
    a = await s.connect()
    b = await s.connect()
    c = await s.connect()
    await a.execute("CREATE TABLE dd_t (id NUMBER PRIMARY KEY, v NUMBER)")
    await a.executeMany("INSERT INTO dd_t VALUES (:1, 0)", [[1], [2], [3]], { autoCommit: true })
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await c?.close()
    await server?.close()
  })

  it("fails the UPDATE that closes a cycle with ORA-00060 at once; its transaction keeps its earlier update and the other waiter goes on after it ends", async () => {
    await a.execute("UPDATE dd_t SET v = 1 WHERE id = 1")
    await b.execute("UPDATE dd_t SET v = 2 WHERE id = 2")
    const aWaits = waitsForLock(server, () => a.execute("UPDATE dd_t SET v = 1 WHERE id = 2"))
    expect(await aWaits.waiting).toBe(true)
    const e = await failure(() => b.execute("UPDATE dd_t SET v = 2 WHERE id = 1"))
    expect(oraCode(e)).toBe("ORA-00060")
    expect(e.message).toContain("deadlock detected while waiting for resource")
    // only b's failed statement was rolled back: its first update is still there, and still locks row 2
    expect((await b.execute("SELECT v FROM dd_t WHERE id IN (1, 2) ORDER BY id")).rows).toEqual([[0], [2]])
    await b.rollback()
    expect((await aWaits.result).rowsAffected).toBe(1)
    await a.commit()
    expect((await b.execute("SELECT v FROM dd_t WHERE id IN (1, 2) ORDER BY id")).rows).toEqual([[1], [1]])
  })

  it("detects a cycle of FOR UPDATE waits through three sessions", async () => {
    await a.execute("SELECT v FROM dd_t WHERE id = 1 FOR UPDATE")
    await b.execute("SELECT v FROM dd_t WHERE id = 2 FOR UPDATE")
    await c.execute("SELECT v FROM dd_t WHERE id = 3 FOR UPDATE")
    const aWaits = waitsForLock<{ rows: unknown }>(server, () => a.execute("SELECT v FROM dd_t WHERE id = 2 FOR UPDATE"))
    expect(await aWaits.waiting).toBe(true)
    const bWaits = waitsForLock<{ rows: unknown }>(server, () => b.execute("SELECT v FROM dd_t WHERE id = 3 FOR UPDATE"))
    expect(await bWaits.waiting).toBe(true)
    expect(oraCode(await failure(() => c.execute("DELETE FROM dd_t WHERE id = 1")))).toBe("ORA-00060")
    await c.rollback()
    expect((await bWaits.result).rows).toEqual([[0]])
    await b.rollback()
    expect((await aWaits.result).rows).toEqual([[1]])
    await a.rollback()
  })

  it("lets a chain of waits (c for b, b for a) wait without a deadlock", async () => {
    await a.execute("UPDATE dd_t SET v = 5 WHERE id = 1")
    await b.execute("UPDATE dd_t SET v = 6 WHERE id = 2")
    const bWaits = waitsForLock(server, () => b.execute("UPDATE dd_t SET v = 6 WHERE id = 1"))
    expect(await bWaits.waiting).toBe(true)
    const cWaits = waitsForLock(server, () => c.execute("UPDATE dd_t SET v = 7 WHERE id = 2"))
    expect(await cWaits.waiting).toBe(true)
    await a.commit()
    expect((await bWaits.result).rowsAffected).toBe(1)
    await b.commit()
    expect((await cWaits.result).rowsAffected).toBe(1)
    await c.commit()
    expect((await a.execute("SELECT v FROM dd_t WHERE id IN (1, 2) ORDER BY id")).rows).toEqual([[6], [7]])
  })

  it("detects a cycle of waits for keys the other transaction inserted", async () => {
    await a.execute("INSERT INTO dd_t VALUES (10, 0)")
    await b.execute("INSERT INTO dd_t VALUES (11, 0)")
    const aWaits = waitsForLock(server, () => a.execute("INSERT INTO dd_t VALUES (11, 1)"))
    expect(await aWaits.waiting).toBe(true)
    expect(oraCode(await failure(() => b.execute("INSERT INTO dd_t VALUES (10, 1)")))).toBe("ORA-00060")
    await b.rollback()
    expect((await aWaits.result).rowsAffected).toBe(1)
    await a.rollback()
  })
})
