/**
 * A bind compared with ROWID whose text is no rowid is ORA-01410 "invalid ROWID", as Oracle converts the bind to a
 * ROWID before reading rows (Database Error Messages, https://docs.oracle.com/en/error-help/db/ora-01410/; SQL
 * Language Reference, "ROWID Data Type"), also when the table has no row; the engine compared the text and found no
 * row. A NULL bind finds no row without an error. Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn
let rowid: string

const INVALID_ROWID = "ORA-01410: invalid ROWID"

describe("Oracle test server: binds compared with ROWID", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE rb_t (n NUMBER, s VARCHAR2(10))")
    await conn.execute("INSERT INTO rb_t VALUES (1, 'a')")
    await conn.execute("INSERT INTO rb_t VALUES (2, 'b')")
    await conn.execute("CREATE TABLE rb_empty (n NUMBER)")
    await conn.commit()
    rowid = (await conn.execute("SELECT ROWID FROM rb_t WHERE n = 1")).rows[0][0]
  })
  afterAll(() => closeConnection({ server, conn }))

  const message = async (sql: string, binds: Record<string, unknown>) => (await failure(() => conn.execute(sql, binds))).message.split("\n")[0]

  it("text that is no rowid is ORA-01410 on either side of the comparison, in an IN list, and on a table without rows", async () => {
    expect(await message("SELECT n FROM rb_t WHERE ROWID = :r", { r: "zzz" })).toBe(INVALID_ROWID)
    expect(await message("SELECT n FROM rb_t WHERE :r = ROWID", { r: "not a rowid" })).toBe(INVALID_ROWID)
    expect(await message("SELECT n FROM rb_t WHERE ROWID IN (:a, :b)", { a: rowid, b: "zzz" })).toBe(INVALID_ROWID)
    expect(await message("SELECT n FROM rb_empty WHERE ROWID = :r", { r: "zzz" })).toBe(INVALID_ROWID)
  })

  it("UPDATE and DELETE by such a bind are ORA-01410 and change nothing", async () => {
    expect(await message("UPDATE rb_t SET s = 'x' WHERE ROWID = :r", { r: "zzz" })).toBe(INVALID_ROWID)
    expect(await message("DELETE FROM rb_empty WHERE ROWID = :r", { r: "AAAR0oAAM" })).toBe(INVALID_ROWID)
    expect((await conn.execute("SELECT s FROM rb_t ORDER BY n")).rows).toEqual([["a"], ["b"]])
  })

  it("a rowid's text finds its row, NULL finds none, NOT IN keeps the others", async () => {
    expect((await conn.execute("SELECT n FROM rb_t WHERE ROWID = :r", { r: rowid })).rows).toEqual([[1]])
    expect((await conn.execute("SELECT n FROM rb_t WHERE ROWID = :r", { r: null })).rows).toEqual([])
    expect((await conn.execute("SELECT n FROM rb_t WHERE ROWID IN (:a, :b)", { a: rowid, b: null })).rows).toEqual([[1]])
    expect((await conn.execute("SELECT n FROM rb_t WHERE ROWID NOT IN (:a)", { a: rowid })).rows).toEqual([[2]])
    expect((await conn.execute("UPDATE rb_t SET s = 'y' WHERE ROWID = :r", { r: rowid })).rowsAffected).toBe(1)
    await conn.rollback()
  })
})
