import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { LOB_SIZE as SIZE, lobBytes as bytes, lobText as text, writeThrough } from "./oracle/lob-data.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: LOBs through table locators and DBMS_LOB", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE lobs (id NUMBER PRIMARY KEY, c CLOB, b BLOB)")
  })
  afterAll(() => closeConnection({ server, conn }))

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

  it("writes through PL/SQL LOB locators with DBMS_LOB.WRITE / WRITEAPPEND / TRIM, 300 KB in 32 KB appends, and refuses an unlocked row (ORA-22920)", async () => {
    await conn.execute("INSERT INTO lobs VALUES (4, EMPTY_CLOB(), EMPTY_BLOB())")
    await conn.commit()
    const piece = text.slice(0, 30 * 1024)
    const appends = Array.from({ length: 10 }, () => "DBMS_LOB.WRITEAPPEND(x, LENGTH(:p), :p);").join(" ")
    await conn.execute(`DECLARE x CLOB; BEGIN SELECT c INTO x FROM lobs WHERE id = 4 FOR UPDATE; DBMS_LOB.WRITE(x, 5, 1, 'hello'); ${appends} END;`, { p: piece })
    const blobPiece = bytes.subarray(0, 30 * 1024)
    const blobAppends = Array.from({ length: 10 }, () => "DBMS_LOB.WRITEAPPEND(y, :n, :b);").join(" ")
    await conn.execute(`DECLARE y BLOB; BEGIN SELECT b INTO y FROM lobs WHERE id = 4 FOR UPDATE; ${blobAppends} :len := DBMS_LOB.GETLENGTH(y); END;`, {
      n: blobPiece.length,
      b: blobPiece,
      len: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }
    })
    await conn.commit()
    const [c, b] = (await conn.execute("SELECT c, b FROM lobs WHERE id = 4")).rows[0]
    expect(await c.getData()).toBe("hello" + piece.repeat(10))
    expect(Buffer.compare(await b.getData(), Buffer.concat(Array.from({ length: 10 }, () => blobPiece)))).toBe(0)
    // WRITE past the end fills the gap with blanks; TRIM cuts
    await conn.execute("DECLARE x CLOB; BEGIN SELECT c INTO x FROM lobs WHERE id = 4 FOR UPDATE; DBMS_LOB.TRIM(x, 3); DBMS_LOB.WRITE(x, 2, 6, 'yz'); END;")
    expect((await conn.execute("SELECT DBMS_LOB.SUBSTR(c, 100, 1) FROM lobs WHERE id = 4", [], { fetchInfo: { "DBMS_LOB.SUBSTR(C,100,1)": { type: oracledb.STRING } } })).rows).toEqual([["hel  yz"]])
    await conn.rollback()
    // a locator selected without FOR UPDATE cannot be written (Oracle: ORA-22920), and nothing changed
    const e = await failure(() => conn.execute("DECLARE x CLOB; BEGIN SELECT c INTO x FROM lobs WHERE id = 4; DBMS_LOB.WRITEAPPEND(x, 1, 'z'); END;"))
    expect(oraCode(e)).toBe("ORA-22920")
    expect((await conn.execute("SELECT DBMS_LOB.GETLENGTH(c) FROM lobs WHERE id = 4")).rows).toEqual([[5 + 10 * piece.length]])
  })
})
