import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, waitsForLock, withSessions } from "./oracle/helpers.ts"

// Oracle locks every row a DML statement changes until its transaction ends, whichever way the statement was sent
// ("Row Locks (TX)", Database Concepts, "Data Concurrency and Consistency":
// https://docs.oracle.com/en/database/oracle/oracle-database/23/cncpt/data-concurrency-and-consistency.html): an
// executeMany with several bind rows is one statement run for each row, so each row it changed is locked; a PL/SQL
// block's UPDATE / DELETE locks the rows it changes as a client's does.
describe("Oracle test server: rows written by executeMany and in PL/SQL blocks are locked until the transaction ends", () => {
  let env: Awaited<ReturnType<typeof withSessions>>
  let a: Conn
  let b: Conn
  beforeAll(async () => {
    env = await withSessions(2)
    ;[a, b] = env.sessions
    await a.execute("CREATE TABLE lw_t (id NUMBER PRIMARY KEY, v NUMBER)")
    await a.executeMany("INSERT INTO lw_t VALUES (:1, 0)", [[1], [2], [3]], { autoCommit: true })
    await a.execute("CREATE TABLE lp_t (id NUMBER PRIMARY KEY, v NUMBER)")
    await a.executeMany("INSERT INTO lp_t VALUES (:1, 0)", [[1], [2], [3]], { autoCommit: true })
  })
  afterAll(() => env?.close())

  it("locks the rows an executeMany UPDATE changed: NOWAIT fails with ORA-00054, FOR UPDATE waits for the commit", async () => {
    await a.executeMany("UPDATE lw_t SET v = :1 WHERE id = :2", [[5, 1], [6, 2]])
    expect(oraCode(await failure(() => b.execute("SELECT v FROM lw_t WHERE id = 1 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    expect(oraCode(await failure(() => b.execute("SELECT v FROM lw_t WHERE id = 2 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    // the row it did not change stays free
    expect((await b.execute("SELECT v FROM lw_t WHERE id = 3 FOR UPDATE NOWAIT")).rows).toEqual([[0]])
    await b.rollback()
    const waiting = waitsForLock<{ rows: unknown }>(env.server, () => b.execute("SELECT v FROM lw_t WHERE id = 2 FOR UPDATE"))
    expect(await waiting.waiting).toBe(true)
    await a.commit()
    expect((await waiting.result).rows).toEqual([[6]])
    await b.rollback()
  })

  it("locks the rows an executeMany DELETE removed: another DELETE waits, then finds nothing after the commit", async () => {
    await a.executeMany("DELETE FROM lw_t WHERE id = :1", [[1], [2]])
    expect(oraCode(await failure(() => b.execute("SELECT v FROM lw_t WHERE id = 1 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    const deleting = waitsForLock(env.server, () => b.execute("DELETE FROM lw_t WHERE id = 2"))
    expect(await deleting.waiting).toBe(true)
    await a.commit()
    expect((await deleting.result).rowsAffected).toBe(0)
    await b.rollback()
  })

  it("an UPDATE in a block locks its rows: NOWAIT fails with ORA-00054, FOR UPDATE waits for the commit", async () => {
    await a.execute("BEGIN UPDATE lp_t SET v = v + 1 WHERE id = :id; END;", { id: 1 })
    expect(oraCode(await failure(() => b.execute("SELECT v FROM lp_t WHERE id = 1 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    expect((await b.execute("SELECT v FROM lp_t WHERE id = 2 FOR UPDATE NOWAIT")).rows).toEqual([[0]])
    await b.rollback()
    const waiting = waitsForLock<{ rows: unknown }>(env.server, () => b.execute("SELECT v FROM lp_t WHERE id = 1 FOR UPDATE"))
    expect(await waiting.waiting).toBe(true)
    await a.commit()
    expect((await waiting.result).rows).toEqual([[1]])
    await b.rollback()
  })

  it("a DELETE in a block locks its rows: NOWAIT fails with ORA-00054, another session's DELETE waits, then finds nothing after the commit", async () => {
    await a.execute("DECLARE n NUMBER := 2; BEGIN DELETE FROM lp_t WHERE id = n; END;")
    expect(oraCode(await failure(() => b.execute("SELECT v FROM lp_t WHERE id = 2 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    await b.rollback()
    const deleting = waitsForLock(env.server, () => b.execute("DELETE FROM lp_t WHERE id = 2"))
    expect(await deleting.waiting).toBe(true)
    await a.commit()
    expect((await deleting.result).rowsAffected).toBe(0)
    await b.rollback()
  })

  it("a MERGE locks the rows it updates: NOWAIT fails with ORA-00054, FOR UPDATE waits for the commit", async () => {
    await a.execute("MERGE INTO lp_t t USING (SELECT 3 AS id FROM dual) s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.v = 7 WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, 7)")
    expect(oraCode(await failure(() => b.execute("SELECT v FROM lp_t WHERE id = 3 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    const waiting = waitsForLock<{ rows: unknown }>(env.server, () => b.execute("SELECT v FROM lp_t WHERE id = 3 FOR UPDATE"))
    expect(await waiting.waiting).toBe(true)
    await a.commit()
    expect((await waiting.result).rows).toEqual([[7]])
    await b.rollback()
  })
})
