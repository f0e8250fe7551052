import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, oracledb, withServer } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const SIZE = 300 * 1024
/** 300 KB of text with a multi-byte character every 1000 characters, and 300 KB of every byte value. */
const text = Array.from({ length: SIZE }, (_, i) => (i % 1000 === 999 ? "é" : String.fromCharCode(97 + (i % 26)))).join("")
const bytes = Buffer.from(Array.from({ length: SIZE }, (_, i) => (i * 7) % 256))

/**
 * Writes `data` into the locator `lob` through a stream, in chunks of `chunk` (many LOB write calls). The chunks of a
 * CLOB stay strings: node-oracledb advances a CLOB's write offset by each chunk's length, which for a Buffer of
 * multi-byte text would be its bytes, not its characters.
 */
const writeThrough = async (lob: any, data: string | Buffer, chunk: number) => {
  const pieces = Array.from({ length: Math.ceil(data.length / chunk) }, (_, k) => data.slice(k * chunk, (k + 1) * chunk))
  await pipeline(Readable.from(pieces), lob)
}

describe("Oracle test server: LOBs through table locators and DBMS_LOB", () => {
  beforeAll(async () => {
    const s = await withServer()
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE lobs (id NUMBER PRIMARY KEY, c CLOB, b BLOB)")
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("writes a 300 KB CLOB and BLOB through locators selected FOR UPDATE, piped in many writes, and reads them back intact", async () => {
    await conn.execute("INSERT INTO lobs VALUES (1, EMPTY_CLOB(), EMPTY_BLOB())")
    const [c, b] = (await conn.execute("SELECT c, b FROM lobs WHERE id = 1 FOR UPDATE")).rows[0]
    await writeThrough(c, text, 8191)
    await writeThrough(b, bytes, 65536)
    await conn.commit()
    // read back as locators (LOB reads in many packets) and inline
    const [rc, rb] = (await conn.execute("SELECT c, b FROM lobs WHERE id = 1")).rows[0]
    expect(await rc.getData()).toBe(text)
    expect(Buffer.compare(await rb.getData(), bytes)).toBe(0)
    const inline = await conn.execute("SELECT c, b FROM lobs WHERE id = 1", [], { fetchInfo: { C: { type: oracledb.STRING }, B: { type: oracledb.BUFFER } } })
    expect(inline.rows[0][0]).toBe(text)
    expect(Buffer.compare(inline.rows[0][1], bytes)).toBe(0)
    // lob.write at an offset (LOB write call with an offset) replaces in place
    const [c2] = (await conn.execute("SELECT c FROM lobs WHERE id = 1 FOR UPDATE")).rows[0]
    await new Promise<void>((resolve, reject) => c2.write("ZZZ", (e: unknown) => (e ? reject(e) : resolve())))
    await new Promise<void>((resolve) => c2.end(resolve))
    await conn.commit()
    expect((await conn.execute("SELECT DBMS_LOB.SUBSTR(c, 5, 1) FROM lobs WHERE id = 1")).rows).toEqual([["ZZZde"]])
  })

  it("answers DBMS_LOB.GETLENGTH, SUBSTR and INSTR in SQL over CLOBs and BLOBs (PL/SQL Packages and Types Reference, DBMS_LOB)", async () => {
    await conn.execute("INSERT INTO lobs VALUES (2, :c, :b)", { c: { val: text, type: oracledb.CLOB }, b: { val: bytes, type: oracledb.BLOB } })
    const r = await conn.execute(
      `SELECT DBMS_LOB.GETLENGTH(c), DBMS_LOB.GETLENGTH(b), DBMS_LOB.SUBSTR(c, 4, 998), DBMS_LOB.SUBSTR(c), DBMS_LOB.INSTR(c, 'é'),
              DBMS_LOB.INSTR(c, 'é', 1, 3), DBMS_LOB.INSTR(c, 'é', 1001), DBMS_LOB.INSTR(c, 'none'), DBMS_LOB.SUBSTR(b, 3, 2),
              DBMS_LOB.INSTR(b, HEXTORAW('0E15'))
         FROM lobs WHERE id = 2`
    )
    expect(r.rows[0]).toEqual([SIZE, SIZE, text.slice(997, 1001), text.slice(0, 32767), 1000, 3000, 2000, 0, Buffer.from([7, 14, 21]), 3])
    expect(r.metaData[0].name).toBe("DBMS_LOB.GETLENGTH(C)")
    // an empty LOB has length 0, a NULL one NULL
    await conn.execute("INSERT INTO lobs VALUES (3, EMPTY_CLOB(), NULL)")
    expect((await conn.execute("SELECT DBMS_LOB.GETLENGTH(c), DBMS_LOB.GETLENGTH(b) FROM lobs WHERE id = 3")).rows).toEqual([[0, null]])
    // an offset below 1 is ORA-21560 (argument out of range)
    expect(oraCode(await failure(() => conn.execute("SELECT DBMS_LOB.SUBSTR(c, 1, 0) FROM lobs WHERE id = 2")))).toBe("ORA-21560")
    await conn.rollback()
  })
})
