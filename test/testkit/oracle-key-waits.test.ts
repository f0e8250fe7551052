import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn, TwoSessions } from "./oracle/helpers.ts"
import { failure, oracledb, oraCode, waitsForLock, openTwoSessions } from "./oracle/helpers.ts"

// A statement that writes a primary or unique key another open transaction holds (inserted, changed to, or deleted
// without committing) waits for that transaction's row lock; then ORA-00001 or it goes ahead, whichever the other
// transaction's end leaves ("Row Locks (TX)", Database Concepts, "Data Concurrency and Consistency":
// https://docs.oracle.com/en/database/oracle/oracle-database/23/cncpt/data-concurrency-and-consistency.html).
describe("Oracle test server: writes of a key another transaction holds wait for it", () => {
  let env: TwoSessions["env"]
  let a: Conn
  let b: Conn
  beforeAll(async () => {
    ;({ env, a, b } = await openTwoSessions([
      "CREATE TABLE kw_t (id NUMBER PRIMARY KEY, v VARCHAR2(10))",
      "CREATE TABLE kw_off (id NUMBER CONSTRAINT kw_off_pk PRIMARY KEY, u NUMBER CONSTRAINT kw_off_u UNIQUE, v VARCHAR2(10))",
      "ALTER TABLE kw_off DISABLE CONSTRAINT kw_off_pk",
      "ALTER TABLE kw_off DISABLE CONSTRAINT kw_off_u"
    ]))
  })
  afterAll(() => env?.close())

  const count = async (where: string) => ((await a.execute(`SELECT COUNT(*) FROM kw_t WHERE ${where}`)).rows as Array<Array<number>>)[0]![0]

  it("INSERT ... RETURNING of a key another transaction inserted waits, then raises ORA-00001 after its commit", async () => {
    await a.execute("INSERT INTO kw_t VALUES (1, 'a')")
    const inserting = waitsForLock(env.server, () => b.execute("INSERT INTO kw_t VALUES (1, 'b') RETURNING v INTO :v", { v: { dir: oracledb.BIND_OUT, type: oracledb.STRING } }))
    expect(await inserting.waiting).toBe(true)
    await a.commit()
    expect(oraCode(await failure(() => inserting.result))).toBe("ORA-00001")
    await b.rollback()
  })

  it("INSERT ... RETURNING goes ahead with its returned values when the other transaction rolls back", async () => {
    await a.execute("INSERT INTO kw_t VALUES (2, 'a')")
    const inserting = waitsForLock<{ outBinds?: { v: Array<string> } }>(env.server, () => b.execute("INSERT INTO kw_t VALUES (2, 'b') RETURNING v INTO :v", { v: { dir: oracledb.BIND_OUT, type: oracledb.STRING } }))
    expect(await inserting.waiting).toBe(true)
    await a.rollback()
    expect((await inserting.result).outBinds?.v).toEqual(["b"])
    await b.commit()
    expect(await count("id = 2 AND v = 'b'")).toBe(1)
  })

  it("an UPDATE that changes a key to one another transaction inserted waits, then raises ORA-00001 after its commit", async () => {
    await a.execute("INSERT INTO kw_t VALUES (10, 'x')")
    await a.commit()
    await a.execute("INSERT INTO kw_t VALUES (11, 'a')")
    const updating = waitsForLock(env.server, () => b.execute("UPDATE kw_t SET id = 11 WHERE id = 10"))
    expect(await updating.waiting).toBe(true)
    await a.commit()
    expect(oraCode(await failure(() => updating.result))).toBe("ORA-00001")
    await b.rollback()
    expect(await count("id IN (10, 11)")).toBe(2)
  })

  it("an UPDATE that changes a key to one another transaction inserted goes ahead when that transaction rolls back", async () => {
    await a.execute("INSERT INTO kw_t VALUES (20, 'x')")
    await a.commit()
    await a.execute("INSERT INTO kw_t VALUES (21, 'a')")
    const updating = waitsForLock(env.server, () => b.execute("UPDATE kw_t SET id = 21 WHERE id = 20"))
    expect(await updating.waiting).toBe(true)
    await a.rollback()
    expect((await updating.result).rowsAffected).toBe(1)
    await b.commit()
    expect((await a.execute("SELECT id, v FROM kw_t WHERE id IN (20, 21)")).rows).toEqual([[21, "x"]])
  })

  it("an INSERT of a key another transaction deleted without committing waits, then goes ahead after its commit", async () => {
    await a.execute("INSERT INTO kw_t VALUES (30, 'old')")
    await a.commit()
    await a.execute("DELETE FROM kw_t WHERE id = 30")
    const inserting = waitsForLock(env.server, () => b.execute("INSERT INTO kw_t VALUES (30, 'new')"))
    expect(await inserting.waiting).toBe(true)
    await a.commit()
    expect((await inserting.result).rowsAffected).toBe(1)
    await b.commit()
    expect((await a.execute("SELECT v FROM kw_t WHERE id = 30")).rows).toEqual([["new"]])
  })

  it("an INSERT of a key another transaction deleted without committing waits, then raises ORA-00001 after its rollback", async () => {
    await a.execute("INSERT INTO kw_t VALUES (31, 'old')")
    await a.commit()
    await a.execute("DELETE FROM kw_t WHERE id = 31")
    const inserting = waitsForLock(env.server, () => b.execute("INSERT INTO kw_t VALUES (31, 'new')"))
    expect(await inserting.waiting).toBe(true)
    await a.rollback()
    expect(oraCode(await failure(() => inserting.result))).toBe("ORA-00001")
    await b.rollback()
    expect((await a.execute("SELECT v FROM kw_t WHERE id = 31")).rows).toEqual([["old"]])
  })

  it("an executeMany (bulk path) of a key another transaction deleted without committing waits, then goes ahead after its commit", async () => {
    await a.execute("INSERT INTO kw_t VALUES (40, 'old')")
    await a.commit()
    await a.execute("DELETE FROM kw_t WHERE id = 40")
    const rows = Array.from({ length: 100 }, (_, i) => [i === 50 ? 40 : 200 + i, "many"])
    const many = waitsForLock(env.server, () => b.executeMany("INSERT INTO kw_t VALUES (:1, :2)", rows))
    expect(await many.waiting).toBe(true)
    await a.commit()
    expect((await many.result).rowsAffected).toBe(100)
    await b.commit()
    expect((await a.execute("SELECT v FROM kw_t WHERE id = 40")).rows).toEqual([["many"]])
  })

  it("an executeMany whose rows arrive in a large request waits for a key another transaction inserted", async () => {
    // enough rows that the server decodes them while the request arrives (bulk-receive.ts) and appends them
    const rows = Array.from({ length: 5000 }, (_, i) => [1000 + i, "m"])
    await a.execute("INSERT INTO kw_t VALUES (5999, 'a')")
    const many = waitsForLock(env.server, () => b.executeMany("INSERT INTO kw_t VALUES (:1, :2)", rows))
    expect(await many.waiting).toBe(true)
    await a.commit()
    const err = await failure(() => many.result)
    expect(oraCode(err)).toBe("ORA-00001")
    await b.rollback()
    expect(await count("id >= 1000 AND id < 6000")).toBe(1)
  })

  it("a disabled primary key or unique constraint does not make an INSERT of a key another transaction inserted wait", async () => {
    // a disabled constraint is not enforced (SQL Language Reference, ALTER TABLE, "constraint_state": DISABLE), so
    // there is no unique index entry to lock and both rows go in
    await a.execute("INSERT INTO kw_off VALUES (1, 1, 'a')")
    const inserting = waitsForLock(env.server, () => b.execute("INSERT INTO kw_off VALUES (1, 1, 'b')"))
    expect(await inserting.waiting).toBe(false)
    expect((await inserting.result).rowsAffected).toBe(1)
    await b.commit()
    await a.commit()
    expect((await a.execute("SELECT v FROM kw_off WHERE id = 1 ORDER BY v")).rows).toEqual([["a"], ["b"]])
  })
})
