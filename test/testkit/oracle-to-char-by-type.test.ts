import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// TO_CHAR is TO_CHAR (number) or TO_CHAR (datetime) by its argument's type (SQL Language Reference, "TO_CHAR (number)":
// "n can be of type NUMBER, BINARY_FLOAT, or BINARY_DOUBLE"; "TO_CHAR (datetime)"), not by the model's letters: a
// number with a model that is no number model is ORA-01481 "invalid number format model", a datetime with one that is
// no datetime model ORA-01821 "date format not recognized" (Database Error Messages).
describe("Oracle test server: TO_CHAR's model read by the argument's type (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE TABLE tcbt (id NUMBER(3), d DATE)`)
    await conn.execute(`INSERT INTO tcbt VALUES (7, DATE '2024-01-05')`)
  })
  afterAll(() => closeConnection({ server, conn }))

  it("formats a subquery's number and date columns by their types", async () => {
    const r = await conn.execute(
      `SELECT TO_CHAR(n, 'FM999.90'), TO_CHAR(c, 'RN'), TO_CHAR(d, 'DD.MM.YYYY') FROM (SELECT id * 2 n, COUNT(*) OVER () + 13 c, d FROM tcbt)`
    )
    expect(r.rows).toEqual([["14.00", "            XIV", "05.01.2024"]])
  })

  it("a number with a datetime model is ORA-01481, a date with a number model ORA-01821 (RN, the Roman numeral)", async () => {
    expect(oraCode(await failure(() => conn.execute(`SELECT TO_CHAR(n, 'DD') FROM (SELECT COUNT(*) n FROM tcbt)`)))).toBe("ORA-01481")
    expect(oraCode(await failure(() => conn.execute(`SELECT TO_CHAR(x, 'RN') FROM (SELECT MAX(d) x FROM tcbt)`)))).toBe("ORA-01821")
  })
})
