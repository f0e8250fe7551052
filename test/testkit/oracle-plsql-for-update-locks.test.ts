import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, oraCode, waitsForLock, withServer } from "./oracle/helpers.ts"

// PL/SQL's `SELECT ... INTO ... FOR UPDATE` and cursors declared `FOR UPDATE` lock rows as a client's query does:
// "When you declare a cursor with a FOR UPDATE clause, the database locks all rows in the result set when you open
// the cursor; the rows stay locked until you commit or roll back" (PL/SQL Language Reference, "SELECT FOR UPDATE and
// FOR UPDATE Cursors": https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/static-sql.html), with
// NOWAIT, WAIT n, SKIP LOCKED and OF as the SQL Language Reference's for_update_clause describes them (SELECT). Every
// test sets the rows it uses apart; a wait is observed on the server's lock-wait counter, not by sleeping. The server's
// lock-wait limit is far above the test timeout, so a wait that never ends fails the test.
describe("Oracle test server: row locks of PL/SQL SELECT ... FOR UPDATE and FOR UPDATE cursors", () => {
  let server: OracleTestServerHandle
  let a: Conn
  let b: Conn
  beforeAll(async () => {
    const s = await withServer({ lockWaitMs: 60_000 })
    server = s.server
    a = await s.connect()
    b = await s.connect()
    await a.execute("CREATE TABLE pl_acct (id NUMBER PRIMARY KEY, grp NUMBER, bal NUMBER)")
    await a.executeMany("INSERT INTO pl_acct VALUES (:1, :2, 100)", [[1, 1], [2, 1], [3, 2], [4, 2], [5, 3], [6, 3], [7, 4], [8, 4], [9, 5], [10, 5], [11, 6], [12, 6], [13, 7], [14, 7], [15, 8], [16, 8]], { autoCommit: true })
    await a.execute("CREATE TABLE pl_grp (grp NUMBER PRIMARY KEY, name VARCHAR2(10))")
    await a.executeMany("INSERT INTO pl_grp VALUES (:1, :2)", [[1, "one"], [2, "two"], [3, "three"], [4, "four"], [5, "five"], [6, "six"], [7, "seven"], [8, "eight"]], { autoCommit: true })
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await server?.close()
  })

  const nowait = (conn: Conn, id: number, table = "pl_acct", key = "id") => conn.execute(`SELECT ${key} FROM ${table} WHERE ${key} = ${id} FOR UPDATE NOWAIT`)

  it("SELECT INTO ... FOR UPDATE locks the row until COMMIT: another session's UPDATE waits, its NOWAIT fails (was: no lock taken)", async () => {
    await a.execute("DECLARE v NUMBER; BEGIN SELECT bal INTO v FROM pl_acct WHERE id = 1 FOR UPDATE; END;")
    expect(oraCode(await failure(() => nowait(b, 1)))).toBe("ORA-00054")
    // the other row stays free
    expect((await nowait(b, 2)).rows).toEqual([[2]])
    await b.rollback()
    const update = waitsForLock(server, () => b.execute("UPDATE pl_acct SET bal = bal + 1 WHERE id = 1"))
    expect(await update.waiting).toBe(true)
    await a.execute("BEGIN UPDATE pl_acct SET bal = bal - 10 WHERE id = 1; COMMIT; END;")
    expect((await update.result).rowsAffected).toBe(1)
    await b.commit()
    expect((await a.execute("SELECT bal FROM pl_acct WHERE id = 1")).rows).toEqual([[91]])
  })

  it("an explicit cursor FOR UPDATE locks every row of its result at OPEN, before any FETCH, until ROLLBACK (was: no lock taken)", async () => {
    await a.execute("DECLARE CURSOR c IS SELECT id FROM pl_acct WHERE grp = 2 FOR UPDATE; BEGIN OPEN c; CLOSE c; END;")
    expect(oraCode(await failure(() => nowait(b, 3)))).toBe("ORA-00054")
    expect(oraCode(await failure(() => nowait(b, 4)))).toBe("ORA-00054")
    const del = waitsForLock(server, () => b.execute("DELETE FROM pl_acct WHERE id = 4"))
    expect(await del.waiting).toBe(true)
    await a.rollback()
    expect((await del.result).rowsAffected).toBe(1)
    await b.rollback()
    expect((await nowait(a, 3)).rows).toEqual([[3]])
    await a.rollback()
  })

  it("a cursor FOR loop FOR UPDATE with WHERE CURRENT OF holds the rows it left alone too (was: no lock taken)", async () => {
    await a.execute(`DECLARE CURSOR c IS SELECT id, bal FROM pl_acct WHERE grp = 3 FOR UPDATE OF bal;
BEGIN
  FOR r IN c LOOP
    IF r.id = 5 THEN UPDATE pl_acct SET bal = r.bal * 2 WHERE CURRENT OF c; END IF;
  END LOOP;
END;`)
    const update = waitsForLock(server, () => b.execute("UPDATE pl_acct SET bal = 0 WHERE id = 6"))
    expect(await update.waiting).toBe(true)
    await a.commit()
    expect((await update.result).rowsAffected).toBe(1)
    await b.commit()
    expect((await a.execute("SELECT id, bal FROM pl_acct WHERE grp = 3 ORDER BY id")).rows).toEqual([[5, 200], [6, 0]])
  })

  it("an implicit cursor FOR loop, OPEN FOR of a cursor variable and BULK COLLECT lock their rows (was: no lock taken)", async () => {
    await a.execute("BEGIN FOR r IN (SELECT id FROM pl_acct WHERE id = 7 FOR UPDATE) LOOP NULL; END LOOP; END;")
    await a.execute("DECLARE c SYS_REFCURSOR; BEGIN OPEN c FOR SELECT id FROM pl_acct WHERE id = 8 FOR UPDATE; CLOSE c; END;")
    await a.execute("DECLARE TYPE ids_t IS TABLE OF NUMBER; ids ids_t; BEGIN SELECT id BULK COLLECT INTO ids FROM pl_acct WHERE id = 9 FOR UPDATE; END;")
    for (const id of [7, 8, 9]) expect(oraCode(await failure(() => nowait(b, id)))).toBe("ORA-00054")
    await a.rollback()
    for (const id of [7, 8, 9]) expect((await nowait(b, id)).rows).toEqual([[id]])
    await b.rollback()
  })

  it("NOWAIT in a block fails with ORA-00054, a handler sees SQLCODE -54, and WAIT n ends with ORA-30006", async () => {
    await b.execute("SELECT id FROM pl_acct WHERE id = 10 FOR UPDATE")
    const caught = await a.execute("DECLARE v NUMBER; BEGIN SELECT bal INTO v FROM pl_acct WHERE id = 10 FOR UPDATE NOWAIT; :code := 0; EXCEPTION WHEN OTHERS THEN :code := SQLCODE; END;", { code: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect(caught.outBinds).toEqual({ code: -54 })
    expect(oraCode(await failure(() => a.execute("DECLARE CURSOR c IS SELECT id FROM pl_acct WHERE grp = 5 FOR UPDATE NOWAIT; BEGIN OPEN c; END;")))).toBe("ORA-00054")
    const timed = waitsForLock(server, () => a.execute("DECLARE CURSOR c IS SELECT id FROM pl_acct WHERE id = 10 FOR UPDATE WAIT 1; BEGIN OPEN c; END;"))
    expect(await timed.waiting).toBe(true)
    expect(oraCode(await failure(() => timed.result))).toBe("ORA-30006")
    // nothing of grp 5 was locked by the failed OPENs: row 9 is free
    expect((await nowait(b, 9)).rows).toEqual([[9]])
    await b.rollback()
    await a.rollback()
  })

  it("SKIP LOCKED in a cursor skips the rows another transaction holds and locks the rest (was: every row, none locked)", async () => {
    await b.execute("SELECT id FROM pl_acct WHERE id = 11 FOR UPDATE")
    const r = await a.execute(
      `DECLARE CURSOR c IS SELECT id FROM pl_acct WHERE grp = 6 ORDER BY id FOR UPDATE SKIP LOCKED; TYPE ids_t IS TABLE OF NUMBER; ids ids_t;
BEGIN OPEN c; FETCH c BULK COLLECT INTO ids; CLOSE c; :n := ids.COUNT; :first := ids(1); END;`,
      { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }, first: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    )
    expect(r.outBinds).toEqual({ n: 1, first: 12 })
    await b.rollback()
    expect(oraCode(await failure(() => nowait(b, 12)))).toBe("ORA-00054")
    expect((await nowait(b, 11)).rows).toEqual([[11]])
    await b.rollback()
    await a.rollback()
  })

  // SKIP LOCKED locks a cursor's rows as they are fetched, not at OPEN: the queue idiom `OPEN c; FETCH c INTO id;
  // CLOSE c;` takes one row, and the next worker's cursor gets the next one (Stack Overflow, "Force Oracle to return
  // TOP N rows with SKIP LOCKED", whose get_and_lock function returns 1 to the first session and 2 to the second; an
  // SQL trace shows no locking reads at OPEN: https://practical-sql-tuning.blogspot.com/2013/12)
  it("a SKIP LOCKED cursor locks the rows it fetches, not the whole result at OPEN: two workers take one row each (was: the first took all)", async () => {
    const take = `CREATE OR REPLACE FUNCTION pl_take_one RETURN NUMBER IS
  CURSOR c IS SELECT id FROM pl_acct WHERE grp = 4 ORDER BY id FOR UPDATE SKIP LOCKED;
  v NUMBER;
BEGIN
  OPEN c; FETCH c INTO v; CLOSE c;
  RETURN v;
END;`
    await a.execute(take)
    const one = async (conn: Conn) => (await conn.execute("BEGIN :v := pl_take_one; END;", { v: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })).outBinds.v
    expect(await one(a)).toBe(7)
    expect(await one(b)).toBe(8)
    // each holds its own row only
    expect(await one(a)).toBe(7)
    await a.rollback()
    expect(await one(a)).toBe(7)
    await b.rollback()
    // a cursor FOR loop that leaves early has locked only the rows it went through
    await b.execute("BEGIN FOR r IN (SELECT id FROM pl_acct WHERE grp = 7 ORDER BY id FOR UPDATE SKIP LOCKED) LOOP EXIT; END LOOP; END;")
    expect(oraCode(await failure(() => nowait(a, 13)))).toBe("ORA-00054")
    expect((await nowait(a, 14)).rows).toEqual([[14]])
    await a.rollback()
    await b.rollback()
    // over a join, a row whose locked table's row another transaction holds is skipped; WHERE CURRENT OF writes the fetched one
    await b.execute("SELECT id FROM pl_acct WHERE id = 13 FOR UPDATE")
    const r = await a.execute(
      `DECLARE CURSOR c IS SELECT a.id, g.name FROM pl_acct a JOIN pl_grp g ON g.grp = a.grp WHERE a.grp = 7 ORDER BY a.id FOR UPDATE OF a.bal SKIP LOCKED; r c%ROWTYPE;
BEGIN OPEN c; FETCH c INTO r; :id := r.id; CLOSE c; END;`,
      { id: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    )
    expect(r.outBinds).toEqual({ id: 14 })
    expect(oraCode(await failure(() => nowait(b, 14)))).toBe("ORA-00054")
    expect((await nowait(b, 7, "pl_grp", "grp")).rows).toEqual([[7]])
    await b.rollback()
    await a.execute("DECLARE CURSOR c IS SELECT id FROM pl_acct WHERE grp = 7 ORDER BY id FOR UPDATE SKIP LOCKED; v NUMBER; BEGIN OPEN c; FETCH c INTO v; UPDATE pl_acct SET bal = 7 WHERE CURRENT OF c; CLOSE c; END;")
    expect((await a.execute("SELECT id, bal FROM pl_acct WHERE grp = 7 ORDER BY id")).rows).toEqual([[13, 7], [14, 100]])
    await a.rollback()
  })

  it("FOR UPDATE OF a column of one joined table locks that table's rows only", async () => {
    await a.execute("DECLARE CURSOR c IS SELECT a.id, g.name FROM pl_acct a JOIN pl_grp g ON g.grp = a.grp WHERE a.id = 13 FOR UPDATE OF a.bal; BEGIN OPEN c; CLOSE c; END;")
    expect(oraCode(await failure(() => nowait(b, 13)))).toBe("ORA-00054")
    expect((await nowait(b, 7, "pl_grp", "grp")).rows).toEqual([[7]])
    await b.rollback()
    // without OF, both tables' rows
    await a.execute("DECLARE n VARCHAR2(10); BEGIN SELECT g.name INTO n FROM pl_acct a JOIN pl_grp g ON g.grp = a.grp WHERE a.id = 14 FOR UPDATE; END;")
    expect(oraCode(await failure(() => nowait(b, 14)))).toBe("ORA-00054")
    expect(oraCode(await failure(() => nowait(b, 7, "pl_grp", "grp")))).toBe("ORA-00054")
    await a.rollback()
  })

  it("a %ROWTYPE of a FOR UPDATE cursor takes no lock: only OPEN does", async () => {
    await a.execute("DECLARE CURSOR c IS SELECT * FROM pl_acct WHERE id = 15 FOR UPDATE; r c%ROWTYPE; BEGIN r.id := 1; END;")
    expect((await nowait(b, 15)).rows).toEqual([[15]])
    await b.rollback()
    await a.rollback()
  })

  it("a cycle through a block's FOR UPDATE wait fails with ORA-00060; the other block goes on once that transaction ends", async () => {
    await a.execute("DECLARE v NUMBER; BEGIN SELECT bal INTO v FROM pl_acct WHERE id = 15 FOR UPDATE; END;")
    await b.execute("SELECT id FROM pl_acct WHERE id = 16 FOR UPDATE")
    const aWaits = waitsForLock(server, () => a.execute("DECLARE CURSOR c IS SELECT id FROM pl_acct WHERE grp = 8 FOR UPDATE; BEGIN OPEN c; CLOSE c; END;"))
    expect(await aWaits.waiting).toBe(true)
    const e = await failure(() => b.execute("DECLARE v NUMBER; BEGIN SELECT bal INTO v FROM pl_acct WHERE id = 15 FOR UPDATE; END;"))
    expect(oraCode(e)).toBe("ORA-00060")
    await b.rollback()
    await aWaits.result
    expect(oraCode(await failure(() => nowait(b, 16)))).toBe("ORA-00054")
    await a.rollback()
  })

  it("a break ends a block's FOR UPDATE wait with ORA-01013 and leaves the session usable", async () => {
    await b.execute("SELECT id FROM pl_acct WHERE id = 2 FOR UPDATE")
    try {
      const call = waitsForLock(server, () => a.execute("DECLARE v NUMBER; BEGIN SELECT bal INTO v FROM pl_acct WHERE id = 2 FOR UPDATE; END;"))
      expect(await call.waiting).toBe(true)
      await a.breakExecution()
      expect(oraCode(await failure(() => call.result))).toBe("ORA-01013")
    } finally {
      await b.rollback()
    }
    expect((await a.execute("SELECT bal FROM pl_acct WHERE id = 2")).rows).toEqual([[100]])
    await a.execute("DECLARE v NUMBER; BEGIN SELECT bal INTO v FROM pl_acct WHERE id = 2 FOR UPDATE; END;")
    expect(oraCode(await failure(() => nowait(b, 2)))).toBe("ORA-00054")
    await a.rollback()
  })
})
