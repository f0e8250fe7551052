import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, oracledb, openConnection } from "./oracle/helpers.ts"

/**
 * Multiset conditions and CARDINALITY over a nested table column in a client's SQL (SQL Language Reference,
 * "Multiset Conditions": IS [NOT] EMPTY, IS [NOT] A SET and MEMBER OF are NULL for a NULL nested table; "CARDINALITY":
 * NULL for an empty or NULL one), through raw node-oracledb against the Oracle test server.
 */
describe("Oracle test server: multiset conditions over nested table columns", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TYPE msc_strs AS TABLE OF VARCHAR2(10)")
    await conn.execute("CREATE TABLE msc (id NUMBER, c msc_strs) NESTED TABLE c STORE AS msc_c")
    await conn.execute("INSERT INTO msc VALUES (1, msc_strs('a', 'b', 'a'))")
    await conn.execute("INSERT INTO msc VALUES (2, msc_strs())")
    await conn.execute("INSERT INTO msc VALUES (3, NULL)")
    await conn.execute("INSERT INTO msc VALUES (4, msc_strs('b', 'c'))")
  })
  afterAll(() => closeConnection({ server, conn }))

  const ids = async (sql: string, binds: Record<string, unknown> = {}) =>
    ((await conn.execute(sql, binds, { outFormat: oracledb.OUT_FORMAT_ARRAY })).rows as Array<Array<unknown>>).map((r) => (r.length === 1 ? r[0] : r))

  it("filters by IS [NOT] EMPTY, IS [NOT] A SET and [NOT] MEMBER OF, and counts with CARDINALITY", async () => {
    expect(await ids("SELECT id FROM msc WHERE c IS EMPTY ORDER BY id")).toEqual([2])
    expect(await ids("SELECT id FROM msc WHERE c IS NOT EMPTY ORDER BY id")).toEqual([1, 4])
    expect(await ids("SELECT id FROM msc m WHERE m.c IS A SET ORDER BY id")).toEqual([2, 4])
    expect(await ids("SELECT id FROM msc WHERE c IS NOT A SET ORDER BY id")).toEqual([1])
    expect(await ids("SELECT id FROM msc WHERE 'b' MEMBER OF c ORDER BY id")).toEqual([1, 4])
    expect(await ids("SELECT id FROM msc WHERE :x MEMBER c ORDER BY id", { x: "a" })).toEqual([1])
    expect(await ids("SELECT id FROM msc WHERE 'a' NOT MEMBER OF c ORDER BY id")).toEqual([4])
    expect(await ids("SELECT id, CARDINALITY(c) FROM msc ORDER BY id")).toEqual([[1, 3], [2, null], [3, null], [4, 2]])
  })
})
