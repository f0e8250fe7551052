import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, withServer } from "./oracle/helpers.ts"

// Select-list aliases without AS that are keywords to DuckDB but not reserved by Oracle (NAME, DAY, VALUE, TYPE,
// MONTH, ...), at every depth, through raw node-oracledb. SQL Language Reference 23ai, "SELECT", c_alias: "The AS
// keyword is optional"; "Oracle SQL Reserved Words" lists none of these words. A MERGE whose USING subquery aliased a
// column `name` failed ORA-00933.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: bare select-list aliases", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE sa (id NUMBER PRIMARY KEY, name VARCHAR2(20), sal NUMBER, d DATE)")
    await conn.execute("INSERT INTO sa VALUES (1, 'ann', 100, DATE '2024-05-06')")
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("names the columns by their aliases at the top level and in subqueries", async () => {
    const r = await conn.execute("SELECT name n, sal value, TRUNC(d, 'MM') day, EXTRACT(MONTH FROM d) month, 1 type, 'x' \"Name\" FROM sa")
    expect((r.metaData as Array<{ name: string }>).map((m) => m.name)).toEqual(["N", "VALUE", "DAY", "MONTH", "TYPE", "Name"])
    expect(r.rows).toEqual([["ann", 100, new Date(2024, 4, 1), 5, 1, "x"]])
    expect((await conn.execute("SELECT day, value FROM (SELECT TRUNC(d) day, sal value FROM sa) WHERE day IS NOT NULL")).rows).toEqual([[new Date(2024, 4, 6), 100]])
    // a unit ending an interval literal is no alias
    const i = await conn.execute("SELECT INTERVAL '1' DAY, d - 1 day FROM sa")
    expect((i.metaData as Array<{ name: string }>).map((m) => m.name)).toEqual(["INTERVAL'1'DAY", "DAY"])
  })

  it("in MERGE's USING subquery, INSERT ... SELECT, a view and PL/SQL's SELECT ... INTO", async () => {
    const m = await conn.execute(`MERGE INTO sa t USING (SELECT 2 id, 'bob' name FROM dual) s ON (t.id = s.id)
      WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.name, 0, NULL)`)
    expect(m.rowsAffected).toBe(1)
    await conn.execute("INSERT INTO sa (id, name) SELECT 3, 'cy' name FROM dual")
    await conn.execute("CREATE OR REPLACE VIEW sa_v AS SELECT id key, name value FROM sa")
    expect((await conn.execute("SELECT key, value FROM sa_v ORDER BY key")).rows).toEqual([[1, "ann"], [2, "bob"], [3, "cy"]])
    const pl = await conn.execute("DECLARE v VARCHAR2(20); BEGIN SELECT name value INTO v FROM sa WHERE id = 3; :v := v; END;", { v: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 20 } })
    expect((pl.outBinds as { v: string }).v).toBe("cy")
    await conn.rollback()
  })
})
