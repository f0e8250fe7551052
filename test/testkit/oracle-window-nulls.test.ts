import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { withServer } from "./oracle/helpers.ts"

// LAG, LEAD, FIRST_VALUE, LAST_VALUE and NTH_VALUE through raw node-oracledb, as the SQL Language Reference 23ai
// describes them: `{RESPECT | IGNORE} NULLS` after the call or after the first argument, NTH_VALUE's FROM FIRST, and
// a NUMBER argument giving a NUMBER (they returned a NUMBER column without precision as VARCHAR2 text).
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: window functions' null treatment and types", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE wn (id NUMBER, v NUMBER)")
    await conn.executeMany("INSERT INTO wn VALUES (:1, :2)", [[1, 10], [2, null], [3, 30.5], [4, null]])
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const column = async (expr: string) => {
    const r = await conn.execute(`SELECT ${expr} FROM wn ORDER BY id`)
    return { values: (r.rows as Array<[unknown]>).map((row) => row[0]), type: (r.metaData as Array<{ dbTypeName: string }>)[0]!.dbTypeName }
  }

  it("a NUMBER column's LAG / LEAD / FIRST_VALUE / LAST_VALUE / NTH_VALUE is a NUMBER", async () => {
    expect(await column("LAG(v) OVER (ORDER BY id)")).toEqual({ values: [null, 10, null, 30.5], type: "NUMBER" })
    expect(await column("LEAD(v, 2, 0) OVER (ORDER BY id)")).toEqual({ values: [30.5, null, 0, 0], type: "NUMBER" })
    expect(await column("LAG(v) OVER (ORDER BY id) + 1")).toEqual({ values: [null, 11, null, 31.5], type: "NUMBER" })
  })

  it("IGNORE NULLS after the call or after the first argument, RESPECT NULLS and FROM FIRST", async () => {
    expect(await column("LAG(v) IGNORE NULLS OVER (ORDER BY id)")).toEqual({ values: [null, 10, 10, 30.5], type: "NUMBER" })
    expect(await column("LAG(v IGNORE NULLS, 1, -1) OVER (ORDER BY id)")).toEqual({ values: [-1, 10, 10, 30.5], type: "NUMBER" })
    expect(await column("LAST_VALUE(v) IGNORE NULLS OVER (ORDER BY id)")).toEqual({ values: [10, 10, 30.5, 30.5], type: "NUMBER" })
    expect(await column("FIRST_VALUE(v) RESPECT NULLS OVER (ORDER BY id DESC)")).toEqual({ values: [null, null, null, null], type: "NUMBER" })
    expect(await column("NTH_VALUE(v, 2) FROM FIRST IGNORE NULLS OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)")).toEqual({ values: [30.5, 30.5, 30.5, 30.5], type: "NUMBER" })
    expect(await column("LEAD(v) IGNORE NULLS OVER (ORDER BY id)")).toEqual({ values: [30.5, 30.5, null, null], type: "NUMBER" })
  })
})
