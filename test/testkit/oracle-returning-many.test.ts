import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

// executeMany of a DML statement with RETURNING ... INTO: each bind row's out binds hold what that row's execution
// returned (node-oracledb documentation, "executeMany()": "outBinds ... an array of objects, one per row"; its thin
// client reads one ROW_DATA message per bind row, lib/thin/protocol/messages/withData.js processRowData). All rows'
// values went to the first row, the others got none.
describe("Oracle test server: executeMany with RETURNING ... INTO (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE rmany (id NUMBER, grp NUMBER, v VARCHAR2(10))")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("an INSERT's rows each get their own returned values", async () => {
    const r = await conn.executeMany("INSERT INTO rmany (id, grp, v) VALUES (:id, :grp, :v) RETURNING id, v INTO :rid, :rv", [
      { id: 1, grp: 1, v: "a" },
      { id: 2, grp: 1, v: "b" },
      { id: 3, grp: 2, v: "c" }
    ], {
      bindDefs: {
        id: { type: oracledb.NUMBER },
        grp: { type: oracledb.NUMBER },
        v: { type: oracledb.STRING, maxSize: 10 },
        rid: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
        rv: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 10 }
      }
    })
    expect(r.outBinds).toEqual([{ rid: [1], rv: ["a"] }, { rid: [2], rv: ["b"] }, { rid: [3], rv: ["c"] }])
  })

  it("an UPDATE's rows each get the rows they updated, none for a row that updated nothing", async () => {
    const r = await conn.executeMany("UPDATE rmany SET v = v || 'x' WHERE grp = :g RETURNING id INTO :ids", [{ g: 1 }, { g: 9 }, { g: 2 }], {
      bindDefs: { g: { type: oracledb.NUMBER }, ids: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    })
    expect(r.outBinds.map((o: { ids: Array<number> }) => [...o.ids].sort())).toEqual([[1, 2], [], [3]])
    await conn.rollback()
  })
})
