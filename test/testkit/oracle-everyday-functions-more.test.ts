import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// Everyday functions an audit through raw node-oracledb found missing or wrong (SQL Language Reference 23ai, each
// function's page): LENGTHB of non-ASCII text failed ORA-01861, DUMP of a CHAR column said Typ=1 and of a NUMBER
// column without precision showed its decimal text as Typ=1 (so VSIZE counted the text's bytes); GROUP_ID, CHECKSUM,
// TO_BOOLEAN, TO_UTC_TIMESTAMP_TZ and JSON_SCALAR failed ORA-00904.
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

  it("TO_BOOLEAN converts numbers (0 FALSE, others TRUE) and the Boolean literals' texts in any case and blanks", async () => {
    const r = await conn.execute("SELECT TO_BOOLEAN(0), TO_BOOLEAN('true'), TO_BOOLEAN(' No '), TO_BOOLEAN('Y'), TO_BOOLEAN(n), TO_BOOLEAN(id - 2), TO_BOOLEAN(NULL) FROM ef2 WHERE id = 2")
    expect(r.rows).toEqual([[false, true, false, true, true, false, null]])
    expect((r.metaData as Array<{ dbTypeName: string }>)[0]!.dbTypeName).toBe("BOOLEAN")
    expect(oraCode(await failure(() => conn.execute("SELECT TO_BOOLEAN('maybe') FROM dual")))).toBe("ORA-01722")
  })

  it("TO_UTC_TIMESTAMP_TZ reads an ISO 8601 date or date-time (UTC without a zone) as a TIMESTAMP WITH TIME ZONE in UTC", async () => {
    const r = await conn.execute(
      "SELECT TO_CHAR(TO_UTC_TIMESTAMP_TZ('2018-10-26T21:32:52.12679+02:00'), 'YYYY-MM-DD HH24:MI:SS.FF6 TZH:TZM'), TO_CHAR(TO_UTC_TIMESTAMP_TZ('2018-10-26'), 'YYYY-MM-DD HH24:MI:SS TZH:TZM'), TO_CHAR(SYS_EXTRACT_UTC(TO_UTC_TIMESTAMP_TZ('2018-10-26T21:32:52-05:30')), 'YYYY-MM-DD HH24:MI:SS'), TO_UTC_TIMESTAMP_TZ('2018-10-26T19:32:52Z') FROM dual"
    )
    expect((r.rows as Array<Array<unknown>>)[0]!.slice(0, 3)).toEqual(["2018-10-26 19:32:52.126790 +00:00", "2018-10-26 00:00:00 +00:00", "2018-10-27 03:02:52"])
    expect((r.metaData as Array<{ dbTypeName: string }>)[3]!.dbTypeName).toBe("TIMESTAMP WITH TIME ZONE")
    // "if time is specified, then all of its parts must be present" (SQL Language Reference, TO_UTC_TIMESTAMP_TZ)
    expect(oraCode(await failure(() => conn.execute("SELECT TO_UTC_TIMESTAMP_TZ('2018-10-26T21:32') FROM dual")))).toBe("ORA-01861")
  })

  it("GROUP_ID is 0 for groups of distinct grouping sets; CHECKSUM is order-independent, equal for equal values, NULL for none", async () => {
    expect((await conn.execute("SELECT c, GROUP_ID() FROM ef2 GROUP BY ROLLUP(c) ORDER BY c")).rows).toEqual([["ab ", 0], ["cd ", 0], [null, 0]])
    const [all, reversed, none] = await Promise.all([
      row("SELECT CHECKSUM(n), CHECKSUM(s), CHECKSUM(DISTINCT c) FROM ef2"),
      row("SELECT CHECKSUM(n), CHECKSUM(s), CHECKSUM(DISTINCT c) FROM (SELECT * FROM ef2 ORDER BY id DESC)"),
      row("SELECT CHECKSUM(n) FROM ef2 WHERE id > 2")
    ])
    expect(all).toEqual(reversed)
    expect(all.every((x) => typeof x === "number")).toBe(true)
    expect(none).toEqual([null])
    expect(await row("SELECT CHECKSUM(n) FROM ef2 WHERE id = 1")).not.toEqual(await row("SELECT CHECKSUM(n) FROM ef2 WHERE id = 2"))
  })

  it("JSON_SCALAR makes a JSON scalar of a number, a string or a date (ISO 8601 text), SQL NULL of NULL", async () => {
    const r = await conn.execute("SELECT JSON_SCALAR(n), JSON_SCALAR(s), JSON_SCALAR(NULL), JSON_SCALAR(DATE '2024-01-02'), JSON_SERIALIZE(JSON_SCALAR('a\"b')) FROM ef2 WHERE id = 2")
    expect(r.rows).toEqual([[-5, "x", null, "2024-01-02T00:00:00", '"a\\"b"']])
    expect((r.metaData as Array<{ name: string; dbTypeName: string }>).slice(0, 2).map((m) => [m.name, m.dbTypeName])).toEqual([["JSON_SCALAR(N)", "JSON"], ["JSON_SCALAR(S)", "JSON"]])
  })
})
