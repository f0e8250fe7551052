/**
 * CHAR / NCHAR values are held blank-padded to their column's length on every write path, as Oracle holds them ("If
 * you insert a value that is shorter than the column length, then Oracle blank-pads the value to column length": SQL
 * Language Reference, "CHAR Data Type"), so that functions, aggregates, derived tables, views, keys and fetched
 * values see Oracle's value; and they compare as Oracle's "Blank-Padded and Nonpadded Comparison Semantics" have it:
 * blank-padded between CHAR operands and text literals, nonpadded against a VARCHAR2 column or bind. Before, values
 * were stored as written and padded only in a few expressions and when fetched. Raw node-oracledb against the
 * Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

describe("Oracle test server: CHAR values stored blank-padded", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    await conn.execute("CREATE TABLE cs_t (id NUMBER, c CHAR(5), v VARCHAR2(8), n NCHAR(3))")
    await conn.execute("INSERT INTO cs_t VALUES (1, 'ab', 'ab', N'x')")
    await conn.execute("INSERT INTO cs_t VALUES (2, 'cd  ', 'cd', N'y ')")
    await conn.commit()
  })
  afterAll(() => closeConnection(opened))

  const rows = async (sql: string, binds: Parameters<Conn["execute"]>[1] = []): Promise<unknown> => (await conn.execute(sql, binds)).rows

  it("functions, aggregates, derived tables, views and CAST see the padded value", async () => {
    expect(await rows("SELECT UPPER(c) || '|', SUBSTR(c, 1, 4), LENGTH(RTRIM(c)), REPLACE(c, ' ', '.') FROM cs_t WHERE id = 1")).toEqual([["AB   |", "ab  ", 2, "ab..."]])
    expect(await rows("SELECT MAX(c) || '|', MIN(n) || '|' FROM cs_t")).toEqual([["cd   |", "x  |"]])
    expect(await rows("SELECT x || '|' FROM (SELECT c AS x FROM cs_t WHERE id = 1)")).toEqual([["ab   |"]])
    await conn.execute("CREATE VIEW cs_v AS SELECT id, c FROM cs_t")
    expect(await rows("SELECT c || '|' FROM cs_v WHERE id = 2")).toEqual([["cd   |"]])
    expect(await rows("SELECT CAST(v AS CHAR(4)) || '|', CAST('abcdef' AS CHAR(3)) || '|', CAST(N'z' AS NCHAR(2)) || '|' FROM cs_t WHERE id = 1")).toEqual([["ab  |", "abc|", "z |"]])
  })

  it("every write path stores the padded value", async () => {
    await conn.execute("CREATE TABLE cs_w (id NUMBER, c CHAR(5), d CHAR(4) DEFAULT 'd')")
    await conn.execute("INSERT INTO cs_w (id, c) VALUES (1, :b)", { b: "a" })
    await conn.execute("INSERT INTO cs_w (id, c) SELECT 2, v FROM cs_t WHERE id = 1")
    await conn.executeMany("INSERT INTO cs_w (id, c) VALUES (:1, :2)", [[3, "e"], [4, "f"]])
    await conn.execute("INSERT INTO cs_w (id, c) VALUES (5, 'g')")
    await conn.execute("UPDATE cs_w SET c = :b WHERE id = 5", { b: "h" })
    await conn.execute("MERGE INTO cs_w w USING (SELECT 6 AS id, 'i' AS s FROM dual) x ON (w.id = x.id) WHEN NOT MATCHED THEN INSERT (id, c) VALUES (x.id, x.s)")
    await conn.execute("MERGE INTO cs_w w USING (SELECT 1 AS id FROM dual) x ON (w.id = x.id) WHEN MATCHED THEN UPDATE SET w.d = 'j'")
    await conn.execute("BEGIN INSERT INTO cs_w (id, c) VALUES (7, :p); UPDATE cs_w SET d = :p WHERE id = 7; END;", { p: "k" })
    await conn.execute("CREATE TABLE cs_ctas AS SELECT CAST(v AS CHAR(3)) AS c FROM cs_t WHERE id = 1")
    // REPLACE shows the stored value (before, only `||` and a few functions padded a column reference)
    expect(await rows("SELECT id, REPLACE(c, ' ', '.'), REPLACE(d, ' ', '.') FROM cs_w ORDER BY id")).toEqual([
      [1, "a....", "j..."],
      [2, "ab...", "d..."],
      [3, "e....", "d..."],
      [4, "f....", "d..."],
      [5, "h....", "d..."],
      [6, "i....", "d..."],
      [7, "k....", "k..."]
    ])
    expect(await rows("SELECT REPLACE(c, ' ', '.') FROM cs_ctas")).toEqual([["ab."]])
    await conn.rollback()
  })

  it("ALTER TABLE MODIFY pads the values to a larger CHAR size or into CHAR from VARCHAR2", async () => {
    await conn.execute("CREATE TABLE cs_m (c CHAR(3), v VARCHAR2(4))")
    await conn.execute("INSERT INTO cs_m VALUES ('a', 'b')")
    await conn.execute("ALTER TABLE cs_m MODIFY (c CHAR(6), v CHAR(4))")
    expect(await rows("SELECT REPLACE(c, ' ', '.'), REPLACE(v, ' ', '.') FROM cs_m")).toEqual([["a.....", "b..."]])
  })

  it("sizes count bytes, characters when declared n CHAR or national; the fetched value is the stored one", async () => {
    await conn.execute("CREATE TABLE cs_s (b CHAR(4), c CHAR(4 CHAR), n NCHAR(2))")
    await conn.execute("INSERT INTO cs_s VALUES ('é', 'é', N'é')")
    expect(await rows("SELECT b, c, n, LENGTH(b), LENGTH(c), DUMP(b), DUMP(c) FROM cs_s")).toEqual([
      ["é  ", "é   ", "é ", 3, 4, "Typ=96 Len=4: 195,169,32,32", "Typ=96 Len=5: 195,169,32,32,32"]
    ])
  })

  it("comparisons: blank-padded between CHAR operands and text literals, nonpadded against VARCHAR2 binds and columns", async () => {
    expect(await rows("SELECT id FROM cs_t WHERE c = :b", { b: "ab" })).toEqual([])
    expect(await rows("SELECT id FROM cs_t WHERE c = :b", { b: "ab   " })).toEqual([[1]])
    // a bind sent as CHAR compares blank-padded
    expect(await rows("SELECT id FROM cs_t WHERE c = :b", { b: { val: "ab", type: oracledb.DB_TYPE_CHAR } })).toEqual([[1]])
    expect(await rows("SELECT id FROM cs_t WHERE :b <> c ORDER BY id", { b: { val: "cd ", type: oracledb.DB_TYPE_CHAR } })).toEqual([[1]])
    expect(await rows("SELECT id FROM cs_t WHERE c = v")).toEqual([])
    expect(await rows("SELECT id FROM cs_t WHERE RTRIM(c) = v ORDER BY id")).toEqual([[1], [2]])
    expect(await rows("SELECT id FROM cs_t WHERE c IN ('cd', 'zz')")).toEqual([[2]])
    expect(await rows("SELECT id FROM cs_t WHERE c NOT IN ('cd ') ORDER BY id")).toEqual([[1]])
    expect(await rows("SELECT id FROM cs_t WHERE c = 'ab        '")).toEqual([[1]])
    expect(await rows("SELECT COUNT(*) FROM dual WHERE 'a ' = 'a'")).toEqual([[1]])
    expect(await rows("SELECT id FROM cs_t WHERE c BETWEEN 'cc' AND 'cd'")).toEqual([[2]])
    // DECODE compares nonpadded whatever the types (SQL Language Reference, DECODE): 'cd   ' is not 'cd' there
    expect(await rows("SELECT id, CASE c WHEN 'cd' THEN 'y' ELSE 'n' END, DECODE(c, 'cd', 'y', 'n') FROM cs_t ORDER BY id")).toEqual([[1, "n", "n"], [2, "y", "n"]])
    await conn.execute("CREATE TABLE cs_o (k CHAR(8), c VARCHAR2(5))")
    await conn.execute("INSERT INTO cs_o VALUES ('cd', 'cd')")
    // CHAR(5) against CHAR(8): padded to the longer; a name that is VARCHAR2 in the other table resolved by its qualifier
    expect(await rows("SELECT t.id FROM cs_t t JOIN cs_o o ON t.c = o.k")).toEqual([[2]])
    expect(await rows("SELECT t.id FROM cs_t t, cs_o o WHERE t.c = 'cd' AND o.c = 'cd'")).toEqual([[2]])
  })

  it("keys and groups see one padded value for 'ab' and 'ab '", async () => {
    await conn.execute("CREATE TABLE cs_k (k CHAR(4) PRIMARY KEY)")
    await conn.execute("INSERT INTO cs_k VALUES ('ab')")
    await expect(conn.execute("INSERT INTO cs_k VALUES ('ab ')")).rejects.toThrow(/ORA-00001/)
    await conn.execute("CREATE TABLE cs_g (c CHAR(4))")
    await conn.executeMany("INSERT INTO cs_g VALUES (:1)", [["ab"], ["ab "], ["ab  "]])
    expect(await rows("SELECT c, COUNT(*) FROM cs_g GROUP BY c")).toEqual([["ab  ", 3]])
    expect(await rows("SELECT COUNT(DISTINCT c) FROM cs_g")).toEqual([[1]])
  })

  it("PL/SQL reads the padded value and compares a CHAR variable blank-padded", async () => {
    const r = await conn.execute(
      "DECLARE v CHAR(5); w CHAR(3) := 'cd'; BEGIN SELECT c INTO v FROM cs_t WHERE id = 2; :o := v || '|' || LENGTH(v) || w || '|'; IF v = 'cd' AND v = w THEN :o := :o || 'eq'; END IF; END;",
      { o: { dir: oracledb.BIND_INOUT, type: oracledb.STRING, maxSize: 20, val: "" } }
    )
    expect(r.outBinds).toEqual({ o: "cd   |5cd |eq" })
  })
})
