/**
 * executeMany INSERTs into tables with CHAR / NCHAR columns take the column-wise path (bulk-insert.ts, and
 * bind-row-decoder.ts for large requests decoded while they arrive), which pads each text to the column's size as the
 * general path does ("Oracle blank-pads the value to column length", SQL Language Reference, "CHAR Data Type").
 * Before, the INSERT's padding of its binds sent every such request down the general path. Raw node-oracledb against
 * the Oracle test server; the reference rows are inserted one by one through the general path.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { laidOut } from "../../testkit/oracle/bulk-insert.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

/** Rows of the large request: above the size from which requests are decoded while they arrive. */
const ROWS = 30_000

describe("Oracle test server: executeMany into CHAR columns laid out column-wise", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    for (const t of ["cb_fast", "cb_ref"]) await conn.execute(`CREATE TABLE ${t} (id NUMBER(10), c CHAR(5), n NCHAR(3), b CHAR(4 CHAR), v VARCHAR2(5))`)
  })
  afterAll(() => closeConnection(opened))

  const insert = (t: string) => `INSERT INTO ${t} VALUES (:1, :2, :3, :4, :5)`
  const row = (i: number) => [i, ["a", "bb", "ccccc", null, "é"][i % 5], ["x", null, "yz"][i % 3], ["ü", "ab", null][i % 3], "v"]
  const stored = async (t: string, where = "") => (await conn.execute(`SELECT id, c || '|', n || '|', b || '|', v FROM ${t} ${where} ORDER BY id`)).rows

  it("pads small requests' values as the general path does", async () => {
    const rows = Array.from({ length: 20 }, (_, i) => row(i))
    const before = laidOut.rows
    await conn.executeMany(insert("cb_fast"), rows)
    expect(laidOut.rows - before).toBe(rows.length)
    for (const r of rows) await conn.execute(insert("cb_ref"), r)
    expect(await stored("cb_fast")).toEqual(await stored("cb_ref"))
    expect((await stored("cb_fast")).slice(0, 2)).toEqual([
      [0, "a    |", "x  |", "ü   |", "v"],
      [1, "bb   |", "|", "ab  |", "v"]
    ])
    // a column subset goes through staging, padded alike
    await conn.executeMany("INSERT INTO cb_fast (id, c) VALUES (:1, :2)", [[100, "q"]])
    expect(await stored("cb_fast", "WHERE id = 100")).toEqual([[100, "q    |", "|", "|", null]])
    await conn.rollback()
  })

  it("pads large requests decoded straight from their bytes", async () => {
    const rows = Array.from({ length: ROWS }, (_, i) => row(i))
    // the statement's first request may arrive whole before its append target is known
    await conn.executeMany(insert("cb_fast"), rows.slice(0, 10))
    await conn.execute("DELETE FROM cb_fast")
    const before = laidOut.straight
    expect((await conn.executeMany(insert("cb_fast"), rows)).rowsAffected).toBe(ROWS)
    expect(laidOut.straight - before).toBe(ROWS)
    for (const r of rows.slice(0, 15)) await conn.execute(insert("cb_ref"), r)
    expect(await stored("cb_fast", "WHERE id < 15")).toEqual(await stored("cb_ref"))
    await conn.rollback()
  })

  it("a value longer than its CHAR column still fails ORA-12899", async () => {
    const e = await failure(() => conn.executeMany(insert("cb_fast"), [row(0), [1, "toolong", "x", "y", "v"]]))
    expect(oraCode(e)).toBe("ORA-12899")
    await conn.rollback()
  })
})
