/**
 * A CASE expression mixing number and character literal results is ORA-00932 "inconsistent datatypes: expected NUMBER
 * got CHAR" (the first result's type expected), as Oracle refuses it: "all of the return_exprs and the else_expr must
 * be of the same data type" family (SQL Language Reference, CASE Expressions; Database Error Messages ORA-00932).
 * The engine cast one to the other and answered rows. Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: CASE results of different types", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE cr_t (id NUMBER, s VARCHAR2(10))")
    await conn.execute("INSERT INTO cr_t VALUES (1, 'a')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const message = async (sql: string) => (await failure(() => conn.execute(sql))).message.split("\n")[0]

  it("a number and a character literal result are ORA-00932 naming the first result's type, in a query and in DML", async () => {
    expect(await message("SELECT CASE WHEN id = 1 THEN 1 ELSE 'a' END FROM cr_t")).toBe("ORA-00932: inconsistent datatypes: expected NUMBER got CHAR")
    expect(await message("SELECT CASE id WHEN 1 THEN 'one' WHEN 2 THEN 2 END FROM cr_t")).toBe("ORA-00932: inconsistent datatypes: expected CHAR got NUMBER")
    expect(await message("UPDATE cr_t SET s = CASE WHEN id > 0 THEN 'p' ELSE 0 END")).toBe("ORA-00932: inconsistent datatypes: expected CHAR got NUMBER")
  })

  it("typed expressions of different families are ORA-00932 too: TO_CHAR, TO_NUMBER, TO_DATE, arithmetic, concatenation", async () => {
    expect(await message("SELECT CASE WHEN id > 0 THEN TO_CHAR(id) ELSE id + 1 END FROM cr_t")).toBe("ORA-00932: inconsistent datatypes: expected CHAR got NUMBER")
    expect(await message("SELECT CASE WHEN id > 0 THEN id * 2 ELSE s || 'x' END FROM cr_t")).toBe("ORA-00932: inconsistent datatypes: expected NUMBER got CHAR")
    expect(await message("SELECT CASE WHEN id > 0 THEN TO_DATE('2024-01-01', 'YYYY-MM-DD') ELSE 1 END FROM cr_t")).toBe("ORA-00932: inconsistent datatypes: expected DATE got NUMBER")
    expect(await message("SELECT CASE id WHEN TO_CHAR(2) THEN 'x' END FROM cr_t")).toBe("ORA-00932: inconsistent datatypes: expected NUMBER got CHAR")
    expect(await message("SELECT CASE TO_NUMBER(s) WHEN 'a' THEN 1 END FROM cr_t")).toBe("ORA-00932: inconsistent datatypes: expected NUMBER got CHAR")
    expect(await message("SELECT CASE WHEN id > 0 THEN SYSDATE + 1 ELSE 'x' END FROM cr_t")).toBe("ORA-00932: inconsistent datatypes: expected DATE got CHAR")
  })

  it("typed expressions of one family run: conversions, arithmetic, NUMBER with BINARY_DOUBLE, DATE - DATE", async () => {
    const r = await conn.execute(
      "SELECT CASE WHEN id > 0 THEN CAST(id AS VARCHAR2(5)) ELSE 'x' END, CASE WHEN id > 0 THEN id * 2.5d ELSE id END, CASE WHEN id > 0 THEN SYSDATE - SYSDATE ELSE id END, CASE WHEN id > 0 THEN LENGTH(s) + 1 ELSE TO_NUMBER('7') END, CASE WHEN id > 0 THEN 'a' || id ELSE s END FROM cr_t"
    )
    expect(r.rows).toEqual([["1", 2.5, 0, 2, "a1"]])
  })

  it("results of one family, nested CASEs of their own, NULL and datetime literals run", async () => {
    const r = await conn.execute(
      "SELECT CASE WHEN id = 1 THEN 'x' ELSE s END, CASE WHEN id = 1 THEN 1 ELSE NULL END, CASE WHEN id = 2 THEN 'n' ELSE CASE WHEN id = 1 THEN 'y' END END, CASE WHEN id = 1 THEN DATE '2024-01-02' END, CASE WHEN s = 'a' THEN 5 ELSE 6 END FROM cr_t"
    )
    expect(r.rows).toEqual([["x", 1, "y", new Date(2024, 0, 2), 5]])
  })
})
