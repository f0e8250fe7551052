import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, ds, intervalRows as zeroes, openConnection, ym } from "./oracle/helpers.ts"

// Exact interval columns (INTERVAL DAY(9) TO SECOND(9), YEAR(9) TO MONTH) and interval literals inside longer
// operands: Oracle computes on intervals with every digit ("Datetime/Interval Arithmetic", SQL Language Reference,
// https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Datetime-Interval-Arithmetic.html).
const typeNames = (r: { metaData?: ReadonlyArray<{ dbTypeName?: string }> }) => (r.metaData ?? []).map((m) => m.dbTypeName)
const DS = "INTERVAL DAY TO SECOND"
const YM = "INTERVAL YEAR TO MONTH"

describe("Oracle test server: exact intervals inside longer operands (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE ivl (id NUMBER, d9 INTERVAL DAY(9) TO SECOND(9), d6 INTERVAL DAY(2) TO SECOND(6), y9 INTERVAL YEAR(9) TO MONTH, y2 INTERVAL YEAR(2) TO MONTH)")
    await conn.execute("INSERT INTO ivl VALUES (1, INTERVAL '1 02:03:04.123456789' DAY(9) TO SECOND(9), INTERVAL '1 00:00:00.5' DAY TO SECOND, INTERVAL '5-3' YEAR(9) TO MONTH, INTERVAL '1-1' YEAR TO MONTH)")
    await conn.execute("INSERT INTO ivl VALUES (2, INTERVAL '0 00:00:00.000000001' DAY(9) TO SECOND(9), INTERVAL '2 00:00:00' DAY TO SECOND, INTERVAL '0-1' YEAR(9) TO MONTH, INTERVAL '2-1' YEAR TO MONTH)")
    await conn.execute("INSERT INTO ivl VALUES (3, NULL, INTERVAL '0 00:00:01' DAY TO SECOND, NULL, INTERVAL '0-1' YEAR TO MONTH)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("BETWEEN with sums as bounds filters on every digit (was ORA-00932 / ORA-01722)", async () => {
    const r = await conn.execute("SELECT id FROM ivl WHERE d9 BETWEEN d6 + INTERVAL '1' HOUR AND d9 + INTERVAL '1' DAY ORDER BY id")
    expect(r.rows).toEqual([[1]])
    const ymr = await conn.execute("SELECT id FROM ivl WHERE y9 BETWEEN y2 + INTERVAL '1' YEAR AND y9 + y2 ORDER BY id")
    expect(ymr.rows).toEqual([[1]])
  })

  it("a comparison of a sum with a literal filters on every digit (was ORA-00932)", async () => {
    const r = await conn.execute("SELECT id FROM ivl WHERE d9 + d6 > INTERVAL '1' DAY ORDER BY id")
    expect(r.rows).toEqual([[1], [2]])
    const eq = await conn.execute("SELECT id FROM ivl WHERE d9 + d6 = INTERVAL '2 00:00:00.000000001' DAY(9) TO SECOND(9)")
    expect(eq.rows).toEqual([[2]])
  })

  it("scaled sums, NVL plus a literal and CASE results of sums are intervals with every digit (was NUMBER or an error)", async () => {
    const r = await conn.execute(
      "SELECT (d9 + d6) * 2, NVL(d9, d6) + INTERVAL '1' SECOND, CASE WHEN id < 3 THEN d9 + d6 END, (y9 + y2) * 2 FROM ivl ORDER BY id"
    )
    expect(typeNames(r)).toEqual([DS, DS, DS, YM])
    expect(zeroes(r.rows)).toEqual([
      [ds(4, 4, 6, 9, 246913578), ds(1, 2, 3, 5, 123456789), ds(2, 2, 3, 4, 623456789), ym(12, 8)],
      [ds(4, 0, 0, 0, 2), ds(0, 0, 0, 1, 1), ds(2, 0, 0, 0, 1), ym(4, 4)],
      [null, ds(0, 0, 0, 2, 0), null, null]
    ])
  })

  it("ORDER BY a sum orders on every digit", async () => {
    const r = await conn.execute("SELECT id FROM ivl WHERE id < 3 ORDER BY d9 - d6 + INTERVAL '1' DAY DESC")
    expect(r.rows).toEqual([[1], [2]])
  })

  it("TO_CHAR of an interval expression prints Oracle's literal form (was the stored number or DuckDB text)", async () => {
    const r = await conn.execute("SELECT TO_CHAR(d9 + d6), TO_CHAR(y9 + y2), TO_CHAR(NVL(d9, d6) + INTERVAL '1' SECOND) FROM ivl WHERE id = 1")
    expect(r.rows).toEqual([["+000000002 02:03:04.623456789", "+000000006-04", "+000000001 02:03:05.123456789"]])
    // a DAY TO SECOND(0-6) expression at the precisions it is described with, DAY(9) TO SECOND(6)
    const duck = await conn.execute("SELECT TO_CHAR(d6 + INTERVAL '1' HOUR), TO_CHAR(-(d6 * 2)) FROM ivl WHERE id = 1")
    expect(duck.rows).toEqual([["+000000001 01:00:00.500000", "-000000002 00:00:01.000000"]])
  })
})
