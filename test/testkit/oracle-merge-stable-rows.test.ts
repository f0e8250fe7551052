import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb } from "./oracle/helpers.ts"

// "MERGE is a deterministic statement. You cannot update the same row of the target table multiple times in the same
// MERGE statement" (SQL Language Reference, "MERGE"); Oracle reports it as ORA-30926 "unable to get a stable set of
// rows in the source tables" and the statement writes nothing (Database Concepts, "Statement-Level Atomicity").
describe("Oracle test server: MERGE matching a target row more than once", () => {
  const opened: { server?: unknown; conn?: Conn } = {}
  let c: Conn
  beforeAll(async () => {
    Object.assign(opened, await openConnection())
    c = opened.conn
    await c.execute("CREATE TABLE ms_t (id NUMBER PRIMARY KEY, v NUMBER)")
    await c.execute("CREATE TABLE ms_src (id NUMBER, nv NUMBER)")
    await c.execute("CREATE SEQUENCE ms_seq")
    await c.executeMany("INSERT INTO ms_t VALUES (:1, :2)", [[1, 10], [2, 20], [3, 30]])
    await c.executeMany("INSERT INTO ms_src VALUES (:1, :2)", [[1, 100], [2, 200], [2, 201], [4, 400]])
    await c.commit()
  })
  afterAll(() => closeConnection(opened as never))

  const table = async () => (await c.execute("SELECT id, v FROM ms_t ORDER BY id")).rows

  it("fails with ORA-30926 and leaves the table as it was, the transaction's earlier writes kept", async () => {
    await c.execute("UPDATE ms_t SET v = 11 WHERE id = 1")
    const e = await failure(() =>
      c.execute(`MERGE INTO ms_t t USING ms_src s ON (t.id = s.id)
                 WHEN MATCHED THEN UPDATE SET t.v = s.nv
                 WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.nv)`)
    )
    expect(e.message).toMatch(/^ORA-30926: unable to get a stable set of rows in the source tables/)
    expect(await table()).toEqual([[1, 11], [2, 20], [3, 30]])
    await c.rollback()
  })

  it("also with a subquery source and binds, a DELETE WHERE branch, or NEXTVAL in the SET list", async () => {
    const dup = "(SELECT :1 id, 5 nv FROM dual UNION ALL SELECT :2, 6 FROM dual)"
    for (const sql of [
      `MERGE INTO ms_t t USING ${dup} s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.v = s.nv`,
      `MERGE INTO ms_t t USING ${dup} s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.v = s.nv DELETE WHERE t.v > 100`,
      `MERGE INTO ms_t t USING ${dup} s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.v = ms_seq.NEXTVAL`
    ]) {
      const e = await failure(() => c.execute(sql, [3, 3]))
      expect(e.message, sql).toMatch(/^ORA-30926:/)
      expect(await table()).toEqual([[1, 10], [2, 20], [3, 30]])
    }
    await c.rollback()
  })

  it("runs when each target row meets one source row it acts on", async () => {
    // one source row for each of several target rows (the target side may repeat)
    const r = await c.execute("MERGE INTO ms_t t USING (SELECT 1 k, 7 nv FROM dual) s ON (t.id < 3 AND s.k = 1) WHEN MATCHED THEN UPDATE SET t.v = s.nv")
    expect(r.rowsAffected).toBe(2)
    expect(await table()).toEqual([[1, 7], [2, 7], [3, 30]])
    // the UPDATE's WHERE leaves one of row 2's two source rows alone: the row is updated once
    const w = await c.execute("MERGE INTO ms_t t USING ms_src s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.v = s.nv WHERE s.nv <> 201")
    expect(w.rowsAffected).toBe(2)
    expect(await table()).toEqual([[1, 100], [2, 200], [3, 30]])
    // source rows that match no target row are inserted, repeated or not
    const i = await c.execute("MERGE INTO ms_t t USING (SELECT 9 id FROM dual UNION ALL SELECT 8 FROM dual) s ON (t.id = s.id) WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, 0)")
    expect(i.rowsAffected).toBe(2)
    await c.rollback()
  })

  it("also into a table with triggers, whose statement triggers' writes are undone with it", async () => {
    await c.execute("CREATE TABLE ms_trg (id NUMBER PRIMARY KEY, v NUMBER)")
    await c.execute("CREATE TABLE ms_log (m VARCHAR2(20))")
    await c.execute("INSERT INTO ms_trg VALUES (2, 20)")
    await c.execute("CREATE TRIGGER ms_trg_b BEFORE UPDATE ON ms_trg BEGIN INSERT INTO ms_log VALUES ('before'); END;")
    await c.execute("CREATE TRIGGER ms_trg_r AFTER UPDATE ON ms_trg FOR EACH ROW BEGIN INSERT INTO ms_log VALUES ('row ' || :new.id); END;")
    const e = await failure(() => c.execute("MERGE INTO ms_trg t USING ms_src s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.v = s.nv"))
    expect(e.message).toMatch(/^ORA-30926:/)
    expect((await c.execute("SELECT id, v FROM ms_trg")).rows).toEqual([[2, 20]])
    expect((await c.execute("SELECT m FROM ms_log")).rows).toEqual([])
  })

  it("executeMany of an upsert MERGE runs it once per bind row", async () => {
    const upsert = "MERGE INTO ms_t t USING (SELECT :1 id, :2 nv FROM dual) s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.v = s.nv WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.nv)"
    const r = await c.executeMany(upsert, [[1, 11], [5, 55], [6, 66]])
    expect(r.rowsAffected).toBe(3)
    expect(await table()).toEqual([[1, 11], [2, 20], [3, 30], [5, 55], [6, 66]])
    await c.rollback()
  })

  it("reaches a PL/SQL block as an exception its handler catches", async () => {
    const out = await c.execute(
      `BEGIN
         MERGE INTO ms_t t USING ms_src s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.v = s.nv;
         :code := 0;
       EXCEPTION WHEN OTHERS THEN :code := SQLCODE;
       END;`,
      { code: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    )
    expect(out.outBinds.code).toBe(-30926)
    expect(await table()).toEqual([[1, 10], [2, 20], [3, 30]])
  })
})
