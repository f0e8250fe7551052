import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// Values written straight into object and collection columns through the raw node-oracledb client. Oracle has no
// implicit conversion from character or numeric data to a user-defined type (SQL Language Reference, "Implicit Data
// Conversion": its matrix lists built-in types only), so such a write fails with ORA-00932 "inconsistent datatypes:
// expected <type> got CHAR"; the table is left as it was.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: text written into object columns", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TYPE pt_w AS OBJECT (x NUMBER, label VARCHAR2(10))")
    await conn.execute("CREATE TYPE nums_w AS VARRAY(3) OF NUMBER")
    await conn.execute("CREATE TABLE objw (id NUMBER, p pt_w, n nums_w, x XMLTYPE)")
    await conn.execute("INSERT INTO objw (id, p) VALUES (1, pt_w(1, 'a'))")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const count = async () => (await conn.execute("SELECT COUNT(*) FROM objw")).rows[0][0]

  it("INSERT VALUES of a character literal into an object column is ORA-00932 naming the type", async () => {
    const e = await failure(() => conn.execute(`INSERT INTO objw VALUES (2, '[1,"x"]', NULL, NULL)`))
    expect(oraCode(e)).toBe("ORA-00932")
    expect(String(e.message)).toContain("expected TEST.PT_W got CHAR")
    expect(await count()).toBe(1)
  })

  it("a column list, a collection column, a number, a concatenation, INSERT ... SELECT, UPDATE and MERGE are refused alike", async () => {
    const refused = [
      `INSERT INTO objw (id, n) VALUES (3, '[1,2]')`,
      `INSERT INTO objw (id, p) VALUES (3, 5)`,
      `INSERT INTO objw (id, p) VALUES (3, '[1,' || '"a"]')`,
      `INSERT INTO objw (id, p) SELECT 3, '[1,"a"]' FROM dual`,
      `UPDATE objw SET p = '[2,"b"]' WHERE id = 1`,
      `MERGE INTO objw o USING dual ON (o.id = 1) WHEN MATCHED THEN UPDATE SET o.p = '[2,"b"]'`
    ]
    for (const sql of refused) expect([sql, oraCode(await failure(() => conn.execute(sql)))]).toEqual([sql, "ORA-00932"])
    const r = await conn.execute("SELECT id, p FROM objw")
    expect(r.rows.map(([id, p]: [number, { X: number; LABEL: string }]) => [id, p.X, p.LABEL])).toEqual([[1, 1, "a"]])
  })

  it("constructors, NULL and character data into XMLType still go in", async () => {
    await conn.execute(`INSERT INTO objw VALUES (4, pt_w(4, 'd'), nums_w(1, 2), '<a/>')`)
    await conn.execute(`INSERT INTO objw (id, p) VALUES (5, NULL)`)
    await conn.execute(`UPDATE objw SET p = pt_w(6, 'f') WHERE id = 5`)
    expect(await count()).toBe(3)
    await conn.rollback()
  })
})
