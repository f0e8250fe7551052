/**
 * One value compared with a subquery of two columns (`x IN (SELECT a, b ...)`, `x = ANY (...)`) is ORA-00913 "too many
 * values" as Oracle's parser reports it, on a table with rows too (Database Error Messages, ORA-00913); before, the
 * engine compared with the first column and answered rows. Row operands, one-column subqueries and PL/SQL cursor FOR
 * loops over two columns still run. Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: a value compared with a subquery of several columns", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE so_t (id NUMBER, s VARCHAR2(10))")
    await conn.execute("INSERT INTO so_t VALUES (1, 'a')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const code = async (sql: string) => oraCode(await failure(() => conn.execute(sql)))

  it("IN, NOT IN and = ANY / > ALL with a two-column subquery are ORA-00913, in queries and in DML", async () => {
    expect(await code("SELECT id FROM so_t WHERE id IN (SELECT id, s FROM so_t)")).toBe("ORA-00913")
    expect(await code("SELECT id FROM so_t WHERE id NOT IN (SELECT id, s FROM so_t)")).toBe("ORA-00913")
    expect(await code("SELECT id FROM so_t WHERE id = ANY (SELECT id, s FROM so_t)")).toBe("ORA-00913")
    expect(await code("SELECT id FROM so_t WHERE id > ALL (SELECT DISTINCT id, s FROM so_t)")).toBe("ORA-00913")
    expect(await code("DELETE FROM so_t WHERE id IN (SELECT id, s FROM so_t)")).toBe("ORA-00913")
    expect((await conn.execute("SELECT COUNT(*) FROM so_t")).rows).toEqual([[1]])
  })

  it("one-column subqueries, row operands and a PL/SQL cursor FOR loop over two columns run", async () => {
    expect((await conn.execute("SELECT id FROM so_t WHERE id IN (SELECT id FROM so_t) AND NVL(id, 0) = ANY (SELECT MAX(id) FROM so_t GROUP BY s)")).rows).toEqual([[1]])
    expect((await conn.execute("SELECT id FROM so_t WHERE (id, s) IN (SELECT id, s FROM so_t)")).rows).toEqual([[1]])
    const r = await conn.execute("DECLARE n NUMBER := 0; BEGIN FOR r IN (SELECT id, s FROM so_t) LOOP n := n + 1; END LOOP; :total := n; END;", { total: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect(r.outBinds.total).toBe(1)
  })
})
