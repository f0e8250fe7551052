import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// MIN and MAX return their argument's type (SQL Language Reference, "MIN" / "MAX": "returns ... the same data type as
// expr"), so MIN / MAX of a NUMBER(5,-2) column are described as NUMBER(5,-2), not as the column's engine storage.
describe("Oracle test server: MIN / MAX of a NUMBER(p,-s) column described with its type (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE TABLE nse (k NUMBER(5,-2), m NUMBER(2,-3))`)
    await conn.execute(`INSERT INTO nse VALUES (7456123, 12345)`)
    await conn.execute(`INSERT INTO nse VALUES (150, 999)`)
  })
  afterAll(() => closeConnection({ server, conn }))

  it("is described as the column's NUMBER(p,-s) and returns its values", async () => {
    const r = await conn.execute(`SELECT MIN(k), MAX(n.k) top, MAX(m) FROM nse n`)
    expect(r.metaData.map((m: { precision: number; scale: number }) => [m.precision, m.scale])).toEqual([[5, -2], [5, -2], [2, -3]])
    expect(r.rows).toEqual([[200, 7456100, 12000]])
  })
})
