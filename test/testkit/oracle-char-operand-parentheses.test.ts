/**
 * A text literal in parentheses compared blank-padded (char-operands.ts): the padded literal replaces the literal's
 * own token, not the operand's first parenthesis. Before, `((('m') = 'm'))` reached the engine as `(('m''m') = 'm'))`
 * and `((('m'))) = 'm'` as `'m'(('m'))) = 'm'`: ORA-00933. Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

describe("Oracle test server: parenthesised operands of a blank-padded comparison", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
    await conn.execute("CREATE TABLE cop_t (id NUMBER, c CHAR(5))")
    await conn.execute("INSERT INTO cop_t VALUES (1, 'ab')")
    await conn.execute("INSERT INTO cop_t VALUES (2, 'x')")
    await conn.commit()
  })
  afterAll(() => closeConnection(opened))

  const rows = async (sql: string): Promise<unknown> => (await conn.execute(sql)).rows

  it("two text literals, either in parentheses (was ORA-00933)", async () => {
    expect(await rows("SELECT 1 FROM dual WHERE ((('m') = 'm'))")).toEqual([[1]])
    expect(await rows("SELECT 1 FROM dual WHERE ((('m'))) = 'm'")).toEqual([[1]])
    expect(await rows("SELECT 1 FROM dual WHERE 'm' = ((('m')))")).toEqual([[1]])
    // blank-padded: the shorter literal is compared padded to the longer's length
    expect(await rows("SELECT 1 FROM dual WHERE (('ab')) = 'ab  '")).toEqual([[1]])
    expect(await rows("SELECT 1 FROM dual WHERE (('ab')) = 'abc'")).toEqual([])
    expect(await rows("SELECT 1 FROM dual WHERE (((1) = 1))")).toEqual([[1]])
  })

  it("a text literal in parentheses against a CHAR column", async () => {
    expect(await rows("SELECT id FROM cop_t WHERE (((c) = 'ab'))")).toEqual([[1]])
    expect(await rows("SELECT id FROM cop_t WHERE c = (('ab'))")).toEqual([[1]])
    expect(await rows("SELECT id FROM cop_t WHERE ((('x'))) = c")).toEqual([[2]])
    expect(await rows("SELECT id FROM cop_t WHERE ((c)) = ('ab   ')")).toEqual([[1]])
  })
})
