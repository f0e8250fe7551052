import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// "Datetime Format Elements", FF: "If you do not specify a digit, then Oracle Database uses the precision specified for
// the datetime data type or the data type's default precision" (SQL Language Reference); a CAST to TIMESTAMP(p) gives a
// value of that precision, its fraction rounded to p digits (testkit/oracle/fraction-precision.ts on the rounding).
describe("Oracle test server: FF prints the precision a TIMESTAMP is described with; CAST to TIMESTAMP(p) applies it (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE TABLE tfp (a TIMESTAMP(0), b TIMESTAMP(3), c TIMESTAMP(9))`)
    await conn.execute(`INSERT INTO tfp VALUES (TIMESTAMP '2024-01-01 10:00:05', TIMESTAMP '2024-01-01 10:00:00.123', TIMESTAMP '2024-01-01 10:00:00.123456789')`)
  })
  afterAll(() => closeConnection({ server, conn }))

  it("TO_CHAR's FF of a column prints its declared digits", async () => {
    const r = await conn.execute(`SELECT TO_CHAR(a, 'HH24:MI:SS.FF'), TO_CHAR(b, 'SS.FF'), TO_CHAR(c, 'SS.FF'), TO_CHAR(b, 'SS.FF5 "FF"') FROM tfp`)
    expect(r.rows).toEqual([["10:00:05.", "00.123", "00.123456789", "00.12300 FF"]])
  })

  it("CAST to TIMESTAMP(p) rounds the fraction to p digits, and FF prints p digits", async () => {
    const r = await conn.execute(
      `SELECT TO_CHAR(CAST(TIMESTAMP '2024-01-01 10:00:00.56' AS TIMESTAMP(1)), 'SS.FF'), ` +
        `TO_CHAR(CAST(TIMESTAMP '2024-01-01 10:00:00.7' AS TIMESTAMP(0)), 'HH24:MI:SS'), ` +
        `TO_CHAR(CAST(TIMESTAMP '2024-12-31 23:59:59.9996' AS TIMESTAMP(3)), 'YYYY-MM-DD HH24:MI:SS.FF'), ` +
        `TO_CHAR(CAST(TIMESTAMP '1960-01-01 10:00:00.25' AS TIMESTAMP(1)), 'SS.FF'), ` +
        `CAST(TIMESTAMP '2024-01-01 10:00:00.5' AS TIMESTAMP(2)) || '', TO_CHAR(CAST(TIMESTAMP '2024-01-01 10:00:00.5' AS TIMESTAMP(2))) FROM dual`
    )
    expect(r.rows).toEqual([["00.6", "10:00:01", "2025-01-01 00:00:00.000", "00.3", "01-JAN-24 10.00.00.50 AM", "01-JAN-24 10.00.00.50 AM"]])
    const fetched = await conn.execute(`SELECT CAST(TIMESTAMP '2024-01-01 10:00:00.7' AS TIMESTAMP(0)) FROM dual`)
    expect((fetched.rows[0][0] as Date).getSeconds()).toBe(1)
  })
})
