/**
 * Blank-padded comparison semantics decided by the data type of any expression, as Oracle does ("Blank-Padded and
 * Nonpadded Comparison Semantics", SQL Language Reference: blank-padded "only when both values in the comparison are
 * either expressions of data type CHAR, NCHAR, text literals, or values returned by the USER function"). Before, only
 * a CHAR column named directly was compared blank-padded: a CHAR column read through a derived table, WITH block or
 * aliased view column, a CHAR-valued function (UPPER, SUBSTR, ...), a concatenation of CHARs, a set operation's CHAR
 * column and a bind sent as CHAR under <, >, <=, >=, IN and BETWEEN were compared as their padded text; an unqualified
 * name that is CHAR in one table and another type in another table of the statement was never taken as CHAR; and an
 * INSERT's `q.*` or a star over a subquery or set operation wrote VARCHAR2 values into CHAR columns unpadded. Raw
 * node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

describe("Oracle test server: CHAR comparisons by the data type of any expression", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    await conn.execute("CREATE TABLE cc_t (id NUMBER, c CHAR(5), v VARCHAR2(5), d CHAR(5))")
    await conn.execute("INSERT INTO cc_t VALUES (1, 'ab', 'ab', 'xy')")
    await conn.execute("INSERT INTO cc_t VALUES (2, 'b', 'b', 'z')")
    await conn.execute("CREATE TABLE cc_u (id NUMBER, c VARCHAR2(5))")
    await conn.execute("INSERT INTO cc_u VALUES (1, 'ab')")
    await conn.commit()
  })
  afterAll(() => closeConnection(opened))

  const rows = async (sql: string, binds: Parameters<Conn["execute"]>[1] = []): Promise<unknown> => (await conn.execute(sql, binds)).rows

  it("a CHAR column read through a derived table, a WITH block or a view's aliased column", async () => {
    expect(await rows("SELECT * FROM (SELECT c AS x FROM cc_t) WHERE x = 'ab'")).toEqual([["ab   "]])
    expect(await rows("SELECT q.x FROM (SELECT id, c x FROM cc_t) q WHERE q.x IN ('ab', 'zz')")).toEqual([["ab   "]])
    expect(await rows("WITH w AS (SELECT c AS x FROM cc_t) SELECT x FROM w WHERE x = 'ab'")).toEqual([["ab   "]])
    await conn.execute("CREATE VIEW cc_v AS SELECT id, c AS vc FROM cc_t")
    // Oracle describes a view's column as its query's item: CHAR(5) here
    const r = await conn.execute("SELECT vc FROM cc_v WHERE vc = 'ab'")
    expect(r.rows).toEqual([["ab   "]])
    expect(r.metaData[0].dbType).toBe(oracledb.DB_TYPE_CHAR)
    // a VARCHAR2 read through a derived table stays nonpadded
    expect(await rows("SELECT * FROM (SELECT v AS x FROM cc_t) WHERE x = 'ab  '")).toEqual([])
  })

  it("CHAR-valued functions, concatenations and CASE compare blank-padded; VARCHAR2-valued ones do not", async () => {
    // UPPER / LOWER / INITCAP / SUBSTR: "The return value is the same data type as char"
    expect(await rows("SELECT id FROM cc_t WHERE UPPER(c) = 'AB'")).toEqual([[1]])
    expect(await rows("SELECT id FROM cc_t WHERE 'Ab ' = INITCAP(c)")).toEqual([[1]])
    expect(await rows("SELECT id FROM cc_t WHERE SUBSTR(c, 1, 3) = 'ab'")).toEqual([[1]])
    expect(await rows("SELECT id FROM cc_t WHERE LOWER(c) = d ORDER BY id")).toEqual([])
    // two CHARs concatenated are CHAR ("Concatenation Operator")
    expect(await rows("SELECT id FROM cc_t WHERE c || d = 'ab   xy'")).toEqual([[1]])
    expect(await rows("SELECT id FROM cc_t WHERE CASE WHEN id = 1 THEN c ELSE d END = 'ab'")).toEqual([[1]])
    expect(await rows("SELECT id FROM cc_t WHERE CAST(v AS CHAR(4)) = 'ab'")).toEqual([[1]])
    expect(await rows("SELECT id FROM cc_u u WHERE (SELECT t.c FROM cc_t t WHERE t.id = u.id) = 'ab'")).toEqual([[1]])
    expect(await rows("SELECT id FROM cc_u u WHERE (SELECT t.v FROM cc_t t WHERE t.id = u.id) = 'ab '")).toEqual([])
    // LPAD, RTRIM, REPLACE, NVL and DECODE return VARCHAR2: compared as they are
    expect(await rows("SELECT id FROM cc_t WHERE RPAD(c, 6) = 'ab'")).toEqual([])
    expect(await rows("SELECT id FROM cc_t WHERE REPLACE(c, 'a', 'a') = 'ab'")).toEqual([])
    expect(await rows("SELECT id FROM cc_t WHERE DECODE(id, 1, c) = 'ab'")).toEqual([])
    expect(await rows("SELECT id FROM cc_t WHERE NVL(c, 'q') = 'ab'")).toEqual([])
    // ordering operators pad the shorter value: 'ab   ' > 'ab' + blanks is false, 'ab   ' >= 'ab' true
    expect(await rows("SELECT id FROM cc_t WHERE UPPER(c) > 'AB' ORDER BY id")).toEqual([[2]])
    expect(await rows("SELECT id FROM cc_t WHERE UPPER(c) >= 'AB' ORDER BY id")).toEqual([[1], [2]])
  })

  it("a set operation's column is CHAR when every branch gives CHAR of one length, else VARCHAR2", async () => {
    expect(await rows("SELECT * FROM (SELECT c AS y FROM cc_t WHERE id = 1 UNION SELECT d FROM cc_t WHERE id = 1) WHERE y = 'ab'")).toEqual([["ab   "]])
    // CHAR(5) with VARCHAR2: VARCHAR2, nonpadded; only the VARCHAR2 branch's 'ab' equals 'ab'
    expect(await rows("SELECT * FROM (SELECT c AS y FROM cc_t WHERE id = 1 UNION ALL SELECT v FROM cc_t WHERE id = 1) WHERE y = 'ab'")).toEqual([["ab"]])
  })

  it("a bind sent as CHAR is compared blank-padded by every comparison operator", async () => {
    const ab = { type: oracledb.DB_TYPE_CHAR, val: "ab" }
    expect(await rows("SELECT id FROM cc_t WHERE c = :b", { b: ab })).toEqual([[1]])
    expect(await rows("SELECT id FROM cc_t WHERE c < :b ORDER BY id", { b: ab })).toEqual([])
    expect(await rows("SELECT id FROM cc_t WHERE c <= :b ORDER BY id", { b: ab })).toEqual([[1]])
    expect(await rows("SELECT id FROM cc_t WHERE c > :b ORDER BY id", { b: ab })).toEqual([[2]])
    expect(await rows("SELECT id FROM cc_t WHERE :b >= c ORDER BY id", { b: ab })).toEqual([[1]])
    expect(await rows("SELECT id FROM cc_t WHERE c IN (:b, :z) ORDER BY id", { b: ab, z: { type: oracledb.DB_TYPE_CHAR, val: "zz" } })).toEqual([[1]])
    expect(await rows("SELECT id FROM cc_t WHERE c BETWEEN :b AND :b ORDER BY id", { b: ab })).toEqual([[1]])
    expect(await rows("SELECT id FROM cc_t WHERE c NOT BETWEEN :b AND :b ORDER BY id", { b: ab })).toEqual([[2]])
    expect(await rows("SELECT id FROM cc_t WHERE UPPER(c) = :b", { b: { type: oracledb.DB_TYPE_CHAR, val: "AB" } })).toEqual([[1]])
    // a VARCHAR2 bind stays nonpadded
    expect(await rows("SELECT id FROM cc_t WHERE c <= :b ORDER BY id", { b: "ab" })).toEqual([])
  })

  it("an unqualified name is resolved in its own query block; one two FROM items share is ORA-00918", async () => {
    // c is CHAR(5) in cc_t, VARCHAR2(5) in cc_u
    expect(await rows("SELECT id FROM cc_t WHERE c = 'ab' AND id IN (SELECT id FROM cc_u WHERE c = 'ab')")).toEqual([[1]])
    expect(await rows("SELECT id FROM cc_t t WHERE EXISTS (SELECT 1 FROM cc_u u WHERE u.id = t.id AND c = 'ab   ')")).toEqual([])
    expect(await rows("SELECT id FROM cc_u u WHERE EXISTS (SELECT 1 FROM cc_t t WHERE t.id = u.id AND c = 'ab')")).toEqual([[1]])
    expect(oraCode(await failure(() => conn.execute("SELECT cc_t.id FROM cc_t, cc_u WHERE cc_t.id = 1 AND c = 'ab'")))).toBe("ORA-00918")
  })

  it("CHECK conditions of CREATE TABLE and ALTER TABLE compare a CHAR column blank-padded", async () => {
    await conn.execute("CREATE TABLE cc_k (id NUMBER, c CHAR(3) CHECK (c IN ('A', 'B')), d CHAR(2))")
    await conn.execute("ALTER TABLE cc_k ADD CONSTRAINT cc_k_d CHECK (d = 'x')")
    await conn.execute("INSERT INTO cc_k VALUES (1, 'A', 'x')")
    expect(oraCode(await failure(() => conn.execute("INSERT INTO cc_k VALUES (2, 'C', 'x')")))).toBe("ORA-02290")
    expect(await rows("SELECT id, c || '|' FROM cc_k")).toEqual([[1, "A  |"]])
    await conn.rollback()
  })

  it("an INSERT's q.* or star over a subquery or set operation writes VARCHAR2 values into CHAR columns padded", async () => {
    await conn.execute("CREATE TABLE cc_w (id NUMBER, c CHAR(4))")
    await conn.execute("INSERT INTO cc_w SELECT cc_u.* FROM cc_u")
    await conn.execute("INSERT INTO cc_w SELECT * FROM (SELECT id + 1 AS id, c FROM cc_u)")
    await conn.execute("INSERT INTO cc_w SELECT * FROM cc_u UNION ALL SELECT * FROM cc_u")
    expect(await rows("SELECT id, c || '|' FROM cc_w ORDER BY id")).toEqual([[1, "ab  |"], [1, "ab  |"], [1, "ab  |"], [2, "ab  |"]])
    await conn.rollback()
  })
})
