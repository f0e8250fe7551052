/**
 * LENGTH of a number: Oracle converts a NUMBER argument of a character function to VARCHAR2 implicitly, as TO_CHAR
 * prints it (SQL Language Reference, "LENGTH": "char can be any of the data types CHAR, VARCHAR2, NCHAR, NVARCHAR2,
 * CLOB, or NCLOB"; "Implicit Data Conversion": NUMBER converts to VARCHAR2), so LENGTH(123) is 3 and LENGTH(-0.5)
 * is 3 ('-.5'). Raw node-oracledb against the test server (it answered ORA-00932).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: LENGTH of a number", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE ln (id NUMBER PRIMARY KEY, v NUMBER, n NUMBER(6,2), i NUMBER(5), s VARCHAR2(10))")
    await conn.execute("INSERT INTO ln VALUES (1, 123, 12.5, -42, 'abc')")
    await conn.execute("INSERT INTO ln VALUES (2, 0.25, -0.5, 7, NULL)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("counts the characters of a number literal as TO_CHAR prints it", async () => {
    const r = await conn.execute("SELECT LENGTH(123), LENGTH(12.5), LENGTH(-0.5), LENGTH(1000) FROM dual")
    expect(r.rows).toEqual([[3, 4, 3, 4]])
  })

  it("counts the characters of NUMBER columns, with and without precision, and of arithmetic on them", async () => {
    const r = await conn.execute("SELECT LENGTH(v), LENGTH(n), LENGTH(i), LENGTH(v * 2), LENGTH(s) FROM ln ORDER BY id")
    // 123 / 12.5 / -42 / 246 / 'abc'; .25 / -.5 / 7 / .5 / NULL
    expect(r.rows).toEqual([
      [3, 4, 3, 3, 3],
      [3, 3, 1, 2, null]
    ])
  })
})
