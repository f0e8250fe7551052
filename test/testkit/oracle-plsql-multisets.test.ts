import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, oracledb, openConnection } from "./oracle/helpers.ts"

/**
 * Multiset operators and conditions over a block's nested tables on the Oracle test server, through raw
 * node-oracledb, as the SQL Language Reference, "Multiset Operators" and "Multiset Conditions", and the PL/SQL
 * Language Reference, "Collection Comparisons" (https://docs.oracle.com/en/database/oracle/oracle-database/23/)
 * describe them.
 */
describe("Oracle test server: PL/SQL multiset operators and collection comparisons", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  const out = { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 400 }
  const run = async (body: string) => ((await conn.execute(body, { s: out })).outBinds as { s: string }).s

  it("computes MULTISET UNION / INTERSECT / EXCEPT [ALL | DISTINCT] and SET into a collection variable", async () => {
    const s = await run(`DECLARE
        TYPE nums IS TABLE OF NUMBER;
        a nums := nums(1, 2, 3, 4, 3, 1);
        b nums := nums(5, 6, 3, 4, 3, 3);
        nine nums := nums(9);
        r nums;
        s VARCHAR2(400);
        PROCEDURE show(label VARCHAR2, c nums) IS
        BEGIN
          s := s || label || ':';
          FOR i IN 1 .. c.COUNT LOOP s := s || c(i) || ','; END LOOP;
          s := s || ' ';
        END;
      BEGIN
        r := a MULTISET UNION b; show('u', r);
        r := a MULTISET UNION DISTINCT b; show('ud', r);
        r := a MULTISET INTERSECT b; show('i', r);
        r := a MULTISET INTERSECT DISTINCT b; show('id', r);
        r := a MULTISET EXCEPT b; show('e', r);
        r := a MULTISET EXCEPT ALL b; show('ea', r);
        r := a MULTISET EXCEPT DISTINCT b; show('ed', r);
        r := SET(a); show('set', r);
        r := a MULTISET EXCEPT b MULTISET UNION nine; show('chain', r);
        r := a MULTISET UNION r;
        s := s || r.COUNT;
        r := nums(7) MULTISET UNION a MULTISET EXCEPT nums(1, 1, 2, 4);
        show(' ctor', r);
        IF a MULTISET INTERSECT nums(3, 9) = nums(3) AND 2 MEMBER OF nums(1, 2) THEN s := s || 'eq'; END IF;
        :s := s;
      END;`)
    expect(s).toBe("u:1,2,3,4,3,1,5,6,3,4,3,3, ud:1,2,3,4,5,6, i:3,4,3, id:3,4, e:1,2,1, ea:1,2,1, ed:1,2, set:1,2,3,4, chain:1,2,1,9, 10 ctor:7,3,3, eq")
  })

  it("answers = / <>, IS [NOT] EMPTY, IS [NOT] A SET, MEMBER OF, SUBMULTISET OF and CARDINALITY with NULL where Oracle does", async () => {
    const s = await run(`DECLARE
        TYPE names IS TABLE OF VARCHAR2(10);
        a names := names('x', 'y', 'y');
        b names := names('y', 'x', 'y');
        c names := names('x', 'y');
        e names := names();
        n names;
        s VARCHAR2(400);
        PROCEDURE put(v BOOLEAN) IS
        BEGIN
          s := s || CASE WHEN v THEN 'T' WHEN NOT v THEN 'F' ELSE 'N' END;
        END;
      BEGIN
        put(a = b); put(a = c); put(a <> c); put(a = n);
        s := s || ' ';
        put(e IS EMPTY); put(a IS EMPTY); put(a IS NOT EMPTY); put(n IS EMPTY);
        s := s || ' ';
        put(c IS A SET); put(a IS A SET); put(a IS NOT A SET); put(n IS A SET);
        s := s || ' ';
        put('y' MEMBER OF a); put('z' MEMBER a); put('z' NOT MEMBER OF a); put('x' MEMBER OF e); put(NULL MEMBER OF a);
        s := s || ' ';
        put(c SUBMULTISET OF a); put(a SUBMULTISET OF c); put(a NOT SUBMULTISET c); put(e SUBMULTISET OF n); put(n SUBMULTISET OF a);
        IF a = b AND 'x' MEMBER OF c AND c IS A SET THEN s := s || ' if'; END IF;
        :s := s || ' ' || CARDINALITY(a) || '/' || NVL(TO_CHAR(CARDINALITY(e)), 'null') || '/' || NVL(TO_CHAR(CARDINALITY(n)), 'null');
      END;`)
    expect(s).toBe("TFTN TFTN TFTN TFTNN TFTTN if 3/null/null")
  })

  it("computes a multiset operation inside CARDINALITY, SET or another function's argument", async () => {
    // a multiset operator returns a nested table, which CARDINALITY counts (SQL Language Reference, "Multiset Operators", "CARDINALITY")
    await conn.execute("CREATE TYPE ms_pn AS TABLE OF NUMBER")
    const s = await run(`DECLARE
        a ms_pn := ms_pn(2, 1);
        s VARCHAR2(400);
      BEGIN
        s := CARDINALITY(ms_pn(2, 1) MULTISET UNION ms_pn(3)) || ',' || CARDINALITY(a MULTISET UNION ms_pn(3));
        s := s || ',' || CARDINALITY(SET(a MULTISET UNION ALL a)) || ',' || TO_CHAR(CARDINALITY(a MULTISET EXCEPT ms_pn(1)) * 10);
        IF CARDINALITY(a MULTISET INTERSECT ms_pn(5)) IS NULL THEN s := s || ',empty'; END IF;
        :s := s;
      END;`)
    expect(s).toBe("3,3,2,10,empty")
  })

  it("takes an object constructor or a function call as MEMBER OF's element, in IF and in CASE WHEN", async () => {
    // MEMBER OF's element is any expression of the element type (SQL Language Reference, "Multiset Conditions", "MEMBER Condition")
    await conn.execute("CREATE TYPE ms_pt AS OBJECT (x NUMBER, y NUMBER)")
    await conn.execute("CREATE TYPE ms_pts AS TABLE OF ms_pt")
    const s = await run(`DECLARE
        a ms_pts := ms_pts(ms_pt(21, 5), ms_pt(1, 2));
        s VARCHAR2(400);
        FUNCTION twice(n NUMBER) RETURN NUMBER IS BEGIN RETURN 2 * n; END;
      BEGIN
        IF ms_pt(21, 5) MEMBER OF a THEN s := 'in'; END IF;
        IF ms_pt(21, 6) NOT MEMBER OF a THEN s := s || ',out'; END IF;
        s := s || ',' || CASE WHEN ms_pt(1, 2) MEMBER OF a THEN 'case' ELSE 'no' END;
        IF ms_pt(1, 2) MEMBER OF a AND twice(2) MEMBER OF ms_pn(4) THEN s := s || ',call'; END IF;
        :s := s;
      END;`)
    expect(s).toBe("in,out,case,call")
  })
})
