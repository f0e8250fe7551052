/**
 * Blank-padded comparison semantics for more CHAR-valued expressions ("Blank-Padded and Nonpadded Comparison
 * Semantics", SQL Language Reference: blank-padded "only when both values in the comparison are either expressions of
 * data type CHAR, NCHAR, text literals, or values returned by the USER function", nonpadded when either is VARCHAR2).
 * Before: MAX / MIN / FIRST_VALUE / LAG of a CHAR column, a stored, package or local function declared RETURN CHAR,
 * and a PL/SQL record field or collection element of a CHAR type compared as their padded text; an IN list mixing a
 * VARCHAR2 item with CHAR items compared the CHAR items (other than literals against a column) nonpadded; a name that is CHAR in its own query
 * block and NUMBER without precision in another table of the statement was computed on as a NUMBER (ORA-01722); and
 * an INSERT's star over a derived table with its own WITH clause wrote VARCHAR2 values into CHAR columns unpadded.
 * Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

describe("Oracle test server: CHAR comparisons of aggregates, functions, record fields, IN lists", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    // c CHAR(5), v VARCHAR2(5), e CHAR(7); row 3's v holds trailing blanks (nonpadded it equals c's 'cd   ')
    await conn.execute("CREATE TABLE c5_t (id NUMBER, c CHAR(5), v VARCHAR2(5), e CHAR(7))")
    await conn.execute("INSERT INTO c5_t VALUES (1, 'ab', 'ab', 'ab')")
    await conn.execute("INSERT INTO c5_t VALUES (2, 'b', 'b', 'b')")
    await conn.execute("INSERT INTO c5_t VALUES (3, 'cd', 'cd   ', 'cd')")
    // c is NUMBER without precision here
    await conn.execute("CREATE TABLE c5_n (id NUMBER, c NUMBER)")
    await conn.execute("INSERT INTO c5_n VALUES (1, 7)")
    await conn.execute("INSERT INTO c5_n VALUES (3, 7)")
    await conn.commit()
  })
  afterAll(() => closeConnection(opened))

  const rows = async (sql: string, binds: Parameters<Conn["execute"]>[1] = []): Promise<unknown> => (await conn.execute(sql, binds)).rows
  const outText = async (block: string): Promise<unknown> =>
    (await conn.execute(block, { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 } })).outBinds.o

  it("MAX, MIN, FIRST_VALUE and LAG of a CHAR column are CHAR: compared blank-padded", async () => {
    expect(await rows("SELECT COUNT(*) FROM c5_t HAVING MAX(c) = 'cd'")).toEqual([[3]])
    expect(await rows("SELECT * FROM (SELECT MIN(c) m FROM c5_t) WHERE m = 'ab'")).toEqual([["ab   "]])
    // CHAR(7) against MIN's CHAR(5): the shorter padded
    expect(await rows("SELECT id FROM c5_t WHERE e = (SELECT MIN(c) FROM c5_t)")).toEqual([[1]])
    expect(await rows("SELECT id FROM (SELECT id, FIRST_VALUE(c) OVER (ORDER BY id) f FROM c5_t) WHERE f = 'ab' ORDER BY id")).toEqual([[1], [2], [3]])
    expect(await rows("SELECT id, CASE WHEN LAG(c) OVER (ORDER BY id) = 'ab' THEN 'y' ELSE 'n' END FROM c5_t ORDER BY id")).toEqual([[1, "n"], [2, "y"], [3, "n"]])
    // MAX of a VARCHAR2 stays VARCHAR2: 'cd   ' is not 'cd'
    expect(await rows("SELECT COUNT(*) FROM c5_t HAVING MAX(v) = 'cd'")).toEqual([])
  })

  it("a function declared RETURN CHAR, in SQL and in PL/SQL, and a local one", async () => {
    await conn.execute("CREATE OR REPLACE FUNCTION c5_f RETURN CHAR IS BEGIN RETURN 'ab   '; END;")
    expect(await rows("SELECT id FROM c5_t WHERE c5_f() = 'ab' AND c5_f = e")).toEqual([[1]])
    expect(await outText("BEGIN IF c5_f = 'ab' THEN :o := 'y'; ELSE :o := 'n'; END IF; END;")).toBe("y")
    await conn.execute("CREATE OR REPLACE PACKAGE c5_p AS FUNCTION f RETURN CHAR; END;")
    await conn.execute("CREATE OR REPLACE PACKAGE BODY c5_p AS FUNCTION f RETURN CHAR IS BEGIN RETURN 'ab   '; END; END;")
    expect(await rows("SELECT id FROM c5_t WHERE c5_p.f() = e")).toEqual([[1]])
    expect(await outText("BEGIN IF c5_p.f = 'ab' THEN :o := 'y'; ELSE :o := 'n'; END IF; END;")).toBe("y")
    expect(await outText("DECLARE FUNCTION g RETURN CHAR IS BEGIN RETURN 'ab '; END; BEGIN IF g() = 'ab' THEN :o := 'y'; ELSE :o := 'n'; END IF; END;")).toBe("y")
  })

  it("a PL/SQL record field or collection element of a CHAR type, in conditions and in block SQL", async () => {
    expect(await outText("DECLARE TYPE rt IS RECORD (x CHAR(5)); r1 rt; BEGIN r1.x := 'ab'; IF r1.x = 'ab' THEN :o := 'y'; ELSE :o := 'n'; END IF; END;")).toBe("y")
    expect(await outText("DECLARE r1 c5_t%ROWTYPE; BEGIN SELECT * INTO r1 FROM c5_t WHERE id = 1; IF r1.c = 'ab' THEN :o := 'y'; ELSE :o := 'n'; END IF; END;")).toBe("y")
    expect(await outText("DECLARE TYPE tt IS TABLE OF CHAR(5); x tt := tt('ab'); BEGIN IF x(1) = 'ab' THEN :o := 'y'; ELSE :o := 'n'; END IF; END;")).toBe("y")
    expect(await outText("DECLARE TYPE at IS TABLE OF CHAR(5) INDEX BY VARCHAR2(3); x at; BEGIN x('k') := 'ab'; IF 'ab' = x('k') THEN :o := 'y'; ELSE :o := 'n'; END IF; END;")).toBe("y")
    expect(await outText("DECLARE TYPE rt IS RECORD (x CHAR(5)); r1 rt; n NUMBER; BEGIN r1.x := 'ab'; SELECT COUNT(*) INTO n FROM c5_t WHERE e = r1.x; :o := n; END;")).toBe("1")
  })

  it("an IN list mixing VARCHAR2 and CHAR items compares each as its own comparison would", async () => {
    const b = { type: oracledb.DB_TYPE_CHAR, val: "b" }
    // c = v nonpadded (only row 3's 'cd   ' equals), c = :b blank-padded
    expect(await rows("SELECT id FROM c5_t WHERE c IN (v, :b) ORDER BY id", { b })).toEqual([[2], [3]])
    expect(await rows("SELECT id FROM c5_t WHERE c NOT IN (v, :b) ORDER BY id", { b })).toEqual([[1]])
    expect(await rows("SELECT id FROM c5_t WHERE c IN (v, LOWER('B')) ORDER BY id")).toEqual([[2], [3]])
    expect(await rows("SELECT id FROM c5_t WHERE c IN (v, e) ORDER BY id")).toEqual([[1], [2], [3]])
    // a CHAR expression other than a column on the left: its literal items blank-padded, VARCHAR2 ones not
    expect(await rows("SELECT id FROM c5_t WHERE UPPER(c) IN ('AB', v) ORDER BY id")).toEqual([[1]])
  })

  it("a name CHAR in its own query block and NUMBER in another table of the statement is the CHAR there", async () => {
    const inner = "id IN (SELECT id FROM c5_n WHERE c = 7)"
    expect(await rows(`SELECT id FROM c5_t WHERE c = 'ab' AND ${inner}`)).toEqual([[1]])
    expect(await rows(`SELECT id FROM c5_t WHERE c IN ('ab', 'x') AND ${inner}`)).toEqual([[1]])
    expect(await rows(`SELECT id FROM c5_t WHERE c BETWEEN 'a' AND 'b' AND ${inner}`)).toEqual([[1]])
    expect(await rows(`SELECT id FROM c5_t WHERE c > 'b' AND ${inner}`)).toEqual([[3]])
    expect(await rows(`SELECT c FROM c5_t WHERE ${inner} ORDER BY c DESC`)).toEqual([["cd   "], ["ab   "]])
    // a derived table's CHAR item named as a NUMBER column of another table
    expect(await rows("SELECT k FROM (SELECT id AS k, c AS id FROM c5_t) WHERE id = 'ab' AND k IN (SELECT id FROM c5_n)")).toEqual([[1]])
    // where c is the NUMBER it stays one
    expect(await rows("SELECT id FROM c5_n WHERE c = 7.0 AND id IN (SELECT id FROM c5_t WHERE c = 'ab')")).toEqual([[1]])
  })

  it("an INSERT's star over a derived table with its own WITH clause pads values written into CHAR columns", async () => {
    await conn.execute("CREATE TABLE c5_w (id NUMBER, c CHAR(4))")
    await conn.execute("INSERT INTO c5_w SELECT * FROM (WITH w AS (SELECT id, v FROM c5_t WHERE id < 3) SELECT * FROM w)")
    expect(await rows("SELECT id, c || '|' FROM c5_w ORDER BY id")).toEqual([[1, "ab  |"], [2, "b   |"]])
    await conn.rollback()
  })
})
