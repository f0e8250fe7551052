import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

// A TIMESTAMP WITH TIME ZONE stays one through subqueries, set operations and joins: compared by its UTC instant, the
// zone ignored (Database Globalization Support Guide, "Datetime Comparisons"; Oracle Objects for OLE, "IsEqual
// (OraTimeStampTZ) Method": it "only compares the Coordinated Universal Time (UTC) date-time values ...; the time zone
// information is ignored"); compared with a TIMESTAMP, that is read in the session time zone ("Datetime Comparisons").
// Row 1 is 11:00 UTC written at +01:00, row 2 11:30 UTC, row 3 11:00 UTC written in New York: by their text row 2
// would sort before row 1 and rows 1 and 3 would differ.
describe("Oracle test server: TIMESTAMP WITH TIME ZONE through subqueries, set operations and joins (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const at = (h: number, m = 0) => new Date(Date.UTC(2024, 0, 1, h, m))
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+00:00'")
    await conn.execute("CREATE TABLE zq (id NUMBER, ts TIMESTAMP WITH TIME ZONE)")
    await conn.execute("INSERT INTO zq VALUES (1, TIMESTAMP '2024-01-01 12:00:00 +01:00')")
    await conn.execute("INSERT INTO zq VALUES (2, TIMESTAMP '2024-01-01 11:30:00 +00:00')")
    await conn.execute("INSERT INTO zq VALUES (3, TIMESTAMP '2024-01-01 06:00:00 America/New_York')")
    await conn.execute("CREATE TABLE zp (ts TIMESTAMP WITH TIME ZONE, label VARCHAR2(5))")
    await conn.execute("INSERT INTO zp VALUES (TIMESTAMP '2024-01-01 11:00:00 +00:00', 'utc')")
    await conn.execute("CREATE TABLE zl (id NUMBER, ts TIMESTAMP)")
    await conn.execute("INSERT INTO zl VALUES (1, TIMESTAMP '2024-01-01 11:15:00')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const ids = async (sql: string) => (await conn.execute(sql)).rows.map((row: Array<number>) => row[0])

  it("describes a subquery's zoned column as TIMESTAMP WITH TIME ZONE and compares it with a TIMESTAMP by instant", async () => {
    const r = await conn.execute("SELECT s.id, s.ts FROM (SELECT id, ts FROM zq) s WHERE s.id = 2")
    expect(r.metaData[1]).toMatchObject({ dbType: oracledb.DB_TYPE_TIMESTAMP_TZ })
    expect(r.rows).toEqual([[2, at(11, 30)]])
    expect(await ids("SELECT s.id FROM (SELECT id, ts FROM zq) s, zl WHERE s.ts > zl.ts ORDER BY s.id")).toEqual([2])
    expect(await ids("SELECT id FROM zq WHERE ts < (SELECT ts FROM zl) ORDER BY id")).toEqual([1, 3])
    expect((await conn.execute("SELECT EXTRACT(HOUR FROM (SELECT ts FROM zq WHERE id = 3)), EXTRACT(MINUTE FROM (SELECT ts FROM zq WHERE id = 2)) FROM DUAL")).rows).toEqual([[11, 30]])
  })

  it("orders a subquery or set operation by position or alias by instant", async () => {
    expect(await ids("SELECT id FROM (SELECT id, ts FROM zq ORDER BY 2, 1) WHERE ROWNUM <= 3")).toEqual([1, 3, 2])
    expect(await ids("SELECT id FROM (SELECT id, ts t FROM zq ORDER BY t DESC, id)")).toEqual([2, 1, 3])
    expect(await ids("SELECT id, ts FROM zq WHERE id = 2 UNION ALL SELECT id, ts FROM zq WHERE id <> 2 ORDER BY 2, 1")).toEqual([1, 3, 2])
    expect(await ids("SELECT id FROM (SELECT id, ts FROM zq WHERE id = 2 UNION ALL SELECT id, ts FROM zq WHERE id <> 2 ORDER BY 2, 1)")).toEqual([1, 3, 2])
  })

  it("makes a subquery's DISTINCT over expressions rows by instant", async () => {
    expect((await conn.execute("SELECT COUNT(*) FROM (SELECT DISTINCT NVL(ts, ts) FROM zq)")).rows).toEqual([[2]])
    expect((await conn.execute("SELECT COUNT(*) FROM (SELECT DISTINCT ts + INTERVAL '1' HOUR, 'x' FROM zq)")).rows).toEqual([[2]])
  })

  it("joins USING and NATURAL by instant", async () => {
    expect(await ids("SELECT id FROM zq JOIN zp USING (ts) ORDER BY id")).toEqual([1, 3])
    expect(await ids("SELECT id FROM zq NATURAL JOIN zp ORDER BY id")).toEqual([1, 3])
    const all = await conn.execute("SELECT ts, id, label FROM zq JOIN zp USING (ts) WHERE id = 1")
    expect(all.rows).toEqual([[at(11), 1, "utc"]])
    expect(all.metaData[0]).toMatchObject({ dbType: oracledb.DB_TYPE_TIMESTAMP_TZ })
    expect(await ids("SELECT id FROM zq LEFT JOIN zp USING (ts) WHERE label IS NULL ORDER BY id")).toEqual([2])
    expect(await ids("SELECT id FROM zp p RIGHT JOIN zq q USING (ts) WHERE ts > TIMESTAMP '2024-01-01 11:10:00 +00:00'")).toEqual([2])
    const full = await conn.execute("SELECT ts, id, label FROM zq FULL JOIN zp USING (ts) ORDER BY id")
    expect(full.rows).toEqual([[at(11), 1, "utc"], [at(11, 30), 2, null], [at(11), 3, "utc"]])
    expect(full.metaData[0]).toMatchObject({ name: "TS", dbType: oracledb.DB_TYPE_TIMESTAMP_TZ })
    // `*` lists the join column once, first, then the other columns of the left and the right table
    for (const sql of ["SELECT * FROM zq JOIN zp USING (ts) WHERE id = 3", "SELECT * FROM zq NATURAL JOIN zp WHERE id = 3"]) {
      const star = await conn.execute(sql)
      expect(star.metaData.map((m: { name: string }) => m.name)).toEqual(["TS", "ID", "LABEL"])
      expect(star.rows).toEqual([[at(11), 3, "utc"]])
    }
  })

  it("joins TIMESTAMP(9) columns USING their wall clock", async () => {
    await conn.execute("CREATE TABLE zn1 (t TIMESTAMP(9), a NUMBER)")
    await conn.execute("CREATE TABLE zn2 (t TIMESTAMP(9), b NUMBER)")
    await conn.execute("INSERT INTO zn1 VALUES (TIMESTAMP '1500-06-15 12:34:56.123456789', 1)")
    await conn.execute("INSERT INTO zn2 VALUES (TIMESTAMP '1500-06-15 12:34:56.123456789', 2)")
    await conn.execute("INSERT INTO zn2 VALUES (TIMESTAMP '1500-06-15 12:34:56.123456788', 3)")
    expect((await conn.execute("SELECT a, b FROM zn1 JOIN zn2 USING (t)")).rows).toEqual([[1, 2]])
    expect((await conn.execute("SELECT TO_CHAR(t, 'YYYY-MM-DD HH24:MI:SS.FF9'), b FROM zn1 NATURAL JOIN zn2")).rows).toEqual([["1500-06-15 12:34:56.123456789", 2]])
  })

  // A value written into a datetime column is converted to the column's type, a TIMESTAMP WITH TIME ZONE to TIMESTAMP
  // or DATE by its own wall clock and to WITH LOCAL TIME ZONE by its instant, a TIMESTAMP to WITH TIME ZONE in the
  // session time zone ("Datetime Data Types and Time Zone Support", Database Globalization Support Guide), also by
  // `INSERT ... SELECT` without a column list and where the source and target columns share a name
  it("converts zoned values written by INSERT ... SELECT without a column list or into a column of the same name", async () => {
    await conn.execute("CREATE TABLE zw_ts (id NUMBER, ts TIMESTAMP(3))")
    await conn.execute("CREATE TABLE zw_ltz (ts TIMESTAMP(9) WITH LOCAL TIME ZONE, id NUMBER)")
    await conn.execute("CREATE TABLE zw_back (id NUMBER, ts TIMESTAMP WITH TIME ZONE)")
    await conn.execute("INSERT INTO zw_ts SELECT id, ts FROM zq WHERE id = 3")
    await conn.execute("INSERT INTO zw_ts (ts, id) SELECT ts, id FROM zq WHERE id = 1")
    await conn.execute("INSERT INTO zw_ltz SELECT ts, id FROM zq WHERE id = 3")
    await conn.execute("INSERT INTO zw_back SELECT * FROM zw_ts")
    expect((await conn.execute("SELECT id, TO_CHAR(ts, 'HH24:MI') FROM zw_ts ORDER BY id")).rows).toEqual([[1, "12:00"], [3, "06:00"]])
    expect((await conn.execute("SELECT TO_CHAR(ts, 'HH24:MI') FROM zw_ltz")).rows).toEqual([["11:00"]])
    expect((await conn.execute("SELECT id, TO_CHAR(ts, 'HH24:MI TZR') FROM zw_back ORDER BY id")).rows).toEqual([[1, "12:00 +00:00"], [3, "06:00 +00:00"]])
  })
})
