import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { call, closeQuietly, connect, exec, failure } from "./hana/client.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"
import { waitsForLock } from "../support/lockWaits.ts"
import { closeTwoClients, inTransactions as inBothTransactions, openTwoClients } from "./hana/transactions.ts"

// An INSERT of a primary or unique key that another open transaction inserted waits for that transaction, as HANA
// makes it: HANA locks the key a transaction writes until it ends (SAP HANA Troubleshooting and Performance Analysis
// Guide, "Transactional Lock Waits": record locks on the rows and keys written); when the holder commits, the
// waiter fails with 301 "unique constraint violated", when it rolls back the waiter goes ahead; a wait past the
// lock wait timeout fails with 131. Synchronised on the server's lock-wait counter, never on sleeps.
describe("HANA test server: INSERT of a key another transaction inserted waits for it (raw hdb)", () => {
  let server: HanaTestServerHandle
  let a: HdbClient
  let b: HdbClient
  beforeAll(async () => {
    ;({ server, a, b } = await openTwoClients())
  })
  afterAll(() => closeTwoClients({ server, a, b }))

  const inTransactions = (body: () => Promise<void>) => inBothTransactions(a, b, body)

  it("waits for the holder's COMMIT, then fails with 301; the waiter's transaction stays usable", async () => {
    await exec(a, "CREATE TABLE kw_commit (id INT PRIMARY KEY, v NVARCHAR(10))")
    await inTransactions(async () => {
      await exec(a, "INSERT INTO kw_commit VALUES (1, 'a')")
      await exec(b, "INSERT INTO kw_commit VALUES (2, 'b')")
      const second = waitsForLock(server, () => exec(b, "INSERT INTO kw_commit VALUES (1, 'b')"))
      expect(await second.waiting).toBe(true)
      await call((cb) => a.commit(cb))
      const err = await failure(second.result)
      expect(err.code).toBe(301)
      expect(err.message).toMatch(/unique constraint violated/)
      await call((cb) => b.commit(cb))
    })
    expect(await exec(a, "SELECT id, v FROM kw_commit ORDER BY id")).toEqual([{ ID: 1, V: "a" }, { ID: 2, V: "b" }])
  })

  it("waits for the holder's ROLLBACK, then goes ahead", async () => {
    await exec(a, "CREATE TABLE kw_rollback (id INT, code NVARCHAR(5) UNIQUE, v INT)")
    await inTransactions(async () => {
      await exec(a, "INSERT INTO kw_rollback VALUES (1, 'x', 1)")
      const second = waitsForLock(server, () => exec(b, "INSERT INTO kw_rollback (code, id, v) VALUES ('x', 2, 2)"))
      expect(await second.waiting).toBe(true)
      await call((cb) => a.rollback(cb))
      expect(await second.result).toBe(1)
      await call((cb) => b.commit(cb))
    })
    expect(await exec(a, "SELECT id, code, v FROM kw_rollback")).toEqual([{ ID: 2, CODE: "x", V: 2 }])
  })

  it("a prepared INSERT (single and batch) waits as well; other keys do not wait", async () => {
    await exec(a, "CREATE TABLE kw_prep (id INT PRIMARY KEY, v INT)")
    await inTransactions(async () => {
      const ins = await call<HdbStatement>((cb) => a.prepare("INSERT INTO kw_prep VALUES (?, ?)", cb))
      await call((cb) => ins.exec([[1, 1], [2, 1]], cb))
      const waits = server.stats.lockWaits
      expect(await exec(b, "INSERT INTO kw_prep VALUES (3, 2)")).toBe(1)
      expect(server.stats.lockWaits).toBe(waits)
      const insB = await call<HdbStatement>((cb) => b.prepare("INSERT INTO kw_prep VALUES (?, ?)", cb))
      const second = waitsForLock(server, () => call((cb) => insB.exec([[4, 2], [2, 2]], cb)))
      expect(await second.waiting).toBe(true)
      await call((cb) => a.rollback(cb))
      await second.result
      await call((cb) => b.commit(cb))
    })
    expect(await exec(a, "SELECT id, v FROM kw_prep ORDER BY id")).toEqual([{ ID: 2, V: 2 }, { ID: 3, V: 2 }, { ID: 4, V: 2 }])
  })

  it("a TIMESTAMP key locks all seven fraction digits, whether written as a literal or a batch parameter", async () => {
    // the key is the 100 ns value (testkit/hana/longdate.ts): a value one tick away does not wait, the same one does.
    // The batch comes from a client at data format version 8, where hdb sends a TIMESTAMP's 100 ns ticks.
    await exec(a, "CREATE TABLE kw_ts (ts TIMESTAMP PRIMARY KEY, v INT)")
    const b8 = await connect({ host: server.host, port: server.port, user: "SYSTEM", password: "Manager1", dataFormatSupport: 8 })
    try {
      await inBothTransactions(a, b8, async () => {
        await exec(a, "INSERT INTO kw_ts VALUES ('2024-01-02 03:04:05.1234567', 1)")
        const waits = server.stats.lockWaits
        expect(await exec(b8, "INSERT INTO kw_ts VALUES ('2024-01-02 03:04:05.1234568', 2)")).toBe(1)
        expect(server.stats.lockWaits).toBe(waits)
        const insB = await call<HdbStatement>((cb) => b8.prepare("INSERT INTO kw_ts VALUES (?, ?)", cb))
        const second = waitsForLock(server, () => call((cb) => insB.exec([["2024-01-02 03:04:05.1234569", 3], ["2024-01-02 03:04:05.1234567", 3]], cb)))
        expect(await second.waiting).toBe(true)
        await call((cb) => a.commit(cb))
        expect((await failure(second.result)).code).toBe(301)
        await call((cb) => b8.commit(cb))
      })
    } finally {
      closeQuietly(b8)
    }
    expect(await exec(a, "SELECT TO_VARCHAR(ts) AS TS, v FROM kw_ts ORDER BY ts")).toEqual([
      { TS: "2024-01-02 03:04:05.1234567", V: 1 },
      { TS: "2024-01-02 03:04:05.1234568", V: 2 }
    ])
  })

  it("a TIMESTAMP key written by UPDATE, INSERT ... SELECT or UPSERT is locked as its ticks; a single parameter waits for it", async () => {
    const key = "2024-01-02 03:04:05.1234567"
    const holders = [
      `UPDATE kw_tsw SET ts = '${key}' WHERE v = 0`,
      `INSERT INTO kw_tsw SELECT TIMESTAMP '${key}', 1 FROM DUMMY`,
      `UPSERT kw_tsw VALUES ('${key}', 1) WITH PRIMARY KEY`
    ]
    const b8 = await connect({ host: server.host, port: server.port, user: "SYSTEM", password: "Manager1", dataFormatSupport: 8 })
    try {
      for (const holder of holders) {
        await exec(a, "CREATE TABLE kw_tsw (ts TIMESTAMP PRIMARY KEY, v INT)")
        await exec(a, "INSERT INTO kw_tsw VALUES ('2000-01-01 00:00:00', 0)")
        await inBothTransactions(a, b8, async () => {
          await exec(a, holder)
          const insB = await call<HdbStatement>((cb) => b8.prepare("INSERT INTO kw_tsw VALUES (?, 2)", cb))
          const waits = server.stats.lockWaits
          expect(await call((cb) => insB.exec(["2024-01-02 03:04:05.1234566"], cb))).toBe(1)
          expect(server.stats.lockWaits).toBe(waits)
          const second = waitsForLock(server, () => call((cb) => insB.exec([key], cb)))
          expect(await second.waiting).toBe(true)
          await call((cb) => a.commit(cb))
          expect((await failure(second.result)).code).toBe(301)
          await call((cb) => b8.rollback(cb))
        })
        await exec(a, "DROP TABLE kw_tsw")
      }
    } finally {
      closeQuietly(b8)
    }
  })

  it("an autocommit INSERT waits as well; a wait past the lock wait timeout fails with 131", async () => {
    await exec(a, "CREATE TABLE kw_tmo (id INT PRIMARY KEY)")
    a.setAutoCommit(false)
    try {
      await exec(a, "INSERT INTO kw_tmo VALUES (1)")
      await exec(b, "SET TRANSACTION LOCK WAIT TIMEOUT 100")
      const late = waitsForLock(server, () => exec(b, "INSERT INTO kw_tmo VALUES (1)"))
      expect(await late.waiting).toBe(true)
      const err = await failure(late.result)
      expect(err.code).toBe(131)
      await exec(b, "SET TRANSACTION LOCK WAIT TIMEOUT 30000")
      await call((cb) => a.commit(cb))
    } finally {
      a.setAutoCommit(true)
    }
    expect(await exec(a, "SELECT id FROM kw_tmo")).toEqual([{ ID: 1 }])
  })

  it("an UPDATE setting a key another transaction inserted waits as well; an UPDATE of other columns does not", async () => {
    await exec(a, "CREATE TABLE kw_upd (id INT PRIMARY KEY, v INT)")
    await exec(a, "INSERT INTO kw_upd VALUES (1, 0)")
    await inTransactions(async () => {
      await exec(a, "INSERT INTO kw_upd VALUES (5, 0)")
      const waits = server.stats.lockWaits
      expect(await exec(b, "UPDATE kw_upd SET v = 2 WHERE id = 1")).toBe(1)
      expect(await exec(b, "UPDATE kw_upd SET id = id * 1")).toBe(1)
      expect(server.stats.lockWaits).toBe(waits)
      const moved = waitsForLock(server, () => exec(b, "UPDATE kw_upd SET v = 3, id = id + 4 WHERE id = 1"))
      expect(await moved.waiting).toBe(true)
      await call((cb) => a.commit(cb))
      expect((await failure(moved.result)).code).toBe(301)
      await call((cb) => b.commit(cb))
    })
    expect(await exec(a, "SELECT id, v FROM kw_upd ORDER BY id")).toEqual([{ ID: 1, V: 2 }, { ID: 5, V: 0 }])
  })

  // SAP HANA SQL Reference, "INSERT Statement": `INSERT INTO <table_name> [<column_list_clause>] { <value_list_clause>
  // | <subquery> }`; the rows a subquery inserts are written (and their keys locked) as those of a VALUES list.
  it("an INSERT ... SELECT of a key another transaction inserted waits, then fails with 301 after its COMMIT", async () => {
    await exec(a, "CREATE TABLE kw_sel (id INT PRIMARY KEY, v NVARCHAR(10))")
    await exec(a, "CREATE TABLE kw_src (id INT, v NVARCHAR(10))")
    await exec(a, "INSERT INTO kw_src VALUES (1, 'src')")
    await inTransactions(async () => {
      await exec(a, "INSERT INTO kw_sel VALUES (1, 'a')")
      const copy = waitsForLock(server, () => exec(b, "INSERT INTO kw_sel SELECT id, v FROM kw_src"))
      expect(await copy.waiting).toBe(true)
      await call((cb) => a.commit(cb))
      expect((await failure(copy.result)).code).toBe(301)
      // the keys an INSERT ... SELECT wrote are locked in turn: A's INSERT of key 2 waits for B's ROLLBACK
      await exec(b, "INSERT INTO kw_sel (id, v) SELECT id + 1, v FROM kw_src")
      const after = waitsForLock(server, () => exec(a, "INSERT INTO kw_sel VALUES (2, 'a2')"))
      expect(await after.waiting).toBe(true)
      await call((cb) => b.rollback(cb))
      expect(await after.result).toBe(1)
      await call((cb) => a.commit(cb))
    })
    expect(await exec(a, "SELECT id, v FROM kw_sel ORDER BY id")).toEqual([{ ID: 1, V: "a" }, { ID: 2, V: "a2" }])
  })

  // HANA locks the record an UPDATE changes until the transaction ends (SAP HANA Troubleshooting and Performance
  // Analysis Guide, "Transactional Lock Waits"): the key the row had stays taken, so another transaction's INSERT of
  // it waits; after a COMMIT the key is free, after a ROLLBACK the row holds it again (301).
  it("the old key of a key-changing UPDATE stays locked until its transaction ends", async () => {
    await exec(a, "CREATE TABLE kw_old (id INT PRIMARY KEY, v NVARCHAR(10))")
    await exec(a, "INSERT INTO kw_old VALUES (1, 'one')")
    await exec(a, "INSERT INTO kw_old VALUES (3, 'three')")
    await inTransactions(async () => {
      expect(await exec(a, "UPDATE kw_old SET id = 2 WHERE id = 1")).toBe(1)
      const reuse = waitsForLock(server, () => exec(b, "INSERT INTO kw_old VALUES (1, 'b')"))
      expect(await reuse.waiting).toBe(true)
      await call((cb) => a.commit(cb))
      expect(await reuse.result).toBe(1)
      await call((cb) => b.commit(cb))
      expect(await exec(a, "UPDATE kw_old SET id = 4 WHERE id = 3")).toBe(1)
      const back = waitsForLock(server, () => exec(b, "INSERT INTO kw_old VALUES (3, 'b')"))
      expect(await back.waiting).toBe(true)
      await call((cb) => a.rollback(cb))
      expect((await failure(back.result)).code).toBe(301)
    })
    expect(await exec(a, "SELECT id, v FROM kw_old ORDER BY id")).toEqual([
      { ID: 1, V: "b" },
      { ID: 2, V: "one" },
      { ID: 3, V: "three" }
    ])
  })
})
