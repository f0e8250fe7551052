import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

// executeMany of a DML statement with RETURNING INTO: node-oracledb's outBinds hold one object per bind row, each with
// the values that row's statement returned (node-oracledb documentation, "executeMany()": "outBinds ... an array of
// objects ... for each iteration"; the thin client reads one ROW_DATA message per row, withData.js processRowData).
describe("Oracle test server: executeMany with RETURNING INTO", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    await conn.execute("CREATE TABLE rem (id NUMBER, grp NUMBER, v VARCHAR2(10))")
    await conn.execute("CREATE SEQUENCE rem_seq START WITH 1")
  })
  afterAll(() => closeConnection(opened))

  const outNumber = { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }
  const outString = { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 10 }

  it("gives each bind row the values its own statement returned", async () => {
    const inserted = await conn.executeMany(
      "INSERT INTO rem (id, grp, v) VALUES (rem_seq.NEXTVAL, :g, :v) RETURNING id, v INTO :id, :rv",
      [{ g: 1, v: "a" }, { g: 2, v: "b" }, { g: 2, v: "c" }],
      { bindDefs: { g: { type: oracledb.NUMBER }, v: { type: oracledb.STRING, maxSize: 10 }, id: outNumber, rv: outString } }
    )
    expect(inserted.outBinds).toEqual([{ id: [1], rv: ["a"] }, { id: [2], rv: ["b"] }, { id: [3], rv: ["c"] }])
    // an UPDATE returns as many values as it changed rows, none for a row that matched nothing
    const updated = await conn.executeMany("UPDATE rem SET v = v || '!' WHERE grp = :g RETURNING id INTO :id", [{ g: 9 }, { g: 2 }, { g: 1 }], {
      bindDefs: { g: { type: oracledb.NUMBER }, id: outNumber }
    })
    expect(updated.outBinds.map((o: { id: Array<number> }) => [...o.id].sort())).toEqual([[], [2, 3], [1]])
    expect(updated.rowsAffected).toBe(3)
    await conn.rollback()
  })
})
