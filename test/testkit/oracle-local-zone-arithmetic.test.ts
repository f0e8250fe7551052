import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, ds, intervalRows as zeroes, openConnection, oracledb } from "./oracle/helpers.ts"

// TIMESTAMP WITH LOCAL TIME ZONE ± INTERVAL is a TIMESTAMP WITH LOCAL TIME ZONE, and the difference of two such
// values an INTERVAL DAY TO SECOND (SQL Language Reference, "Datetime/Interval Arithmetic", the matrix of operand
// and result types: https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Datetime-Interval-Arithmetic.html);
// a LOCAL TIME ZONE value is shown in the session time zone (Globalization Support Guide, "TIMESTAMP WITH LOCAL
// TIME ZONE Data Type").
const typeNames = (r: { metaData?: ReadonlyArray<{ dbTypeName?: string }> }) => (r.metaData ?? []).map((m) => m.dbTypeName)
const LTZ = "TIMESTAMP WITH LOCAL TIME ZONE"
const iso = (rows: ReadonlyArray<ReadonlyArray<unknown>> | undefined) => (rows ?? []).map((r) => r.map((v) => (v instanceof Date ? v.toISOString() : v)))

describe("Oracle test server: LOCAL TIME ZONE arithmetic (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("ALTER SESSION SET TIME_ZONE = 'America/New_York'")
    await conn.execute(
      "CREATE TABLE ltza (id NUMBER, l0 TIMESTAMP(0) WITH LOCAL TIME ZONE, l TIMESTAMP WITH LOCAL TIME ZONE, l9 TIMESTAMP(9) WITH LOCAL TIME ZONE, d9 INTERVAL DAY(9) TO SECOND(9), d6 INTERVAL DAY TO SECOND, y INTERVAL YEAR TO MONTH)"
    )
    await conn.execute(
      "INSERT INTO ltza VALUES (1, TIMESTAMP '2024-01-01 00:00:00 +00:00', TIMESTAMP '2024-01-01 00:00:00.5 +00:00', TIMESTAMP '2024-01-01 00:00:00.123456789 +00:00', INTERVAL '1 00:00:00.000000001' DAY(9) TO SECOND(9), INTERVAL '0 01:00:00.25' DAY TO SECOND, INTERVAL '0-6' YEAR TO MONTH)"
    )
  })
  afterAll(() => closeConnection({ server, conn }))

  it("LOCAL TIME ZONE ± an interval literal, column or bind is a LOCAL TIME ZONE value (was TIMESTAMP WITH TIME ZONE at +00:00)", async () => {
    const bind = { val: new oracledb.IntervalDS({ days: 0, hours: 2, minutes: 0, seconds: 0, fseconds: 0 }), type: oracledb.DB_TYPE_INTERVAL_DS }
    const r = await conn.execute(
      "SELECT l + INTERVAL '1' HOUR, l0 - INTERVAL '1' DAY, l9 + d9, l - d6, INTERVAL '1' HOUR + l0, l + y, l9 + :1, CAST(TIMESTAMP '2024-07-01 00:00:00 +00:00' AS TIMESTAMP WITH LOCAL TIME ZONE) + INTERVAL '1' DAY FROM ltza",
      [bind]
    )
    expect(typeNames(r)).toEqual([LTZ, LTZ, LTZ, LTZ, LTZ, LTZ, LTZ, LTZ])
    expect(JSON.stringify(iso(r.rows))).toEqual(JSON.stringify([[
      "2024-01-01T01:00:00.500Z", "2023-12-31T00:00:00.000Z", "2024-01-02T00:00:00.123Z", "2023-12-31T23:00:00.250Z",
      "2024-01-01T01:00:00.000Z", "2024-07-01T00:00:00.500Z", "2024-01-01T02:00:00.123Z", "2024-07-02T00:00:00.000Z"
    ]]))
  })

  it("TO_CHAR of LOCAL TIME ZONE ± interval shows the session time zone, every digit kept", async () => {
    const f = "'YYYY-MM-DD HH24:MI:SS.FF9 TZR'"
    const r = await conn.execute(`SELECT TO_CHAR(l + INTERVAL '1' HOUR, ${f}), TO_CHAR(l9 + d9, ${f}), TO_CHAR(l0 - d6, ${f}) FROM ltza`)
    expect(r.rows).toEqual([[
      "2023-12-31 20:00:00.500000000 America/New_York",
      "2024-01-01 19:00:00.123456790 America/New_York",
      "2023-12-31 17:59:59.750000000 America/New_York"
    ]])
  })

  it("LOCAL TIME ZONE - LOCAL TIME ZONE is an INTERVAL DAY TO SECOND (was NUMBER)", async () => {
    const r = await conn.execute("SELECT l - l0, l0 - l, (l + INTERVAL '1' DAY) - l0 FROM ltza")
    expect(typeNames(r)).toEqual(["INTERVAL DAY TO SECOND", "INTERVAL DAY TO SECOND", "INTERVAL DAY TO SECOND"])
    expect(zeroes(r.rows)).toEqual([[ds(0, 0, 0, 0, 500000000), ds(0, 0, 0, 0, -500000000), ds(1, 0, 0, 0, 500000000)]])
  })
})
