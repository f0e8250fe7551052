import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection } from "./oracle/helpers.ts"

// ROWNUM is a NUMBER; a text compared with a number is converted to a number (SQL Language Reference, "Data Type
// Comparison Rules", "Implicit Data Conversion"), which fails ORA-01722 when it is not one. Both failed ORA-03001.
describe("Oracle test server: ROWNUM compared with a text (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE rnt (id NUMBER)")
    await conn.executeMany("INSERT INTO rnt VALUES (:1)", [[1], [2], [3]])
  })
  afterAll(() => closeConnection({ server, conn }))

  it("WHERE ROWNUM = 'a' fails ORA-01722", async () => {
    expect((await failure(() => conn.execute("SELECT * FROM rnt WHERE ROWNUM = 'a'"))).message).toMatch(/^ORA-01722: invalid number/)
  })

  it("WHERE ROWNUM <= '2' limits as the number it is", async () => {
    const r = await conn.execute("SELECT id FROM rnt WHERE ROWNUM <= ' 2'")
    expect(r.rows?.length).toBe(2)
  })
})
