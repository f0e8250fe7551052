import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { withServer } from "./oracle/helpers.ts"

// TABLE(alias.column) over nested table and VARRAY columns, through raw node-oracledb, as the SQL Language Reference
// 23ai ("TABLE Collection Expressions") describes it: laterally joined with the table before it, one row per element,
// COLUMN_VALUE for a scalar element type and one column per attribute for an object element type, no row for a NULL
// or empty collection (unless outer-joined with (+)); elements keep their values and NULLs.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: TABLE() over collection columns", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TYPE cc_nums AS TABLE OF NUMBER")
    await conn.execute("CREATE TYPE cc_pt AS OBJECT (x NUMBER(5), label VARCHAR2(10), d DATE)")
    await conn.execute("CREATE TYPE cc_pts AS VARRAY(10) OF cc_pt")
    await conn.execute("CREATE TABLE cc (id NUMBER, nums cc_nums, pts cc_pts) NESTED TABLE nums STORE AS cc_nums_tab")
    await conn.execute("INSERT INTO cc VALUES (1, cc_nums(1, 2.5, NULL), cc_pts(cc_pt(1, 'a', DATE '2024-01-02'), cc_pt(2, NULL, NULL)))")
    await conn.execute("INSERT INTO cc VALUES (2, cc_nums(), NULL)")
    await conn.execute("INSERT INTO cc VALUES (3, cc_nums(7), cc_pts())")
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("unnests a nested table of numbers as COLUMN_VALUE rows, none for an empty or NULL collection", async () => {
    const r = await conn.execute("SELECT t.id, c.COLUMN_VALUE FROM cc t, TABLE(t.nums) c ORDER BY t.id, c.COLUMN_VALUE NULLS LAST")
    expect(r.rows).toEqual([
      [1, 1],
      [1, 2.5],
      [1, null],
      [3, 7]
    ])
    expect(((await conn.execute("SELECT SUM(c.COLUMN_VALUE) total, COUNT(*) n FROM cc t, TABLE(t.nums) c WHERE t.id = 1")).rows)).toEqual([[3.5, 3]])
  })

  it("unnests a VARRAY of objects as one column per attribute, typed as the attribute", async () => {
    const r = await conn.execute("SELECT t.id, p.x, p.label, p.d FROM cc t, TABLE(t.pts) p ORDER BY p.x")
    expect(r.rows).toEqual([
      [1, 1, "a", new Date(2024, 0, 2)],
      [1, 2, null, null]
    ])
    expect((r.metaData as Array<{ name: string; dbTypeName: string }>).map((m) => [m.name, m.dbTypeName])).toEqual([
      ["ID", "NUMBER"],
      ["X", "NUMBER"],
      ["LABEL", "VARCHAR2"],
      ["D", "DATE"]
    ])
    const where = await conn.execute("SELECT t.id FROM cc t WHERE EXISTS (SELECT 1 FROM TABLE(t.pts) p WHERE p.label = 'a')")
    expect(where.rows).toEqual([[1]])
  })

  it("heads an unaliased constructor item by the call as written, as Oracle names an expression's column", async () => {
    const r = await conn.execute("SELECT cc_nums(1, 2), cc_pt(3, 'x', NULL), cc_pts(cc_pt(1, 'a', NULL)) p FROM dual")
    expect(r.metaData.map((m: { name: string }) => m.name)).toEqual(["CC_NUMS(1,2)", "CC_PT(3,'X',NULL)", "P"])
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["TEST.CC_NUMS", "TEST.CC_PT", "TEST.CC_PTS"])
  })
})
