import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// SQL Language Reference, "Sequence Pseudocolumns": "Within a single SQL statement containing a reference to NEXTVAL,
// Oracle increments the sequence once: for each row returned by the outer query block of a SELECT statement ... If a
// statement contains references to both CURRVAL and NEXTVAL, Oracle increments the sequence and returns the same
// value for both CURRVAL and NEXTVAL regardless of their order within the statement."
// https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Sequence-Pseudocolumns.html
describe("Oracle test server: NEXTVAL and CURRVAL of one sequence in one row give the same new value", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    for (const sql of [
      "CREATE SEQUENCE sr_s START WITH 1",
      "CREATE SEQUENCE sr_m START WITH 100",
      "CREATE TABLE sr_src (n NUMBER)",
      "INSERT INTO sr_src VALUES (1)",
      "INSERT INTO sr_src VALUES (2)",
      "INSERT INTO sr_src VALUES (3)",
      "CREATE TABLE sr_dst (n NUMBER, a NUMBER, b NUMBER, c NUMBER)"
    ]) await conn.execute(sql)
  })
  afterAll(() => closeConnection(opened))

  it("SELECT s.CURRVAL, s.NEXTVAL FROM dual gives the new value twice, under Oracle's headings", async () => {
    expect((await conn.execute("SELECT sr_s.NEXTVAL FROM dual")).rows).toEqual([[1]])
    const both = await conn.execute("SELECT sr_s.CURRVAL, sr_s.NEXTVAL FROM dual")
    expect(both.rows).toEqual([[2, 2]])
    expect(both.metaData.map((m: { name: string }) => m.name)).toEqual(["CURRVAL", "NEXTVAL"])
    expect((await conn.execute("SELECT sr_s.NEXTVAL, sr_s.CURRVAL, sr_s.NEXTVAL x FROM dual")).rows).toEqual([[3, 3, 3]])
    expect((await conn.execute("SELECT sr_s.CURRVAL FROM dual")).rows).toEqual([[3]])
  })

  it("INSERT ... SELECT of a 3-row table with NEXTVAL and CURRVAL advances once per row", async () => {
    expect((await conn.execute("SELECT sr_m.NEXTVAL FROM dual")).rows).toEqual([[100]])
    await conn.execute("INSERT INTO sr_dst (n, a, b, c) SELECT n, sr_m.CURRVAL, sr_m.NEXTVAL, sr_m.CURRVAL + 0 FROM sr_src WHERE n > 0")
    const rows = (await conn.execute("SELECT n, a, b, c FROM sr_dst ORDER BY n")).rows as Array<Array<number>>
    // one new value per row, the same in every column of the row, 101..103 between the rows
    expect(rows.map((r) => r[1] === r[2] && r[2] === r[3])).toEqual([true, true, true])
    expect(rows.map((r) => r[1]).sort()).toEqual([101, 102, 103])
    expect((await conn.execute("SELECT sr_m.CURRVAL FROM dual")).rows).toEqual([[103]])
  })

  it("a query of a 3-row table with NEXTVAL and CURRVAL gives each row its own new value", async () => {
    const rows = (await conn.execute("SELECT s.n, sr_m.NEXTVAL, sr_m.CURRVAL FROM sr_src s")).rows as Array<Array<number>>
    expect(rows.map((r) => r[1] === r[2])).toEqual([true, true, true])
    expect(rows.map((r) => r[0]).sort()).toEqual([1, 2, 3])
    expect(rows.map((r) => r[1]).sort()).toEqual([104, 105, 106])
  })

  it("INSERT ... VALUES with CURRVAL before NEXTVAL stores the new value in both", async () => {
    const before = ((await conn.execute("SELECT sr_s.NEXTVAL FROM dual")).rows as Array<Array<number>>)[0]![0]!
    await conn.execute("INSERT INTO sr_dst (n, a, b) VALUES (10, sr_s.CURRVAL, sr_s.NEXTVAL)")
    expect((await conn.execute("SELECT a, b FROM sr_dst WHERE n = 10")).rows).toEqual([[before + 1, before + 1]])
  })

  it("the rows of such an INSERT ... SELECT keep their values when a later statement of the transaction fails", async () => {
    await conn.execute("INSERT INTO sr_dst (n, a, b, c) SELECT n + 20, sr_m.NEXTVAL, sr_m.CURRVAL, 0 FROM sr_src")
    const seen = (await conn.execute("SELECT n, a, b FROM sr_dst WHERE n > 20 ORDER BY n")).rows as Array<Array<number>>
    await expect(conn.execute("INSERT INTO sr_dst (n) VALUES ('not a number')")).rejects.toThrow(/ORA-01722/)
    expect((await conn.execute("SELECT n, a, b FROM sr_dst WHERE n > 20 ORDER BY n")).rows).toEqual(seen)
    expect((await conn.execute("SELECT sr_m.CURRVAL FROM dual")).rows).toEqual([[109]])
    await conn.rollback()
  })

  it("a join, or x.* beside them, is left as it was (no extra column shows)", async () => {
    const star = await conn.execute("SELECT s.*, sr_m.NEXTVAL, sr_m.CURRVAL FROM sr_src s WHERE s.n = 1")
    expect(star.metaData.map((m: { name: string }) => m.name)).toEqual(["N", "NEXTVAL", "CURRVAL"])
    const joined = await conn.execute("SELECT a.n, sr_m.NEXTVAL FROM sr_src a JOIN sr_src b ON a.n = b.n")
    expect(joined.rows.length).toBe(3)
  })
})
