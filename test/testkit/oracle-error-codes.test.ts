/**
 * Oracle test server: the ORA- code and text Oracle raises for statements DuckDB words its own way (too many / not
 * enough values, unknown data types, bad format models, numeric overflow, out-of-range arguments, bad dates, set
 * operations over different types, too many arguments, invalid ROWIDs). Raw oracledb, no driver in between.
 *
 * Texts: Oracle Database Error Messages (https://docs.oracle.com/en/error-help/db/ora-00913/, ora-00947,
 * ora-00902, ora-01821, ora-01426, ora-01428, ora-01843, ora-01847, ora-01850, ora-01858, ora-01790, ora-00938,
 * ora-00939, ora-01410, ora-01861).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, withServer } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

/** errorNum and the first line of the message, as node-oracledb reports them. */
const raised = async (sql: string) => {
  const e: any = await failure(() => conn.execute(sql))
  return { errorNum: e.errorNum as number, message: String(e.message).split("\n")[0] }
}

const cases: ReadonlyArray<readonly [string, number, string]> = [
  ["INSERT INTO t (n) VALUES (1, 2)", 913, "ORA-00913: too many values"],
  ["INSERT INTO t (n, s) VALUES (1)", 947, "ORA-00947: not enough values"],
  ["INSERT INTO t (n) SELECT 1, 2 FROM dual", 913, "ORA-00913: too many values"],
  ["INSERT INTO t (n, s) SELECT 1 FROM dual", 947, "ORA-00947: not enough values"],
  ["SELECT 1 FROM dual WHERE 1 IN (SELECT 1, 2 FROM dual)", 913, "ORA-00913: too many values"],
  ["UPDATE t SET (n) = (SELECT 1, 2 FROM dual)", 913, "ORA-00913: too many values"],
  ["SELECT 1 FROM dual WHERE (1, 2) IN (SELECT 1 FROM dual)", 947, "ORA-00947: not enough values"],
  ["SELECT CAST(1 AS FOO) FROM dual", 902, "ORA-00902: invalid datatype"],
  ["SELECT TO_DATE('2024', 'QQ') FROM dual", 1821, "ORA-01821: date format not recognized"],
  ["INSERT INTO t VALUES (1, 'a', 3)", 913, "ORA-00913: too many values"],
  ["SELECT TO_DATE('2024-01-01 25', 'YYYY-MM-DD HH24') FROM dual", 1850, "ORA-01850: hour must be between 0 and 23"],
  ["SELECT TO_DATE('2024-01-xx', 'YYYY-MM-DD') FROM dual", 1858, "ORA-01858: a non-numeric character was found where a numeric was expected"],
  ["SELECT DATE '2024-13-01' FROM dual", 1843, "ORA-01843: not a valid month"],
  ["SELECT TIMESTAMP '2024-02-30 00:00:00' FROM dual", 1847, "ORA-01847: day of month must be between 1 and last day of month"],
  ["SELECT POWER(n * 10, 1000) FROM t", 1426, "ORA-01426: numeric overflow"],
  ["SELECT 1e125 * 1e125 FROM dual", 1426, "ORA-01426: numeric overflow"],
  ["SELECT 9223372036854775807 * 9223372036854775807 * 9223372036854775807 * 9223372036854775807 FROM dual", 1426, "ORA-01426: numeric overflow"],
  ["SELECT POWER(10, 1000) FROM dual", 1426, "ORA-01426: numeric overflow"],
  ["SELECT EXP(1000) FROM dual", 1426, "ORA-01426: numeric overflow"],
  ["SELECT SQRT(-1) FROM dual", 1428, "ORA-01428: argument '-1' is out of range"],
  ["SELECT LN(0) FROM dual", 1428, "ORA-01428: argument '0' is out of range"],
  ["SELECT TO_DATE('2024-13-01', 'YYYY-MM-DD') FROM dual", 1843, "ORA-01843: not a valid month"],
  ["SELECT DATE '2024-02-30' FROM dual", 1847, "ORA-01847: day of month must be between 1 and last day of month"],
  ["SELECT 1 FROM dual UNION SELECT 'a' FROM dual", 1790, "ORA-01790: expression must have same datatype as corresponding expression"],
  ["SELECT SUBSTR('abc', 1, 1, 1) FROM dual", 939, "ORA-00939: too many arguments for function"],
  ["SELECT n FROM t WHERE ROWID = 'zzz'", 1410, "ORA-01410: invalid ROWID"],
  ["SELECT n FROM t WHERE ROWID IN ('zzz')", 1410, "ORA-01410: invalid ROWID"],
  ["SELECT SUBSTR('abc') FROM dual", 938, "ORA-00938: not enough arguments for function"],
  ["SELECT LOG(10, 0) FROM dual", 1428, "ORA-01428: argument '0' is out of range"],
  ["SELECT 1 FROM dual INTERSECT SELECT 'a' FROM dual", 1790, "ORA-01790: expression must have same datatype as corresponding expression"],
  // a format model's quoted literal the text does not match (not an unknown element: ORA-01821)
  [`SELECT TO_DATE('2024x01', 'YYYY"-"MM') FROM dual`, 1861, "ORA-01861: literal does not match format string"],
  [`SELECT TO_TIMESTAMP('2024x01', 'YYYY"T"MM') FROM dual`, 1861, "ORA-01861: literal does not match format string"],
  [`SELECT TO_DATE('2024' || s, 'YYYY"year"MM') FROM t`, 1861, "ORA-01861: literal does not match format string"]
]

describe("Oracle test server: Oracle's error codes where DuckDB has its own words", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "19c" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE t (n NUMBER, s VARCHAR2(10))")
    await conn.execute("INSERT INTO t VALUES (1, 'one')")
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("still answers the valid forms of the same statements", async () => {
    const one = async (sql: string) => (await conn.execute(sql)).rows
    expect(await one("SELECT 1 FROM dual UNION ALL SELECT 2 FROM dual")).toEqual([[1], [2]])
    expect(await one("SELECT 'a' FROM dual UNION SELECT 'b' FROM dual ORDER BY 1")).toEqual([["a"], ["b"]])
    expect(await one("SELECT POWER(2, 10), SQRT(4), EXP(0), LN(1) FROM dual")).toEqual([[1024, 2, 1, 0]])
    const [[rowid]] = (await one("SELECT ROWID FROM t")) as [[string]]
    expect(await one(`SELECT n FROM t WHERE ROWID = '${rowid}'`)).toEqual([[1]])
    expect(await one("SELECT n FROM t WHERE ROWID = (SELECT MIN(ROWID) FROM t)")).toEqual([[1]])
    // a subquery's own character literals are no rowids to check
    expect(await one("SELECT n FROM t WHERE ROWID IN (SELECT ROWID FROM t WHERE s = 'one')")).toEqual([[1]])
    expect(await one("SELECT SUBSTR('abc', 2, 1) FROM dual")).toEqual([["b"]])
    const [[d]] = (await one("SELECT TO_DATE('2024-02-29', 'YYYY-MM-DD') FROM dual")) as [[Date]]
    expect(d.getFullYear()).toBe(2024)
  })

  for (const [sql, errorNum, message] of cases) {
    it(sql, async () => {
      expect(await raised(sql)).toEqual({ errorNum, message })
      // the failed statement left the table as it was and the session usable
      expect((await conn.execute("SELECT n, s FROM t")).rows).toEqual([[1, "one"]])
    })
  }
})
