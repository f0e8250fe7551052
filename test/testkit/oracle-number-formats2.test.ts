/**
 * Number format elements beyond the digit positions, through raw node-oracledb against the Oracle test server:
 * L, C, U (currency symbols), RN (roman numerals), TM / TM9 / TME (text minimum), `$` in any position, with
 * TO_CHAR and TO_NUMBER (SQL Language Reference, "Format Models", "Number Format Elements":
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Format-Models.html; "TO_CHAR (number)":
 * https://docs.oracle.com/database/122/SQLRF/TO_CHAR-number.htm).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, numbersAsText, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const one = async (sql: string, binds: Array<unknown> = []): Promise<string | null> => (await conn.execute(sql, binds, numbersAsText)).rows[0][0]
const toChar = async (cases: ReadonlyArray<readonly [string, string, string]>) => {
  const out: Array<readonly [string, string, string | null]> = []
  for (const [value, model] of cases) out.push([value, model, await one(`SELECT TO_CHAR(${value}, '${model}') FROM DUAL`)])
  return out
}

describe("Oracle test server: currency, roman and text-minimum number format elements through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE fmt2 (id NUMBER(5), n NUMBER)")
    await conn.execute("INSERT INTO fmt2 VALUES (1, 1994)")
    await conn.execute("INSERT INTO fmt2 VALUES (2, 12345.678)")
    await conn.execute("INSERT INTO fmt2 VALUES (3, .1234567890123456789012345678901234567891)")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("prints L, C and U with the AMERICA territory's symbols ($, USD, $), first or last, and blank pads before them", async () => {
    const cases = [
      // "TO_CHAR (number)": "the output is blank padded to the left of the currency symbol"; Amount $10,000.00-
      ["-10000", "L99G999D99MI", "$10,000.00-"],
      ["-10000", "FML99G999D99MI", "$10,000.-"],
      ["123", "C999", "USD123"],
      ["123", "999C", "123USD"],
      ["1234.5", "FMC9G999D00", "USD1,234.50"],
      ["123", "U999", "$123"],
      ["-123", "L999", "-$123"],
      ["123.4", "999.99L", "123.40$"]
    ] as const
    const got = await toChar(cases)
    expect(got.map(([v, m, text]) => [v, m, text?.trim()])).toEqual(cases)
    // the blanks stand left of the symbol, never between it and the digits
    for (const [, , text] of got) expect(text).toMatch(/^\s*\S+$/)
  })

  it("uses an NLS_CURRENCY given in TO_CHAR's nlsparam (the documented AusDollars example)", async () => {
    expect(
      await one(`SELECT TO_CHAR(-10000, 'L99G999D99MI', 'NLS_NUMERIC_CHARACTERS = '',.'' NLS_CURRENCY = ''AusDollars'' ') FROM DUAL`)
    ).toBe("AusDollars10.000,00-")
  })

  it("accepts $ in any position and prints it before the digits, after the sign (TO_CHAR(-1, '$9') is -$1)", async () => {
    const cases = [
      ["123", "99$9", " $123"],
      ["123", "999$", " $123"],
      ["-1", "$9", "-$1"],
      ["-1", "9$", "-$1"],
      ["1234.5", "9,9$99.99", " $1,234.50"],
      ["123", "FM9$99", "$123"]
    ] as const
    expect(await toChar(cases)).toEqual(cases)
    expect(oraCode(await failure(() => one("SELECT TO_CHAR(1, '$9$') FROM DUAL")))).toBe("ORA-01481")
  })

  it("prints roman numerals for 1..3999 (RN upper, rn lower case), right-justified in 15 positions, else pound signs", async () => {
    const cases = [
      ["1994", "RN", "        MCMXCIV"],
      ["1994", "rn", "        mcmxciv"],
      ["3888", "RN", "MMMDCCCLXXXVIII"],
      ["4", "FMRN", "IV"],
      ["3999", "FMrn", "mmmcmxcix"],
      ["2.5", "FMRN", "III"],
      ["0", "RN", "###############"],
      ["4000", "RN", "###############"],
      ["-5", "RN", "###############"]
    ] as const
    expect(await toChar(cases)).toEqual(cases)
    expect(await one("SELECT TO_CHAR(n, 'FMRN') FROM fmt2 WHERE id = 1")).toBe("MCMXCIV")
  })

  it("prints TM / TM9 as TO_CHAR without a model and TME in scientific notation with the fewest digits", async () => {
    const cases = [
      ["12345.678", "TM", "12345.678"],
      ["12345.678", "TM9", "12345.678"],
      ["-.5", "tm9", "-.5"],
      ["12345", "TME", "1.2345E+04"],
      ["-.5", "TME", "-5E-01"],
      ["1E+100", "TM", "1E+100"]
    ] as const
    expect(await toChar(cases)).toEqual(cases)
    expect(await one("SELECT TO_CHAR(n, 'TM') FROM fmt2 WHERE id = 3")).toBe(".1234567890123456789012345678901234567891")
    expect(await one("SELECT TO_CHAR(n, 'TME') FROM fmt2 WHERE id = 3")).toBe("1.234567890123456789012345678901234567891E-01")
    // "You cannot precede this element with any other element"
    expect(oraCode(await failure(() => one("SELECT TO_CHAR(1, 'FMTM') FROM DUAL")))).toBe("ORA-01481")
  })

  it("applies the elements in WHERE, GROUP BY, ORDER BY, to binds and in PL/SQL", async () => {
    expect((await conn.execute("SELECT id FROM fmt2 WHERE TO_CHAR(n, 'FMRN') = 'MCMXCIV'")).rows).toEqual([[1]])
    expect((await conn.execute("SELECT TO_CHAR(n, 'TME') FROM fmt2 WHERE id < 3 GROUP BY TO_CHAR(n, 'TME') ORDER BY 1")).rows).toEqual([["1.2345678E+04"], ["1.994E+03"]])
    expect(await one("SELECT TO_CHAR(:1, 'FMC999') FROM DUAL", [12])).toBe("USD12")
    const r = await conn.execute("BEGIN :o := TO_CHAR(1994, 'FMRN') || ' ' || TO_CHAR(12.5, 'FML99D99'); END;", { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING } })
    expect(r.outBinds.o).toBe("MCMXCIV $12.5")
  })

  it("reads currency symbols, roman numerals and text-minimum text with TO_NUMBER, and refuses what does not match", async () => {
    expect(await one("SELECT TO_NUMBER('$1,234.50', 'L9,999.99') FROM DUAL")).toBe("1234.5")
    expect(await one("SELECT TO_NUMBER('USD12', 'C99') FROM DUAL")).toBe("12")
    expect(await one("SELECT TO_NUMBER('MCMXCIV', 'RN') FROM DUAL")).toBe("1994")
    expect(await one("SELECT TO_NUMBER('1.5E+03', 'TME') FROM DUAL")).toBe("1500")
    expect(oraCode(await failure(() => one("SELECT TO_NUMBER('EUR12', 'C99') FROM DUAL")))).toBe("ORA-01722")
    expect(oraCode(await failure(() => one("SELECT TO_NUMBER('IIII', 'RN') FROM DUAL")))).toBe("ORA-01722")
  })
})
