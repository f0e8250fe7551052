import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

// `expr op ANY | SOME | ALL (expression_list)` (SQL Language Reference, "Comparison Conditions"): ANY / SOME is true
// when the comparison holds for some item, ALL when it holds for every item; `= ANY` is IN and `!= ALL` NOT IN ("IN
// Condition"); a NULL item makes the result unknown where no other item decides it.
describe("Oracle test server: ANY / SOME / ALL with an expression list (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE TABLE qtl (id NUMBER(3), s VARCHAR2(10), c CHAR(5), n NUMBER)`)
    for (const [id, s, c, n] of [[1, "ab", "ab", 1], [2, "cd", "cd", 5], [3, "ef", "ef", 10]] as const)
      await conn.execute(`INSERT INTO qtl VALUES (:1, :2, :3, :4)`, [id, s, c, n])
  })
  afterAll(() => closeConnection({ server, conn }))

  const ids = async (where: string, binds: ReadonlyArray<unknown> = []) =>
    (await conn.execute(`SELECT id FROM qtl WHERE ${where} ORDER BY id`, binds as Array<unknown>)).rows.map((r: Array<unknown>) => r[0])

  it("compares with each item of a literal, column, expression or bind list", async () => {
    expect(await ids(`s = ANY ('ab', 'ef')`)).toEqual([1, 3])
    expect(await ids(`s = SOME ('cd')`)).toEqual([2])
    expect(await ids(`c = ANY ('ab', 'x')`)).toEqual([1])
    expect(await ids(`s <> ALL ('ab', 'ef')`)).toEqual([2])
    expect(await ids(`s != ALL ('ab')`)).toEqual([2, 3])
    expect(await ids(`n > ALL (1, 2 + 2)`)).toEqual([2, 3])
    expect(await ids(`n < ANY (2, id * 3)`)).toEqual([1, 2])
    expect(await ids(`n >= SOME (:a, :b)`, [5, 7])).toEqual([2, 3])
    expect(await ids(`n <= ALL (10, id + 4)`)).toEqual([1, 2])
    expect(await ids(`n = ALL (5, 5)`)).toEqual([2])
    expect(await ids(`n <> ANY (1, 5)`)).toEqual([1, 2, 3])
    // each item compared with its own type: a text item converted to a number, a date difference a date
    expect(await ids(`n > ANY (7, '2')`)).toEqual([2, 3])
    expect(await ids(`SYSDATE > ALL (DATE '2020-01-01', SYSDATE - 1) AND id = 1`)).toEqual([1])
    expect(await ids(`(CASE WHEN id = 1 THEN n END) < ALL (2, 3)`)).toEqual([1])
    // a bind as the left operand stays one bind value, compared with each item
    expect(await ids(`:v < ALL (5, 20)`, [3])).toEqual([1, 2, 3])
    expect(await ids(`:v < ALL (2, 20)`, [3])).toEqual([])
    // still a subquery where the parenthesis holds one
    expect(await ids(`n > ALL (SELECT n FROM qtl WHERE id < 3)`)).toEqual([3])
  })

  it("is unknown for a NULL item no other item decides", async () => {
    const truth = async (condition: string) =>
      (await conn.execute(`SELECT CASE WHEN ${condition} THEN 'T' WHEN NOT (${condition}) THEN 'F' ELSE 'U' END FROM dual`)).rows[0][0]
    expect(await truth(`3 > ALL (1, NULL)`)).toBe("U")
    expect(await truth(`0 > ALL (1, NULL)`)).toBe("F")
    expect(await truth(`3 > ANY (1, NULL)`)).toBe("T")
    expect(await truth(`0 > ANY (1, NULL)`)).toBe("U")
    expect(await truth(`1 = ANY (1, NULL)`)).toBe("T")
    expect(await truth(`2 = SOME (1, NULL)`)).toBe("U")
    expect(await truth(`2 <> ALL (1, NULL)`)).toBe("U")
    expect(await truth(`1 <> ALL (1, NULL)`)).toBe("F")
    expect(await truth(`DATE '2020-06-01' > ALL (DATE '2020-01-01', DATE '2021-01-01')`)).toBe("F")
    expect(await truth(`DATE '2020-06-01' > ANY (DATE '2020-01-01', DATE '2021-01-01')`)).toBe("T")
  })

  it("compares a bind or CASE left operand with each item of its own type, outer columns too", async () => {
    expect(await ids(`:v < ALL (id, 20)`, [1])).toEqual([2, 3])
    expect(await ids(`:v < ANY (7, '2')`, [3])).toEqual([1, 2, 3])
    expect(await ids(`(:v + 1) < ANY (id, '2')`, [1])).toEqual([3])
    expect(await ids(`CASE WHEN id = 1 THEN n END < ALL (2, '3')`)).toEqual([1])
    expect(await ids(`CASE WHEN id < 3 THEN n END < ANY (id, 2)`)).toEqual([1])
    expect(await ids(`1 + CASE WHEN id < 3 THEN id END >= ALL ('2', id + 1)`)).toEqual([1, 2])
    // an item that is an unbounded NUMBER column, beside a literal or BINARY_DOUBLE left operand
    expect(await ids(`1.5 > ANY (n, 2)`)).toEqual([1])
    expect(await ids(`TO_BINARY_DOUBLE(6) > ALL (n, 2)`)).toEqual([1, 2])
    const truth = async (condition: string, binds: Record<string, unknown>) =>
      (await conn.execute(`SELECT CASE WHEN ${condition} THEN 'T' WHEN NOT (${condition}) THEN 'F' ELSE 'U' END FROM dual`, binds)).rows[0][0]
    expect(await truth(`:v > ALL (1, NULL)`, { v: 3 })).toBe("U")
    expect(await truth(`:v > ANY (1, NULL)`, { v: 3 })).toBe("T")
    expect(await truth(`CASE WHEN :v > 0 THEN 5 END > ALL (1, '9')`, { v: 3 })).toBe("F")
  })

  it("computes a left operand calling a function once per row", async () => {
    await conn.execute(`CREATE OR REPLACE PACKAGE qtl_calls AS n NUMBER := 0; FUNCTION counted(v NUMBER) RETURN NUMBER; END;`)
    await conn.execute(`CREATE OR REPLACE PACKAGE BODY qtl_calls AS FUNCTION counted(v NUMBER) RETURN NUMBER IS BEGIN n := n + 1; RETURN v; END; END;`)
    const calls = async () => (await conn.execute(`BEGIN :n := qtl_calls.n; END;`, { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })).outBinds.n
    expect(await ids(`qtl_calls.counted(id) > ANY (0, 100)`)).toEqual([1, 2, 3])
    expect(await calls()).toBe(3)
    expect(await ids(`CASE WHEN id > 1 THEN qtl_calls.counted(id) END < ALL (3, 50)`)).toEqual([2])
    expect(await calls()).toBe(5)
    // one random value (0 or 1) per row, the same against both items: never equal to both, always different from one
    const count = async (where: string) => (await conn.execute(`SELECT COUNT(*) FROM (SELECT LEVEL FROM dual CONNECT BY LEVEL <= 200) WHERE ${where}`)).rows
    expect(await count(`ROUND(DBMS_RANDOM.VALUE) = ALL (0, 1)`)).toEqual([[0]])
    expect(await count(`ROUND(DBMS_RANDOM.VALUE) <> ANY (0, 1)`)).toEqual([[200]])
  })

  it("works in UPDATE and DELETE conditions", async () => {
    expect((await conn.execute(`UPDATE qtl SET s = 'zz' WHERE n > ANY (4, 8) AND id <> ALL (3)`)).rowsAffected).toBe(1)
    expect((await conn.execute(`SELECT s FROM qtl WHERE id = 2`)).rows).toEqual([["zz"]])
    expect((await conn.execute(`DELETE FROM qtl WHERE s = ANY ('zz', 'none')`)).rowsAffected).toBe(1)
    await conn.rollback()
  })
})
