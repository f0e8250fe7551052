/**
 * An unaliased select item is named by its text as written (upper-cased, blanks removed: SQL Language Reference,
 * SELECT, c_alias: "If you do not specify an alias, the column heading is the expression"), not by the text the test
 * server's rewrites make of it (a literal padded for a CHAR comparison, `n > ANY (1, 2)` expanded to `n > 1 OR n > 2`):
 * a sample of expressions each rewrite module touches (CHAR comparisons, NULLIF / DECODE / CASE of CHARs, zoned
 * timestamps, intervals, format models, quantified lists, DATE arithmetic, JSON, ROWNUM, BINARY_DOUBLE with NUMBER).
 * Raw node-oracledb against the test server (it named `NULLIF(c, 'x')` of a CHAR(5) c `NULLIF(C,'X    ')`).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

/** Oracle's heading of an item: upper-cased, blanks outside text literals removed (the samples quote no names). */
const headingOf = (text: string): string => text.replace(/'[^']*'|\s+|[^'\s]+/g, (m) => (/^\s/.test(m) ? "" : m.toUpperCase()))

const names = async (sql: string): Promise<Array<string>> => ((await conn.execute(sql)).metaData ?? []).map((m: { name: string }) => m.name)

const SAMPLES = [
  // CHAR comparisons and NULLIF / DECODE / CASE of CHARs (char-operands.ts)
  "NULLIF(c, 'x')",
  "NULLIF(c || d, 'z')",
  "DECODE(c, 'x', 1, 0)",
  "CASE c WHEN 'x' THEN 1 END",
  "CASE WHEN c = 'ab' THEN 1 ELSE 0 END",
  "CASE WHEN c IN ('a', v) THEN 1 END",
  "CASE WHEN c < d THEN 1 END",
  "NVL(c, 'x')",
  "c || 'x'",
  "SUBSTR(c, 1, 2)",
  // zoned timestamps and intervals
  "ts AT TIME ZONE 'UTC'",
  "CAST(ts AS TIMESTAMP)",
  "ts + INTERVAL '1' HOUR",
  "tl + 1",
  "tl - ts",
  "EXTRACT(HOUR FROM ts)",
  "iv * 2",
  "iv + INTERVAL '1' DAY",
  "NUMTODSINTERVAL(n, 'DAY')",
  "ym * 2",
  // DATE arithmetic
  "dt - dt",
  "dt + 1",
  "dt - 1/24",
  "ADD_MONTHS(dt, 1)",
  // number format models and exact NUMBER arithmetic
  "TO_CHAR(n, '999.99')",
  "TO_CHAR(n, 'FM9G999D00')",
  "TO_CHAR(dt, 'YYYY-MM-DD')",
  "ROUND(n / 3, 2)",
  // quantified lists (quantified-lists.ts)
  "CASE WHEN n > ANY (1, 2) THEN 1 END",
  "CASE WHEN n = ALL (1, n) THEN 1 END",
  "CASE WHEN c = ANY ('a', 'b') THEN 1 END",
  // JSON, ROWNUM, BINARY_DOUBLE
  "JSON_VALUE(j, '$.a')",
  "ROWNUM + 1",
  "CASE WHEN f > n THEN 1 END",
  "n + f",
]

describe("Oracle test server: headings of unaliased items are their text as written", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(
      "CREATE TABLE wh (c CHAR(5), d CHAR(3), v VARCHAR2(10), n NUMBER, f BINARY_DOUBLE, ts TIMESTAMP WITH TIME ZONE, tl TIMESTAMP WITH LOCAL TIME ZONE, dt DATE, iv INTERVAL DAY TO SECOND, ym INTERVAL YEAR TO MONTH, j VARCHAR2(100) CHECK (j IS JSON))",
    )
    await conn.execute(
      `INSERT INTO wh VALUES ('ab', 'x', 'a', 1, 2, TIMESTAMP '2020-01-01 00:00:00 +02:00', TIMESTAMP '2020-01-01 00:00:00', DATE '2020-01-01', INTERVAL '1' DAY, INTERVAL '1' YEAR, '{"a":1}')`,
    )
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("names each sample by its heading", async () => {
    const got: Array<[string, Array<string>]> = []
    for (const item of SAMPLES) got.push([item, await names(`SELECT ${item} FROM wh`)])
    expect(got).toEqual(SAMPLES.map((item) => [item, [headingOf(item)]]))
  })

  it("names a rewritten item by its heading in a subquery, a set operation, a scalar subquery and beside ROWNUM", async () => {
    expect(await names("SELECT * FROM (SELECT NULLIF(c, 'x'), CASE WHEN n > ANY (1, 2) THEN 1 END FROM wh)")).toEqual(["NULLIF(C,'X')", "CASEWHENN>ANY(1,2)THEN1END"])
    expect(await names("SELECT NULLIF(c, 'x') FROM wh UNION SELECT NULLIF(c, 'y') FROM wh")).toEqual(["NULLIF(C,'X')"])
    expect(await names("SELECT (SELECT NULLIF(c, 'x') FROM wh) FROM dual")).toEqual(["(SELECTNULLIF(C,'X')FROMWH)"])
    expect(await names("SELECT ROWNUM, NULLIF(c, 'x') FROM wh WHERE ROWNUM < 2")).toEqual(["ROWNUM", "NULLIF(C,'X')"])
    expect(await names("SELECT NULLIF(c, 'x') FROM wh ORDER BY 1 FETCH FIRST 1 ROWS ONLY")).toEqual(["NULLIF(C,'X')"])
  })

  it("still computes the rewritten items as Oracle does", async () => {
    const r = await conn.execute("SELECT NULLIF(c, 'ab'), CASE WHEN c = 'ab' THEN 1 ELSE 0 END, CASE WHEN n > ANY (0, 2) THEN 1 END FROM wh")
    expect(r.rows).toEqual([[null, 1, 1]])
  })
})
