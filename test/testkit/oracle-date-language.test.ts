import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// NLS_DATE_LANGUAGE through the raw node-oracledb client (Globalization Support Guide, "NLS_DATE_LANGUAGE": the
// language of day and month names and abbreviations; SQL Language Reference, "TO_CHAR (datetime)" and "TO_DATE": the
// 'NLS_DATE_LANGUAGE = language' parameter). German full names as Oracle prints them (`Mittwoch, 31. Oktober`):
// http://www.sqlsnippets.com/en/topic-12342.html. Abbreviations are unconfirmed (testkit/oracle/README.md).
let server: OracleTestServerHandle
let conn: Conn

const one = async (sql: string) => ((await conn.execute(sql)).rows as Array<Array<unknown>>)[0]![0]

describe("Oracle test server: NLS_DATE_LANGUAGE", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("TO_CHAR's NLS parameter names months and days in that language, padded to its longest name", async () => {
    const d = "DATE '2024-10-30'"
    expect(await one(`SELECT TO_CHAR(${d}, 'Day, DD. Month YYYY', 'NLS_DATE_LANGUAGE = German') FROM dual`)).toBe("Mittwoch  , 30. Oktober   2024")
    expect(await one(`SELECT TO_CHAR(${d}, 'FMDay DD Month', 'NLS_DATE_LANGUAGE = FRENCH') FROM dual`)).toBe("Mercredi 30 Octobre")
    expect(await one(`SELECT TO_CHAR(DATE '2024-09-04', 'FMDAY MONTH', 'NLS_DATE_LANGUAGE = SPANISH') FROM dual`)).toBe("MIÉRCOLES SEPTIEMBRE")
    expect(await one(`SELECT TO_CHAR(${d}, 'fmday month', 'NLS_DATE_LANGUAGE = ITALIAN') FROM dual`)).toBe("mercoledì ottobre")
    expect(await one(`SELECT TO_CHAR(DATE '2024-03-05', 'DY MON', 'NLS_DATE_LANGUAGE = GERMAN') FROM dual`)).toBe("DI MRZ")
    expect(await one(`SELECT TO_CHAR(${d}, 'FMDay Month', 'NLS_DATE_LANGUAGE = AMERICAN') FROM dual`)).toBe("Wednesday October")
    expect(oraCode(await failure(() => conn.execute(`SELECT TO_CHAR(${d}, 'Month', 'NLS_DATE_LANGUAGE = KLINGON') FROM dual`)))).toBe("ORA-12702")
  })

  it("ALTER SESSION SET NLS_DATE_LANGUAGE changes TO_CHAR and TO_DATE; an unknown language is ORA-12705", async () => {
    const language = "SELECT value FROM nls_session_parameters WHERE parameter = 'NLS_DATE_LANGUAGE'"
    expect(await one(language)).toBe("AMERICAN")
    await conn.execute("ALTER SESSION SET NLS_DATE_LANGUAGE = GERMAN")
    expect(await one(language)).toBe("GERMAN")
    expect(await one(`SELECT TO_CHAR(DATE '2024-12-01', 'FMMonth') FROM dual`)).toBe("Dezember")
    expect(await one(`SELECT TO_DATE('15-Okt-2024', 'DD-MON-YYYY') FROM dual`)).toEqual(new Date(2024, 9, 15))
    expect(await one(`SELECT TO_DATE('1. März 2024', 'DD. MONTH YYYY') FROM dual`)).toEqual(new Date(2024, 2, 1))
    expect(await one(`SELECT TO_DATE('7 mayo 2024', 'DD MONTH YYYY', 'NLS_DATE_LANGUAGE = SPANISH') FROM dual`)).toEqual(new Date(2024, 4, 7))
    expect(oraCode(await failure(() => conn.execute("ALTER SESSION SET NLS_DATE_LANGUAGE = KLINGON")))).toBe("ORA-12705")
    await conn.execute("ALTER SESSION SET NLS_DATE_LANGUAGE = 'AMERICAN'")
    expect(await one(`SELECT TO_CHAR(DATE '2024-12-01', 'FMMonth') FROM dual`)).toBe("December")
  })
})
