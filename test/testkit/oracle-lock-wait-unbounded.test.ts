/**
 * Without WAIT n or NOWAIT, a session waits for another transaction's row lock until that transaction ends, however
 * long that takes: "If you omit this clause, then the database waits until the row is available" (SQL Language
 * Reference, SELECT, for_update_clause: https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/SELECT.html;
 * Database Concepts, "Row Locks (TX)"). The server's default bounds no wait; its clock is moved an hour on while a
 * writer and a FOR UPDATE wait, and both still go ahead once the holder commits. Raw node-oracledb.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { waitsForLock, withServer } from "./oracle/helpers.ts"

describe("Oracle test server: a lock wait without WAIT n does not time out", () => {
  let server: OracleTestServerHandle
  let holder: Conn
  let waiter: Conn
  let other: Conn
  beforeAll(async () => {
    const s = await withServer()
    server = s.server
    holder = await s.connect()
    waiter = await s.connect()
    other = await s.connect()
    await holder.execute("CREATE TABLE uw_t (id NUMBER PRIMARY KEY, v NUMBER)")
    await holder.execute("INSERT INTO uw_t VALUES (1, 0)")
    await holder.execute("CREATE TABLE uw_other (id NUMBER)")
    await holder.commit()
  })
  afterAll(async () => {
    vi.restoreAllMocks()
    for (const c of [holder, waiter, other]) await c?.close()
    await server?.close()
  })

  /** Moves the clock an hour on, then wakes the waiters (another transaction ends) and lets them look at it. */
  const anHourLater = async () => {
    const now = Date.now.bind(Date)
    vi.spyOn(Date, "now").mockImplementation(() => now() + 3_600_000)
    await other.execute("INSERT INTO uw_other VALUES (1)")
    await other.commit()
    for (let k = 0; k < 5; k++) await other.execute("SELECT COUNT(*) FROM uw_other")
  }

  it("an UPDATE waits an hour for the row another transaction updated, then writes after its COMMIT", async () => {
    await holder.execute("UPDATE uw_t SET v = 1 WHERE id = 1")
    let settled = false
    const updating = waitsForLock(server, () => waiter.execute("UPDATE uw_t SET v = v + 10 WHERE id = 1"))
    void updating.result.then(() => (settled = true), () => (settled = true))
    expect(await updating.waiting).toBe(true)
    await anHourLater()
    expect(settled).toBe(false)
    vi.restoreAllMocks()
    await holder.commit()
    expect((await updating.result).rowsAffected).toBe(1)
    await waiter.commit()
    expect((await holder.execute("SELECT v FROM uw_t")).rows).toEqual([[11]])
  })

  it("SELECT ... FOR UPDATE waits an hour for the locked row, then returns it after the holder's COMMIT", async () => {
    await holder.execute("SELECT v FROM uw_t WHERE id = 1 FOR UPDATE")
    let settled = false
    const selecting = waitsForLock<{ rows: unknown }>(server, () => waiter.execute("SELECT v FROM uw_t WHERE id = 1 FOR UPDATE"))
    void selecting.result.then(() => (settled = true), () => (settled = true))
    expect(await selecting.waiting).toBe(true)
    await anHourLater()
    expect(settled).toBe(false)
    vi.restoreAllMocks()
    await holder.commit()
    expect((await selecting.result).rows).toEqual([[11]])
    await waiter.rollback()
  })
})
