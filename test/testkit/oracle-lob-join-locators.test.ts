/**
 * LOB locators of columns selected through a join: each LOB column of a table row gives a locator of that row, which
 * the client writes once the row is locked (SecureFiles and Large Objects Developer's Guide, "LOB Locators"; a
 * locator holds the row's ROWID, whatever query selected it). Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { TwoSessions } from "./oracle/helpers.ts"
import { failure, openTwoSessions, oracledb, oraCode } from "./oracle/helpers.ts"
import { writeThrough } from "./oracle/lob-data.ts"

let env: TwoSessions

const asText = { fetchInfo: { DOC: { type: oracledb.STRING }, IMG: { type: oracledb.BUFFER } } }

describe("Oracle test server: writable LOB locators through joins", () => {
  beforeAll(async () => {
    env = await openTwoSessions([
      "CREATE TABLE jl_doc (id NUMBER PRIMARY KEY, doc CLOB)",
      "CREATE TABLE jl_tag (id NUMBER PRIMARY KEY, label VARCHAR2(10), img BLOB)",
      "INSERT INTO jl_doc VALUES (1, 'one')",
      "INSERT INTO jl_doc VALUES (2, 'two')",
      "INSERT INTO jl_tag VALUES (1, 'a', HEXTORAW('01'))",
      "INSERT INTO jl_tag VALUES (2, 'b', HEXTORAW('02'))"
    ])
  })
  afterAll(() => env?.env.close())

  const docs = async () => (await env.a.execute("SELECT id, doc FROM jl_doc ORDER BY id", [], asText)).rows
  const imgs = async () => (await env.a.execute("SELECT id, img FROM jl_tag ORDER BY id", [], asText)).rows

  it("a CLOB selected from a JOIN ... FOR UPDATE is written through its locator into its own row", async () => {
    const r = await env.a.execute("SELECT d.id, d.doc, t.label FROM jl_doc d JOIN jl_tag t ON t.id = d.id WHERE t.label = 'b' FOR UPDATE")
    expect(r.rows).toHaveLength(1)
    const lob = r.rows[0][1]
    expect(lob.type).toBe(oracledb.CLOB)
    await writeThrough(lob, "changed", 3)
    await env.a.commit()
    expect(await docs()).toEqual([[1, "one"], [2, "changed"]])
  })

  it("LOB columns of both tables of a comma join (qualified and not) each write their own table's row", async () => {
    const r = await env.a.execute("SELECT img, d.doc FROM jl_doc d, jl_tag t WHERE t.id = d.id AND d.id = 1 FOR UPDATE")
    const [img, doc] = r.rows[0]
    expect(img.type).toBe(oracledb.BLOB)
    await writeThrough(doc, "first", 5)
    await writeThrough(img, Buffer.from([9, 9, 9]), 2)
    await env.a.commit()
    expect(await docs()).toEqual([[1, "first"], [2, "changed"]])
    expect(await imgs()).toEqual([[1, Buffer.from([9, 9, 9])], [2, Buffer.from([2])]])
  })

  it("a row another session locked refuses the write with ORA-22920, and the row keeps its value", async () => {
    await env.b.execute("SELECT id FROM jl_doc WHERE id = 2 FOR UPDATE")
    await env.a.execute("INSERT INTO jl_tag VALUES (3, 'c', NULL)")
    const r = await env.a.execute("SELECT d.doc FROM jl_doc d JOIN jl_tag t ON t.id = d.id WHERE d.id = 2")
    const e = await failure(() => writeThrough(r.rows[0][0], "lost", 4))
    expect(oraCode(e)).toBe("ORA-22920")
    await env.a.rollback()
    await env.b.rollback()
    expect(await docs()).toEqual([[1, "first"], [2, "changed"]])
  })

  it("FOR UPDATE SKIP LOCKED over a join leaves out the row another session holds and writes the other one's LOB", async () => {
    await env.b.execute("SELECT id FROM jl_tag WHERE id = 1 FOR UPDATE")
    const r = await env.a.execute("SELECT t.id, d.doc FROM jl_doc d JOIN jl_tag t ON t.id = d.id FOR UPDATE SKIP LOCKED")
    expect(r.rows.map((row: Array<unknown>) => row[0])).toEqual([2])
    await writeThrough(r.rows[0][1], "skipped to", 4)
    await env.a.commit()
    await env.b.rollback()
    expect(await docs()).toEqual([[1, "first"], [2, "skipped to"]])
  })
})
