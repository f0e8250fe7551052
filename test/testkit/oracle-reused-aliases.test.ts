import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// One alias given to two tables of a FROM clause, through raw node-oracledb: Oracle runs `SELECT * FROM t a, t a` and
// resolves `a.c` by column name, ORA-00918 for a column both tables have (Jonathan Lewis, "Using bug", Oracle
// Scratchpad 2020). The server refused it with the catch-all ORA-03001.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: a FROM alias used twice", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE ra (id NUMBER, v NUMBER)")
    await conn.execute("CREATE TABLE rb (id NUMBER, w NUMBER)")
    await conn.executeMany("INSERT INTO ra VALUES (:1, :2)", [[1, 10], [2, 20]])
    await conn.execute("INSERT INTO rb VALUES (1, 7)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("runs SELECT * over both tables and resolves a.column to the table that has the column", async () => {
    const all = await conn.execute("SELECT * FROM ra a, ra a ORDER BY 1, 3")
    expect(all.rows).toEqual([[1, 10, 1, 10], [1, 10, 2, 20], [2, 20, 1, 10], [2, 20, 2, 20]])
    // (node-oracledb suffixes a repeated column name, as it does for `FROM ra a, ra b`)
    expect((all.metaData as Array<{ name: string }>).map((m) => m.name)).toEqual(["ID", "V", "ID_1", "V_1"])
    expect((await conn.execute("SELECT a.v, a.w FROM ra a, rb a ORDER BY 1")).rows).toEqual([[10, 7], [20, 7]])
    expect((await conn.execute("SELECT a.v, a.w FROM ra a JOIN rb a ON a.w > a.v - 10 ORDER BY 1")).rows).toEqual([[10, 7]])
  })

  it("a column both tables have is ORA-00918", async () => {
    expect(oraCode(await failure(() => conn.execute("SELECT a.id FROM ra a, rb a")))).toBe("ORA-00918")
  })
})
