import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// The session's NLS_DATE_FORMAT, NLS_TIMESTAMP_FORMAT and NLS_TIMESTAMP_TZ_FORMAT (ALTER SESSION) govern the
// conversions Oracle makes without a format model: TO_CHAR(datetime) ("If you omit fmt ... DATE values are converted
// to values in the default date format. TIMESTAMP and TIMESTAMP WITH LOCAL TIME ZONE values ... in the default
// timestamp format. TIMESTAMP WITH TIME ZONE values ... in the default timestamp with time zone format", SQL Language
// Reference, "TO_CHAR (datetime)"), `||` and CAST to VARCHAR2 (implicit conversion as TO_CHAR), and TO_DATE /
// TO_TIMESTAMP / TO_TIMESTAMP_TZ of text ("NLS_TIMESTAMP_TZ_FORMAT defines the default datetime format model to use
// with the TO_CHAR and TO_TIMESTAMP_TZ functions", Database Reference, "NLS_TIMESTAMP_TZ_FORMAT"). AMERICA's defaults:
// DD-MON-RR, DD-MON-RR HH.MI.SSXFF AM, DD-MON-RR HH.MI.SSXFF AM TZR. node-oracledb thin fetches datetimes as binary, so
// fetched values do not depend on them.
let server: OracleTestServerHandle
let conn: Conn

const row = async (sql: string) => ((await conn.execute(sql)).rows as Array<Array<unknown>>)[0]!

