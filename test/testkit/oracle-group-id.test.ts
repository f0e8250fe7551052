import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

// GROUP_ID() numbers the repeats of a grouping set GROUP BY names more than once: "If n duplicates exist for a
// particular grouping, then GROUP_ID returns numbers in the range 0 to n-1" (SQL Language Reference, "GROUP_ID"),
// whether the repeat is written out in GROUPING SETS or comes of ROLLUP / CUBE / concatenated groupings.
describe("Oracle test server: GROUP_ID of repeated grouping sets", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE gid_sales (region VARCHAR2(5), product VARCHAR2(5), amount NUMBER)")
    await conn.executeMany("INSERT INTO gid_sales VALUES (:1, :2, :3)", [["east", "p1", 10], ["east", "p2", 20], ["west", "p1", 5]], { autoCommit: true })
  })
  afterAll(() => closeConnection({ server, conn }))

  it("numbers the second (region) set of GROUPING SETS ((region), (region), ()) 1 (was: 0 for every row)", async () => {
    const r = await conn.execute("SELECT region, SUM(amount) total, GROUP_ID() gid FROM gid_sales GROUP BY GROUPING SETS ((region), (region), ()) ORDER BY region, gid")
    expect(r.rows).toEqual([["east", 30, 0], ["east", 30, 1], ["west", 5, 0], ["west", 5, 1], [null, 35, 0]])
    expect(r.metaData?.map((m: { name: string }) => m.name)).toEqual(["REGION", "TOTAL", "GID"])
  })

  it("numbers the repeats a column before its ROLLUP makes, and HAVING GROUP_ID() = 0 leaves them out (was: 0 for every row)", async () => {
    const sql = "SELECT region, product, SUM(amount), GROUP_ID() FROM gid_sales GROUP BY region, ROLLUP(region, product)"
    const all = await conn.execute(`${sql} ORDER BY region, product NULLS LAST, 4`)
    expect(all.rows).toEqual([
      ["east", "p1", 10, 0],
      ["east", "p2", 20, 0],
      ["east", null, 30, 0],
      ["east", null, 30, 1],
      ["west", "p1", 5, 0],
      ["west", null, 5, 0],
      ["west", null, 5, 1]
    ])
    expect(all.metaData?.[3]?.name).toBe("GROUP_ID()")
    const kept = await conn.execute(`${sql} HAVING GROUP_ID() = 0 ORDER BY region, product NULLS LAST`)
    expect(kept.rows).toEqual([["east", "p1", 10, 0], ["east", "p2", 20, 0], ["east", null, 30, 0], ["west", "p1", 5, 0], ["west", null, 5, 0]])
  })

  it("numbers three repeats 0, 1, 2 in a PL/SQL block's query too (was: 0 for every row)", async () => {
    const r = await conn.execute(
      `DECLARE v VARCHAR2(100);
BEGIN
  FOR x IN (SELECT GROUP_ID() g, COUNT(*) n FROM gid_sales GROUP BY GROUPING SETS (region, (region), CUBE(region)) HAVING region = 'west' ORDER BY 1) LOOP
    v := v || x.g || ':' || x.n || ' ';
  END LOOP;
  :v := v;
END;`,
      { v: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } }
    )
    expect((r.outBinds as { v: string }).v).toBe("0:1 1:1 2:1 ")
  })
})
