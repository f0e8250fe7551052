import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, numbersAsText, openConnection, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const rows = async (sql: string) => (await conn.execute(sql, [], numbersAsText)).rows

// SQL Language Reference, "TO_NUMBER", "TO_BINARY_DOUBLE", "TO_BINARY_FLOAT", "TO_DATE", "VALIDATE_CONVERSION"
describe("Oracle test server: DEFAULT ... ON CONVERSION ERROR, VALIDATE_CONVERSION and TO_BINARY_* format models, through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE cv (id NUMBER, s VARCHAR2(20))")
    for (const [id, s] of [[1, "12.5"], [2, "abc"], [3, null], [4, "1,234.5"]]) await conn.execute("INSERT INTO cv VALUES (:1, :2)", [id, s])
  })
  afterAll(() => closeConnection({ server, conn }))

  it("reads TO_BINARY_DOUBLE / TO_BINARY_FLOAT text in a number format model, with NLS parameters", async () => {
    // the reference's own examples: all give 1234.56
    const r = await conn.execute("SELECT TO_BINARY_DOUBLE('$1,234.56', '$9,999.99'), TO_BINARY_DOUBLE('1.234,56', '9G999D99', 'NLS_NUMERIC_CHARACTERS='',.'''), TO_BINARY_FLOAT('1,234.5', '9G999D9') FROM dual")
    expect(r.rows).toEqual([[1234.56, 1234.56, 1234.5]])
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["BINARY_DOUBLE", "BINARY_DOUBLE", "BINARY_FLOAT"])
  })

  it("answers a conversion error with the DEFAULT value, converted the same way; NULL stays NULL", async () => {
    expect(await rows("SELECT TO_NUMBER('x' DEFAULT 7 ON CONVERSION ERROR), TO_NUMBER('x' DEFAULT '8' ON CONVERSION ERROR, '999'), TO_NUMBER('12' DEFAULT '7' ON CONVERSION ERROR, '999'), TO_NUMBER(NULL DEFAULT 7 ON CONVERSION ERROR) FROM dual")).toEqual([["7", "8", "12", null]])
    expect((await conn.execute("SELECT TO_BINARY_DOUBLE('x' DEFAULT 0 ON CONVERSION ERROR), TO_BINARY_FLOAT('1.5x' DEFAULT 2 ON CONVERSION ERROR), TO_BINARY_DOUBLE('x' DEFAULT '3' ON CONVERSION ERROR, '9') FROM dual")).rows).toEqual([[0, 2, 3]])
    expect(await rows("SELECT id, TO_NUMBER(s DEFAULT -1 ON CONVERSION ERROR), TO_NUMBER(s DEFAULT '-2' ON CONVERSION ERROR, '9G999D9') FROM cv ORDER BY id")).toEqual([
      ["1", "12.5", "12.5"],
      ["2", "-1", "-2"],
      ["3", null, null],
      ["4", "-1", "1234.5"]
    ])
    const d = await conn.execute("SELECT TO_CHAR(TO_DATE('x' DEFAULT '2024-01-02' ON CONVERSION ERROR, 'YYYY-MM-DD'), 'YYYY-MM-DD'), TO_CHAR(TO_DATE('2024-03-04' DEFAULT '2024-01-02' ON CONVERSION ERROR, 'YYYY-MM-DD'), 'YYYY-MM-DD') FROM dual")
    expect(d.rows).toEqual([["2024-01-02", "2024-03-04"]])
    // "If return_value cannot be converted ..., then the function returns an error"
    expect(oraCode(await failure(() => conn.execute("SELECT TO_NUMBER('x' DEFAULT 'y' ON CONVERSION ERROR) FROM dual")))).toBe("ORA-01722")
  })

  it("tells with VALIDATE_CONVERSION whether a value converts: 1, 0, and 1 for NULL", async () => {
    expect(await rows("SELECT VALIDATE_CONVERSION('x' AS NUMBER), VALIDATE_CONVERSION('12' AS NUMBER), VALIDATE_CONVERSION('1e3' AS BINARY_DOUBLE), VALIDATE_CONVERSION(NULL AS NUMBER), VALIDATE_CONVERSION('1,234.5' AS NUMBER, '9G999D9') FROM dual")).toEqual([["0", "1", "1", "1", "1"]])
    expect(await rows("SELECT VALIDATE_CONVERSION('2024-13-01' AS DATE, 'YYYY-MM-DD'), VALIDATE_CONVERSION('2024-12-01' AS DATE, 'YYYY-MM-DD'), VALIDATE_CONVERSION('2023-02-29' AS DATE, 'YYYY-MM-DD'), VALIDATE_CONVERSION('xx' AS TIMESTAMP) FROM dual")).toEqual([["0", "1", "0", "0"]])
    expect(await rows("SELECT VALIDATE_CONVERSION('1 02:00:00' AS INTERVAL DAY TO SECOND), VALIDATE_CONVERSION('x' AS INTERVAL YEAR TO MONTH) FROM dual")).toEqual([["1", "0"]])
    expect(await rows("SELECT id FROM cv WHERE VALIDATE_CONVERSION(s AS NUMBER) = 0 ORDER BY id")).toEqual([["2"], ["4"]])
  })

  // "This clause has no effect if an error occurs while evaluating expr" (SQL Language Reference, "TO_NUMBER", "CAST"):
  // only the conversion's own failure gives the default (or VALIDATE_CONVERSION's 0)
  it("raises an error of evaluating the argument itself rather than answering it with the default or 0", async () => {
    await conn.execute("CREATE TABLE cv_z (n NUMBER, z NUMBER, s VARCHAR2(10))")
    await conn.execute("INSERT INTO cv_z VALUES (1, 0, 'x')")
    for (const [sql, code] of [
      ["SELECT TO_NUMBER(TO_CHAR(n / z) DEFAULT 7 ON CONVERSION ERROR) FROM cv_z", "ORA-01476"],
      ["SELECT TO_NUMBER(TO_NUMBER(s) DEFAULT 7 ON CONVERSION ERROR) FROM cv_z", "ORA-01722"],
      ["SELECT TO_BINARY_DOUBLE(TO_CHAR(n / z) DEFAULT 7 ON CONVERSION ERROR, '999') FROM cv_z", "ORA-01476"],
      ["SELECT TO_DATE(TO_CHAR(n / z) DEFAULT '2024' ON CONVERSION ERROR, 'YYYY') FROM cv_z", "ORA-01476"],
      ["SELECT TO_DSINTERVAL(NVL(TO_CHAR(TO_NUMBER(s)), 'a') DEFAULT '1 00:00:00' ON CONVERSION ERROR) FROM cv_z", "ORA-01722"],
      ["SELECT VALIDATE_CONVERSION(TO_CHAR(TO_NUMBER(s)) AS NUMBER) FROM cv_z", "ORA-01722"],
      ["SELECT VALIDATE_CONVERSION(TO_CHAR(n / z) AS DATE, 'YYYY') FROM cv_z", "ORA-01476"]
    ] as const)
      expect([sql, oraCode(await failure(() => conn.execute(sql)))]).toEqual([sql, code])
    // the conversion's own failure still gives them
    expect(await rows("SELECT TO_NUMBER(s DEFAULT 7 ON CONVERSION ERROR), VALIDATE_CONVERSION(s || n AS NUMBER) FROM cv_z")).toEqual([["7", "0"]])
  })
})
