import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

// TIMESTAMP WITH LOCAL TIME ZONE "is normalized to the database time zone when it is stored ... When a user retrieves
// the data, Oracle Database returns it in the user's local session time zone" (Oracle Database Globalization Support
// Guide, "TIMESTAMP WITH LOCAL TIME ZONE Data Type",
// https://docs.oracle.com/en/database/oracle/oracle-database/23/nlspg/datetime-data-types-and-time-zone-support.html);
// a CAST to it is such a value too. TZD is "Daylight saving information. The TZD value is an abbreviated time zone
// string with daylight saving information. It must correspond with the region specified in TZR" (SQL Language
// Reference, "Datetime Format Elements"), and in a literal it picks which of a repeated hour is meant ("Datetime
// Literals": `TIMESTAMP '1999-10-29 01:30:00 US/Pacific PDT'`, the abbreviation resolving the ambiguous hour).
describe("Oracle test server: LOCAL TIME ZONE values in the session time zone, zone abbreviations (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("shows a CAST to TIMESTAMP [(9)] WITH LOCAL TIME ZONE in the session time zone, described as LOCAL TIME ZONE", async () => {
    await conn.execute("ALTER SESSION SET TIME_ZONE = 'America/New_York'")
    const f = "'YYYY-MM-DD HH24:MI:SS.FF3 TZR TZD TZH:TZM'"
    const r = await conn.execute(
      `SELECT TO_CHAR(CAST(TIMESTAMP '2024-07-01 00:00:00 +00:00' AS TIMESTAMP WITH LOCAL TIME ZONE), ${f}), ` +
        `TO_CHAR(CAST(TIMESTAMP '2024-01-01 00:00:00.123456789 +00:00' AS TIMESTAMP(9) WITH LOCAL TIME ZONE), ${f}), ` +
        `CAST(CAST(TIMESTAMP '2024-07-01 00:00:00 +00:00' AS TIMESTAMP WITH LOCAL TIME ZONE) AS TIMESTAMP) FROM dual`
    )
    expect(r.rows![0]!.slice(0, 2)).toEqual(["2024-06-30 20:00:00.000 America/New_York EDT -04:00", "2023-12-31 19:00:00.123 America/New_York EST -05:00"])
    // the session's wall clock as a TIMESTAMP (node-oracledb reads it as local time; the tests run in UTC)
    expect(r.rows![0]![2].toISOString()).toBe("2024-06-30T20:00:00.000Z")
    const typed = await conn.execute(
      "SELECT CAST(TIMESTAMP '2024-07-01 00:00:00 +00:00' AS TIMESTAMP WITH LOCAL TIME ZONE) AS l, CAST(TIMESTAMP '2024-01-01 00:00:00.123456789 +00:00' AS TIMESTAMP(9) WITH LOCAL TIME ZONE) FROM dual"
    )
    expect(typed.metaData.map((m: { dbType: unknown }) => m.dbType)).toEqual([oracledb.DB_TYPE_TIMESTAMP_LTZ, oracledb.DB_TYPE_TIMESTAMP_LTZ])
    expect(typed.rows![0]!.map((d: Date) => d.toISOString())).toEqual(["2024-07-01T00:00:00.000Z", "2024-01-01T00:00:00.123Z"])
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+00:00'")
  })

  // node-oracledb thin sets the session time zone at logon from ORA_SDTZ (else the process's offset):
  // node_modules/oracledb/lib/thin/protocol/messages/auth.js getAlterSessionStatement
  it("shows LOCAL TIME ZONE values in the zone the client set at logon (ORA_SDTZ)", async () => {
    const previous = process.env["ORA_SDTZ"]
    process.env["ORA_SDTZ"] = "Asia/Kolkata"
    const kolkata = await oracledb.getConnection({ user: server.user, password: server.password, connectString: server.connectString })
    if (previous === undefined) delete process.env["ORA_SDTZ"]
    else process.env["ORA_SDTZ"] = previous
    try {
      await kolkata.execute("CREATE TABLE ltz_logon (l TIMESTAMP WITH LOCAL TIME ZONE, l9 TIMESTAMP(9) WITH LOCAL TIME ZONE)")
      await kolkata.execute("INSERT INTO ltz_logon VALUES (TIMESTAMP '2024-01-01 00:00:00 +00:00', TIMESTAMP '2024-01-01 00:00:00.5 +00:00')")
      const f = "'YYYY-MM-DD HH24:MI:SS.FF1 TZR TZH:TZM'"
      const r = await kolkata.execute(`SELECT SESSIONTIMEZONE, TO_CHAR(l, ${f}), TO_CHAR(l9, ${f}), TO_CHAR(CAST(l AS TIMESTAMP WITH LOCAL TIME ZONE), ${f}), l FROM ltz_logon`)
      expect(r.rows![0]!.slice(0, 4)).toEqual(["Asia/Kolkata", "2024-01-01 05:30:00.0 Asia/Kolkata +05:30", "2024-01-01 05:30:00.5 Asia/Kolkata +05:30", "2024-01-01 05:30:00.0 Asia/Kolkata +05:30"])
      expect(r.rows![0]![4].toISOString()).toBe("2024-01-01T00:00:00.000Z")
    } finally {
      await kolkata.close()
    }
  })

  it("prints TZD for LOCAL TIME ZONE columns and CURRENT_TIMESTAMP in a region session time zone", async () => {
    await conn.execute("CREATE TABLE ltz_tzd (id NUMBER, l TIMESTAMP WITH LOCAL TIME ZONE, l9 TIMESTAMP(9) WITH LOCAL TIME ZONE)")
    await conn.execute("INSERT INTO ltz_tzd VALUES (1, TIMESTAMP '2024-07-01 12:00:00 +00:00', TIMESTAMP '2024-01-01 12:00:00 +00:00')")
    await conn.execute("ALTER SESSION SET TIME_ZONE = 'Europe/Berlin'")
    const r = await conn.execute("SELECT TO_CHAR(l, 'HH24:MI TZD TZR'), TO_CHAR(l9, 'HH24:MI TZD TZR'), LENGTH(TO_CHAR(CURRENT_TIMESTAMP, 'TZD')) FROM ltz_tzd")
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+00:00'")
    expect(r.rows).toEqual([["14:00 CEST Europe/Berlin", "13:00 CET Europe/Berlin", expect.any(Number)]])
    expect([3, 4]).toContain(r.rows![0]![2])
    // SYSTIMESTAMP carries an offset, which has no abbreviation (the server printed the element's letters)
    const sys = await conn.execute("SELECT TO_CHAR(SYSTIMESTAMP, 'TZD|TZH:TZM') FROM dual")
    expect(sys.rows![0]![0]).toMatch(/^\|[+-]\d{2}:\d{2}$/)
    await conn.rollback()
  })

  it("takes years -4712 to 9999 in TIMESTAMP(9) WITH LOCAL TIME ZONE from zoned literals with or without a fraction", async () => {
    await conn.execute("CREATE TABLE ltz9_range (id NUMBER, l TIMESTAMP(9) WITH LOCAL TIME ZONE)")
    await conn.execute("INSERT INTO ltz9_range VALUES (1, TIMESTAMP '-4712-01-01 12:00:00 +00:00')")
    await conn.execute("INSERT INTO ltz9_range VALUES (2, TIMESTAMP '9999-12-31 12:00:00.5 +00:00')")
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+05:30'")
    const r = await conn.execute("SELECT id, TO_CHAR(l, 'SYYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM') FROM ltz9_range ORDER BY l")
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+00:00'")
    expect(r.rows).toEqual([[1, "-4712-01-01 17:30:00.000000000 +05:30"], [2, " 9999-12-31 17:30:00.500000000 +05:30"]])
    await conn.rollback()
  })

  it("reads the abbreviation of a zoned literal: CEST is the first 02:30 of the repeated autumn hour in Berlin", async () => {
    const r = await conn.execute(
      "SELECT TO_CHAR(TIMESTAMP '2024-10-27 02:30:00 Europe/Berlin CEST', 'HH24:MI TZD TZH:TZM'), TO_CHAR(TIMESTAMP '2024-10-27 02:30:00 Europe/Berlin CET', 'HH24:MI TZD TZH:TZM'), " +
        "TIMESTAMP '2024-10-27 02:30:00 Europe/Berlin CEST', TIMESTAMP '2024-10-27 02:30:00 Europe/Berlin CET', TIMESTAMP '2024-10-27 02:30:00 Europe/Berlin' FROM dual"
    )
    expect(r.rows![0]!.slice(0, 2)).toEqual(["02:30 CEST +02:00", "02:30 CET +01:00"])
    expect(r.rows![0]!.slice(2).map((d: Date) => d.toISOString())).toEqual(["2024-10-27T00:30:00.000Z", "2024-10-27T01:30:00.000Z", "2024-10-27T01:30:00.000Z"])
    // a stored value keeps the side it was given
    await conn.execute("CREATE TABLE tz_abbr (id NUMBER, t TIMESTAMP WITH TIME ZONE)")
    await conn.execute("INSERT INTO tz_abbr VALUES (1, TIMESTAMP '2024-10-27 02:30:00 Europe/Berlin CEST')")
    const stored = await conn.execute("SELECT id, t, TO_CHAR(t, 'HH24:MI TZD') FROM tz_abbr WHERE t = TIMESTAMP '2024-10-27 00:30:00 +00:00'")
    expect(stored.rows!.map((row: Array<unknown>) => [row[0], (row[1] as Date).toISOString(), row[2]])).toEqual([[1, "2024-10-27T00:30:00.000Z", "02:30 CEST"]])
    await conn.rollback()
  })
  // "When extracting from a datetime with a time zone value, the value returned is in UTC" (SQL Language Reference,
  // "EXTRACT (datetime)", https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/EXTRACT-datetime.html);
  // a LOCAL TIME ZONE value is one (the reference lists TIMESTAMP WITH LOCAL TIME ZONE among the types with time zone
  // fields), so its fields are UTC's while TO_CHAR shows the session's wall clock. Not confirmed against a real server.
  it("EXTRACT from a LOCAL TIME ZONE column gives UTC fields, TO_CHAR the session time zone's", async () => {
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+05:00'")
    await conn.execute("CREATE TABLE ltz_x (l TIMESTAMP WITH LOCAL TIME ZONE, l9 TIMESTAMP(9) WITH LOCAL TIME ZONE)")
    await conn.execute("INSERT INTO ltz_x VALUES (TIMESTAMP '2024-01-01 22:30:00 +00:00', TIMESTAMP '2024-01-01 22:30:00.123456789 +00:00')")
    const r = await conn.execute("SELECT EXTRACT(HOUR FROM l), EXTRACT(DAY FROM l), EXTRACT(HOUR FROM l9), EXTRACT(DAY FROM l9), TO_CHAR(l, 'DD HH24'), TO_CHAR(l9, 'DD HH24') FROM ltz_x")
    expect(r.rows).toEqual([[22, 1, 22, 1, "02 03", "02 03"]])
    await conn.rollback()
  })
})
