/**
 * Set operations whose branches put columns or expressions of different data type groups at one position are
 * ORA-01790 "expression must have same datatype as corresponding expression": the corresponding expressions "must be
 * in the same data type group (such as numeric or character)" and Oracle does not convert across groups there (SQL
 * Language Reference, "The Set Operators"; Database Error Messages ORA-01790). NUMBER with BINARY_DOUBLE, CHAR with
 * VARCHAR2 and DATE with TIMESTAMP are one group each, NULL fits any. The engine cast one to the other and answered
 * rows. Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const ORA_01790 = "ORA-01790: expression must have same datatype as corresponding expression"

describe("Oracle test server: set operations over different data type groups", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE so_t (n NUMBER, s VARCHAR2(10), d DATE, ts TIMESTAMP, bd BINARY_DOUBLE, c CHAR(3))")
    await conn.execute("INSERT INTO so_t VALUES (1, 'one', DATE '2024-01-01', TIMESTAMP '2024-01-02 00:00:00', 1.5, 'abc')")
    // the same names with the other types: each branch's columns are its own tables'
    await conn.execute("CREATE TABLE so_u (s NUMBER, n VARCHAR2(10))")
    await conn.execute("INSERT INTO so_u VALUES (2, 'two')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const message = async (sql: string) => (await failure(() => conn.execute(sql))).message.split("\n")[0]

  it("columns of different groups are ORA-01790 in UNION, UNION ALL, INTERSECT and MINUS", async () => {
    expect(await message("SELECT n FROM so_t UNION SELECT s FROM so_t")).toBe(ORA_01790)
    expect(await message("SELECT n FROM so_t UNION ALL SELECT d FROM so_t")).toBe(ORA_01790)
    expect(await message("SELECT s FROM so_t INTERSECT SELECT ts FROM so_t")).toBe(ORA_01790)
    expect(await message("SELECT n FROM so_t MINUS SELECT n FROM so_u")).toBe(ORA_01790)
    expect(await message("SELECT x.n, x.s FROM so_t x UNION SELECT y.n, y.s FROM so_u y")).toBe(ORA_01790)
    // at the last position, and through * / t.*
    expect(await message("SELECT n, s FROM so_t UNION SELECT 1, 2 FROM dual")).toBe(ORA_01790)
    expect(await message("SELECT * FROM so_t UNION ALL SELECT n, s, d, ts, bd, 1 FROM so_t")).toBe(ORA_01790)
    expect(await message("SELECT so_t.* FROM so_t UNION ALL SELECT n, s, d, ts, bd, d FROM so_t")).toBe(ORA_01790)
  })

  it("typed expressions are ORA-01790 against another group: TO_CHAR, TO_NUMBER, TO_DATE, CAST, COUNT, arithmetic, concatenation, SYSDATE", async () => {
    expect(await message("SELECT TO_CHAR(n) FROM so_t UNION SELECT n FROM so_t")).toBe(ORA_01790)
    expect(await message("SELECT TO_NUMBER(s) FROM so_u UNION SELECT 'a' FROM dual")).toBe(ORA_01790)
    expect(await message("SELECT n FROM so_t INTERSECT SELECT TO_DATE('2024-01-01', 'YYYY-MM-DD') FROM dual")).toBe(ORA_01790)
    expect(await message("SELECT CAST(n AS VARCHAR2(10)) AS v FROM so_t UNION SELECT n FROM so_t")).toBe(ORA_01790)
    expect(await message("SELECT COUNT(*) FROM so_t UNION SELECT 'a' FROM dual")).toBe(ORA_01790)
    expect(await message("SELECT n + 1 total FROM so_t MINUS SELECT s FROM so_t")).toBe(ORA_01790)
    expect(await message("SELECT n || 'x' FROM so_t UNION SELECT bd FROM so_t")).toBe(ORA_01790)
    expect(await message("SELECT SYSDATE FROM dual UNION SELECT 1 FROM dual")).toBe(ORA_01790)
    expect(await message("SELECT d + 1 FROM so_t UNION SELECT 'x' FROM dual")).toBe(ORA_01790)
  })

  it("checks every level: parenthesized branches, chains of three, subqueries, WITH blocks, INSERT ... SELECT and CREATE VIEW", async () => {
    expect(await message("(SELECT n FROM so_t) UNION (SELECT s FROM so_t)")).toBe(ORA_01790)
    expect(await message("(SELECT n FROM so_t UNION SELECT 1 FROM dual) UNION SELECT 'x' FROM dual")).toBe(ORA_01790)
    expect(await message("SELECT NULL FROM dual UNION SELECT n FROM so_t UNION SELECT s FROM so_t")).toBe(ORA_01790)
    expect(await message("SELECT * FROM so_t WHERE n IN (SELECT n FROM so_t UNION SELECT n FROM so_u)")).toBe(ORA_01790)
    expect(await message("SELECT COUNT(*) FROM (SELECT d FROM so_t UNION ALL SELECT n FROM so_t)")).toBe(ORA_01790)
    expect(await message("WITH w AS (SELECT n FROM so_t UNION SELECT s FROM so_t) SELECT * FROM w")).toBe(ORA_01790)
    expect(await message("INSERT INTO so_u (s) SELECT n FROM so_t UNION SELECT s FROM so_t")).toBe(ORA_01790)
    expect(await message("CREATE VIEW so_v AS SELECT n FROM so_t UNION SELECT s FROM so_t")).toBe(ORA_01790)
  })

  it("types the columns of inline views and WITH blocks by their own select lists", async () => {
    expect(await message("WITH w AS (SELECT s n FROM so_t) SELECT n FROM w UNION SELECT 1 FROM dual")).toBe(ORA_01790)
    expect(await message("WITH w (c) AS (SELECT s FROM so_t), v AS (SELECT c FROM w) SELECT c FROM v UNION SELECT 1 FROM dual")).toBe(ORA_01790)
    expect(await message("WITH so_t AS (SELECT 'a' n FROM dual) SELECT n FROM so_t UNION SELECT 2 FROM dual")).toBe(ORA_01790)
    expect(await message("SELECT n FROM (SELECT s n FROM so_t) UNION SELECT 1 FROM dual")).toBe(ORA_01790)
    expect(await message("SELECT v.a FROM (SELECT n a FROM so_t UNION SELECT 2 FROM dual) v UNION SELECT 'z' FROM dual")).toBe(ORA_01790)
    expect(await message("SELECT * FROM (SELECT s, n FROM so_t) UNION SELECT 1, 1 FROM dual")).toBe(ORA_01790)
    expect((await conn.execute("SELECT a, b FROM (SELECT n + 1 a FROM so_t), (SELECT s b FROM so_t) UNION SELECT 1, 'x' FROM dual ORDER BY 1")).rows).toEqual([[1, "x"], [2, "one"]])
  })

  it("one group per position runs: NUMBER with BINARY_DOUBLE, CHAR with VARCHAR2, DATE with TIMESTAMP, NULL, conversions, WITH names over tables", async () => {
    expect((await conn.execute("SELECT n FROM so_t UNION ALL SELECT bd FROM so_t ORDER BY 1")).rows).toEqual([[1], [1.5]])
    expect((await conn.execute("SELECT s FROM so_t UNION ALL SELECT c FROM so_t ORDER BY 1")).rows).toEqual([["abc"], ["one"]])
    expect((await conn.execute("SELECT d FROM so_t UNION ALL SELECT ts FROM so_t ORDER BY 1")).rows).toHaveLength(2)
    expect((await conn.execute("SELECT NULL, s FROM so_t UNION ALL SELECT n, NULL FROM so_t ORDER BY 1")).rows).toEqual([[1, null], [null, "one"]])
    expect((await conn.execute("SELECT TO_CHAR(n) FROM so_t UNION SELECT s FROM so_t ORDER BY 1")).rows).toEqual([["1"], ["one"]])
    expect((await conn.execute("SELECT n || 'x' FROM so_t UNION SELECT s FROM so_t ORDER BY 1")).rows).toEqual([["1x"], ["one"]])
    // a WITH block named as a table is the block's query, not the table
    expect((await conn.execute("WITH so_t AS (SELECT 'a' n FROM dual) SELECT n FROM so_t UNION ALL SELECT 'b' FROM dual")).rows).toEqual([["a"], ["b"]])
    // * expanded to the table's columns on both sides
    expect((await conn.execute("SELECT * FROM so_t UNION ALL SELECT * FROM so_t")).rows).toHaveLength(2)
  })
})
