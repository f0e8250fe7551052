import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, intervalRows as zeroes, openConnection, oraCode } from "./oracle/helpers.ts"

// INTERVAL YEAR(9) TO MONTH values past 2^31 months (up to 999999999-11, the type's range: SQL Language Reference,
// "Interval Literals") and interval operands holding other calls, through the raw node-oracledb client. Datetime
// arithmetic whose result falls outside years -4712..9999 fails with ORA-01841 "(full) year must be between -4713 and
// +9999, and not be 0" (Database Error Messages, ORA-01841); arithmetic between intervals keeps every digit
// ("Datetime/Interval Arithmetic").
describe("Oracle test server: wide YEAR(9) TO MONTH values and interval operands holding calls (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE wide (id NUMBER, y9 INTERVAL YEAR(9) TO MONTH, d9 INTERVAL DAY(9) TO SECOND(9), dt DATE)")
    await conn.execute("INSERT INTO wide VALUES (1, INTERVAL '999999999-11' YEAR(9) TO MONTH, INTERVAL '0 00:00:01.000000001' DAY(9) TO SECOND(9), DATE '2024-01-31')")
    await conn.execute("INSERT INTO wide VALUES (2, INTERVAL '-999999999-11' YEAR(9) TO MONTH, INTERVAL '0 00:00:02' DAY(9) TO SECOND(9), DATE '2024-01-31')")
    await conn.execute("INSERT INTO wide VALUES (3, INTERVAL '1-0' YEAR(9) TO MONTH, INTERVAL '0 00:00:00.5' DAY(9) TO SECOND(9), DATE '2024-01-31')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const rows = async (sql: string) => (await conn.execute(sql)).rows

  it("values past 2^31 months are read, compared, ordered, negated and added to other intervals on every digit", async () => {
    expect(await rows("SELECT TO_CHAR(y9) FROM wide ORDER BY y9")).toEqual([["-999999999-11"], ["+000000001-00"], ["+999999999-11"]])
    expect(await rows("SELECT id FROM wide WHERE y9 > INTERVAL '2147483647' MONTH ORDER BY id")).toEqual([[1]])
    expect(await rows("SELECT TO_CHAR(-y9), TO_CHAR(y9 - INTERVAL '999999999-10' YEAR(9) TO MONTH) FROM wide WHERE id = 1")).toEqual([["-999999999-11", "+000000000-01"]])
    expect(await rows("SELECT TO_CHAR(MAX(y9)), TO_CHAR(MIN(y9)) FROM wide")).toEqual([["+999999999-11", "-999999999-11"]])
    expect(await rows("SELECT EXTRACT(YEAR FROM y9), EXTRACT(MONTH FROM y9) FROM wide WHERE id = 1")).toEqual([[999999999, 11]])
  })

  it("datetime ± such a value fails with ORA-01841 (the result is out of range), a value in range is added", async () => {
    expect(await rows("SELECT dt + y9 FROM wide WHERE id = 3")).toEqual([[new Date(2025, 0, 31)]])
    for (const sql of ["SELECT dt + y9 FROM wide WHERE id = 1", "SELECT dt - y9 FROM wide WHERE id = 2", "SELECT dt + INTERVAL '999999999-11' YEAR(9) TO MONTH FROM wide WHERE id = 3"]) {
      const e = await failure(() => conn.execute(sql))
      expect([sql, oraCode(e)]).toEqual([sql, "ORA-01841"])
      expect(e.message).toContain("between -4713 and +9999")
    }
  })

  it("an operand holding NUMTODSINTERVAL, NUMTOYMINTERVAL or TO_DSINTERVAL is read as an interval", async () => {
    expect(await rows("SELECT id FROM wide WHERE NUMTODSINTERVAL(1, 'SECOND') + d9 > INTERVAL '2' SECOND ORDER BY id")).toEqual([[1], [2]])
    expect(await rows("SELECT TO_CHAR(NUMTODSINTERVAL(1, 'SECOND') + d9) FROM wide WHERE id = 1")).toEqual([["+000000000 00:00:02.000000001"]])
    expect(await rows("SELECT TO_CHAR(d9 + TO_DSINTERVAL('0 00:00:01') * 2) FROM wide WHERE id = 1")).toEqual([["+000000000 00:00:03.000000001"]])
    // 999999999-11 plus a year passes YEAR(9): ORA-01873, as any interval arithmetic past the type's range
    expect(oraCode(await failure(() => conn.execute("SELECT id FROM wide WHERE y9 + NUMTOYMINTERVAL(1, 'YEAR') = INTERVAL '2' YEAR")))).toBe("ORA-01873")
    expect(await rows("SELECT id FROM wide WHERE id = 3 AND y9 + NUMTOYMINTERVAL(1, 'YEAR') = INTERVAL '2' YEAR")).toEqual([[3]])
    expect(await rows("SELECT id FROM wide WHERE id = 3 AND y9 + NUMTOYMINTERVAL(id - 2, 'year') = INTERVAL '2' YEAR")).toEqual([[3]])
    expect(await rows("SELECT id FROM wide WHERE NUMTODSINTERVAL(id, 'second') + d9 > INTERVAL '3' SECOND ORDER BY id")).toEqual([[2], [3]])
    // described as the interval types
    const r = await conn.execute("SELECT NUMTODSINTERVAL(1.5, 'MINUTE'), NUMTOYMINTERVAL(-1.5, 'YEAR'), NUMTODSINTERVAL(-0.000000001, 'SECOND') FROM dual")
    expect(zeroes(r.rows)).toEqual(zeroes([[{ days: 0, hours: 0, minutes: 1, seconds: 30, fseconds: 0 }, { years: -1, months: -6 }, { days: 0, hours: 0, minutes: 0, seconds: 0, fseconds: -1 }]]))
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["INTERVAL DAY TO SECOND", "INTERVAL YEAR TO MONTH", "INTERVAL DAY TO SECOND"])
  })
})
