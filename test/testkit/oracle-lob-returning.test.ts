/**
 * node-oracledb's LOB insert idiom against the Oracle test server, through the raw client: `INSERT ... VALUES
 * (EMPTY_CLOB()) RETURNING c INTO :lob` with an OUT bind of type CLOB / BLOB gives a writable locator of the new
 * row's LOB, which the client writes (Lob.write or a piped stream) and commits; SELECT then reads what was written
 * (node-oracledb documentation, "Using CLOB, NCLOB and BLOB Data": "Streaming into LOBs" and "INSERT ... RETURNING
 * INTO with EMPTY_CLOB()"; the example https://github.com/oracle/node-oracledb/blob/main/examples/lobinsert2.js). In PL/SQL the locator a DML RETURNING INTO gives can be written with DBMS_LOB, the DML
 * having locked the row (Oracle SecureFiles and Large Objects Developer's Guide, "LOB Locators").
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { lobBytes as bytes, lobText as text, writeThrough } from "./oracle/lob-data.ts"
import { closeConnection, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const lobOut = (type: unknown) => ({ type, dir: oracledb.BIND_OUT })

describe("Oracle test server: LOB locators from DML RETURNING INTO", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE docs (id NUMBER PRIMARY KEY, c CLOB, b BLOB)")
    await conn.execute("INSERT INTO docs VALUES (0, 'committed before', NULL)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("INSERT ... EMPTY_CLOB() / EMPTY_BLOB() RETURNING INTO gives writable locators: 300 KB written in many writes read back exact", async () => {
    const r = await conn.execute("INSERT INTO docs (id, c, b) VALUES (:id, EMPTY_CLOB(), EMPTY_BLOB()) RETURNING c, b INTO :c, :b", {
      id: 1,
      c: lobOut(oracledb.CLOB),
      b: lobOut(oracledb.BLOB)
    })
    const c = r.outBinds.c[0]
    const b = r.outBinds.b[0]
    expect(c).not.toBeNull()
    expect(b).not.toBeNull()
    expect(c.type).toBe(oracledb.CLOB)
    expect(b.type).toBe(oracledb.BLOB)
    await writeThrough(c, text, 8191)
    await writeThrough(b, bytes, 65536)
    await conn.commit()
    const [rc, rb] = (await conn.execute("SELECT c, b FROM docs WHERE id = 1")).rows[0]
    expect(await rc.getData()).toBe(text)
    expect(Buffer.compare(await rb.getData(), bytes)).toBe(0)
    // the row inserted before is untouched
    const before = (await conn.execute("SELECT c FROM docs WHERE id = 0", [], { fetchInfo: { C: { type: oracledb.STRING } } })).rows
    expect(before).toEqual([["committed before"]])
  })

  it("UPDATE ... SET c = EMPTY_CLOB() RETURNING c INTO :lob gives a locator of the updated row, written and committed", async () => {
    await conn.execute("INSERT INTO docs (id, c, b) VALUES (5, 'old text', NULL)")
    await conn.commit()
    const r = await conn.execute("UPDATE docs SET c = EMPTY_CLOB(), b = EMPTY_BLOB() WHERE id = :id RETURNING c, b INTO :c, :b", {
      id: 5,
      c: lobOut(oracledb.CLOB),
      b: lobOut(oracledb.BLOB)
    })
    expect(r.rowsAffected).toBe(1)
    await writeThrough(r.outBinds.c[0], text, 20_000)
    await writeThrough(r.outBinds.b[0], bytes, 32_768)
    await conn.commit()
    const [rc, rb] = (await conn.execute("SELECT c, b FROM docs WHERE id = 5")).rows[0]
    expect(await rc.getData()).toBe(text)
    expect(Buffer.compare(await rb.getData(), bytes)).toBe(0)
  })

  it("UPDATE of a table without a primary key gives writable locators of its rows (was ORA-03001), equal rows each their own", async () => {
    await conn.execute("CREATE TABLE nokey_w (id NUMBER, tag VARCHAR2(5), c CLOB)")
    await conn.execute("INSERT INTO nokey_w VALUES (1, NULL, 'a')")
    await conn.execute("INSERT INTO nokey_w VALUES (1, NULL, 'b')")
    await conn.execute("INSERT INTO nokey_w VALUES (2, 'x', 'c')")
    await conn.commit()
    const u = await conn.execute("UPDATE nokey_w SET c = EMPTY_CLOB() WHERE id = 1 RETURNING c INTO :c", { c: lobOut(oracledb.CLOB) })
    expect(u.outBinds.c).toHaveLength(2)
    await writeThrough(u.outBinds.c[0], "first", 5)
    await writeThrough(u.outBinds.c[1], "second", 6)
    await conn.commit()
    const read = await conn.execute("SELECT id, c FROM nokey_w", [], { fetchInfo: { C: { type: oracledb.STRING } } })
    expect([...read.rows].sort((x: any, y: any) => String(x[1]).localeCompare(String(y[1])))).toEqual([[2, "c"], [1, "first"], [1, "second"]])
  })

  it("DELETE returns its LOB values readable (was a client protocol error); a write through them is refused, not lost", async () => {
    await conn.execute("CREATE TABLE nokey (id NUMBER, c CLOB)")
    await conn.execute("INSERT INTO nokey VALUES (1, 'hello')")
    await conn.commit()
    const u = await conn.execute("UPDATE nokey SET c = 'world' WHERE id = 1 RETURNING c INTO :c", { c: lobOut(oracledb.CLOB) })
    expect(await u.outBinds.c[0].getData()).toBe("world")
    const d = await conn.execute("DELETE FROM nokey WHERE id = 1 RETURNING c INTO :c", { c: lobOut(oracledb.CLOB) })
    const lob = d.outBinds.c[0]
    expect(await lob.getData()).toBe("world")
    const refused = new Promise<unknown>((resolve) => lob.once("error", resolve))
    lob.write("x")
    expect(oraCode(await refused)).toBe("ORA-03001")
    await conn.rollback()
    expect((await conn.execute("SELECT c FROM nokey", [], { fetchInfo: { C: { type: oracledb.STRING } } })).rows).toEqual([["hello"]])
  })

  it("DELETE ... RETURNING a 300 KB CLOB and BLOB reads the deleted row's values back whole, in many LOB reads", async () => {
    // the deleted row's LOB stays readable with the value it had (Oracle9i Application Developer's Guide - Large
    // Objects, "Deleting the Row of a Table Containing a LOB": read-consistent locators)
    await conn.execute("INSERT INTO docs VALUES (9, :c, :b)", { c: { val: text, type: oracledb.CLOB }, b: { val: bytes, type: oracledb.BLOB } })
    const d = await conn.execute("DELETE FROM docs WHERE id = 9 RETURNING c, b INTO :c, :b", { c: lobOut(oracledb.CLOB), b: lobOut(oracledb.BLOB) })
    expect(d.rowsAffected).toBe(1)
    expect(await d.outBinds.c[0].getData()).toBe(text)
    expect(Buffer.compare(await d.outBinds.b[0].getData(), bytes)).toBe(0)
    await conn.rollback()
  })

  it("a rollback after writing through the returned locator leaves nothing", async () => {
    const r = await conn.execute("INSERT INTO docs (id, c) VALUES (:id, EMPTY_CLOB()) RETURNING c INTO :c", { id: 2, c: lobOut(oracledb.CLOB) })
    await writeThrough(r.outBinds.c[0], text.slice(0, 50_000), 10_000)
    await conn.rollback()
    expect((await conn.execute("SELECT COUNT(*) FROM docs WHERE id = 2")).rows).toEqual([[0]])
  })

  it("DBMS_LOB.WRITEAPPEND through a PL/SQL variable an INSERT / UPDATE ... RETURNING INTO filled (the DML locked the row)", async () => {
    const piece = text.slice(0, 30 * 1024)
    const appends = Array.from({ length: 10 }, () => "DBMS_LOB.WRITEAPPEND(l, LENGTH(:p), :p);").join(" ")
    await conn.execute(`DECLARE l CLOB; BEGIN INSERT INTO docs (id, c) VALUES (3, EMPTY_CLOB()) RETURNING c INTO l; ${appends} END;`, { p: piece })
    const blobPiece = bytes.subarray(0, 30 * 1024)
    const blobAppends = Array.from({ length: 10 }, () => "DBMS_LOB.WRITEAPPEND(y, :n, :b);").join(" ")
    await conn.execute(`DECLARE y BLOB; BEGIN INSERT INTO docs (id, b) VALUES (4, EMPTY_BLOB()) RETURNING b INTO y; ${blobAppends} END;`, {
      n: blobPiece.length,
      b: blobPiece
    })
    await conn.commit()
    const [c] = (await conn.execute("SELECT c FROM docs WHERE id = 3")).rows[0]
    expect(await c.getData()).toBe(piece.repeat(10))
    const [b] = (await conn.execute("SELECT b FROM docs WHERE id = 4")).rows[0]
    expect(Buffer.compare(await b.getData(), Buffer.concat(Array.from({ length: 10 }, () => blobPiece)))).toBe(0)
    // UPDATE ... RETURNING INTO likewise (the row found by its primary key)
    await conn.execute("DECLARE l CLOB; BEGIN UPDATE docs SET c = EMPTY_CLOB() WHERE id = 3 RETURNING c INTO l; DBMS_LOB.WRITEAPPEND(l, 9, 'rewritten'); END;")
    await conn.commit()
    expect((await conn.execute("SELECT c FROM docs WHERE id = 3", [], { fetchInfo: { C: { type: oracledb.STRING } } })).rows).toEqual([["rewritten"]])
  })
})
