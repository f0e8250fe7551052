import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { withServer } from "./oracle/helpers.ts"

// Statistical aggregates over a NUMBER column without precision (the common `NUMBER` declaration), through raw
// node-oracledb (SQL Language Reference 23ai, "MEDIAN", "STDDEV", "VARIANCE", "PERCENTILE_CONT", "PERCENTILE_DISC",
// "CORR", "COVAR_POP", "REGR_ (Linear Regression) Functions"): values ordered and computed as numbers, NUMBER results.
// MEDIAN came back as the median of the values' text ("30.5" of 10, 30.5 and 9), PERCENTILE_DISC as garbage, the
// others failed ORA-00932. Results are compared with the exact values to 12 digits: the server computes on doubles.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: statistics over NUMBER columns", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE ns (id NUMBER, v NUMBER, g VARCHAR2(2))")
    await conn.executeMany("INSERT INTO ns VALUES (:1, :2, :3)", [[1, 10, "a"], [2, null, "a"], [3, 30.5, "b"], [4, 9, "b"]])
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const value = async (expr: string): Promise<{ value: number; type: string }> => {
    const r = await conn.execute(`SELECT ${expr} FROM ns`)
    return { value: (r.rows as Array<[number]>)[0]![0], type: (r.metaData as Array<{ dbTypeName: string }>)[0]!.dbTypeName }
  }

  it("orders by value and computes the spread of the values", async () => {
    // v = 10, 30.5, 9 (one NULL): mean 16.5, squared deviations 42.25 + 196 + 56.25 = 294.5
    expect(await value("MEDIAN(v)")).toEqual({ value: 10, type: "NUMBER" })
    expect(await value("PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY v)")).toEqual({ value: 10, type: "NUMBER" })
    expect(await value("PERCENTILE_DISC(0.9) WITHIN GROUP (ORDER BY v)")).toEqual({ value: 30.5, type: "NUMBER" })
    expect(await value("PERCENTILE_DISC(0.9) WITHIN GROUP (ORDER BY v DESC)")).toEqual({ value: 9, type: "NUMBER" })
    expect(await value("VARIANCE(v)")).toEqual({ value: 147.25, type: "NUMBER" })
    expect(await value("VAR_POP(v)")).toEqual({ value: 294.5 / 3, type: "NUMBER" })
    const stddev = await value("STDDEV(v)")
    expect([stddev.type, stddev.value.toPrecision(12)]).toEqual(["NUMBER", Math.sqrt(147.25).toPrecision(12)])
    expect((await value("MEDIAN(v) OVER (PARTITION BY g)")).type).toBe("NUMBER")
  })

  it("CORR, COVAR_POP and REGR_SLOPE pair the non-NULL rows", async () => {
    // pairs (id, v): (1, 10), (3, 30.5), (4, 9); mean id 8/3, mean v 16.5
    const covar = ((1 - 8 / 3) * (10 - 16.5) + (3 - 8 / 3) * (30.5 - 16.5) + (4 - 8 / 3) * (9 - 16.5)) / 3
    expect((await value("COVAR_POP(v, id)")).value.toPrecision(12)).toBe(covar.toPrecision(12))
    const varId = ((1 - 8 / 3) ** 2 + (3 - 8 / 3) ** 2 + (4 - 8 / 3) ** 2) / 3
    expect((await value("REGR_SLOPE(v, id)")).value.toPrecision(12)).toBe((covar / varId).toPrecision(12))
    expect((await value("CORR(v, id)")).value.toPrecision(12)).toBe((covar / Math.sqrt(varId * (294.5 / 3))).toPrecision(12))
  })
})
