import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, withServer } from "./oracle/helpers.ts"

// A TIMESTAMP converted to a zoned type takes the session time zone of the statement converting it: "The session time
// zone also takes effect when a TIMESTAMP value is converted to the TIMESTAMP WITH TIME ZONE or TIMESTAMP WITH LOCAL
// TIME ZONE datatype" (Oracle Database Globalization Support Guide, "Setting the Session Time Zone"). Stored into a
// WITH TIME ZONE column it keeps the writer's zone; stored into a LOCAL TIME ZONE column it is the writer's instant,
// shown to each reader in the reader's session time zone.
describe("Oracle test server: TIMESTAMP values take the session time zone where they are converted (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let writer: Conn
  let reader: Conn
  beforeAll(async () => {
    const s = await withServer()
    server = s.server
    writer = await s.connect()
    reader = await s.connect()
    await writer.execute("ALTER SESSION SET TIME_ZONE = '+05:00'")
    await reader.execute("ALTER SESSION SET TIME_ZONE = 'America/New_York'")
  })
  afterAll(async () => {
    await writer?.close()
    await reader?.close()
    await server?.close()
  })

  it("stores a TIMESTAMP (literal, bind, executeMany, UPDATE, INSERT ... SELECT) in the writer's zone", async () => {
    await writer.execute("CREATE TABLE zs (id NUMBER, z TIMESTAMP WITH TIME ZONE, l TIMESTAMP WITH LOCAL TIME ZONE, ts TIMESTAMP)")
    await writer.execute("INSERT INTO zs VALUES (1, TIMESTAMP '2024-01-01 10:00:00', TIMESTAMP '2024-01-01 10:00:00', TIMESTAMP '2024-01-01 10:00:00')")
    // node-oracledb sends a DB_TYPE_TIMESTAMP Date as its local fields (the tests run in UTC: 10:00)
    const at10 = { val: new Date(Date.UTC(2024, 0, 1, 10)), type: oracledb.DB_TYPE_TIMESTAMP }
    await writer.execute("INSERT INTO zs (id, z, l) VALUES (2, :1, :2)", [at10, at10])
    await writer.executeMany("INSERT INTO zs (id, z, l) VALUES (:1, :2, :3)", [[3, at10.val, at10.val]], {
      bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.DB_TYPE_TIMESTAMP }, { type: oracledb.DB_TYPE_TIMESTAMP }]
    })
    await writer.execute("INSERT INTO zs (id, z, l) SELECT 4, ts, ts FROM zs WHERE id = 1")
    await writer.execute("INSERT INTO zs (id) VALUES (5)")
    await writer.execute("UPDATE zs SET z = TIMESTAMP '2024-01-01 10:00:00', l = TIMESTAMP '2024-01-01 10:00:00' WHERE id = 5")
    await writer.commit()
    const fmt = "'YYYY-MM-DD HH24:MI TZR'"
    const sql = `SELECT id, TO_CHAR(z, ${fmt}), TO_CHAR(l, ${fmt}), z, l FROM zs WHERE id <> 1 OR z IS NOT NULL ORDER BY id`
    const seen = await reader.execute(sql)
    // 10:00 at +05:00 is 05:00 UTC, midnight in New York (EST)
    const instant = new Date(Date.UTC(2024, 0, 1, 5))
    for (const row of seen.rows) expect(row).toEqual([row[0], "2024-01-01 10:00 +05:00", "2024-01-01 00:00 America/New_York", instant, instant])
    expect(seen.rows.map((r: Array<unknown>) => r[0])).toEqual([1, 2, 3, 4, 5])
    // the writer sees the same instants, the LOCAL TIME ZONE value in its own zone
    const own = await writer.execute(`SELECT TO_CHAR(z, ${fmt}), TO_CHAR(l, ${fmt}) FROM zs WHERE id = 2`)
    expect(own.rows).toEqual([["2024-01-01 10:00 +05:00", "2024-01-01 10:00 +05:00"]])
    // a value given with its own zone keeps it
    await writer.execute("INSERT INTO zs (id, z) VALUES (6, TIMESTAMP '2024-01-01 10:00:00 Europe/Paris')")
    expect((await writer.execute(`SELECT TO_CHAR(z, ${fmt}) FROM zs WHERE id = 6`)).rows).toEqual([["2024-01-01 10:00 Europe/Paris"]])
    await writer.rollback()
  })

  // `expr AT TIME ZONE zone` / `AT LOCAL` take a TIMESTAMP operand as TIMESTAMP WITH TIME ZONE in the session time zone
  // and give the same instant in the zone named (SQL Language Reference, "Datetime Expressions").
  it("converts a plain TIMESTAMP with AT TIME ZONE (offset, region) and AT LOCAL from the session time zone", async () => {
    await writer.execute("CREATE TABLE za (id NUMBER, ts TIMESTAMP, ts3 TIMESTAMP(3))")
    await writer.execute("INSERT INTO za VALUES (1, TIMESTAMP '2024-07-01 10:00:00', TIMESTAMP '2024-07-01 10:00:00.250')")
    await writer.commit()
    const fmt = "'YYYY-MM-DD HH24:MI:SS.FF3 TZR'"
    const r = await writer.execute(
      `SELECT TO_CHAR(ts AT TIME ZONE 'America/New_York', ${fmt}), TO_CHAR(ts AT TIME ZONE '-03:00', ${fmt}),
              TO_CHAR(ts3 AT LOCAL, ${fmt}), TO_CHAR(ts AT TIME ZONE 'UTC', ${fmt}), ts AT TIME ZONE 'Asia/Tokyo'
         FROM za`
    )
    // 10:00 at +05:00 is 05:00 UTC: 01:00 in New York (EDT), 02:00 at -03:00
    expect(r.rows[0].slice(0, 4)).toEqual([
      "2024-07-01 01:00:00.000 America/New_York", "2024-07-01 02:00:00.000 -03:00", "2024-07-01 10:00:00.250 +05:00", "2024-07-01 05:00:00.000 UTC"
    ])
    expect(r.rows[0][4]).toEqual(new Date(Date.UTC(2024, 6, 1, 5)))
    expect(r.metaData[4].dbTypeName).toBe("TIMESTAMP WITH TIME ZONE")
    // in New York's session the same wall clock is another instant
    const ny = await reader.execute(`SELECT TO_CHAR(ts AT TIME ZONE 'UTC', ${fmt}) FROM za`)
    expect(ny.rows).toEqual([["2024-07-01 14:00:00.000 UTC"]])
  })
})
