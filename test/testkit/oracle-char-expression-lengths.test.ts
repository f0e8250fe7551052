/**
 * CHAR expressions whose length Oracle works out from their operands, described as CHAR of that length. Before: a
 * select item that was `c || d` of CHARs, a CASE of CHARs of different lengths, SUBSTR / SOUNDEX of a CHAR or a CHAR
 * bind, and any CHAR expression item beside a `*`, was described as VARCHAR2(4000), where Oracle describes CHAR(n) (a
 * CASE of CHARs of different lengths VARCHAR2 of the longest); a set operation of CHAR columns of different lengths
 * was described as its first branch's column (VARCHAR2 of the longest on Oracle). Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

describe("Oracle test server: CHAR expressions described as CHAR of the length Oracle works out", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    await conn.execute("CREATE TABLE cl_t (id NUMBER, c CHAR(3), d CHAR(4), e CHAR(2), f CHAR(5), v VARCHAR2(5), n NCHAR(3), w CHAR(3 CHAR))")
    await conn.execute("INSERT INTO cl_t VALUES (1, 'a', 'b', 'xy', 'pq', 'vv', 'n', 'w')")
    await conn.commit()
  })
  afterAll(() => closeConnection(opened))

  type Meta = { readonly dbType?: unknown; readonly byteSize?: number }
  const described = async (sql: string, binds: Parameters<Conn["execute"]>[1] = []) => {
    const r = await conn.execute(sql, binds)
    return { rows: r.rows, meta: r.metaData.map((m: Meta) => ({ type: m.dbType, size: m.byteSize })) }
  }
  const char = (size: number) => ({ type: oracledb.DB_TYPE_CHAR, size })
  const varchar = (size: number) => ({ type: oracledb.DB_TYPE_VARCHAR, size })

  it("describes || and CONCAT of CHARs as CHAR of the sum of their lengths, with the padded value", async () => {
    // "If both character strings are of data type CHAR, then the result has data type CHAR" ("Concatenation Operator");
    // a text literal is CHAR of its length
    expect(await described("SELECT c || d, CONCAT(c, e), c || 'zz' z, (w || w) ww FROM cl_t")).toEqual({
      rows: [["a  b   ", "a  xy", "a  zz", "w  w  "]],
      meta: [char(7), char(5), char(5), char(6)]
    })
    const national = await conn.execute("SELECT n || n FROM cl_t")
    expect(national.rows).toEqual([["n  n  "]])
    expect(national.metaData[0].dbType).toBe(oracledb.DB_TYPE_NCHAR)
    // MAX and NULLIF return their argument's value, so its type
    expect(await described("SELECT MAX(c || d) FROM cl_t")).toEqual({ rows: [["a  b   "]], meta: [char(7)] })
    expect(await described("SELECT NULLIF(c || e, 'z') k FROM cl_t")).toEqual({ rows: [["a  xy"]], meta: [char(5)] })
    // with a VARCHAR2 operand the result is VARCHAR2
    expect((await described("SELECT c || v FROM cl_t")).meta[0].type).toBe(oracledb.DB_TYPE_VARCHAR)
  })

  it("describes a CASE / COALESCE of CHARs of one length as CHAR, of different lengths as VARCHAR2 of the longest", async () => {
    // `THEN 'Y' ELSE 'N'` is CHAR(1), `THEN 'Y' ELSE 'NX'` VARCHAR2(2) (oracle-l, 2021-03-31)
    expect(await described("SELECT CASE WHEN id = 1 THEN 'ab' ELSE 'cd' END x, CASE WHEN id = 1 THEN e ELSE f END y, COALESCE(e, f) z FROM cl_t")).toEqual({
      rows: [["ab", "xy", "xy"]],
      meta: [char(2), varchar(5), varchar(5)]
    })
  })

  it("describes a set operation's item CHAR(n) where every branch is CHAR(n), VARCHAR2 of the longest where lengths differ", async () => {
    // "If the queries select values of CHAR with different lengths, then the returned value is VARCHAR2 with the
    // length of the larger CHAR value" ("The Set Operators")
    expect(await described("SELECT c || d FROM cl_t UNION ALL SELECT d || c FROM cl_t")).toEqual({ rows: [["a  b   "], ["b   a  "]], meta: [char(7)] })
    expect(await described("SELECT c, UPPER(c) FROM cl_t UNION ALL SELECT f, UPPER(f) FROM cl_t")).toEqual({
      rows: [["a  ", "A  "], ["pq   ", "PQ   "]],
      meta: [varchar(5), varchar(5)]
    })
  })

  it("describes SUBSTR of a CHAR(n) as CHAR(n), narrowed by a literal length, and SOUNDEX as CHAR(4)", async () => {
    expect(await described("SELECT SUBSTR(f, 1, 3), SUBSTR(f, 2), SUBSTR(f, 1, 9), SOUNDEX(f) FROM cl_t")).toEqual({
      rows: [["pq ", "q   ", "pq   ", "P200"]],
      meta: [char(3), char(5), char(5), char(4)]
    })
  })

  it("describes a CHAR bind as CHAR of its graduated length (32, 128, 2000 bytes), its value as bound", async () => {
    const b = { val: "ab", type: oracledb.DB_TYPE_CHAR }
    expect(await described("SELECT :b, UPPER(:b) u, c || :b k FROM cl_t", { b })).toEqual({ rows: [["ab", "AB", "a  ab"]], meta: [char(32), char(32), char(35)] })
    // oracledb sends an IN bind's length as its value's
    const long = "x".repeat(40)
    expect(await described("SELECT :b FROM dual", { b: { ...b, val: long } })).toEqual({ rows: [[long]], meta: [char(128)] })
  })

  it("describes a CHAR expression beside a * and in a hierarchical query as CHAR of its length, and so does getStatementInfo", async () => {
    expect(await described("SELECT t.*, c || d FROM cl_t t")).toEqual({
      rows: [[1, "a  ", "b   ", "xy", "pq   ", "vv", "n  ", "w  ", "a  b   "]],
      meta: [{ type: oracledb.DB_TYPE_NUMBER, size: undefined }, char(3), char(4), char(2), char(5), varchar(5), { type: oracledb.DB_TYPE_NCHAR, size: 3 }, char(3), char(7)]
    })
    expect((await described("SELECT x.*, UPPER(x.c) FROM (SELECT c, d FROM cl_t) x")).meta).toEqual([char(3), char(4), char(3)])
    // a hierarchical query too (run here through a recursive WITH block)
    expect(await described("SELECT c || d, UPPER(c) FROM cl_t START WITH id = 1 CONNECT BY PRIOR id = id + 1")).toEqual({ rows: [["a  b   ", "A  "]], meta: [char(7), char(3)] })
    const info = await conn.getStatementInfo("SELECT cl_t.*, SUBSTR(f, 1, 2) FROM cl_t")
    expect(info.metaData?.map((m: Meta) => ({ type: m.dbType, size: m.byteSize })).at(-1)).toEqual(char(2))
  })
})
