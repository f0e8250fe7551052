import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, oracledb, openConnection } from "./oracle/helpers.ts"

// TIMESTAMP WITH TIME ZONE columns resolved where Oracle resolves them (raw node-oracledb): a plain TIMESTAMP column of
// the same name in another table of the statement stays a TIMESTAMP. Oracle compares a TIMESTAMP with a TIMESTAMP WITH
// TIME ZONE in the session time zone and such values by their UTC instants (Database Globalization Support Guide,
// "Datetime Comparisons").
describe("Oracle test server: zoned columns resolved per table", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const rows = async (sql: string) => (await conn.execute(sql)).rows
  const typesOf = (r: { metaData: Array<{ dbType: unknown }> }) => r.metaData.map((m) => m.dbType)
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE zr_z (id NUMBER, t TIMESTAMP WITH TIME ZONE)")
    await conn.execute("CREATE TABLE zr_p (id NUMBER, t TIMESTAMP)")
    // one instant, 10:00 UTC, in two zones
    await conn.execute("INSERT INTO zr_z VALUES (1, TIMESTAMP '2024-01-01 10:00:00 +00:00')")
    await conn.execute("INSERT INTO zr_z VALUES (2, TIMESTAMP '2024-01-01 05:00:00 -05:00')")
    await conn.execute("INSERT INTO zr_p VALUES (1, TIMESTAMP '2024-01-01 10:00:00')")
    await conn.execute("INSERT INTO zr_p VALUES (2, TIMESTAMP '2024-01-01 12:00:00')")
    await conn.commit()
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+02:00'")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("CURRENT_TIMESTAMP among a zoned DECODE's or NVL2's results is in the session time zone (was +00:00, or ORA-00932 when first)", async () => {
    expect(await rows("SELECT TO_CHAR(DECODE(id, 2, t, CURRENT_TIMESTAMP), 'TZR'), TO_CHAR(DECODE(id, 1, CURRENT_TIMESTAMP, t), 'TZR'), TO_CHAR(NVL2(t, CURRENT_TIMESTAMP, t), 'TZR') FROM zr_z WHERE id = 1")).toEqual([["+02:00", "+02:00", "+02:00"]])
    const r = await conn.execute("SELECT DECODE(id, 1, CURRENT_TIMESTAMP, t), DECODE(id, 1, CURRENT_TIMESTAMP, t) FROM zr_z ORDER BY id")
    expect(typesOf(r)).toEqual([oracledb.DB_TYPE_TIMESTAMP_TZ, oracledb.DB_TYPE_TIMESTAMP_TZ])
    expect(r.rows[1]).toEqual([new Date("2024-01-01T10:00:00Z"), new Date("2024-01-01T10:00:00Z")])
  })
})
