/**
 * An interval literal selected on its own is an interval (SQL Language Reference, "Interval Literals": the literal
 * is of type INTERVAL YEAR TO MONTH / DAY TO SECOND), also from a table whose interval columns of its kind are all
 * INTERVAL DAY(9) TO SECOND(9) / YEAR(9) TO MONTH (held in exact storage by the server, where the literal is
 * written in that storage too). Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, ds, intervalRows, openConnection, ym } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: an interval literal as a select item", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE ivl_exact (id NUMBER, d9 INTERVAL DAY(9) TO SECOND(9), y9 INTERVAL YEAR(9) TO MONTH)")
    await conn.execute("INSERT INTO ivl_exact VALUES (1, INTERVAL '1' SECOND, INTERVAL '1' MONTH)")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("is sent as an interval from a table of exact interval columns (was NUMBER)", async () => {
    const r = await conn.execute("SELECT INTERVAL '1' SECOND, INTERVAL '1-2' YEAR TO MONTH AS m, INTERVAL '0 00:00:00.123456789' DAY TO SECOND(9), id FROM ivl_exact")
    expect(r.metaData?.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["INTERVAL DAY TO SECOND", "INTERVAL YEAR TO MONTH", "INTERVAL DAY TO SECOND", "NUMBER"])
    expect(r.metaData?.map((m: { name: string }) => m.name).filter((_: string, k: number) => k % 2 === 1)).toEqual(["M", "ID"])
    expect(intervalRows(r.rows ?? [])).toEqual([[ds(0, 0, 0, 1, 0), ym(1, 2), ds(0, 0, 0, 0, 123456789), 1]])
    const distinct = await conn.execute("SELECT DISTINCT INTERVAL '-2' DAY FROM ivl_exact")
    expect(intervalRows(distinct.rows ?? [])).toEqual([[ds(-2, 0, 0, 0, 0)]])
  })

  it("keeps comparing and adding in exact storage beside it", async () => {
    const r = await conn.execute("SELECT INTERVAL '1' SECOND, d9 + INTERVAL '1' SECOND FROM ivl_exact WHERE d9 = INTERVAL '1' SECOND")
    expect(intervalRows(r.rows ?? [])).toEqual([[ds(0, 0, 0, 1, 0), ds(0, 0, 0, 2, 0)]])
  })
})
