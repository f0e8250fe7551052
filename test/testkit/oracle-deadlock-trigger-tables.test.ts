import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, waitsForLock, withServer } from "./oracle/helpers.ts"

// A table with row triggers is written row by row (the statement's rows, then each row's write after its BEFORE
// triggers). Those writes lock their rows as any DML does (Database Concepts, "Row Locks (TX)"), and a write that
// waits for them knows its holder, so a cycle of such waits is a deadlock Oracle breaks at once with ORA-00060 in one
// session, rolling back that statement only (Database Concepts, "Data Concurrency and Consistency", "Deadlocks":
// https://docs.oracle.com/en/database/oracle/oracle-database/23/cncpt/data-concurrency-and-consistency.html).
// These waits used to rest on DuckDB's write conflict alone, which names no holder: the cycle waited until a break.
// The lock-wait limit is far above the test timeout, so a missing detection fails the test.
describe("Oracle test server: row locks and deadlocks on tables with triggers", () => {
  let server: OracleTestServerHandle
  let a: Conn
  let b: Conn
  beforeAll(async () => {
    const s = await withServer({ lockWaitMs: 600_000 })
    server = s.server
    a = await s.connect()
    b = await s.connect()
    await a.execute("CREATE TABLE dt_t (id NUMBER PRIMARY KEY, v NUMBER, n NUMBER)")
    await a.executeMany("INSERT INTO dt_t VALUES (:1, 0, 0)", [[1], [2], [3]])
    await a.execute("CREATE TRIGGER dt_count BEFORE UPDATE ON dt_t FOR EACH ROW BEGIN :NEW.n := :OLD.n + 1; END;")
    await a.commit()
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await server?.close()
  })

  it("locks the rows an UPDATE with a row trigger wrote: another session's FOR UPDATE NOWAIT fails with ORA-00054", async () => {
    await a.execute("UPDATE dt_t SET v = 1 WHERE id = 1")
    expect(oraCode(await failure(() => b.execute("SELECT v FROM dt_t WHERE id = 1 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    expect((await b.execute("SELECT v FROM dt_t WHERE id = 2 FOR UPDATE NOWAIT")).rows).toEqual([[0]])
    await b.rollback()
    await a.rollback()
  })

  it("fails the UPDATE that closes a cycle of waits with ORA-00060 at once; its transaction keeps its earlier update", async () => {
    await a.execute("UPDATE dt_t SET v = 1 WHERE id = 1")
    await b.execute("UPDATE dt_t SET v = 2 WHERE id = 2")
    const aWaits = waitsForLock(server, () => a.execute("UPDATE dt_t SET v = 1 WHERE id = 2"))
    expect(await aWaits.waiting).toBe(true)
    const e = await failure(() => b.execute("UPDATE dt_t SET v = 2 WHERE id = 1"))
    expect(oraCode(e)).toBe("ORA-00060")
    expect(e.message).toContain("deadlock detected while waiting for resource")
    // only b's failed statement was rolled back: its first update (and its trigger's count) is still there
    expect((await b.execute("SELECT v, n FROM dt_t WHERE id IN (1, 2) ORDER BY id")).rows).toEqual([[0, 0], [2, 1]])
    await b.rollback()
    expect((await aWaits.result).rowsAffected).toBe(1)
    await a.commit()
    expect((await b.execute("SELECT v, n FROM dt_t WHERE id IN (1, 2) ORDER BY id")).rows).toEqual([[1, 1], [1, 1]])
  })

  it("detects the cycle when the other session's write is a DELETE of a locked row", async () => {
    await a.execute("DELETE FROM dt_t WHERE id = 3")
    await b.execute("SELECT v FROM dt_t WHERE id = 1 FOR UPDATE")
    const aWaits = waitsForLock(server, () => a.execute("UPDATE dt_t SET v = 9 WHERE id = 1"))
    expect(await aWaits.waiting).toBe(true)
    expect(oraCode(await failure(() => b.execute("UPDATE dt_t SET v = 8 WHERE id = 3")))).toBe("ORA-00060")
    await b.rollback()
    expect((await aWaits.result).rowsAffected).toBe(1)
    await a.rollback()
  })

  // Oracle restarts an UPDATE whose row another transaction changed while it waited, on the row as committed, and
  // fires its BEFORE row trigger again (T. Kyte, Expert Oracle Database Architecture, "Concurrency and
  // Multiversioning", "Seeing a Restart"): neither the statement's nor the trigger's change of the other is lost.
  it("writes a waiting UPDATE on the row as the other transaction committed it, its BEFORE row trigger run again", async () => {
    const [[v, n]] = (await b.execute("SELECT v, n FROM dt_t WHERE id = 2")).rows
    await a.execute("UPDATE dt_t SET v = v + 1 WHERE id = 2")
    const bWaits = waitsForLock(server, () => b.execute("UPDATE dt_t SET v = v + 1 WHERE id = 2"))
    expect(await bWaits.waiting).toBe(true)
    await a.commit()
    expect((await bWaits.result).rowsAffected).toBe(1)
    await b.commit()
    // a's and b's increments of v both count, and the trigger counted both updates
    expect((await a.execute("SELECT v, n FROM dt_t WHERE id = 2")).rows).toEqual([[v + 2, n + 2]])
  })

  it("writes each bind row of an executeMany once, the row that met the other transaction's change on its committed value", async () => {
    const [[v1, n1], [v2, n2]] = (await b.execute("SELECT v, n FROM dt_t WHERE id IN (1, 2) ORDER BY id")).rows
    await a.execute("UPDATE dt_t SET v = v + 1 WHERE id = 2")
    const bWaits = waitsForLock<{ rowsAffected?: number }>(server, () => b.executeMany("UPDATE dt_t SET v = v + :1 WHERE id = :2", [[100, 1], [100, 2]]))
    expect(await bWaits.waiting).toBe(true)
    await a.commit()
    expect((await bWaits.result).rowsAffected).toBe(2)
    await b.commit()
    expect((await a.execute("SELECT v, n FROM dt_t WHERE id IN (1, 2) ORDER BY id")).rows).toEqual([[v1 + 100, n1 + 1], [v2 + 101, n2 + 2]])
  })
})
