import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, ds, intervalRows as zeroes, openConnection, oracledb, ym } from "./oracle/helpers.ts"

// A bound interval written into an interval column takes the column's precisions: the fraction is rounded to the
// fractional seconds precision ("INTERVAL '30.12345' SECOND(2,4)" is 30.1235 seconds, SQL Language Reference,
// "Interval Literals": https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Literals.html), and a
// value whose days or years need more digits than the leading field precision fails with ORA-01873 ("the leading
// precision of the interval is too small", Database Error Messages).
const dsBind = (days: number, seconds: number, fseconds: number) => ({ val: new oracledb.IntervalDS({ days, hours: 0, minutes: 0, seconds, fseconds }), type: oracledb.DB_TYPE_INTERVAL_DS })
const ymBind = (years: number, months: number) => ({ val: new oracledb.IntervalYM({ years, months }), type: oracledb.DB_TYPE_INTERVAL_YM })

describe("Oracle test server: bound intervals at the written column's precisions (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(
      "CREATE TABLE ivp (id NUMBER, d0 INTERVAL DAY(2) TO SECOND(0), d3 INTERVAL DAY(3) TO SECOND(3), d5 INTERVAL DAY TO SECOND(5), d7 INTERVAL DAY(9) TO SECOND(7), d8 INTERVAL DAY(4) TO SECOND(8), y2 INTERVAL YEAR TO MONTH, y9 INTERVAL YEAR(9) TO MONTH)"
    )
  })
  afterAll(() => closeConnection({ server, conn }))

  it("rounds a bound fraction half away from zero to DAY TO SECOND(0-5) and (7-8) (was kept at six or nine digits)", async () => {
    const b = dsBind(1, 1, 123456789)
    await conn.execute("INSERT INTO ivp (id, d0, d3, d5, d7, d8) VALUES (1, :1, :2, :3, :4, :5)", [dsBind(1, 1, 500000000), b, b, b, b])
    await conn.execute("INSERT INTO ivp (id, d0, d3, d5, d7, d8) VALUES (2, :1, :2, :3, :4, :5)", [dsBind(-1, -1, -500000000), dsBind(0, -1, -123456789), dsBind(0, 0, 999995000), dsBind(0, 0, 999999995), dsBind(0, 0, -999999995)])
    await conn.execute("UPDATE ivp SET d3 = :1 WHERE id = 1", [dsBind(0, 2, 999500000)])
    const r = await conn.execute("SELECT d0, d3, d5, d7, d8 FROM ivp ORDER BY id")
    expect(zeroes(r.rows)).toEqual([
      [ds(1, 0, 0, 2, 0), ds(0, 0, 0, 3, 0), ds(1, 0, 0, 1, 123460000), ds(1, 0, 0, 1, 123456800), ds(1, 0, 0, 1, 123456790)],
      [ds(-1, 0, 0, -2, 0), ds(0, 0, 0, -1, -123000000), ds(0, 0, 0, 1, 0), ds(0, 0, 0, 1, 0), ds(0, 0, 0, -1, 0)]
    ])
    await conn.rollback()
  })

  it("executeMany rounds each row's bound interval likewise", async () => {
    await conn.executeMany("INSERT INTO ivp (id, d3, d8) VALUES (:1, :2, :3)", [
      [10, new oracledb.IntervalDS({ days: 0, hours: 0, minutes: 0, seconds: 1, fseconds: 123500000 }), new oracledb.IntervalDS({ days: 0, hours: 0, minutes: 0, seconds: 1, fseconds: 123456785 })],
      [11, new oracledb.IntervalDS({ days: 0, hours: 0, minutes: 0, seconds: 1, fseconds: 123499999 }), null]
    ], { bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.DB_TYPE_INTERVAL_DS }, { type: oracledb.DB_TYPE_INTERVAL_DS }] })
    const r = await conn.execute("SELECT d3, d8 FROM ivp WHERE id >= 10 ORDER BY id")
    expect(zeroes(r.rows)).toEqual([
      [ds(0, 0, 0, 1, 124000000), ds(0, 0, 0, 1, 123456790)],
      [ds(0, 0, 0, 1, 123000000), null]
    ])
    await conn.rollback()
  })

  it("fails ORA-01873 for a bound value past DAY(n) / YEAR(n), leaving the table as it was", async () => {
    await expect(conn.execute("INSERT INTO ivp (id, d3) VALUES (20, :1)", [dsBind(1000, 0, 0)])).rejects.toThrow(/ORA-01873/)
    await expect(conn.execute("INSERT INTO ivp (id, d5) VALUES (20, :1)", [dsBind(-100, 0, 0)])).rejects.toThrow(/ORA-01873/)
    await expect(conn.execute("INSERT INTO ivp (id, y2) VALUES (20, :1)", [ymBind(100, 0)])).rejects.toThrow(/ORA-01873/)
    await conn.execute("INSERT INTO ivp (id, d3, d5, y2, y9) VALUES (21, :1, :2, :3, :4)", [dsBind(999, 0, 0), dsBind(-99, 0, 0), ymBind(-99, -11), ymBind(999999999, 11)])
    const r = await conn.execute("SELECT id, d3, d5, y2, y9 FROM ivp WHERE id >= 20 ORDER BY id")
    expect(zeroes(r.rows)).toEqual([[21, ds(999, 0, 0, 0, 0), ds(-99, 0, 0, 0, 0), ym(-99, -11), ym(999999999, 11)]])
    await conn.rollback()
  })
  it("an interval literal written into a narrower column is rounded to its fractional seconds and fails ORA-01873 past its leading precision (was truncated and stored whole)", async () => {
    await conn.execute("INSERT INTO ivp (id, d0, d3, y2) VALUES (30, INTERVAL '1 00:00:00.5' DAY TO SECOND(3), INTERVAL '0 00:00:01.1236' DAY TO SECOND(4), INTERVAL '99-11' YEAR(3) TO MONTH)")
    await conn.execute("INSERT INTO ivp (id, d3) VALUES (31, INTERVAL '-0 00:00:00.0005' DAY TO SECOND(4))")
    await conn.execute("UPDATE ivp SET d0 = INTERVAL '0 00:00:02.49' DAY TO SECOND(2) WHERE id = 31")
    for (const sql of [
      "INSERT INTO ivp (id, y2) VALUES (32, INTERVAL '100-0' YEAR(3) TO MONTH)",
      "INSERT INTO ivp (id, y2) VALUES (32, INTERVAL '100' YEAR(3))",
      "INSERT INTO ivp (id, d0) VALUES (32, INTERVAL '100 00:00:00' DAY(3) TO SECOND)",
      "INSERT INTO ivp (id, d3) SELECT 32, INTERVAL '1000' DAY(4) FROM dual",
      "UPDATE ivp SET y2 = INTERVAL '123-1' YEAR(3) TO MONTH WHERE id = 30"
    ])
      await expect(conn.execute(sql), sql).rejects.toThrow(/ORA-01873/)
    const r = await conn.execute("SELECT id, d0, d3, y2 FROM ivp WHERE id >= 30 ORDER BY id")
    expect(zeroes(r.rows)).toEqual([
      [30, ds(1, 0, 0, 1, 0), ds(0, 0, 0, 1, 124000000), ym(99, 11)],
      [31, ds(0, 0, 0, 2, 0), ds(0, 0, 0, 0, -1000000), null]
    ])
    await conn.rollback()
  })
})
