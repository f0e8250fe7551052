/**
 * Oracle test server: UNION / INTERSECT / MINUS of object values (raw node-oracledb). Object-Relational Developer's
 * Guide, "Comparing Objects" / "Map Methods": a MAP method is called implicitly when objects are compared, among
 * others by DISTINCT, GROUP BY and UNION, so two objects mapping to the same value are the same row of a set
 * operation; UNION ALL compares nothing and keeps every row.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const labels = (rows: ReadonlyArray<ReadonlyArray<any>>) => rows.map((r) => r.map((v) => (v !== null && typeof v === "object" ? `${v.NAME}/${v.AREA}` : v)))

describe("Oracle test server: set operations of objects by their MAP method (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      // two lots are the same when their areas are: MAP by area
      "CREATE TYPE so_lot AS OBJECT (name VARCHAR2(10), area NUMBER, MAP MEMBER FUNCTION by_area RETURN NUMBER)",
      "CREATE TYPE BODY so_lot AS MAP MEMBER FUNCTION by_area RETURN NUMBER IS BEGIN RETURN area; END; END;",
      "CREATE TABLE so_a (id NUMBER, lot so_lot)",
      "CREATE TABLE so_b (id NUMBER, lot so_lot)",
      "INSERT INTO so_a VALUES (1, so_lot('north', 10))",
      "INSERT INTO so_a VALUES (2, so_lot('south', 20))",
      "INSERT INTO so_b VALUES (3, so_lot('east', 10))",
      "INSERT INTO so_b VALUES (4, so_lot('west', 30))",
      "CREATE TABLE so_c (id NUMBER, lot so_lot)",
      "INSERT INTO so_c VALUES (5, so_lot('aaa', 40))"
    ])
      await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("UNION keeps one object per MAP value; UNION ALL keeps every row", async () => {
    const union = await conn.execute("SELECT a.lot FROM so_a a UNION SELECT b.lot FROM so_b b")
    expect(union.metaData.map((c: { name: string; dbTypeName?: string }) => c.name)).toEqual(["LOT"])
    const areas = union.rows.map((r: Array<any>) => r[0].AREA).sort()
    expect(areas).toEqual([10, 20, 30])
    const all = await conn.execute("SELECT a.lot FROM so_a a UNION ALL SELECT b.lot FROM so_b b")
    expect(all.rows.length).toBe(4)
  })

  it("INTERSECT keeps the first query's objects whose MAP value the second has; MINUS those it lacks", async () => {
    expect(labels((await conn.execute("SELECT a.lot FROM so_a a INTERSECT SELECT b.lot FROM so_b b")).rows)).toEqual([["north/10"]])
    expect(labels((await conn.execute("SELECT a.lot FROM so_a a MINUS SELECT b.lot FROM so_b b")).rows)).toEqual([["south/20"]])
  })

  it("other select items stay part of the row compared; a trailing ORDER BY orders the result", async () => {
    const rows = (await conn.execute("SELECT 'x' tag, a.lot FROM so_a a UNION SELECT 'x' tag, b.lot FROM so_b b ORDER BY 2")).rows
    expect(rows.map((r: Array<any>) => [r[0], r[1].AREA])).toEqual([
      ["x", 10],
      ["x", 20],
      ["x", 30]
    ])
    const ids = (await conn.execute("SELECT a.id, a.lot FROM so_a a UNION SELECT b.id, b.lot FROM so_b b ORDER BY 1")).rows
    expect(ids.map((r: Array<any>) => r[0])).toEqual([1, 2, 3, 4])
  })

  it("ORDER BY a set operation's object item sorts by its MAP value; a chain inside parentheses compares by MAP too", async () => {
    const rows = (await conn.execute("SELECT a.lot FROM so_a a UNION SELECT c.lot FROM so_c c ORDER BY 1 DESC")).rows
    expect(rows.map((r: Array<any>) => r[0].AREA)).toEqual([40, 20, 10])
    const named = (await conn.execute("SELECT a.lot FROM so_a a UNION SELECT c.lot FROM so_c c ORDER BY lot")).rows
    expect(named.map((r: Array<any>) => r[0].AREA)).toEqual([10, 20, 40])
    expect((await conn.execute("SELECT COUNT(*) FROM (SELECT a.lot FROM so_a a UNION SELECT b.lot FROM so_b b)")).rows).toEqual([[3]])
  })
})
