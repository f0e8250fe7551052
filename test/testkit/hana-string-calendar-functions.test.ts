import { describe, expect, it } from "@effect/vitest"
import { call, exec } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbResultSet, HdbStatement } from "./hana/client.ts"

/** hdb's type codes (node_modules/hdb/lib/protocol/common/TypeCode.js). */
const INTEGER = 3
const NVARCHAR = 11
const DAYDATE = 63
const SECONDTIME = 64

// HANA string and datetime functions the test server lacked (328) or ran with DuckDB's other rules, through the raw
// hdb client, with the SAP HANA SQL Reference's own examples ("SUBSTR_AFTER Function (String)", "SUBSTR_BEFORE
// Function (String)", "INITCAP Function (String)", "LEFT Function (String)", "RIGHT Function (String)", "CONCAT_NAZ
// Function (String)", "LAST_DAY Function (Datetime)", "DAYNAME Function (Datetime)", "MONTHNAME Function
// (Datetime)", "ISOWEEK Function (Datetime)", "MONTHS_BETWEEN Function (Datetime)", "YEARS_BETWEEN Function
// (Datetime)", "CURRENT_UTCDATE Function (Datetime)", "CURRENT_UTCTIME Function (Datetime)").
describe("HANA test server: SUBSTR_AFTER & co., LEFT / RIGHT, LAST_DAY, DAYNAME, MONTHS_BETWEEN & co. (raw hdb client)", () => {
  let c: HdbClient
  useRawHanaSession({ client: { dataFormatSupport: 8 } }, (opened) => (c = opened.client))

  const types = async (sql: string) => {
    const rs = await call<HdbResultSet>((cb) => c.execute(sql, cb))
    rs.close()
    return rs.metadata.map((m) => m.dataType)
  }

  it("SUBSTR_AFTER / SUBSTR_BEFORE cut at the first pattern: '' without it, the string for an empty pattern, NULL for NULL", async () => {
    expect(await exec(c, "SELECT SUBSTR_AFTER('Hello My Friend', 'My ') AS A, SUBSTR_BEFORE('Hello My Friend', 'My') AS B, SUBSTR_AFTER('abc', 'x') AS N, " +
      "SUBSTR_BEFORE('abc', '') AS E, SUBSTR_AFTER(NULL, 'a') AS Z FROM DUMMY")).toEqual([{ A: "Friend", B: "Hello ", N: "", E: "abc", Z: null }])
  })

  it("INITCAP capitalises each word; LEFT / RIGHT give '' for n < 1; CONCAT_NAZ is NULL only for two NULLs", async () => {
    expect(await exec(c, "SELECT INITCAP('the EXAMPLE one') AS I, INITCAP('o''neil-smith') AS P FROM DUMMY")).toEqual([{ I: "The Example One", P: "O'Neil-Smith" }])
    expect(await exec(c, "SELECT LEFT('Hello', 3) AS L, LEFT('Hello', 10) AS W, LEFT('Hello', -1) AS N, RIGHT('HI0123456789', 3) AS R, RIGHT('abc', 0) AS Z FROM DUMMY"))
      .toEqual([{ L: "Hel", W: "Hello", N: "", R: "789", Z: "" }])
    expect(await exec(c, "SELECT CONCAT_NAZ('A', 'B') AS A, CONCAT_NAZ('C', NULL) AS C, CONCAT_NAZ(NULL, NULL) AS N FROM DUMMY")).toEqual([{ A: "AB", C: "C", N: null }])
    // LEFT JOIN / RIGHT JOIN stay joins
    expect(await exec(c, "SELECT a.x FROM (SELECT 1 AS x FROM DUMMY) a LEFT JOIN (SELECT 2 AS x FROM DUMMY) b ON a.x = b.x")).toEqual([{ X: 1 }])
  })

  it("TRIM takes LEADING / TRAILING / BOTH and a trim character before FROM, on literals, columns and parameters", async () => {
    // SAP HANA SQL Reference, "TRIM Function (String)": TRIM([[LEADING | TRAILING | BOTH] <trim_char> FROM] <string>)
    expect(await exec(c, "SELECT TRIM(BOTH 'x' FROM 'xxaxx') AS B, TRIM(LEADING 'x' FROM 'xxaxx') AS L, TRIM(TRAILING 'x' FROM 'xxaxx') AS T, " +
      "TRIM(TRAILING FROM '  a  ') AS S, TRIM('x' FROM 'xxaxx') AS D, TRIM(BOTH 'x' FROM NULL) AS N FROM DUMMY"))
      .toEqual([{ B: "a", L: "axx", T: "xxa", S: "  a", D: "a", N: null }])
    await exec(c, "CREATE COLUMN TABLE trm (s NVARCHAR(10))")
    await exec(c, "INSERT INTO trm VALUES ('--ab--')")
    expect(await exec(c, "SELECT TRIM(LEADING '-' FROM s) AS L FROM trm WHERE TRIM(BOTH '-' FROM s) = 'ab'")).toEqual([{ L: "ab--" }])
    const st = await call<HdbStatement>((cb) => c.prepare("SELECT TRIM(TRAILING '-' FROM ?) AS T FROM DUMMY", cb))
    expect(await call((cb) => st.exec(["q--"], cb))).toEqual([{ T: "q" }])
    expect(await types("SELECT TRIM(BOTH 'x' FROM s) AS B FROM trm")).toEqual([(await types("SELECT s FROM trm"))[0]])
  })

  it("LAST_DAY is a DATE; DAYNAME and MONTHNAME are upper-case English names; ISOWEEK is YYYY-Www", async () => {
    expect(await exec(c, "SELECT LAST_DAY(TO_DATE('2010-01-04', 'YYYY-MM-DD')) AS L, LAST_DAY('2024-02-10') AS F, DAYNAME('2011-05-30') AS D, " +
      "MONTHNAME('2011-05-30') AS M, ISOWEEK(TO_DATE('2011-05-30', 'YYYY-MM-DD')) AS W, DAYNAME('1582-10-15') AS G FROM DUMMY"))
      .toEqual([{ L: "2010-01-31", F: "2024-02-29", D: "MONDAY", M: "MAY", W: "2011-W22", G: "FRIDAY" }])
    expect(await types("SELECT LAST_DAY(CURRENT_DATE) AS L, DAYNAME(CURRENT_DATE) AS D FROM DUMMY")).toEqual([DAYDATE, NVARCHAR])
  })

  it("MONTHS_BETWEEN / YEARS_BETWEEN count whole months / years as the reference's examples do, as INTEGER", async () => {
    const m = (a: string, b: string) => `MONTHS_BETWEEN(TO_DATE('${a}'), TO_DATE('${b}'))`
    expect(await exec(c, `SELECT ${m("2003-01-01", "2003-03-14")} AS A, ${m("2003-10-03", "2003-01-14")} AS B, ${m("2003-10-15", "2003-01-14")} AS C, ` +
      `${m("2003-10-13", "2003-01-14")} AS D FROM DUMMY`)).toEqual([{ A: 2, B: -8, C: -9, D: -8 }])
    const y = (a: string, b: string) => `YEARS_BETWEEN(TO_DATE('${a}'), TO_DATE('${b}'))`
    expect(await exec(c, `SELECT ${y("2001-01-01", "2003-03-14")} AS A, ${y("2003-10-03", "2001-01-14")} AS B, ${y("2001-10-15", "2003-01-14")} AS C, ` +
      `${y("2001-10-13", "2003-01-14")} AS D, MONTHS_BETWEEN(NULL, CURRENT_DATE) AS N FROM DUMMY`)).toEqual([{ A: 2, B: -2, C: 1, D: 1, N: null }])
    expect(await types(`SELECT ${m("2003-01-01", "2003-03-14")} AS M FROM DUMMY`)).toEqual([INTEGER])
  })

  it("CURRENT_UTCDATE and CURRENT_UTCTIME are the UTC date and time, named as written", async () => {
    const before = new Date()
    const [row] = (await exec(c, "SELECT CURRENT_UTCDATE, CURRENT_UTCTIME FROM DUMMY")) as Array<{ CURRENT_UTCDATE: string; CURRENT_UTCTIME: string }>
    const after = new Date()
    expect([before.toISOString().slice(0, 10), after.toISOString().slice(0, 10)]).toContain(row!.CURRENT_UTCDATE)
    const seconds = (t: string) => Number(t.slice(0, 2)) * 3600 + Number(t.slice(3, 5)) * 60 + Number(t.slice(6, 8))
    const now = seconds(before.toISOString().slice(11, 19))
    expect(Math.abs(seconds(row!.CURRENT_UTCTIME) - now) <= 2 || Math.abs(seconds(row!.CURRENT_UTCTIME) - now) >= 86398).toBe(true)
    expect(await types("SELECT CURRENT_UTCDATE, CURRENT_UTCTIME FROM DUMMY")).toEqual([DAYDATE, SECONDTIME])
  })
})
