import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// TO_DATE / TO_TIMESTAMP read text by Oracle's rules whatever the format model (testkit/oracle/datetime-parse.ts),
// and without a model only in the session's NLS_DATE_FORMAT / NLS_TIMESTAMP_FORMAT ("TO_DATE": "If you omit fmt, then
// char must be in the default date format"). Cases are those the SQL Language Reference ("String-to-Date Conversion
// Rules", "Format Model Modifiers" FX table), Database Error Messages and transcripts of real servers give.
let server: OracleTestServerHandle
let conn: Conn

const one = async (sql: string) => ((await conn.execute(sql)).rows as Array<Array<unknown>>)[0]![0]
const code = async (sql: string) => oraCode(await failure(() => conn.execute(sql)))
const shown = (expr: string) => one(`SELECT TO_CHAR(${expr}, 'SYYYY-MM-DD HH24:MI:SS') FROM dual`)

describe("Oracle test server: reading datetime text (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE TABLE rd_t (d DATE)`)
    await conn.execute(`INSERT INTO rd_t VALUES (DATE '2024-03-05')`)
  })
  afterAll(() => closeConnection({ server, conn }))

  it("refuses text the session's default format does not read (ORA-01861), not ISO text", async () => {
    // `to_date('2008-03-01')` under DD-MON-RR: ORA-01861 (Database Error Messages ORA-01861: "If no format string has
    // been specified, make sure the default format requirements ... match the specified value")
    expect(await code(`SELECT TO_DATE('2024-03-05') FROM dual`)).toBe("ORA-01861")
    expect(await code(`SELECT TO_TIMESTAMP('2024-03-05 10:11:12') FROM dual`)).toBe("ORA-01861")
    expect(await code(`SELECT TO_TIMESTAMP_TZ('2024-03-05 10:11:12 +01:00') FROM dual`)).toBe("ORA-01861")
    expect(await shown(`TO_DATE('05-MAR-24')`)).toBe(" 2024-03-05 00:00:00")
    // a DATE argument is first text in NLS_DATE_FORMAT, then read back in it
    expect(await one(`SELECT TO_CHAR(TO_DATE(d), 'YYYY-MM-DD') FROM rd_t`)).toBe("2024-03-05")
  })

  it("reads every format model by the string-to-date conversion rules", async () => {
    // punctuation may be left out where the numbers have all their digits, and trailing time fields too
    expect(await shown(`TO_DATE('20150924233000', 'YYYY-MM-DD HH24:MI:SS')`)).toBe(" 2015-09-24 23:30:00")
    expect(await shown(`TO_DATE('20150925', 'YYYY-MM-DD HH24:MI:SS')`)).toBe(" 2015-09-25 00:00:00")
    // any punctuation matches, blanks are ignored; MM reads a month name, MON does not read a number
    expect(await shown(`TO_DATE('15/ JAN /1998', 'DD-MON-YYYY')`)).toBe(" 1998-01-15 00:00:00")
    expect(await shown(`TO_DATE('18-feb-2016', 'DD/MM/YYYY')`)).toBe(" 2016-02-18 00:00:00")
    expect(await shown(`TO_DATE('10AUGUST2016', 'DD-MM-RR')`)).toBe(" 2016-08-10 00:00:00")
    expect(await code(`SELECT TO_DATE('18-02-2016', 'DD/MON/YYYY') FROM dual`)).toBe("ORA-01843")
    // FX: exact punctuation (ORA-01861), every digit (ORA-01862) unless FM, numbers where numbers are (ORA-01858)
    expect(await code(`SELECT TO_DATE('15/JAN/1998', 'FXDD-MON-YYYY') FROM dual`)).toBe("ORA-01861")
    expect(await code(`SELECT TO_DATE('1-JAN-1998', 'FXDD-MON-YYYY') FROM dual`)).toBe("ORA-01862")
    expect(await shown(`TO_DATE('1-JAN-1998', 'FXFMDD-MON-YYYY')`)).toBe(" 1998-01-01 00:00:00")
    expect(await code(`SELECT TO_DATE('10-AUGUST-2016', 'FXDD-MM-RR') FROM dual`)).toBe("ORA-01858")
    // week elements are not read (ORA-01820); text left over is ORA-01830
    expect(await code(`SELECT TO_DATE('200803', 'YYYYWW') FROM dual`)).toBe("ORA-01820")
    expect(await code(`SELECT TO_TIMESTAMP('2024-01-01 10:00', 'YYYY-MM-DD HH24') FROM dual`)).toBe("ORA-01830")
    // the example of SQL Language Reference, "TO_DATE"
    expect(await shown(`TO_DATE('January 15, 1989, 11:00 A.M.', 'Month dd, YYYY, HH:MI A.M.', 'NLS_DATE_LANGUAGE = American')`)).toBe(" 1989-01-15 11:00:00")
    // a field the text does not give: the current month, day 1
    const now = new Date()
    expect(await shown(`TO_DATE('2012', 'YYYY')`)).toBe(` 2012-${String(now.getUTCMonth() + 1).padStart(2, "0")}-01 00:00:00`)
  })

  // a wall clock the region skips when clocks go forward is Oracle's "nonexisting time" error, ORA-01878 (SQL Language
  // Reference, ORA_DST_ERROR: "1878: the datetime value results in a "nonexisting time" error")
  it("refuses a local time in a daylight saving gap (ORA-01878)", async () => {
    expect(await code(`SELECT TIMESTAMP '2024-03-31 02:30:00 Europe/Berlin' FROM dual`)).toBe("ORA-01878")
    expect(await code(`SELECT TO_TIMESTAMP_TZ('2024-03-31 02:30 Europe/Berlin', 'YYYY-MM-DD HH24:MI TZR') FROM dual`)).toBe("ORA-01878")
    expect(await one(`SELECT TO_CHAR(TIMESTAMP '2024-03-31 03:30:00 Europe/Berlin', 'HH24:MI TZH:TZM') FROM dual`)).toBe("03:30 +02:00")
  })

  // NULL || x is x ("Concatenation Operator": "concatenating a zero-length character string with another operand always
  // results in the other operand")
  it("reads a concatenation with NULL as its other operand", async () => {
    expect(await one(`SELECT TO_CHAR(TO_TIMESTAMP_TZ(NULL || '2024-01-01 10:00:00 +02:00', 'YYYY-MM-DD HH24:MI:SS TZH:TZM'), 'YYYY-MM-DD HH24:MI TZH:TZM') FROM dual`)).toBe(
      "2024-01-01 10:00 +02:00"
    )
    expect(await one(`SELECT TO_CHAR(TO_TIMESTAMP_TZ(NULL || '2024-01-01 10:00 +02:00', NULL || 'YYYY-MM-DD HH24:MI TZH:TZM'), 'YYYY-MM-DD HH24:MI TZH:TZM') FROM dual`)).toBe(
      "2024-01-01 10:00 +02:00"
    )
  })

  it("reads the session's format by the same rules", async () => {
    await conn.execute(`ALTER SESSION SET NLS_DATE_FORMAT = 'yyyy-mm-dd HH24:mi:ss'`)
    try {
      // reported of a real server: YYYY reads 1, MM the name Nov, DD two digits, HH24 the next two
      expect(await shown(`TO_DATE('1-Nov-2011')`)).toBe(" 0001-11-20 11:00:00")
    } finally {
      await conn.execute(`ALTER SESSION SET NLS_DATE_FORMAT = 'DD-MON-RR'`)
    }
  })
})
