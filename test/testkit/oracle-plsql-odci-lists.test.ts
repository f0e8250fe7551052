import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

/**
 * The predefined collection types SYS.ODCINUMBERLIST (VARRAY(32767) OF NUMBER), SYS.ODCIVARCHAR2LIST (VARRAY(32767)
 * OF VARCHAR2(4000)) and SYS.ODCIDATELIST (VARRAY(32767) OF DATE) through raw node-oracledb: constructors in SQL and
 * PL/SQL, DbObject binds.
 */
describe("Oracle test server: SYS.ODCI*LIST collection types", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("constructors in a query's TABLE(...) are their elements as COLUMN_VALUE rows", async () => {
    const n = await conn.execute("SELECT column_value FROM TABLE(sys.odcinumberlist(3, 1, 2))")
    expect(n.rows).toEqual([[3], [1], [2]])
    const v = await conn.execute("SELECT column_value AS s FROM TABLE(SYS.ODCIVARCHAR2LIST('a', 'b')) ORDER BY 1 DESC")
    expect(v.rows).toEqual([["b"], ["a"]])
    const d = await conn.execute("SELECT COUNT(*) FROM TABLE(sys.odcidatelist(DATE '2024-01-01', DATE '2024-02-01'))")
    expect(d.rows).toEqual([[2]])
    const unqualified = await conn.execute("SELECT SUM(column_value) FROM TABLE(odcinumberlist(1, 2, 3))")
    expect(unqualified.rows).toEqual([[6]])
  })

  it("a DbObject of SYS.ODCINUMBERLIST binds into TABLE(:b) and into a block, and comes back OUT", async () => {
    const List = await conn.getDbObjectClass("SYS.ODCINUMBERLIST")
    const q = await conn.execute("SELECT column_value * 10 FROM TABLE(:b)", { b: { type: List, val: new List([1, 2]) } })
    expect(q.rows).toEqual([[10], [20]])
    const r = await conn.execute(
      `DECLARE
         v sys.odcinumberlist := :i;
         w sys.odcivarchar2list := sys.odcivarchar2list('x', 'y');
       BEGIN
         v.EXTEND;
         v(v.COUNT) := 99;
         :o := v;
         :x := v.COUNT || ':' || v(1) || ':' || w(2) || ':' || w.LIMIT;
       END;`,
      {
        i: { type: List, val: new List([5, 6]) },
        o: { type: List, dir: oracledb.BIND_OUT },
        x: { dir: oracledb.BIND_OUT, type: oracledb.STRING }
      }
    )
    const outs = r.outBinds as { o: { getValues(): Array<number> }; x: string }
    expect(outs.o.getValues()).toEqual([5, 6, 99])
    expect(outs.x).toBe("3:5:y:32767")
  })
})
