import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, waitsForLock, withSessions } from "./oracle/helpers.ts"

// MERGE ... WHEN MATCHED THEN UPDATE SET ... [WHERE c] DELETE WHERE d: "The only rows affected by this clause are those
// rows in the destination table that are updated by the merge operation. The DELETE WHERE condition evaluates the
// updated value, not the original value that was evaluated by the UPDATE SET ... WHERE condition" (SQL Language
// Reference, "MERGE", merge_update_clause). The rows it updates or deletes stay locked until the transaction ends
// (Database Concepts, "Row Locks (TX)").
describe("Oracle test server: MERGE's DELETE WHERE", () => {
  let env: Awaited<ReturnType<typeof withSessions>>
  let a: Conn
  let b: Conn
  beforeAll(async () => {
    env = await withSessions(2)
    ;[a, b] = env.sessions
    await a.execute("CREATE TABLE md_t (id NUMBER PRIMARY KEY, v NUMBER)")
    await a.executeMany("INSERT INTO md_t VALUES (:1, :2)", [[1, 10], [2, 20], [3, 30], [4, -5], [6, -7]])
    await a.commit()
  })
  afterAll(() => env?.close())

  const merge = `MERGE INTO md_t t
    USING (SELECT 1 id, 100 nv FROM dual UNION ALL SELECT 2, -1 FROM dual UNION ALL SELECT 3, -2 FROM dual
           UNION ALL SELECT 5, -3 FROM dual UNION ALL SELECT 6, 7 FROM dual) s
    ON (t.id = s.id)
    WHEN MATCHED THEN UPDATE SET t.v = s.nv WHERE t.id <> 3 DELETE WHERE t.v < 0
    WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.nv)`

  it("deletes the updated rows whose new values meet the condition, and locks the rows it changed", async () => {
    const result = await a.execute(merge)
    // rows 1, 2 and 6 updated (2 then deleted), row 5 inserted
    expect(result.rowsAffected).toBe(4)
    // 2's new value meets the condition; 3 was not updated, 4 not matched, 5 inserted, 6's new value does not
    expect((await a.execute("SELECT id, v FROM md_t ORDER BY id")).rows).toEqual([[1, 100], [3, 30], [4, -5], [5, -3], [6, 7]])
    expect(oraCode(await failure(() => b.execute("SELECT v FROM md_t WHERE id = 1 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    expect((await b.execute("SELECT v FROM md_t WHERE id = 4 FOR UPDATE NOWAIT")).rows).toEqual([[-5]])
    await b.rollback()
    // the deleted row's key stays taken until the MERGE's transaction ends
    const inserting = waitsForLock(env.server, () => b.execute("INSERT INTO md_t VALUES (2, 2)"))
    expect(await inserting.waiting).toBe(true)
    await a.commit()
    expect((await inserting.result).rowsAffected).toBe(1)
    await b.commit()
    expect((await a.execute("SELECT id, v FROM md_t ORDER BY id")).rows).toEqual([[1, 100], [2, 2], [3, 30], [4, -5], [5, -3], [6, 7]])
  })

  it("with a bare column name and no UPDATE WHERE, the condition still reads the new value", async () => {
    await a.execute("CREATE TABLE md_u (id NUMBER PRIMARY KEY, v NUMBER)")
    await a.executeMany("INSERT INTO md_u VALUES (:1, :2)", [[1, 1], [2, 2]])
    const result = await a.execute("MERGE INTO md_u USING (SELECT 1 id FROM dual UNION ALL SELECT 2 FROM dual) s ON (md_u.id = s.id) WHEN MATCHED THEN UPDATE SET v = v * 10 DELETE WHERE v > 15")
    expect(result.rowsAffected).toBe(2)
    expect((await a.execute("SELECT id, v FROM md_u ORDER BY id")).rows).toEqual([[1, 10]])
    await a.rollback()
  })
  it("a condition on a column the SET writes a literal to reads that literal (was ORA-00933)", async () => {
    await a.execute("CREATE TABLE md_s (id NUMBER PRIMARY KEY, name VARCHAR2(10))")
    await a.executeMany("INSERT INTO md_s VALUES (:1, :2)", [[1, "a"], [2, "zz"], [3, "c"]], { autoCommit: true })
    const all = await a.execute("MERGE INTO md_s t USING (SELECT 1 id FROM dual UNION ALL SELECT 2 FROM dual) s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET name = 'm' DELETE WHERE name = 'm'")
    expect(all.rowsAffected).toBe(2)
    expect((await a.execute("SELECT id, name FROM md_s ORDER BY id")).rows).toEqual([[3, "c"]])
    await a.rollback()
    const none = await a.execute("MERGE INTO md_s t USING (SELECT 1 id FROM dual) s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.name = 'q' DELETE WHERE t.name = 'a'")
    expect(none.rowsAffected).toBe(1)
    expect((await a.execute("SELECT id, name FROM md_s ORDER BY id")).rows).toEqual([[1, "q"], [2, "zz"], [3, "c"]])
    await a.rollback()
  })
})
