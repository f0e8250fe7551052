import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// Datetime format models (SQL Language Reference, "Format Models", "Datetime Format Elements" and "Format Model
// Modifiers": https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Format-Models.html). FM "fill
// mode": in TO_CHAR it suppresses blanks in character elements and leading zeros in number elements (such as MI or
// DD) that follow it, and a second FM turns it off again. FX "format exact" requires the text to match the model
// exactly: punctuation and quoted text as given, numbers with their leading zeros (without FX, TO_TIMESTAMP_TZ('5-3-2024
// ...', 'DD-MM-YYYY ...') is read). YY: the current century's year; RR: 00-49 and 50-99 on either side of the
// current year's half century ("The RR Datetime Format Element"); J: the Julian day, counted from January 1, 4712 BC;
// DDD: the day of the year.
describe("Oracle test server: TO_CHAR's FM and TO_TIMESTAMP_TZ's RR, YY, J, DDD and FX (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("FM drops the leading zeros of every number element after it, and a second FM turns that off", async () => {
    const d = "TIMESTAMP '0005-03-07 09:05:04'"
    const z = "TIMESTAMP '2024-03-07 09:05:04 Europe/Paris'"
    const r = await conn.execute(
      `SELECT TO_CHAR(${d}, 'FMDD.MM.YYYY HH24:MI:SS'), TO_CHAR(${d}, 'DD.FMMM.FMYYYY HH24'), TO_CHAR(${d}, 'FMDDD'), ` +
        `TO_CHAR(${z}, 'FMDD.MM TZR HH24:MI'), TO_CHAR(DATE '2024-03-07', 'FMSYYYY/MM/DD') FROM dual`
    )
    expect(r.rows).toEqual([["7.3.5 9:5:4", "07.3.0005 09", "66", "7.3 Europe/Paris 9:5", "2024/3/7"]])
  })

  // "FF [1..9]: Fractional seconds ... Use the numbers 1 to 9 after FF to specify the number of digits in the fractional
  // second portion of the datetime value returned" (SQL Language Reference, "Datetime Format Elements")
  it("FF1-FF9 print exactly that many fraction digits", async () => {
    const f = "'FF1 FF2 FF3 FF4 FF5 FF6 FF7 FF8 FF9'"
    const r = await conn.execute(
      `SELECT TO_CHAR(TIMESTAMP '2024-01-01 10:00:00.123456', ${f}), TO_CHAR(CAST(TIMESTAMP '2024-01-01 10:00:00.123456 +00:00' AS TIMESTAMP WITH LOCAL TIME ZONE), ${f}), ` +
        `TO_CHAR(TIMESTAMP '2024-01-01 10:00:00.123456789', ${f}) FROM dual`
    )
    expect(r.rows).toEqual([[
      "1 12 123 1234 12345 123456 1234560 12345600 123456000",
      "1 12 123 1234 12345 123456 1234560 12345600 123456000",
      "1 12 123 1234 12345 123456 1234567 12345678 123456789"
    ]])
  })

  it("reads YY, RR, J and DDD in TO_TIMESTAMP_TZ", async () => {
    const year = new Date().getUTCFullYear()
    const century = Math.floor(year / 100) * 100
    const rr = (yy: number) => {
      const low = year % 100 < 50
      if (yy < 50) return low ? century + yy : century + 100 + yy
      return low ? century - 100 + yy : century + yy
    }
    const f = "'YYYY-MM-DD HH24:MI TZH:TZM'"
    const r = await conn.execute(
      `SELECT TO_CHAR(TO_TIMESTAMP_TZ('07-03-24 10:00 +01:00', 'DD-MM-YY HH24:MI TZH:TZM'), ${f}), ` +
        `TO_CHAR(TO_TIMESTAMP_TZ('07-03-99 10:00 +01:00', 'DD-MM-RR HH24:MI TZH:TZM'), ${f}), ` +
        `TO_CHAR(TO_TIMESTAMP_TZ('07-03-24 10:00 +01:00', 'DD-MM-RR HH24:MI TZH:TZM'), ${f}), ` +
        `TO_CHAR(TO_TIMESTAMP_TZ('07-03-1999 10:00 +01:00', 'DD-MM-RR HH24:MI TZH:TZM'), ${f}), ` +
        `TO_CHAR(TO_TIMESTAMP_TZ('2460377 10:00 +01:00', 'J HH24:MI TZH:TZM'), ${f}), ` +
        `TO_CHAR(TO_TIMESTAMP_TZ('2024-067 10:00 +01:00', 'YYYY-DDD HH24:MI TZH:TZM'), ${f}) FROM dual`
    )
    const pad = (n: number) => String(n).padStart(4, "0")
    expect(r.rows).toEqual([[`${pad(century + 24)}-03-07 10:00 +01:00`, `${pad(rr(99))}-03-07 10:00 +01:00`, `${pad(rr(24))}-03-07 10:00 +01:00`, "1999-03-07 10:00 +01:00", "2024-03-07 10:00 +01:00", "2024-03-07 10:00 +01:00"]])
  })

  it("FX requires the exact digits and punctuation; without it they are read leniently", async () => {
    const lenient = await conn.execute("SELECT TO_CHAR(TO_TIMESTAMP_TZ('5-3-2024 9:00 +01:00', 'DD-MM-YYYY HH24:MI TZH:TZM'), 'YYYY-MM-DD HH24:MI') FROM dual")
    expect(lenient.rows).toEqual([["2024-03-05 09:00"]])
    const exact = await conn.execute("SELECT TO_CHAR(TO_TIMESTAMP_TZ('05-03-2024 09:00 +01:00', 'FXDD-MM-YYYY HH24:MI TZH:TZM'), 'YYYY-MM-DD HH24:MI') FROM dual")
    expect(exact.rows).toEqual([["2024-03-05 09:00"]])
    // a number short of its element's digits is ORA-01862 ("9 will not match the format specifier DD but 09 will",
    // Database Error Messages, ORA-01862); other text that does not match exactly ORA-01861
    for (const [text, code] of [["5-03-2024 09:00 +01:00", "ORA-01862"], ["05-03-2024  09:00 +01:00", "ORA-01861"], ["05/03/2024 09:00 +01:00", "ORA-01861"]])
      expect(oraCode(await failure(() => conn.execute(`SELECT TO_TIMESTAMP_TZ('${text}', 'FXDD-MM-YYYY HH24:MI TZH:TZM') FROM dual`))), text).toBe(code)
  })

  // SQL Language Reference, ALTER TABLE, "modify_col_properties": a column's data type can be changed when all its
  // rows are NULL; otherwise only within compatible types (a longer character or raw column, a wider NUMBER, DATE to
  // TIMESTAMP); ORA-01439 "column to be modified must be empty to change datatype".
  it("refuses ALTER TABLE ... MODIFY of a non-empty column to another data type with ORA-01439, leaving it as it was", async () => {
    await conn.execute("CREATE TABLE modify_types (id NUMBER, s VARCHAR2(30), d DATE, e VARCHAR2(30))")
    await conn.execute("INSERT INTO modify_types VALUES (1, '2024-01-01 10:00:00', DATE '2024-01-01', NULL)")
    await conn.commit()
    for (const sql of ["ALTER TABLE modify_types MODIFY s TIMESTAMP", "ALTER TABLE modify_types MODIFY (s TIMESTAMP WITH TIME ZONE)", "ALTER TABLE modify_types MODIFY id VARCHAR2(10)", "ALTER TABLE modify_types MODIFY d VARCHAR2(30)"])
      expect(oraCode(await failure(() => conn.execute(sql))), sql).toBe("ORA-01439")
    const r = await conn.execute("SELECT s, DATA_TYPE FROM modify_types, user_tab_columns WHERE table_name = 'MODIFY_TYPES' AND column_name = 'S'")
    expect(r.rows).toEqual([["2024-01-01 10:00:00", "VARCHAR2"]])
    // compatible changes and empty columns still change (NUMBER(10) to NUMBER(20) widens it; an unbounded NUMBER to
    // NUMBER(20) would decrease its precision: ORA-01440 over rows, test/testkit/oracle-statement-leftovers.test.ts)
    await conn.execute("CREATE TABLE modify_ok (id NUMBER(10), d DATE, e NUMBER)")
    await conn.execute("INSERT INTO modify_ok VALUES (1, DATE '2024-01-01', NULL)")
    await conn.execute("ALTER TABLE modify_ok MODIFY (id NUMBER(20), d TIMESTAMP)")
    await conn.execute("ALTER TABLE modify_ok MODIFY e TIMESTAMP")
    const types = await conn.execute("SELECT column_name, data_type FROM user_tab_columns WHERE table_name = 'MODIFY_OK' ORDER BY column_name")
    expect(types.rows).toEqual([["D", "TIMESTAMP(6)"], ["E", "TIMESTAMP(6)"], ["ID", "NUMBER"]])
    const kept = await conn.execute("SELECT TO_CHAR(d, 'YYYY-MM-DD HH24:MI:SS') FROM modify_ok")
    expect(kept.rows).toEqual([["2024-01-01 00:00:00"]])
  })

  // "Capitalization in a spelled-out word, abbreviation, or Roman numeral follows capitalization in the corresponding
  // format element"; MONTH and DAY are blank-padded to the longest name (SEPTEMBER, WEDNESDAY: nine characters) unless
  // FM suppresses "blanks in subsequent characters or spaces in the results of the MONTH or DAY element" (SQL Language
  // Reference, "Datetime Format Elements", "Format Model Modifiers")
  it("pads MONTH and DAY to the longest name without FM and follows the element's capitalisation", async () => {
    const d = "DATE '2024-05-01'"
    const z = "TIMESTAMP '2024-05-01 10:00:00 Europe/Paris'"
    const r = await conn.execute(
      `SELECT TO_CHAR(${d}, 'MONTH|DAY|'), TO_CHAR(${d}, 'Month|Day|Mon|Dy'), TO_CHAR(${d}, 'month|day|mon|dy'), ` +
        `TO_CHAR(${d}, 'FMMONTH|DAY|'), TO_CHAR(${z}, 'DD Month YYYY TZR'), TO_CHAR(${d}, 'MON DY') FROM dual`
    )
    expect(r.rows).toEqual([["MAY      |WEDNESDAY|", "May      |Wednesday|May|Wed", "may      |wednesday|may|wed", "MAY|WEDNESDAY|", "01 May       2024 Europe/Paris", "MAY WED"]])
  })

  // "Datetime Format Elements": YYY / Y the last 3 / 1 digits of the year, RM the Roman numeral month, AD / A.D. and
  // AM / A.M. the era and meridian indicators with or without periods (either name prints the value's), each in the
  // element's capitalisation; a value's zone does not change them (TO_CHAR of a TIMESTAMP WITH TIME ZONE)
  it("prints YYY, Y, RM, AD / BC and AM / PM as written", async () => {
    const r = await conn.execute(
      `SELECT TO_CHAR(DATE '2024-03-05', 'YYY|Y|RM|rm|FMRM|AD|bc|A.D.|b.c.'), TO_CHAR(DATE '0044-03-05', 'YYY|FMYYY|Y'), ` +
        `TO_CHAR(TIMESTAMP '2024-03-05 13:04:05', 'AM|a.m.|pm|P.M.'), TO_CHAR(TIMESTAMP '2024-03-05 09:04:05 +02:00', 'HH:MI am|A.M.|YYY') FROM dual`
    )
    expect(r.rows).toEqual([["024|4|III|iii|III|AD|ad|A.D.|a.d.", "044|44|4", "PM|p.m.|pm|P.M.", "09:04 am|A.M.|024"]])
  })

  // TO_DATE and TO_TIMESTAMP read the same elements as TO_TIMESTAMP_TZ: RR, J and FX included ("Datetime Format
  // Models", "The RR Datetime Format Element", "Format Model Modifiers")
  it("reads RR, J and FX in TO_DATE and TO_TIMESTAMP", async () => {
    const century = new Date().getUTCFullYear() - (new Date().getUTCFullYear() % 100)
    const r = await conn.execute(
      "SELECT TO_CHAR(TO_DATE('01-05-95', 'DD-MM-RR'), 'YYYY-MM-DD'), TO_CHAR(TO_DATE('01-05-07', 'DD-MM-RR'), 'YYYY'), " +
        "TO_CHAR(TO_DATE('2451545', 'J'), 'YYYY-MM-DD'), TO_CHAR(TO_TIMESTAMP('2024-05-01 10:11:12.5', 'FXYYYY-MM-DD HH24:MI:SS.FF'), 'YYYY-MM-DD HH24:MI:SS.FF3'), " +
        "TO_CHAR(TO_DATE('2024-5-1', 'YYYY-MM-DD'), 'YYYY-MM-DD') FROM dual"
    )
    // RR: 95 is in the previous century while the current year ends in 00-49
    expect(r.rows).toEqual([[`${new Date().getUTCFullYear() % 100 < 50 ? century - 5 : century + 95}-05-01`, String(century + 7), "2000-01-01", "2024-05-01 10:11:12.500", "2024-05-01"]])
    const typed = await conn.execute("SELECT TO_DATE('01-05-95', 'DD-MM-RR'), TO_TIMESTAMP('2451545', 'J') FROM dual")
    expect(typed.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["DATE", "TIMESTAMP"])
    // FX: the text must have every digit of each element (ORA-01862, Database Error Messages)
    expect(oraCode(await failure(() => conn.execute("SELECT TO_DATE('2024-5-1', 'FXYYYY-MM-DD') FROM dual")))).toBe("ORA-01862")
  })
})
