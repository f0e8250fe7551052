import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

// Multi-table INSERT through raw node-oracledb, as the SQL Language Reference 23ai ("INSERT", multi_table_insert)
// describes it: INSERT ALL sends each subquery row through every INTO clause (or every WHEN clause whose condition
// holds); INSERT FIRST through the first WHEN clause whose condition holds; ELSE when none holds; VALUES name the
// subquery's columns; the statement's row count is every row inserted; a failure leaves every table as it was.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: INSERT ALL / INSERT FIRST", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE mti_src (id NUMBER, name VARCHAR2(10), sal NUMBER)")
    await conn.executeMany("INSERT INTO mti_src VALUES (:1, :2, :3)", [[1, "ann", 100], [2, "bob", 250], [3, "cy", 500]])
    await conn.execute("CREATE TABLE mti_low (id NUMBER PRIMARY KEY, name VARCHAR2(10))")
    await conn.execute("CREATE TABLE mti_high (id NUMBER PRIMARY KEY, sal NUMBER)")
    await conn.execute("CREATE TABLE mti_all (id NUMBER, note VARCHAR2(20))")
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })
  beforeEach(async () => {
    for (const t of ["mti_low", "mti_high", "mti_all"]) await conn.execute(`DELETE FROM ${t}`)
    await conn.commit()
  })

  const rows = async (table: string) => (await conn.execute(`SELECT * FROM ${table} ORDER BY 1`)).rows

  it("INSERT ALL without conditions inserts every row through every INTO clause", async () => {
    const r = await conn.execute(`INSERT ALL
      INTO mti_low (id, name) VALUES (id, name)
      INTO mti_all VALUES (id * 10, name || :suffix)
      SELECT id, name FROM mti_src WHERE sal < :limit`, { suffix: "!", limit: 300 })
    expect(r.rowsAffected).toBe(4)
    expect(await rows("mti_low")).toEqual([[1, "ann"], [2, "bob"]])
    expect(await rows("mti_all")).toEqual([[10, "ann!"], [20, "bob!"]])
    await conn.rollback()
  })

  it("conditional INSERT ALL takes every WHEN that holds, INSERT FIRST only the first, ELSE the rest", async () => {
    await conn.execute(`INSERT ALL
      WHEN sal < 300 THEN INTO mti_low (id, name) VALUES (id, name)
      WHEN sal > 200 THEN INTO mti_high VALUES (id, sal)
      ELSE INTO mti_all (id, note) VALUES (id, 'else')
      SELECT * FROM mti_src`)
    expect(await rows("mti_low")).toEqual([[1, "ann"], [2, "bob"]])
    expect(await rows("mti_high")).toEqual([[2, 250], [3, 500]])
    expect(await rows("mti_all")).toEqual([])
    await conn.rollback()
    const r = await conn.execute(`INSERT FIRST
      WHEN sal < 300 THEN INTO mti_low (id, name) VALUES (id, name)
      WHEN sal > 200 THEN INTO mti_high VALUES (id, sal) INTO mti_all VALUES (id, 'high')
      ELSE INTO mti_all (id, note) VALUES (id, 'else')
      SELECT * FROM mti_src`)
    expect(r.rowsAffected).toBe(4)
    expect(await rows("mti_low")).toEqual([[1, "ann"], [2, "bob"]])
    expect(await rows("mti_high")).toEqual([[3, 500]])
    expect(await rows("mti_all")).toEqual([[3, "high"]])
    await conn.rollback()
  })

  it("a failing INTO clause leaves every table as it was", async () => {
    await conn.execute("INSERT INTO mti_high VALUES (3, 0)")
    await conn.commit()
    const e = await failure(() => conn.execute(`INSERT ALL INTO mti_low (id, name) VALUES (id, name) INTO mti_high VALUES (id, sal) SELECT * FROM mti_src`))
    expect(oraCode(e)).toBe("ORA-00001")
    expect(await rows("mti_low")).toEqual([])
    expect(await rows("mti_high")).toEqual([[3, 0]])
  })
})
