/**
 * The left operand of an IN list, a simple CASE's subject and NULLIF's first argument compared with CHAR items beside
 * VARCHAR2 ones ("Blank-Padded and Nonpadded Comparison Semantics", SQL Language Reference: each item compared by its
 * own type, `x IN (a, b)` being `x = a OR x = b`): computed once, as Oracle computes an operand, and with the rewrites
 * of the comparisons inside it (char-operands.ts). Before, the operand was written again beside each CHAR item, as the
 * statement had it: a DBMS_RANDOM value there differed from the one compared, and a CHAR literal compared inside a
 * CASE operand was not padded in that copy. Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

describe("Oracle test server: CHAR comparison operands computed once", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    await conn.execute("CREATE TABLE co_t (id NUMBER(3), c CHAR(5), c7 CHAR(7), s VARCHAR2(9))")
    await conn.execute("INSERT INTO co_t SELECT LEVEL, 'ab', CASE WHEN LEVEL = 1 THEN 'xy' ELSE 'ab' END, 'zz' FROM dual CONNECT BY LEVEL <= 200")
    await conn.commit()
  })
  afterAll(() => closeConnection(opened))

  const rows = async (sql: string) => (await conn.execute(sql)).rows

  it("compares a CASE operand whose condition compares a CHAR with the value that operand has", async () => {
    // c = 'ab' holds blank-padded, so the operand is c ('ab   '), blank-padded equal to LOWER(c)
    const operand = `CASE WHEN c = 'ab' THEN c ELSE c7 END`
    expect(await rows(`SELECT id FROM co_t WHERE id = 1 AND ${operand} IN (LOWER(c), s)`)).toEqual([[1]])
    expect(await rows(`SELECT NULLIF(${operand}, LOWER(c)) FROM co_t WHERE id = 1`)).toEqual([[null]])
    expect(await rows(`SELECT CASE ${operand} WHEN s THEN 'v' WHEN LOWER(c) THEN 'c' ELSE 'n' END FROM co_t WHERE id = 1`)).toEqual([["c"]])
  })

  it("computes a volatile left operand once, each item compared by its own type", async () => {
    // CHAR(5) 'ab' or CHAR(7) 'ab' at random: either is blank-padded equal to LOWER(c) and 'ab', never to s ('zz')
    const operand = `CASE WHEN DBMS_RANDOM.VALUE < 0.5 THEN c ELSE c7 END`
    const count = async (where: string) => rows(`SELECT COUNT(*) FROM co_t WHERE id > 1 AND ${where}`)
    expect(await count(`${operand} IN (LOWER(c), s)`)).toEqual([[199]])
    expect(await count(`${operand} NOT IN (LOWER(c), s)`)).toEqual([[0]])
    expect(await count(`NULLIF(${operand}, LOWER(c)) IS NULL`)).toEqual([[199]])
    expect(await count(`CASE ${operand} WHEN s THEN 0 WHEN LOWER(c) THEN 1 ELSE 2 END = 1`)).toEqual([[199]])
    expect(await rows(`SELECT DISTINCT CASE ${operand} WHEN 'ab' THEN 'l' WHEN s THEN 'v' ELSE 'n' END FROM co_t WHERE id > 1`)).toEqual([["l"]])
  })

  it("keeps IN's NULL semantics in that form", async () => {
    const operand = `CASE WHEN DBMS_RANDOM.VALUE < 2 THEN c END`
    const truth = async (condition: string) =>
      (await rows(`SELECT CASE WHEN ${condition} THEN 'T' WHEN NOT (${condition}) THEN 'F' ELSE 'U' END FROM co_t WHERE id = 1`))[0]![0]
    expect(await truth(`${operand} IN (UPPER(c), s, NULL)`)).toBe("U")
    expect(await truth(`${operand} IN (LOWER(c), s, NULL)`)).toBe("T")
    expect(await truth(`${operand} IN (UPPER(c), s)`)).toBe("F")
    expect(await truth(`${operand} NOT IN (UPPER(c), s, NULL)`)).toBe("U")
    expect(await truth(`CASE WHEN DBMS_RANDOM.VALUE < 2 THEN NULL ELSE c END IN (LOWER(c), s)`)).toBe("U")
    expect(await rows(`SELECT NULLIF(${operand}, UPPER(c)), CASE ${operand} WHEN UPPER(c) THEN 'u' WHEN s THEN 'v' END FROM co_t WHERE id = 1`)).toEqual([["ab   ", null]])
  })

  it("orders a CHAR of run-time length against a subquery's whatever the trailing blanks of either", async () => {
    // a value with trailing blanks up to 4000 characters (Oracle's longest literal: a longer one is ORA-01704):
    // blank-padded, 'ab' followed by blanks equals 'ab   '
    const long = `'ab${" ".repeat(3998)}'`
    await expect(rows(`SELECT COUNT(*) FROM co_t WHERE LOWER(c) < ALL (SELECT 'ab${" ".repeat(4100)}' FROM dual)`)).rejects.toThrow(/ORA-01704/)
    expect(await rows(`SELECT COUNT(*) FROM co_t WHERE id = 1 AND LOWER(c) < ALL (SELECT ${long} FROM dual)`)).toEqual([[0]])
    expect(await rows(`SELECT COUNT(*) FROM co_t WHERE id = 1 AND LOWER(c) >= ANY (SELECT ${long} FROM dual)`)).toEqual([[1]])
    expect(await rows(`SELECT COUNT(*) FROM co_t WHERE id = 1 AND ${long} <= ALL (SELECT LOWER(c) FROM dual UNION ALL SELECT UPPER(c7) FROM dual)`)).toEqual([[0]])
    expect(await rows(`SELECT COUNT(*) FROM co_t WHERE id = 1 AND ${long} <= ALL (SELECT LOWER(c) FROM dual)`)).toEqual([[1]])
  })
})
