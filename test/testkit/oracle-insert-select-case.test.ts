import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// A select item of INSERT ... SELECT that ends a CASE expression: its END was read as a column alias when the value
// was wrapped for its target column (number-writes.ts), leaving `CAST(CASE ... AS type) END` (ORA-00933).
describe("Oracle test server: INSERT ... SELECT of CASE expressions (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE isc_src (id NUMBER, f VARCHAR2(10), d DATE)")
    await conn.execute("INSERT INTO isc_src VALUES (1, 'x', DATE '2024-01-02')")
    await conn.execute("INSERT INTO isc_src VALUES (2, 'y', DATE '2024-01-03')")
    await conn.execute("CREATE TABLE isc_dst (id NUMBER, s VARCHAR2(10), d DATE)")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a CASE item written into NUMBER, VARCHAR2 and DATE columns, with and without a column list", async () => {
    await conn.execute("INSERT INTO isc_dst SELECT CASE WHEN f = 'x' THEN id * 10 END, CASE f WHEN 'x' THEN 'a' END, CASE WHEN f = 'x' THEN d END FROM isc_src")
    await conn.execute("INSERT INTO isc_dst (id, d) SELECT CASE f WHEN 'y' THEN id END, CASE f WHEN 'y' THEN TO_DATE('2024-05-06', 'YYYY-MM-DD') END FROM isc_src")
    const r = await conn.execute("SELECT id, s, TO_CHAR(d, 'YYYY-MM-DD') FROM isc_dst ORDER BY id NULLS LAST, s NULLS LAST")
    expect(r.rows).toEqual([[2, null, "2024-05-06"], [10, "a", "2024-01-02"], [null, null, null], [null, null, null]])
  })
})
