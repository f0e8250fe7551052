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

describe("Oracle test server: statistics edge cases and the 21c aggregates", () => {
  let s: Awaited<ReturnType<typeof withServer>>
  let c: Conn
  beforeAll(async () => {
    s = await withServer({ version: "23ai" })
    c = await s.connect()
    await c.execute("CREATE TABLE st (id NUMBER, v NUMBER, w NUMBER(6,2))")
    await c.executeMany("INSERT INTO st VALUES (:1, :2, :3)", [[1, 10, 10], [2, 20, 20], [3, 35, 35], [4, null, null], [5, 95, 95]])
    await c.commit()
  })
  afterAll(async () => {
    await c?.close()
    await s?.server.close()
  })
  const row = async (sql: string): Promise<Array<number | null>> => ((await c.execute(sql)).rows as Array<Array<number | null>>)[0]!
  const digits = (xs: ReadonlyArray<number | null>) => xs.map((x) => (x === null ? null : Number(x.toPrecision(12))))

  it("STDDEV and VARIANCE of one value are 0, STDDEV_SAMP and VAR_SAMP NULL, of none NULL (SQL Language Reference, STDDEV / VARIANCE)", async () => {
    expect(await row("SELECT STDDEV(v), VARIANCE(v), STDDEV_SAMP(v), VAR_SAMP(v), STDDEV(w), VARIANCE(w) FROM st WHERE id = 1")).toEqual([0, 0, null, null, 0, 0])
    expect(await row("SELECT STDDEV(v), VARIANCE(v) FROM st WHERE id = 4")).toEqual([null, null])
    expect(await row("SELECT STDDEV(v) OVER (ORDER BY id) FROM st WHERE id <= 2")).toEqual([0])
  })

  it("CORR and the REGR_ functions of one pair or a constant operand are NULL; REGR_COUNT / SXX / SYY / SXY count and sum the pairs", async () => {
    expect(await row("SELECT CORR(v, id), REGR_SLOPE(v, id), REGR_R2(v, id), CORR(w, id) FROM st WHERE id = 1")).toEqual([null, null, null, null])
    expect(await row("SELECT CORR(v, 1) FROM st")).toEqual([null])
    // pairs (id, v): (1, 10), (2, 20), (3, 35), (5, 95): mean id 2.75, mean v 40
    const ids = [1, 2, 3, 5]
    const vs = [10, 20, 35, 95]
    const sxx = ids.reduce((a, x) => a + (x - 2.75) ** 2, 0)
    const syy = vs.reduce((a, y) => a + (y - 40) ** 2, 0)
    const sxy = ids.reduce((a, x, k) => a + (x - 2.75) * (vs[k]! - 40), 0)
    expect(digits(await row("SELECT REGR_COUNT(v, id), REGR_SXX(v, id), REGR_SYY(v, id), REGR_SXY(v, id), REGR_SXY(w, id) FROM st"))).toEqual(digits([4, sxx, syy, sxy, sxy]))
  })

  it("KURTOSIS_POP / _SAMP and SKEWNESS_POP / _SAMP: 0 of one or two values, else the moments of the values", async () => {
    expect(await row("SELECT KURTOSIS_POP(v), KURTOSIS_SAMP(v), SKEWNESS_POP(v), SKEWNESS_SAMP(v) FROM st WHERE id <= 2")).toEqual([0, 0, 0, 0])
    expect(await row("SELECT KURTOSIS_POP(v), SKEWNESS_POP(v) FROM st WHERE id = 4")).toEqual([null, null])
    const vs = [10, 20, 35, 95]
    const n = vs.length
    const mean = vs.reduce((a, x) => a + x, 0) / n
    const m = (k: number) => vs.reduce((a, x) => a + (x - mean) ** k, 0) / n
    const g1 = m(3) / m(2) ** 1.5
    const g2 = m(4) / m(2) ** 2 - 3
    const kurtosisSamp = ((n - 1) / ((n - 2) * (n - 3))) * ((n + 1) * g2 + 6)
    const skewnessSamp = (g1 * Math.sqrt(n * (n - 1))) / (n - 2)
    const r = await c.execute("SELECT KURTOSIS_POP(v), KURTOSIS_SAMP(v), SKEWNESS_POP(v), SKEWNESS_SAMP(w) FROM st")
    expect(digits((r.rows as Array<Array<number>>)[0]!)).toEqual(digits([g2, kurtosisSamp, g1, skewnessSamp]))
    expect((r.metaData as Array<{ dbTypeName: string }>).map((m) => m.dbTypeName).slice(0, 3)).toEqual(["NUMBER", "NUMBER", "NUMBER"])
  })
})
