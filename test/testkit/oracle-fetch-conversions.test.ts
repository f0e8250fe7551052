import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { oracledb, withServer } from "./oracle/helpers.ts"

// Every fetch conversion node-oracledb asks the server for (its DB_TYPE_CONVERSION_MAP: the LOB, JSON and VECTOR
// columns it defines as another type; the other conversions it makes itself), through the raw client. A VECTOR as a
// string or CLOB is its FROM_VECTOR text (AI Vector Search User's Guide 23ai, "FROM_VECTOR": `[1.0E+000,2.0E+000,
// 3.0E+000]`, a FLOAT32 1.1 as `1.10000002E+000`); a JSON column as a string is its JSON text.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: columns fetched as another type", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE fc (c CLOB, n NCLOB, b BLOB, j JSON, v VECTOR(3, FLOAT32), w VECTOR(*, FLOAT64), i VECTOR(2, INT8))")
    await conn.execute(`INSERT INTO fc VALUES ('clob text', 'nclob text', HEXTORAW('0102'), '{"a":[1,"x"]}', '[1.1,2.2,3.3]', '[1,0.5]', '[1,-2]')`)
    await conn.execute(`INSERT INTO fc VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL)`)
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const fetched = async (column: string, type: string): Promise<Array<unknown>> => {
    const r = await conn.execute(`SELECT ${column} FROM fc ORDER BY ${column} NULLS LAST`, [], { fetchTypeHandler: () => ({ type: oracledb[type] }) })
    const values: Array<unknown> = []
    for (const [v] of r.rows as Array<[unknown]>) {
      const data = v !== null && typeof (v as { getData?: unknown }).getData === "function" ? await (v as { getData: () => Promise<unknown> }).getData() : v
      values.push(Buffer.isBuffer(data) ? data.toString("hex") : data)
    }
    return values
  }

  it("sends LOBs, JSON and VECTORs as the type the client defines, NULL as NULL", async () => {
    const cases: ReadonlyArray<readonly [string, string, unknown]> = [
      ["c", "DB_TYPE_VARCHAR", "clob text"],
      ["c", "DB_TYPE_LONG", "clob text"],
      ["n", "DB_TYPE_VARCHAR", "nclob text"],
      ["n", "DB_TYPE_LONG_NVARCHAR", "nclob text"],
      ["b", "DB_TYPE_RAW", "0102"],
      ["b", "DB_TYPE_LONG_RAW", "0102"],
      ["j", "DB_TYPE_VARCHAR", '{"a":[1,"x"]}'],
      ["v", "DB_TYPE_VARCHAR", "[1.10000002E+000,2.20000005E+000,3.29999995E+000]"],
      ["v", "DB_TYPE_LONG", "[1.10000002E+000,2.20000005E+000,3.29999995E+000]"],
      ["v", "DB_TYPE_CLOB", "[1.10000002E+000,2.20000005E+000,3.29999995E+000]"],
      ["w", "DB_TYPE_VARCHAR", "[1.0E+000,5.0E-001]"],
      ["i", "DB_TYPE_CLOB", "[1,-2]"]
    ]
    for (const [column, type, value] of cases) expect([column, type, await fetched(column, type)]).toEqual([column, type, [value, null]])
  })

  it("keeps the session usable and the default fetch unchanged after a conversion", async () => {
    await fetched("v", "DB_TYPE_CLOB")
    const r = await conn.execute("SELECT v, j FROM fc WHERE v IS NOT NULL")
    const [[v, j]] = r.rows as [[Float32Array, unknown]]
    expect(Array.from(v)).toEqual([Math.fround(1.1), Math.fround(2.2), Math.fround(3.3)])
    expect(j).toEqual({ a: [1, "x"] })
  })
})
