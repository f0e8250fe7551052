/**
 * "When a LOB is returned from a SQL or PL/SQL built-in function, the result returned is a temporary LOB"
 * (SecureFiles and Large Objects Developer's Guide 23, "Temporary LOBs Created by SQL and PL/SQL Built-in
 * Functions"). A temporary LOB belongs to the session, not to a table row: the client may write it through its
 * locator, and only that temporary value changes. A query's LOB computed by a function is such a value; one read
 * from a table column stays a locator of its row (ORA-22920 until the row is locked). Raw node-oracledb.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { TwoSessions } from "./oracle/helpers.ts"
import { failure, openTwoSessions, oracledb, oraCode } from "./oracle/helpers.ts"
import { writeThrough } from "./oracle/lob-data.ts"

let env: TwoSessions

/** One write call through the locator `lob`, which stays open (a finished stream closes a temporary LOB). */
const writeOnce = (lob: any, data: string | Buffer) => new Promise<void>((resolve, reject) => lob.write(data, (e: unknown) => (e ? reject(e) : resolve())))

describe("Oracle test server: LOBs a query computes are temporary LOBs the client may write", () => {
  beforeAll(async () => {
    env = await openTwoSessions(["CREATE TABLE tl_doc (id NUMBER PRIMARY KEY, doc CLOB, bin BLOB)", "INSERT INTO tl_doc VALUES (1, 'one', HEXTORAW('0102'))"])
  })
  afterAll(() => env?.env.close())

  it("TO_CLOB / TO_BLOB of a value give a temporary LOB: written through its locator, it reads back the written value", async () => {
    const [[clob, blob]] = (await env.a.execute("SELECT TO_CLOB('abc'), TO_BLOB(HEXTORAW('AA')) FROM dual")).rows
    expect(clob.type).toBe(oracledb.DB_TYPE_CLOB)
    await writeOnce(clob, "written")
    expect(await clob.getData()).toBe("written")
    await writeOnce(blob, Buffer.from([1, 2, 3]))
    expect(await blob.getData()).toEqual(Buffer.from([1, 2, 3]))
  })

  it("a function of a table's LOB column is temporary too: writing it leaves the table's value alone", async () => {
    const [[lob]] = (await env.a.execute("SELECT TO_CLOB(doc) FROM tl_doc WHERE id = 1")).rows
    await writeOnce(lob, "changed")
    expect(await lob.getData()).toBe("changed")
    expect((await env.a.execute("SELECT doc FROM tl_doc", [], { fetchInfo: { DOC: { type: oracledb.STRING } } })).rows).toEqual([["one"]])
    // the column itself is still a locator of its row, written only once the row is locked
    const [[column]] = (await env.a.execute("SELECT doc FROM tl_doc WHERE id = 1")).rows
    expect(oraCode(await failure(() => writeThrough(column, "lost", 4)))).toBe("ORA-22920")
  })
})
