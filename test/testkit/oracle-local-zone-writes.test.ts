import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

// TIMESTAMP WITH LOCAL TIME ZONE ± INTERVAL is a TIMESTAMP WITH LOCAL TIME ZONE value wherever it is computed (SQL
// Language Reference, "Datetime/Interval Arithmetic", the matrix of operand and result types): on a LOCAL TIME ZONE
// bind and in INSERT / UPDATE expressions. A LOCAL TIME ZONE value is the instant, shown in the
// session time zone (Globalization Support Guide, "TIMESTAMP WITH LOCAL TIME ZONE Data Type").
const LTZ = "TIMESTAMP WITH LOCAL TIME ZONE"
const F = "'YYYY-MM-DD HH24:MI:SS.FF9 TZR'"

describe("Oracle test server: LOCAL TIME ZONE arithmetic on binds and in DML (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("ALTER SESSION SET TIME_ZONE = 'America/New_York'")
    await conn.execute("CREATE TABLE ltzw (id NUMBER, l TIMESTAMP WITH LOCAL TIME ZONE, l9 TIMESTAMP(9) WITH LOCAL TIME ZONE, d9 INTERVAL DAY(9) TO SECOND(9))")
    await conn.execute("INSERT INTO ltzw VALUES (1, TIMESTAMP '2024-01-01 00:00:00.5 +00:00', TIMESTAMP '2024-01-01 00:00:00.123456789 +00:00', INTERVAL '1 00:00:00.000000001' DAY(9) TO SECOND(9))")
  })
  afterAll(() => closeConnection({ server, conn }))

  const ltzBind = (iso: string) => ({ val: new Date(iso), type: oracledb.DB_TYPE_TIMESTAMP_LTZ })

  it("a LOCAL TIME ZONE bind ± an interval is a LOCAL TIME ZONE value", async () => {
    const r = await conn.execute(`SELECT :1 + INTERVAL '1' HOUR, TO_CHAR(:2 + INTERVAL '1' DAY, ${F}) FROM dual`, [ltzBind("2024-03-01T12:00:00Z"), ltzBind("2024-03-01T12:00:00Z")])
    expect(r.metaData[0]).toMatchObject({ dbTypeName: LTZ })
    expect((r.rows[0][0] as Date).toISOString()).toBe("2024-03-01T13:00:00.000Z")
    expect(r.rows[0][1]).toBe("2024-03-02 07:00:00.000000000 America/New_York")
  })

  it("INSERT and UPDATE write LOCAL TIME ZONE ± interval expressions as the instant they denote", async () => {
    await conn.execute(`INSERT INTO ltzw (id, l, l9) VALUES (2, :1 + INTERVAL '1' HOUR, (SELECT l9 + d9 FROM ltzw WHERE id = 1))`, [ltzBind("2024-03-01T12:00:00Z")])
    await conn.execute(`UPDATE ltzw SET l = l + INTERVAL '30' MINUTE, l9 = l9 + d9 WHERE id = 1`)
    const r = await conn.execute(`SELECT id, TO_CHAR(l, ${F}), TO_CHAR(l9, ${F}) FROM ltzw ORDER BY id`)
    expect(r.rows).toEqual([
      [1, "2023-12-31 19:30:00.500000000 America/New_York", "2024-01-01 19:00:00.123456790 America/New_York"],
      [2, "2024-03-01 08:00:00.000000000 America/New_York", "2024-01-01 19:00:00.123456790 America/New_York"]
    ])
    await conn.rollback()
  })
})
