import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const typesOf = (r: { metaData: Array<{ dbTypeName: string }> }) => r.metaData.map((m) => m.dbTypeName)

// A subquery's or WITH block's BINARY_DOUBLE / BINARY_FLOAT item keeps its type in the enclosing query, so dividing it
// by zero follows IEEE 754 ("IEEE 754 exceptions are not raised", Database Concepts, "Floating-Point Numbers": ±Inf,
// NaN), while a NUMBER divided by zero raises ORA-01476 (SQL Language Reference, "Numeric Precedence").
describe("Oracle test server: BINARY_DOUBLE / BINARY_FLOAT values passed on by subqueries, through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE sb (id NUMBER(3), v NUMBER, bd BINARY_DOUBLE, bf BINARY_FLOAT)")
    await conn.execute("INSERT INTO sb VALUES (1, 2.5, 0, 0)")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("divides a subquery's aliased BINARY_DOUBLE / BINARY_FLOAT item by zero into Inf and -Inf, typed as the item", async () => {
    const r = await conn.execute("SELECT 1 / x, -1 / y FROM (SELECT bd x, bf * 2 y FROM sb)")
    expect(r.rows).toEqual([[Infinity, -Infinity]])
    expect(typesOf(r)).toEqual(["BINARY_DOUBLE", "BINARY_FLOAT"])
  })

  it("keeps the type through SELECT * of nested subqueries and through WITH blocks", async () => {
    expect((await conn.execute("SELECT 1 / x FROM (SELECT * FROM (SELECT bd x FROM sb))")).rows).toEqual([[Infinity]])
    expect((await conn.execute("WITH w AS (SELECT bd AS z FROM sb) SELECT z / z FROM w")).rows[0][0]).toBeNaN()
  })

  it("still divides a subquery's NUMBER item as NUMBER: ORA-01476 for zero", async () => {
    expect(oraCode(await failure(() => conn.execute("SELECT 1 / x FROM (SELECT v - 2.5 x FROM sb)")))).toBe("ORA-01476")
    expect(oraCode(await failure(() => conn.execute("SELECT 1 / x FROM (SELECT COUNT(bd) x FROM sb WHERE id > 5)")))).toBe("ORA-01476")
  })
})
