import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, oracledb, withServer } from "./oracle/helpers.ts"

/** The type names node-oracledb reads from a query's column descriptions. */
const typesOf = (r: { metaData: Array<{ dbTypeName: string }> }) => r.metaData.map((m) => m.dbTypeName)

describe("Oracle test server: BINARY_DOUBLE / BINARY_FLOAT semantics", () => {
  let server: OracleTestServerHandle
  let c: Conn
  beforeAll(async () => {
    const s = await withServer()
    server = s.server
    c = await s.connect()
    await c.execute("CREATE TABLE fp (id NUMBER, n NUMBER, bd BINARY_DOUBLE, bf BINARY_FLOAT)")
    await c.executeMany("INSERT INTO fp VALUES (:1, :2, :3, :4)", [
      [1, 0, 0, 0],
      [2, 4, 2.5, 1.5]
    ])
    await c.commit()
  })
  afterAll(async () => {
    await c?.close()
    await server?.close()
  })

  // "IEEE 754 exceptions are not raised" for native floating-point arithmetic (Database Concepts, "Floating-Point
  // Numbers"): x/0 is ±Inf, 0/0 NaN; NUMBER division by zero stays ORA-01476.
  it("divides native floats by zero into Inf, -Inf and NaN, while NUMBER division by zero raises ORA-01476", async () => {
    const r = await c.execute("SELECT 1/bd, -1/bd, bd/bd, 1/bf, 1f/0, 1d/0, CAST(1 AS BINARY_DOUBLE)/0 FROM fp WHERE id = 1")
    expect(r.rows[0].slice(0, 2)).toEqual([Infinity, -Infinity])
    expect(r.rows[0][2]).toBeNaN()
    expect(r.rows[0].slice(3)).toEqual([Infinity, Infinity, Infinity, Infinity])
    expect(typesOf(r)).toEqual(["BINARY_DOUBLE", "BINARY_DOUBLE", "BINARY_DOUBLE", "BINARY_FLOAT", "BINARY_FLOAT", "BINARY_DOUBLE", "BINARY_DOUBLE"])
    expect(oraCode(await failure(() => c.execute("SELECT 1/n FROM fp WHERE id = 1")))).toBe("ORA-01476")
    expect(oraCode(await failure(() => c.execute("SELECT 10/(n-4) FROM fp")))).toBe("ORA-01476")
    // a stored infinity comes back as one
    await c.execute("UPDATE fp SET bd = 1/bd WHERE id = 1")
    expect((await c.execute("SELECT bd FROM fp WHERE id = 1")).rows).toEqual([[Infinity]])
    await c.rollback()
  })

  // SUM / AVG return "the same data type as the numeric data type of the argument" (SQL Language Reference, SUM:
  // https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/SUM.html); arithmetic follows numeric
  // precedence (BINARY_DOUBLE, then BINARY_FLOAT, then NUMBER).
  it("describes SUM/AVG of native floats, arithmetic with them and f/d literals with the native type", async () => {
    const sums = await c.execute("SELECT SUM(bd), AVG(bd), SUM(bf), COUNT(bd), SUM(n) FROM fp")
    expect(typesOf(sums)).toEqual(["BINARY_DOUBLE", "BINARY_DOUBLE", "BINARY_FLOAT", "NUMBER", "NUMBER"])
    expect(sums.rows).toEqual([[2.5, 1.25, 1.5, 2, 4]])
    const r = await c.execute("SELECT bd + 1, bf * 2, :1 + 1, 1.5f, 2.5d, n + 1 FROM fp WHERE id = 2", [{ val: 1.5, type: oracledb.DB_TYPE_BINARY_DOUBLE }])
    expect(typesOf(r)).toEqual(["BINARY_DOUBLE", "BINARY_FLOAT", "BINARY_DOUBLE", "BINARY_FLOAT", "BINARY_DOUBLE", "NUMBER"])
    expect(r.rows).toEqual([[3.5, 3, 2.5, 1.5, 2.5, 5]])
  })

  // MOD "returns n2 if n1 is 0" (SQL Language Reference, MOD:
  // https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/MOD.html)
  it("returns n from MOD(n, 0) and prints infinities and NaN as Inf, -Inf and Nan", async () => {
    const r = await c.execute(
      "SELECT MOD(5, 0), MOD(-7, 0), MOD(7, 2), MOD(bd, 0), TO_CHAR(BINARY_DOUBLE_INFINITY), TO_CHAR(-BINARY_DOUBLE_INFINITY), TO_CHAR(BINARY_DOUBLE_NAN), TO_CHAR(BINARY_FLOAT_INFINITY), TO_CHAR(bd) FROM fp WHERE id = 2"
    )
    expect(r.rows).toEqual([[5, -7, 1, 2.5, "Inf", "-Inf", "Nan", "Inf", "2.5"]])
  })

  // SQL Language Reference, "Floating-Point Conditions": expr IS [NOT] NAN | INFINITE, the operand converted to BINARY_DOUBLE
  it("answers IS [NOT] NAN and IS [NOT] INFINITE, over columns, arithmetic and NUMBER operands", async () => {
    expect((await c.execute("SELECT id FROM fp WHERE bd / 0 IS NAN")).rows).toEqual([[1]])
    expect((await c.execute("SELECT id FROM fp WHERE bd / 0 IS INFINITE")).rows).toEqual([[2]])
    expect((await c.execute("SELECT id FROM fp WHERE bd / 0 IS NOT NAN AND n IS NOT INFINITE ORDER BY id")).rows).toEqual([[2]])
    const r = await c.execute("SELECT CASE WHEN bf / 0 IS INFINITE THEN 'inf' WHEN bf / 0 IS NAN THEN 'nan' ELSE 'finite' END, CASE WHEN n IS NAN THEN 1 ELSE 0 END FROM fp ORDER BY id")
    expect(r.rows).toEqual([["nan", 0], ["inf", 0]])
    expect((await c.execute("SELECT COUNT(*) FROM fp WHERE NULL IS NAN")).rows).toEqual([[0]])
  })
})
