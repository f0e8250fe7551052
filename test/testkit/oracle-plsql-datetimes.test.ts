import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

// PL/SQL keeps nine fraction digits in its TIMESTAMP and INTERVAL DAY TO SECOND types and computes NUMBER in
// decimal (PL/SQL Language Reference, "PL/SQL Data Types"); `date + n` adds n days ("Datetime/Interval Arithmetic",
// SQL Language Reference, https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Datetime-Interval-Arithmetic.html).
describe("Oracle test server: PL/SQL datetimes and NUMBER quotients (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("adds days to a DATE variable and to a DATE bind inside a block (was refused)", async () => {
    const r = await conn.execute(
      `DECLARE
         d DATE := DATE '2024-02-28';
       BEGIN
         :next := d + 2;
         :back := :start - 1;
         :half := d + 0.5;
       END;`,
      {
        next: { dir: oracledb.BIND_OUT, type: oracledb.DB_TYPE_DATE },
        back: { dir: oracledb.BIND_OUT, type: oracledb.DB_TYPE_DATE },
        start: { val: new Date(Date.UTC(2024, 2, 1, 12, 0, 0)), type: oracledb.DB_TYPE_DATE },
        half: { dir: oracledb.BIND_OUT, type: oracledb.DB_TYPE_DATE }
      }
    )
    const out = r.outBinds as { next: Date; back: Date; half: Date }
    const text = (d: Date) => `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()} ${d.getHours()}:${d.getMinutes()}`
    expect([text(out.next), text(out.back), text(out.half)]).toEqual(["2024-3-1 0:0", "2024-2-29 12:0", "2024-2-28 12:0"])
  })

  it("divides PL/SQL NUMBER variables on every digit (was a double)", async () => {
    const r = await conn.execute(
      `DECLARE
         a NUMBER := 1;
         b NUMBER := 3;
         q NUMBER;
       BEGIN
         q := a / b;
         :q := q;
         :direct := a / b;
         :scaled := (a + 1) / (b * 7);
       END;`,
      {
        q: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 60 },
        direct: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 60 },
        scaled: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 60 }
      }
    )
    const third = `.${"3".repeat(40)}`
    expect(r.outBinds).toEqual({ q: third, direct: third, scaled: ".095238095238095238095238095238095238095238".slice(0, 41) })
  })

  it("keeps nine fraction digits of TIMESTAMP(9) literals and IN OUT TIMESTAMP / INTERVAL binds (was microseconds)", async () => {
    const r = await conn.execute(
      `DECLARE
         t TIMESTAMP(9) := TIMESTAMP '2024-05-06 07:08:09.123456789';
       BEGIN
         :t := TO_CHAR(t, 'YYYY-MM-DD HH24:MI:SS.FF9');
         :ds := :ds + INTERVAL '1' DAY;
       END;`,
      {
        t: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 60 },
        ds: { dir: oracledb.BIND_INOUT, type: oracledb.DB_TYPE_INTERVAL_DS, val: new oracledb.IntervalDS({ days: 0, hours: 1, minutes: 2, seconds: 3, fseconds: 123456789 }) }
      }
    )
    const out = r.outBinds as { t: string; ds: object }
    expect(out.t).toBe("2024-05-06 07:08:09.123456789")
    expect({ ...out.ds }).toEqual({ days: 1, hours: 1, minutes: 2, seconds: 3, fseconds: 123456789 })
  })
})
