import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// TIMESTAMP WITH TIME ZONE values compare by their UTC instant whatever their zones (Database Globalization Support
// Guide, "Datetime Comparisons"), and set operators, window partitions and ROLLUP / CUBE / GROUPING SETS compare
// rows as comparisons do. Three rows hold 00:30 UTC on 2024-10-27 in three zones (the first as Berlin's daylight-time
// 02:30, named by its abbreviation in the repeated autumn hour), one 05:00 UTC.
describe("Oracle test server: set operations, partitions and rollups over zoned timestamps compare instants (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const iso = (rows: Array<Array<unknown>>) => rows.map((row) => row.map((v) => (v instanceof Date ? v.toISOString() : v)))
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE inst_a (id NUMBER, t TIMESTAMP WITH TIME ZONE)")
    await conn.execute("CREATE TABLE inst_b (id NUMBER, t TIMESTAMP WITH TIME ZONE)")
    await conn.execute("INSERT INTO inst_a VALUES (1, TIMESTAMP '2024-10-27 02:30:00 Europe/Berlin CEST')")
    await conn.execute("INSERT INTO inst_a VALUES (2, TIMESTAMP '2024-10-27 00:30:00 +00:00')")
    await conn.execute("INSERT INTO inst_a VALUES (3, TIMESTAMP '2024-10-27 05:00:00 +00:00')")
    await conn.execute("INSERT INTO inst_b VALUES (1, TIMESTAMP '2024-10-27 01:30:00 +01:00')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("UNION, INTERSECT and MINUS keep one row per instant", async () => {
    const union = await conn.execute("SELECT t FROM inst_a UNION SELECT t FROM inst_b ORDER BY 1")
    expect(iso(union.rows)).toEqual([["2024-10-27T00:30:00.000Z"], ["2024-10-27T05:00:00.000Z"]])
    const intersect = await conn.execute("SELECT t FROM inst_a INTERSECT SELECT t FROM inst_b")
    expect(iso(intersect.rows)).toEqual([["2024-10-27T00:30:00.000Z"]])
    const minus = await conn.execute("SELECT t FROM inst_a MINUS SELECT t FROM inst_b")
    expect(iso(minus.rows)).toEqual([["2024-10-27T05:00:00.000Z"]])
    // left to right, with other columns compared as they are
    const chained = await conn.execute("SELECT t, 'x' AS k FROM inst_a UNION ALL SELECT t, 'y' FROM inst_b MINUS SELECT t, 'x' FROM inst_b ORDER BY k")
    expect(iso(chained.rows)).toEqual([["2024-10-27T05:00:00.000Z", "x"], ["2024-10-27T00:30:00.000Z", "y"]])
    expect(chained.metaData.map((m: { name: string }) => m.name)).toEqual(["T", "K"])
  })

  it("UNION, INTERSECT and MINUS in a subquery keep one row per instant too", async () => {
    const counts = []
    for (const op of ["UNION", "INTERSECT", "MINUS"]) counts.push((await conn.execute(`SELECT COUNT(*) FROM (SELECT t FROM inst_a ${op} SELECT t FROM inst_b) q`)).rows![0]![0])
    expect(counts).toEqual([2, 1, 1])
    const inList = await conn.execute("SELECT id FROM inst_a WHERE t IN (SELECT t FROM inst_b UNION SELECT t FROM inst_b) ORDER BY id")
    expect(inList.rows).toEqual([[1], [2]])
  })

  it("SELECT DISTINCT in a subquery keeps one row per instant", async () => {
    const one = await conn.execute("SELECT COUNT(*) FROM (SELECT DISTINCT t FROM inst_a)")
    const aliased = await conn.execute("SELECT COUNT(*) FROM (SELECT DISTINCT a.t AS x, a.id FROM inst_a a)")
    expect([one.rows, aliased.rows]).toEqual([[[2]], [[3]]])
  })

  it("PARTITION BY a zoned column partitions by instant", async () => {
    const r = await conn.execute("SELECT id, COUNT(*) OVER (PARTITION BY t), ROW_NUMBER() OVER (PARTITION BY t ORDER BY id) FROM inst_a ORDER BY id")
    expect(r.rows).toEqual([[1, 2, 1], [2, 2, 2], [3, 1, 1]])
  })

  it("ROLLUP, CUBE and GROUPING SETS group by instant, the rolled-up rows showing NULL", async () => {
    for (const grouping of ["ROLLUP(t)", "CUBE(t)", "GROUPING SETS ((t), ())"]) {
      const r = await conn.execute(`SELECT t, COUNT(*) FROM inst_a GROUP BY ${grouping} ORDER BY 2`)
      expect(iso(r.rows), grouping).toEqual([["2024-10-27T05:00:00.000Z", 1], ["2024-10-27T00:30:00.000Z", 2], [null, 3]])
    }
  })
})
