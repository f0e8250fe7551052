import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// DL, DS and TS in TO_DATE / TO_TIMESTAMP read the territory's long date, short date and short time formats, which
// "Datetime Format Elements" (SQL Language Reference) gives for AMERICAN_AMERICA as 'fmDay, Month dd, yyyy' and
// 'MM/DD/RRRR', and TS as TO_CHAR prints it (`10:18:59 AM`); the table marks them valid in the TO_* functions. E and
// EE (the era name) it marks not valid there (SQL Quick Reference 10g, "Datetime Format Elements": No), so they are
// ORA-01820 as the other output-only elements (testkit/oracle/datetime-parse.ts).
let server: OracleTestServerHandle
let conn: Conn

const one = async (sql: string) => ((await conn.execute(sql)).rows as Array<Array<unknown>>)[0]![0]
const code = async (sql: string) => oraCode(await failure(() => conn.execute(sql)))
const shown = (expr: string) => one(`SELECT TO_CHAR(${expr}, 'YYYY-MM-DD HH24:MI:SS') FROM dual`)

describe("Oracle test server: DL, DS, TS and E, EE in TO_DATE / TO_TIMESTAMP (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("reads DS, DL and TS as the AMERICA territory's formats", async () => {
    expect(await shown(`TO_DATE('1/4/2013 10:18:59 AM', 'DS TS')`)).toBe("2013-01-04 10:18:59")
    expect(await shown(`TO_DATE('01/04/13', 'DS')`)).toBe("2013-01-04 00:00:00")
    expect(await shown(`TO_DATE('Friday, January 04, 2013', 'DL')`)).toBe("2013-01-04 00:00:00")
    expect(await shown(`TO_TIMESTAMP('Friday, January 4, 2013 10:18:59 PM', 'DL TS')`)).toBe("2013-01-04 22:18:59")
    // what TO_CHAR prints under the same elements reads back
    expect(await shown(`TO_DATE(TO_CHAR(TIMESTAMP '2013-02-28 13:02:03', 'DS TS'), 'DS TS')`)).toBe("2013-02-28 13:02:03")
    expect(await shown(`TO_DATE(TO_CHAR(DATE '2013-02-28', 'DL'), 'DL')`)).toBe("2013-02-28 00:00:00")
  })

  it("checks DL's day name against the date and reads DS / TS in the session's NLS_DATE_FORMAT", async () => {
    expect(await code(`SELECT TO_DATE('Thursday, January 04, 2013', 'DL') FROM dual`)).toBe("ORA-01835")
    expect(await code(`SELECT TO_DATE('13/04/2013', 'DS') FROM dual`)).toBe("ORA-01843")
    await conn.execute(`ALTER SESSION SET NLS_DATE_FORMAT = 'DS TS'`)
    try {
      expect(await shown(`TO_DATE('2/28/2013 01:02:03 PM')`)).toBe("2013-02-28 13:02:03")
    } finally {
      await conn.execute(`ALTER SESSION SET NLS_DATE_FORMAT = 'DD-MON-RR'`)
    }
  })

  it("refuses E and EE in a model a text is read in (ORA-01820), which TO_CHAR prints", async () => {
    expect(await code(`SELECT TO_DATE('AD 2013', 'E YYYY') FROM dual`)).toBe("ORA-01820")
    expect(await code(`SELECT TO_TIMESTAMP('AD 2013', 'EE YYYY') FROM dual`)).toBe("ORA-01820")
    expect(await one(`SELECT TO_CHAR(DATE '2013-01-04', 'E') FROM dual`)).toBe("AD")
  })
})
