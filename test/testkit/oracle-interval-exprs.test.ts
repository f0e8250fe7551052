import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, ds, intervalRows as zeroes, openConnection, oracledb, ym } from "./oracle/helpers.ts"

// INTERVAL DAY(9) TO SECOND(9) and YEAR(9) TO MONTH columns (exact storage in the server, intervals.ts) are intervals
// in every expression Oracle allows on intervals, beside DAY TO SECOND(0-6) / YEAR(0-8) TO MONTH columns: window
// aggregates, BETWEEN, IN lists, subqueries, CASE, NVL / COALESCE, DECODE, negated aggregates ("Datetime/Interval
// Arithmetic"; SUM, AVG, MIN, MAX "take interval arguments and return the argument's type", SQL Language Reference,
// https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Datetime-Interval-Arithmetic.html).
const typeNames = (r: { metaData?: ReadonlyArray<{ dbTypeName?: string }> }) => (r.metaData ?? []).map((m) => m.dbTypeName)
const DS = "INTERVAL DAY TO SECOND"
const YM = "INTERVAL YEAR TO MONTH"

describe("Oracle test server: exact interval columns in every expression (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE ive (id NUMBER, d9 INTERVAL DAY(9) TO SECOND(9), d6 INTERVAL DAY(2) TO SECOND(6), y9 INTERVAL YEAR(9) TO MONTH, y2 INTERVAL YEAR(2) TO MONTH)")
    await conn.execute("INSERT INTO ive VALUES (1, INTERVAL '1 02:03:04.123456789' DAY(9) TO SECOND(9), INTERVAL '1 00:00:00.5' DAY TO SECOND, INTERVAL '5-3' YEAR(9) TO MONTH, INTERVAL '1-1' YEAR TO MONTH)")
    await conn.execute("INSERT INTO ive VALUES (2, INTERVAL '2 00:00:00.000000001' DAY(9) TO SECOND(9), INTERVAL '2 00:00:00' DAY TO SECOND, INTERVAL '999999999-11' YEAR(9) TO MONTH, INTERVAL '2-1' YEAR TO MONTH)")
    await conn.execute("INSERT INTO ive VALUES (3, NULL, INTERVAL '0 00:00:01' DAY TO SECOND, NULL, INTERVAL '0-1' YEAR TO MONTH)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("window aggregates over exact interval columns are intervals, exact to the nanosecond (was NUMBER)", async () => {
    const r = await conn.execute("SELECT id, MAX(d9) OVER (), MIN(d9) OVER (ORDER BY id), SUM(d9) OVER (), SUM(y9) OVER (PARTITION BY id) FROM ive WHERE id < 3 ORDER BY id")
    expect(typeNames(r)).toEqual(["NUMBER", DS, DS, DS, YM])
    expect(zeroes(r.rows)).toEqual([
      [1, ds(2, 0, 0, 0, 1), ds(1, 2, 3, 4, 123456789), ds(3, 2, 3, 4, 123456790), ym(5, 3)],
      [2, ds(2, 0, 0, 0, 1), ds(1, 2, 3, 4, 123456789), ds(3, 2, 3, 4, 123456790), ym(999999999, 11)]
    ])
    const avg = await conn.execute("SELECT AVG(d9) OVER (PARTITION BY 1) FROM ive WHERE id < 3")
    expect(typeNames(avg)).toEqual([DS])
    expect(zeroes(avg.rows)).toEqual([[ds(1, 13, 1, 32, 61728395)], [ds(1, 13, 1, 32, 61728395)]])
  })

  it("BETWEEN and IN lists mix the storages and literals (was ORA-00932 / ORA-01722)", async () => {
    const between = await conn.execute("SELECT id FROM ive WHERE d9 BETWEEN d6 AND INTERVAL '2 00:00:00' DAY TO SECOND ORDER BY id")
    expect(between.rows).toEqual([[1]])
    const within = await conn.execute("SELECT id FROM ive WHERE d6 BETWEEN INTERVAL '0 12:00:00' DAY TO SECOND AND d9 ORDER BY id")
    expect(within.rows).toEqual([[1], [2]])
    const inList = await conn.execute("SELECT id FROM ive WHERE d9 IN (INTERVAL '2 00:00:00.000000001' DAY(9) TO SECOND(9), d6) ORDER BY id")
    expect(inList.rows).toEqual([[2]])
    const ymIn = await conn.execute("SELECT id FROM ive WHERE y9 IN (INTERVAL '5-3' YEAR TO MONTH, y2) ORDER BY id")
    expect(ymIn.rows).toEqual([[1]])
    const d6In = await conn.execute("SELECT id FROM ive WHERE d6 IN (INTERVAL '2' DAY, INTERVAL '1' SECOND) ORDER BY id")
    expect(d6In.rows).toEqual([[2], [3]])
  })

  it("CASE, NVL, COALESCE and DECODE over exact intervals are intervals (was NUMBER or ORA-00932)", async () => {
    const r = await conn.execute(
      "SELECT CASE WHEN id = 1 THEN d9 ELSE d6 END, NVL(d9, d6), COALESCE(y9, y2), DECODE(id, 1, d9, d6) FROM ive ORDER BY id"
    )
    expect(typeNames(r)).toEqual([DS, DS, YM, DS])
    expect(zeroes(r.rows)).toEqual([
      [ds(1, 2, 3, 4, 123456789), ds(1, 2, 3, 4, 123456789), ym(5, 3), ds(1, 2, 3, 4, 123456789)],
      [ds(2, 0, 0, 0, 0), ds(2, 0, 0, 0, 1), ym(999999999, 11), ds(2, 0, 0, 0, 0)],
      [ds(0, 0, 0, 1, 0), ds(0, 0, 0, 1, 0), ym(0, 1), ds(0, 0, 0, 1, 0)]
    ])
  })

  it("a subquery's exact interval column and a negated aggregate stay intervals (was NUMBER)", async () => {
    const sub = await conn.execute("SELECT x, y FROM (SELECT d9 AS x, y9 y FROM ive WHERE id = 1)")
    expect(typeNames(sub)).toEqual([DS, YM])
    expect(zeroes(sub.rows)).toEqual([[ds(1, 2, 3, 4, 123456789), ym(5, 3)]])
    const added = await conn.execute("SELECT x + d6, y - y2, TO_CHAR(x) FROM (SELECT d9 AS x, d6, y9 y, y2 FROM ive WHERE id = 1)")
    expect(typeNames(added)).toEqual([DS, YM, "VARCHAR2"])
    expect(zeroes(added.rows)).toEqual([[ds(2, 2, 3, 4, 623456789), ym(4, 2), "+000000001 02:03:04.123456789"]])
    const neg = await conn.execute("SELECT -MAX(d9), -MIN(y9) FROM ive")
    expect(typeNames(neg)).toEqual([DS, YM])
    expect(zeroes(neg.rows)).toEqual([[ds(-2, 0, 0, 0, -1), ym(-5, -3)]])
  })

  it("interval literals without sub-microsecond digits work in select lists and arithmetic over tables mixing the storages (was an error)", async () => {
    const r = await conn.execute("SELECT INTERVAL '1' DAY, d9 + INTERVAL '1' SECOND, INTERVAL '1' HOUR - d6, y9 + INTERVAL '1' YEAR FROM ive WHERE id = 1")
    expect(typeNames(r)).toEqual([DS, DS, DS, YM])
    expect(zeroes(r.rows)).toEqual([[ds(1, 0, 0, 0, 0), ds(1, 2, 3, 5, 123456789), ds(0, -23, 0, 0, -500000000), ym(6, 3)]])
  })

  // Oracle rounds a fraction to the declared fractional seconds precision: "INTERVAL '30.12345' SECOND(2,4)" is
  // 30.1235 seconds (SQL Language Reference, "Interval Literals",
  // https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Literals.html#GUID-DC8D1A5B-4E9B-4CE2-9A4D-F3C0ADDC5F0C);
  // ODP.NET's OracleIntervalDS.SetPrecision likewise rounds to the fractional second precision
  // (https://docs.oracle.com/cd/E85694_01/ODPNT/IntervalDSSetPrecision.htm).
  it("a nanosecond bind into a DAY TO SECOND(0-6) column is rounded to the column's precision (was truncated)", async () => {
    await conn.execute("CREATE TABLE ivr (id NUMBER, d6 INTERVAL DAY TO SECOND(6), d9 INTERVAL DAY(9) TO SECOND(9))")
    const bind = (seconds: number, fseconds: number) => ({ val: new oracledb.IntervalDS({ days: 0, hours: 0, minutes: 0, seconds, fseconds }), type: oracledb.DB_TYPE_INTERVAL_DS })
    await conn.execute("INSERT INTO ivr VALUES (1, :1, :2)", [bind(1, 123456789), bind(1, 123456789)])
    await conn.execute("INSERT INTO ivr VALUES (2, :1, :2)", [bind(1, 999999500), bind(1, 999999500)])
    await conn.execute("INSERT INTO ivr VALUES (3, :1, :2)", [bind(-1, -123456500), bind(-1, -123456499)])
    await conn.execute("UPDATE ivr SET d6 = :1 WHERE id = 3", [bind(-1, -123456499)])
    const r = await conn.execute("SELECT d6, d9 FROM ivr ORDER BY id")
    expect(zeroes(r.rows)).toEqual([
      [ds(0, 0, 0, 1, 123457000), ds(0, 0, 0, 1, 123456789)],
      [ds(0, 0, 0, 2, 0), ds(0, 0, 0, 1, 999999500)],
      [ds(0, 0, 0, -1, -123456000), ds(0, 0, 0, -1, -123456499)]
    ])
    await conn.rollback()
  })
})
