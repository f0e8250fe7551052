import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn, TwoSessions } from "./oracle/helpers.ts"
import { failure, oraCode, openTwoSessions } from "./oracle/helpers.ts"

// A MERGE locks the target rows it updates or deletes, not those its WHEN MATCHED ... WHERE leaves alone (Database
// Concepts, "Row Locks (TX)": a row is locked when a statement modifies it).
describe("Oracle test server: MERGE locks only the rows it changes", () => {
  let env: TwoSessions["env"]
  let a: Conn
  let b: Conn
  beforeAll(async () => {
    ;({ env, a, b } = await openTwoSessions([
      "CREATE TABLE ml_t (id NUMBER PRIMARY KEY, v NUMBER)",
      "INSERT INTO ml_t VALUES (1, 0)",
      "INSERT INTO ml_t VALUES (2, 100)"
    ]))
  })
  afterAll(() => env?.close())

  it("a row the WHEN MATCHED ... WHERE skips stays free for another transaction; the row it updated is locked", async () => {
    const merged = await a.execute(
      "MERGE INTO ml_t t USING (SELECT id FROM ml_t) s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.v = t.v + 1 WHERE t.v < 50"
    )
    expect(merged.rowsAffected).toBe(1)
    expect((await a.execute("SELECT id, v FROM ml_t ORDER BY id")).rows).toEqual([[1, 1], [2, 100]])
    expect((await b.execute("SELECT v FROM ml_t WHERE id = 2 FOR UPDATE NOWAIT")).rows).toEqual([[100]])
    await b.rollback()
    expect(oraCode(await failure(() => b.execute("SELECT v FROM ml_t WHERE id = 1 FOR UPDATE NOWAIT")))).toBe("ORA-00054")
    await a.commit()
  })
})
