import { describe, expect, it } from "@effect/vitest"
import { exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient } from "./hana/client.ts"

// SAP HANA SQL Reference functions the server lacked, through the raw hdb client, with the reference's own examples
// (SAP-docs/sap-hana-cloud-hana-database, docs/sql-ref/010-SQL-Reference/011-SQL-Functions: "SOUNDEX Function
// (String)", "HAMMING_DISTANCE Function (String)", "LOCATE Function (String)", "RAND_SECURE Function (Numeric)",
// "UMINUS Function (Numeric)", "IS_SQL_INJECTION_SAFE Function (Security)", "ABAP_UPPER / ABAP_LOWER / ABAP_ALPHANUM /
// ABAP_NUMC Function (String)", "WORKDAYS_BETWEEN Function (Datetime)", "ADD_WORKDAYS Function (Datetime)").
describe("HANA test server: more SQL Reference functions (raw hdb client)", () => {
  let c: HdbClient
  useRawHanaSession({}, (opened) => (c = opened.client))

  it("SOUNDEX gives the reference's S530 for Smith and Smythe", async () => {
    expect(await exec(c, "SELECT SOUNDEX('Smith') AS A, SOUNDEX('Smythe') AS B, SOUNDEX('Washington') AS C, SOUNDEX('Lee') AS D, SOUNDEX(NULL) AS E FROM DUMMY"))
      .toEqual([{ A: "S530", B: "S530", C: "W252", D: "L000", E: null }])
  })

  it("HAMMING_DISTANCE compares strings bytewise, integers and VARBINARY bitwise, -1 for different lengths", async () => {
    expect(await exec(c, "SELECT HAMMING_DISTANCE('abc', 'ca') AS A, HAMMING_DISTANCE('abc', 'abc') AS B, HAMMING_DISTANCE(4, 4) AS C, " +
      "HAMMING_DISTANCE('abc', 'cab') AS D, HAMMING_DISTANCE(TO_BINARY('abc'), TO_BINARY('cab')) AS E, HAMMING_DISTANCE(4, 9) AS F, " +
      "HAMMING_DISTANCE(TO_BINARY('abc'), TO_BINARY('ca')) AS G, HAMMING_DISTANCE(NULL, 'a') AS H FROM DUMMY"))
      .toEqual([{ A: -1, B: 0, C: 0, D: 3, E: 4, F: 3, G: -1, H: null }])
    const e = await failure(exec(c, "SELECT HAMMING_DISTANCE('abc', 1) FROM DUMMY"))
    expect([e.code, e.message]).toEqual([266, "inconsistent datatype: HAMMING_DISTANCE does not take arguments of these types"])
  })

  it("LOCATE takes a start position (negative: from the end, right to left) and an occurrence", async () => {
    expect(await exec(c, "SELECT LOCATE('AAA', 'A', -1) AS A, LOCATE('AAA', 'A', -2) AS B, LOCATE('AAA', 'A', -3) AS C, " +
      "LOCATE('AAA', 'A', -4) AS D, LOCATE('ABABAC', 'A', -2) AS E FROM DUMMY")).toEqual([{ A: 3, B: 2, C: 1, D: 0, E: 5 }])
    expect(await exec(c, "SELECT LOCATE('abcab', 'b', 1, 2) AS A, LOCATE('abcab', 'b', 3) AS B, LOCATE('abcab', 'b', 0, 3) AS C, " +
      "LOCATE('abcab', 'b', 1, 0) AS D, LOCATE('length in char', '') AS E, LOCATE('abc', 'b', 1, NULL) AS F FROM DUMMY"))
      .toEqual([{ A: 5, B: 5, C: 0, D: 0, E: 1, F: null }])
  })

  it("RAND_SECURE is a DOUBLE in [0, 1); UMINUS negates", async () => {
    const [row] = await exec<Array<{ R: number; U: number }>>(c, "SELECT RAND_SECURE() AS R, UMINUS(-765) AS U FROM DUMMY")
    expect(row!.R >= 0 && row!.R < 1).toBe(true)
    expect(row!.U).toBe(765)
  })

  it("IS_SQL_INJECTION_SAFE counts tokens and refuses comments", async () => {
    expect(await exec(c, "SELECT IS_SQL_INJECTION_SAFE('tab,le') AS A, IS_SQL_INJECTION_SAFE('mytab /*', 4) AS B, " +
      "IS_SQL_INJECTION_SAFE('tab1') AS C, IS_SQL_INJECTION_SAFE('a b', 2) AS D FROM DUMMY")).toEqual([{ A: 0, B: 0, C: 1, D: 1 }])
  })

  it("ABAP_UPPER, ABAP_LOWER, ABAP_ALPHANUM and ABAP_NUMC give the reference's examples", async () => {
    expect(await exec(c, "SELECT ABAP_UPPER('Ant') AS A, ABAP_LOWER('Ant') AS B, ABAP_ALPHANUM('12', 3) AS C, ABAP_ALPHANUM('1234', 3) AS D, " +
      "ABAP_ALPHANUM('12x', 13) AS E FROM DUMMY")).toEqual([{ A: "ANT", B: "ant", C: "012", D: "1234", E: "12x" }])
    expect(await exec(c, "SELECT ABAP_NUMC(12, 3) AS A, ABAP_NUMC(1234, 3) AS B, ABAP_NUMC(1.23e18, 20) AS C, ABAP_NUMC(-1234.5, 6) AS D FROM DUMMY"))
      .toEqual([{ A: "012", B: "234", C: "01230000000000000000", D: "001235" }])
  })

  it("NORMALIZE gives a Unicode normalization form (NFC by default); CURRENT_TRANSACTION_ISOLATION_LEVEL is READ COMMITTED", async () => {
    // "NORMALIZE Function (String)"; "CURRENT_TRANSACTION_ISOLATION_LEVEL Function (Miscellaneous)"
    expect(await exec(c, "SELECT NORMALIZE('A' || NCHAR(778)) AS A, LENGTH(NORMALIZE(NCHAR(197), 'NFD')) AS B, NORMALIZE(NULL) AS C, " +
      "CURRENT_TRANSACTION_ISOLATION_LEVEL FROM DUMMY")).toEqual([{ A: "\u00c5", B: 2, C: null, CURRENT_TRANSACTION_ISOLATION_LEVEL: "READ COMMITTED" }])
    const e = await failure(exec(c, "SELECT NORMALIZE('x', 'NFX') FROM DUMMY"))
    expect(e.code).toBe(8)
  })

  it("a function call after the FROM of EXTRACT( … FROM …) and TRIM( … FROM …) is a function, not a table function", async () => {
    expect(await exec(c, "SELECT EXTRACT(YEAR FROM TO_DATE('2014-02-01')) AS Y, EXTRACT(MONTH FROM ADD_DAYS(TO_DATE('2014-02-28'), 1)) AS M, " +
      "TRIM(LEADING 'x' FROM LCASE('xxABC')) AS T FROM DUMMY")).toEqual([{ Y: 2014, M: 3, T: "abc" }])
    expect(await exec(c, "SELECT COUNT(*) AS N FROM SERIES_GENERATE_INTEGER(1, 0, 5)")).toEqual([{ N: 5 }])
  })

  // "SQL Error Codes": 316 ERR_SQL_INV_NUM_ARG_FUNC "wrong number of arguments in function invocation"
  it("a function the server implements called with a wrong number of arguments fails with 316 naming it", async () => {
    for (const [sql, name] of [["SELECT RAND_SECURE(1) FROM DUMMY", "RAND_SECURE"], ["SELECT SOUNDEX('a', 'b') FROM DUMMY", "SOUNDEX"], ["SELECT ADD_DAYS(CURRENT_DATE) FROM DUMMY", "ADD_DAYS"]]) {
      const e = await failure(exec(c, sql!))
      expect([e.code, e.message]).toEqual([316, `wrong number of arguments in function invocation: ${name}`])
    }
  })

  it("HOUR and MINUTE take a time string and CURRENT_TIME", async () => {
    // "HOUR Function (Datetime)": HOUR('12:34:56') is 12; "MINUTE Function (Datetime)": MINUTE('12:34:56') is 34
    const [row] = await exec<Array<{ H: number; M: number; H2: number; NH: number; NM: number }>>(c, "SELECT HOUR('12:34:56') AS H, MINUTE('12:34:56') AS M, HOUR('2014-01-01 13:14:15') AS H2, " +
      "HOUR(CURRENT_TIME) AS NH, MINUTE(CURRENT_TIME) AS NM FROM DUMMY")
    expect([row!.H, row!.M, row!.H2]).toEqual([12, 34, 13])
    expect(row!.NH >= 0 && row!.NH < 24 && row!.NM >= 0 && row!.NM < 60).toBe(true)
  })

  // The reference's January 2014 factory calendar: 1st and 6th public holidays, weekends 4/5, 11/12, 18/19, 25/26.
  const JANUARY = "0110001111001111100111110011111"
  it("WORKDAYS_BETWEEN / ADD_WORKDAYS read the factory calendar table TFACS, and fail with 259 without one", async () => {
    const e = await failure(exec(c, "SELECT WORKDAYS_BETWEEN('01', '2014-01-09', '2014-01-10') FROM DUMMY"))
    expect([e.code, e.message]).toEqual([259, "invalid table name: Could not find table/view TFACS in schema SYSTEM"])
    await exec(c, "CREATE SCHEMA FCTEST")
    await exec(c, `CREATE COLUMN TABLE FCTEST.TFACS (IDENT NVARCHAR(2), JAHR NVARCHAR(4), ${Array.from({ length: 12 }, (_, i) => `MON${String(i + 1).padStart(2, "0")} NVARCHAR(31)`).join(", ")})`)
    await exec(c, `INSERT INTO FCTEST.TFACS VALUES ('01', '2014', '${JANUARY}', '', '', '', '', '', '', '', '', '', '', '')`)
    expect(await exec(c, "SELECT WORKDAYS_BETWEEN('01', '2014-01-09', '2014-01-10', 'FCTEST') AS A, WORKDAYS_BETWEEN('01', '2014-01-10', '2014-01-09', 'FCTEST') AS B, " +
      "WORKDAYS_BETWEEN('01', '2014-01-17', '2014-01-20', 'FCTEST') AS C, WORKDAYS_BETWEEN('01', '2014-01-20', '2014-01-17', 'FCTEST') AS D, " +
      "WORKDAYS_BETWEEN('01', '2014-01-01', '2014-01-31', 'FCTEST') AS E FROM DUMMY")).toEqual([{ A: 1, B: -1, C: 1, D: -1, E: 20 }])
    expect(await exec(c, "SELECT ADD_WORKDAYS('01', '2014-01-09', 1, 'FCTEST') AS A, ADD_WORKDAYS('01', '2014-01-10', -1, 'FCTEST') AS B, " +
      "ADD_WORKDAYS('01', '2014-01-17', 1, 'FCTEST') AS C, ADD_WORKDAYS('01', '2014-01-20', -1, 'FCTEST') AS D, " +
      "ADD_WORKDAYS('01', '20140101', 16, 'FCTEST') AS E FROM DUMMY"))
      .toEqual([{ A: "2014-01-10", B: "2014-01-09", C: "2014-01-20", D: "2014-01-17", E: "2014-01-27" }])
    // the reference's table form: the calendar of the current schema, the ID and dates read from columns
    await exec(c, "SET SCHEMA FCTEST")
    await exec(c, "CREATE ROW TABLE MY_DATES (FCID NVARCHAR(2), STARTDATE DAYDATE, ENDDATE DAYDATE, DURATION INTEGER)")
    await exec(c, "INSERT INTO MY_DATES VALUES ('01', '2014-01-01', '2014-01-31', 16)")
    await exec(c, "INSERT INTO MY_DATES VALUES ('01', '2014-01-20', '2014-01-17', -1)")
    expect(await exec(c, "SELECT WORKDAYS_BETWEEN(FCID, STARTDATE, ENDDATE) AS W, ADD_WORKDAYS(FCID, STARTDATE, DURATION) AS D FROM MY_DATES ORDER BY DURATION DESC"))
      .toEqual([{ W: 20, D: "2014-01-27" }, { W: -1, D: "2014-01-17" }])
    const s = await failure(exec(c, "SELECT WORKDAYS_BETWEEN('01', '2014-01-09', '2014-01-10', 'FCTEST', '_XYZ') FROM DUMMY"))
    expect([s.code, s.message]).toEqual([259, "invalid table name: Could not find table/view TFACS_XYZ in schema FCTEST"])
    await exec(c, "SET SCHEMA SYSTEM")
  })
})
