/**
 * A LOB locator points at the one row it was fetched from (SecureFiles and Large Objects Developer's Guide, "LOB
 * Locators"): DBMS_LOB writes through a PL/SQL variable filled by `SELECT lob INTO v ... FOR UPDATE` change that row
 * only, whatever the SELECT's WHERE clause would match when the write runs. Raw node-oracledb against the test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, withSessions } from "./oracle/helpers.ts"

describe("Oracle test server: a PL/SQL LOB variable writes the row it was fetched from", () => {
  let env: Awaited<ReturnType<typeof withSessions>>
  let a: Conn
  beforeAll(async () => {
    env = await withSessions(1)
    ;[a] = env.sessions
    await a.execute("CREATE TABLE lr_t (id NUMBER PRIMARY KEY, grp NUMBER, doc CLOB)")
    await a.executeMany("INSERT INTO lr_t VALUES (:1, :2, :3)", [[1, 1, "one"], [2, 2, "two"]])
    await a.commit()
  })
  afterAll(() => env?.close())

  const docs = async () => (await a.execute("SELECT id, doc FROM lr_t ORDER BY id", [], { fetchInfo: { DOC: { type: oracledb.STRING } } })).rows

  it("after the WHERE clause's variable changed", async () => {
    await a.execute(`DECLARE l CLOB; k NUMBER := 1;
      BEGIN SELECT doc INTO l FROM lr_t WHERE id = k FOR UPDATE; k := 2; DBMS_LOB.WRITEAPPEND(l, 1, '!'); END;`)
    expect(await docs()).toEqual([[1, "one!"], [2, "two"]])
    await a.rollback()
  })

  it("after another row came to match the WHERE clause", async () => {
    await a.execute(`DECLARE l CLOB;
      BEGIN SELECT doc INTO l FROM lr_t WHERE grp = 1 FOR UPDATE; UPDATE lr_t SET grp = 1 WHERE id = 2; DBMS_LOB.WRITEAPPEND(l, 1, '!'); END;`)
    expect(await docs()).toEqual([[1, "one!"], [2, "two"]])
    await a.rollback()
  })

  it("with other columns selected INTO alongside the LOB", async () => {
    await a.execute(`DECLARE l CLOB; n NUMBER; g NUMBER;
      BEGIN SELECT id, doc, grp INTO n, l, g FROM lr_t WHERE id = 2 FOR UPDATE; DBMS_LOB.WRITEAPPEND(l, 1, '?'); END;`)
    expect(await docs()).toEqual([[1, "one"], [2, "two?"]])
    await a.rollback()
  })
})
