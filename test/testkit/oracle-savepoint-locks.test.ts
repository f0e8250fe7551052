import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, oraCode, waitsForLock, withSessions } from "./oracle/helpers.ts"

// ROLLBACK TO SAVEPOINT "releases all table and row locks acquired after the specified savepoint" and keeps those
// taken before it; "Other transactions that have requested access to rows locked after the specified savepoint must
// continue to wait until the transaction is either committed or rolled back. Other transactions that have not
// requested the rows can request and access the rows immediately" (2 Day Developer's Guide, "Rolling Back
// Transactions": https://docs.oracle.com/en/database/oracle/oracle-database/19/tdddg/rolling-back-transactions.html).
// A statement that fails is rolled back to the implicit savepoint marked before it (PL/SQL Language Reference,
// "ROLLBACK Statement"), which releases the locks it took.
describe("Oracle test server: a rollback to a savepoint releases the locks taken after it", () => {
  let env: Awaited<ReturnType<typeof withSessions>>
  let a: Conn
  let b: Conn
  let c: Conn
  beforeAll(async () => {
    env = await withSessions(3)
    ;[a, b, c] = env.sessions
    await a.execute("CREATE TABLE sl_t (id NUMBER PRIMARY KEY, v NUMBER)")
    await a.executeMany("INSERT INTO sl_t VALUES (:1, 0)", [[1], [2], [3], [4], [5], [6]])
    await a.execute("CREATE TABLE sl_k (id NUMBER PRIMARY KEY)")
    await a.execute("CREATE TABLE sl_x (id NUMBER)")
    await a.execute("CREATE TABLE sl_y (id NUMBER)")
    await a.commit()
  })
  afterAll(() => env?.close())

  const locked = async (s: Conn, id: number) => oraCode(await failure(() => s.execute(`SELECT v FROM sl_t WHERE id = ${id} FOR UPDATE NOWAIT`))) === "ORA-00054"
  const free = async (s: Conn, id: number) => ((await s.execute(`SELECT v FROM sl_t WHERE id = ${id} FOR UPDATE NOWAIT`)).rows as Array<unknown>).length === 1

  it("releases the rows written and locked FOR UPDATE after the savepoint, keeps those locked before it (also when locked again after it)", async () => {
    await a.execute("UPDATE sl_t SET v = 1 WHERE id = 1")
    await a.execute("SAVEPOINT s1")
    await a.execute("UPDATE sl_t SET v = 2 WHERE id IN (1, 2)")
    await a.execute("SELECT v FROM sl_t WHERE id = 3 FOR UPDATE")
    await a.execute("DELETE FROM sl_t WHERE id = 4")
    await a.execute("ROLLBACK TO SAVEPOINT s1")
    expect(await locked(b, 1)).toBe(true)
    expect(await free(b, 2)).toBe(true)
    expect(await free(b, 3)).toBe(true)
    expect(await free(b, 4)).toBe(true)
    await b.rollback()
    await a.rollback()
    expect(await free(b, 1)).toBe(true)
    await b.rollback()
  })

  it("a session already waiting for a row locked after the savepoint waits for the transaction's end; a new one takes the row at once", async () => {
    await a.execute("SAVEPOINT s2")
    await a.execute("UPDATE sl_t SET v = 9 WHERE id = 5")
    const updating = waitsForLock(env.server, () => b.execute("UPDATE sl_t SET v = v + 100 WHERE id = 5"))
    expect(await updating.waiting).toBe(true)
    await a.execute("ROLLBACK TO SAVEPOINT s2")
    // c never asked for the row: it gets it without waiting, and b (still enqueued on a's transaction) does not
    expect(await free(c, 5)).toBe(true)
    await c.execute("UPDATE sl_t SET v = 5 WHERE id = 5")
    await a.commit()
    // b now waits for c, which holds the row
    await c.commit()
    expect((await updating.result).rowsAffected).toBe(1)
    await b.commit()
    expect((await a.execute("SELECT v FROM sl_t WHERE id = 5")).rows).toEqual([[105]])
  })

  it("releases the keys inserted after the savepoint: a waiting INSERT keeps waiting, a new one goes ahead", async () => {
    await a.execute("INSERT INTO sl_k VALUES (1)")
    await a.execute("SAVEPOINT s3")
    await a.execute("INSERT INTO sl_k VALUES (2)")
    const inserting = waitsForLock(env.server, () => b.execute("INSERT INTO sl_k VALUES (2)"))
    expect(await inserting.waiting).toBe(true)
    await a.execute("ROLLBACK TO SAVEPOINT s3")
    // key 2 is free for a session that had not asked for it; key 1, inserted before the savepoint, stays claimed
    const two = waitsForLock(env.server, () => c.execute("INSERT INTO sl_k VALUES (2)"))
    expect(await two.waiting).toBe(false)
    expect((await two.result).rowsAffected).toBe(1)
    const one = waitsForLock(env.server, () => c.execute("INSERT INTO sl_k VALUES (1)"))
    expect(await one.waiting).toBe(true)
    await a.commit()
    expect(oraCode(await failure(() => one.result))).toBe("ORA-00001")
    await c.commit()
    // b waited for a's transaction, then for c's key 2: ORA-00001 after c's commit
    expect(oraCode(await failure(() => inserting.result))).toBe("ORA-00001")
    await b.rollback()
  })

  it("releases the table locks taken after the savepoint (waiting sessions go ahead), keeps the modes held before it", async () => {
    await a.execute("LOCK TABLE sl_y IN SHARE MODE")
    await a.execute("LOCK TABLE sl_x IN ROW SHARE MODE")
    await a.execute("SAVEPOINT s4")
    await a.execute("LOCK TABLE sl_x IN EXCLUSIVE MODE")
    await a.execute("LOCK TABLE sl_y IN EXCLUSIVE MODE")
    const inserting = waitsForLock(env.server, () => b.execute("INSERT INTO sl_x VALUES (1)"))
    expect(await inserting.waiting).toBe(true)
    await a.execute("ROLLBACK TO SAVEPOINT s4")
    expect((await inserting.result).rowsAffected).toBe(1)
    // ROW SHARE on sl_x and SHARE on sl_y, taken before the savepoint, are still held
    expect(oraCode(await failure(() => c.execute("LOCK TABLE sl_x IN EXCLUSIVE MODE NOWAIT")))).toBe("ORA-00054")
    expect(oraCode(await failure(() => c.execute("LOCK TABLE sl_y IN ROW EXCLUSIVE MODE NOWAIT")))).toBe("ORA-00054")
    await c.execute("LOCK TABLE sl_y IN SHARE MODE NOWAIT")
    await c.rollback()
    await b.rollback()
    await a.rollback()
  })

  it("a LOCK TABLE that fails on its second table releases its lock on the first", async () => {
    await b.execute("LOCK TABLE sl_y IN ROW EXCLUSIVE MODE")
    expect(oraCode(await failure(() => a.execute("LOCK TABLE sl_x, sl_y IN EXCLUSIVE MODE NOWAIT")))).toBe("ORA-00054")
    await c.execute("LOCK TABLE sl_x IN ROW EXCLUSIVE MODE NOWAIT")
    await c.rollback()
    await b.rollback()
    await a.rollback()
  })

  it("an INSERT that fails releases the table lock it took; the transaction's earlier locks stay", async () => {
    await a.execute("UPDATE sl_t SET v = 7 WHERE id = 6")
    expect(oraCode(await failure(() => a.execute("INSERT INTO sl_k VALUES (1)")))).toBe("ORA-00001")
    await c.execute("LOCK TABLE sl_k IN EXCLUSIVE MODE NOWAIT")
    await c.rollback()
    expect(oraCode(await failure(() => c.execute("LOCK TABLE sl_t IN EXCLUSIVE MODE NOWAIT")))).toBe("ORA-00054")
    expect(await locked(c, 6)).toBe(true)
    await c.rollback()
    await a.rollback()
  })

  it("a PL/SQL block that fails releases the rows it locked; a handled failure keeps the block's earlier locks", async () => {
    await a.execute("UPDATE sl_t SET v = 8 WHERE id = 6")
    expect(
      oraCode(
        await failure(() =>
          a.execute(`DECLARE n NUMBER; BEGIN
            SELECT v INTO n FROM sl_t WHERE id = 1 FOR UPDATE;
            UPDATE sl_t SET v = 3 WHERE id = 2;
            RAISE_APPLICATION_ERROR(-20001, 'no');
          END;`)
        )
      )
    ).toBe("ORA-20001")
    expect(await free(c, 1)).toBe(true)
    expect(await free(c, 2)).toBe(true)
    expect(await locked(c, 6)).toBe(true)
    await c.rollback()
    await a.execute(`DECLARE n NUMBER; BEGIN
      SELECT v INTO n FROM sl_t WHERE id = 1 FOR UPDATE;
      BEGIN
        INSERT INTO sl_k VALUES (1);
      EXCEPTION WHEN DUP_VAL_ON_INDEX THEN NULL;
      END;
    END;`)
    expect(await locked(c, 1)).toBe(true)
    // the failed INSERT's table lock went with it
    await c.execute("LOCK TABLE sl_k IN EXCLUSIVE MODE NOWAIT")
    await c.rollback()
    await a.rollback()
  })

  it("ROLLBACK TO a savepoint erases the savepoints set after it, also those set at the same point of the transaction", async () => {
    await a.execute("UPDATE sl_t SET v = 1 WHERE id = 1")
    await a.execute("SAVEPOINT s5")
    await a.execute("SAVEPOINT s6")
    await a.execute("SELECT v FROM sl_t WHERE id = 2 FOR UPDATE")
    await a.execute("ROLLBACK TO SAVEPOINT s5")
    expect(oraCode(await failure(() => a.execute("ROLLBACK TO SAVEPOINT s6")))).toBe("ORA-01086")
    expect(await free(c, 2)).toBe(true)
    expect(await locked(c, 1)).toBe(true)
    await c.rollback()
    await a.rollback()
  })

  it("an executeMany that fails on a later bind row keeps its table lock, as the rows it wrote before stay", async () => {
    await a.execute("ALTER TABLE sl_t ADD CONSTRAINT sl_t_small CHECK (v < 1000)")
    expect(oraCode(await failure(() => a.executeMany("UPDATE sl_t SET v = :1 WHERE id = :2", [[1, 1], [5000, 2]])))).toBe("ORA-02290")
    expect((await a.execute("SELECT v FROM sl_t WHERE id IN (1, 2) ORDER BY id")).rows).toEqual([[1], [0]])
    expect(oraCode(await failure(() => c.execute("LOCK TABLE sl_t IN EXCLUSIVE MODE NOWAIT")))).toBe("ORA-00054")
    await c.rollback()
    await a.rollback()
  })

  it("keeps DBMS_LOCK's user locks requested after the savepoint, also those released on commit", async () => {
    const status = async (s: Conn, call: string): Promise<number> =>
      ((await s.execute(`BEGIN :s := ${call}; END;`, { s: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })).outBinds as { s: number }).s
    await a.execute("UPDATE sl_t SET v = 2 WHERE id = 3")
    await a.execute("SAVEPOINT s7")
    expect(await status(a, "DBMS_LOCK.REQUEST(id => 71, lockmode => DBMS_LOCK.X_MODE, timeout => 0, release_on_commit => TRUE)")).toBe(0)
    expect(await status(a, "DBMS_LOCK.REQUEST(72, DBMS_LOCK.X_MODE, 0)")).toBe(0)
    await a.execute("ROLLBACK TO SAVEPOINT s7")
    expect(await status(c, "DBMS_LOCK.REQUEST(71, DBMS_LOCK.X_MODE, 0)")).toBe(1)
    expect(await status(c, "DBMS_LOCK.REQUEST(72, DBMS_LOCK.X_MODE, 0)")).toBe(1)
    await a.rollback()
    expect(await status(c, "DBMS_LOCK.REQUEST(71, DBMS_LOCK.X_MODE, 0)")).toBe(0)
    expect(await status(a, "DBMS_LOCK.RELEASE(72)")).toBe(0)
    expect(await status(c, "DBMS_LOCK.RELEASE(71)")).toBe(0)
  })

  it("a ROLLBACK TO SAVEPOINT inside a PL/SQL block releases the rows locked after it", async () => {
    await a.execute(`BEGIN
      UPDATE sl_t SET v = 1 WHERE id = 1;
      SAVEPOINT inner_sp;
      UPDATE sl_t SET v = 1 WHERE id = 2;
      ROLLBACK TO inner_sp;
    END;`)
    expect(await locked(c, 1)).toBe(true)
    expect(await free(c, 2)).toBe(true)
    await c.rollback()
    await a.rollback()
  })
})
