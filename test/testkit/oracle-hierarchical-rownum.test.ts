import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, numbersAsText, openConnection } from "./oracle/helpers.ts"

// ROWNUM is a NUMBER ("ROWNUM Pseudocolumn", SQL Language Reference): under CONNECT BY, as elsewhere, it divides on
// NUMBER's 40 digits and is described as NUMBER, as LEVEL is (test/testkit/oracle-hierarchical.test.ts).
describe("Oracle test server: ROWNUM of a hierarchical query is a NUMBER (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE TABLE hrn (id NUMBER, p NUMBER)`)
    await conn.execute(`INSERT INTO hrn VALUES (1, NULL)`)
    await conn.execute(`INSERT INTO hrn VALUES (2, 1)`)
  })
  afterAll(() => closeConnection({ server, conn }))

  it("divides on every digit and is described as NUMBER", async () => {
    const r = await conn.execute(`SELECT ROWNUM, ROWNUM / 3 FROM hrn START WITH p IS NULL CONNECT BY PRIOR id = p`, [], numbersAsText)
    expect(r.rows).toEqual([["1", ".3333333333333333333333333333333333333333"], ["2", ".6666666666666666666666666666666666666667"]])
    expect(r.metaData.map((m: { name: string; dbTypeName: string; scale: number }) => [m.name, m.dbTypeName, m.scale])).toEqual([["ROWNUM", "NUMBER", -127], ["ROWNUM/3", "NUMBER", 0]])
    const g = await conn.execute(`SELECT ROWNUM r FROM dual CONNECT BY LEVEL <= 12 ORDER BY r DESC`)
    expect(g.rows.map((row: Array<number>) => row[0])).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
  })
})
