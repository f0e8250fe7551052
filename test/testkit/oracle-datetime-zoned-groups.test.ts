import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// Expressions over TIMESTAMP WITH TIME ZONE columns group, count, partition and compare by instant as the columns do
// (Database Globalization Support Guide, "Datetime Comparisons": values are compared by their UTC instant, the zone
// ignored), and functions returning such values are TIMESTAMP WITH TIME ZONE. Rows 1-3 of `a` are one instant (11:00
// UTC) in three zones; `b` is NULL except in row 2.
describe("Oracle test server: zoned expressions by instant (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const eleven = new Date(Date.UTC(2024, 0, 1, 11))
  const noon = new Date(Date.UTC(2024, 0, 1, 12))
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE tze (id NUMBER, a TIMESTAMP WITH TIME ZONE, b TIMESTAMP WITH TIME ZONE)")
    await conn.execute("INSERT INTO tze VALUES (1, TIMESTAMP '2024-01-01 12:00:00 +01:00', NULL)")
    await conn.execute("INSERT INTO tze VALUES (2, TIMESTAMP '2024-01-01 11:00:00 +00:00', TIMESTAMP '2024-01-01 11:00:00 +00:00')")
    await conn.execute("INSERT INTO tze VALUES (3, TIMESTAMP '2024-01-01 06:00:00 America/New_York', NULL)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("groups by zoned expressions by instant", async () => {
    const plus = await conn.execute("SELECT a + INTERVAL '1' HOUR, COUNT(*) FROM tze GROUP BY a + INTERVAL '1' HOUR")
    expect(plus.rows).toEqual([[noon, 3]])
    expect(plus.metaData[0]).toMatchObject({ dbTypeName: "TIMESTAMP WITH TIME ZONE" })
    expect((await conn.execute("SELECT NVL(b, a) x, COUNT(*) FROM tze GROUP BY NVL(b, a) ORDER BY NVL(b, a)")).rows).toEqual([[eleven, 3]])
    // the group's value keeps its own zone; HAVING and ORDER BY use the grouped expression too
    const shown = await conn.execute("SELECT TO_CHAR(a + INTERVAL '1' HOUR, 'TZR') FROM tze GROUP BY a + INTERVAL '1' HOUR HAVING COUNT(*) = 3")
    expect(["+01:00", "+00:00", "America/New_York"]).toContain(shown.rows[0][0])
    expect((await conn.execute("SELECT TRUNC(a), COUNT(*) FROM tze GROUP BY TRUNC(a)")).rows).toEqual([[new Date(Date.UTC(2024, 0, 1)), 3]])
    expect((await conn.execute("SELECT COUNT(*) FROM (SELECT CAST(a AS TIMESTAMP WITH TIME ZONE) c FROM tze GROUP BY CAST(a AS TIMESTAMP WITH TIME ZONE))")).rows).toEqual([[1]])
  })

  it("groups, counts and compares a subquery's or WITH block's zoned items by instant through their aliases", async () => {
    expect((await conn.execute("SELECT x, COUNT(*) FROM (SELECT a x FROM tze) GROUP BY x")).rows).toEqual([[eleven, 3]])
    expect((await conn.execute("WITH q AS (SELECT a + INTERVAL '1' HOUR x FROM tze) SELECT x, COUNT(*) FROM q GROUP BY x")).rows).toEqual([[noon, 3]])
    expect((await conn.execute("SELECT COUNT(DISTINCT x) FROM (SELECT NVL(b, a) AS x FROM tze)")).rows).toEqual([[1]])
    const compared = await conn.execute("SELECT TO_CHAR(x, 'TZR') FROM (SELECT a x FROM tze) WHERE x = TIMESTAMP '2024-01-01 11:00:00 UTC' ORDER BY 1")
    expect(compared.rows).toEqual([["+00:00"], ["+01:00"], ["America/New_York"]])
    // a DATE made from a zoned column stays a DATE
    const days = await conn.execute("SELECT t, COUNT(*) FROM (SELECT TRUNC(a) t FROM tze) GROUP BY t")
    expect(days.rows).toEqual([[new Date(Date.UTC(2024, 0, 1)), 3]])
    expect(days.metaData[0]).toMatchObject({ dbTypeName: "DATE" })
  })

  it("counts DISTINCT expressions, partitions and makes DISTINCT rows by instant", async () => {
    expect((await conn.execute("SELECT COUNT(DISTINCT a + INTERVAL '1' HOUR), COUNT(DISTINCT NVL(b, a)) FROM tze")).rows).toEqual([[1, 1]])
    const partitioned = await conn.execute("SELECT id, COUNT(*) OVER (PARTITION BY a + INTERVAL '1' HOUR) FROM tze ORDER BY id")
    expect(partitioned.rows).toEqual([[1, 3], [2, 3], [3, 3]])
    expect((await conn.execute("SELECT DISTINCT CAST(a AS TIMESTAMP WITH TIME ZONE) FROM tze")).rows).toEqual([[eleven]])
    expect((await conn.execute("SELECT a + INTERVAL '1' HOUR FROM tze UNION SELECT b + INTERVAL '1' HOUR FROM tze WHERE b IS NOT NULL")).rows).toEqual([[noon]])
  })

  it("GREATEST and LEAST compare instants and give TIMESTAMP WITH TIME ZONE (NULL with a NULL argument)", async () => {
    const r = await conn.execute("SELECT GREATEST(a, b) g FROM tze ORDER BY id")
    expect(r.rows).toEqual([[null], [eleven], [null]])
    expect(r.metaData[0]).toMatchObject({ name: "G", dbTypeName: "TIMESTAMP WITH TIME ZONE" })
    // 11:00 UTC against 11:30 UTC and 10:30 UTC (12:30 +02:00): by text the order would differ
    const least = await conn.execute("SELECT TO_CHAR(LEAST(a, TIMESTAMP '2024-01-01 11:30:00 +00:00', TIMESTAMP '2024-01-01 12:30:00 +02:00'), 'HH24:MI TZR') FROM tze WHERE id = 3")
    expect(least.rows).toEqual([["12:30 +02:00"]])
    const greatest = await conn.execute("SELECT id, TO_CHAR(GREATEST(a, TIMESTAMP '2024-01-01 10:30:00 +00:00'), 'HH24:MI TZR') FROM tze ORDER BY id")
    expect(greatest.rows).toEqual([[1, "12:00 +01:00"], [2, "11:00 +00:00"], [3, "06:00 America/New_York"]])
    expect((await conn.execute("SELECT COUNT(*) FROM tze WHERE LEAST(a, TIMESTAMP '2024-01-01 11:30:00 +00:00') = TIMESTAMP '2024-01-01 11:00:00 UTC'")).rows).toEqual([[3]])
  })

  it("NULLIF, DECODE, a simple CASE and ANY / ALL (subquery) compare zoned values by instant", async () => {
    const utc11 = "TIMESTAMP '2024-01-01 11:00:00 UTC'"
    const nullif = await conn.execute(`SELECT NULLIF(a, ${utc11}), NULLIF(a, TIMESTAMP '2024-01-01 10:00:00 UTC') FROM tze ORDER BY id`)
    expect(nullif.rows).toEqual([[null, eleven], [null, eleven], [null, eleven]])
    expect(nullif.metaData[1]).toMatchObject({ dbTypeName: "TIMESTAMP WITH TIME ZONE" })
    const decoded = await conn.execute(`SELECT DECODE(a, ${utc11}, 'y', 'n'), CASE a WHEN ${utc11} THEN 'y' ELSE 'n' END, DECODE(b, NULL, 'null', 'set') FROM tze ORDER BY id`)
    expect(decoded.rows).toEqual([["y", "y", "null"], ["y", "y", "set"], ["y", "y", "null"]])
    expect((await conn.execute("SELECT id FROM tze WHERE a = ANY (SELECT b FROM tze WHERE b IS NOT NULL) ORDER BY id")).rows).toEqual([[1], [2], [3]])
    expect((await conn.execute("SELECT id FROM tze WHERE a >= ALL (SELECT b FROM tze WHERE b IS NOT NULL) ORDER BY id")).rows).toEqual([[1], [2], [3]])
    expect((await conn.execute("SELECT id FROM tze WHERE a > SOME (SELECT b FROM tze WHERE b IS NOT NULL)")).rows).toEqual([])
  })

  it("LAG, LEAD, FIRST_VALUE and MIN / MAX OVER zoned columns are TIMESTAMP WITH TIME ZONE, by instant", async () => {
    const r = await conn.execute("SELECT id, LAG(a) OVER (ORDER BY id), LEAD(a, 1) OVER (ORDER BY id), MAX(a) OVER (), MIN(a) OVER (PARTITION BY id) FROM tze ORDER BY id")
    expect(r.rows).toEqual([
      [1, null, eleven, eleven, eleven],
      [2, eleven, eleven, eleven, eleven],
      [3, eleven, null, eleven, eleven]
    ])
    expect(r.metaData.slice(1).map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(Array(4).fill("TIMESTAMP WITH TIME ZONE"))
    const first = await conn.execute("SELECT TO_CHAR(FIRST_VALUE(a) OVER (ORDER BY id DESC), 'HH24:MI TZR') FROM tze WHERE id > 1 ORDER BY id")
    expect(first.rows).toEqual([["06:00 America/New_York"], ["06:00 America/New_York"]])
    await conn.execute("INSERT INTO tze VALUES (4, TIMESTAMP '2024-01-01 11:30:00 +05:00', NULL)")
    // 06:30 UTC is the least instant although its text sorts last
    const least = await conn.execute("SELECT DISTINCT TO_CHAR(MIN(a) OVER (), 'HH24:MI TZR'), TO_CHAR(MAX(a) OVER (), 'HH24:MI') FROM tze")
    expect(least.rows).toEqual([["11:30 +05:00", expect.stringMatching(/^(12:00|11:00|06:00)$/)]])
    await conn.rollback()
  })
})
