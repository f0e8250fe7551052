import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, waitsForLock, withServer } from "./oracle/helpers.ts"

// A DML statement locks every row it changes until its transaction ends ("Row Locks (TX)", Database Concepts, "Data
// Concurrency and Consistency": https://docs.oracle.com/en/database/oracle/oracle-database/23/cncpt/data-concurrency-and-consistency.html),
// so another transaction's SELECT ... FOR UPDATE waits for it, NOWAIT fails with ORA-00054 and WAIT n with ORA-30006
// (SQL Language Reference, "SELECT", for_update_clause: https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/SELECT.html).
describe("Oracle test server: rows another transaction wrote are locked", () => {
  let server: OracleTestServerHandle
  let a: Conn
  let b: Conn
  beforeAll(async () => {
    const s = await withServer()
    server = s.server
    a = await s.connect()
    b = await s.connect()
    await a.execute("CREATE TABLE dl_t (id NUMBER PRIMARY KEY, v NUMBER)")
    await a.execute("INSERT INTO dl_t VALUES (1, 0)", [], { autoCommit: true })
    await a.execute("INSERT INTO dl_t VALUES (2, 0)", [], { autoCommit: true })
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await server?.close()
  })

  it("makes FOR UPDATE NOWAIT of a row another transaction updated fail with ORA-00054, WAIT n with ORA-30006, and FOR UPDATE wait for the commit", async () => {
    await a.execute("UPDATE dl_t SET v = 5 WHERE id = 1")
    expect(oraCode(await failure(() => b.execute("SELECT v FROM dl_t WHERE id = 1 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    // the other row stays free
    expect((await b.execute("SELECT v FROM dl_t WHERE id = 2 FOR UPDATE NOWAIT")).rows).toEqual([[0]])
    await b.rollback()
    const bounded = waitsForLock(server, () => b.execute("SELECT v FROM dl_t WHERE id = 1 FOR UPDATE WAIT 1"))
    expect(await bounded.waiting).toBe(true)
    expect(oraCode(await failure(() => bounded.result))).toBe("ORA-30006")
    const waiting = waitsForLock<{ rows: unknown }>(server, () => b.execute("SELECT v FROM dl_t WHERE id = 1 FOR UPDATE"))
    expect(await waiting.waiting).toBe(true)
    await a.commit()
    // the waiter sees the committed row
    expect((await waiting.result).rows).toEqual([[5]])
    await b.rollback()
  })

  it("makes FOR UPDATE of a row another transaction deleted fail NOWAIT, or wait and find no row after the commit", async () => {
    await a.execute("DELETE FROM dl_t WHERE id = 2")
    expect(oraCode(await failure(() => b.execute("SELECT v FROM dl_t WHERE id = 2 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    const waiting = waitsForLock<{ rows: unknown }>(server, () => b.execute("SELECT v FROM dl_t WHERE id = 2 FOR UPDATE"))
    expect(await waiting.waiting).toBe(true)
    await a.commit()
    expect((await waiting.result).rows).toEqual([])
    await b.rollback()
  })

  it("makes a DELETE of a row another transaction updated wait for it", async () => {
    await a.execute("UPDATE dl_t SET v = 6 WHERE id = 1")
    const deleting = waitsForLock(server, () => b.execute("DELETE FROM dl_t WHERE id = 1"))
    expect(await deleting.waiting).toBe(true)
    await a.rollback()
    expect((await deleting.result).rowsAffected).toBe(1)
    await b.rollback()
  })

  it("does not wait for a row another transaction inserted (it is invisible until committed)", async () => {
    await a.execute("INSERT INTO dl_t VALUES (3, 0)")
    const waits = server.stats.lockWaits
    expect((await b.execute("SELECT v FROM dl_t WHERE id = 3 FOR UPDATE NOWAIT")).rows).toEqual([])
    expect((await b.execute("SELECT v FROM dl_t WHERE id = 3 FOR UPDATE")).rows).toEqual([])
    expect(server.stats.lockWaits).toBe(waits)
    await b.rollback()
    await a.rollback()
  })

  it("releases the rows a transaction wrote when it ends", async () => {
    await a.execute("UPDATE dl_t SET v = 7 WHERE id = 1")
    await a.rollback()
    expect((await b.execute("SELECT v FROM dl_t WHERE id = 1 FOR UPDATE NOWAIT")).rows).toEqual([[5]])
    await b.rollback()
  })
})
