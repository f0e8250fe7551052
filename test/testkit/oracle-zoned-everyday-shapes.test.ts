import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, oracledb, openConnection } from "./oracle/helpers.ts"

// Everyday analytics shapes over TIMESTAMP WITH TIME ZONE columns (raw node-oracledb). Oracle compares and subtracts
// such values by their UTC instants (Database Globalization Support Guide, "Datetime and Interval Arithmetic and Time
// Zones"), converts them to DATE on their own wall clock, and `DATE - DATE` is a number of days, `DATE ± n` a DATE
// (SQL Language Reference, "Datetime/Interval Arithmetic").
describe("Oracle test server: everyday shapes over zoned timestamps", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const rows = async (sql: string) => (await conn.execute(sql)).rows
  const typeOf = async (sql: string) => (await conn.execute(sql)).metaData.map((m: { dbType: unknown }) => m.dbType)
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE zes_ev (id NUMBER, t TIMESTAMP WITH TIME ZONE, v NUMBER)")
    await conn.execute("CREATE TABLE zes_dim (id NUMBER, w NUMBER)")
    await conn.execute("CREATE TABLE zes_d (id NUMBER, d DATE)")
    await conn.execute("INSERT INTO zes_ev VALUES (1, TIMESTAMP '2024-01-01 10:00:00 +00:00', 5)")
    await conn.execute("INSERT INTO zes_ev VALUES (2, TIMESTAMP '2024-06-01 11:30:00 Europe/Berlin', 6)")
    await conn.execute("INSERT INTO zes_dim VALUES (1, 3)")
    await conn.execute("INSERT INTO zes_d VALUES (1, DATE '2024-01-05')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("TRUNC / ROUND of a date and CAST to DATE take days and intervals as DATEs (was ORA-00932)", async () => {
    expect(await rows("SELECT TRUNC(d) - 1, TRUNC(d, 'MM') - 1, 1 + ROUND(d), TRUNC(d) - DATE '2024-01-01' FROM zes_d")).toEqual([
      [new Date("2024-01-04T00:00:00Z"), new Date("2023-12-31T00:00:00Z"), new Date("2024-01-06T00:00:00Z"), 4]
    ])
    // the last week's rows, as a report filters them
    expect(await rows("SELECT COUNT(*) FROM zes_ev WHERE t >= TRUNC(DATE '2024-06-03') - 7")).toEqual([[1]])
    expect(await rows("SELECT COUNT(*) FROM zes_ev WHERE TRUNC(SYSDATE) - 100000 <= t")).toEqual([[2]])
    // hours since New Year on each value's own wall clock
    expect(await rows("SELECT CAST(t AS DATE) - DATE '2024-01-01', ROUND((CAST(t AS DATE) - DATE '2024-01-01') * 24), CAST(t AS DATE) + 1 FROM zes_ev ORDER BY id")).toEqual([
      [10 / 24, 10, new Date("2024-01-02T10:00:00Z")],
      [152 + 11.5 / 24, 3660, new Date("2024-06-02T11:30:00Z")]
    ])
    expect(await rows("SELECT ROUND((d - DATE '2024-01-01') * 24) FROM zes_d")).toEqual([[96]])
  })

  it("the span of zoned extremes is an interval of their instants (was ORA-00932)", async () => {
    const span = { days: 151, hours: 23, minutes: 30, seconds: 0, fseconds: 0 }
    expect(await rows("SELECT MAX(t) - MIN(t), EXTRACT(DAY FROM (MAX(t) - MIN(t))) FROM zes_ev")).toEqual([[span, 151]])
    expect(await typeOf("SELECT MAX(t) - MIN(t) FROM zes_ev")).toEqual([oracledb.DB_TYPE_INTERVAL_DS])
    expect(await rows("SELECT MAX(t) - TIMESTAMP '2024-06-01 09:00:00 +00:00' FROM zes_ev")).toEqual([[{ days: 0, hours: 0, minutes: 30, seconds: 0, fseconds: 0 }]])
  })

  it("SELECT * over a USING or NATURAL join describes each column by its own table (was ORA-01722)", async () => {
    const star = await conn.execute("SELECT * FROM zes_dim JOIN zes_ev USING (id)")
    expect(star.metaData.map((m: { name: string; dbType: unknown }) => [m.name, m.dbType])).toEqual([
      ["ID", oracledb.DB_TYPE_NUMBER], ["W", oracledb.DB_TYPE_NUMBER], ["T", oracledb.DB_TYPE_TIMESTAMP_TZ], ["V", oracledb.DB_TYPE_NUMBER]
    ])
    expect(star.rows).toEqual([[1, 3, new Date("2024-01-01T10:00:00Z"), 5]])
    expect(await rows("SELECT * FROM zes_dim NATURAL JOIN zes_ev")).toEqual([[1, 3, new Date("2024-01-01T10:00:00Z"), 5]])
    expect(await rows("SELECT * FROM zes_dim LEFT JOIN (SELECT id, t FROM zes_ev) s USING (id)")).toEqual([[1, 3, new Date("2024-01-01T10:00:00Z")]])
  })

  it("a zoned CASE / DECODE / NVL2, KEEP or windowed extreme passed on by a subquery or WITH block is still zoned (was text)", async () => {
    // one instant in two zones: grouped as one, formatted with its own zone, extracted and shifted in UTC
    expect(await rows("SELECT x, COUNT(*) FROM (SELECT CASE WHEN id = 2 THEN t ELSE TIMESTAMP '2024-06-01 09:30:00 +00:00' END x FROM zes_ev) GROUP BY x")).toEqual([[new Date("2024-06-01T09:30:00Z"), 2]])
    expect(await rows("SELECT COUNT(DISTINCT x) FROM (SELECT DECODE(id, 2, t, TIMESTAMP '2024-06-01 09:30:00 +00:00') x FROM zes_ev)")).toEqual([[1]])
    expect(await rows("SELECT TO_CHAR(x, 'HH24:MI TZR'), EXTRACT(HOUR FROM x), TRUNC(x, 'HH') FROM (SELECT CASE WHEN id = 2 THEN t END x, id FROM zes_ev) ORDER BY id")).toEqual([
      [null, null, null], ["11:30 Europe/Berlin", 9, new Date("2024-06-01T11:00:00Z")]
    ])
    expect(await rows("SELECT x FROM (SELECT NVL2(v, t, NULL) x FROM zes_ev) WHERE x = TIMESTAMP '2024-01-01 11:00:00 +01:00'")).toEqual([[new Date("2024-01-01T10:00:00Z")]])
    expect(await rows("SELECT TO_CHAR(m, 'HH24:MI TZR') FROM (SELECT MAX(t) KEEP (DENSE_RANK LAST ORDER BY v) m FROM zes_ev)")).toEqual([["11:30 Europe/Berlin"]])
    expect(await rows("SELECT TO_CHAR(m, 'HH24:MI TZR') FROM (SELECT MAX(t) OVER (PARTITION BY id) m, id FROM zes_ev) ORDER BY id")).toEqual([["10:00 +00:00"], ["11:30 Europe/Berlin"]])
    // a WITH block's column list names its items
    expect(await rows("WITH w (a, b) AS (SELECT t + INTERVAL '1' HOUR, v FROM zes_ev) SELECT TO_CHAR(a, 'HH24:MI TZR'), EXTRACT(HOUR FROM a), b FROM w ORDER BY a")).toEqual([
      ["11:00 +00:00", 11, 5], ["12:30 Europe/Berlin", 10, 6]
    ])
    const shifted = await conn.execute("WITH w (a) AS (SELECT t FROM zes_ev) SELECT a + INTERVAL '1' HOUR FROM w ORDER BY 1")
    expect(shifted.metaData.map((m: { dbType: unknown }) => m.dbType)).toEqual([oracledb.DB_TYPE_TIMESTAMP_TZ])
    expect(shifted.rows).toEqual([[new Date("2024-01-01T11:00:00Z")], [new Date("2024-06-01T10:30:00Z")]])
    // the gap to the previous event, and a scalar subquery's extreme in arithmetic
    expect(await rows("SELECT x - LAG(x) OVER (ORDER BY x) FROM (SELECT t x FROM zes_ev)")).toEqual([[null], [{ days: 151, hours: 23, minutes: 30, seconds: 0, fseconds: 0 }]])
    expect(await rows("SELECT id FROM zes_ev WHERE t > (SELECT MAX(t) FROM zes_ev) - INTERVAL '1' DAY")).toEqual([[2]])
    expect(await rows("SELECT (SELECT MAX(t) FROM zes_ev) - (SELECT MIN(t) FROM zes_ev) FROM DUAL")).toEqual([[{ days: 151, hours: 23, minutes: 30, seconds: 0, fseconds: 0 }]])
  })

  it("KEEP (DENSE_RANK ... ORDER BY zoned) ranks by instant, and MIN / MAX ... KEEP of a zoned value stays zoned", async () => {
    // 09:30 -05:00 is 14:30 UTC: the later instant, though its text sorts first
    await conn.execute("INSERT INTO zes_ev VALUES (3, TIMESTAMP '2024-01-01 09:30:00 -05:00', 7)")
    expect(await rows("SELECT MAX(v) KEEP (DENSE_RANK LAST ORDER BY t), MIN(v) KEEP (DENSE_RANK FIRST ORDER BY t DESC) FROM zes_ev WHERE id IN (1, 3)")).toEqual([[7, 7]])
    const kept = await conn.execute("SELECT MAX(t) KEEP (DENSE_RANK LAST ORDER BY v), TO_CHAR(MAX(t) KEEP (DENSE_RANK LAST ORDER BY v), 'HH24:MI TZR') FROM zes_ev")
    expect(kept.metaData.map((m: { dbType: unknown }) => m.dbType)).toEqual([oracledb.DB_TYPE_TIMESTAMP_TZ, oracledb.DB_TYPE_VARCHAR])
    expect(kept.rows).toEqual([[new Date("2024-01-01T14:30:00Z"), "09:30 -05:00"]])
    await conn.rollback()
  })

  it("INSERT ... SELECT over a zoned USING join, and SELECT * from a WITH block, an unnamed item or a USING / NATURAL join, write wall clocks into DATE (was no row, or ORA-01722)", async () => {
    await conn.execute("CREATE TABLE zes_other (t TIMESTAMP WITH TIME ZONE, w NUMBER)")
    await conn.execute("CREATE TABLE zes_day (d DATE)")
    await conn.execute("CREATE TABLE zes_wide (id NUMBER, w NUMBER, d DATE, v NUMBER)")
    // 11:00 +01:00 is the first row's instant, 10:00 UTC
    await conn.execute("INSERT INTO zes_other VALUES (TIMESTAMP '2024-01-01 11:00:00 +01:00', 7)")
    const count = async (sql: string) => (await conn.execute(sql)).rowsAffected
    expect(await count("INSERT INTO zes_day SELECT t FROM zes_ev JOIN zes_other USING (t)")).toBe(1)
    expect(await count("INSERT INTO zes_day WITH w AS (SELECT t FROM zes_ev) SELECT * FROM w")).toBe(2)
    expect(await count("INSERT INTO zes_day WITH w (a) AS (SELECT t FROM zes_ev WHERE id = 2) SELECT * FROM w")).toBe(1)
    expect(await count("INSERT INTO zes_day SELECT * FROM (SELECT t + INTERVAL '1' HOUR FROM zes_ev WHERE id = 2)")).toBe(1)
    expect(await count("INSERT INTO zes_day SELECT * FROM (SELECT CASE WHEN id = 2 THEN t END FROM zes_ev WHERE id = 2)")).toBe(1)
    expect(await rows("SELECT TO_CHAR(d, 'YYYY-MM-DD HH24:MI') FROM zes_day ORDER BY d")).toEqual([
      ["2024-01-01 10:00"], ["2024-01-01 10:00"], ["2024-06-01 11:30"], ["2024-06-01 11:30"], ["2024-06-01 11:30"], ["2024-06-01 12:30"]
    ])
    await conn.execute("INSERT INTO zes_dim VALUES (2, 4)")
    expect(await count("INSERT INTO zes_wide SELECT * FROM zes_dim JOIN zes_ev USING (id)")).toBe(2)
    expect(await count("INSERT INTO zes_wide SELECT * FROM zes_dim NATURAL JOIN zes_ev WHERE id = 2")).toBe(1)
    expect(await rows("SELECT id, w, TO_CHAR(d, 'YYYY-MM-DD HH24:MI'), v FROM zes_wide ORDER BY id, d")).toEqual([
      [1, 3, "2024-01-01 10:00", 5], [2, 4, "2024-06-01 11:30", 6], [2, 4, "2024-06-01 11:30", 6]
    ])
    await conn.rollback()
  })

  it("a USING or NATURAL join by a zoned column with a WITH block that has a column list matches by instant (matched no row)", async () => {
    await conn.execute("CREATE TABLE zes_peer (t TIMESTAMP WITH TIME ZONE, w NUMBER)")
    await conn.execute("INSERT INTO zes_peer VALUES (TIMESTAMP '2024-01-01 11:00:00 +01:00', 7)")
    expect(await rows("WITH b (t, x) AS (SELECT t, v FROM zes_ev) SELECT x, w FROM b JOIN zes_peer USING (t)")).toEqual([[5, 7]])
    expect(await rows("WITH b (t, x) AS (SELECT t, v FROM zes_ev), p AS (SELECT t, w FROM zes_peer) SELECT x, w FROM b NATURAL JOIN p")).toEqual([[5, 7]])
    const star = await conn.execute("WITH b (t, x) AS (SELECT t, v FROM zes_ev) SELECT * FROM b NATURAL JOIN zes_peer")
    expect(star.metaData.map((m: { name: string }) => m.name)).toEqual(["T", "X", "W"])
    expect(star.rows).toEqual([[new Date("2024-01-01T10:00:00Z"), 5, 7]])
    await conn.rollback()
  })

  it("character functions read a zoned value in the session's NLS_TIMESTAMP_TZ_FORMAT, as Oracle converts it (was the stored text)", async () => {
    expect(await rows("SELECT SUBSTR(t, 1, 9), INSTR(t, 'JUN'), LOWER(t), REGEXP_SUBSTR(t, '[A-Z]+') FROM zes_ev ORDER BY id")).toEqual([
      ["01-JAN-24", 0, "01-jan-24 10.00.00.000000 am +00:00", "JAN"],
      ["01-JUN-24", 4, "01-jun-24 11.30.00.000000 am europe/berlin", "JUN"]
    ])
    expect(await rows("SELECT SUBSTR(x, 1, 9) FROM (SELECT CASE WHEN id = 2 THEN t END x, id FROM zes_ev) ORDER BY id")).toEqual([[null], ["01-JUN-24"]])
  })

  it("PERCENTILE_DISC ... WITHIN GROUP (ORDER BY zoned) picks a value by instant, its zone kept (was the instant key as text)", async () => {
    await conn.execute("INSERT INTO zes_ev VALUES (3, TIMESTAMP '2024-01-01 09:30:00 -05:00', 7)")
    await conn.execute("INSERT INTO zes_ev VALUES (4, NULL, 8)")
    const median = await conn.execute("SELECT PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY t), TO_CHAR(PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY t), 'HH24:MI TZR') FROM zes_ev")
    expect(median.metaData.map((m: { dbType: unknown }) => m.dbType)).toEqual([oracledb.DB_TYPE_TIMESTAMP_TZ, oracledb.DB_TYPE_VARCHAR])
    expect(median.rows).toEqual([[new Date("2024-01-01T14:30:00Z"), "09:30 -05:00"]])
    expect(await rows("SELECT PERCENTILE_DISC(0) WITHIN GROUP (ORDER BY t), PERCENTILE_DISC(0.9) WITHIN GROUP (ORDER BY t DESC) FROM zes_ev")).toEqual([
      [new Date("2024-01-01T10:00:00Z"), new Date("2024-01-01T10:00:00Z")]
    ])
    await conn.rollback()
  })
})
