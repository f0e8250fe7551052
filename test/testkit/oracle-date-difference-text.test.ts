import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { withServer } from "./oracle/helpers.ts"

// A date difference is a NUMBER of days (SQL Language Reference, "Datetime/Interval Arithmetic"), and a NUMBER's
// text is TO_CHAR's: no trailing ".0", no 0 before the point ("Implicit Data Conversion"). Through raw node-oracledb:
// `||`, CONCAT, CAST(... AS VARCHAR2) and LENGTH printed DuckDB's `5.0` or failed.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: date differences and numbers as text", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE dd (id NUMBER(4), d DATE, label VARCHAR2(10))")
    await conn.execute("INSERT INTO dd VALUES (1, DATE '2024-01-11', 'n')")
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const row = async (sql: string, binds: Array<unknown> = []) => (await conn.execute(sql, binds)).rows![0]

  it("|| and CONCAT print a date difference as TO_CHAR does", async () => {
    expect(await row("SELECT (DATE '2024-01-06' - DATE '2024-01-01') || 'x', 'x' || (DATE '2024-01-06' - DATE '2024-01-01'), CONCAT(DATE '2024-01-06' - DATE '2024-01-01', 'x') FROM dual")).toEqual(["5x", "x5", "5x"])
    expect(await row("SELECT (TO_DATE('2024-01-06 12:00', 'YYYY-MM-DD HH24:MI') - DATE '2024-01-06') || 'd', (d - DATE '2024-01-01') * 24 || 'h', label || (d - DATE '2024-01-10') / 4 FROM dd")).toEqual([".5d", "240h", "n.25"])
    expect(await row("SELECT 0.5 || 'x', 10 || 'x', :1 || 'x' FROM dual", ["b"])).toEqual([".5x", "10x", "bx"])
  })

  it("a long || chain of numbers and texts stays quick (it grew exponentially) and NULL only when every part is", async () => {
    const started = Date.now()
    expect(await row("SELECT 'x' || 1 || 2 || 3 || 4 || 5 || 6 || 7 || 8 || 9 || 0.5 || 'a' || 'b' || 'c' || 'd' || 'e' || (d - DATE '2024-01-01') FROM dd")).toEqual(["x123456789.5abcde10"])
    expect(Date.now() - started).toBeLessThan(2000)
    expect(await row("SELECT '' || '', NULL || '' || NULL, 'a' || NULL || '', ('a' || 'b') || 'c' FROM dual")).toEqual([null, null, "a", "abc"])
  })

  it("a number literal or computed number written into a VARCHAR2 column is its TO_CHAR text, a computed date its NLS text", async () => {
    await conn.execute("INSERT INTO dd (id, label) VALUES (2, DATE '2024-01-06' - DATE '2024-01-01')")
    await conn.execute("INSERT INTO dd (id, label) SELECT 3, (d - DATE '2024-01-10') / 4 FROM dd WHERE id = 1")
    await conn.execute("INSERT INTO dd (id, label) VALUES (4, 0.5)")
    await conn.execute("UPDATE dd SET label = d + 1 WHERE id = 1")
    await conn.execute("INSERT INTO dd (id, label) VALUES (5, :1)", ["0.50"])
    expect((await conn.execute("SELECT label FROM dd ORDER BY id")).rows).toEqual([["12-JAN-24"], ["5"], [".25"], [".5"], ["0.50"]])
    await conn.rollback()
  })

  it("CAST(... AS VARCHAR2) and LENGTH of a date difference use that text too", async () => {
    expect(await row("SELECT CAST(DATE '2024-01-06' - DATE '2024-01-01' AS VARCHAR2(10)), LENGTH(DATE '2024-01-06' - DATE '2024-01-01'), TO_CHAR(d - DATE '2024-01-01') FROM dd")).toEqual(["5", 1, "10"])
  })
})
