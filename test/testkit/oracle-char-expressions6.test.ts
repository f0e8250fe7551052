/**
 * Blank-padded comparison semantics by the data type of more expressions and at more comparison sites ("Blank-Padded
 * and Nonpadded Comparison Semantics", SQL Language Reference: blank-padded "only when both values in the comparison
 * are either expressions of data type CHAR, NCHAR, text literals, or values returned by the USER function", nonpadded
 * when either is VARCHAR2). Before: NULLIF and COALESCE of CHARs, a CASE with a NULL result, CAST AS CHARACTER(n),
 * SOUNDEX of a CHAR, MAX ... KEEP of a CHAR, the column of a USING join or of a LATERAL inline view, and a view's
 * column computed as a CHAR expression compared as their stored, padded text; a CHAR compared with a subquery's CHAR
 * column (IN, = ANY) of another length, a simple CASE whose subject is not a column, and NULLIF's own comparison were
 * nonpadded, and so was a PL/SQL simple CASE statement's; a client's CHAR bind inside a PL/SQL block was taken as
 * VARCHAR2; a CHAR item of an IN list whose left operand holds a bind
 * was compared nonpadded beside a VARCHAR2 item;
 * DECODE compared blank-padded where its reference says nonpadded. Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

describe("Oracle test server: CHAR comparisons of more expressions and comparison sites", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    // c CHAR(5), e CHAR(7) hold 'ab' padded; v VARCHAR2(5) holds 'ab' as it is
    await conn.execute("CREATE TABLE c6_t (id NUMBER, c CHAR(5), v VARCHAR2(5), e CHAR(7))")
    await conn.execute("INSERT INTO c6_t VALUES (1, 'ab', 'ab', 'ab')")
    await conn.execute("INSERT INTO c6_t VALUES (2, 'cd', 'xy', 'zz')")
    await conn.execute("CREATE TABLE c6_u (id NUMBER, c CHAR(7))")
    await conn.execute("INSERT INTO c6_u VALUES (1, 'ab')")
    await conn.commit()
  })
  afterAll(() => closeConnection(opened))

  const rows = async (sql: string, binds: Parameters<Conn["execute"]>[1] = []): Promise<unknown> => (await conn.execute(sql, binds)).rows
  const outText = async (block: string): Promise<unknown> =>
    (await conn.execute(block, { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 } })).outBinds.o

  it("NULLIF and COALESCE of CHARs, a CASE with a NULL result, CAST AS CHARACTER(n), SOUNDEX and MAX ... KEEP are CHAR", async () => {
    // NULLIF returns expr1 ("logically equivalent to" CASE WHEN expr1 = expr2 THEN NULL ELSE expr1 END), and compares
    // its arguments as `=` does: c and 'ab' blank-padded
    expect(await rows("SELECT id FROM c6_t WHERE NULLIF(c, 'zz') = 'ab'")).toEqual([[1]])
    expect(await rows("SELECT id FROM c6_t WHERE NULLIF(c, 'ab') IS NULL")).toEqual([[1]])
    expect(await rows("SELECT id FROM c6_t WHERE NULLIF(c, e) IS NULL")).toEqual([[1]])
    // COALESCE "is equivalent to" a CASE of its arguments
    expect(await rows("SELECT id FROM c6_t WHERE COALESCE(c, e) = 'ab'")).toEqual([[1]])
    expect(await rows("SELECT id FROM c6_t WHERE CASE WHEN id = 1 THEN c ELSE NULL END = 'ab'")).toEqual([[1]])
    expect(await rows("SELECT id FROM c6_t WHERE CAST(v AS CHARACTER(6)) = 'ab'")).toEqual([[1]])
    expect(await rows("SELECT id FROM c6_t WHERE SOUNDEX(c) = 'A100 '")).toEqual([[1]])
    expect(await rows("SELECT COUNT(*) FROM c6_t HAVING MAX(c) KEEP (DENSE_RANK FIRST ORDER BY id) = 'ab'")).toEqual([[2]])
    // a set operation of two CHAR(5) branches is CHAR(5)
    expect(await rows("SELECT x FROM (SELECT c x FROM c6_t UNION ALL SELECT CAST('q' AS CHAR(5)) FROM dual) WHERE x = 'q'")).toEqual([["q    "]])
    // NVL, NVL2 and GREATEST return VARCHAR2: 'ab   ' is not 'ab'
    expect(await rows("SELECT id FROM c6_t WHERE NVL(c, 'x') = 'ab' OR NVL2(id, c, e) = 'ab' OR GREATEST(c, e) = 'ab'")).toEqual([])
    expect(await outText("DECLARE x CHAR(5) := 'ab'; BEGIN IF COALESCE(x, 'q') = 'ab' AND NULLIF(x, 'q') = 'ab' THEN :o := 'y'; ELSE :o := 'n'; END IF; END;")).toBe("y")
  })

  it("a USING join's column, a LATERAL inline view's and a view's column computed as a CHAR expression are CHAR", async () => {
    expect(await rows("SELECT COUNT(*) FROM c6_t a JOIN c6_t b USING (c) WHERE c = 'ab'")).toEqual([[1]])
    expect(await rows("SELECT t.id FROM c6_t t, LATERAL (SELECT t.c x FROM dual) l WHERE l.x = 'ab'")).toEqual([[1]])
    await conn.execute("CREATE VIEW c6_v AS SELECT id, UPPER(c) u, CAST(v AS CHAR(6)) w FROM c6_t")
    expect(await rows("SELECT id FROM c6_v WHERE u = 'AB' AND w = 'ab'")).toEqual([[1]])
  })

  it("a CHAR compared with a subquery's CHAR column of another length, by IN and = ANY, is blank-padded", async () => {
    // CHAR(5) against CHAR(7)
    expect(await rows("SELECT id FROM c6_t WHERE c IN (SELECT c FROM c6_u)")).toEqual([[1]])
    expect(await rows("SELECT id FROM c6_t WHERE c NOT IN (SELECT c FROM c6_u)")).toEqual([[2]])
    expect(await rows("SELECT id FROM c6_t WHERE c = ANY (SELECT c FROM c6_u)")).toEqual([[1]])
    expect(await rows("SELECT id FROM c6_t WHERE c < ALL (SELECT c FROM c6_u) ORDER BY id")).toEqual([])
    expect(await rows("SELECT id FROM c6_t WHERE c >= ALL (SELECT c FROM c6_u) ORDER BY id")).toEqual([[1], [2]])
    // a CHAR whose length is known only when the statement runs
    expect(await rows("SELECT id FROM c6_t WHERE LOWER(c) >= ALL (SELECT c FROM c6_u) ORDER BY id")).toEqual([[1], [2]])
    expect(await rows("SELECT id FROM c6_t WHERE LOWER(c) > ANY (SELECT c FROM c6_u) ORDER BY id")).toEqual([[2]])
    // a VARCHAR2 column of the subquery: nonpadded
    expect(await rows("SELECT id FROM c6_t WHERE c IN (SELECT v FROM c6_t)")).toEqual([])
  })

  it("a simple CASE compares its subject with each WHEN value by their types, whatever the subject is", async () => {
    expect(await rows("SELECT CASE UPPER(c) WHEN 'AB' THEN 'y' ELSE 'n' END FROM c6_t ORDER BY id")).toEqual([["y"], ["n"]])
    // CHAR(5) against CHAR(7) blank-padded, against VARCHAR2 'xy' nonpadded
    expect(await rows("SELECT CASE c WHEN e THEN 'e' WHEN v THEN 'v' ELSE 'n' END FROM c6_t ORDER BY id")).toEqual([["e"], ["n"]])
  })

  it("a PL/SQL simple CASE statement compares a CHAR selector with a CHAR WHEN value blank-padded, with a VARCHAR2 one not", async () => {
    expect(await outText("DECLARE x CHAR(5) := 'ab'; BEGIN CASE x WHEN 'ab' THEN :o := 'y'; ELSE :o := 'n'; END CASE; END;")).toBe("y")
    expect(await outText("DECLARE x CHAR(5) := 'ab'; BEGIN CASE UPPER(x) WHEN 'AB' THEN :o := 'y'; ELSE :o := 'n'; END CASE; END;")).toBe("y")
    expect(await outText("DECLARE x CHAR(5) := 'ab'; w VARCHAR2(5) := 'ab'; BEGIN CASE x WHEN w THEN :o := 'y'; ELSE :o := 'n'; END CASE; END;")).toBe("n")
  })

  it("a client's bind sent as CHAR is CHAR inside a PL/SQL block too, in its SQL and in its conditions", async () => {
    const b = { type: oracledb.DB_TYPE_CHAR, val: "ab" }
    const o = { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 10 }
    const out = async (block: string): Promise<unknown> => (await conn.execute(block, { b, o })).outBinds.o
    expect(await out("BEGIN SELECT COUNT(*) INTO :o FROM c6_t WHERE c = :b; END;")).toBe("1")
    expect(await out("BEGIN SELECT COUNT(*) INTO :o FROM c6_t WHERE UPPER(:b) IN (v || 'x', UPPER(e)); END;")).toBe("1")
    expect(await out("BEGIN IF :b = 'ab  ' THEN :o := 'y'; ELSE :o := 'n'; END IF; END;")).toBe("y")
    expect(await out("BEGIN CASE :b WHEN 'ab ' THEN :o := 'y'; ELSE :o := 'n'; END CASE; END;")).toBe("y")
  })

  it("an IN list whose left operand holds a bind compares its CHAR items blank-padded beside VARCHAR2 ones", async () => {
    const b = { type: oracledb.DB_TYPE_CHAR, val: "ab" }
    // UPPER(:b) = v || 'x' nonpadded (never), UPPER(:b) = UPPER(e) blank-padded ('AB' and 'AB     ')
    expect(await rows("SELECT id FROM c6_t WHERE UPPER(:b) IN (v || 'x', UPPER(e))", { b })).toEqual([[1]])
    expect(await rows("SELECT id FROM c6_t WHERE :b NOT IN (v || 'x', e) ORDER BY id", { b })).toEqual([[2]])
    // a bind sent as VARCHAR2 stays nonpadded against the CHAR item
    expect(await rows("SELECT id FROM c6_t WHERE :b IN (v || 'x', e)", { b: "ab" })).toEqual([])
  })

  it("DECODE compares nonpadded whatever the types (SQL Language Reference, DECODE)", async () => {
    expect(await rows("SELECT DECODE(c, 'ab', 'y', 'n'), DECODE('a', 'a ', 'same', 'different') FROM c6_t WHERE id = 1")).toEqual([["n", "different"]])
    expect(await rows("SELECT DECODE(c, 'ab   ', 'y', 'n') FROM c6_t WHERE id = 1")).toEqual([["y"]])
  })
})
