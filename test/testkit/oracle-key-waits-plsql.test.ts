import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn, TwoSessions } from "./oracle/helpers.ts"
import { oraCode, waitsForLock, openTwoSessions } from "./oracle/helpers.ts"

// An INSERT of a primary or unique key another open transaction inserted waits for that transaction, then raises
// ORA-00001 if it committed or goes ahead if it rolled back ("Row Locks (TX)", Database Concepts, "Data Concurrency
// and Consistency": https://docs.oracle.com/en/database/oracle/oracle-database/23/cncpt/data-concurrency-and-consistency.html),
// whether a client or a PL/SQL block sends the INSERT.
describe("Oracle test server: an INSERT in a PL/SQL block waits for a key another transaction inserted", () => {
  let env: TwoSessions["env"]
  let a: Conn
  let b: Conn
  beforeAll(async () => {
    ;({ env, a, b } = await openTwoSessions([
      "CREATE TABLE kp_t (id NUMBER PRIMARY KEY, v VARCHAR2(10))"
    ]))
  })
  afterAll(() => env?.close())

  it("waits, then raises ORA-00001 when the other transaction commits", async () => {
    await a.execute("INSERT INTO kp_t VALUES (1, 'a')")
    const inserting = waitsForLock(env.server, () => b.execute("BEGIN INSERT INTO kp_t VALUES (:id, 'b'); END;", { id: 1 }))
    expect(await inserting.waiting).toBe(true)
    await a.commit()
    expect(oraCode(await inserting.result.then(() => undefined, (e: unknown) => e))).toBe("ORA-00001")
    await b.rollback()
  })

  it("waits, then goes ahead when the other transaction rolls back", async () => {
    await a.execute("INSERT INTO kp_t VALUES (2, 'a')")
    const inserting = waitsForLock(env.server, () => b.execute("BEGIN INSERT INTO kp_t VALUES (2, 'b'); END;"))
    expect(await inserting.waiting).toBe(true)
    await a.rollback()
    await inserting.result
    await b.commit()
    expect((await a.execute("SELECT v FROM kp_t WHERE id = 2")).rows).toEqual([["b"]])
  })
})
