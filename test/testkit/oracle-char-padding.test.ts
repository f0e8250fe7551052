/**
 * A CHAR(n) value is blank-padded to its length wherever an expression computes on it, as Oracle holds it ("If you
 * insert a value that is shorter than the column length, then Oracle blank-pads the value to column length": SQL
 * Language Reference, "CHAR Data Type"): `c || '|'` of a CHAR(5) holding 'ab' is 'ab   |', LENGTH(c) 5, DUMP shows
 * five bytes. Comparisons with text literals keep Oracle's blank-padded semantics ("Blank-Padded and Nonpadded
 * Comparison Semantics": `c = 'ab'` and `c = 'ab   '` both hold), LIKE does not pad its pattern. Before, the padding
 * was added only when the value was fetched. Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

describe("Oracle test server: CHAR values keep their blank padding in expressions", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    await conn.execute("CREATE TABLE cp_t (id NUMBER, c CHAR(5), v VARCHAR2(5), n NCHAR(4))")
    await conn.execute("INSERT INTO cp_t VALUES (1, 'ab', 'ab', 'x')")
    await conn.execute("INSERT INTO cp_t VALUES (2, 'cd   ', 'cd', N'y ')")
    await conn.commit()
  })
  afterAll(() => closeConnection(opened))

  const rows = async (sql: string): Promise<unknown> => (await conn.execute(sql)).rows

  it("|| , CONCAT, LENGTH and DUMP see the padded value; fetched values stay padded", async () => {
    expect(await rows("SELECT c, c || '|', '|' || cp_t.c, CONCAT(c, '|'), LENGTH(c), DUMP(c) FROM cp_t WHERE id = 1")).toEqual([
      // a CHAR column is Oracle's type 96 (SQL Language Reference, "DUMP" and the "Data Types" type codes)
      ["ab   ", "ab   |", "|ab   ", "ab   |", 5, "Typ=96 Len=5: 97,98,32,32,32"]
    ])
    expect(await rows("SELECT v || '|', LENGTH(v) FROM cp_t WHERE id = 1")).toEqual([["ab|", 2]])
    expect(await rows("SELECT n, n || '|', LENGTH(n) FROM cp_t ORDER BY id")).toEqual([["x   ", "x   |", 4], ["y   ", "y   |", 4]])
  })

  it("comparisons with literals are blank-padded, whether the value was written with trailing blanks or not", async () => {
    expect(await rows("SELECT id FROM cp_t WHERE c = 'ab'")).toEqual([[1]])
    expect(await rows("SELECT id FROM cp_t WHERE c = 'ab   '")).toEqual([[1]])
    expect(await rows("SELECT id FROM cp_t WHERE 'cd' = c")).toEqual([[2]])
    expect(await rows("SELECT id, c || '|' FROM cp_t WHERE c = 'cd '")).toEqual([[2, "cd   |"]])
    expect(await rows("SELECT id FROM cp_t WHERE c <> 'ab ' ORDER BY id")).toEqual([[2]])
    expect(await rows("SELECT id FROM cp_t WHERE n = N'y' ORDER BY id")).toEqual([[2]])
  })

  it("LIKE matches the padded value: 'ab' does not match, 'ab%' does", async () => {
    expect(await rows("SELECT id FROM cp_t WHERE c LIKE 'ab'")).toEqual([])
    expect(await rows("SELECT id FROM cp_t WHERE c LIKE 'ab%'")).toEqual([[1]])
    expect(await rows("SELECT id FROM cp_t WHERE c NOT LIKE 'ab' ORDER BY id")).toEqual([[1], [2]])
  })

  it("an UPDATE's SET target stays a column, and a padded value written on is too long for its column", async () => {
    await conn.execute("UPDATE cp_t SET c = 'ef', v = 'w' WHERE c = 'cd'")
    expect(await rows("SELECT c || '|', v FROM cp_t WHERE id = 2")).toEqual([["ef   |", "w"]])
    await expect(conn.execute("UPDATE cp_t SET v = c || 'z' WHERE id = 1")).rejects.toThrow(/ORA-12899.*actual: 6, maximum: 5/)
    await conn.rollback()
  })

  it("SQL in PL/SQL sees the padding too", async () => {
    const r = await conn.execute("BEGIN SELECT c || '|' INTO :o FROM cp_t WHERE c = 'ab'; END;", { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 20 } })
    expect(r.outBinds.o).toBe("ab   |")
  })
})
