/**
 * LOB locators of columns read through a FROM subquery (an inline view) or a UNION ALL: a table's LOB column keeps
 * naming its own row whatever query selected it (SecureFiles and Large Objects Developer's Guide, "LOB Locators": the
 * locator holds the row's address), so the client writes it once its transaction holds the row, locked by its own DML
 * or an earlier FOR UPDATE (FOR UPDATE itself cannot be used with a set operation: ORA-01786), else ORA-22920.
 * Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { TwoSessions } from "./oracle/helpers.ts"
import { failure, openTwoSessions, oracledb, oraCode } from "./oracle/helpers.ts"
import { lobBytes, lobText, writeThrough } from "./oracle/lob-data.ts"

let env: TwoSessions

const asData = { fetchInfo: { DOC: { type: oracledb.STRING }, IMG: { type: oracledb.BUFFER } } }

describe("Oracle test server: writable LOB locators through FROM subqueries and UNION ALL", () => {
  beforeAll(async () => {
    env = await openTwoSessions([
      "CREATE TABLE dq_doc (id NUMBER PRIMARY KEY, tag VARCHAR2(5), doc CLOB, img BLOB)",
      "CREATE TABLE dq_arch (id NUMBER PRIMARY KEY, doc CLOB)",
      "INSERT INTO dq_doc VALUES (1, 'a', 'one', HEXTORAW('01'))",
      "INSERT INTO dq_doc VALUES (2, 'b', 'two', HEXTORAW('02'))",
      "INSERT INTO dq_arch VALUES (7, 'seven')"
    ])
  })
  afterAll(() => env?.env.close())

  const docs = async () => (await env.a.execute("SELECT id, doc FROM dq_doc ORDER BY id", [], asData)).rows
  const arch = async () => (await env.a.execute("SELECT id, doc FROM dq_arch ORDER BY id", [], asData)).rows

  it("a FROM subquery's CLOB and BLOB of a row the transaction's UPDATE locked take 300 KB each, read back intact", async () => {
    await env.a.execute("UPDATE dq_doc SET tag = 'u' WHERE id = 2")
    const r = await env.a.execute("SELECT s.doc, s.img, s.id FROM (SELECT id, doc, img FROM dq_doc WHERE tag = 'u') s")
    expect(r.rows).toHaveLength(1)
    const [doc, img, id] = r.rows[0]
    expect(id).toBe(2)
    expect(doc.type).toBe(oracledb.CLOB)
    expect(await doc.getData()).toBe("two")
    await writeThrough(doc, lobText, 8191)
    await writeThrough(img, lobBytes, 65536)
    await env.a.commit()
    const back = (await env.a.execute("SELECT doc, img FROM dq_doc WHERE id = 2", [], asData)).rows[0]
    expect(back[0]).toBe(lobText)
    expect(Buffer.compare(back[1], lobBytes)).toBe(0)
  })

  it("UNION ALL branches of two tables give locators of their own rows, locked by an earlier FOR UPDATE and an UPDATE", async () => {
    await env.a.execute("SELECT id FROM dq_doc WHERE id = 1 FOR UPDATE")
    await env.a.execute("UPDATE dq_arch SET id = id WHERE id = 7")
    const r = await env.a.execute("SELECT id, doc FROM dq_doc WHERE id = 1 UNION ALL SELECT id, doc FROM dq_arch ORDER BY 1")
    expect(r.metaData.map((m: { name: string }) => m.name)).toEqual(["ID", "DOC"])
    expect(r.rows.map((row: Array<unknown>) => row[0])).toEqual([1, 7])
    await writeThrough(r.rows[0][1], "first", 3)
    await writeThrough(r.rows[1][1], "archived", 3)
    await env.a.commit()
    expect((await docs())[0]).toEqual([1, "first"])
    expect(await arch()).toEqual([[7, "archived"]])
  })

  it("a UNION ALL inside a FROM subquery, and a row the transaction does not hold refuses the write with ORA-22920", async () => {
    await env.a.execute("UPDATE dq_arch SET id = id WHERE id = 7")
    const r = await env.a.execute("SELECT u.doc, u.id FROM (SELECT id, doc FROM dq_doc UNION ALL SELECT id, doc FROM dq_arch) u ORDER BY u.id")
    expect(r.rows.map((row: Array<unknown>) => row[1])).toEqual([1, 2, 7])
    await writeThrough(r.rows[2][0], "REWRITES", 2)
    const e = await failure(() => writeThrough(r.rows[0][0], "lost", 4))
    expect(oraCode(e)).toBe("ORA-22920")
    await env.a.commit()
    expect(await arch()).toEqual([[7, "REWRITES"]])
    expect((await docs())[0]).toEqual([1, "first"])
  })

  it("a star over FROM subqueries (the ROWNUM paging idiom) gives the same columns and writable locators", async () => {
    await env.a.execute("UPDATE dq_doc SET tag = tag WHERE id IN (1, 2)")
    const paged = await env.a.execute(
      "SELECT * FROM (SELECT a.*, ROWNUM rn FROM (SELECT id, doc FROM dq_doc ORDER BY id) a WHERE ROWNUM <= 2) WHERE rn > 1"
    )
    expect(paged.metaData.map((m: { name: string }) => m.name)).toEqual(["ID", "DOC", "RN"])
    expect(paged.rows.map((row: Array<unknown>) => [row[0], row[2]])).toEqual([[2, 2]])
    await writeThrough(paged.rows[0][1], lobText.slice(0, 20_000), 7000)
    const plain = await env.a.execute("SELECT * FROM (SELECT id, doc FROM dq_doc WHERE id = 1)")
    expect(plain.metaData.map((m: { name: string }) => m.name)).toEqual(["ID", "DOC"])
    await writeThrough(plain.rows[0][1], "FIRST", 5)
    // a star over a subquery with an unnamed expression: its column named by its heading (writable locators there:
    // test/testkit/oracle-lob-renamed-locators.test.ts)
    const unnamed = await env.a.execute("SELECT * FROM (SELECT id + 0, doc FROM dq_doc WHERE id = 1)")
    expect(unnamed.metaData.map((m: { name: string }) => m.name)).toEqual(["ID+0", "DOC"])
    expect(await unnamed.rows[0][1].getData()).toBe("FIRST")
    await env.a.commit()
    const back = await docs()
    expect(back[0]).toEqual([1, "FIRST"])
    expect(back[1]![1]).toBe(lobText.slice(0, 20_000) + lobText.slice(20_000))
  })

  it("a WITH block's LOB column, named or under a star, and a UNION ALL of two blocks give writable locators", async () => {
    await env.a.execute("UPDATE dq_doc SET tag = tag WHERE id = 1")
    await env.a.execute("UPDATE dq_arch SET id = id WHERE id = 7")
    const named = await env.a.execute("WITH w AS (SELECT id, doc FROM dq_doc) SELECT w.doc FROM w WHERE w.id = 1")
    await writeThrough(named.rows[0][0], "WITHED", 3)
    const starred = await env.a.execute("WITH w AS (SELECT id, doc FROM dq_arch) SELECT * FROM w")
    expect(starred.metaData.map((m: { name: string }) => m.name)).toEqual(["ID", "DOC"])
    await writeThrough(starred.rows[0][1], "STARRED!", 3)
    const both = await env.a.execute("WITH d AS (SELECT id, doc FROM dq_doc WHERE id = 1), h AS (SELECT id, doc FROM dq_arch) SELECT doc, id FROM d UNION ALL SELECT doc, id FROM h ORDER BY 2")
    expect(both.rows.map((row: Array<unknown>) => row[1])).toEqual([1, 7])
    await writeThrough(both.rows[1][0], "BOTH", 2)
    await env.a.commit()
    expect((await docs())[0]).toEqual([1, "WITHED"])
    expect(await arch()).toEqual([[7, "BOTHRED!"]])
  })

  it("a join inside a FROM subquery (a quoted lower-case alias) names each LOB's own table row", async () => {
    await env.a.execute("UPDATE dq_arch SET id = id WHERE id = 7")
    const r = await env.a.execute(`SELECT s.doc, s.adoc FROM (SELECT "d".doc, a.doc adoc FROM dq_doc "d" JOIN dq_arch a ON a.id = "d".id + 6) s`)
    expect(r.rows).toHaveLength(1)
    await writeThrough(r.rows[0][1], "JOINED!!", 4)
    const e = await failure(() => writeThrough(r.rows[0][0], "lost", 4))
    expect(oraCode(e)).toBe("ORA-22920")
    await env.a.commit()
    expect(await arch()).toEqual([[7, "JOINED!!"]])
    expect((await docs())[0]).toEqual([1, "WITHED"])
  })

  it("a row another session locked refuses the write through a FROM subquery's locator with ORA-22920", async () => {
    await env.b.execute("UPDATE dq_doc SET tag = 'b' WHERE id = 1")
    const r = await env.a.execute("SELECT q.doc FROM (SELECT doc FROM dq_doc WHERE id = 1) q")
    const e = await failure(() => writeThrough(r.rows[0][0], "lost", 4))
    expect(oraCode(e)).toBe("ORA-22920")
    await env.b.rollback()
    await env.a.rollback()
    expect((await docs())[0]).toEqual([1, "WITHED"])
  })
})
