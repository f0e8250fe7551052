import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// Expressions over TIMESTAMP WITH TIME ZONE columns grouped inside ROLLUP / CUBE / GROUPING SETS group by instant as
// in a plain GROUP BY (Database Globalization Support Guide, "Datetime Comparisons": values are compared by their UTC
// instant), and a rolled-up row shows NULL for them (SQL Language Reference, "SELECT", group_by_clause: "ROLLUP ...
// super-aggregate rows"). Rows 1-2 of `a` are one instant (11:00 UTC) in two zones, row 3 is 13:00 UTC.
describe("Oracle test server: zoned expressions in ROLLUP / CUBE / GROUPING SETS (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const noon = new Date(Date.UTC(2024, 0, 1, 12))
  const two = new Date(Date.UTC(2024, 0, 1, 14))
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE tzr (id NUMBER, g VARCHAR2(1), a TIMESTAMP WITH TIME ZONE)")
    await conn.execute("INSERT INTO tzr VALUES (1, 'x', TIMESTAMP '2024-01-01 12:00:00 +01:00')")
    await conn.execute("INSERT INTO tzr VALUES (2, 'x', TIMESTAMP '2024-01-01 11:00:00 +00:00')")
    await conn.execute("INSERT INTO tzr VALUES (3, 'y', TIMESTAMP '2024-01-01 13:00:00 +00:00')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("ROLLUP of a zoned expression groups by instant and rolls up to NULL", async () => {
    const r = await conn.execute("SELECT a + INTERVAL '1' HOUR h, COUNT(*) FROM tzr GROUP BY ROLLUP(a + INTERVAL '1' HOUR) ORDER BY 2")
    expect(r.rows).toEqual([
      [two, 1],
      [noon, 2],
      [null, 3]
    ])
    expect(r.metaData[0]).toMatchObject({ dbTypeName: "TIMESTAMP WITH TIME ZONE" })
  })

  it("CUBE and GROUPING SETS of a zoned expression beside another column", async () => {
    const cube = await conn.execute("SELECT g, a + INTERVAL '1' HOUR, COUNT(*) FROM tzr GROUP BY CUBE(g, a + INTERVAL '1' HOUR) ORDER BY 3, 1, 2")
    expect(cube.rows).toEqual([
      ["y", two, 1],
      ["y", null, 1],
      [null, two, 1],
      ["x", noon, 2],
      ["x", null, 2],
      [null, noon, 2],
      [null, null, 3]
    ])
    const sets = await conn.execute("SELECT g, a + INTERVAL '1' HOUR, COUNT(*) FROM tzr GROUP BY GROUPING SETS ((a + INTERVAL '1' HOUR), g) ORDER BY 3, 1")
    expect(sets.rows).toEqual([
      ["y", null, 1],
      [null, two, 1],
      ["x", null, 2],
      [null, noon, 2]
    ])
  })
})
