import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { withServer } from "./oracle/helpers.ts"

// CROSS APPLY / OUTER APPLY (SQL Language Reference 23ai, "SELECT", cross_outer_apply_clause: CROSS APPLY keeps the
// left rows whose right side gives rows, OUTER APPLY every left row, NULL where the right side gives none) and
// LISTAGG's ON OVERFLOW clause, through raw node-oracledb.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: APPLY joins and LISTAGG ON OVERFLOW", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE ap (id NUMBER PRIMARY KEY, name VARCHAR2(20), mgr NUMBER, doc VARCHAR2(100))")
    await conn.executeMany("INSERT INTO ap VALUES (:1, :2, :3, :4)", [
      [1, "ann", null, '{"tags":["x","y"]}'],
      [2, "bob", 1, '{"tags":[]}'],
      [3, "cy", 1, null]
    ])
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("CROSS APPLY joins each row to its subquery's rows; OUTER APPLY keeps the rows without any", async () => {
    expect((await conn.execute("SELECT e.name, r.name FROM ap e CROSS APPLY (SELECT m.name FROM ap m WHERE m.mgr = e.id) r ORDER BY 1, 2")).rows).toEqual([
      ["ann", "bob"],
      ["ann", "cy"]
    ])
    expect((await conn.execute("SELECT e.name, r.n FROM ap e OUTER APPLY (SELECT COUNT(*) n FROM ap m WHERE m.mgr = e.id HAVING COUNT(*) > 0) r ORDER BY 1")).rows).toEqual([
      ["ann", 2],
      ["bob", null],
      ["cy", null]
    ])
    expect((await conn.execute("SELECT e.name, t.tag FROM ap e CROSS APPLY JSON_TABLE(e.doc, '$.tags[*]' COLUMNS (tag VARCHAR2(5) PATH '$')) t ORDER BY 1, 2")).rows).toEqual([
      ["ann", "x"],
      ["ann", "y"]
    ])
  })

  it("LISTAGG takes ON OVERFLOW ERROR | TRUNCATE", async () => {
    expect((await conn.execute("SELECT LISTAGG(name, ',' ON OVERFLOW TRUNCATE '...' WITH COUNT) WITHIN GROUP (ORDER BY name) FROM ap")).rows).toEqual([["ann,bob,cy"]])
    expect((await conn.execute("SELECT LISTAGG(name, '; ' ON OVERFLOW ERROR) WITHIN GROUP (ORDER BY id DESC) FROM ap")).rows).toEqual([["cy; bob; ann"]])
  })
})
