import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, withServer } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

/** Fetches every NUMBER as its decimal text, as node-oracledb decodes Oracle's digits. */
const asText = { fetchTypeHandler: (m: { dbType: unknown }) => (m.dbType === oracledb.DB_TYPE_NUMBER ? { type: oracledb.STRING } : undefined) }

describe("Oracle test server: NUMBER through raw node-oracledb", () => {
  beforeAll(async () => {
    const s = await withServer()
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE num (id NUMBER(3), v NUMBER, p NUMBER(10,2))")
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("keeps unbounded NUMBER values across Oracle's exponent range (1E-130 .. 9.99E125)", async () => {
    const values = ["1E125", "9.99E125", "1E-130", "-1E-130", "-4.5E100", "123.25", "0.001"]
    await conn.executeMany(
      "INSERT INTO num (id, v) VALUES (:1, :2)",
      values.map((v, i) => [i, Number(v)])
    )
    const r = await conn.execute("SELECT v FROM num WHERE v IS NOT NULL ORDER BY id", [], asText)
    expect(r.rows.map((x: Array<string>) => Number(x[0]))).toEqual(values.map(Number))
    expect(r.rows[5][0]).toBe("123.25")
    expect(r.rows[6][0]).toBe(".001")
    expect(r.metaData[0].precision).toBe(0)
    expect(r.metaData[0].scale).toBe(-127)
  })

  it("describes COUNT, SUM and AVG as NUMBER without precision or scale, whatever the argument's", async () => {
    await conn.execute("INSERT INTO num (id, p) VALUES (100, 12.5)")
    await conn.execute("INSERT INTO num (id, p) VALUES (101, 0.25)")
    const r = await conn.execute("SELECT COUNT(*), SUM(p), AVG(p) total_avg, COUNT(p) AS n, MAX(p) FROM num WHERE id >= 100")
    expect(r.rows[0].slice(0, 4)).toEqual([2, 12.75, 6.375, 2])
    for (const m of r.metaData.slice(0, 4)) {
      expect(m.dbTypeName).toBe("NUMBER")
      expect([m.precision, m.scale]).toEqual([0, -127])
    }
    // MAX keeps its argument's declared type
    expect([r.metaData[4].precision, r.metaData[4].scale]).toEqual([10, 2])
  })
})
