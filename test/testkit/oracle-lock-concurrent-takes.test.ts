import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, withSessions } from "./oracle/helpers.ts"

// Two sessions asking for the same row's lock at the same moment: one gets it, the other waits for that transaction
// (SELECT ... FOR UPDATE) or leaves the row out (SKIP LOCKED), as Oracle's row locks are one transaction's at a time
// (Database Concepts, "Row Locks (TX)"). The server tests whether a row is free and takes it in one step, after the
// transaction is open; a test split from its taking by a wait let both sessions find the row free and both take it.
describe("Oracle test server: two sessions locking the same rows at once", () => {
  let env: Awaited<ReturnType<typeof withSessions>>
  let a: Conn
  let b: Conn
  beforeAll(async () => {
    env = await withSessions(2)
    ;[a, b] = env.sessions
    await a.execute("CREATE TABLE ct_q (id NUMBER PRIMARY KEY, n NUMBER)")
    await a.executeMany("INSERT INTO ct_q VALUES (:1, 0)", [[1], [2], [3], [4], [5], [6]], { autoCommit: true })
  })
  afterAll(() => env?.close())

  it("FOR UPDATE: while the first session holds the row, the second waits (never both hold it)", async () => {
    for (let round = 0; round < 8; round++) {
      const before = env.server.stats.lockWaits
      const done = { a: false, b: false }
      const pa = a.execute("SELECT id FROM ct_q WHERE id = 1 FOR UPDATE").then(() => void (done.a = true))
      const pb = b.execute("SELECT id FROM ct_q WHERE id = 1 FOR UPDATE").then(() => void (done.b = true))
      await Promise.race([pa, pb])
      // the winner holds the row until it rolls back: the other ends only by waiting, which the server counts
      while (env.server.stats.lockWaits === before && !(done.a && done.b)) await new Promise((r) => setTimeout(r, 5))
      expect({ round, both: done.a && done.b }).toEqual({ round, both: false })
      await (done.a ? a : b).rollback()
      await Promise.all([pa, pb])
      await a.rollback()
      await b.rollback()
    }
  })

  it("SKIP LOCKED in PL/SQL: two sessions taking rows at once get disjoint rows", async () => {
    const take = (c: Conn) =>
      c.execute(
        `DECLARE TYPE t IS TABLE OF NUMBER; r t; s VARCHAR2(100); BEGIN
           SELECT id BULK COLLECT INTO r FROM ct_q ORDER BY id FOR UPDATE SKIP LOCKED;
           FOR i IN 1 .. r.COUNT LOOP s := s || r(i) || ','; END LOOP; :ids := s; END;`,
        { ids: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } }
      )
    for (let round = 0; round < 8; round++) {
      const [ra, rb] = await Promise.all([take(a), take(b)])
      const ids = (r: typeof ra): Array<string> => String((r.outBinds as { ids?: string } | undefined)?.ids ?? "").split(",").filter((s) => s !== "")
      const got = [...ids(ra), ...ids(rb)]
      expect({ round, overlap: got.length - new Set(got).size }).toEqual({ round, overlap: 0 })
      expect(new Set(got).size).toBe(6)
      await a.rollback()
      await b.rollback()
    }
  })
})
