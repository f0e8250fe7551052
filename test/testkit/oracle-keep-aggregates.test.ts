import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { withServer } from "./oracle/helpers.ts"

// `agg(x) KEEP (DENSE_RANK FIRST | LAST ORDER BY ...) [OVER (PARTITION BY ...)]` through raw node-oracledb (SQL
// Language Reference, "FIRST" / "LAST": the aggregate over the rows ranking first or last, ties included). They failed
// ORA-00933.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: KEEP (DENSE_RANK FIRST | LAST ...) aggregates", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE kp (id NUMBER(4), dept NUMBER(4), sal NUMBER, hired DATE, name VARCHAR2(10))")
    await conn.executeMany("INSERT INTO kp VALUES (:1, :2, :3, :4, :5)", [
      [1, 10, 100, new Date(2020, 0, 5), "a"],
      [2, 10, 200, new Date(2021, 0, 5), "b"],
      [3, 10, 150, new Date(2019, 0, 5), "c"],
      [4, 20, 300, new Date(2018, 0, 5), "d"],
      [5, 20, 50, new Date(2018, 0, 5), "e"],
      [6, 20, 300, null, "f"]
    ])
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const rows = async (sql: string) => {
    const r = await conn.execute(sql)
    return { rows: r.rows, types: (r.metaData as Array<{ dbTypeName: string }>).map((m) => m.dbTypeName) }
  }

  it("aggregates the rows ranking first or last, ties included, per group", async () => {
    expect(await rows("SELECT dept, MAX(sal) KEEP (DENSE_RANK FIRST ORDER BY hired) FROM kp GROUP BY dept ORDER BY dept")).toEqual({ rows: [[10, 150], [20, 300]], types: ["NUMBER", "NUMBER"] })
    // dept 20's first hire date is shared by 300 and 50; a NULL date sorts last (ASC is NULLS LAST)
    expect((await rows("SELECT dept, MIN(sal) KEEP (DENSE_RANK FIRST ORDER BY hired), SUM(sal) KEEP (DENSE_RANK FIRST ORDER BY hired) FROM kp GROUP BY dept ORDER BY dept")).rows).toEqual([[10, 150, 150], [20, 50, 350]])
    expect((await rows("SELECT dept, MAX(name) KEEP (DENSE_RANK LAST ORDER BY hired) FROM kp GROUP BY dept ORDER BY dept")).rows).toEqual([[10, "b"], [20, "f"]])
    expect((await rows("SELECT dept, MAX(name) KEEP (DENSE_RANK LAST ORDER BY hired NULLS FIRST) FROM kp GROUP BY dept ORDER BY dept")).rows).toEqual([[10, "b"], [20, "e"]])
  })

  it("orders NUMBER keys by their number, on several keys, and COUNT / AVG keep their meaning", async () => {
    expect((await rows("SELECT COUNT(*) KEEP (DENSE_RANK FIRST ORDER BY sal DESC), MIN(id) KEEP (DENSE_RANK LAST ORDER BY sal DESC) FROM kp")).rows).toEqual([[2, 5]])
    expect((await rows("SELECT MAX(name) KEEP (DENSE_RANK FIRST ORDER BY sal DESC, id DESC) FROM kp")).rows).toEqual([["f"]])
    expect((await rows("SELECT AVG(sal) KEEP (DENSE_RANK FIRST ORDER BY dept) FROM kp")).rows).toEqual([[150]])
  })

  it("inside expressions and HAVING", async () => {
    expect((await rows("SELECT dept, MAX(sal) KEEP (DENSE_RANK FIRST ORDER BY hired) * 2, 'v' || MIN(sal) KEEP (DENSE_RANK LAST ORDER BY hired) FROM kp GROUP BY dept ORDER BY dept")).rows).toEqual([[10, 300, "v200"], [20, 600, "v300"]])
    expect((await rows("SELECT dept FROM kp GROUP BY dept HAVING MIN(sal) KEEP (DENSE_RANK FIRST ORDER BY hired) < 100")).rows).toEqual([[20]])
  })

  it("as an analytic function over a partition or the whole result", async () => {
    expect((await rows("SELECT id, MIN(sal) KEEP (DENSE_RANK LAST ORDER BY hired) OVER (PARTITION BY dept) FROM kp ORDER BY id")).rows).toEqual([[1, 200], [2, 200], [3, 200], [4, 300], [5, 300], [6, 300]])
    expect((await rows("SELECT id, MAX(sal) KEEP (DENSE_RANK FIRST ORDER BY hired) OVER () FROM kp WHERE dept = 10 ORDER BY id")).rows).toEqual([[1, 150], [2, 150], [3, 150]])
  })

  it("VARIANCE and STDDEV of a single kept row are 0, as of a single row (SQL Language Reference, VARIANCE / STDDEV)", async () => {
    // dept 10's first hire is one row (150); dept 20's last is the NULL date's row alone (300)
    expect((await rows("SELECT dept, VARIANCE(sal) KEEP (DENSE_RANK FIRST ORDER BY hired), STDDEV(sal) KEEP (DENSE_RANK LAST ORDER BY hired) FROM kp GROUP BY dept ORDER BY dept")).rows).toEqual([[10, 0, 0], [20, 31250, 0]])
  })
})
