import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn, TwoSessions } from "./oracle/helpers.ts"
import { failure, oraCode, waitsForLock, openTwoSessions } from "./oracle/helpers.ts"

// SELECT ... FOR UPDATE takes a row exclusive (SX) table lock on each table whose rows it locks, as INSERT / UPDATE /
// DELETE do (Database Concepts, "Table Locks (TM)", table "Summary of Locks Obtained by DML Statements": "SELECT ...
// FROM table FOR UPDATE OF ... | Yes | SX"), so another transaction's LOCK TABLE ... IN EXCLUSIVE MODE waits for it
// and NOWAIT fails with ORA-00054. LOCK TABLE on a view locks the view's base tables (SQL Language Reference,
// "LOCK TABLE": https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/LOCK-TABLE.html).
describe("Oracle test server: table locks of SELECT ... FOR UPDATE and of LOCK TABLE on a view", () => {
  let env: TwoSessions["env"]
  let a: Conn
  let b: Conn
  beforeAll(async () => {
    ;({ env, a, b } = await openTwoSessions([
      "CREATE TABLE tf_t (id NUMBER PRIMARY KEY, v NUMBER)",
      "CREATE TABLE tf_u (id NUMBER PRIMARY KEY, w NUMBER)",
      "INSERT INTO tf_t VALUES (1, 0)",
      "INSERT INTO tf_u VALUES (1, 0)",
      "CREATE VIEW tf_v AS SELECT t.id, t.v, u.w FROM tf_t t JOIN tf_u u ON u.id = t.id WHERE t.v >= 0",
      "CREATE VIEW tf_vv AS SELECT id FROM tf_v"
    ]))
  })
  afterAll(() => env?.close())

  it("SELECT ... FOR UPDATE makes another session's LOCK TABLE IN EXCLUSIVE MODE wait (NOWAIT: ORA-00054)", async () => {
    await a.execute("SELECT v FROM tf_t WHERE id = 1 FOR UPDATE")
    expect(oraCode(await failure(() => b.execute("LOCK TABLE tf_t IN EXCLUSIVE MODE NOWAIT")))).toBe("ORA-00054")
    // the table is locked even when the query selects no row
    await a.rollback()
    await a.execute("SELECT v FROM tf_t WHERE id = 99 FOR UPDATE")
    const locking = waitsForLock(env.server, () => b.execute("LOCK TABLE tf_t IN EXCLUSIVE MODE"))
    expect(await locking.waiting).toBe(true)
    await a.commit()
    await locking.result
    await b.rollback()
  })

  it("SELECT ... FOR UPDATE NOWAIT fails with ORA-00054 while another session holds the table in SHARE mode", async () => {
    await b.execute("LOCK TABLE tf_t IN SHARE MODE")
    expect(oraCode(await failure(() => a.execute("SELECT v FROM tf_t FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    await b.rollback()
    expect((await a.execute("SELECT v FROM tf_t FOR UPDATE NOWAIT")).rows).toEqual([[0]])
    await a.rollback()
  })

  it("LOCK TABLE on a view locks its base tables: another session's DML on them waits", async () => {
    await a.execute("LOCK TABLE tf_v IN EXCLUSIVE MODE")
    expect(oraCode(await failure(() => b.execute("LOCK TABLE tf_u IN SHARE MODE NOWAIT")))).toBe("ORA-00054")
    const inserting = waitsForLock(env.server, () => b.execute("INSERT INTO tf_t VALUES (2, 0)"))
    expect(await inserting.waiting).toBe(true)
    await a.commit()
    expect((await inserting.result).rowsAffected).toBe(1)
    await b.rollback()
  })

  it("LOCK TABLE on a view of a view locks the tables underneath, and waits for their open DML (NOWAIT: ORA-00054)", async () => {
    await b.execute("UPDATE tf_u SET w = 1 WHERE id = 1")
    expect(oraCode(await failure(() => a.execute("LOCK TABLE tf_vv IN SHARE MODE NOWAIT")))).toBe("ORA-00054")
    await b.rollback()
    await a.execute("LOCK TABLE tf_vv IN SHARE MODE NOWAIT")
    expect(oraCode(await failure(() => b.execute("LOCK TABLE tf_t IN EXCLUSIVE MODE NOWAIT")))).toBe("ORA-00054")
    await a.rollback()
    await b.rollback()
  })
})
