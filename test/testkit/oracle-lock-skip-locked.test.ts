import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withSessions } from "./oracle/helpers.ts"

// `FOR UPDATE SKIP LOCKED` "instructs the database to attempt to lock the rows specified by the WHERE clause and to
// skip any rows that are found to be already locked by another transaction" (SQL Language Reference, SELECT,
// for_update_clause: https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/SELECT.html): the queue
// idiom, where each worker takes the rows no other worker holds and locks them until its transaction ends.
describe("Oracle test server: SELECT ... FOR UPDATE SKIP LOCKED", () => {
  let env: Awaited<ReturnType<typeof withSessions>>
  let a: Conn
  let b: Conn
  let c: Conn
  beforeAll(async () => {
    env = await withSessions(3)
    ;[a, b, c] = env.sessions
    await a.execute("CREATE TABLE sk_q (id NUMBER PRIMARY KEY, state VARCHAR2(10))")
    await a.executeMany("INSERT INTO sk_q VALUES (:1, 'NEW')", [[1], [2], [3], [4]], { autoCommit: true })
  })
  afterAll(() => env?.close())

  it("skips the rows another transaction locked and locks the rest", async () => {
    expect((await a.execute("SELECT id FROM sk_q WHERE id <= 2 FOR UPDATE")).rows).toEqual([[1], [2]])
    // b gets only the rows a does not hold
    expect((await b.execute("SELECT id FROM sk_q WHERE state = 'NEW' ORDER BY id FOR UPDATE SKIP LOCKED")).rows).toEqual([[3], [4]])
    // and now holds them: a third worker gets nothing, and NOWAIT on them fails
    expect((await c.execute("SELECT id FROM sk_q ORDER BY id FOR UPDATE SKIP LOCKED")).rows).toEqual([])
    expect(oraCode(await failure(() => c.execute("SELECT id FROM sk_q WHERE id = 3 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    await a.rollback()
    // a's rows are free again; b's stay held
    expect((await c.execute("SELECT id FROM sk_q ORDER BY id FOR UPDATE SKIP LOCKED")).rows).toEqual([[1], [2]])
    await b.commit()
    await c.rollback()
    expect(env.server.stats.lockWaits).toBe(0)
  })

  it("skips rows another transaction's UPDATE locked", async () => {
    await a.execute("UPDATE sk_q SET state = 'BUSY' WHERE id = 1")
    expect((await b.execute("SELECT id, state FROM sk_q WHERE id <= 2 ORDER BY id FOR UPDATE SKIP LOCKED")).rows).toEqual([[2, "NEW"]])
    await a.rollback()
    await b.rollback()
  })

  it("over a join leaves out the result rows holding a row another transaction locked and locks the others (was: no locks, nothing skipped)", async () => {
    await a.execute("CREATE TABLE sk_job (id NUMBER PRIMARY KEY, q NUMBER)")
    await a.executeMany("INSERT INTO sk_job VALUES (:1, :2)", [[10, 1], [20, 2], [30, 3], [40, 4]], { autoCommit: true })
    expect((await a.execute("SELECT id FROM sk_q WHERE id = 1 FOR UPDATE")).rows).toEqual([[1]])
    expect((await a.execute("SELECT id FROM sk_job WHERE id = 20 FOR UPDATE")).rows).toEqual([[20]])
    const join = "SELECT q.id, j.id FROM sk_q q JOIN sk_job j ON j.q = q.id ORDER BY q.id FOR UPDATE SKIP LOCKED"
    expect((await b.execute(join)).rows).toEqual([[3, 30], [4, 40]])
    // b holds the rows of both tables it got: c skips them too, and NOWAIT on either fails
    expect((await c.execute(join)).rows).toEqual([])
    expect(oraCode(await failure(() => c.execute("SELECT id FROM sk_job WHERE id = 30 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    expect(oraCode(await failure(() => c.execute("SELECT id FROM sk_q WHERE id = 4 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    // FOR UPDATE OF one table's column locks and skips by that table only
    expect((await c.execute("SELECT q.id FROM sk_q q JOIN sk_job j ON j.q = q.id ORDER BY q.id FOR UPDATE OF q.state SKIP LOCKED")).rows).toEqual([[2]])
    await a.rollback()
    await b.rollback()
    await c.rollback()
  })
})
