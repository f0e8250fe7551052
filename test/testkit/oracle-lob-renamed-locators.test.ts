/**
 * LOB locators of columns read through a WITH block with a column list (`WITH w (a, b) AS (...)`) or through a star
 * over a FROM subquery that has an unnamed column: the locator still names the table's row (SecureFiles and Large
 * Objects Developer's Guide, "LOB Locators"), so the client writes it once its transaction holds the row. The column
 * list only renames the block's columns (SQL Language Reference, SELECT, "subquery_factoring_clause"), and an
 * unnamed expression's column is named by its text (`ID+0`). Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { TwoSessions } from "./oracle/helpers.ts"
import { openTwoSessions, oracledb } from "./oracle/helpers.ts"
import { writeThrough } from "./oracle/lob-data.ts"

let env: TwoSessions

const docs = async () => (await env.a.execute("SELECT id, doc FROM rl_doc ORDER BY id", [], { fetchInfo: { DOC: { type: oracledb.STRING } } })).rows
const names = (r: { metaData: Array<{ name: string }> }) => r.metaData.map((m) => m.name)

describe("Oracle test server: writable LOB locators through renamed WITH blocks and unnamed subquery columns", () => {
  beforeAll(async () => {
    env = await openTwoSessions(["CREATE TABLE rl_doc (id NUMBER PRIMARY KEY, doc CLOB)", "INSERT INTO rl_doc VALUES (1, 'one')", "INSERT INTO rl_doc VALUES (2, 'two')"])
  })
  afterAll(() => env?.env.close())

  it("a WITH block with a column list, its column named or under a star", async () => {
    await env.a.execute("UPDATE rl_doc SET id = id WHERE id IN (1, 2)")
    const named = await env.a.execute("WITH w (k, body) AS (SELECT id, doc FROM rl_doc) SELECT body FROM w WHERE k = 1")
    expect(names(named)).toEqual(["BODY"])
    await writeThrough(named.rows[0][0], "RENAMED", 3)
    const starred = await env.a.execute("WITH w (k, body) AS (SELECT id, doc FROM rl_doc WHERE id = 2) SELECT * FROM w")
    expect(names(starred)).toEqual(["K", "BODY"])
    expect(starred.rows[0][0]).toBe(2)
    await writeThrough(starred.rows[0][1], "STARRED", 4)
    await env.a.commit()
    expect(await docs()).toEqual([[1, "RENAMED"], [2, "STARRED"]])
  })

  it("a star over a FROM subquery with an unnamed expression column", async () => {
    await env.a.execute("UPDATE rl_doc SET id = id WHERE id = 1")
    const unnamed = await env.a.execute("SELECT * FROM (SELECT id + 0, doc FROM rl_doc WHERE id = 1)")
    expect(names(unnamed)).toEqual(["ID+0", "DOC"])
    expect(unnamed.rows[0][0]).toBe(1)
    await writeThrough(unnamed.rows[0][1], "UNNAMED", 2)
    // the column is named by its text outside the subquery too
    expect((await env.a.execute('SELECT "ID+0" FROM (SELECT id + 0, doc FROM rl_doc WHERE id = 1)')).rows).toEqual([[1]])
    await env.a.commit()
    expect((await docs())[0]).toEqual([1, "UNNAMED"])
  })

  it("PL/SQL's SELECT lob INTO through them gives a variable DBMS_LOB writes", async () => {
    await env.a.execute("UPDATE rl_doc SET id = id WHERE id IN (1, 2)")
    await env.a.execute("DECLARE x CLOB; BEGIN WITH w (k, body) AS (SELECT id, doc FROM rl_doc) SELECT body INTO x FROM w WHERE k = 1; DBMS_LOB.WRITEAPPEND(x, 2, '+w'); END;")
    await env.a.execute("DECLARE x CLOB; y NUMBER; BEGIN SELECT * INTO y, x FROM (SELECT id + 0, doc FROM rl_doc WHERE id = 2); DBMS_LOB.WRITEAPPEND(x, 2, '+s'); END;")
    await env.a.commit()
    expect(await docs()).toEqual([[1, "UNNAMED+w"], [2, "STARRED+s"]])
  })
})
