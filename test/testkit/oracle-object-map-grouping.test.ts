/**
 * Oracle test server: DISTINCT and GROUP BY of objects of a type with a MAP method treat objects mapping to the same
 * value as equal (raw node-oracledb). Object-Relational Developer's Guide, "Map Methods": "Map methods ... are called
 * implicitly and induce an ordering of object instances by mapping them to values of a predefined scalar type", used
 * for "comparisons ... DISTINCT, GROUP BY, UNION and ORDER BY".
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

type Pt = { X: number; Y: number } | null
const sums = (rows: Array<[Pt]>) => rows.map(([o]) => (o === null ? null : o.X + o.Y)).sort()

describe("Oracle test server: DISTINCT and GROUP BY of objects by their MAP method (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      "CREATE TYPE og_pt AS OBJECT (x NUMBER, y NUMBER, MAP MEMBER FUNCTION m RETURN NUMBER)",
      "CREATE TYPE BODY og_pt AS MAP MEMBER FUNCTION m RETURN NUMBER IS BEGIN RETURN x + y; END; END;",
      "CREATE TABLE og_t (id NUMBER, o og_pt)",
      "INSERT INTO og_t VALUES (1, og_pt(2, 1))",
      "INSERT INTO og_t VALUES (2, og_pt(3, 0))",
      "INSERT INTO og_t VALUES (3, og_pt(1, 1))",
      "INSERT INTO og_t VALUES (4, NULL)",
      "CREATE TYPE og_base AS OBJECT (x NUMBER, MAP MEMBER FUNCTION m RETURN NUMBER) NOT FINAL",
      "CREATE TYPE BODY og_base AS MAP MEMBER FUNCTION m RETURN NUMBER IS BEGIN RETURN x; END; END;",
      "CREATE TYPE og_sub UNDER og_base (y NUMBER)",
      "CREATE TABLE og_s (id NUMBER, s og_sub)",
      "INSERT INTO og_s VALUES (1, og_sub(1, 5))",
      "INSERT INTO og_s VALUES (2, og_sub(3, 0))",
      "INSERT INTO og_s VALUES (3, og_sub(3, 7))"
    ]) await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("SELECT DISTINCT keeps one object per MAP value", async () => {
    expect(sums((await conn.execute("SELECT DISTINCT t.o FROM og_t t")).rows)).toEqual([2, 3, null])
  })

  it("GROUP BY an object column groups by the MAP value, and the object can be selected", async () => {
    expect((await conn.execute("SELECT COUNT(*) FROM og_t t GROUP BY t.o ORDER BY 1")).rows).toEqual([[1], [1], [2]])
    const rows = (await conn.execute("SELECT t.o, COUNT(*) FROM og_t t GROUP BY t.o")).rows
    // sorted as text: the NULL object's row first
    expect(rows.map(([o, n]: [Pt, number]) => [o === null ? null : o.X + o.Y, n]).sort()).toEqual([[null, 1], [2, 1], [3, 2]])
    expect((await conn.execute("SELECT t.o FROM og_t t GROUP BY t.o")).metaData[0]).toMatchObject({ name: "O", dbTypeName: "TEST.OG_PT" })
  })

  it("a subtype's objects compare, sort and group by the MAP method it inherits", async () => {
    expect((await conn.execute("SELECT t.id FROM og_s t WHERE t.s > og_sub(2, 9) ORDER BY t.id")).rows).toEqual([[2], [3]])
    expect((await conn.execute("SELECT t.id FROM og_s t ORDER BY t.s DESC, t.id")).rows).toEqual([[2], [3], [1]])
    expect((await conn.execute("SELECT COUNT(*) FROM og_s t GROUP BY t.s ORDER BY 1")).rows).toEqual([[1], [2]])
  })
})
