import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, ds, failure, intervalRows as zeroes, numbersAsText, openConnection, oraCode, ym } from "./oracle/helpers.ts"

// INTERVAL DAY(9) TO SECOND(9) and YEAR(9) TO MONTH columns (kept in exact storage by the server, intervals.ts) behave
// as intervals beside DAY TO SECOND(0-6) / YEAR(0-8) TO MONTH columns (DuckDB INTERVALs): MIN / MAX return the
// interval type, comparisons and ORDER BY work across the storages, intervals of one kind add and subtract and scale
// by numbers ("Datetime/Interval Arithmetic", SQL Language Reference,
// https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Datetime-Interval-Arithmetic.html), EXTRACT
// reads their fields with the value's sign ("EXTRACT (datetime)"), TO_CHAR gives the literal form at the declared
// precisions and CAST converts between precisions, extremes (±999999999 23:59:59.999999999, ±999999999-11) included.

describe("Oracle test server: exact interval columns as intervals (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE ivx (id NUMBER, d9 INTERVAL DAY(9) TO SECOND(9), d6 INTERVAL DAY(2) TO SECOND(6), y9 INTERVAL YEAR(9) TO MONTH, y2 INTERVAL YEAR(2) TO MONTH)")
    await conn.execute("INSERT INTO ivx VALUES (1, INTERVAL '1 02:03:04.123456789' DAY(9) TO SECOND(9), INTERVAL '1 00:00:00.5' DAY TO SECOND, INTERVAL '5-3' YEAR(9) TO MONTH, INTERVAL '1-1' YEAR TO MONTH)")
    await conn.execute("INSERT INTO ivx VALUES (2, INTERVAL '-999999999 23:59:59.999999999' DAY(9) TO SECOND(9), INTERVAL '2 00:00:00' DAY TO SECOND, INTERVAL '-999999999-11' YEAR(9) TO MONTH, INTERVAL '2-1' YEAR TO MONTH)")
    await conn.execute("INSERT INTO ivx VALUES (3, INTERVAL '999999999 23:59:59.999999999' DAY(9) TO SECOND(9), INTERVAL '0 00:00:01' DAY TO SECOND, INTERVAL '999999999-11' YEAR(9) TO MONTH, INTERVAL '0-1' YEAR TO MONTH)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("MIN and MAX of exact interval columns are intervals, exact to the nanosecond at the extremes (was NUMBER)", async () => {
    const r = await conn.execute("SELECT MAX(d9), MIN(d9), COUNT(d9), MAX(y9), MIN(y9) FROM ivx")
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["INTERVAL DAY TO SECOND", "INTERVAL DAY TO SECOND", "NUMBER", "INTERVAL YEAR TO MONTH", "INTERVAL YEAR TO MONTH"])
    expect(zeroes(r.rows)).toEqual([[ds(999999999, 23, 59, 59, 999999999), ds(-999999999, -23, -59, -59, -999999999), 3, ym(999999999, 11), ym(-999999999, -11)]])
    const grouped = await conn.execute("SELECT id, MAX(d9) FROM ivx WHERE id = 1 GROUP BY id")
    expect(zeroes(grouped.rows)).toEqual([[1, ds(1, 2, 3, 4, 123456789)]])
  })

  it("SUM and AVG of exact interval columns and their negation are intervals, exact to the nanosecond (was NUMBER)", async () => {
    const r = await conn.execute("SELECT SUM(d9), SUM(y9) FROM ivx WHERE id IN (1, 2)")
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["INTERVAL DAY TO SECOND", "INTERVAL YEAR TO MONTH"])
    // 1 02:03:04.123456789 + -999999999 23:59:59.999999999; 5-3 + -999999999-11
    expect(zeroes(r.rows)).toEqual([[ds(-999999998, -21, -56, -55, -876543210), ym(-999999994, -8)]])
    const negated = await conn.execute("SELECT -d9, -y9 FROM ivx WHERE id = 1")
    expect(zeroes(negated.rows)).toEqual([[ds(-1, -2, -3, -4, -123456789), ym(-5, -3)]])
    // (1 02:03:04.123456789 + 999999999 23:59:59.999999999) / 2, and (5-3 + 999999999-11) / 2 with the half month cut
    const avg = await conn.execute("SELECT AVG(d9), AVG(y9) FROM ivx WHERE id IN (1, 3)")
    expect(avg.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["INTERVAL DAY TO SECOND", "INTERVAL YEAR TO MONTH"])
    expect(zeroes(avg.rows)).toEqual([[ds(500000000, 13, 1, 32, 61728394), ym(500000002, 7)]])
    expect(oraCode(await failure(() => conn.execute("SELECT SUM(d9) FROM ivx WHERE id IN (1, 3)")))).toBe("ORA-01873")
  })

  it("compares and orders exact columns with DAY TO SECOND(0-6) / YEAR(0-8) columns by value (was ORA-00932)", async () => {
    const r = await conn.execute("SELECT id FROM ivx WHERE d9 > d6 AND y2 < y9 ORDER BY d9 DESC")
    expect(r.rows).toEqual([[3], [1]])
    const eq = await conn.execute("SELECT COUNT(*) FROM ivx WHERE d9 <> d6 AND ivx.y9 >= ivx.y2")
    expect(eq.rows).toEqual([[2]])
    const sorted = await conn.execute("SELECT id FROM ivx ORDER BY y9")
    expect(sorted.rows).toEqual([[2], [1], [3]])
  })

  it("adds and subtracts intervals of either storage and scales them by numbers, as intervals (was ORA-00932 or a NUMBER)", async () => {
    const r = await conn.execute("SELECT d9 + d6, d9 - d6, d6 - d9, y9 + y2, y9 - y2, d9 * 2, d9 / 2, 3 * y9 FROM ivx WHERE id = 1")
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual([...Array(3).fill("INTERVAL DAY TO SECOND"), ...Array(2).fill("INTERVAL YEAR TO MONTH"), ...Array(2).fill("INTERVAL DAY TO SECOND"), "INTERVAL YEAR TO MONTH"])
    expect(zeroes(r.rows)).toEqual([[
      ds(2, 2, 3, 4, 623456789), ds(0, 2, 3, 3, 623456789), ds(0, -2, -3, -3, -623456789),
      ym(6, 4), ym(4, 2), ds(2, 4, 6, 8, 246913578), ds(0, 13, 1, 32, 61728394), ym(15, 9)
    ]])
    const extreme = await conn.execute("SELECT d9 - d6, y9 - y2 FROM ivx WHERE id = 3")
    expect(zeroes(extreme.rows)).toEqual([[ds(999999999, 23, 59, 58, 999999999), ym(999999999, 10)]])
    // beyond DAY(9): ORA-01873, as Oracle's leading precision overflows
    expect(oraCode(await failure(() => conn.execute("SELECT d9 + d6 FROM ivx WHERE id = 3")))).toBe("ORA-01873")
  })

  it("EXTRACT reads every field with the value's sign, to the nanosecond (was ORA-00932)", async () => {
    const r = await conn.execute(
      "SELECT EXTRACT(DAY FROM d9), EXTRACT(HOUR FROM d9), EXTRACT(MINUTE FROM d9), EXTRACT(SECOND FROM d9), EXTRACT(YEAR FROM y9), EXTRACT(MONTH FROM y9) FROM ivx ORDER BY id",
      [],
      numbersAsText
    )
    expect(r.rows).toEqual([
      ["1", "2", "3", "4.123456789", "5", "3"],
      ["-999999999", "-23", "-59", "-59.999999999", "-999999999", "-11"],
      ["999999999", "23", "59", "59.999999999", "999999999", "11"]
    ])
    expect(oraCode(await failure(() => conn.execute("SELECT EXTRACT(YEAR FROM d9) FROM ivx")))).toBe("ORA-30076")
  })

  it("TO_CHAR gives the interval literal form at each column's declared precisions (was the stored number or DuckDB's text)", async () => {
    const r = await conn.execute("SELECT TO_CHAR(d9), TO_CHAR(y9), TO_CHAR(d6), TO_CHAR(y2) FROM ivx ORDER BY id")
    expect(r.rows).toEqual([
      ["+000000001 02:03:04.123456789", "+000000005-03", "+01 00:00:00.500000", "+01-01"],
      ["-999999999 23:59:59.999999999", "-999999999-11", "+02 00:00:00.000000", "+02-01"],
      ["+999999999 23:59:59.999999999", "+999999999-11", "+00 00:00:01.000000", "+00-01"]
    ])
  })

  it("CAST converts between exact and DuckDB storage, rounding to fewer fraction digits (was ORA-01722)", async () => {
    const r = await conn.execute(
      "SELECT CAST(d9 AS INTERVAL DAY(2) TO SECOND(3)), CAST(d6 AS INTERVAL DAY(9) TO SECOND(9)), CAST(d6 AS INTERVAL DAY(9) TO SECOND(9)) + d9, CAST(y2 AS INTERVAL YEAR(9) TO MONTH) FROM ivx WHERE id = 1"
    )
    expect(zeroes(r.rows)).toEqual([[ds(1, 2, 3, 4, 123000000), ds(1, 0, 0, 0, 500000000), ds(2, 2, 3, 4, 623456789), ym(1, 1)]])
  })
})
