/**
 * TO_DATE with DAY / DY against the Oracle test server, raw node-oracledb: the name is read in NLS_DATE_LANGUAGE and
 * must be the date's day of the week, else ORA-01835 "day of week conflicts with Julian date" (SQL Language
 * Reference, "Datetime Format Elements"; Database Error Messages, ORA-01835).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const one = async (sql: string) => ((await conn.execute(sql)).rows as Array<Array<unknown>>)[0]![0]

describe("Oracle test server: TO_DATE reads day names", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("reads DAY / DY in the session's or the call's language, checked against the date (ORA-01835)", async () => {
    expect(await one(`SELECT TO_CHAR(TO_DATE('Tuesday 05-03-2024', 'DAY DD-MM-YYYY'), 'YYYY-MM-DD') FROM dual`)).toBe("2024-03-05")
    expect(await one(`SELECT TO_CHAR(TO_DATE('Mi 30.10.2024', 'DY DD.MM.YYYY', 'NLS_DATE_LANGUAGE = German'), 'YYYY-MM-DD') FROM dual`)).toBe("2024-10-30")
    expect(await one(`SELECT TO_CHAR(TO_DATE('Mercredi 30/10/2024', 'Day DD/MM/YYYY', 'NLS_DATE_LANGUAGE = French'), 'YYYY-MM-DD') FROM dual`)).toBe("2024-10-30")
    expect(oraCode(await failure(() => conn.execute(`SELECT TO_DATE('Monday 05-03-2024', 'DAY DD-MM-YYYY') FROM dual`)))).toBe("ORA-01835")
    expect(await one(`SELECT TO_CHAR(TO_DATE('tue 05-MAR-2024', 'DY DD-MON-YYYY'), 'YYYY-MM-DD') FROM dual`)).toBe("2024-03-05")
  })

  it("refuses a name that is no day of the week in the language with ORA-01846", async () => {
    // ORA-01846 "not a valid day of the week" (Database Error Messages, ORA-01846)
    const e = await failure(() => conn.execute(`SELECT TO_DATE('Blursday 05-03-2024', 'DAY DD-MM-YYYY') FROM dual`))
    expect(oraCode(e)).toBe("ORA-01846")
    expect(e.message).toContain("not a valid day of the week")
    expect(oraCode(await failure(() => conn.execute(`SELECT TO_DATE('Dienstag 05-03-2024', 'DAY DD-MM-YYYY') FROM dual`)))).toBe("ORA-01846")
  })
})
