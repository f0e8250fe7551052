import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, withServer } from "./oracle/helpers.ts"

// Simple dot notation on a JSON column through the raw node-oracledb client (JSON Developer's Guide 23ai, "Simple
// Dot-Notation Access to JSON Data": a table alias is required, field names are case-sensitive, one targeted value
// is returned as it is and several wrapped in an array, nothing targeted is NULL; over a JSON column the result is
// JSON).
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: simple dot notation on JSON columns (23ai)", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE jdot (id NUMBER, doc JSON)")
    await conn.execute(`INSERT INTO jdot VALUES (1, '{"PONumber":1600,"Ship":{"name":"Alexis Bull","phones":[{"type":"Office"},{"type":"Mobile"}]},"a":null}')`)
    await conn.execute(`INSERT INTO jdot VALUES (2, '{"PONumber":1700,"Ship":{"name":"Sarah Bell"}}')`)
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("alias.column.field reads scalars, objects and arrays as JSON; a missing field is NULL", async () => {
    const r = await conn.execute(`SELECT p.doc.PONumber, p.doc.Ship.name, p.doc.Ship, p.doc.nothing FROM jdot p ORDER BY p.id`)
    expect(r.metaData.map((m: { dbType: unknown }) => m.dbType)).toEqual([oracledb.DB_TYPE_JSON, oracledb.DB_TYPE_JSON, oracledb.DB_TYPE_JSON, oracledb.DB_TYPE_JSON])
    expect(r.rows).toEqual([
      [1600, "Alexis Bull", { name: "Alexis Bull", phones: [{ type: "Office" }, { type: "Mobile" }] }, null],
      [1700, "Sarah Bell", { name: "Sarah Bell" }, null]
    ])
  })

  it("field names are case-sensitive; a field reached through an array targets each element, wrapped in an array", async () => {
    const r = await conn.execute(`SELECT p.doc.ponumber, p.doc.Ship.phones.type FROM jdot p WHERE p.id = 1`)
    expect(r.rows).toEqual([[null, ["Office", "Mobile"]]])
  })

  it("dot notation works in WHERE and ORDER BY", async () => {
    const r = await conn.execute(`SELECT p.id FROM jdot p WHERE JSON_VALUE(p.doc, '$.PONumber' RETURNING NUMBER) > 1000 ORDER BY JSON_SERIALIZE(p.doc.Ship.name) DESC`)
    expect(r.rows).toEqual([[2], [1]])
  })
})
