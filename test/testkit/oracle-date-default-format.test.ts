import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// TO_CHAR(date) without a format model uses the session's NLS_DATE_FORMAT (SQL Language Reference, "TO_CHAR
// (datetime)": "If you omit fmt, then date is converted to a VARCHAR2 value as follows: DATE values are converted to
// values in the default date format"; Globalization Support Guide, "NLS_DATE_FORMAT": AMERICA's default DD-MON-RR),
// month names in NLS_DATE_LANGUAGE.
let server: OracleTestServerHandle
let conn: Conn

const one = async (sql: string) => ((await conn.execute(sql)).rows as Array<Array<unknown>>)[0]![0]

describe("Oracle test server: TO_CHAR(date) in the default date format", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("prints DD-MON-RR, the month in the session's NLS_DATE_LANGUAGE", async () => {
    expect(await one(`SELECT TO_CHAR(DATE '2024-03-05') FROM dual`)).toBe("05-MAR-24")
    await conn.execute(`ALTER SESSION SET NLS_DATE_LANGUAGE = GERMAN`)
    expect(await one(`SELECT TO_CHAR(DATE '2024-10-05') FROM dual`)).toBe("05-OKT-24")
    await conn.execute(`ALTER SESSION SET NLS_DATE_LANGUAGE = AMERICAN`)
  })
})
