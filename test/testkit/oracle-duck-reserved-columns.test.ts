/**
 * Columns named by words DuckDB's parser reserves but Oracle does not (`SELECT keyword_name FROM duckdb_keywords()
 * WHERE keyword_category = 'reserved'` minus the SQL Language Reference's "Oracle SQL Reserved Words": LIMIT,
 * OFFSET, WINDOW, QUALIFY, LEADING, TRAILING, BOTH, PIVOT, SHOW, ...): Oracle takes them unquoted as column names, so
 * CREATE TABLE, INSERT, SELECT, WHERE, ORDER BY and UPDATE naming them run, while the same words keep their meaning
 * where Oracle gives them one (OFFSET n ROWS, FETCH FIRST, TRIM(LEADING ...)). Raw node-oracledb against the Oracle
 * test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const rows = async (sql: string) => (await conn.execute(sql)).rows

const WORDS = ["limit", "offset", "window", "qualify", "leading", "trailing", "both", "pivot", "show", "describe", "summarize", "analyse", "analyze", "placing", "symmetric", "asymmetric", "variadic", "lambda", "do", "pivot_longer", "pivot_wider"]

describe("Oracle test server: columns named by words only DuckDB reserves", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE TABLE kw_duck (id NUMBER, ${WORDS.map((w) => `${w} NUMBER`).join(", ")})`)
    await conn.execute(`INSERT INTO kw_duck (id, ${WORDS.join(", ")}) VALUES (1, ${WORDS.map((_, k) => k).join(", ")})`)
    await conn.execute(`INSERT INTO kw_duck VALUES (2, ${WORDS.map((_, k) => 100 + k).join(", ")})`)
  })
  afterAll(() => closeConnection({ server, conn }))

  it("are created, inserted, selected, filtered, ordered and updated unquoted", async () => {
    expect(await rows(`SELECT ${WORDS.join(", ")} FROM kw_duck WHERE id = 1`)).toEqual([WORDS.map((_, k) => k)])
    for (const [k, w] of WORDS.entries()) {
      expect(await rows(`SELECT id FROM kw_duck WHERE ${w} = ${k}`)).toEqual([[1]])
      expect(await rows(`SELECT k.id, k.${w} FROM kw_duck k ORDER BY ${w} DESC`)).toEqual([[2, 100 + k], [1, k]])
      await conn.execute(`UPDATE kw_duck SET ${w} = ${w} + 1000 WHERE id = 1`)
    }
    expect(await rows(`SELECT ${WORDS.map((w) => `${w} - 1000`).join(", ")} FROM kw_duck WHERE id = 1`)).toEqual([WORDS.map((_, k) => k)])
    const meta = (await conn.execute("SELECT limit, offset AS o, window FROM kw_duck WHERE id = 2")).metaData
    expect(meta?.map((m: { name: string }) => m.name)).toEqual(["LIMIT", "O", "WINDOW"])
  })

  it("keep OFFSET n ROWS, FETCH FIRST and TRIM(LEADING | TRAILING | BOTH ...) where they are clauses", async () => {
    await conn.execute("CREATE TABLE kw_duck2 (id NUMBER, limit NUMBER, offset NUMBER, leading VARCHAR2(5))")
    await conn.execute("INSERT INTO kw_duck2 VALUES (1, 20, 2, 'xax')")
    await conn.execute("INSERT INTO kw_duck2 VALUES (2, 10, 1, 'xbx')")
    expect(await rows("SELECT id, limit FROM kw_duck2 ORDER BY offset OFFSET 1 ROWS FETCH FIRST 1 ROWS ONLY")).toEqual([[1, 20]])
    expect(await rows("SELECT id FROM kw_duck2 ORDER BY limit FETCH FIRST 1 ROW ONLY")).toEqual([[2]])
    expect(await rows("SELECT TRIM(LEADING 'x' FROM leading), TRIM(TRAILING 'x' FROM leading), TRIM(BOTH 'x' FROM leading), TRIM(leading) FROM kw_duck2 WHERE id = 1"))
      .toEqual([["ax", "xa", "a", "xax"]])
  })
})
