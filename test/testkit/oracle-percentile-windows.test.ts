import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { withServer } from "./oracle/helpers.ts"

// PERCENTILE_CONT / PERCENTILE_DISC ... WITHIN GROUP (ORDER BY ...) OVER (...) through raw node-oracledb (SQL Language
// Reference, "PERCENTILE_CONT": interpolation between rows FLOOR(RN) and CEIL(RN), RN = 1 + p * (n - 1);
// "PERCENTILE_DISC": the first value whose cumulative distribution reaches p). They failed ORA-03001 / ORA-00904.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: PERCENTILE_CONT / PERCENTILE_DISC as analytic functions", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE pw (id NUMBER(4), dept NUMBER(4), sal NUMBER, bonus NUMBER(6,1))")
    await conn.executeMany("INSERT INTO pw VALUES (:1, :2, :3, :4)", [[1, 10, 100, 1], [2, 10, 200, null], [3, 10, 1000, 3], [4, 20, 300, 4], [5, 20, 50, 5], [6, 20, 300, 6], [7, 20, null, 8]])
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const column = async (expr: string) => ((await conn.execute(`SELECT ${expr} FROM pw ORDER BY id`)).rows as Array<[unknown]>).map((r) => r[0])

  it("OVER () and OVER (PARTITION BY ...), NULLs left out, NUMBER values ordered by their number", async () => {
    // all sal: 50, 100, 200, 300, 300, 1000: RN = 3.5
    expect(await column("PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY sal) OVER ()")).toEqual(Array(7).fill(250))
    expect(await column("PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY sal) OVER (PARTITION BY dept)")).toEqual([200, 200, 200, 300, 300, 300, 300])
    expect(await column("PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY bonus) OVER (PARTITION BY dept)")).toEqual([2, 2, 2, 5.5, 5.5, 5.5, 5.5])
  })

  it("DESC order, p = 0 and 1, and ORA-30493 for a percentile outside [0, 1]", async () => {
    expect(await column("PERCENTILE_CONT(0.25) WITHIN GROUP (ORDER BY id DESC) OVER (PARTITION BY dept)")).toEqual([2.5, 2.5, 2.5, 6.25, 6.25, 6.25, 6.25])
    expect(await column("PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY id DESC) OVER (PARTITION BY dept)")).toEqual([2, 2, 2, 6, 6, 6, 6])
    expect(await column("PERCENTILE_DISC(0) WITHIN GROUP (ORDER BY sal) OVER (PARTITION BY dept)")).toEqual([100, 100, 100, 50, 50, 50, 50])
    expect(await column("PERCENTILE_CONT(1) WITHIN GROUP (ORDER BY sal) OVER (PARTITION BY dept)")).toEqual([1000, 1000, 1000, 300, 300, 300, 300])
    await expect(conn.execute("SELECT PERCENTILE_CONT(1.5) WITHIN GROUP (ORDER BY id) OVER () FROM pw")).rejects.toThrow(/ORA-30493/)
  })
})
