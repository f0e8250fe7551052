import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn, TwoSessions } from "./oracle/helpers.ts"
import { failure, oraCode, waitsForLock, openTwoSessions } from "./oracle/helpers.ts"

// Oracle locks the index entries of the keys a transaction writes with its rows ("Row Locks (TX)", Database Concepts,
// "Data Concurrency and Consistency":
// https://docs.oracle.com/en/database/oracle/oracle-database/23/cncpt/data-concurrency-and-consistency.html): the key
// an UPDATE changes a row away from stays taken until that transaction ends (after COMMIT it is free, after ROLLBACK
// the row holds it again), and UPDATE / DELETE inside PL/SQL blocks and both branches of MERGE claim keys as the
// top-level statements do. Another transaction's INSERT of such a key waits, then goes ahead or raises ORA-00001.
describe("Oracle test server: keys an UPDATE leaves, PL/SQL DML and MERGE stay claimed until the transaction ends", () => {
  let env: TwoSessions["env"]
  let a: Conn
  let b: Conn
  beforeAll(async () => {
    ;({ env, a, b } = await openTwoSessions([
      "CREATE TABLE kc_t (id NUMBER PRIMARY KEY, u NUMBER UNIQUE, v VARCHAR2(10))"
    ]))
  })
  afterAll(() => env?.close())

  const values = async (where: string) => (await a.execute(`SELECT id, u, v FROM kc_t WHERE ${where} ORDER BY id`)).rows

  it("the old key of an UPDATE: another INSERT of it waits, then goes ahead after the UPDATE commits", async () => {
    await a.execute("INSERT INTO kc_t VALUES (1, NULL, 'old')")
    await a.commit()
    await a.execute("UPDATE kc_t SET id = 2 WHERE id = 1")
    const inserting = waitsForLock(env.server, () => b.execute("INSERT INTO kc_t VALUES (1, NULL, 'new')"))
    expect(await inserting.waiting).toBe(true)
    await a.commit()
    expect((await inserting.result).rowsAffected).toBe(1)
    await b.commit()
    expect(await values("id IN (1, 2)")).toEqual([[1, null, "new"], [2, null, "old"]])
  })

  it("the old key of an UPDATE: another INSERT of it waits, then raises ORA-00001 after the UPDATE rolls back", async () => {
    await a.execute("INSERT INTO kc_t VALUES (5, NULL, 'old')")
    await a.commit()
    await a.execute("UPDATE kc_t SET id = 6 WHERE id = 5")
    const inserting = waitsForLock(env.server, () => b.execute("INSERT INTO kc_t VALUES (5, NULL, 'new')"))
    expect(await inserting.waiting).toBe(true)
    await a.rollback()
    expect(oraCode(await failure(() => inserting.result))).toBe("ORA-00001")
    await b.rollback()
    expect(await values("id IN (5, 6)")).toEqual([[5, null, "old"]])
  })

  it("a DELETE in a PL/SQL block claims the key it deletes: another INSERT of it waits, then goes ahead after COMMIT", async () => {
    await a.execute("INSERT INTO kc_t VALUES (10, NULL, 'old')")
    await a.commit()
    await a.execute("BEGIN DELETE FROM kc_t WHERE id = :id; END;", { id: 10 })
    const inserting = waitsForLock(env.server, () => b.execute("INSERT INTO kc_t VALUES (10, NULL, 'new')"))
    expect(await inserting.waiting).toBe(true)
    await a.commit()
    expect((await inserting.result).rowsAffected).toBe(1)
    await b.commit()
    expect(await values("id = 10")).toEqual([[10, null, "new"]])
  })

  it("an UPDATE in a PL/SQL block claims the key it writes: another INSERT of it waits, then ORA-00001 after COMMIT", async () => {
    await a.execute("INSERT INTO kc_t VALUES (20, NULL, 'x')")
    await a.commit()
    await a.execute("BEGIN UPDATE kc_t SET id = 21 WHERE id = 20; END;")
    const inserting = waitsForLock(env.server, () => b.execute("INSERT INTO kc_t VALUES (21, NULL, 'b')"))
    expect(await inserting.waiting).toBe(true)
    await a.commit()
    expect(oraCode(await failure(() => inserting.result))).toBe("ORA-00001")
    await b.rollback()
    expect(await values("id IN (20, 21)")).toEqual([[21, null, "x"]])
  })

  it("MERGE's INSERT branch claims its key: another INSERT of it waits, then goes ahead after the MERGE rolls back", async () => {
    await a.execute("MERGE INTO kc_t t USING (SELECT 30 id FROM dual) s ON (t.id = s.id) WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, 'm')")
    const inserting = waitsForLock(env.server, () => b.execute("INSERT INTO kc_t VALUES (30, NULL, 'b')"))
    expect(await inserting.waiting).toBe(true)
    await a.rollback()
    expect((await inserting.result).rowsAffected).toBe(1)
    await b.commit()
    expect(await values("id = 30")).toEqual([[30, null, "b"]])
  })

  it("MERGE's UPDATE branch claims the unique key it writes: another INSERT of it waits, then ORA-00001 after COMMIT", async () => {
    await a.execute("INSERT INTO kc_t VALUES (40, NULL, 'x')")
    await a.commit()
    await a.execute("MERGE INTO kc_t t USING (SELECT 40 id, 400 u FROM dual) s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.u = s.u")
    const inserting = waitsForLock(env.server, () => b.execute("INSERT INTO kc_t VALUES (41, 400, 'b')"))
    expect(await inserting.waiting).toBe(true)
    await a.commit()
    expect(oraCode(await failure(() => inserting.result))).toBe("ORA-00001")
    await b.rollback()
    expect(await values("id IN (40, 41)")).toEqual([[40, 400, "x"]])
  })
})
