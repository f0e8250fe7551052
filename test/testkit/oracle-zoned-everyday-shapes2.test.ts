import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, oracledb, openConnection } from "./oracle/helpers.ts"

// More everyday shapes over TIMESTAMP WITH TIME ZONE columns (raw node-oracledb). Where Oracle expects character data it
// converts such a value to VARCHAR2 in the session's NLS_TIMESTAMP_TZ_FORMAT (SQL Language Reference, "Implicit Data
// Conversion"); it compares and orders such values by their UTC instants (Database Globalization Support Guide,
// "Datetime Comparisons").
describe("Oracle test server: more everyday shapes over zoned timestamps", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const rows = async (sql: string) => (await conn.execute(sql)).rows
  const typesOf = (r: { metaData: Array<{ dbType: unknown }> }) => r.metaData.map((m) => m.dbType)
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE zes2_ev (id NUMBER, t TIMESTAMP WITH TIME ZONE, v NUMBER, s VARCHAR2(40))")
    await conn.execute("INSERT INTO zes2_ev VALUES (1, TIMESTAMP '2024-01-01 10:00:00 +00:00', 5, 'x')")
    await conn.execute("INSERT INTO zes2_ev VALUES (2, TIMESTAMP '2024-06-01 11:30:00 Europe/Berlin', 6, NULL)")
    await conn.execute("INSERT INTO zes2_ev VALUES (3, TIMESTAMP '2024-01-01 09:30:00 -05:00', 7, 'z')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("any character function reads a zoned value in the session's NLS_TIMESTAMP_TZ_FORMAT (was the stored text)", async () => {
    expect(await rows("SELECT REPLACE(t, 'AM', 'h'), REVERSE(t), ASCII(t), TRIM(t), NLS_UPPER(t) FROM zes2_ev WHERE id = 2")).toEqual([
      ["01-JUN-24 11.30.00.000000 h Europe/Berlin", "nilreB/eporuE MA 000000.00.03.11 42-NUJ-10", 48, "01-JUN-24 11.30.00.000000 AM Europe/Berlin", "01-JUN-24 11.30.00.000000 AM EUROPE/BERLIN"]
    ])
    expect(await rows("SELECT LISTAGG(t, '; ') WITHIN GROUP (ORDER BY id) FROM zes2_ev WHERE id < 3")).toEqual([
      ["01-JAN-24 10.00.00.000000 AM +00:00; 01-JUN-24 11.30.00.000000 AM Europe/Berlin"]
    ])
    // the session's format, as altered
    await conn.execute("ALTER SESSION SET NLS_TIMESTAMP_TZ_FORMAT = 'YYYY-MM-DD HH24:MI TZR'")
    try {
      expect(await rows("SELECT REPLACE(t, ' ', '_') FROM zes2_ev ORDER BY id")).toEqual([["2024-01-01_10:00_+00:00"], ["2024-06-01_11:30_Europe/Berlin"], ["2024-01-01_09:30_-05:00"]])
    } finally {
      await conn.execute("ALTER SESSION SET NLS_TIMESTAMP_TZ_FORMAT = 'DD-MON-RR HH.MI.SSXFF AM TZR'")
    }
  })

  it("LIKE reads a zoned value in the NLS format (matched the stored text)", async () => {
    expect(await rows("SELECT id FROM zes2_ev WHERE t LIKE '%JUN%'")).toEqual([[2]])
    expect(await rows("SELECT id FROM zes2_ev WHERE t NOT LIKE '01-JAN-24%' ORDER BY id")).toEqual([[2]])
    expect(await rows("SELECT id FROM zes2_ev WHERE t LIKE '%AM -05:00' OR id = 2 ORDER BY id")).toEqual([[2], [3]])
  })

  it("NVL, NVL2 and DECODE with a character first result give VARCHAR2 text of a zoned value (was ORA-01861)", async () => {
    const r = await conn.execute("SELECT NVL(s, t), NVL2(v, s, t), DECODE(id, 1, s, t) FROM zes2_ev ORDER BY id")
    expect(typesOf(r)).toEqual([oracledb.DB_TYPE_VARCHAR, oracledb.DB_TYPE_VARCHAR, oracledb.DB_TYPE_VARCHAR])
    expect(r.rows).toEqual([
      ["x", "x", "x"],
      ["01-JUN-24 11.30.00.000000 AM Europe/Berlin", null, "01-JUN-24 11.30.00.000000 AM Europe/Berlin"],
      ["z", "z", "01-JAN-24 09.30.00.000000 AM -05:00"]
    ])
    // the zoned value first: still a TIMESTAMP WITH TIME ZONE
    const zoned = await conn.execute("SELECT NVL(t, TIMESTAMP '2024-01-01 00:00:00 +00:00') FROM zes2_ev WHERE id = 1")
    expect(typesOf(zoned)).toEqual([oracledb.DB_TYPE_TIMESTAMP_TZ])
  })

  it("PERCENTILE_CONT over zoned values interpolates by instant, and the windowed PERCENTILE_DISC picks by instant, typed TIMESTAMP WITH TIME ZONE (was ORA-00932, or text)", async () => {
    // instants 10:00Z, 14:30Z (09:30 -05:00) and 2024-06-01 09:30Z (11:30 Europe/Berlin): the middle one's text sorts first
    const median = await conn.execute("SELECT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY t), TO_CHAR(PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY t), 'HH24:MI TZR'), PERCENTILE_CONT(0.25) WITHIN GROUP (ORDER BY t) FROM zes2_ev")
    expect(typesOf(median)).toEqual([oracledb.DB_TYPE_TIMESTAMP_TZ, oracledb.DB_TYPE_VARCHAR, oracledb.DB_TYPE_TIMESTAMP_TZ])
    expect(median.rows).toEqual([[new Date("2024-01-01T14:30:00Z"), "09:30 -05:00", new Date("2024-01-01T12:15:00Z")]])
    expect(await rows("SELECT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY t) FROM zes2_ev WHERE id < 3")).toEqual([[new Date("2024-03-17T09:45:00Z")]])
    expect(await rows("SELECT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY t) FROM zes2_ev WHERE id > 9")).toEqual([[null]])
    const windowed = await conn.execute(
      "SELECT id, PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY t) OVER (), PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY t) OVER (PARTITION BY CASE WHEN id < 3 THEN 0 ELSE 1 END), TO_CHAR(PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY t) OVER (), 'HH24:MI TZR') FROM zes2_ev ORDER BY id"
    )
    expect(typesOf(windowed)).toEqual([oracledb.DB_TYPE_NUMBER, oracledb.DB_TYPE_TIMESTAMP_TZ, oracledb.DB_TYPE_TIMESTAMP_TZ, oracledb.DB_TYPE_VARCHAR])
    expect(windowed.rows).toEqual([
      [1, new Date("2024-01-01T14:30:00Z"), new Date("2024-01-01T10:00:00Z"), "09:30 -05:00"],
      [2, new Date("2024-01-01T14:30:00Z"), new Date("2024-01-01T10:00:00Z"), "09:30 -05:00"],
      [3, new Date("2024-01-01T14:30:00Z"), new Date("2024-01-01T14:30:00Z"), "09:30 -05:00"]
    ])
  })

  it("SELECT * over a chain of USING / NATURAL joins by a zoned column matches rows by instant (matched the text: no row)", async () => {
    await conn.execute("CREATE TABLE zes2_a (id NUMBER, t TIMESTAMP WITH TIME ZONE, x NUMBER)")
    await conn.execute("CREATE TABLE zes2_b (id NUMBER, y NUMBER)")
    await conn.execute("CREATE TABLE zes2_c (t TIMESTAMP WITH TIME ZONE, z NUMBER, k NUMBER)")
    await conn.execute("CREATE TABLE zes2_d (k NUMBER, q NUMBER)")
    // one instant, 10:00 UTC, in three zones
    await conn.execute("INSERT INTO zes2_a VALUES (1, TIMESTAMP '2024-01-01 10:00:00 +00:00', 1)")
    await conn.execute("INSERT INTO zes2_b VALUES (1, 2)")
    await conn.execute("INSERT INTO zes2_c VALUES (TIMESTAMP '2024-01-01 05:00:00 -05:00', 3, 7)")
    await conn.execute("INSERT INTO zes2_d VALUES (7, 8)")
    const at10 = new Date("2024-01-01T10:00:00Z")
    const named = async (sql: string) => {
      const r = await conn.execute(sql)
      return [r.metaData.map((m: { name: string }) => m.name), r.rows]
    }
    // the SQL standard's order, join by join: the join columns, the left side's others, the right table's others
    expect(await named("SELECT * FROM zes2_a JOIN zes2_b USING (id) JOIN zes2_c USING (t)")).toEqual([["T", "ID", "X", "Y", "Z", "K"], [[at10, 1, 1, 2, 3, 7]]])
    expect(await named("SELECT * FROM zes2_a NATURAL JOIN zes2_c NATURAL JOIN zes2_d")).toEqual([["K", "T", "ID", "X", "Z", "Q"], [[7, at10, 1, 1, 3, 8]]])
    expect(await named("SELECT * FROM zes2_a NATURAL JOIN zes2_c JOIN zes2_d USING (k)")).toEqual([["K", "T", "ID", "X", "Z", "Q"], [[7, at10, 1, 1, 3, 8]]])
    expect(await rows("SELECT * FROM zes2_a LEFT JOIN zes2_c USING (t) LEFT JOIN zes2_d USING (k)")).toEqual([[7, at10, 1, 1, 3, 8]])
    expect(await rows("SELECT COUNT(*) FROM (SELECT * FROM zes2_a JOIN zes2_b USING (id) NATURAL JOIN zes2_c NATURAL JOIN zes2_d)")).toEqual([[1]])
    // without a star too: a NATURAL join after one written as an ON join (was ORA-00933)
    expect(await rows("SELECT t, x, z, q FROM zes2_a NATURAL JOIN zes2_c NATURAL JOIN zes2_d")).toEqual([[at10, 1, 3, 8]])
    await conn.rollback()
  })

  it("MEDIAN, STATS_MODE and ANY_VALUE of zoned values are TIMESTAMP WITH TIME ZONE values by instant (were VARCHAR2 text)", async () => {
    // 11:00 +01:00 is the first row's instant, 10:00 UTC: the most frequent one
    await conn.execute("INSERT INTO zes2_ev VALUES (4, TIMESTAMP '2024-01-01 11:00:00 +01:00', 8, NULL)")
    await conn.execute("INSERT INTO zes2_ev VALUES (5, NULL, 9, NULL)")
    const r = await conn.execute("SELECT MEDIAN(t), TO_CHAR(MEDIAN(t), 'HH24:MI TZR'), STATS_MODE(t), TO_CHAR(STATS_MODE(t), 'HH24:MI TZR') FROM zes2_ev")
    expect(typesOf(r)).toEqual([oracledb.DB_TYPE_TIMESTAMP_TZ, oracledb.DB_TYPE_VARCHAR, oracledb.DB_TYPE_TIMESTAMP_TZ, oracledb.DB_TYPE_VARCHAR])
    // the median halfway between 10:00 and 14:30 UTC
    expect(r.rows).toEqual([[new Date("2024-01-01T12:15:00Z"), "13:15 +01:00", new Date("2024-01-01T10:00:00Z"), "10:00 +00:00"]])
    const any = await conn.execute("SELECT ANY_VALUE(t) FROM zes2_ev WHERE id = 2")
    expect(typesOf(any)).toEqual([oracledb.DB_TYPE_TIMESTAMP_TZ])
    expect(any.rows).toEqual([[new Date("2024-06-01T09:30:00Z")]])
    expect(await rows("SELECT id, MEDIAN(t) OVER (PARTITION BY CASE WHEN id < 3 THEN 0 ELSE 1 END) FROM zes2_ev WHERE id < 4 ORDER BY id")).toEqual([
      [1, new Date("2024-03-17T09:45:00Z")], [2, new Date("2024-03-17T09:45:00Z")], [3, new Date("2024-01-01T14:30:00Z")]
    ])
    await conn.rollback()
  })

  it("`zoned AT LOCAL` is a select item of its own, not one aliased LOCAL (was ORA-00933)", async () => {
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+02:00'")
    const r = await conn.execute("SELECT t AT LOCAL, TO_CHAR(t AT LOCAL, 'HH24:MI TZR'), id FROM zes2_ev WHERE id = 1")
    expect(typesOf(r)).toEqual([oracledb.DB_TYPE_TIMESTAMP_TZ, oracledb.DB_TYPE_VARCHAR, oracledb.DB_TYPE_NUMBER])
    expect(r.rows).toEqual([[new Date("2024-01-01T10:00:00Z"), "12:00 +02:00", 1]])
  })

  it("a parenthesised zoned column, FIRST_VALUE (... IGNORE NULLS) and a CASE / DECODE mixing one with SYSTIMESTAMP reach the client as TIMESTAMP WITH TIME ZONE (were VARCHAR2 text or ORA-00932)", async () => {
    const paren = await conn.execute("SELECT (t), FIRST_VALUE(t IGNORE NULLS) OVER (ORDER BY id DESC) FROM zes2_ev WHERE (t) = TIMESTAMP '2024-01-01 11:00:00 +01:00'")
    expect(typesOf(paren)).toEqual([oracledb.DB_TYPE_TIMESTAMP_TZ, oracledb.DB_TYPE_TIMESTAMP_TZ])
    expect(paren.rows).toEqual([[new Date("2024-01-01T10:00:00Z"), new Date("2024-01-01T10:00:00Z")]])
    const before = Date.now() - 60_000
    for (const sql of [
      "SELECT CASE WHEN id = 1 THEN SYSTIMESTAMP ELSE t END FROM zes2_ev WHERE id IN (1, 2) ORDER BY id",
      "SELECT DECODE(id, 2, t, 1, SYSTIMESTAMP) FROM zes2_ev WHERE id IN (1, 2) ORDER BY id"
    ]) {
      const r = await conn.execute(sql)
      expect(typesOf(r)).toEqual([oracledb.DB_TYPE_TIMESTAMP_TZ])
      expect((r.rows[0][0] as Date).getTime()).toBeGreaterThan(before)
      expect(r.rows[1]).toEqual([new Date("2024-06-01T09:30:00Z")])
    }
    // CURRENT_TIMESTAMP in the session time zone, as alone
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+03:00'")
    expect(await rows("SELECT TO_CHAR(CASE WHEN id = 1 THEN CURRENT_TIMESTAMP ELSE t END, 'TZR'), TO_CHAR(CURRENT_TIMESTAMP, 'TZR') FROM zes2_ev WHERE id = 1")).toEqual([["+03:00", "+03:00"]])
  })

  it("DUMP of a zoned column shows its 13 stored bytes, UTC date and time and zone, Typ=181 (was its text, Typ=1)", async () => {
    // 2024-01-01 10:00 UTC: century and year + 100, hour + 1, minute + 1, second + 1, fraction 0, offset +00:00 as 20, 60
    expect(await rows("SELECT DUMP(t), DUMP(t, 16) FROM zes2_ev WHERE id IN (1, 3) ORDER BY id")).toEqual([
      ["Typ=181 Len=13: 120,124,1,1,11,1,1,0,0,0,0,20,60", "Typ=181 Len=13: 78,7c,1,1,b,1,1,0,0,0,0,14,3c"],
      ["Typ=181 Len=13: 120,124,1,1,15,31,1,0,0,0,0,15,60", "Typ=181 Len=13: 78,7c,1,1,f,1f,1,0,0,0,0,f,3c"]
    ])
  })

  it("LAG, FIRST_VALUE and MIN / MAX OVER a window of a TIMESTAMP(9) are TIMESTAMP values by wall clock (were VARCHAR2 text)", async () => {
    await conn.execute("CREATE TABLE zes2_w9 (id NUMBER, t9 TIMESTAMP(9))")
    await conn.execute("INSERT INTO zes2_w9 VALUES (1, TIMESTAMP '2024-01-01 10:00:00.123456789')")
    await conn.execute("INSERT INTO zes2_w9 VALUES (2, TIMESTAMP '2024-01-01 09:00:00.000000001')")
    const r = await conn.execute("SELECT LAG(t9) OVER (ORDER BY id), FIRST_VALUE(t9 IGNORE NULLS) OVER (ORDER BY id), MIN(t9) OVER (), TO_CHAR(MIN(t9) OVER (), 'HH24:MI:SS.FF9') FROM zes2_w9 ORDER BY id")
    expect(typesOf(r)).toEqual([oracledb.DB_TYPE_TIMESTAMP, oracledb.DB_TYPE_TIMESTAMP, oracledb.DB_TYPE_TIMESTAMP, oracledb.DB_TYPE_VARCHAR])
    expect(r.rows.map((row: Array<unknown>) => row[3])).toEqual(["09:00:00.000000001", "09:00:00.000000001"])
  })
})
