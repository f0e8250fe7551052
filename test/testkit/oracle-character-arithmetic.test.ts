import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

// Oracle converts a character operand of arithmetic to NUMBER (SQL Language Reference, "Implicit Data Conversion":
// "In arithmetic operations between CHAR/VARCHAR2 and NCHAR/NVARCHAR2, Oracle converts to a NUMBER"), failing with
// ORA-01722 for text that is no number. A BINARY_DOUBLE operand (a bind too) makes the operation BINARY_DOUBLE ("Numeric
// Precedence"), whose division by zero is Inf / NaN, not ORA-01476 (Database Concepts, "Floating-Point Numbers").
describe("Oracle test server: character and BINARY_DOUBLE operands of arithmetic (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE cha (id NUMBER, s VARCHAR2(20), c CHAR(5), n NVARCHAR2(10), bad VARCHAR2(5))")
    await conn.execute("INSERT INTO cha VALUES (1, '10', '8', '2.5', 'x1')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("converts text literals, character columns and character binds to NUMBER", async () => {
    const r = await conn.execute("SELECT '10' / 4, s / 4, c / 4, n * 2, s + 1, 4 - s, 2 * c, s / c FROM cha")
    expect(r.rows).toEqual([[2.5, 2.5, 2, 5, 11, -6, 16, 1.25]])
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(Array(8).fill("NUMBER"))
    // a character bind as divisor and dividend (every digit kept)
    expect((await conn.execute("SELECT id / :b, :c / 3 FROM cha", ["4", "1"])).rows).toEqual([[0.25, 0.3333333333333333]])
    expect((await conn.execute("SELECT TO_CHAR(:c / 3) FROM dual", ["1"])).rows[0][0]).toBe(".3333333333333333333333333333333333333333")
    expect((await conn.execute("SELECT id FROM cha WHERE s / 2 = 5")).rows).toEqual([[1]])
    // text added to a date is a number of days (`SYSDATE - '01'` works, `SYSDATE - '01-01-01'` is ORA-01722 on Oracle:
    // https://super-unix.com/database/date-type-implicit-conversion)
    expect((await conn.execute("SELECT TO_CHAR(DATE '2024-01-01' + '2', 'YYYY-MM-DD'), TO_CHAR(DATE '2024-01-03' - s / 10, 'YYYY-MM-DD') FROM cha")).rows).toEqual([["2024-01-03", "2024-01-02"]])
    expect(oraCode(await failure(() => conn.execute("SELECT DATE '2024-01-01' - '01-01-01' FROM dual")))).toBe("ORA-01722")
    // concatenation keeps the text
    expect((await conn.execute("SELECT s || 1 FROM cha")).rows).toEqual([["101"]])
  })

  it("fails with ORA-01722 for text that is no number", async () => {
    for (const sql of ["SELECT 'x' / 4 FROM dual", "SELECT bad / 4 FROM cha", "SELECT s / 'a' FROM cha", "SELECT bad + 1 FROM cha"])
      expect(oraCode(await failure(() => conn.execute(sql)))).toBe("ORA-01722")
    expect(oraCode(await failure(() => conn.execute("SELECT id / :b FROM cha", ["four"])))).toBe("ORA-01722")
  })

  it("divides by a BINARY_DOUBLE bind in BINARY_DOUBLE: Inf and NaN for zero", async () => {
    const zero = { val: 0, type: oracledb.DB_TYPE_BINARY_DOUBLE }
    const r = await conn.execute("SELECT id / :z, -1 / :z2, 0 / :z3 FROM cha", { z: zero, z2: zero, z3: zero })
    expect(r.rows[0][0]).toBe(Infinity)
    expect(r.rows[0][1]).toBe(-Infinity)
    expect(r.rows[0][2]).toBeNaN()
    expect(r.metaData[0]).toMatchObject({ dbTypeName: "BINARY_DOUBLE" })
    // TO_BINARY_DOUBLE / TO_BINARY_FLOAT of numbers and number text (SQL Language Reference, "TO_BINARY_DOUBLE")
    const converted = await conn.execute("SELECT TO_BINARY_DOUBLE(2), TO_BINARY_FLOAT(s), TO_BINARY_DOUBLE('INF'), TO_BINARY_DOUBLE(1) / 0 FROM cha")
    expect(converted.rows).toEqual([[2, 10, Infinity, Infinity]])
    expect(converted.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["BINARY_DOUBLE", "BINARY_FLOAT", "BINARY_DOUBLE", "BINARY_DOUBLE"])
    expect(oraCode(await failure(() => conn.execute("SELECT TO_BINARY_DOUBLE(bad) FROM cha")))).toBe("ORA-01722")
    // a NUMBER bind of 0 still raises ORA-01476
    expect(oraCode(await failure(() => conn.execute("SELECT id / :z FROM cha", [0])))).toBe("ORA-01476")
  })
})
