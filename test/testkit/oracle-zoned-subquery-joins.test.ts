import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// TIMESTAMP WITH TIME ZONE values through subqueries (raw node-oracledb). Oracle compares them by their UTC instants
// (Database Globalization Support Guide, "Datetime Comparisons"), so a USING or NATURAL join matches one instant
// written in two zones also when one side is an inline view; and converting one to DATE or TIMESTAMP drops the zone,
// keeping the wall clock ("Datetime Data Types and Time Zone Support"), also when `INSERT ... SELECT *` reads it from
// a subquery or a join. Before: the joins found no row (the stored texts differ) and the inserts failed with
// ORA-01722 / ORA-01861 (DuckDB's conversion of the text with its zone).
describe("Oracle test server: zoned values in USING / NATURAL joins with subqueries and INSERT ... SELECT * from them", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const rows = async (sql: string) => (await conn.execute(sql)).rows
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE zsj1 (id NUMBER, t TIMESTAMP WITH TIME ZONE, v NUMBER)")
    await conn.execute("CREATE TABLE zsj2 (t TIMESTAMP WITH TIME ZONE, w NUMBER)")
    await conn.execute("INSERT INTO zsj1 VALUES (1, TIMESTAMP '2024-01-01 10:00:00 +00:00', 5)")
    await conn.execute("INSERT INTO zsj2 VALUES (TIMESTAMP '2024-01-01 11:00:00 +01:00', 7)")
    await conn.execute("INSERT INTO zsj2 VALUES (TIMESTAMP '2024-06-01 11:00:00 Europe/Berlin', 8)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("USING and NATURAL joins with a subquery on either side match one instant in two zones", async () => {
    expect(await rows("SELECT v, w FROM (SELECT t, v FROM zsj1) s JOIN zsj2 USING (t)")).toEqual([[5, 7]])
    expect(await rows("SELECT v, w FROM zsj1 JOIN (SELECT t, w FROM zsj2) s USING (t)")).toEqual([[5, 7]])
    expect(await rows("SELECT v, w FROM (SELECT t, v FROM zsj1) a JOIN (SELECT t, w FROM zsj2) b USING (t)")).toEqual([[5, 7]])
    expect(await rows("SELECT v, w FROM (SELECT t AS t, v FROM zsj1 WHERE id = 1) s NATURAL JOIN zsj2")).toEqual([[5, 7]])
    expect(await rows("SELECT v, w FROM zsj1 NATURAL JOIN (SELECT t, w FROM zsj2) s")).toEqual([[5, 7]])
    expect(await rows("SELECT TO_CHAR(t, 'HH24:MI TZH:TZM'), v, w FROM (SELECT t, v FROM zsj1) s LEFT JOIN zsj2 USING (t) ORDER BY v")).toEqual([["10:00 +00:00", 5, 7]])
    expect(await rows("SELECT w, v FROM (SELECT t, v FROM zsj1) s RIGHT JOIN zsj2 USING (t) ORDER BY w")).toEqual([[7, 5], [8, null]])
    const star = await conn.execute("SELECT * FROM (SELECT t, v FROM zsj1) s NATURAL JOIN zsj2")
    expect(star.metaData.map((m: { name: string }) => m.name)).toEqual(["T", "V", "W"])
    expect(star.rows).toEqual([[new Date("2024-01-01T10:00:00Z"), 5, 7]])
  })

  it("USING joins with an unaliased subquery or a WITH block, and a chain joining every table by the zoned column", async () => {
    await conn.execute("CREATE TABLE zsj3 (t TIMESTAMP WITH TIME ZONE, u NUMBER)")
    await conn.execute("INSERT INTO zsj3 VALUES (TIMESTAMP '2024-01-01 12:00:00 +02:00', 9)")
    expect(await rows("SELECT v, w FROM (SELECT t, v FROM zsj1) JOIN zsj2 USING (t)")).toEqual([[5, 7]])
    expect(await rows("SELECT v, w FROM zsj1 NATURAL JOIN (SELECT t, w FROM zsj2)")).toEqual([[5, 7]])
    expect(await rows("WITH a AS (SELECT t, v FROM zsj1) SELECT v, w FROM a JOIN zsj2 USING (t)")).toEqual([[5, 7]])
    expect(await rows("WITH a AS (SELECT t, v FROM zsj1), b AS (SELECT t, w FROM zsj2) SELECT v, w FROM a NATURAL JOIN b")).toEqual([[5, 7]])
    // one join column t for the whole chain (was ORA-00918 once the first join was rewritten)
    expect(await rows("SELECT v, w, u FROM zsj1 JOIN zsj2 USING (t) JOIN zsj3 USING (t)")).toEqual([[5, 7, 9]])
    expect(await rows("SELECT v, w, u FROM zsj1 LEFT JOIN zsj2 USING (t) JOIN zsj3 USING (t)")).toEqual([[5, 7, 9]])
    await conn.rollback()
  })

  it("INSERT ... SELECT * from a subquery, a set operation or a join into DATE and TIMESTAMP columns takes the wall clocks", async () => {
    await conn.execute("CREATE TABLE zsj_d (d DATE)")
    await conn.execute("CREATE TABLE zsj_dw (d DATE, w NUMBER)")
    await conn.execute("CREATE TABLE zsj_ts (d TIMESTAMP(6))")
    expect((await conn.execute("INSERT INTO zsj_d SELECT * FROM (SELECT t FROM zsj2)")).rowsAffected).toBe(2)
    expect((await conn.execute("INSERT INTO zsj_d SELECT * FROM (SELECT t FROM zsj1 UNION ALL SELECT t FROM zsj2 WHERE w = 7)")).rowsAffected).toBe(2)
    expect((await conn.execute("INSERT INTO zsj_ts SELECT * FROM (SELECT t FROM zsj2) s")).rowsAffected).toBe(2)
    expect((await conn.execute("INSERT INTO zsj_dw SELECT * FROM (SELECT * FROM zsj2)")).rowsAffected).toBe(2)
    expect((await conn.execute("INSERT INTO zsj_dw SELECT zsj2.* FROM zsj2 JOIN zsj1 ON zsj1.v < zsj2.w WHERE zsj2.w = 7")).rowsAffected).toBe(1)
    expect((await conn.execute("INSERT INTO zsj_dw (w, d) SELECT * FROM (SELECT w x, t y FROM zsj2 WHERE w = 8)")).rowsAffected).toBe(1)
    expect(await rows("SELECT TO_CHAR(d, 'YYYY-MM-DD HH24:MI:SS') FROM zsj_d ORDER BY d")).toEqual([["2024-01-01 10:00:00"], ["2024-01-01 11:00:00"], ["2024-01-01 11:00:00"], ["2024-06-01 11:00:00"]])
    expect(await rows("SELECT TO_CHAR(d, 'HH24:MI:SS.FF6') FROM zsj_ts ORDER BY d")).toEqual([["11:00:00.000000"], ["11:00:00.000000"]])
    expect(await rows("SELECT TO_CHAR(d, 'YYYY-MM-DD HH24:MI'), w FROM zsj_dw ORDER BY w, d")).toEqual([["2024-01-01 11:00", 7], ["2024-01-01 11:00", 7], ["2024-06-01 11:00", 8], ["2024-06-01 11:00", 8]])
    await conn.rollback()
  })
})
