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
    const Dates = await conn.getDbObjectClass("SYS.ODCIDATELIST")
    // a DATE list's elements come back as DATEs
    const d = await conn.execute("SELECT column_value AS d FROM TABLE(:d)", { d: { type: Dates, val: new Dates([new Date(2024, 0, 2)]) } })
    expect(d.rows).toEqual([[new Date(2024, 0, 2)]])
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
  it("a block reads TABLE(:dbobject), TABLE(variable) and TABLE(constructor); BULK COLLECT fills a list", async () => {
    const List = await conn.getDbObjectClass("SYS.ODCINUMBERLIST")
    const r = await conn.execute(
      `DECLARE
         v sys.odcinumberlist := sys.odcinumberlist(3, 1, 2);
         w sys.odcinumberlist;
         s NUMBER := 0;
       BEGIN
         FOR r IN (SELECT column_value c FROM TABLE(v) ORDER BY 1) LOOP s := s * 10 + r.c; END LOOP;
         FOR r IN (SELECT column_value c FROM TABLE(:b)) LOOP s := s * 10 + r.c; END LOOP;
         SELECT column_value BULK COLLECT INTO w FROM TABLE(sys.odcinumberlist(7, 8, 9)) WHERE column_value > 7;
         :x := s || ' ' || w.COUNT || ' ' || w(1);
       END;`,
      { b: { type: List, val: new List([4, 5]) }, x: { dir: oracledb.BIND_OUT, type: oracledb.STRING } }
    )
    expect(r.outBinds).toEqual({ x: "12345 2 8" })
  })

  it("stored units take and return the list types: a DbObject argument, TABLE(f(n)) over a function's list", async () => {
    const List = await conn.getDbObjectClass("SYS.ODCINUMBERLIST")
    await conn.execute("CREATE OR REPLACE PROCEDURE odci_p(ids sys.odcinumberlist, n OUT NUMBER) IS BEGIN n := ids.COUNT * 100 + ids(ids.LAST); END;")
    const p = await conn.execute("BEGIN odci_p(:ids, :n); END;", { ids: { type: List, val: new List([7, 8]) }, n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect(p.outBinds).toEqual({ n: 208 })
    await conn.execute(
      "CREATE OR REPLACE FUNCTION odci_f(n NUMBER) RETURN sys.odcinumberlist IS r sys.odcinumberlist := sys.odcinumberlist(); BEGIN FOR i IN 1 .. n LOOP r.EXTEND; r(i) := i * i; END LOOP; RETURN r; END;"
    )
    const q = await conn.execute("SELECT column_value FROM TABLE(odci_f(3))")
    expect(q.rows).toEqual([[1], [4], [9]])
    const whole = (await conn.execute("SELECT odci_f(2) FROM dual")).rows as Array<[{ getValues(): Array<number> }]>
    expect(whole[0]![0].getValues()).toEqual([1, 4])
    const b = await conn.execute("DECLARE v sys.odcinumberlist := odci_f(4); BEGIN :x := v(4); END;", { x: { dir: oracledb.BIND_OUT, type: oracledb.STRING } })
    expect(b.outBinds).toEqual({ x: "16" })
  })
})
