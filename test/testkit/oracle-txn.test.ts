import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, oracledb, waitsForLock, withServer } from "./oracle/helpers.ts"

for (const version of ["23ai", "19c"] as const)
describe(`Oracle test server: transactions and executeMany (${version} layout)`, () => {
  let server: OracleTestServerHandle
  let a: Conn
  let b: Conn
  beforeAll(async () => {
    const s = await withServer({ version })
    server = s.server
    a = await s.connect()
    b = await s.connect()
    await a.execute("CREATE TABLE acct (id NUMBER(10) PRIMARY KEY, owner VARCHAR2(20) NOT NULL, balance NUMBER(12,2))")
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await server?.close()
  })

  it("isolates uncommitted rows, commits and rolls back", async () => {
    await a.execute("INSERT INTO acct VALUES (1, 'ann', 10.5)")
    expect(a.transactionInProgress).toBe(true)
    expect((await b.execute("SELECT COUNT(*) FROM acct")).rows).toEqual([[0]])
    await a.commit()
    expect(a.transactionInProgress).toBe(false)
    expect((await b.execute("SELECT owner, balance FROM acct")).rows).toEqual([["ann", 10.5]])
    await a.execute("UPDATE acct SET balance = balance + 1 WHERE id = 1")
    await a.rollback()
    expect((await a.execute("SELECT balance FROM acct")).rows).toEqual([[10.5]])
    const r = await a.execute("INSERT INTO acct VALUES (2, 'bob', 0)", [], { autoCommit: true })
    expect(r.rowsAffected).toBe(1)
    expect((await b.execute("SELECT COUNT(*) FROM acct")).rows).toEqual([[2]])
  })

  it("makes a conflicting writer wait for the other transaction's row, then write; a break ends the wait with ORA-01013", async () => {
    await a.execute("CREATE TABLE conflict_t (id NUMBER PRIMARY KEY, v NUMBER)")
    await a.execute("INSERT INTO conflict_t VALUES (1, 0)", [], { autoCommit: true })
    await a.execute("UPDATE conflict_t SET v = 1 WHERE id = 1")
    const update = waitsForLock(server, () => b.execute("UPDATE conflict_t SET v = v + 10 WHERE id = 1"))
    expect(await update.waiting).toBe(true)
    await a.commit()
    expect((await update.result).rowsAffected).toBe(1)
    await b.commit()
    // the waiter wrote on top of the committed value, as after Oracle's row-lock wait
    expect((await a.execute("SELECT v FROM conflict_t")).rows).toEqual([[11]])
    // a waiting statement cancelled by a break gets ORA-01013 and leaves its session usable
    await a.execute("UPDATE conflict_t SET v = 100 WHERE id = 1")
    const cancelled = waitsForLock(server, () => b.execute("UPDATE conflict_t SET v = 200 WHERE id = 1"))
    expect(await cancelled.waiting).toBe(true)
    await b.break()
    expect(oraCode(await failure(() => cancelled.result))).toBe("ORA-01013")
    await a.commit()
    expect((await b.execute("SELECT v FROM conflict_t")).rows).toEqual([[100]])
    await b.rollback()
  })

  // for_update_clause (SQL Language Reference, SELECT): the selected rows are locked until the transaction ends; other
  // writers wait, NOWAIT returns ORA-00054 at once, WAIT n waits n seconds (ORA-30006).
  // https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/SELECT.html
  it("locks the rows SELECT ... FOR UPDATE returns: writers and other FOR UPDATE wait, NOWAIT gets ORA-00054, a break ORA-01013", async () => {
    await a.execute("CREATE TABLE fu_t (id NUMBER PRIMARY KEY, v NUMBER)")
    await a.execute("INSERT INTO fu_t VALUES (1, 0)", [], { autoCommit: true })
    await a.execute("INSERT INTO fu_t VALUES (2, 0)", [], { autoCommit: true })
    // describing the statement (parse only) locks nothing
    await b.getStatementInfo("SELECT id, v FROM fu_t FOR UPDATE")
    expect(b.transactionInProgress).toBe(false)
    const locked = await a.execute("SELECT id, v FROM fu_t WHERE id = :1 FOR UPDATE", [1])
    expect(locked.rows).toEqual([[1, 0]])
    expect(a.transactionInProgress).toBe(true)
    // a row the query did not select stays free
    expect((await b.execute("UPDATE fu_t SET v = 5 WHERE id = 2")).rowsAffected).toBe(1)
    await b.commit()
    const waiting = waitsForLock(server, () => b.execute("UPDATE fu_t SET v = v + 10 WHERE id = 1"))
    expect(await waiting.waiting).toBe(true)
    await a.execute("UPDATE fu_t SET v = 1 WHERE id = 1")
    await a.commit()
    expect((await waiting.result).rowsAffected).toBe(1)
    await b.commit()
    expect((await a.execute("SELECT v FROM fu_t ORDER BY id")).rows).toEqual([[11], [5]])
    // NOWAIT on a locked row fails at once; without NOWAIT a second FOR UPDATE waits and a break ends it
    await a.execute("SELECT * FROM fu_t t WHERE t.id = 1 FOR UPDATE")
    const waitsBeforeNowait = server.stats.lockWaits
    expect(oraCode(await failure(() => b.execute("SELECT * FROM fu_t WHERE id = 1 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    expect(server.stats.lockWaits).toBe(waitsBeforeNowait)
    const second = waitsForLock(server, () => b.execute("SELECT v FROM fu_t WHERE id = 1 FOR UPDATE"))
    expect(await second.waiting).toBe(true)
    await b.break()
    expect(oraCode(await failure(() => second.result))).toBe("ORA-01013")
    // WAIT n waits, then gives up after n seconds with ORA-30006
    const t0 = Date.now()
    const bounded = waitsForLock(server, () => b.execute("SELECT v FROM fu_t WHERE id = 1 FOR UPDATE WAIT 1"))
    expect(await bounded.waiting).toBe(true)
    expect(oraCode(await failure(() => bounded.result))).toBe("ORA-30006")
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950)
    // a DELETE of a locked row waits too, and deletes once the lock holder rolled back
    const deleting = waitsForLock(server, () => b.execute("DELETE FROM fu_t WHERE id = 1"))
    expect(await deleting.waiting).toBe(true)
    await a.rollback()
    expect((await deleting.result).rowsAffected).toBe(1)
    await b.rollback()
    // once the lock holder ended its transaction, FOR UPDATE succeeds
    expect((await b.execute("SELECT v FROM fu_t WHERE id = 1 FOR UPDATE NOWAIT")).rows).toEqual([[11]])
    await b.rollback()
  })

  it("locks the rows of every joined table with FOR UPDATE, and only the OF columns' tables with FOR UPDATE OF", async () => {
    await a.execute("CREATE TABLE fu_p (id NUMBER PRIMARY KEY, name VARCHAR2(10))")
    await a.execute("CREATE TABLE fu_c (id NUMBER PRIMARY KEY, pid NUMBER, v NUMBER)")
    await a.execute("INSERT INTO fu_p VALUES (1, 'p')")
    await a.execute("INSERT INTO fu_c VALUES (10, 1, 0)")
    await a.commit()
    const nowait = (sql: string) => failure(() => b.execute(sql)).then(oraCode, () => "no error")
    await a.execute("SELECT c.v FROM fu_c c JOIN fu_p p ON c.pid = p.id WHERE c.id = 10 FOR UPDATE OF c.v")
    expect(await nowait("SELECT id FROM fu_c WHERE id = 10 FOR UPDATE NOWAIT")).toBe("ORA-00054")
    expect((await b.execute("SELECT id FROM fu_p WHERE id = 1 FOR UPDATE NOWAIT")).rows).toEqual([[1]])
    await b.rollback()
    await a.rollback()
    await a.execute("SELECT c.v, p.name FROM fu_c c, fu_p p WHERE c.pid = p.id FOR UPDATE")
    expect(await nowait("SELECT id FROM fu_c WHERE id = 10 FOR UPDATE NOWAIT")).toBe("ORA-00054")
    expect(await nowait("SELECT id FROM fu_p WHERE id = 1 FOR UPDATE NOWAIT")).toBe("ORA-00054")
    await a.rollback()
    expect((await b.execute("SELECT id FROM fu_p WHERE id = 1 FOR UPDATE NOWAIT")).rows).toEqual([[1]])
    await b.rollback()
  })

  // An insert of a key another open transaction inserted waits for that transaction's row lock; then ORA-00001 when it
  // committed, or the insert goes ahead when it rolled back (Database Concepts, Data Concurrency and Consistency).
  it("makes an insert of a key another transaction inserted wait, then raise ORA-00001 after its commit (keeping the waiter's transaction)", async () => {
    await a.execute("CREATE TABLE dupkey_t (id NUMBER PRIMARY KEY, code VARCHAR2(10) UNIQUE, v NUMBER)")
    await b.execute("INSERT INTO dupkey_t VALUES (100, 'b-own', 0)")
    await a.execute("INSERT INTO dupkey_t VALUES (1, 'one', 0)")
    const waiting = waitsForLock(server, () => b.execute("INSERT INTO dupkey_t VALUES (1, 'uno', 1)"))
    expect(await waiting.waiting).toBe(true)
    await a.commit()
    const err = await failure(() => waiting.result)
    expect(oraCode(err)).toBe("ORA-00001")
    expect(String(err)).toMatch(/unique constraint \(\w+\.SYS_C\d+\) violated|unique constraint \(\w+\.\w+\) violated/)
    // only the statement failed: B's earlier row is still there and commits
    expect(b.transactionInProgress).toBe(true)
    await b.commit()
    expect((await a.execute("SELECT id, code FROM dupkey_t ORDER BY id")).rows).toEqual([[1, "one"], [100, "b-own"]])
    // a unique (not primary) key waits the same way
    await a.execute("INSERT INTO dupkey_t VALUES (2, 'two', 0)")
    const second = waitsForLock(server, () => b.execute("INSERT INTO dupkey_t VALUES (3, 'two', 0)"))
    expect(await second.waiting).toBe(true)
    await a.commit()
    expect(oraCode(await failure(() => second.result))).toBe("ORA-00001")
    await b.rollback()
  })

  it("lets a waiting insert of the same key go ahead when the other transaction rolls back (single rows and executeMany)", async () => {
    await a.execute("CREATE TABLE dupkey_r (id NUMBER PRIMARY KEY, v NUMBER)")
    await a.execute("INSERT INTO dupkey_r VALUES (1, 0)")
    const waiting = waitsForLock(server, () => b.execute("INSERT INTO dupkey_r VALUES (1, 1)"))
    expect(await waiting.waiting).toBe(true)
    await a.rollback()
    expect((await waiting.result).rowsAffected).toBe(1)
    await b.commit()
    // executeMany (bulk path) waits for a key inside its batch too, and commits without ORA-00001 after a rollback
    await a.execute("INSERT INTO dupkey_r VALUES (50, 0)")
    const rows = Array.from({ length: 100 }, (_, i) => [i + 10, i])
    const many = waitsForLock(server, () => b.executeMany("INSERT INTO dupkey_r VALUES (:1, :2)", rows))
    expect(await many.waiting).toBe(true)
    await a.rollback()
    expect((await many.result).rowsAffected).toBe(100)
    await b.commit()
    expect((await a.execute("SELECT COUNT(*), MAX(v) FROM dupkey_r")).rows).toEqual([[101, 99]])
    // and raises ORA-00001 when the other transaction commits
    await a.execute("INSERT INTO dupkey_r VALUES (500, 0)", [], {})
    const clash = waitsForLock(server, () => b.executeMany("INSERT INTO dupkey_r VALUES (:1, :2)", [[499, 0], [500, 0]]))
    expect(await clash.waiting).toBe(true)
    await a.commit()
    expect(oraCode(await failure(() => clash.result))).toBe("ORA-00001")
    await b.rollback()
    expect((await b.execute("SELECT COUNT(*) FROM dupkey_r WHERE id IN (499, 500)")).rows).toEqual([[1]])
  })

  it("rolls back to savepoints", async () => {
    await a.execute("INSERT INTO acct VALUES (50, 'sp1', 1)")
    await a.execute("SAVEPOINT first_sp")
    await a.execute("INSERT INTO acct VALUES (51, 'sp2', 1)")
    await a.execute("SAVEPOINT second_sp")
    await a.execute("INSERT INTO acct VALUES (52, 'sp3', 1)")
    await a.execute("ROLLBACK TO SAVEPOINT second_sp")
    expect((await a.execute("SELECT id FROM acct WHERE id >= 50 ORDER BY id")).rows).toEqual([[50], [51]])
    await a.execute("ROLLBACK TO first_sp")
    expect((await a.execute("SELECT id FROM acct WHERE id >= 50 ORDER BY id")).rows).toEqual([[50]])
    expect(oraCode(await failure(() => a.execute("ROLLBACK TO SAVEPOINT second_sp")))).toBe("ORA-01086")
    await a.commit()
    expect((await b.execute("SELECT id FROM acct WHERE id >= 50 ORDER BY id")).rows).toEqual([[50]])
  })

  it("commits implicitly before DDL", async () => {
    await a.execute("INSERT INTO acct VALUES (3, 'cy', 1)")
    await a.execute("CREATE TABLE ddl_marker (x NUMBER)")
    expect(a.transactionInProgress).toBe(false)
    expect((await b.execute("SELECT COUNT(*) FROM acct WHERE id = 3")).rows).toEqual([[1]])
  })

  it("runs executeMany with bindDefs, reports dmlRowCounts, and updates with binds", async () => {
    const rows = Array.from({ length: 500 }, (_, i) => [100 + i, `user${i}`, i * 1.25])
    const r = await a.executeMany("INSERT INTO acct (id, owner, balance) VALUES (:1, :2, :3)", rows, {
      bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.STRING, maxSize: 20 }, { type: oracledb.NUMBER }],
      dmlRowCounts: true
    })
    expect(r.rowsAffected).toBe(500)
    expect(r.dmlRowCounts).toEqual(Array.from({ length: 500 }, () => 1))
    const u = await a.executeMany("UPDATE acct SET balance = :b WHERE id >= :lo AND id < :hi", [
      { b: 1, lo: 100, hi: 110 },
      { b: 2, lo: 110, hi: 115 },
      { b: 3, lo: 9000, hi: 9001 }
    ], { dmlRowCounts: true })
    expect(u.dmlRowCounts).toEqual([10, 5, 0])
    await a.commit()
    expect((await b.execute("SELECT COUNT(*), SUM(balance) FROM acct WHERE id >= 100 AND id < 115")).rows).toEqual([[15, 20]])
  })

  it("re-executes the same executeMany statement (cached cursor, large requests decoded while arriving)", async () => {
    await a.execute("CREATE TABLE again_t (id NUMBER(10), s VARCHAR2(30), d TIMESTAMP)")
    let total = 0
    for (let k = 0; k < 3; k++) {
      const rows = Array.from({ length: 30_000 }, (_, i) => [k * 30_000 + i, `row ${i}`, new Date(Date.UTC(2024, 0, 1, 0, 0, i % 60))])
      const r = await a.executeMany("INSERT INTO again_t VALUES (:1, :2, :3)", rows, { dmlRowCounts: k === 0 })
      total += r.rowsAffected
      if (k === 0) expect(r.dmlRowCounts.length).toBe(30_000)
    }
    expect(total).toBe(90_000)
    expect((await a.execute("SELECT COUNT(DISTINCT id), MIN(id), MAX(id) FROM again_t")).rows).toEqual([[90_000, 0, 89_999]])
    await a.rollback()
  })

  it("reports batch errors with offsets and keeps the good rows", async () => {
    const r = await a.executeMany(
      "INSERT INTO acct (id, owner) VALUES (:1, :2)",
      [[1000, "ok1"], [1, "duplicate"], [1001, null], [1002, "ok2"], [1003, "x".repeat(21)]],
      { batchErrors: true, dmlRowCounts: true, bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.STRING, maxSize: 30 }] }
    )
    expect(r.batchErrors.map((e: any) => [e.offset, oraCode(e)])).toEqual([[1, "ORA-00001"], [2, "ORA-01400"], [4, "ORA-12899"]])
    expect(r.dmlRowCounts).toEqual([1, 0, 0, 1, 0])
    expect((await a.execute("SELECT id FROM acct WHERE id >= 1000 ORDER BY id")).rows).toEqual([[1000], [1002]])
    await a.rollback()
  })

  it("fails executeMany without batchErrors at the offending row", async () => {
    const e = await failure(() => a.executeMany("INSERT INTO acct (id, owner) VALUES (:1, :2)", [[2000, "x"], [2000, "y"]]))
    expect(oraCode(e)).toBe("ORA-00001")
    await a.rollback()
  })

  it("stops a large executeMany at the failing row and keeps the rows before it, like Oracle", async () => {
    await a.execute("CREATE TABLE uniq_t (id NUMBER(10) PRIMARY KEY, v VARCHAR2(20))")
    const rows = Array.from({ length: 80_000 }, (_, i) => [i === 60_000 ? 10 : i, `v${i}`])
    const e = await failure(() => a.executeMany("INSERT INTO uniq_t VALUES (:1, :2)", rows, { bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.STRING, maxSize: 20 }] }))
    expect(oraCode(e)).toBe("ORA-00001")
    expect((await a.execute("SELECT COUNT(*), MAX(id) FROM uniq_t")).rows).toEqual([[60_000, 59_999]])
    await a.rollback()
    expect((await a.execute("SELECT COUNT(*) FROM uniq_t")).rows).toEqual([[0]])
  })

  it("loads rows with connection.directPathLoad (prepare, stream, finish; commits)", async () => {
    await a.execute(
      "CREATE TABLE dp (id NUMBER(10) NOT NULL, name VARCHAR2(40), amount NUMBER(12,2), d DATE, ts TIMESTAMP, nv NVARCHAR2(20), c CLOB, b BLOB, bd BINARY_DOUBLE)"
    )
    const rows = Array.from({ length: 3000 }, (_, i) => [
      i,
      i === 7 ? null : `name ${i}`,
      i / 4,
      new Date(2024, 0, 1 + (i % 28)),
      new Date(2024, 0, 1, 0, 0, i % 60),
      `ü${i}`,
      i === 3 ? "x".repeat(100_000) : `clob ${i}`,
      Buffer.from([i % 256]),
      i * 0.5
    ])
    await a.directPathLoad(server.user, "DP", ["ID", "NAME", "AMOUNT", "D", "TS", "NV", "C", "B", "BD"], rows)
    expect((await b.execute("SELECT COUNT(*), SUM(amount), MAX(LENGTH(c)), COUNT(name) FROM dp")).rows).toEqual([[3000, 1124625, 100_000, 2999]])
    const one = await b.execute("SELECT * FROM dp WHERE id = 5", [], { fetchInfo: { C: { type: oracledb.STRING }, B: { type: oracledb.BUFFER } } })
    expect(one.rows).toEqual([[5, "name 5", 1.25, new Date(2024, 0, 6), new Date(2024, 0, 1, 0, 0, 5), "ü5", "clob 5", Buffer.from([5]), 2.5]])
    const e = await failure(() => a.directPathLoad(server.user, "NO_SUCH_TABLE", ["X"], [[1]]))
    expect(oraCode(e)).toBe("ORA-00942")
  })

  it("loads the scalar types column-wise with directPathLoad (exact values, NULLs) and loads nothing when a value is refused", async () => {
    await a.execute(
      "CREATE TABLE dp_fast (id NUMBER(10) NOT NULL, amount NUMBER(18,2), ratio BINARY_DOUBLE, day DATE, ts TIMESTAMP, name VARCHAR2(12), nv NVARCHAR2(8), flag NUMBER(1), r RAW(4))"
    )
    const day0 = Date.UTC(2020, 0, 1)
    const rows = Array.from({ length: 5000 }, (_, i) => [
      i,
      i % 10 === 0 ? null : (i - 2000) / 100,
      i === 1 ? -0.1 : i * 1.5,
      new Date(day0 + (i % 1000) * 86_400_000),
      new Date(day0 + i * 1000 + 123),
      i % 7 === 0 ? null : `name_${i}`,
      `ü${i}`,
      i % 2,
      Buffer.from([i % 256, 1])
    ])
    await a.directPathLoad(server.user, "DP_FAST", ["ID", "AMOUNT", "RATIO", "DAY", "TS", "NAME", "NV", "FLAG", "R"], rows)
    const back = await b.execute("SELECT id, amount, ratio, day, ts, name, nv, flag, r FROM dp_fast ORDER BY id")
    expect(back.rows).toEqual(rows)
    // a number too large for NUMBER(1) (the client checks NULLs and lengths itself) fails the load with ORA-01438 and
    // loads none of its rows
    const bad = rows.slice(0, 10).map((r, i) => [10_000 + i, ...r.slice(1, 7), i === 6 ? 12 : r[7], r[8]])
    expect(oraCode(await failure(() => a.directPathLoad(server.user, "DP_FAST", ["ID", "AMOUNT", "RATIO", "DAY", "TS", "NAME", "NV", "FLAG", "R"], bad)))).toBe("ORA-01438")
    expect((await b.execute("SELECT COUNT(*) FROM dp_fast")).rows).toEqual([[5000]])
  })

  it("inserts 100k rows through executeMany in one request (bulk path)", async () => {
    await a.execute("CREATE TABLE bulk_t (id NUMBER(10), name VARCHAR2(40), amount NUMBER, created DATE)")
    const when = new Date(2024, 5, 1, 12, 0, 0)
    const rows = Array.from({ length: 100_000 }, (_, i) => [i, `name ${i}`, i / 4, when])
    const insertedBefore = server.stats.insertRows
    const callsBefore = server.stats.insertCalls
    const r = await a.executeMany("INSERT INTO bulk_t VALUES (:1, :2, :3, :4)", rows, {
      bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.STRING, maxSize: 40 }, { type: oracledb.NUMBER }, { type: oracledb.DATE }]
    })
    expect(r.rowsAffected).toBe(100_000)
    // the server took them as one batch execution (its bulk path counts them), not row by row; its speed is the
    // oracle-server benchmark's business, not a test's
    expect(server.stats.insertRows - insertedBefore).toBe(100_000)
    expect(server.stats.insertCalls - callsBefore).toBe(1)
    // a single-row execute is no batch execution
    await a.execute("INSERT INTO bulk_t VALUES (:1, :2, :3, :4)", [100_000, "one more", 1, when])
    expect(server.stats.insertCalls - callsBefore).toBe(1)
    await a.execute("DELETE FROM bulk_t WHERE id = 100000")
    await a.commit()
    const check = await b.execute("SELECT COUNT(*), MAX(id), SUM(amount), MIN(created) FROM bulk_t")
    expect(check.rows[0].slice(0, 3)).toEqual([100_000, 99_999, 1249987500 / 1])
    expect(check.rows[0][3]).toEqual(when)
  })
})

describe("Oracle test server: bounded row-lock wait", () => {
  it("fails a writer that waited lockWaitMs for another transaction's row with ORA-30006, and leaves the table as it was", async () => {
    const { server, connect } = await withServer({ lockWaitMs: 400 })
    try {
      const a = await connect()
      const b = await connect()
      await a.execute("CREATE TABLE locked (id NUMBER PRIMARY KEY, v NUMBER)")
      await a.execute("INSERT INTO locked VALUES (1, 0)", [], { autoCommit: true })
      await a.execute("UPDATE locked SET v = 1 WHERE id = 1")
      const started = Date.now()
      const update = waitsForLock(server, () => b.execute("UPDATE locked SET v = 2 WHERE id = 1"))
      expect(await update.waiting).toBe(true)
      expect(oraCode(await failure(() => update.result))).toBe("ORA-30006")
      expect(Date.now() - started).toBeGreaterThanOrEqual(390)
      await a.rollback()
      expect((await b.execute("SELECT v FROM locked")).rows).toEqual([[0]])
      await a.close()
      await b.close()
    } finally {
      await server.close()
    }
  })
})
