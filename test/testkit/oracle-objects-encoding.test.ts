import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: encoding object values into rows, through raw node-oracledb", () => {
  beforeAll(async () => {
    const s = await withServer()
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TYPE stamp_t AS OBJECT (n NUMBER, seen DATE)")
    await conn.execute("CREATE TABLE stamps (id NUMBER PRIMARY KEY, s stamp_t)")
    await conn.execute("INSERT INTO stamps VALUES (1, stamp_t(1, DATE '2024-01-01'))")
    await conn.execute("INSERT INTO stamps VALUES (2, stamp_t(2, DATE '2024-01-02'))")
    // the server takes any text into a DATE attribute and only fails when it encodes the value for a fetch
    await conn.execute("INSERT INTO stamps VALUES (3, stamp_t(3, 'not a date'))")
    await conn.execute("INSERT INTO stamps VALUES (4, stamp_t(4, DATE '2024-01-04'))")
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("answers a row it cannot encode with an ORA- error instead of a half-written message, and the session stays usable", async () => {
    // rows 1 to 4 all travel in the reply to the execute itself
    const e = await failure(() => conn.execute("SELECT id, s FROM stamps ORDER BY id", [], { prefetchRows: 10, fetchArraySize: 10 }))
    expect(e.message).not.toMatch(/NJS-/)
    expect(oraCode(e)).toBe("ORA-01861")
    expect((await conn.execute("SELECT 1 FROM dual")).rows).toEqual([[1]])
    const good = await conn.execute("SELECT id, s FROM stamps WHERE id <> 3 ORDER BY id")
    expect(good.rows.map((r: Array<any>) => [r[0], r[1].N])).toEqual([[1, 1], [2, 2], [4, 4]])
  })

  it("reports the error of a row met by a later FETCH, after the rows before it, and the session stays usable", async () => {
    const r = await conn.execute("SELECT id, s FROM stamps ORDER BY id", [], { resultSet: true, fetchArraySize: 1, prefetchRows: 1 })
    const seen: Array<number> = []
    const e = await failure(async () => {
      for (let row = await r.resultSet.getRow(); row !== undefined; row = await r.resultSet.getRow()) seen.push(row[0])
    })
    expect(e.message).not.toMatch(/NJS-/)
    expect(oraCode(e)).toBe("ORA-01861")
    expect(seen).toEqual([1, 2])
    await r.resultSet.close().catch(() => undefined)
    expect((await conn.execute("SELECT COUNT(*) FROM stamps")).rows).toEqual([[4]])
  })
})
