import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, oracledb, openConnection } from "./oracle/helpers.ts"

/**
 * The values of stored functions called from SQL, through raw node-oracledb: a NUMBER result keeps every digit
 * NUMBER holds (38 to 40 significant digits at exponents 1E-130 .. 1E125: SQL Language Reference, "Data Types",
 * NUMBER), as the same value computed in SQL does, in the select list, WHERE, ORDER BY, aggregates and INSERT ...
 * SELECT, for schema and package functions alike; results of the other scalar types keep their type and value.
 */
describe("Oracle test server: stored function results in SQL", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  /** Every column fetched as text, so that no digit is lost to a JavaScript number. */
  const asText = (sql: string, binds: Record<string, unknown> = {}) =>
    conn.execute(sql, binds, { fetchTypeHandler: () => ({ type: oracledb.STRING }) }).then((r: { rows: Array<Array<string | null>> }) => r.rows)
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE OR REPLACE FUNCTION third RETURN NUMBER IS BEGIN RETURN 1 / 3; END;")
    await conn.execute("CREATE OR REPLACE FUNCTION tiny RETURN NUMBER IS BEGIN RETURN 1E-20; END;")
    await conn.execute("CREATE OR REPLACE FUNCTION huge RETURN NUMBER IS BEGIN RETURN 123456789012345678901234567890; END;")
    await conn.execute("CREATE OR REPLACE FUNCTION share_of(a NUMBER, b NUMBER) RETURN NUMBER IS BEGIN RETURN a / b; END;")
    await conn.execute("CREATE OR REPLACE FUNCTION edge(k NUMBER) RETURN NUMBER IS BEGIN RETURN CASE k WHEN 1 THEN 9.9999999999999999999999999999999999999E125 WHEN 2 THEN 1E-130 ELSE -k END; END;")
    await conn.execute(`CREATE OR REPLACE PACKAGE ratios AS
        FUNCTION seventh(x NUMBER) RETURN NUMBER;
      END ratios;`)
    await conn.execute(`CREATE OR REPLACE PACKAGE BODY ratios AS
        FUNCTION seventh(x NUMBER) RETURN NUMBER IS BEGIN RETURN x / 7; END;
      END ratios;`)
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a NUMBER result keeps Oracle's 40 digits, tiny and huge values, as the same value computed in SQL (was DECIMAL(38,10): .3333333333, 0, ORA-03001)", async () => {
    const rows = await asText("SELECT third(), tiny(), huge(), ratios.seventh(1), share_of(2, 3) FROM dual")
    const same = await asText("SELECT 1 / 3, 1E-20, 123456789012345678901234567890, 1 / 7, 2 / 3 FROM dual")
    expect(rows).toEqual(same)
    expect(rows[0]![0]).toBe("." + "3".repeat(40))
    expect(rows[0]![2]).toBe("123456789012345678901234567890")
    // the ends of NUMBER's range
    expect(await asText("SELECT edge(1), edge(2), edge(3) FROM dual")).toEqual(await asText("SELECT 9.9999999999999999999999999999999999999E125, 1E-130, -3 FROM dual"))
    const r = await conn.execute("SELECT third() AS t, tiny() AS s FROM dual")
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["NUMBER", "NUMBER"])
    expect(r.rows).toEqual([[1 / 3, 1e-20]])
  })

  it("computes on the exact result: arithmetic, comparisons in WHERE, ORDER BY, aggregates", async () => {
    expect(await asText("SELECT third() * 3, huge() + 1, tiny() * 1E20, ratios.seventh(7) FROM dual")).toEqual([["." + "9".repeat(40), "123456789012345678901234567891", "1", "1"]])
    // WHERE: each comparison holds only on the exact value (a DECIMAL(38,10) result made tiny() 0 and third() * 3 < 1 false)
    const where = await asText(
      "SELECT COUNT(*) FROM dual WHERE tiny() > 0 AND huge() > 123456789012345678901234567889 AND third() * 3 < 1 AND third() > 0.3333333333333333333333333333333333333"
    )
    expect(where).toEqual([["1"]])
    expect(await asText("SELECT LEVEL FROM dual WHERE ratios.seventh(LEVEL) > 0.2857142857142857142857142857142857142857 CONNECT BY LEVEL <= 3")).toEqual([["3"]])
    const ordered = await asText("SELECT LEVEL FROM dual WHERE share_of(LEVEL, 3) <> 1 CONNECT BY LEVEL <= 4 ORDER BY share_of(-LEVEL, 3)")
    expect(ordered).toEqual([["4"], ["2"], ["1"]])
    expect(await asText("SELECT SUM(share_of(LEVEL, 3)), MAX(ratios.seventh(LEVEL)), MIN(third()) FROM dual CONNECT BY LEVEL <= 3")).toEqual([
      ["2", ".4285714285714285714285714285714285714286", "." + "3".repeat(40)]
    ])
    // a block's query gets the same digits
    const block = await conn.execute(
      `DECLARE n NUMBER; c NUMBER;
       BEGIN
         SELECT third() * 3, COUNT(*) INTO n, c FROM dual WHERE tiny() > 0;
         :o := TO_CHAR(n) || '|' || c;
       END;`,
      { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } }
    )
    expect(block.outBinds.o).toBe("." + "9".repeat(40) + "|1")
  })

  it("in PL/SQL, arithmetic on a function's exact NUMBER result or a 40-digit variable keeps every digit (was 0, ORA-06502 or 1)", async () => {
    const r = await conn.execute(
      `DECLARE a NUMBER; b NUMBER; c NUMBER; d NUMBER;
       BEGIN
         a := third() * 3;
         b := third() + 0;
         c := 1 / 3;
         c := c * 3;
         SELECT c INTO d FROM dual;
         :o := a || '|' || b || '|' || c || '|' || d || '|' || (huge() + 1);
       END;`,
      { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 400 } }
    )
    const nines = "." + "9".repeat(40)
    expect(r.outBinds.o).toBe(`${nines}|.${"3".repeat(40)}|${nines}|${nines}|123456789012345678901234567891`)
  })

  it("INSERT ... SELECT and INSERT ... VALUES store the exact result, rounded to a NUMBER(p,s) column's scale", async () => {
    await conn.execute("CREATE TABLE fr_target (id NUMBER(3), n NUMBER, m NUMBER(10,2))")
    await conn.execute("INSERT INTO fr_target SELECT 1, third(), ratios.seventh(100) FROM dual")
    await conn.execute("INSERT INTO fr_target VALUES (2, tiny(), third())")
    await conn.execute("INSERT INTO fr_target SELECT 3, huge(), share_of(LEVEL, 8) FROM dual CONNECT BY LEVEL <= 1")
    expect(await asText("SELECT n, m FROM fr_target ORDER BY id")).toEqual([
      ["." + "3".repeat(40), "14.29"],
      [".00000000000000000001", ".33"],
      ["123456789012345678901234567890", ".13"]
    ])
    await conn.rollback()
  })

  it("results of the other scalar types keep their type and value", async () => {
    await conn.execute("CREATE OR REPLACE FUNCTION f_text RETURN VARCHAR2 IS BEGIN RETURN 'abc'; END;")
    await conn.execute("CREATE OR REPLACE FUNCTION f_date RETURN DATE IS BEGIN RETURN DATE '2024-02-03' + 0.5; END;")
    await conn.execute("CREATE OR REPLACE FUNCTION f_ts RETURN TIMESTAMP IS BEGIN RETURN TIMESTAMP '2024-02-03 01:02:03.125'; END;")
    await conn.execute("CREATE OR REPLACE FUNCTION f_bd RETURN BINARY_DOUBLE IS BEGIN RETURN 1 / 3d; END;")
    await conn.execute("CREATE OR REPLACE FUNCTION f_bool RETURN BOOLEAN IS BEGIN RETURN TRUE; END;")
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+00:00'")
    const r = await conn.execute("SELECT f_text(), f_date(), f_ts(), f_bd(), f_bool() FROM dual")
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["VARCHAR2", "DATE", "TIMESTAMP", "BINARY_DOUBLE", "BOOLEAN"])
    expect(r.rows[0][0]).toBe("abc")
    expect(r.rows[0][3]).toBe(1 / 3)
    expect(r.rows[0][4]).toBe(true)
    const texts = await asText("SELECT TO_CHAR(f_date(), 'YYYY-MM-DD HH24:MI:SS'), TO_CHAR(f_ts(), 'YYYY-MM-DD HH24:MI:SS.FF3'), TO_CHAR(f_date() + 1, 'YYYY-MM-DD') FROM dual")
    expect(texts).toEqual([["2024-02-03 12:00:00", "2024-02-03 01:02:03.125", "2024-02-04"]])
    expect(await asText("SELECT COUNT(*) FROM dual WHERE f_date() > DATE '2024-02-03' AND f_bd() < 0.34d AND f_text() = 'abc'")).toEqual([["1"]])
  })
})
