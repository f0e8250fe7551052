import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// SQL Language Reference, "Datetime Format Elements" (YEAR / SYEAR "Year, spelled out; S prefixes BC dates with a
// minus sign", SCC, E / EE, DL / DS / TS), "Datetime Format Element Suffixes" (TH ordinal number `DDTH` 4TH, SP spelled
// number `DDSP` FOUR, SPTH / THSP spelled ordinal `DDSPTH` FOURTH; "Datetime suffixes are valid only to format
// output") and "Format Model Modifiers" (FM): https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Format-Models.html
describe("Oracle test server: TO_CHAR's spelled and territory elements and the TH / SP suffixes (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  const d = "TIMESTAMP '2024-03-05 09:07:02'"

  it("spells the year in the element's capitalisation, SYEAR with a minus before a BC year", async () => {
    const r = await conn.execute(
      `SELECT TO_CHAR(${d}, 'YEAR'), TO_CHAR(${d}, 'Year'), TO_CHAR(${d}, 'year'), TO_CHAR(DATE '1999-01-01', 'SYEAR'), ` +
        `TO_CHAR(TO_DATE('-0044-03-15', 'SYYYY-MM-DD'), 'SYEAR') FROM dual`
    )
    expect(r.rows).toEqual([["TWENTY TWENTY-FOUR", "Twenty Twenty-Four", "twenty twenty-four", "NINETEEN NINETY-NINE", "-FORTY-FOUR"]])
  })

  // the suffix's capitalisation follows the element's, not its own: 'FMyyyyTH' gives `2007th` on a real server
  // (sqlsnippets.com, "Datetime Format Element Suffixes")
  it("TH appends the ordinal suffix to the digits, SP spells them, SPTH / THSP spell the ordinal", async () => {
    const r = await conn.execute(
      `SELECT TO_CHAR(${d}, 'DDTH'), TO_CHAR(${d}, 'ddth'), TO_CHAR(${d}, 'fmDDTH'), TO_CHAR(${d}, 'DDSP'), ` +
        `TO_CHAR(${d}, 'DdSPTH'), TO_CHAR(${d}, 'ddTHSP'), TO_CHAR(${d}, 'MMSP HH24SPTH'), TO_CHAR(${d}, 'fmDDth "of" Month, YYYY'), TO_CHAR(${d}, 'fmDdth'), ` +
        `TO_CHAR(DATE '2024-03-22', 'fmDDTH DDSPTH'), TO_CHAR(DATE '2024-03-13', 'DDTH'), TO_CHAR(${d}, 'JSP'), ` +
        `TO_CHAR(TIMESTAMP '2024-03-05 09:07:02 +01:00', 'DDTH TZH'), TO_CHAR(TIMESTAMP '2024-03-05 09:07:02.123456789', 'DDSP FF3') FROM dual`
    )
    expect(r.rows).toEqual([[
      "05TH", "05th", "5TH", "FIVE", "Fifth", "fifth", "THREE NINTH", "5TH of March, 2024", "5th", "22ND TWENTY-SECOND", "13TH",
      "TWO MILLION FOUR HUNDRED SIXTY THOUSAND THREE HUNDRED SEVENTY-FIVE", "05TH +01", "FIVE 123"
    ]])
  })

  it("SCC prints the century with a sign's place, E / EE the era", async () => {
    const r = await conn.execute(`SELECT TO_CHAR(${d}, 'SCC'), TO_CHAR(${d}, 'FMSCC'), TO_CHAR(${d}, 'E EE') FROM dual`)
    expect(r.rows).toEqual([[" 21", "21", "AD AD"]])
  })

  it("DL, DS and TS print the AMERICA territory's long date, short date and short time", async () => {
    const r = await conn.execute(
      `SELECT TO_CHAR(DATE '2013-01-04', 'DL'), TO_CHAR(DATE '2013-01-04', 'DS'), TO_CHAR(TIMESTAMP '2013-01-04 10:18:59', 'DS TS'), ` +
        `TO_CHAR(TIMESTAMP '2013-01-04 22:18:59', 'TS') FROM dual`
    )
    expect(r.rows).toEqual([["Friday, January 04, 2013", "1/4/2013", "1/4/2013 10:18:59 AM", "10:18:59 PM"]])
  })

  // AD / BC "indicator with or without periods", valid in the TO_* functions ("Datetime Format Elements")
  it("TO_DATE reads AD / BC with or without periods, a BC year before year 1", async () => {
    const r = await conn.execute(
      `SELECT TO_CHAR(TO_DATE('15-03-0044 BC', 'DD-MM-YYYY BC'), 'SYYYY-MM-DD BC'), ` +
        `TO_CHAR(TO_DATE('2024-03-05 A.D.', 'YYYY-MM-DD B.C.'), 'SYYYY-MM-DD A.D.') FROM dual`
    )
    expect(r.rows).toEqual([["-0044-03-15 BC", " 2024-03-05 A.D."]])
    expect(oraCode(await failure(() => conn.execute(`SELECT TO_DATE('2024 XX', 'YYYY AD') FROM dual`)))).toBe("ORA-01856")
  })

  it("TO_DATE refuses YEAR and the suffixes, which only format output (ORA-01820)", async () => {
    expect(oraCode(await failure(() => conn.execute(`SELECT TO_DATE('05TH', 'DDTH') FROM dual`)))).toBe("ORA-01820")
    expect(oraCode(await failure(() => conn.execute(`SELECT TO_DATE('TWENTY', 'YEAR') FROM dual`)))).toBe("ORA-01820")
  })
})
