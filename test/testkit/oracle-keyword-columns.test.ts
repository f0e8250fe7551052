/**
 * A column named AT: Oracle does not reserve the word (it is a keyword of `AT TIME ZONE` / `AT LOCAL` only: SQL
 * Language Reference, "Oracle SQL Reserved Words" does not list it), so `CREATE TABLE t (at TIMESTAMP)` and queries
 * naming the column run; the server's engine reserves it and must be given it quoted. Raw node-oracledb against the
 * Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const rows = async (sql: string) => (await conn.execute(sql)).rows

describe("Oracle test server: a column named AT", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE kw_at (id NUMBER, at TIMESTAMP)")
    await conn.execute("INSERT INTO kw_at VALUES (1, TIMESTAMP '2024-01-01 10:00:00')")
    await conn.execute("INSERT INTO kw_at (id, at) VALUES (2, TIMESTAMP '2023-06-01 08:30:00')")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("is selected, filtered, ordered, updated and read AT TIME ZONE", async () => {
    expect(await rows("SELECT id, TO_CHAR(at, 'YYYY-MM-DD HH24:MI') FROM kw_at ORDER BY at")).toEqual([[2, "2023-06-01 08:30"], [1, "2024-01-01 10:00"]])
    expect(await rows("SELECT id FROM kw_at WHERE at > TIMESTAMP '2023-12-31 00:00:00'")).toEqual([[1]])
    await conn.execute("UPDATE kw_at SET at = at + INTERVAL '1' HOUR WHERE id = 2")
    expect(await rows("SELECT TO_CHAR(k.at, 'HH24:MI') FROM kw_at k WHERE k.id = 2")).toEqual([["09:30"]])
    expect(await rows("SELECT TO_CHAR(FROM_TZ(at, 'UTC') AT TIME ZONE '+02:00', 'HH24:MI TZH:TZM') FROM kw_at WHERE id = 1")).toEqual([["12:00 +02:00"]])
  })
})
