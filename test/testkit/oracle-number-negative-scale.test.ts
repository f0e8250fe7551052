import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, numbersAsText, openConnection, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const rows = async (sql: string) => (await conn.execute(sql, [], numbersAsText)).rows

// SQL Language Reference, "Numeric Data Types": "If a value exceeds the precision, then Oracle returns an error. If a
// value exceeds the scale, then Oracle rounds it"; a negative scale rounds to the left of the decimal point
// (NUMBER(7,-2) stores 7456123.89 as 7456100), so NUMBER(p,-s) holds up to p + s integer digits.
describe("Oracle test server: NUMBER(p,-s) table columns round to the left of the decimal point, through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE nsc (id NUMBER, n NUMBER(5,-2), m NUMBER(2,-3))")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("rounds INSERT, UPDATE, MERGE and executeMany values half away from zero and describes the declared scale", async () => {
    await conn.execute("INSERT INTO nsc VALUES (1, 12345, 1499)")
    await conn.execute("INSERT INTO nsc (id, n, m) VALUES (2, -12350, 99499)")
    await conn.execute("INSERT INTO nsc (id, n) SELECT 3, 7456123.89 FROM dual")
    await conn.executeMany("INSERT INTO nsc (id, n) VALUES (:1, :2)", [[4, 12349], [5, 50]])
    await conn.execute("UPDATE nsc SET m = m + 500 WHERE id = 1")
    await conn.execute("MERGE INTO nsc USING dual ON (id = 5) WHEN MATCHED THEN UPDATE SET n = 149")
    const r = await conn.execute("SELECT id, n, m FROM nsc ORDER BY id", [], numbersAsText)
    expect(r.rows).toEqual([["1", "12300", "2000"], ["2", "-12400", "99000"], ["3", "7456100", null], ["4", "12300", null], ["5", "100", null]])
    expect(r.metaData.slice(1).map((m: { precision: number; scale: number }) => [m.precision, m.scale])).toEqual([[5, -2], [2, -3]])
    expect(await rows("SELECT column_name, data_precision, data_scale FROM user_tab_columns WHERE table_name = 'NSC' AND data_scale < 0 ORDER BY 1")).toEqual([["M", "2", "-3"], ["N", "5", "-2"]])
    await conn.rollback()
  })

  it("refuses values with more than p + s integer digits after rounding with ORA-01438", async () => {
    for (const sql of ["INSERT INTO nsc (m) VALUES (99500)", "INSERT INTO nsc (n) VALUES (9999950)", "INSERT INTO nsc (n) VALUES (1e40)", "SELECT CAST(99500 AS NUMBER(2,-3)) FROM dual"])
      expect(oraCode(await failure(() => conn.execute(sql)))).toBe("ORA-01438")
    await conn.execute("INSERT INTO nsc (id, n) VALUES (9, 9999949)")
    expect(await rows("SELECT n FROM nsc WHERE id = 9")).toEqual([["9999900"]])
    const cast = await conn.execute("SELECT CAST(12345 AS NUMBER(5,-2)), CAST(-150 AS NUMBER(3,-2)) c FROM dual", [], numbersAsText)
    expect(cast.rows).toEqual([["12300", "-200"]])
    // described with the declared type, as a CAST is (number-describe.ts)
    expect(cast.metaData.map((m: { precision: number; scale: number }) => [m.precision, m.scale])).toEqual([[5, -2], [3, -2]])
    await conn.rollback()
  })

  it("keeps the negative scale through CREATE TABLE AS SELECT", async () => {
    await conn.execute("INSERT INTO nsc (id, n) VALUES (1, 4449)")
    await conn.execute("CREATE TABLE nsc2 AS SELECT n FROM nsc")
    await conn.execute("INSERT INTO nsc2 VALUES (4451)")
    expect(await rows("SELECT n FROM nsc2 ORDER BY n")).toEqual([["4400"], ["4500"]])
  })

  it("applies an object attribute's negative scale to a SQL constructor's arguments", async () => {
    await conn.execute("CREATE TYPE nsc_pt AS OBJECT (n NUMBER(4,-2), s VARCHAR2(3))")
    await conn.execute("CREATE TABLE nsc_objs (id NUMBER, p nsc_pt)")
    await conn.execute("INSERT INTO nsc_objs VALUES (1, nsc_pt(1234, 'ab'))")
    expect(await rows("SELECT t.p.n FROM nsc_objs t")).toEqual([["1200"]])
    expect(await rows("SELECT nsc_pt(1251, 'x').n FROM dual")).toEqual([["1300"]])
    // 1234567 rounds to 1234600: seven integer digits where NUMBER(4,-2) holds six
    expect(oraCode(await failure(() => conn.execute("INSERT INTO nsc_objs VALUES (2, nsc_pt(1234567, 'ab'))")))).toBe("ORA-01438")
    expect(await rows("SELECT COUNT(*) FROM nsc_objs")).toEqual([["1"]])
  })
})
