import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, withServer } from "./oracle/helpers.ts"
import { startRoundTripProxy } from "./oracle/proxy.ts"

// Datetime literal forms (offsets, region names with optional abbreviation) and interval literal forms
// (signed, `DAY TO SECOND`, `YEAR TO MONTH`, `HOUR TO MINUTE`) follow the Oracle SQL Language Reference,
// "Literals": https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Literals.html
for (const version of ["23ai", "19c"] as const)
describe(`Oracle test server: time zones, sub-second values and intervals (${version} layout)`, () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    const s = await withServer({ version })
    server = s.server
    conn = await s.connect()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("turns TIMESTAMP literals with offsets and region names into the right instants (DST included)", async () => {
    const r = await conn.execute(
      `SELECT TIMESTAMP '2024-01-02 03:04:05.123 +05:30' a, TIMESTAMP '2024-01-02 03:04:05 -8:00' b,
              TIMESTAMP '2024-07-01 12:00:00 Europe/Paris' summer, TIMESTAMP '2024-01-15 12:00:00 Europe/Paris CET' winter,
              TIMESTAMP '2024-01-02 03:04:05' plain FROM DUAL`
    )
    expect(r.metaData.map((m: any) => m.dbTypeName)).toEqual([
      "TIMESTAMP WITH TIME ZONE", "TIMESTAMP WITH TIME ZONE", "TIMESTAMP WITH TIME ZONE", "TIMESTAMP WITH TIME ZONE", "TIMESTAMP"
    ])
    expect(r.rows[0].slice(0, 4)).toEqual([
      new Date(Date.UTC(2024, 0, 1, 21, 34, 5, 123)),
      new Date(Date.UTC(2024, 0, 2, 11, 4, 5)),
      new Date(Date.UTC(2024, 6, 1, 10, 0, 0)), // CEST = UTC+2
      new Date(Date.UTC(2024, 0, 15, 11, 0, 0)) // CET = UTC+1
    ])
    expect(r.rows[0][4]).toEqual(new Date(2024, 0, 2, 3, 4, 5))
    // TO_CHAR of a zoned literal shows its own wall clock and zone, and names the same instant
    const text = (await conn.execute("SELECT TO_CHAR(TIMESTAMP '2024-07-01 12:00:00 Europe/Paris', 'YYYY-MM-DD\"T\"HH24:MI:SSTZH:TZM') FROM DUAL")).rows[0][0]
    expect(text).toBe("2024-07-01T12:00:00+02:00")
    expect(new Date(text)).toEqual(new Date(Date.UTC(2024, 6, 1, 10, 0, 0)))
  })

  // A TIMESTAMP WITH TIME ZONE wire value is the UTC date and time, then two zone bytes: a region as its Oracle id
  // (0x80 | id >> 6, (id & 0x3f) << 2; Europe/Paris is 382), an offset as hours + 20 and minutes + 60 (go-ora,
  // v2/converters/type_conversion.go EncodeTimeStamp / DecodeDate). node-oracledb's thin decoder ignores both zone
  // bytes (lib/impl/datahandlers/buffer.js parseOracleDate): the Date is the instant whatever the zone.
  it("sends zoned literals and CURRENT_TIMESTAMP with their region id or offset, which node-oracledb thin reads as the same instant", async () => {
    const proxy = await startRoundTripProxy(server.port)
    try {
      const c = await oracledb.getConnection({ user: server.user, password: server.password, connectString: `127.0.0.1:${proxy.port}/FREEPDB1` })
      const r = await c.execute(
        "SELECT TIMESTAMP '2024-07-01 12:00:00 Europe/Paris' p, TIMESTAMP '2024-01-02 03:04:05 +05:30' o, TIMESTAMP '2024-07-01 12:00:00 America/Phoenix' x, TIMESTAMP '2024-07-01 12:00:00 America/Ciudad_Juarez' j FROM DUAL"
      )
      // CURRENT_TIMESTAMP is in the session time zone (Asia/Kolkata is region 772)
      await c.execute("ALTER SESSION SET TIME_ZONE = 'Asia/Kolkata'")
      const now = await c.execute("SELECT CURRENT_TIMESTAMP FROM DUAL")
      await c.close()
      expect(Math.abs(now.rows[0][0].getTime() - Date.now())).toBeLessThan(60_000)
      const sent = proxy.serverBytes()
      const kolkata = [...sent.keys()].filter((p) => sent[p] === 13 && sent[p + 1] === 120 && sent[p + 12] === (0x80 | (772 >> 6)) && sent[p + 13] === (772 & 0x3f) << 2)
      expect(kolkata.length).toBe(1)
      expect(r.metaData.map((m: any) => m.dbTypeName)).toEqual(Array(4).fill("TIMESTAMP WITH TIME ZONE"))
      expect(r.rows[0]).toEqual([new Date(Date.UTC(2024, 6, 1, 10)), new Date(Date.UTC(2024, 0, 1, 21, 34, 5)), new Date(Date.UTC(2024, 6, 1, 19)), new Date(Date.UTC(2024, 6, 1, 18))])
      const value = (utc: ReadonlyArray<number>, zone: ReadonlyArray<number>) => Buffer.from([13, ...utc, 0, 0, 0, 0, ...zone])
      const bytes = proxy.serverBytes()
      expect(bytes.includes(value([120, 124, 7, 1, 11, 1, 1], [0x80 | (382 >> 6), (382 & 0x3f) << 2]))).toBe(true)
      expect(bytes.includes(value([120, 124, 1, 1, 22, 35, 6], [20 + 5, 60 + 30]))).toBe(true)
      // America/Phoenix is region 109; a region without an id in the table (America/Ciudad_Juarez, newer than the
      // ids listed) goes as its offset at that instant (-06:00 in July)
      expect(bytes.includes(value([120, 124, 7, 1, 20, 1, 1], [0x80 | (109 >> 6), (109 & 0x3f) << 2]))).toBe(true)
      expect(bytes.includes(value([120, 124, 7, 1, 19, 1, 1], [20 - 6, 60]))).toBe(true)
    } finally {
      await proxy.close()
    }
  })

  it("stores time-zone values in tables and keeps the instant across session time zones", async () => {
    await conn.execute("CREATE TABLE tzt (id NUMBER, a TIMESTAMP(6) WITH TIME ZONE, l TIMESTAMP WITH LOCAL TIME ZONE, ts TIMESTAMP(9))")
    await conn.execute(
      `INSERT INTO tzt VALUES (1, TIMESTAMP '2024-07-01 12:00:00.5 America/New_York', TIMESTAMP '2024-01-01 00:00:00 -05:00',
        TIMESTAMP '2024-01-02 03:04:05.123456789')`
    )
    await conn.execute("INSERT INTO tzt VALUES (:1, :2, :3, :4)", [
      2,
      { val: new Date(Date.UTC(2024, 2, 3, 4, 5, 6, 789)), type: oracledb.DB_TYPE_TIMESTAMP_TZ },
      { val: new Date(Date.UTC(2024, 2, 3, 4, 5, 6, 789)), type: oracledb.DB_TYPE_TIMESTAMP_LTZ },
      new Date(2024, 2, 3, 4, 5, 6, 789)
    ])
    const read = async () => (await conn.execute("SELECT a, l, ts FROM tzt ORDER BY id")).rows
    const expected = [
      [new Date(Date.UTC(2024, 6, 1, 16, 0, 0, 500)), new Date(Date.UTC(2024, 0, 1, 5)), new Date(2024, 0, 2, 3, 4, 5, 123)],
      [new Date(Date.UTC(2024, 2, 3, 4, 5, 6, 789)), new Date(Date.UTC(2024, 2, 3, 4, 5, 6, 789)), new Date(2024, 2, 3, 4, 5, 6, 789)]
    ]
    expect(await read()).toEqual(expected)
    await conn.execute("ALTER SESSION SET TIME_ZONE = 'Asia/Kolkata'")
    expect((await conn.execute("SELECT SESSIONTIMEZONE FROM DUAL")).rows).toEqual([["Asia/Kolkata"]])
    expect(await read()).toEqual(expected)
    await conn.execute("ALTER SESSION SET TIME_ZONE = '-03:00'")
    expect((await conn.execute("SELECT SESSIONTIMEZONE FROM DUAL")).rows).toEqual([["-03:00"]])
    expect(await read()).toEqual(expected)
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+00:00'")
    // sub-second digits below the millisecond (which node-oracledb drops) survive in the database
    expect((await conn.execute("SELECT TO_CHAR(ts, 'HH24:MI:SS.FF6') FROM tzt WHERE id = 1")).rows).toEqual([["03:04:05.123456"]])
    await conn.rollback()
  })

  it("follows the session time zone (offset or region) in LOCALTIMESTAMP and CURRENT_DATE, and rejects unknown regions", async () => {
    // node-oracledb builds DATE/TIMESTAMP values from their wall-clock fields in the process time zone
    const wall = (d: Date) => Date.UTC(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds())
    for (const tz of ["+05:30", "Asia/Kolkata"]) {
      await conn.execute(`ALTER SESSION SET TIME_ZONE = '${tz}'`)
      const r = await conn.execute("SELECT LOCALTIMESTAMP, CURRENT_DATE, CURRENT_TIMESTAMP, SYSTIMESTAMP, SESSIONTIMEZONE FROM DUAL")
      const [local, date, current, sys, name] = r.rows[0]
      const expected = Date.now() + 330 * 60_000 // India has no DST
      expect(Math.abs(wall(local) - expected)).toBeLessThan(60_000)
      expect(Math.abs(wall(date) - expected)).toBeLessThan(60_000)
      expect(Math.abs(current.getTime() - Date.now())).toBeLessThan(60_000)
      expect(Math.abs(sys.getTime() - Date.now())).toBeLessThan(60_000)
      expect(name).toBe(tz)
    }
    const e = await conn.execute("ALTER SESSION SET TIME_ZONE = 'Mars/Olympus'").catch((err: Error) => err)
    expect(e.message).toMatch(/^ORA-01882: timezone region not found/)
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+00:00'")
  })

  // TO_CHAR of a TIMESTAMP WITH LOCAL TIME ZONE (and of CURRENT_TIMESTAMP) shows the session time zone, and CAST to
  // TIMESTAMP gives its wall clock there; a TIMESTAMP cast to a zoned type is read in the session time zone (Oracle
  // Database Globalization Support Guide, "Datetime Data Types and Time Zone Support":
  // https://docs.oracle.com/en/database/oracle/oracle-database/23/nlspg/datetime-data-types-and-time-zone-support.html)
  it("shows TIMESTAMP WITH LOCAL TIME ZONE and zoned literals in their time zone in TO_CHAR and CAST", async () => {
    await conn.execute("CREATE TABLE ltzt (id NUMBER, l TIMESTAMP(6) WITH LOCAL TIME ZONE)")
    await conn.execute("INSERT INTO ltzt VALUES (1, TIMESTAMP '2024-01-15 12:00:00.25 +00:00')")
    await conn.execute("INSERT INTO ltzt VALUES (2, TIMESTAMP '2024-07-15 12:00:00 +00:00')")
    const show = async () =>
      (await conn.execute("SELECT TO_CHAR(l, 'YYYY-MM-DD HH24:MI:SS.FF3 TZH:TZM TZR'), TO_CHAR(t.l, 'TZH'), TO_CHAR(l, 'TZM'), CAST(l AS TIMESTAMP), l FROM ltzt t ORDER BY id")).rows
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+05:30'")
    // node-oracledb reads a TIMESTAMP as a wall clock in the process's time zone
    expect(await show()).toEqual([
      ["2024-01-15 17:30:00.250 +05:30 +05:30", "+05", "30", new Date(2024, 0, 15, 17, 30, 0, 250), new Date(Date.UTC(2024, 0, 15, 12, 0, 0, 250))],
      ["2024-07-15 17:30:00.000 +05:30 +05:30", "+05", "30", new Date(2024, 6, 15, 17, 30), new Date(Date.UTC(2024, 6, 15, 12))]
    ])
    // a region: the offset of each value's own instant (New York is -05:00 in January, -04:00 in July)
    await conn.execute("ALTER SESSION SET TIME_ZONE = 'America/New_York'")
    expect(await show()).toEqual([
      ["2024-01-15 07:00:00.250 -05:00 America/New_York", "-05", "00", new Date(2024, 0, 15, 7, 0, 0, 250), new Date(Date.UTC(2024, 0, 15, 12, 0, 0, 250))],
      ["2024-07-15 08:00:00.000 -04:00 America/New_York", "-04", "00", new Date(2024, 6, 15, 8), new Date(Date.UTC(2024, 6, 15, 12))]
    ])
    const now = (await conn.execute("SELECT TO_CHAR(CURRENT_TIMESTAMP, 'TZR'), CAST(TIMESTAMP '2024-07-15 08:00:00' AS TIMESTAMP WITH TIME ZONE), CAST(TIMESTAMP '2024-01-15 07:00:00' AS TIMESTAMP WITH LOCAL TIME ZONE) FROM DUAL")).rows[0]
    expect(now).toEqual(["America/New_York", new Date(Date.UTC(2024, 6, 15, 12)), new Date(Date.UTC(2024, 0, 15, 12))])
    const literal = (await conn.execute("SELECT TO_CHAR(TIMESTAMP '2024-01-15 12:00:00.123456789 Europe/Paris', 'HH24:MI:SS.FF9 TZH:TZM TZR'), TO_CHAR(TIMESTAMP '2024-01-15 12:00:00 -03:30', 'HH24:MI TZR TZH TZM') FROM DUAL")).rows[0]
    expect(literal).toEqual(["12:00:00.123456789 +01:00 Europe/Paris", "12:00 -03:30 -03 30"])
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+00:00'")
    await conn.rollback()
  })

  it("keeps nanoseconds of TIMESTAMP(9) in storage, TO_CHAR and the wire value", async () => {
    await conn.execute("CREATE TABLE nst (ts TIMESTAMP(9))")
    await conn.execute("INSERT INTO nst VALUES (TIMESTAMP '2024-01-02 03:04:05.123456789')")
    const r = await conn.execute("SELECT ts, TO_CHAR(ts, 'HH24:MI:SS.FF9'), TO_CHAR(ts, 'SS.FF3'), TO_CHAR(ts, 'FF9 \"and\" FF9 YYYY') FROM nst")
    expect(r.metaData[0]).toMatchObject({ dbTypeName: "TIMESTAMP", precision: 9 })
    expect(r.rows).toEqual([[new Date(2024, 0, 2, 3, 4, 5, 123), "03:04:05.123456789", "05.123", "123456789 and 123456789 2024"]])
    await conn.commit()
    // node-oracledb keeps milliseconds only; the 11-byte wire value carries the nanoseconds as UInt32BE at offset 7
    const proxy = await startRoundTripProxy(server.port)
    try {
      const c = await oracledb.getConnection({ user: server.user, password: server.password, connectString: `127.0.0.1:${proxy.port}/FREEPDB1` })
      await c.execute("SELECT ts FROM nst")
      await c.close()
      const ns = Buffer.alloc(4)
      ns.writeUInt32BE(123_456_789)
      const wire = Buffer.concat([Buffer.from([11, 120, 124, 1, 2, 4, 5, 6]), ns]) // length 11, 2024-01-02 03:04:05
      expect(proxy.serverBytes().includes(wire)).toBe(true)
    } finally {
      await proxy.close()
    }
  })

  it("reads and writes intervals, negative ones included, as literals, binds and columns", async () => {
    const lit = await conn.execute(
      `SELECT INTERVAL '-1 02:03:04.5' DAY TO SECOND, INTERVAL '3 04:05:06.25' DAY(3) TO SECOND(2), INTERVAL '90' MINUTE,
              INTERVAL '2:30' HOUR TO MINUTE FROM DUAL`
    )
    expect(lit.metaData.map((m: any) => m.dbTypeName)).toEqual(Array(4).fill("INTERVAL DAY TO SECOND"))
    expect(lit.rows[0].map((v: any) => ({ ...v }))).toEqual([
      { days: -1, hours: -2, minutes: -3, seconds: -4, fseconds: -500_000_000 },
      { days: 3, hours: 4, minutes: 5, seconds: 6, fseconds: 250_000_000 },
      { days: 0, hours: 1, minutes: 30, seconds: 0, fseconds: 0 },
      { days: 0, hours: 2, minutes: 30, seconds: 0, fseconds: 0 }
    ])
    const ym = await conn.execute("SELECT INTERVAL '1-2' YEAR TO MONTH, INTERVAL '-3' MONTH m, INTERVAL '5' YEAR(3) AS y FROM DUAL")
    expect(ym.metaData.map((m: any) => [m.name, m.dbTypeName])).toEqual([
      ["INTERVAL'1-2'YEARTOMONTH", "INTERVAL YEAR TO MONTH"],
      ["M", "INTERVAL YEAR TO MONTH"],
      ["Y", "INTERVAL YEAR TO MONTH"]
    ])
    expect(ym.rows[0].map((v: any) => ({ ...v }))).toEqual([{ years: 1, months: 2 }, { years: 0, months: -3 }, { years: 5, months: 0 }])
    await conn.execute("CREATE TABLE ivt (id NUMBER, ds INTERVAL DAY(3) TO SECOND(2), ym INTERVAL YEAR(4) TO MONTH)")
    await conn.execute("INSERT INTO ivt VALUES (1, INTERVAL '-3 04:05:06.25' DAY TO SECOND, INTERVAL '-2-3' YEAR TO MONTH)")
    await conn.execute("INSERT INTO ivt VALUES (:1, :2, :3)", [
      2,
      { val: new oracledb.IntervalDS({ days: -5, hours: -1, minutes: 0, seconds: -2, fseconds: -10_000_000 }), type: oracledb.DB_TYPE_INTERVAL_DS },
      { val: new oracledb.IntervalYM({ years: 12, months: 11 }), type: oracledb.DB_TYPE_INTERVAL_YM }
    ])
    const r = await conn.execute("SELECT ds, ym FROM ivt ORDER BY id")
    expect(r.metaData.map((m: any) => m.dbTypeName)).toEqual(["INTERVAL DAY TO SECOND", "INTERVAL YEAR TO MONTH"])
    expect(r.rows.map((row: any[]) => row.map((v) => ({ ...v })))).toEqual([
      [{ days: -3, hours: -4, minutes: -5, seconds: -6, fseconds: -250_000_000 }, { years: -2, months: -3 }],
      [{ days: -5, hours: -1, minutes: 0, seconds: -2, fseconds: -10_000_000 }, { years: 12, months: 11 }]
    ])
    const dict = await conn.execute("SELECT data_type, data_precision, data_scale FROM user_tab_columns WHERE table_name = 'IVT' AND column_id > 1 ORDER BY column_id")
    expect(dict.rows).toEqual([
      ["INTERVAL DAY(3) TO SECOND(2)", 3, 2],
      ["INTERVAL YEAR(4) TO MONTH", 4, 0]
    ])
    await conn.rollback()
  })

  it("takes interval literals of any precision into DAY TO SECOND(7-9) and YEAR(9) TO MONTH columns and compares them", async () => {
    const r = await conn.execute("SELECT INTERVAL '0 01:02:03.000000000' DAY(3) TO SECOND(9) FROM dual")
    expect({ ...r.rows[0][0] }).toEqual({ days: 0, hours: 1, minutes: 2, seconds: 3, fseconds: 0 })
    await conn.execute("CREATE TABLE ivl (id NUMBER, ds INTERVAL DAY(3) TO SECOND(9), ym INTERVAL YEAR(9) TO MONTH)")
    await conn.execute("INSERT INTO ivl VALUES (1, INTERVAL '0 01:02:03.000000000' DAY(3) TO SECOND(9), INTERVAL '1-2' YEAR TO MONTH)")
    await conn.execute("INSERT INTO ivl VALUES (2, INTERVAL '-2 00:00:00' DAY TO SECOND, INTERVAL '-5' MONTH)")
    await conn.execute("INSERT INTO ivl VALUES (3, INTERVAL '90' MINUTE, INTERVAL '999999999' YEAR(9))")
    await conn.execute("INSERT INTO ivl VALUES (4, INTERVAL '0 00:00:00.000000001' DAY TO SECOND(9), INTERVAL '0' YEAR)")
    const rows = await conn.execute("SELECT ds, ym FROM ivl ORDER BY id")
    expect(rows.rows.map((row: any[]) => row.map((v) => ({ ...v })))).toEqual([
      [{ days: 0, hours: 1, minutes: 2, seconds: 3, fseconds: 0 }, { years: 1, months: 2 }],
      [{ days: -2, hours: 0, minutes: 0, seconds: 0, fseconds: 0 }, { years: 0, months: -5 }],
      [{ days: 0, hours: 1, minutes: 30, seconds: 0, fseconds: 0 }, { years: 999_999_999, months: 0 }],
      [{ days: 0, hours: 0, minutes: 0, seconds: 0, fseconds: 1 }, { years: 0, months: 0 }]
    ])
    const between = await conn.execute("SELECT id FROM ivl WHERE ds BETWEEN INTERVAL '0' SECOND AND INTERVAL '1:30' HOUR TO MINUTE ORDER BY ds")
    expect(between.rows).toEqual([[4], [1], [3]])
    const ym = await conn.execute("SELECT id FROM ivl WHERE ym > INTERVAL '1' YEAR ORDER BY ym DESC")
    expect(ym.rows).toEqual([[3], [1]])
    await conn.execute("UPDATE ivl SET ds = INTERVAL '1' DAY, ym = INTERVAL '3' MONTH WHERE id = 2")
    expect((await conn.execute("SELECT ds, ym FROM ivl WHERE id = 2")).rows.map((row: any[]) => row.map((v) => ({ ...v })))).toEqual([
      [{ days: 1, hours: 0, minutes: 0, seconds: 0, fseconds: 0 }, { years: 0, months: 3 }]
    ])
    await conn.rollback()
  })

  // Ranges from the Oracle SQL Language Reference, "Data Types" (INTERVAL YEAR(year_precision) TO MONTH: 0..9 year digits;
  // INTERVAL DAY(day_precision) TO SECOND(fractional_seconds_precision): 0..9 each):
  // https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Data-Types.html
  it("keeps INTERVAL DAY(9) TO SECOND(9) and YEAR(9) TO MONTH at their extremes, nanoseconds and signs included", async () => {
    await conn.execute("CREATE TABLE ivx (id NUMBER, ds INTERVAL DAY(9) TO SECOND(9), ym INTERVAL YEAR(9) TO MONTH)")
    const ds = (days: number, hours: number, minutes: number, seconds: number, fseconds: number) => ({
      val: new oracledb.IntervalDS({ days, hours, minutes, seconds, fseconds }),
      type: oracledb.DB_TYPE_INTERVAL_DS
    })
    const ym = (years: number, months: number) => ({ val: new oracledb.IntervalYM({ years, months }), type: oracledb.DB_TYPE_INTERVAL_YM })
    await conn.execute("INSERT INTO ivx VALUES (:1, :2, :3)", [1, ds(999_999_999, 23, 59, 59, 999_999_999), ym(999_999_999, 11)])
    await conn.execute("INSERT INTO ivx VALUES (:1, :2, :3)", [2, ds(-999_999_999, -23, -59, -59, -999_999_999), ym(-999_999_999, -11)])
    await conn.executeMany("INSERT INTO ivx VALUES (:1, :2, :3)", [
      [3, ds(0, 0, 0, 0, 1).val, ym(0, -1).val],
      [4, ds(-1, -2, -3, -4, -123_456_789).val, ym(178_956_971, 0).val]
    ], { bindDefs: [{ type: oracledb.DB_TYPE_NUMBER }, { type: oracledb.DB_TYPE_INTERVAL_DS }, { type: oracledb.DB_TYPE_INTERVAL_YM }] })
    await conn.execute(
      "INSERT INTO ivx VALUES (5, INTERVAL '-12 03:04:05.000000007' DAY(9) TO SECOND(9), INTERVAL '999999999-11' YEAR(9) TO MONTH)"
    )
    const r = await conn.execute("SELECT ds, ym FROM ivx ORDER BY id")
    expect(r.metaData.map((m: any) => m.dbTypeName)).toEqual(["INTERVAL DAY TO SECOND", "INTERVAL YEAR TO MONTH"])
    expect(r.rows.map((row: any[]) => row.map((v) => ({ ...v })))).toEqual([
      [{ days: 999_999_999, hours: 23, minutes: 59, seconds: 59, fseconds: 999_999_999 }, { years: 999_999_999, months: 11 }],
      [{ days: -999_999_999, hours: -23, minutes: -59, seconds: -59, fseconds: -999_999_999 }, { years: -999_999_999, months: -11 }],
      [{ days: 0, hours: 0, minutes: 0, seconds: 0, fseconds: 1 }, { years: 0, months: -1 }],
      [{ days: -1, hours: -2, minutes: -3, seconds: -4, fseconds: -123_456_789 }, { years: 178_956_971, months: 0 }],
      [{ days: -12, hours: -3, minutes: -4, seconds: -5, fseconds: -7 }, { years: 999_999_999, months: 11 }]
    ])
    // a bound interval compares with the stored one exactly (one nanosecond apart is another value)
    const found = await conn.execute("SELECT id FROM ivx WHERE ds = :1 ORDER BY id", [ds(0, 0, 0, 0, 1)])
    expect(found.rows).toEqual([[3]])
    const none = await conn.execute("SELECT id FROM ivx WHERE ds = :1", [ds(0, 0, 0, 0, 2)])
    expect(none.rows).toEqual([])
    const ordered = await conn.execute("SELECT id FROM ivx ORDER BY ds")
    expect(ordered.rows).toEqual([[2], [5], [4], [3], [1]])
    const lit = await conn.execute("SELECT INTERVAL '0 00:00:00.123456789' DAY TO SECOND(9) FROM DUAL")
    expect(lit.metaData[0]).toMatchObject({ dbTypeName: "INTERVAL DAY TO SECOND" })
    expect({ ...lit.rows[0][0] }).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0, fseconds: 123_456_789 })
    await conn.rollback()
  })
})
