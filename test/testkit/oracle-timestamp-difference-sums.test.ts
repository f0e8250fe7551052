import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, ds, intervalRows, openConnection } from "./oracle/helpers.ts"

// A TIMESTAMP difference is an INTERVAL DAY TO SECOND (SQL Language Reference, "Datetime/Interval Arithmetic":
// https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Datetime-Interval-Arithmetic.html), and SUM of
// intervals an interval, also as an analytic function ("SUM": it takes an interval argument and returns its type);
// an interval times or divided by a number, negated or plus an interval is an interval. These failed ORA-00932, and a
// DATE minus a CASE giving a TIMESTAMP or a stored function's TIMESTAMP result failed ORA-00932 or was a number of days.
const typeNames = (r: { metaData?: ReadonlyArray<{ dbTypeName?: string }> }) => (r.metaData ?? []).map((m) => m.dbTypeName)
const DS = "INTERVAL DAY TO SECOND"

describe("Oracle test server: sums of TIMESTAMP differences and other TIMESTAMP operands (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE tsum (id NUMBER, a TIMESTAMP, b TIMESTAMP, d DATE)")
    await conn.execute("INSERT INTO tsum VALUES (1, TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2024-01-02 02:30:00.5', DATE '2024-01-03')")
    await conn.execute("INSERT INTO tsum VALUES (2, TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2024-01-01 01:00:00', DATE '2024-01-03')")
    await conn.execute("CREATE FUNCTION tsum_at(n NUMBER) RETURN TIMESTAMP IS BEGIN RETURN TIMESTAMP '2024-01-01 00:00:00' + NUMTODSINTERVAL(n, 'HOUR'); END;")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("SUM of a TIMESTAMP difference as a window function is an interval", async () => {
    const r = await conn.execute("SELECT SUM(b - a) OVER (ORDER BY id), SUM(b - a) OVER (ORDER BY id) * 2 FROM tsum ORDER BY id")
    expect(typeNames(r)).toEqual([DS, DS])
    expect(intervalRows(r.rows ?? [])).toEqual([
      [ds(1, 2, 30, 0, 500_000_000), ds(2, 5, 0, 1, 0)],
      [ds(1, 3, 30, 0, 500_000_000), ds(2, 7, 0, 1, 0)]
    ])
  })

  it("arithmetic on a SUM of TIMESTAMP differences is an interval", async () => {
    const r = await conn.execute("SELECT SUM(b - a) * 2, SUM(b - a) / 2, -SUM(b - a), SUM(b - a) + INTERVAL '1' HOUR FROM tsum")
    expect(typeNames(r)).toEqual([DS, DS, DS, DS])
    expect(intervalRows(r.rows ?? [])).toEqual([[ds(2, 7, 0, 1, 0), ds(0, 13, 45, 0, 250_000_000), ds(-1, -3, -30, 0, -500_000_000), ds(1, 4, 30, 0, 500_000_000)]])
    expect((await conn.execute("SELECT TO_CHAR(SUM(b - a) * 2) FROM tsum")).rows).toEqual([["+000000002 07:00:01.000000000"]])
    // a SUM of numbers times a number stays a number
    expect((await conn.execute("SELECT SUM(id - 1) * 2, SUM(d - d) * 2 FROM tsum")).rows).toEqual([[2, 0]])
  })

  it("a DATE minus a CASE giving a TIMESTAMP, or minus a stored function's TIMESTAMP result, is an interval", async () => {
    const r = await conn.execute("SELECT d - CASE WHEN id = 1 THEN a ELSE b END, d - CASE id WHEN 1 THEN NULL ELSE b END, d - tsum_at(id), b - tsum_at(id) FROM tsum ORDER BY id")
    expect(typeNames(r)).toEqual([DS, DS, DS, DS])
    expect(intervalRows(r.rows ?? [])).toEqual([
      [ds(2, 0, 0, 0, 0), null, ds(1, 23, 0, 0, 0), ds(1, 1, 30, 0, 500_000_000)],
      [ds(1, 23, 0, 0, 0), ds(1, 23, 0, 0, 0), ds(1, 22, 0, 0, 0), ds(0, -1, 0, 0, 0)]
    ])
  })
})
