import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: binds selected as columns, through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a JSON bind stores a document in a JSON column, a JSON string bind a string scalar, VARCHAR2 text a parsed document", async () => {
    await conn.execute("CREATE TABLE json_binds (id NUMBER, doc JSON)")
    await conn.execute("INSERT INTO json_binds VALUES (1, :1)", [{ type: oracledb.DB_TYPE_JSON, val: { a: 1.5, s: "t" } }])
    await conn.execute("INSERT INTO json_binds VALUES (2, :1)", [{ type: oracledb.DB_TYPE_JSON, val: '{"a":2}' }])
    await conn.execute("INSERT INTO json_binds VALUES (3, :1)", [{ type: oracledb.DB_TYPE_VARCHAR, val: '{"a":3}' }])
    const r = await conn.execute("SELECT id, doc, JSON_VALUE(doc, '$.a') FROM json_binds ORDER BY id")
    expect(r.rows).toEqual([[1, { a: 1.5, s: "t" }, "1.5"], [2, '{"a":2}', null], [3, { a: 3 }, "3"]])
    await conn.rollback()
  })

  it("a TIMESTAMP WITH TIME ZONE column keeps a region (TZR) and an offset; oracledb thin binds every zoned value as +00:00", async () => {
    await conn.execute("CREATE TABLE tz_regions (id NUMBER, t TIMESTAMP(6) WITH TIME ZONE)")
    await conn.execute("INSERT INTO tz_regions VALUES (1, TIMESTAMP '2024-07-01 14:00:00 Europe/Berlin')")
    await conn.execute("INSERT INTO tz_regions VALUES (2, TIMESTAMP '2024-07-01 14:00:00 +05:30')")
    await conn.execute("INSERT INTO tz_regions VALUES (3, :1)", [{ type: oracledb.DB_TYPE_TIMESTAMP_TZ, val: new Date(Date.UTC(2024, 6, 1, 12)) }])
    const r = await conn.execute("SELECT id, TO_CHAR(t, 'YYYY-MM-DD HH24:MI:SS TZR'), TO_CHAR(t, 'TZH:TZM') FROM tz_regions ORDER BY id")
    expect(r.rows).toEqual([
      [1, "2024-07-01 14:00:00 Europe/Berlin", "+02:00"],
      [2, "2024-07-01 14:00:00 +05:30", "+05:30"],
      [3, "2024-07-01 12:00:00 +00:00", "+00:00"]
    ])
    await conn.rollback()
  })

  it("describes each bind with the type its metadata declares", async () => {
    const when = new Date(Date.UTC(2024, 0, 2, 3, 4, 5))
    const r = await conn.execute("SELECT :1, :2, :3 AS d, :4 j, :5, :6, :7 FROM dual", [
      { val: 1.5, type: oracledb.DB_TYPE_BINARY_DOUBLE },
      { val: "héllo", type: oracledb.DB_TYPE_NVARCHAR },
      { val: when, type: oracledb.DB_TYPE_DATE },
      { val: { a: [1, 2, { b: "x" }] }, type: oracledb.DB_TYPE_JSON },
      42,
      "plain",
      { val: when, type: oracledb.DB_TYPE_TIMESTAMP }
    ])
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["BINARY_DOUBLE", "NVARCHAR2", "DATE", "JSON", "NUMBER", "VARCHAR2", "TIMESTAMP"])
    expect(r.metaData.map((m: { name: string }) => m.name).slice(2, 4)).toEqual(["D", "J"])
    expect(r.rows[0].slice(0, 2)).toEqual([1.5, "héllo"])
    expect((r.rows[0][2] as Date).getTime()).toBe(when.getTime())
    expect(r.rows[0].slice(3, 6)).toEqual([{ a: [1, 2, { b: "x" }] }, 42, "plain"])
    expect((r.rows[0][6] as Date).getTime()).toBe(when.getTime())
  })
})