describe("Oracle test server: session NLS datetime formats", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE TABLE nls_t (ts TIMESTAMP(6) WITH TIME ZONE, t TIMESTAMP(6), d DATE)`)
    await conn.execute(`INSERT INTO nls_t VALUES (TIMESTAMP '2024-03-05 13:04:05.25 Europe/Paris', TIMESTAMP '2024-03-05 13:04:05.25', DATE '2024-03-05')`)
  })
  afterAll(() => closeConnection({ server, conn }))

  it("converts datetimes to text in the territory's default formats", async () => {
    expect(await row(`SELECT TO_CHAR(ts), TO_CHAR(t), TO_CHAR(d) FROM nls_t`)).toEqual([
      "05-MAR-24 01.04.05.250000 PM Europe/Paris",
      "05-MAR-24 01.04.05.250000 PM",
      "05-MAR-24"
    ])
    expect(await row(`SELECT ts || '!', t || '!', d || '!' FROM nls_t`)).toEqual([
      "05-MAR-24 01.04.05.250000 PM Europe/Paris!",
      "05-MAR-24 01.04.05.250000 PM!",
      "05-MAR-24!"
    ])
    expect(await row(`SELECT CAST(ts AS VARCHAR2(60)), CAST(t AS VARCHAR2(60)), CAST(d AS VARCHAR2(60)) FROM nls_t`)).toEqual([
      "05-MAR-24 01.04.05.250000 PM Europe/Paris",
      "05-MAR-24 01.04.05.250000 PM",
      "05-MAR-24"
    ])
  })

  it("reads text without a format model in the default formats", async () => {
    const [d, t, tz] = await row(
      `SELECT TO_DATE('05-MAR-24'), TO_TIMESTAMP('05-MAR-24 01.04.05.250000 PM'), TO_TIMESTAMP_TZ('05-MAR-24 01.04.05.250000 PM +02:00') FROM dual`
    )
    expect((d as Date).toISOString()).toBe("2024-03-05T00:00:00.000Z")
    expect((t as Date).toISOString()).toBe("2024-03-05T13:04:05.250Z")
    expect((tz as Date).toISOString()).toBe("2024-03-05T11:04:05.250Z")
  })

  it("follows ALTER SESSION SET NLS_DATE_FORMAT / NLS_TIMESTAMP_FORMAT / NLS_TIMESTAMP_TZ_FORMAT", async () => {
    await conn.execute(`ALTER SESSION SET NLS_DATE_FORMAT = 'YYYY-MM-DD HH24:MI:SS'`)
    await conn.execute(`ALTER SESSION SET NLS_TIMESTAMP_FORMAT = 'YYYY-MM-DD HH24:MI:SS.FF3'`)
    await conn.execute(`ALTER SESSION SET NLS_TIMESTAMP_TZ_FORMAT = 'YYYY-MM-DD HH24:MI:SSXFF TZH:TZM TZR'`)
    try {
      expect(await row(`SELECT TO_CHAR(ts), TO_CHAR(t), TO_CHAR(d) FROM nls_t`)).toEqual([
        "2024-03-05 13:04:05.250000 +01:00 Europe/Paris",
        "2024-03-05 13:04:05.250",
        "2024-03-05 00:00:00"
      ])
      expect(await row(`SELECT ts || '', t || '', d || '', CAST(d AS VARCHAR2(30)) FROM nls_t`)).toEqual([
        "2024-03-05 13:04:05.250000 +01:00 Europe/Paris",
        "2024-03-05 13:04:05.250",
        "2024-03-05 00:00:00",
        "2024-03-05 00:00:00"
      ])
      const [d, tz] = await row(`SELECT TO_DATE('2024-03-05 10:11:12'), TO_TIMESTAMP_TZ('2024-03-05 10:11:12.125 +05:00 +05:00') FROM dual`)
      expect((d as Date).toISOString()).toBe("2024-03-05T10:11:12.000Z")
      expect((tz as Date).toISOString()).toBe("2024-03-05T05:11:12.125Z")
      // NLS_SESSION_PARAMETERS shows the session's settings
      const params = (await conn.execute(`SELECT parameter, value FROM nls_session_parameters WHERE parameter LIKE 'NLS_%FORMAT' ORDER BY parameter`)).rows
      expect(params).toEqual([
        ["NLS_DATE_FORMAT", "YYYY-MM-DD HH24:MI:SS"],
        ["NLS_TIMESTAMP_FORMAT", "YYYY-MM-DD HH24:MI:SS.FF3"],
        ["NLS_TIMESTAMP_TZ_FORMAT", "YYYY-MM-DD HH24:MI:SSXFF TZH:TZM TZR"]
      ])
    } finally {
      await conn.execute(`ALTER SESSION SET NLS_DATE_FORMAT = 'DD-MON-RR'`)
      await conn.execute(`ALTER SESSION SET NLS_TIMESTAMP_FORMAT = 'DD-MON-RR HH.MI.SSXFF AM'`)
      await conn.execute(`ALTER SESSION SET NLS_TIMESTAMP_TZ_FORMAT = 'DD-MON-RR HH.MI.SSXFF AM TZR'`)
    }
    expect(await row(`SELECT TO_CHAR(d) FROM nls_t`)).toEqual(["05-MAR-24"])
  })

  // FF without digits: "If you do not specify a digit, then Oracle Database uses the precision specified for the
  // datetime data type" (SQL Language Reference, "Datetime Format Elements"), in every conversion without a model
  it("prints FF with a column's declared fractional precision", async () => {
    await conn.execute(`CREATE TABLE nls_fsp (t0 TIMESTAMP(0), t3 TIMESTAMP(3), z3 TIMESTAMP(3) WITH TIME ZONE, t7 TIMESTAMP(7))`)
    await conn.execute(
      `INSERT INTO nls_fsp VALUES (TIMESTAMP '2024-03-05 13:04:05', TIMESTAMP '2024-03-05 13:04:05.125', TIMESTAMP '2024-03-05 13:04:05.125 +02:00', TIMESTAMP '2024-03-05 13:04:05.1234567')`
    )
    expect(await row(`SELECT TO_CHAR(t3), TO_CHAR(z3), TO_CHAR(t7), TO_CHAR(t0) FROM nls_fsp`)).toEqual([
      "05-MAR-24 01.04.05.125 PM",
      "05-MAR-24 01.04.05.125 PM +02:00",
      "05-MAR-24 01.04.05.1234567 PM",
      "05-MAR-24 01.04.05. PM"
    ])
    expect(await row(`SELECT t3 || '!', z3 || '!', t7 || '!', CAST(t3 AS VARCHAR2(40)), LENGTH(t3) FROM nls_fsp`)).toEqual([
      "05-MAR-24 01.04.05.125 PM!",
      "05-MAR-24 01.04.05.125 PM +02:00!",
      "05-MAR-24 01.04.05.1234567 PM!",
      "05-MAR-24 01.04.05.125 PM",
      25
    ])
  })

  it("refuses a format model with an unknown element (ORA-01821)", async () => {
    expect(oraCode(await failure(() => conn.execute(`ALTER SESSION SET NLS_DATE_FORMAT = 'YYYY-QX-BAD'`)))).toBe("ORA-01821")
  })
})

describe("Oracle test server: LENGTH of a datetime", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE TABLE nls_len (ts TIMESTAMP(6) WITH TIME ZONE, t TIMESTAMP(6), d DATE)`)
    await conn.execute(`INSERT INTO nls_len VALUES (TIMESTAMP '2024-03-05 13:04:05.25 +02:00', TIMESTAMP '2024-03-05 13:04:05.25', DATE '2024-03-05')`)
  })
  afterAll(() => closeConnection({ server, conn }))

  // LENGTH takes character data: a datetime argument is converted to VARCHAR2 in the session's format (SQL Language
  // Reference, "Data Type Comparison Rules", "Implicit Data Conversion"), e.g. '05-MAR-24' for a DATE
  it("is the length of its text in the session's NLS format", async () => {
    const rows = (await conn.execute(`SELECT LENGTH(ts), LENGTH(t), LENGTH(d) FROM nls_len`)).rows
    expect(rows).toEqual([["05-MAR-24 01.04.05.250000 PM +02:00".length, "05-MAR-24 01.04.05.250000 PM".length, 9]])
  })
})
