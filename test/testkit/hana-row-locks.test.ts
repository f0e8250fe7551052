import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, closeQuietly, exec, failure } from "./hana/client.ts"
import type { HdbClient } from "./hana/client.ts"
import { waitsForLock } from "../support/lockWaits.ts"
import { closeTwoClients, inTransactions as inBothTransactions, openTwoClients } from "./hana/transactions.ts"

// Row locks as SAP HANA takes them: UPDATE / DELETE and SELECT ... FOR UPDATE lock rows until COMMIT / ROLLBACK;
// another transaction waits; NOWAIT fails with 146, a wait past the lock wait timeout with 131, a deadlock with 133
// (codes as Hibernate's HANA dialect maps them, hibernate-orm HANADialect.buildSQLExceptionConversionDelegate).
describe("HANA test server: row locks", () => {
  let server: HanaTestServerHandle
  let a: HdbClient
  let b: HdbClient
  let login: () => Promise<HdbClient>
  beforeAll(async () => {
    ;({ server, a, b, login } = await openTwoClients())
  })
  afterAll(() => closeTwoClients({ server, a, b }))

  const inTransactions = (body: () => Promise<void>) => inBothTransactions(a, b, body)

  it("an UPDATE waits for another transaction's update of the same row and goes ahead after its COMMIT", async () => {
    await exec(a, "CREATE TABLE rl_upd (id INT PRIMARY KEY, n INT)")
    await exec(a, "INSERT INTO rl_upd VALUES (1, 0)")
    await exec(a, "INSERT INTO rl_upd VALUES (2, 0)")
    await inTransactions(async () => {
      await exec(a, "UPDATE rl_upd SET n = n + 1 WHERE id = 1")
      // another row is free
      expect(await exec(b, "SELECT id FROM rl_upd WHERE id = 2 FOR UPDATE NOWAIT")).toEqual([{ ID: 2 }])
      const second = waitsForLock(server, () => exec(b, "UPDATE rl_upd SET n = n + 10 WHERE id = 1"))
      expect(await second.waiting).toBe(true)
      await call((cb) => a.commit(cb))
      await second.result
      await call((cb) => b.commit(cb))
    })
    expect(await exec(a, "SELECT id, n FROM rl_upd ORDER BY id")).toEqual([{ ID: 1, N: 11 }, { ID: 2, N: 0 }])
  })

  it("a DELETE waits for the row lock of a SELECT ... FOR UPDATE and goes ahead after its ROLLBACK", async () => {
    await exec(a, "CREATE TABLE rl_del (id INT, n INT)")
    await exec(a, "INSERT INTO rl_del VALUES (1, 0)")
    await inTransactions(async () => {
      expect(await exec(a, "SELECT id FROM rl_del WHERE id = 1 FOR UPDATE")).toEqual([{ ID: 1 }])
      const del = waitsForLock(server, () => exec(b, "DELETE FROM rl_del WHERE id = 1"))
      expect(await del.waiting).toBe(true)
      await call((cb) => a.rollback(cb))
      await del.result
      await call((cb) => b.commit(cb))
    })
    expect(await exec(a, "SELECT COUNT(*) AS N FROM rl_del")).toEqual([{ N: 0 }])
  })

  it("FOR UPDATE NOWAIT of a locked row fails at once with 146; an unlocked row is returned", async () => {
    await exec(a, "CREATE TABLE rl_now (id INT, n INT)")
    await exec(a, "INSERT INTO rl_now VALUES (1, 0)")
    await exec(a, "INSERT INTO rl_now VALUES (2, 0)")
    await inTransactions(async () => {
      await exec(a, "UPDATE rl_now SET n = 1 WHERE id = 1")
      const waits = server.stats.lockWaits
      const busy = await failure(exec(b, "SELECT id FROM rl_now WHERE id = 1 FOR UPDATE NOWAIT"))
      expect(busy.code).toBe(146)
      expect(busy.message).toMatch(/Resource busy and acquire with NOWAIT specified/i)
      expect(server.stats.lockWaits).toBe(waits)
      expect(await exec(b, "SELECT id FROM rl_now WHERE id = 2 FOR UPDATE NOWAIT")).toEqual([{ ID: 2 }])
      // a plain read does not wait
      expect(await exec(b, "SELECT id, n FROM rl_now WHERE id = 1")).toEqual([{ ID: 1, N: 0 }])
    })
  })

  it("a wait past the session's lock wait timeout fails with 131 and rolls the waiting transaction back", async () => {
    await exec(a, "CREATE TABLE rl_tmo (id INT, n INT)")
    await exec(a, "INSERT INTO rl_tmo VALUES (1, 0)")
    await exec(a, "INSERT INTO rl_tmo VALUES (2, 0)")
    await inTransactions(async () => {
      await exec(a, "UPDATE rl_tmo SET n = 1 WHERE id = 1")
      await exec(b, "SET TRANSACTION LOCK WAIT TIMEOUT 100")
      await exec(b, "UPDATE rl_tmo SET n = 2 WHERE id = 2")
      const late = waitsForLock(server, () => exec(b, "UPDATE rl_tmo SET n = 2 WHERE id = 1"))
      expect(await late.waiting).toBe(true)
      const timedOut = await failure(late.result)
      expect(timedOut.code).toBe(131)
      expect(timedOut.message).toMatch(/transaction rolled back by lock wait timeout/)
      // b's earlier update is rolled back with its transaction, and its row lock released
      expect(await exec(a, "UPDATE rl_tmo SET n = 3 WHERE id = 2")).toBe(1)
      await call((cb) => a.commit(cb))
      await exec(b, "SET TRANSACTION LOCK WAIT TIMEOUT 30000")
    })
    expect(await exec(a, "SELECT id, n FROM rl_tmo ORDER BY id")).toEqual([{ ID: 1, N: 1 }, { ID: 2, N: 3 }])
  })

  it("a wait that closes a cycle fails with 133 and rolls that transaction back; the other goes ahead", async () => {
    await exec(a, "CREATE TABLE rl_dl (id INT, n INT)")
    await exec(a, "INSERT INTO rl_dl VALUES (1, 0)")
    await exec(a, "INSERT INTO rl_dl VALUES (2, 0)")
    await inTransactions(async () => {
      await exec(a, "UPDATE rl_dl SET n = 1 WHERE id = 1")
      await exec(b, "UPDATE rl_dl SET n = 2 WHERE id = 2")
      const first = waitsForLock(server, () => exec(a, "UPDATE rl_dl SET n = 1 WHERE id = 2"))
      expect(await first.waiting).toBe(true)
      const deadlock = await failure(exec(b, "UPDATE rl_dl SET n = 2 WHERE id = 1"))
      expect(deadlock.code).toBe(133)
      expect(deadlock.message).toMatch(/transaction rolled back by detected deadlock/)
      await first.result
      await call((cb) => a.commit(cb))
    })
    expect(await exec(a, "SELECT id, n FROM rl_dl ORDER BY id")).toEqual([{ ID: 1, N: 1 }, { ID: 2, N: 1 }])
  })
  // SAP HANA SQL Reference, "SELECT Statement", for_update_clause: WAIT <seconds> bounds this statement's wait.
  it("FOR UPDATE WAIT n fails with 131 after n seconds, though the session's lock wait timeout is longer", async () => {
    await exec(a, "CREATE TABLE rl_wait (id INT, n INT)")
    await exec(a, "INSERT INTO rl_wait VALUES (1, 0)")
    await inTransactions(async () => {
      await exec(a, "UPDATE rl_wait SET n = 1 WHERE id = 1")
      await exec(b, "SET TRANSACTION LOCK WAIT TIMEOUT 30000")
      const started = Date.now()
      const bounded = waitsForLock(server, () => exec(b, "SELECT id FROM rl_wait WHERE id = 1 FOR UPDATE WAIT 1"))
      expect(await bounded.waiting).toBe(true)
      const timedOut = await failure(bounded.result)
      expect(timedOut.code).toBe(131)
      expect(timedOut.message).toMatch(/lock wait timeout/)
      expect(Date.now() - started).toBeGreaterThanOrEqual(950)
      expect(Date.now() - started).toBeLessThan(20_000)
      // WAIT 0 is NOWAIT (hibernate-orm pull request 2762, SAP's contributor: "NOWAIT and WAIT 0 are equivalent")
      await exec(b, "SET TRANSACTION LOCK WAIT TIMEOUT 30000")
      const busy = await failure(exec(b, "SELECT id FROM rl_wait WHERE id = 1 FOR UPDATE WAIT 0"))
      expect(busy.code).toBe(146)
    })
  })

  // hdb's close() waits for the pending request; destroy() drops the socket at once, as a process that ends does.
  it("dropping the connection of a client that waits for a row lock ends its wait and releases the rows its transaction locked", async () => {
    await exec(a, "CREATE TABLE rl_close (id INT, n INT)")
    await exec(a, "INSERT INTO rl_close VALUES (1, 0)")
    await exec(a, "INSERT INTO rl_close VALUES (2, 0)")
    const waiter = await login()
    const third = await login()
    waiter.setAutoCommit(false)
    await inTransactions(async () => {
      await exec(a, "UPDATE rl_close SET n = 1 WHERE id = 1")
      await exec(waiter, "SET TRANSACTION LOCK WAIT TIMEOUT 30000")
      await exec(waiter, "UPDATE rl_close SET n = 2 WHERE id = 2")
      const blocked = waitsForLock(server, () => exec(waiter, "UPDATE rl_close SET n = 2 WHERE id = 1"))
      expect(await blocked.waiting).toBe(true)
      void blocked.result.catch(() => undefined)
      waiter.on("error", () => undefined)
      waiter.destroy()
      // the closed client's transaction is rolled back: row 2 is free well before its 30 s lock wait timeout
      third.setAutoCommit(false)
      expect(await exec(third, "SELECT id, n FROM rl_close WHERE id = 2 FOR UPDATE WAIT 5")).toEqual([{ ID: 2, N: 0 }])
      await call((cb) => third.rollback(cb))
      await call((cb) => a.commit(cb))
    })
    closeQuietly(third)
    expect(await exec(a, "SELECT id, n FROM rl_close ORDER BY id")).toEqual([{ ID: 1, N: 1 }, { ID: 2, N: 0 }])
  })

  // SAP HANA SQL Reference, "UPDATE Statement" and "DELETE Statement": both end in an optional <hint_clause>,
  // `WITH HINT (<hint_element>, ...)`, which changes the plan and nothing of the result or of the rows locked.
  it("UPDATE and DELETE with WITH HINT (…) run and lock their rows as without it", async () => {
    await exec(a, "CREATE TABLE rl_hint (id INT PRIMARY KEY, n INT)")
    await exec(a, "INSERT INTO rl_hint VALUES (1, 0)")
    await exec(a, "INSERT INTO rl_hint VALUES (2, 0)")
    await inTransactions(async () => {
      expect(await exec(a, "UPDATE rl_hint SET n = n + 1 WHERE id = 1 WITH HINT (IGNORE_PLAN_CACHE)")).toBe(1)
      expect((await failure(exec(b, "SELECT id FROM rl_hint WHERE id = 1 FOR UPDATE NOWAIT"))).code).toBe(146)
      expect(await exec(b, "DELETE FROM rl_hint WHERE id = 2 WITH HINT(NO_CS_JOIN, IGNORE_PLAN_CACHE)")).toBe(1)
      expect((await failure(exec(a, "SELECT id FROM rl_hint WHERE id = 2 FOR UPDATE NOWAIT"))).code).toBe(146)
      await call((cb) => a.commit(cb))
      await call((cb) => b.commit(cb))
    })
    expect(await exec(a, "SELECT id, n FROM rl_hint ORDER BY id")).toEqual([{ ID: 1, N: 1 }])
  })
})
