import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"
import { startRoundTripProxy } from "./oracle/proxy.ts"

/** Runs `sql` on a connection through a proxy and returns its result with every byte the server sent. */
const fetchThroughProxy = async (server: OracleTestServerHandle, sql: string): Promise<{ result: any; bytes: Buffer }> => {
  const proxy = await startRoundTripProxy(server.port)
  try {
    const c = await oracledb.getConnection({ user: server.user, password: server.password, connectString: `127.0.0.1:${proxy.port}/FREEPDB1` })
    const result = await c.execute(sql)
    await c.close()
    return { result, bytes: proxy.serverBytes() }
  } finally {
    await proxy.close()
  }
}

/** An 11-byte TIMESTAMP wire value with its length byte: the seven date and time bytes, then the nanoseconds. */
const timestampBytes = (fields: ReadonlyArray<number>, ns: number): Buffer => {
  const b = Buffer.from([11, ...fields, 0, 0, 0, 0])
  b.writeUInt32BE(ns, 8)
  return b
}

// TIMESTAMP(9) takes Oracle's whole datetime range, years -4712 to 9999, with nine fraction digits (SQL Language
// Reference, "Data Types", TIMESTAMP: "fractional_seconds_precision ... The accepted values are 0 to 9"; "Datetime
// Data Types": the year from -4712 to 9999, excluding year 0).
describe("Oracle test server: TIMESTAMP(9) and TIMESTAMP(9) WITH LOCAL TIME ZONE over their full range (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE ts9 (id NUMBER, t TIMESTAMP(9), z TIMESTAMP(9) WITH TIME ZONE)")
    await conn.execute("CREATE TABLE ltz9 (id NUMBER, l TIMESTAMP(9) WITH LOCAL TIME ZONE)")
  })
  afterAll(() => closeConnection({ server, conn }))

  const literals = ["0001-01-01 00:00:00.000000001", "1500-06-15 12:34:56.123456789", "2024-02-29 23:59:59.999999999", "9999-12-31 23:59:59.999999999"]

  it("stores and reads literals of years 1 to 9999 with nine fraction digits, zoned or not", async () => {
    for (const [k, text] of literals.entries())
      await conn.execute(`INSERT INTO ts9 VALUES (${k + 1}, TIMESTAMP '${text}', TIMESTAMP '${text} +05:30')`)
    const r = await conn.execute("SELECT TO_CHAR(t, 'YYYY-MM-DD HH24:MI:SS.FF9'), TO_CHAR(z, 'YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM') FROM ts9 ORDER BY id")
    expect(r.rows).toEqual(literals.map((text) => [text, `${text} +05:30`]))
    expect(r.metaData.map((m: any) => m.name)).toHaveLength(2)
    // ordering and comparisons keep the nanoseconds over the whole range
    const ordered = await conn.execute("SELECT id FROM ts9 WHERE t > TIMESTAMP '0001-01-01 00:00:00.000000000' AND t < TIMESTAMP '9999-12-31 23:59:59.999999999' ORDER BY t DESC")
    expect(ordered.rows).toEqual([[3], [2], [1]])
    const extracted = await conn.execute("SELECT EXTRACT(YEAR FROM t), EXTRACT(SECOND FROM t) FROM ts9 WHERE id = 2")
    expect(extracted.rows).toEqual([[1500, 56.123456789]])
    const extremes = await conn.execute("SELECT TO_CHAR(MIN(t), 'YYYY-MM-DD HH24:MI:SS.FF9'), TO_CHAR(MAX(t), 'YYYY-MM-DD HH24:MI:SS.FF9') FROM ts9")
    expect(extremes.rows).toEqual([[literals[0], literals[3]]])
    await conn.rollback()
  })

  // TIMESTAMP(9) ± INTERVAL is a TIMESTAMP(9), not a zoned value; TRUNC and ± n days give a DATE of the wall clock,
  // the fraction lost (SQL Language Reference, "Datetime/Interval Arithmetic"); INSERT ... SELECT of a TIMESTAMP(9)
  // into a TIMESTAMP WITH TIME ZONE column takes the session time zone.
  it("describes TIMESTAMP(9) arithmetic without zone as TIMESTAMP and computes TRUNC, ± days and NVL on it", async () => {
    await conn.execute(`INSERT INTO ts9 (id, t) VALUES (2, TIMESTAMP '${literals[1]}')`)
    const r = await conn.execute(
      `SELECT TO_CHAR(t + INTERVAL '1' DAY, 'YYYY-MM-DD HH24:MI:SS.FF9'), TO_CHAR(t - INTERVAL '1-1' YEAR TO MONTH, 'YYYY-MM-DD HH24:MI:SS.FF9'),
              TO_CHAR(TRUNC(t), 'YYYY-MM-DD HH24:MI:SS'), TO_CHAR(t + 1, 'YYYY-MM-DD HH24:MI:SS'),
              TO_CHAR(NVL(t, TIMESTAMP '2000-01-01 00:00:00.000000001'), 'YYYY-MM-DD HH24:MI:SS.FF9'),
              t + INTERVAL '1' DAY, INTERVAL '1' DAY + t, TRUNC(t), t - 1, NVL(t, TIMESTAMP '2000-01-01 00:00:00.000000001')
         FROM ts9 WHERE id = 2`
    )
    expect(r.rows[0].slice(0, 5)).toEqual([
      "1500-06-16 12:34:56.123456789", "1499-05-15 12:34:56.123456789", "1500-06-15 00:00:00", "1500-06-16 12:34:56", literals[1]
    ])
    expect(r.metaData.slice(5).map((m: any) => m.dbTypeName)).toEqual(["TIMESTAMP", "TIMESTAMP", "DATE", "DATE", "TIMESTAMP"])
    expect([5, 6, 9].map((k) => r.metaData[k].precision)).toEqual([9, 9, 9])
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+05:30'")
    await conn.execute("INSERT INTO ts9 (id, z) SELECT 3, t FROM ts9 WHERE id = 2")
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+00:00'")
    const z = await conn.execute("SELECT TO_CHAR(z, 'YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM') FROM ts9 WHERE id = 3")
    expect(z.rows).toEqual([[`${literals[1]} +05:30`]])
    await conn.rollback()
  })

  // The wire value of a TIMESTAMP is 11 bytes: century + 100, year + 100, month, day, hour + 1, minute + 1, second + 1
  // and the nanoseconds (UInt32BE); a negative year is century and year below 100 (node-oracledb
  // lib/impl/datahandlers/buffer.js parseOracleDate / writeOracleDate).
  it("sends the exact 11 bytes of each value, and takes years down to -4712 from binds (executeMany included)", async () => {
    for (const [k, text] of literals.entries()) await conn.execute(`INSERT INTO ts9 (id, t) VALUES (${k + 1}, TIMESTAMP '${text}')`)
    // a bound Date: year -4712 (4713 BC) and year 10 (Date.UTC maps 0-99 to 1900-1999, so setUTCFullYear)
    const date = (year: number, ms: number) => {
      const d = new Date(Date.UTC(2000, 0, 1, 12, 0, 0, ms))
      d.setFullYear(year)
      return d
    }
    await conn.execute("INSERT INTO ts9 (id, t) VALUES (:1, :2)", [10, date(-4712, 250)])
    await conn.executeMany("INSERT INTO ts9 (id, t) VALUES (:1, :2)", [[11, date(10, 5)], [12, date(9999, 999)]], {
      bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.DB_TYPE_TIMESTAMP }]
    })
    // the proxied session reads what this one committed
    await conn.commit()
    try {
      const { result: r, bytes } = await fetchThroughProxy(server, "SELECT t FROM ts9 ORDER BY id")
      expect(r.metaData[0]).toMatchObject({ dbTypeName: "TIMESTAMP", precision: 9 })
      expect(bytes.includes(timestampBytes([100, 101, 1, 1, 1, 1, 1], 1))).toBe(true)
      expect(bytes.includes(timestampBytes([115, 100, 6, 15, 13, 35, 57], 123456789))).toBe(true)
      expect(bytes.includes(timestampBytes([199, 199, 12, 31, 24, 60, 60], 999999999))).toBe(true)
      // -4712: century 100 - 47, year 100 - 12 (the bind's local wall clock, as node-oracledb writes TIMESTAMP binds)
      const bc = date(-4712, 250)
      expect(bytes.includes(timestampBytes([53, 88, bc.getMonth() + 1, bc.getDate(), bc.getHours() + 1, bc.getMinutes() + 1, bc.getSeconds() + 1], 250_000_000))).toBe(true)
      const ten = date(10, 5)
      expect(bytes.includes(timestampBytes([100, 110, ten.getMonth() + 1, ten.getDate(), ten.getHours() + 1, ten.getMinutes() + 1, ten.getSeconds() + 1], 5_000_000))).toBe(true)
    } finally {
      await conn.execute("DELETE FROM ts9")
      await conn.commit()
    }
  })

  // TIMESTAMP(9) WITH LOCAL TIME ZONE takes the same years -4712 to 9999 with nine digits ("Datetime Data Types": the
  // year ranges over -4712 to 9999 for every datetime type). Its value is an instant: written in the writer's session
  // time zone, shown in the reader's, sent as the database time zone's wall clock (UTC here).
  it("stores, compares and shows literals, binds and executeMany rows of years -4712 to 9999 to the nanosecond", async () => {
    await conn.execute("INSERT INTO ltz9 VALUES (1, TIMESTAMP '1500-06-15 12:34:56.123456789')")
    await conn.execute("INSERT INTO ltz9 VALUES (2, TIMESTAMP '9999-12-31 23:59:59.999999999 +00:00')")
    await conn.execute("INSERT INTO ltz9 VALUES (3, TIMESTAMP '-4712-01-01 00:00:00.000000001 +00:00')")
    // a bound Date: year 10 (Date.UTC maps 0-99 to 1900-1999, so setUTCFullYear); milliseconds are all a Date has
    const year10 = new Date(Date.UTC(2000, 0, 1, 12, 0, 0, 5))
    year10.setUTCFullYear(10)
    await conn.execute("INSERT INTO ltz9 VALUES (:1, :2)", [4, { val: year10, type: oracledb.DB_TYPE_TIMESTAMP_LTZ }])
    await conn.executeMany("INSERT INTO ltz9 VALUES (:1, :2)", [[5, new Date(Date.UTC(3000, 6, 1, 8, 30, 0, 250))]], {
      bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.DB_TYPE_TIMESTAMP_LTZ }]
    })
    await conn.commit()
    // ordered by instant over the whole range (year -4712 first); TO_CHAR of the years 1 to 9999 (the -4712 value's
    // bytes are checked in the next test)
    expect((await conn.execute("SELECT id FROM ltz9 ORDER BY l")).rows).toEqual([[3], [4], [1], [5], [2]])
    const fmt = "'YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM'"
    const r = await conn.execute(`SELECT id, TO_CHAR(l, ${fmt}) FROM ltz9 WHERE id <> 3 ORDER BY l`)
    expect(r.rows).toEqual([
      [4, "0010-01-01 12:00:00.005000000 +00:00"],
      [1, "1500-06-15 12:34:56.123456789 +00:00"],
      [5, "3000-07-01 08:30:00.250000000 +00:00"],
      [2, "9999-12-31 23:59:59.999999999 +00:00"]
    ])
    const between = await conn.execute("SELECT id FROM ltz9 WHERE l > TIMESTAMP '1500-06-15 12:34:56.123456788 +00:00' AND l < TIMESTAMP '9999-12-31 23:59:59.999999999 UTC' ORDER BY id")
    expect(between.rows).toEqual([[1], [5]])
    // another session time zone: the same instants on its wall clock
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+05:30'")
    const shown = await conn.execute(`SELECT TO_CHAR(l, ${fmt}), CAST(l AS TIMESTAMP) FROM ltz9 WHERE id = 1`)
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+00:00'")
    expect(shown.rows[0][0]).toBe("1500-06-15 18:04:56.123456789 +05:30")
    // the session's wall clock as a TIMESTAMP (node-oracledb reads it as local time; the tests run in UTC)
    expect(shown.rows[0][1].toISOString()).toBe("1500-06-15T18:04:56.123Z")
  })

  // A TIMESTAMP WITH LOCAL TIME ZONE value travels as a TIMESTAMP's 11 bytes, the wall clock of the database time zone
  // (UTC here), as the server sends its other LOCAL TIME ZONE values (encode.ts).
  it("sends the exact 11 bytes of each LOCAL TIME ZONE value", async () => {
    const { result: r, bytes } = await fetchThroughProxy(server, "SELECT l FROM ltz9 WHERE id IN (1, 2, 3) ORDER BY id")
    expect(r.metaData[0]).toMatchObject({ dbTypeName: "TIMESTAMP WITH LOCAL TIME ZONE", precision: 9 })
    expect(bytes.includes(timestampBytes([115, 100, 6, 15, 13, 35, 57], 123456789))).toBe(true)
    expect(bytes.includes(timestampBytes([199, 199, 12, 31, 24, 60, 60], 999999999))).toBe(true)
    expect(bytes.includes(timestampBytes([53, 88, 1, 1, 1, 1, 1], 1))).toBe(true)
  })
})
