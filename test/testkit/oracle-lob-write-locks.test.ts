/**
 * A LOB is written through a table locator only when the writer's transaction has locked its row: by SELECT ... FOR
 * UPDATE, or by a DML statement that wrote the row (an UPDATE, an INSERT), else ORA-22920 "row containing the LOB
 * value is not locked" (https://docs.oracle.com/en/error-help/db/ora-22920; Database Concepts, "Row Locks (TX)": a
 * DML statement locks the rows it changes). Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { TwoSessions } from "./oracle/helpers.ts"
import { failure, openTwoSessions, oracledb, oraCode } from "./oracle/helpers.ts"
import { writeThrough } from "./oracle/lob-data.ts"

let env: TwoSessions

describe("Oracle test server: LOB writes need the row locked by the writer's transaction", () => {
  beforeAll(async () => {
    env = await openTwoSessions(["CREATE TABLE wl_doc (id NUMBER PRIMARY KEY, tag VARCHAR2(5), doc CLOB)", "INSERT INTO wl_doc VALUES (1, 'a', 'one')", "INSERT INTO wl_doc VALUES (2, 'b', 'two')"])
  })
  afterAll(() => env?.env.close())

  const docs = async () => (await env.a.execute("SELECT id, doc FROM wl_doc ORDER BY id", [], { fetchInfo: { DOC: { type: oracledb.STRING } } })).rows
  const locator = async (id: number) => (await env.a.execute("SELECT doc FROM wl_doc WHERE id = :id", [id])).rows[0][0]

  it("a row the open transaction did not lock (the transaction wrote another one) refuses the write with ORA-22920", async () => {
    await env.a.execute("UPDATE wl_doc SET tag = 'x' WHERE id = 1")
    const lob = await locator(2)
    const e = await failure(() => writeThrough(lob, "lost", 4))
    expect(oraCode(e)).toBe("ORA-22920")
    await env.a.rollback()
    expect(await docs()).toEqual([[1, "one"], [2, "two"]])
  })

  it("a row the transaction's UPDATE wrote, or its INSERT added, is locked: its locator selected without FOR UPDATE writes", async () => {
    await env.a.execute("UPDATE wl_doc SET tag = 'y' WHERE id = 2")
    await writeThrough(await locator(2), "updated", 7)
    await env.a.execute("INSERT INTO wl_doc VALUES (3, 'c', 'three')")
    await writeThrough(await locator(3), "inserted", 8)
    await env.a.commit()
    expect(await docs()).toEqual([[1, "one"], [2, "updated"], [3, "inserted"]])
  })
})
