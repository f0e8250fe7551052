import { beforeAll, describe, expect, it } from "@effect/vitest"
import { exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient } from "./hana/client.ts"

/**
 * An aggregate, a window function or a scalar subquery given to a conversion, `||` or a datetime function is taken
 * by its own type. The server stores a TIMESTAMP as 100 ns ticks in a DuckDB UBIGINT (testkit/hana/longdate.ts), and
 * its functions must tell ticks from any other value whatever the argument is: a count is no TIMESTAMP.
 */
describe("HANA test server: aggregate, window and subquery arguments of conversions and datetime functions (raw hdb client)", () => {
  let c: HdbClient
  useRawHanaSession({}, (opened) => (c = opened.client))
  beforeAll(async () => {
    await exec(c, `CREATE COLUMN TABLE ep (id INTEGER, x DECIMAL(10,2), n NVARCHAR(10), day DATE, sd SECONDDATE, t TIME, ts TIMESTAMP)`)
    await exec(c, `INSERT INTO ep VALUES (1, 1.5, 'abc', '2020-01-02', '2020-01-02 01:02:03', '04:05:06', '2020-01-01 03:25:45.1234567')`)
    await exec(c, `INSERT INTO ep VALUES (2, 2.25, 'de', '2020-03-05', '2021-06-07 08:09:10', '11:12:13', '2021-02-03 04:05:06.7654321')`)
  })

  const value = async (sql: string): Promise<unknown> => ((await exec<Array<{ V: unknown }>>(c, sql))[0]!).V

  it("numeric conversions of aggregates, window functions and subqueries keep the number", async () => {
    const cases: ReadonlyArray<readonly [string, unknown]> = [
      ["SELECT CAST(COUNT(*) AS INTEGER) AS V FROM ep", 2],
      ["SELECT CAST(SUM(id) AS BIGINT) AS V FROM ep", 3],
      ["SELECT TO_INTEGER(MAX(id)) AS V FROM ep", 2],
      ["SELECT TO_BIGINT(COUNT(*)) AS V FROM ep", 2],
      ["SELECT TO_DECIMAL(SUM(x), 10, 2) AS V FROM ep", "3.75"],
      ["SELECT CAST(AVG(x) AS DECIMAL(10,2)) AS V FROM ep", "1.88"],
      ["SELECT CAST(ROW_NUMBER() OVER (ORDER BY id DESC) AS INTEGER) AS V FROM ep ORDER BY id", 2],
      ["SELECT CAST((SELECT MAX(id) FROM ep) AS BIGINT) AS V FROM DUMMY", 2],
      ["SELECT CAST(SUM(id) OVER () AS DOUBLE) AS V FROM ep ORDER BY id", 3]
    ]
    for (const [sql, expected] of cases) expect([sql, await value(sql)]).toEqual([sql, expected])
  })

  it("text conversions and || of aggregates, window functions and subqueries are the value's text", async () => {
    const cases: ReadonlyArray<readonly [string, unknown]> = [
      ["SELECT COUNT(*) || ' rows' AS V FROM ep", "2 rows"],
      ["SELECT CAST(COUNT(*) AS NVARCHAR(10)) AS V FROM ep", "2"],
      ["SELECT TO_VARCHAR(COUNT(*)) AS V FROM ep", "2"],
      ["SELECT TO_NVARCHAR(SUM(x)) AS V FROM ep", "3.75"],
      ["SELECT CAST(MAX(n) AS NVARCHAR(5)) AS V FROM ep", "de"],
      ["SELECT CAST(SUM(id) OVER () AS NVARCHAR(5)) AS V FROM ep ORDER BY id", "3"],
      ["SELECT 'n=' || (SELECT COUNT(*) FROM ep) AS V FROM DUMMY", "n=2"],
      ["SELECT LENGTH(MAX(n)) AS V FROM ep", 2],
      ["SELECT TO_VARCHAR(MAX(day), 'YYYY') AS V FROM ep", "2020"],
      ["SELECT TO_VARCHAR(MAX(ts)) AS V FROM ep", "2021-02-03 04:05:06.7654321"],
      ["SELECT MAX(ts) || '' AS V FROM ep", "2021-02-03 04:05:06.7654321"],
      ["SELECT CAST(MIN(ts) AS NVARCHAR(30)) AS V FROM ep", "2020-01-01 03:25:45.1234567"],
      ["SELECT TO_VARCHAR((SELECT MIN(ts) FROM ep)) AS V FROM DUMMY", "2020-01-01 03:25:45.1234567"],
      ["SELECT TO_VARCHAR(MAX(ts), 'HH24:MI:SS.FF7') AS V FROM ep", "04:05:06.7654321"],
      // VARBINARY operands of || stay bytes
      ["SELECT X'AB' || X'CD' AS V FROM DUMMY", Buffer.from([0xab, 0xcd])]
    ]
    for (const [sql, expected] of cases) expect([sql, await value(sql)]).toEqual([sql, expected])
  })

  it("datetime functions of aggregates and subqueries over DATE, SECONDDATE, TIME and TIMESTAMP columns", async () => {
    const cases: ReadonlyArray<readonly [string, unknown]> = [
      ["SELECT YEAR(MAX(day)) AS V FROM ep", 2020],
      ["SELECT YEAR(MAX(ts)) AS V FROM ep", 2021],
      ["SELECT MONTH(MAX(sd)) AS V FROM ep", 6],
      ["SELECT DAYOFMONTH(MIN(day)) AS V FROM ep", 2],
      ["SELECT HOUR(MAX(t)) AS V FROM ep", 11],
      ["SELECT MINUTE(MAX(ts)) AS V FROM ep", 5],
      ["SELECT WEEKDAY(MAX(day)) AS V FROM ep", 3],
      ["SELECT DAYS_BETWEEN(MIN(day), MAX(day)) AS V FROM ep", 63],
      ["SELECT DAYS_BETWEEN(MIN(ts), MAX(ts)) AS V FROM ep", 399],
      ["SELECT ADD_DAYS(MAX(day), 1) AS V FROM ep", "2020-03-06"],
      ["SELECT TO_VARCHAR(ADD_DAYS(MAX(ts), 1)) AS V FROM ep", "2021-02-04 04:05:06.7654321"],
      ["SELECT ADD_MONTHS(MAX(day), 1) AS V FROM ep", "2020-04-05"],
      ["SELECT ADD_MONTHS(MAX(sd), 1) AS V FROM ep", "2021-07-07T08:09:10"],
      ["SELECT TO_VARCHAR(ADD_YEARS(MAX(ts), 1)) AS V FROM ep", "2022-02-03 04:05:06.7654321"],
      ["SELECT TO_DATE(MAX(ts)) AS V FROM ep", "2021-02-03"],
      ["SELECT CAST(MAX(ts) AS DATE) AS V FROM ep", "2021-02-03"],
      ["SELECT CAST(MAX(sd) AS DATE) AS V FROM ep", "2021-06-07"],
      ["SELECT YEAR((SELECT MIN(day) FROM ep)) AS V FROM DUMMY", 2020],
      ["SELECT TO_VARCHAR(FIRST_VALUE(ts) OVER (ORDER BY id DESC)) AS V FROM ep ORDER BY id", "2021-02-03 04:05:06.7654321"],
      // SECOND keeps a TIMESTAMP's fraction (DECIMAL) and is the whole second of a SECONDDATE or TIME (INTEGER)
      ["SELECT SECOND(MAX(ts)) AS V FROM ep", "6.7654321"],
      ["SELECT SECOND(MAX(sd)) AS V FROM ep", 10],
      ["SELECT SECOND(MIN(t)) AS V FROM ep", 6]
    ]
    for (const [sql, expected] of cases) expect([sql, await value(sql)]).toEqual([sql, expected])
  })

  it("aggregates compared with a datetime keyword or function compare as their own type; texts compared with columns as the column's", async () => {
    const cases: ReadonlyArray<readonly [string, unknown]> = [
      ["SELECT CASE WHEN MAX(day) < CURRENT_DATE THEN 'past' END AS V FROM ep", "past"],
      ["SELECT CASE WHEN MAX(sd) < CURRENT_DATE THEN 'past' END AS V FROM ep", "past"],
      ["SELECT CASE WHEN MAX(ts) < CURRENT_TIMESTAMP THEN 'past' END AS V FROM ep", "past"],
      ["SELECT CASE WHEN ADD_DAYS(MAX(day), 1) < CURRENT_DATE THEN 'past' END AS V FROM ep", "past"],
      ["SELECT COUNT(*) AS V FROM ep HAVING MIN(day) < ADD_DAYS(CURRENT_DATE, 1)", 2],
      ["SELECT CASE WHEN (SELECT MIN(ts) FROM ep) < NOW() THEN 'past' END AS V FROM DUMMY", "past"],
      // a datetime text compared with a column is read as the column's type
      ["SELECT COUNT(*) AS V FROM ep WHERE day >= '2020-03-05'", 1],
      ["SELECT COUNT(*) AS V FROM ep WHERE sd < '2021-06-07 08:09:10'", 1],
      ["SELECT COUNT(*) AS V FROM ep WHERE ts > '2021-02-03 04:05:06.7654320'", 1],
      ["SELECT COUNT(*) AS V FROM ep WHERE n = '2020-01-01'", 0]
    ]
    for (const [sql, expected] of cases) expect([sql, await value(sql)]).toEqual([sql, expected])
  })

  it("a TIMESTAMP converted to a number still fails as HANA's invalid number, whether a column or an aggregate", async () => {
    for (const sql of ["SELECT CAST(MAX(ts) AS INTEGER) AS V FROM ep", "SELECT TO_INTEGER(ts) AS V FROM ep"]) {
      expect([sql, (await failure(exec(c, sql))).code]).toEqual([sql, 339])
    }
  })
})
