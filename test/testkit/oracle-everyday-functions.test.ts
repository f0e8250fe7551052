import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// Oracle functions everyday SQL calls that the server answered ORA-00904 ("invalid identifier") for, as if Oracle
// had no such function (SQL Language Reference 23ai, each function's page under "SQL Functions"). Through raw
// node-oracledb.
let server: OracleTestServerHandle
let conn: Conn

const one = async (sql: string, binds: ReadonlyArray<unknown> = []) => {
  const r = await conn.execute(sql, binds)
  return { value: (r.rows as Array<Array<unknown>>)[0]![0], name: r.metaData[0].name as string, type: r.metaData[0].dbTypeName as string }
}

describe("Oracle test server: everyday built-in functions, through raw node-oracledb", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE ef (n NUMBER, p NUMBER(5), s VARCHAR2(20), bd BINARY_DOUBLE)")
    await conn.execute("INSERT INTO ef VALUES (6, 12, 'Robert', 1.5)")
    await conn.execute("INSERT INTO ef VALUES (6, 4, 'Rupert', BINARY_DOUBLE_NAN)")
    await conn.execute("INSERT INTO ef VALUES (3, 5, 'Ashcraft', 2)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("BITAND and BIN_TO_NUM compute on integers (the SQL Reference's examples)", async () => {
    expect(await one("SELECT BITAND(6, 3) FROM dual")).toEqual({ value: 2, name: "BITAND(6,3)", type: "NUMBER" })
    expect((await one("SELECT BITAND(BIN_TO_NUM(1,1,0), BIN_TO_NUM(0,1,1)) FROM dual")).value).toBe(2)
    expect((await one("SELECT BIN_TO_NUM(1,0,1,0) FROM dual")).value).toBe(10)
    expect((await one("SELECT SUM(BITAND(n, p)) FROM ef")).value).toBe(4 + 4 + 1)
    expect((await one("SELECT BITAND(6.9, 3) FROM dual")).value).toBe(2)
    expect((await one("SELECT BITAND(NULL, 3) FROM dual")).value).toBe(null)
    expect(oraCode(await failure(() => conn.execute("SELECT BIN_TO_NUM(1, 2) FROM dual")))).toBe("ORA-01760")
  })

  it("REMAINDER rounds the quotient to the nearest integer, ties to even; NANVL replaces NaN", async () => {
    expect((await one("SELECT REMAINDER(11, 4) FROM dual")).value).toBe(-1)
    expect((await one("SELECT REMAINDER(10, 4) FROM dual")).value).toBe(2)
    expect((await one("SELECT REMAINDER(14, 4) FROM dual")).value).toBe(-2)
    expect(oraCode(await failure(() => conn.execute("SELECT REMAINDER(5, 0) FROM dual")))).toBe("ORA-01476")
    const nanvl = await conn.execute("SELECT NANVL(bd, -1) FROM ef ORDER BY s")
    expect(nanvl.rows).toEqual([[2], [1.5], [-1]])
  })

  it("ROUND_TIES_TO_EVEN rounds ties to the even neighbour on every digit", async () => {
    const r = await conn.execute("SELECT ROUND_TIES_TO_EVEN(2.5), ROUND_TIES_TO_EVEN(3.5), ROUND_TIES_TO_EVEN(-2.5), ROUND_TIES_TO_EVEN(2.45, 1), ROUND_TIES_TO_EVEN(2.451, 1), ROUND_TIES_TO_EVEN(250, -2) FROM dual")
    expect(r.rows).toEqual([[2, 4, -2, 2.4, 2.5, 200]])
  })

  it("WIDTH_BUCKET puts values in equal buckets, 0 and num + 1 outside the range, also for a range given high to low", async () => {
    const r = await conn.execute("SELECT WIDTH_BUCKET(5, 0, 10, 5), WIDTH_BUCKET(-1, 0, 10, 5), WIDTH_BUCKET(10, 0, 10, 5), WIDTH_BUCKET(3, 10, 0, 5), WIDTH_BUCKET(NULL, 0, 10, 5) FROM dual")
    expect(r.rows).toEqual([[3, 0, 6, 4, null]])
  })

  it("SOUNDEX codes names as the reference describes (H and W do not separate equal codes, vowels do)", async () => {
    const r = await conn.execute("SELECT s, SOUNDEX(s) FROM ef ORDER BY s")
    expect(r.rows).toEqual([["Ashcraft", "A261"], ["Robert", "R163"], ["Rupert", "R163"]])
    expect((await one("SELECT SOUNDEX('SMYTHE') FROM dual")).value).toBe((await one("SELECT SOUNDEX('Smith') FROM dual")).value)
    const more = await conn.execute("SELECT SOUNDEX('Tymczak'), SOUNDEX('Pfister'), SOUNDEX('Lee'), SOUNDEX('') FROM dual")
    expect(more.rows).toEqual([["T522", "P236", "L000", null]])
  })

  it("byte, national-character and normalisation variants of the character functions", async () => {
    const r = await conn.execute(
      "SELECT SUBSTRB('aéb', 1, 3), INSTRB('aéb', 'b'), LENGTHC('aéb'), SUBSTRC('abc', 2), INSTR2('abc', 'c'), TO_NCHAR(n), NCHR(65), NLS_UPPER('straw'), NLS_INITCAP('hello world', 'NLS_SORT = BINARY'), LENGTH(DECOMPOSE(UNISTR('\\00e9'))), LENGTH(COMPOSE('e' || UNISTR('\\0301'))), TO_MULTI_BYTE('ab'), TO_SINGLE_BYTE(TO_MULTI_BYTE('ab')), CONVERT('aé', 'US7ASCII'), TRANSLATE(s USING NCHAR_CS) FROM ef WHERE s = 'Robert'"
    )
    expect(r.rows).toEqual([["aé", 4, 3, "bc", 3, "6", "A", "STRAW", "Hello World", 2, 1, "ａｂ", "ab", "a?", "Robert"]])
    expect(r.metaData.map((m: { name: string }) => m.name).slice(0, 3)).toEqual(["SUBSTRB('AÉB',1,3)", "INSTRB('AÉB','B')", "LENGTHC('AÉB')"])
  })

  it("VSIZE is DUMP's byte length; USERENV reads the USERENV context; ROWIDTOCHAR / CHARTOROWID keep the rowid", async () => {
    const r = await conn.execute("SELECT VSIZE('abc'), VSIZE(SYSDATE), VSIZE(NULL), USERENV('LANGUAGE'), USERENV('LANG') FROM dual")
    // SYSDATE is a computed DATE, DUMP's Typ=13 Len=8 (T. Kyte, comp.databases.oracle.misc 1999-10-14 "Re: Date
    // datatype"), and VSIZE reports its 8 bytes, 7 only for a stored DATE (dbasupport.com forums, "Number Data Type")
    expect(r.rows).toEqual([[3, 8, null, "AMERICAN_AMERICA.AL32UTF8", "US"]])
    const [[rowid]] = (await conn.execute("SELECT ROWIDTOCHAR(ROWID) FROM ef WHERE s = 'Robert'")).rows as [[string]]
    expect((await conn.execute("SELECT s FROM ef WHERE ROWID = CHARTOROWID(:r)", [rowid])).rows).toEqual([["Robert"]])
  })

  it("STATS_MODE, APPROX_MEDIAN and the bitwise aggregates", async () => {
    const r = await conn.execute("SELECT STATS_MODE(n), APPROX_MEDIAN(p), BIT_AND_AGG(p), BIT_OR_AGG(p), BIT_XOR_AGG(p) FROM ef")
    expect(r.rows).toEqual([[6, 5, 12 & 4 & 5, 12 | 4 | 5, 12 ^ 4 ^ 5]])
    expect(r.metaData[0].dbTypeName).toBe("NUMBER")
  })
})
