import { describe, expect, it } from "@effect/vitest"
import { call, exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbResultSet } from "./hana/client.ts"

/** hdb's type code of INTEGER (node_modules/hdb/lib/protocol/common/TypeCode.js). */
const INT = 3

/** Words of DuckDB's error vocabulary that a HANA client must never see. */
const DUCKDB_WORDS = /INT8|INT16|INT32|INT64|INT128|HUGEINT|Conversion Error|Out of Range Error|Invalid Input Error|Could not|can't be cast|destination type|Casting value/

describe("HANA test server: datetime part functions and engine error texts as HANA gives them (raw hdb client)", () => {
  let c: HdbClient
  useRawHanaSession({
    client: { dataFormatSupport: 8 },
    setup: [
      "CREATE TABLE ft (id INTEGER, d DATE, ts TIMESTAMP, small SMALLINT, amount DECIMAL(5,2), tiny TINYINT, n NVARCHAR(10))",
      "INSERT INTO ft VALUES (1, '2024-03-17', '2024-03-17 10:11:12', 1, 1.5, 1, 'abc')"
    ]
  }, (opened) => (c = opened.client))

  const types = async (sql: string) => {
    const rs = await call<HdbResultSet>((cb) => c.execute(sql, cb))
    rs.close()
    return rs.metadata.map((m) => m.dataType)
  }

  it("EXTRACT, YEAR, MONTH, DAYOFMONTH, HOUR and MINUTE are INTEGER", async () => {
    // SAP HANA SQL Reference, "YEAR Function (Datetime)", "MONTH …", "DAYOFMONTH …", "HOUR …", "MINUTE …": each
    // returns an integer (INTEGER); "EXTRACT Function (Datetime)" returns the field as an integer as well.
    const sql =
      "SELECT EXTRACT(YEAR FROM d) AS EY, EXTRACT(MONTH FROM ts) AS EM, EXTRACT(DAY FROM d) AS ED, YEAR(d) AS Y, MONTH(ts) AS M, " +
      "DAYOFMONTH(d) AS DM, HOUR(ts) AS H, MINUTE(ts) AS MI FROM ft"
    expect(await types(sql)).toEqual([INT, INT, INT, INT, INT, INT, INT, INT])
    expect(await exec(c, sql)).toEqual([{ EY: 2024, EM: 3, ED: 17, Y: 2024, M: 3, DM: 17, H: 10, MI: 11 }])
    expect(await exec(c, "SELECT id FROM ft WHERE YEAR(d) = 2024 AND EXTRACT(MONTH FROM d) = 3")).toEqual([{ ID: 1 }])
  })

  it("SECOND of a TIMESTAMP keeps its fraction; of a TIME or SECONDDATE it is whole", async () => {
    // SAP HANA SQL Reference, "SECOND Function (Datetime)": "Subseconds are included for TIMESTAMP datatypes";
    // SECOND('12:34:56') is 56 and SECOND('2014-03-25 12:34:56.789') is 56.789.
    await exec(c, "CREATE TABLE sec (ts TIMESTAMP, t TIME, sd SECONDDATE)")
    await exec(c, "INSERT INTO sec VALUES ('2014-03-25 12:34:56.789', '12:34:56', '2014-03-25 12:34:56')")
    const rows = await exec<Array<Record<string, unknown>>>(c, "SELECT SECOND(ts) AS S, SECOND(t) AS T, SECOND(sd) AS D FROM sec")
    expect(rows.map((r) => [Number(r["S"]), r["T"], r["D"]])).toEqual([[56.789, 56, 56]])
    expect((await types("SELECT SECOND(t) AS T, SECOND(sd) AS D FROM sec"))).toEqual([INT, INT])
    const literals = await exec<Array<Record<string, unknown>>>(c, "SELECT SECOND('12:34:56') AS T, SECOND('2014-03-25 12:34:56.789') AS S FROM DUMMY")
    expect(literals.map((r) => [Number(r["T"]), Number(r["S"])])).toEqual([[56, 56.789]])
  })

  it("the INTEGER of LENGTH, YEAR and LOCATE carries into a larger expression", async () => {
    // The README's "still differs" list says only string and binary lengths are lost inside larger expressions.
    const sql = "SELECT LENGTH(n) + 1 AS A, YEAR(d) * 100 + MONTH(d) AS B, CASE WHEN id > 0 THEN LOCATE(n, 'b') ELSE 0 END AS C FROM ft"
    expect(await types(sql)).toEqual([INT, INT, INT])
    expect(await exec(c, sql)).toEqual([{ A: 4, B: 202403, C: 2 }])
  })

  it("314 and 339 carry HANA's own text, not DuckDB's", async () => {
    // SAP HANA SQL Reference, "SQL Error Codes": 314 ERR_SQL_NUMERIC_OVERFLOW "numeric overflow", 339
    // ERR_SQL_INV_NUMBER "invalid number"; the detail names the value and the HANA type it does not fit.
    const cases: ReadonlyArray<readonly [string, number, string]> = [
      ["INSERT INTO ft (id, small) VALUES (2, 300000)", 314, "numeric overflow: 300000 is out of range for SMALLINT"],
      ["INSERT INTO ft (id, amount) VALUES (2, 123456)", 314, "numeric overflow: 123456 is out of range for DECIMAL(5,2)"],
      ["INSERT INTO ft (id, tiny) VALUES (2, 300)", 314, "numeric overflow: 300 is out of range for TINYINT"],
      ["SELECT CAST(n AS INTEGER) AS X FROM ft", 339, "invalid number: not a valid number string 'abc'"],
      ["SELECT CAST('1.2.3' AS DECIMAL(5,2)) AS X FROM DUMMY", 339, "invalid number: not a valid number string '1.2.3'"]
    ]
    for (const [sql, code, message] of cases) {
      const err = await failure(exec(c, sql))
      expect([sql, err.code, err.message]).toEqual([sql, code, message])
    }
    const sum = await failure(exec(c, "SELECT CAST(2147483647 AS INTEGER) + id AS X FROM ft"))
    expect(sum.code).toBe(314)
    expect(sum.message).not.toMatch(DUCKDB_WORDS)
    expect(await exec(c, "SELECT COUNT(*) AS N FROM ft")).toEqual([{ N: 1 }])
  })
  it("TO_SECONDDATE is SECONDDATE, LOCATE and WEEK are INTEGER, QUARTER is the quarter's name; TO_VARCHAR / TO_NVARCHAR are NVARCHAR", async () => {
    // SAP HANA SQL Reference: "TO_SECONDDATE Function (Data Type Conversion)" converts to SECONDDATE; "LOCATE
    // Function (String)" and "WEEK Function (Datetime)" return an integer; "QUARTER Function (Datetime)" returns the
    // quarter as text, `YYYY-Qn`, counted from an optional start month (its example: QUARTER(2012-01-01, 2) = 2011-Q4);
    // "TO_VARCHAR" / "TO_NVARCHAR" give character strings, which the server sends as NVARCHAR (11).
    const SECONDDATE = 62
    const NVARCHAR = 11
    const sql =
      "SELECT TO_SECONDDATE('2024-03-17 10:11:12.9') AS SD, LOCATE(n, 'b') AS L, WEEK(d) AS W, QUARTER(d) AS Q, " +
      "QUARTER(TO_DATE('2012-01-01'), 2) AS QS, TO_VARCHAR(id) AS V, TO_NVARCHAR(d) AS NV FROM ft"
    expect(await types(sql)).toEqual([SECONDDATE, INT, INT, NVARCHAR, NVARCHAR, NVARCHAR, NVARCHAR])
    const [row] = await exec<Array<Record<string, unknown>>>(c, sql)
    expect(row).toMatchObject({ SD: "2024-03-17 10:11:12", L: 2, Q: "2024-Q1", QS: "2011-Q4", V: "1", NV: "2024-03-17" })
  })
  it("TO_DECIMAL(x, p, s) is DECIMAL(p,s), cut to s digits", async () => {
    // SAP HANA SQL Reference, "TO_DECIMAL Function (Data Type Conversion)" (SAP-docs/sap-hana-cloud-hana-database,
    // sql-functions/to-decimal-function-data-type-conversion-20ee237.md): "Unnecessary least significant digits in the
    // mantissa of the input value are truncated"; its examples TO_DECIMAL(7654321.888888, 10, 3) = 7654321.888 and
    // TO_DECIMAL(1234.789, 10, 0) = 1234 (SAP Note 1895981 "to_decimal no longer provides rounding").
    const FIXED8 = 81 // hdb's TypeCode.FIXED8: a DECIMAL of precision up to 18 at data format version 8
    const rs = await call<HdbResultSet>((cb) => c.execute("SELECT TO_DECIMAL(7654321.888888, 10, 3) AS D, TO_DECIMAL(amount * 2, 6, 1) AS E FROM ft", cb))
    rs.close()
    expect(rs.metadata.map((m) => [m.dataType, m.length, m.fraction])).toEqual([[FIXED8, 10, 3], [FIXED8, 6, 1]])
    expect(await exec(c, "SELECT TO_DECIMAL(7654321.888888, 10, 3) AS D, TO_DECIMAL(amount * 2, 6, 1) AS E FROM ft")).toEqual([{ D: "7654321.888", E: "3.0" }])
    expect(await exec(c, "SELECT TO_DECIMAL(1234.789, 10, 0) AS A, TO_DECIMAL(-1.99, 5, 1) AS B, TO_DECIMAL('2.555', 5, 2) AS C, TO_DECIMAL(99.9, 4) AS P FROM DUMMY")).toEqual([{ A: "1234", B: "-1.9", C: "2.55", P: "99" }])
  })
})
