/**
 * A PL/SQL block's DML failing on a constraint names the constraint of the table that statement writes, not one of
 * the table the client's previous statement wrote: ORA-00001 "unique constraint (owner.name) violated" (23ai adds the
 * table and columns), and an UPDATE to NULL is ORA-01407 "cannot update (...) to NULL", an INSERT of NULL ORA-01400
 * (Database Error Messages, ORA-00001, ORA-01400, ORA-01407). Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn, TwoSessions } from "./oracle/helpers.ts"
import { failure, openTwoSessions, oraCode, waitsForLock } from "./oracle/helpers.ts"

describe("Oracle test server: constraint errors of a PL/SQL block's DML name its own table", () => {
  let env: TwoSessions["env"]
  let a: Conn
  let b: Conn
  beforeAll(async () => {
    ;({ env, a, b } = await openTwoSessions([
      "CREATE TABLE cn_t (id NUMBER PRIMARY KEY, v VARCHAR2(10) NOT NULL)",
      "CREATE TABLE cn_u (id NUMBER, k VARCHAR2(10), CONSTRAINT cn_u_k UNIQUE (k))",
      "INSERT INTO cn_t VALUES (1, 'a')"
    ]))
  })
  afterAll(() => env?.close())

  it("a block's INSERT of a duplicate key after a client INSERT into another table names its own primary key", async () => {
    await a.execute("INSERT INTO cn_u VALUES (1, 'k')")
    const e = await failure(() => a.execute("BEGIN INSERT INTO cn_t VALUES (1, 'b'); END;"))
    expect(oraCode(e)).toBe("ORA-00001")
    expect(e.message).toMatch(/unique constraint \(TEST\.SYS_C\d+\) violated on table TEST\.CN_T columns \(ID\)/)
    await a.rollback()
  })

  it("after waiting for the key another transaction inserted, the block's ORA-00001 names that key", async () => {
    await b.execute("INSERT INTO cn_t VALUES (2, 'b')")
    await a.execute("INSERT INTO cn_u VALUES (2, 'q')")
    const inserting = waitsForLock(env.server, () => a.execute("BEGIN FORALL i IN 1..1 INSERT INTO cn_t VALUES (2, 'c'); END;"))
    expect(await inserting.waiting).toBe(true)
    await b.commit()
    const e = await failure(() => inserting.result)
    expect(e.message).toMatch(/ORA-00001: unique constraint \(TEST\.SYS_C\d+\) violated on table TEST\.CN_T columns \(ID\)/)
    await a.rollback()
  })

  it("a block's UPDATE to NULL after a client INSERT is ORA-01407, its INSERT of NULL after a client UPDATE ORA-01400", async () => {
    await a.execute("INSERT INTO cn_u VALUES (3, 'z')")
    const updating = await failure(() => a.execute("BEGIN UPDATE cn_t SET v = NULL WHERE id = 1; END;"))
    expect(updating.message).toContain('ORA-01407: cannot update ("TEST"."CN_T"."V") to NULL')
    await a.execute("UPDATE cn_u SET k = 'y' WHERE id = 3")
    const inserting = await failure(() => a.execute("BEGIN INSERT INTO cn_t VALUES (9, NULL); END;"))
    expect(inserting.message).toContain('ORA-01400: cannot insert NULL into ("TEST"."CN_T"."V")')
    await a.rollback()
  })
})
