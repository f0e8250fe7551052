import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

// PIVOT and UNPIVOT (SQL Language Reference, SELECT, pivot_clause / unpivot_clause) through raw node-oracledb: PIVOT
// groups by the source's other columns (described with their declared types) and names its columns as Oracle does;
// UNPIVOT failed ORA-03001 and PIVOT over a table was described with the table's own columns.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: PIVOT and UNPIVOT", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE sales (region VARCHAR2(10), qtr NUMBER(1), amt NUMBER(8,2), units NUMBER)")
    await conn.executeMany("INSERT INTO sales VALUES (:1, :2, :3, :4)", [["N", 1, 10, 1], ["N", 2, 20, 2], ["S", 1, 30, 3], ["S", 1, 5.5, null]])
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const query = async (sql: string, binds: Array<unknown> = []) => {
    const r = await conn.execute(sql, binds)
    return { names: (r.metaData as Array<{ name: string }>).map((m) => m.name), types: (r.metaData as Array<{ dbType: unknown }>).map((m) => m.dbType), rows: r.rows }
  }
  const { DB_TYPE_NUMBER: NUM, DB_TYPE_VARCHAR: VC } = oracledb

  it("PIVOT over a table groups by every column it does not name, each described with its declared type", async () => {
    const r = await query("SELECT * FROM sales PIVOT (SUM(amt) FOR qtr IN (1, 2)) ORDER BY region, units")
    expect(r.names).toEqual(["REGION", "UNITS", "1", "2"])
    expect(r.types).toEqual([VC, NUM, NUM, NUM])
    expect(r.rows).toEqual([["N", 1, 10, null], ["N", 2, null, 20], ["S", 3, 30, null], ["S", null, 5.5, null]])
  })

  it("names its columns by the IN value's text or alias, joined with the aggregate's alias by an underscore", async () => {
    const text = await query("SELECT * FROM (SELECT region, qtr, amt FROM sales) PIVOT (SUM(amt) FOR region IN ('N', 'S' AS south)) ORDER BY qtr")
    expect(text.names).toEqual(["QTR", "'N'", "SOUTH"])
    expect(text.rows).toEqual([[1, 10, 35.5], [2, 20, null]])
    // several aggregates: one column per IN value and aggregate; COUNT of no row is 0
    const two = await query("SELECT * FROM (SELECT region, qtr, amt FROM sales) PIVOT (SUM(amt) AS s, COUNT(*) c FOR qtr IN (1 AS q1, 2 AS q2)) ORDER BY 1")
    expect(two.names).toEqual(["REGION", "Q1_S", "Q1_C", "Q2_S", "Q2_C"])
    expect(two.types).toEqual([VC, NUM, NUM, NUM, NUM])
    expect(two.rows).toEqual([["N", 10, 1, 20, 1], ["S", 35.5, 2, null, 0]])
    // FOR over two columns: the values of an unaliased item joined by an underscore
    const pair = await query("SELECT * FROM (SELECT region, qtr, amt FROM sales) PIVOT (MAX(amt) FOR (region, qtr) IN (('N', 1), ('S', 1) AS s1))")
    expect(pair.names).toEqual(["'N'_1", "S1"])
    expect(pair.rows).toEqual([[10, 30]])
  })

  it("filters and orders the pivoted rows, and pivots in a WITH block, a subquery, a view and INSERT ... SELECT", async () => {
    expect((await query("WITH d AS (SELECT region, qtr, units FROM sales) SELECT * FROM d PIVOT (MAX(units) FOR qtr IN (1 AS one)) WHERE one > 1 ORDER BY one DESC")).rows).toEqual([["S", 3]])
    expect((await query("SELECT * FROM (SELECT region, qtr FROM sales) PIVOT (LISTAGG(region, '+') WITHIN GROUP (ORDER BY region DESC) AS r FOR qtr IN (1 AS q1, 2 AS q2))")).rows).toEqual([["S+S+N", "N"]])
    expect((await query("SELECT region FROM sales WHERE region IN (SELECT region FROM (SELECT region, qtr FROM sales) PIVOT (COUNT(*) FOR qtr IN (2 AS two)) WHERE two > 0) ORDER BY 1")).rows).toEqual([["N"], ["N"]])
    await conn.execute("CREATE VIEW by_region AS SELECT * FROM (SELECT qtr, region FROM sales) PIVOT (COUNT(*) FOR region IN ('N', 'S'))")
    const view = await query("SELECT * FROM by_region ORDER BY qtr")
    expect(view.names).toEqual(["QTR", "'N'", "'S'"])
    expect(view.rows).toEqual([[1, 1, 2], [2, 1, 0]])
    await conn.execute("CREATE TABLE amounts (region VARCHAR2(10), qtr NUMBER(1), kind VARCHAR2(5), v NUMBER)")
    expect((await conn.execute("INSERT INTO amounts SELECT * FROM (SELECT region, qtr, amt, units FROM sales) UNPIVOT (v FOR kind IN (amt AS 'AMT', units AS 'UNITS'))")).rowsAffected).toBe(7)
    expect((await query("SELECT kind, SUM(v) FROM amounts GROUP BY kind ORDER BY kind")).rows).toEqual([["AMT", 65.5], ["UNITS", 6]])
    await conn.rollback()
  })

  it("UNPIVOT turns columns into rows, without the null ones unless INCLUDE NULLS", async () => {
    const r = await query("SELECT * FROM sales UNPIVOT (v FOR k IN (amt, units)) ORDER BY region, k, v")
    expect(r.names).toEqual(["REGION", "QTR", "K", "V"])
    // the name column is VARCHAR2; NUMBER(8,2) and NUMBER columns unpivot into a NUMBER
    expect(r.types).toEqual([VC, NUM, VC, NUM])
    expect(r.rows).toEqual([["N", 1, "AMT", 10], ["N", 2, "AMT", 20], ["N", 1, "UNITS", 1], ["N", 2, "UNITS", 2], ["S", 1, "AMT", 5.5], ["S", 1, "AMT", 30], ["S", 1, "UNITS", 3]])
    const all = await query("SELECT k, v FROM sales UNPIVOT INCLUDE NULLS (v FOR k IN (amt AS 'A', units AS 'U')) WHERE region = 'S' ORDER BY k, v")
    expect(all.rows).toEqual([["A", 5.5], ["A", 30], ["U", 3], ["U", null]])
    expect((await query("SELECT COUNT(*) FROM sales UNPIVOT EXCLUDE NULLS (v FOR k IN (amt, units))")).rows).toEqual([[7]])
    // several value and name columns at once
    const pairs = await query("SELECT * FROM (SELECT region, qtr, amt, units FROM sales WHERE region = 'N') UNPIVOT ((a, u) FOR (k1, k2) IN ((amt, units) AS ('X', 1), (qtr, qtr) AS ('Y', 2))) ORDER BY k1, a")
    expect(pairs.names).toEqual(["REGION", "K1", "K2", "A", "U"])
    expect(pairs.types).toEqual([VC, VC, NUM, NUM, NUM])
    expect(pairs.rows).toEqual([["N", "X", 1, 10, 1], ["N", "X", 1, 20, 2], ["N", "Y", 2, 1, 1], ["N", "Y", 2, 2, 2]])
  })

  it("runs in PL/SQL's SQL too: a cursor FOR loop over an UNPIVOT, SELECT INTO from a PIVOT column", async () => {
    const out = { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }
    const loop = await conn.execute("DECLARE n NUMBER := 0; BEGIN FOR r IN (SELECT * FROM sales UNPIVOT (v FOR k IN (amt, units))) LOOP n := n + r.v; END LOOP; :o := n; END;", { o: out })
    expect(loop.outBinds).toEqual({ o: 71.5 })
    const into = await conn.execute(`BEGIN SELECT "'N'" INTO :o FROM (SELECT region, amt FROM sales) PIVOT (SUM(amt) FOR region IN ('N')); END;`, { o: out })
    expect(into.outBinds).toEqual({ o: 30 })
  })

  it("reports Oracle's errors for a non-constant IN value, duplicate column names, mixed types and PIVOT XML", async () => {
    const code = async (sql: string, binds: Array<unknown> = []) => oraCode(await failure(() => conn.execute(sql, binds)))
    expect(await code("SELECT * FROM (SELECT region, qtr, amt FROM sales) PIVOT (SUM(amt) FOR qtr IN (region))")).toBe("ORA-56901")
    expect(await code("SELECT * FROM (SELECT region, qtr, amt FROM sales) PIVOT (SUM(amt) FOR qtr IN (:1))", [1])).toBe("ORA-56901")
    // two aggregates without alias give each IN value's name twice
    expect(await code("SELECT * FROM (SELECT region, qtr, amt FROM sales) PIVOT (SUM(amt), COUNT(*) FOR qtr IN (1, 2))")).toBe("ORA-00918")
    expect(await code("SELECT * FROM (SELECT region, qtr, amt FROM sales) PIVOT (SUM(amt) FOR qtr IN (1 AS q, 2 AS q))")).toBe("ORA-00918")
    expect(await code("SELECT * FROM sales UNPIVOT (v FOR region IN (amt, units))")).toBe("ORA-00918")
    // UNPIVOT of a number and a character column into one, or of number and text names
    expect(await code("SELECT * FROM sales UNPIVOT (v FOR k IN (amt, region))")).toBe("ORA-01790")
    expect(await code("SELECT * FROM sales UNPIVOT (v FOR k IN (amt AS 'A', units AS 2))")).toBe("ORA-01790")
    expect(await code("SELECT * FROM (SELECT region, qtr, amt FROM sales) PIVOT XML (SUM(amt) FOR qtr IN (1))")).toBe("ORA-03001")
  })
})
