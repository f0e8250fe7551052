import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// Everyday functions an audit through raw node-oracledb found missing or wrong (SQL Language Reference 23ai, each
// function's page): LENGTHB of non-ASCII text failed ORA-01861, DUMP of a CHAR column said Typ=1 and of a NUMBER
// column without precision showed its decimal text as Typ=1 (so VSIZE counted the text's bytes).
let server: OracleTestServerHandle
let conn: Conn

const row = async (sql: string, binds: ReadonlyArray<unknown> = []): Promise<Array<unknown>> => ((await conn.execute(sql, binds)).rows as Array<Array<unknown>>)[0]!

describe("Oracle test server: more everyday functions, through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection({ version: "23ai" }))
    await conn.execute("CREATE TABLE ef2 (id NUMBER, n NUMBER, c CHAR(3), s VARCHAR2(20))")
    await conn.execute("INSERT INTO ef2 VALUES (1, 12345678901234567890.123, 'ab', 'héllo€')")
    await conn.execute("INSERT INTO ef2 VALUES (2, -5, 'cd', 'x')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("LENGTHB counts the UTF-8 bytes of the text (AL32UTF8), a CHAR column's with its padding", async () => {
    expect(await row("SELECT LENGTHB(s), LENGTHB(c), LENGTHB('ü'), LENGTH(s) FROM ef2 WHERE id = 1")).toEqual([9, 3, 2, 6])
  })

  it("DUMP of a CHAR column is Typ=96, of a NUMBER column its NUMBER bytes (Typ=2); VSIZE is that length", async () => {
    expect(await row("SELECT DUMP(c), DUMP(e.c, 16), DUMP(s) FROM ef2 e WHERE id = 2")).toEqual(["Typ=96 Len=3: 99,100,32", "Typ=96 Len=3: 63,64,20", "Typ=1 Len=1: 120"])
    // 12345678901234567890.123: exponent byte 192 + 10, then base-100 digits + 1; -5: 62 - 1, 101 - 5, terminator 102
    expect(await row("SELECT DUMP(n), VSIZE(n) FROM ef2 WHERE id = 1")).toEqual(["Typ=2 Len=13: 202,13,35,57,79,91,13,35,57,79,91,13,31", 13])
    expect(await row("SELECT DUMP(n), VSIZE(n), VSIZE(c) FROM ef2 WHERE id = 2")).toEqual(["Typ=2 Len=3: 62,96,102", 3, 3])
  })

  it("an interval literal times or divided by a parenthesised NUMBER column (failed ORA-00932)", async () => {
    const r = await conn.execute("SELECT INTERVAL '1' DAY * (id), (id + 1) * INTERVAL '1' HOUR, DATE '2024-01-01' + INTERVAL '1' DAY * (id) FROM ef2 WHERE id = 2")
    expect(r.rows).toEqual([[{ days: 2, hours: 0, minutes: 0, seconds: 0, fseconds: 0 }, { days: 0, hours: 3, minutes: 0, seconds: 0, fseconds: 0 }, new Date(2024, 0, 3)]])
    expect((r.metaData as Array<{ dbTypeName: string }>)[0]!.dbTypeName).toBe("INTERVAL DAY TO SECOND")
  })
})
