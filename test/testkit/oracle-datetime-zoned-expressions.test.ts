import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

// Expressions whose result is a TIMESTAMP WITH TIME ZONE are of that type, whatever computes them: DECODE's result has
// "the same data type as the first result" (SQL Language Reference, "DECODE"), NVL2's that of expr2 ("NVL2"), a CASE
// expression's that of its results, which "must all be of the same data type group" ("CASE Expressions"). Such values
// compare by their UTC instant, the zone ignored (Database Globalization Support Guide, "Datetime Comparisons").
// Rows 1 and 2 are one instant (11:00 UTC) in two zones; row 3 is 10:00 UTC.
describe("Oracle test server: expressions giving TIMESTAMP WITH TIME ZONE (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const eleven = new Date(Date.UTC(2024, 0, 1, 11))
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE zx (id NUMBER, ts TIMESTAMP WITH TIME ZONE, lt TIMESTAMP)")
    await conn.execute("INSERT INTO zx VALUES (1, TIMESTAMP '2024-01-01 12:00:00 +01:00', TIMESTAMP '2024-01-01 09:00:00')")
    await conn.execute("INSERT INTO zx VALUES (2, TIMESTAMP '2024-01-01 06:00:00 America/New_York', NULL)")
    await conn.execute("INSERT INTO zx VALUES (3, TIMESTAMP '2024-01-01 10:00:00 +00:00', NULL)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("describes CASE, DECODE and NVL2 over a zoned column as TIMESTAMP WITH TIME ZONE with the value's instant", async () => {
    const r = await conn.execute(
      "SELECT CASE WHEN id = 1 THEN ts END c, DECODE(id, 1, ts) d, NVL2(id, ts, NULL) n, CASE id WHEN 1 THEN ts ELSE NULL END s FROM zx WHERE id = 1"
    )
    for (const m of r.metaData) expect(m).toMatchObject({ dbType: oracledb.DB_TYPE_TIMESTAMP_TZ, dbTypeName: "TIMESTAMP WITH TIME ZONE" })
    expect(r.rows).toEqual([[eleven, eleven, eleven, eleven]])
    // TO_CHAR of such an expression shows the value's own wall clock and zone
    const shown = await conn.execute("SELECT TO_CHAR(DECODE(id, 1, ts), 'HH24:MI TZR') FROM zx WHERE id = 1")
    expect(shown.rows).toEqual([["12:00 +01:00"]])
  })

  it("compares DECODE / NVL2 / CASE results by instant", async () => {
    const ids = async (where: string) => (await conn.execute(`SELECT id FROM zx WHERE ${where} ORDER BY id`)).rows.map((row: Array<number>) => row[0])
    expect(await ids("DECODE(id, 0, ts, 1, ts, ts) = TIMESTAMP '2024-01-01 11:00:00 UTC'")).toEqual([1, 2])
    expect(await ids("NVL2(id, ts, NULL) = TIMESTAMP '2024-01-01 11:00:00 UTC'")).toEqual([1, 2])
    expect(await ids("NVL2(id, ts, NULL) > TIMESTAMP '2024-01-01 10:30:00 +00:00'")).toEqual([1, 2])
    const ordered = await conn.execute("SELECT id FROM zx ORDER BY DECODE(id, 0, ts, 1, ts, ts), id")
    expect(ordered.rows.map((row: Array<number>) => row[0])).toEqual([3, 1, 2])
    expect(await ids("CASE WHEN id > 0 THEN ts END = TIMESTAMP '2024-01-01 11:00:00 UTC'")).toEqual([1, 2])
    // also where no column is an exact NUMBER (the CASE is split differently then)
    await conn.execute("CREATE TABLE zx5 (id NUMBER(5), ts TIMESTAMP WITH TIME ZONE)")
    await conn.execute("INSERT INTO zx5 SELECT id, ts FROM zx")
    const ids5 = async (sql: string) => (await conn.execute(sql)).rows.map((row: Array<number>) => row[0])
    expect(await ids5("SELECT id FROM zx5 ORDER BY CASE WHEN id > 0 THEN ts END, id")).toEqual([3, 1, 2])
    expect(await ids5("SELECT id FROM zx5 WHERE TIMESTAMP '2024-01-01 11:00:00 UTC' = CASE WHEN id > 0 THEN ts END ORDER BY id")).toEqual([1, 2])
  })

  // ROUND and TRUNC of a datetime return a DATE ("The value returned is always of data type DATE, even if you specify
  // a different datetime data type for date", SQL Language Reference, "ROUND (date)"), of the value's own wall clock
  it("rounds a zoned value on its own wall clock to a DATE", async () => {
    const r = await conn.execute("SELECT ROUND(ts), ROUND(ts, 'HH'), TRUNC(ts) FROM zx WHERE id = 2")
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["DATE", "DATE", "DATE"])
    const local = (y: number, mo: number, d: number, h = 0) => new Date(y, mo, d, h)
    expect(r.rows).toEqual([[local(2024, 0, 1), local(2024, 0, 1, 6), local(2024, 0, 1)]])
    const late = await conn.execute("SELECT ROUND(TIMESTAMP '2024-01-31 12:00:00 +05:00'), ROUND(TIMESTAMP '2024-06-16 00:00:00 +05:00', 'MM'), ROUND(TIMESTAMP '2024-07-01 00:00:00 UTC', 'YYYY') FROM DUAL")
    expect(late.rows).toEqual([[local(2024, 1, 1), local(2024, 6, 1), local(2025, 0, 1)]])
  })
})
