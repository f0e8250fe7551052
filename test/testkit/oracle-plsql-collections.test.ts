import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * PL/SQL collections, BULK COLLECT and FORALL on the Oracle test server, through raw node-oracledb. Semantics as the
 * Oracle Database PL/SQL Language Reference (23ai) describes them: "PL/SQL Collections and Records" (collection
 * methods, ORA-06531 for an uninitialized nested table, ORA-06533 for a subscript beyond count) and "PL/SQL
 * Optimization and Tuning", "Bulk SQL and Bulk Binding" (BULK COLLECT, LIMIT, FORALL, SQL%BULK_ROWCOUNT)
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/).
 */
describe("Oracle test server: PL/SQL collections, BULK COLLECT, FORALL", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE fruit (id NUMBER(10) PRIMARY KEY, name VARCHAR2(20), price NUMBER(8,2))")
    await conn.executeMany("INSERT INTO fruit VALUES (:1, :2, :3)", [[1, "apple", 0.5], [2, "pear", 0.75], [3, "plum", 1.25], [4, "kiwi", 2]])
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const out = (type = oracledb.STRING) => ({ dir: oracledb.BIND_OUT, type, maxSize: 400 })

  it("declares nested tables, VARRAYs and associative arrays and runs their methods", async () => {
    const r = await conn.execute(
      `DECLARE
        TYPE nums IS TABLE OF NUMBER;
        TYPE trio IS VARRAY(3) OF VARCHAR2(10);
        TYPE by_int IS TABLE OF VARCHAR2(20) INDEX BY PLS_INTEGER;
        n nums := nums(10, 20, 30, 40);
        v trio := trio('a', 'b');
        a by_int;
        s VARCHAR2(400);
        k PLS_INTEGER;
      BEGIN
        n.DELETE(2);
        n.TRIM;
        s := n.COUNT || ',' || n.FIRST || ',' || n.LAST || ',' || n.NEXT(1) || ',' || n.PRIOR(3);
        s := s || '|' || (CASE WHEN n.EXISTS(2) THEN 'y' ELSE 'n' END) || n(3);
        v.EXTEND;
        v(3) := 'c';
        s := s || '|' || v.COUNT || v.LIMIT || v(1) || v(3);
        a(-5) := 'minus';
        a(100) := 'hundred';
        a(7) := 'seven';
        k := a.FIRST;
        WHILE k IS NOT NULL LOOP
          s := s || '|' || k || '=' || a(k);
          k := a.NEXT(k);
        END LOOP;
        n.EXTEND(2);
        n(n.LAST) := 99;
        s := s || '|' || n.COUNT || ':' || n(5);
        n.DELETE;
        :s := s || '|' || n.COUNT;
      END;`,
      { s: out() }
    )
    expect((r.outBinds as { s: string }).s).toBe("2,1,3,3,1|n30|33ac|-5=minus|7=seven|100=hundred|4:99|0")
  })

  it("fails as Oracle does on an uninitialized nested table, a subscript beyond count and a VARRAY past its limit", async () => {
    const uninit = await failure(() => conn.execute("DECLARE TYPE nums IS TABLE OF NUMBER; n nums; BEGIN n.EXTEND; END;"))
    expect(uninit.message).toMatch(/^ORA-06531: Reference to uninitialized collection/)
    const beyond = await failure(() => conn.execute("DECLARE TYPE nums IS TABLE OF NUMBER; n nums := nums(1); x NUMBER; BEGIN x := n(2); END;"))
    expect(beyond.message).toMatch(/^ORA-06533: Subscript beyond count/)
    const limit = await failure(() => conn.execute("DECLARE TYPE two IS VARRAY(2) OF NUMBER; v two := two(1, 2); BEGIN v.EXTEND; END;"))
    expect(limit.message).toMatch(/^ORA-06532: Subscript outside of limit/)
    const missing = await failure(() => conn.execute("DECLARE TYPE m IS TABLE OF NUMBER INDEX BY PLS_INTEGER; a m; x NUMBER; BEGIN x := a(1); END;"))
    expect(missing.message).toMatch(/^ORA-01403: no data found/)
  })

  it("BULK COLLECTs a SELECT into scalar collections and %ROWTYPE records, and a FETCH in LIMIT batches", async () => {
    const r = await conn.execute(
      `DECLARE
        TYPE ids IS TABLE OF NUMBER;
        TYPE names IS TABLE OF fruit.name%TYPE INDEX BY PLS_INTEGER;
        TYPE rows_t IS TABLE OF fruit%ROWTYPE;
        i ids;
        n names;
        rs rows_t;
        CURSOR c IS SELECT id, name, price FROM fruit ORDER BY id;
        s VARCHAR2(400);
      BEGIN
        SELECT id, name BULK COLLECT INTO i, n FROM fruit WHERE price < 2 ORDER BY id;
        s := i.COUNT || ':' || i(1) || n(3) || ':' || SQL%ROWCOUNT;
        SELECT * BULK COLLECT INTO rs FROM fruit ORDER BY id DESC;
        s := s || '|' || rs.COUNT || rs(1).name || rs(4).name;
        SELECT id BULK COLLECT INTO i FROM fruit WHERE id > 100;
        s := s || '|' || i.COUNT;
        OPEN c;
        LOOP
          FETCH c BULK COLLECT INTO rs LIMIT 3;
          s := s || '|' || rs.COUNT || ':' || c%ROWCOUNT;
          EXIT WHEN c%NOTFOUND;
        END LOOP;
        CLOSE c;
        EXECUTE IMMEDIATE 'SELECT name FROM fruit WHERE id >= :1 ORDER BY id' BULK COLLECT INTO n USING 3;
        :s := s || '|' || n.COUNT || n(2);
      END;`,
      { s: out() }
    )
    expect((r.outBinds as { s: string }).s).toBe("3:1plum:3|4kiwiapple|0|3:3|1:4|2kiwi")
  })

  it("FORALL runs DML once per index (a range, INDICES OF a sparse collection) with SQL%ROWCOUNT and SQL%BULK_ROWCOUNT", async () => {
    await conn.execute("CREATE TABLE basket (id NUMBER(10), name VARCHAR2(20))")
    const r = await conn.execute(
      `DECLARE
        TYPE ids IS TABLE OF NUMBER;
        TYPE rows_t IS TABLE OF fruit%ROWTYPE INDEX BY PLS_INTEGER;
        rs rows_t;
        i ids := ids(1, 2, 3, 4, 99);
        s VARCHAR2(400);
      BEGIN
        SELECT * BULK COLLECT INTO rs FROM fruit ORDER BY id;
        FORALL k IN 1..rs.COUNT
          INSERT INTO basket VALUES (rs(k).id, rs(k).name);
        s := SQL%ROWCOUNT;
        FORALL k IN 1..2
          INSERT INTO basket SELECT id + 10, name FROM fruit WHERE id <= rs(k).id;
        s := s || '|' || SQL%ROWCOUNT || ':' || SQL%BULK_ROWCOUNT(1) || SQL%BULK_ROWCOUNT(2);
        i.DELETE(2);
        FORALL k IN INDICES OF i
          UPDATE basket SET name = UPPER(name) WHERE id = i(k);
        :s := s || '|' || SQL%ROWCOUNT || ':' || SQL%BULK_ROWCOUNT(1) || SQL%BULK_ROWCOUNT(5);
      END;`,
      { s: out() }
    )
    expect((r.outBinds as { s: string }).s).toBe("4|3:12|3:10")
    const rows = await conn.execute("SELECT id, name FROM basket ORDER BY id")
    expect(rows.rows).toEqual([[1, "APPLE"], [2, "pear"], [3, "PLUM"], [4, "KIWI"], [11, "apple"], [11, "apple"], [12, "pear"]])
  })

  it("a failing FORALL iteration undoes that statement and raises; earlier iterations stay", async () => {
    await conn.execute("CREATE TABLE uniq (id NUMBER(10) PRIMARY KEY)")
    const r = await conn.execute(
      `DECLARE
        TYPE ids IS TABLE OF NUMBER;
        i ids := ids(1, 2, 2, 3);
      BEGIN
        FORALL k IN i.FIRST..i.LAST
          INSERT INTO uniq VALUES (i(k));
      EXCEPTION WHEN DUP_VAL_ON_INDEX THEN
        :s := 'dup after ' || SQL%ROWCOUNT;
      END;`,
      { s: out() }
    )
    expect((r.outBinds as { s: string }).s).toBe("dup after 2")
    expect((await conn.execute("SELECT id FROM uniq ORDER BY id")).rows).toEqual([[1], [2]])
  })

  it("walks an associative array INDEX BY VARCHAR2 in key order with FIRST / NEXT / LAST / PRIOR, its keys and values out as index-by array binds", async () => {
    // string keys are ordered by the session's binary sort (PL/SQL Language Reference, "Associative Arrays": "sorted
    // by the index"; NLS_SORT BINARY puts upper case first); node-oracledb binds index-by tables indexed by integers
    // only, so the keys travel through PLS_INTEGER-indexed collections
    const arrayOut = (type: unknown) => ({ dir: oracledb.BIND_OUT, type, maxArraySize: 10, maxSize: 10 })
    const r = await conn.execute(
      `DECLARE
        TYPE price_by_name IS TABLE OF NUMBER INDEX BY VARCHAR2(10);
        TYPE name_list IS TABLE OF VARCHAR2(10) INDEX BY PLS_INTEGER;
        TYPE num_list IS TABLE OF NUMBER INDEX BY PLS_INTEGER;
        prices price_by_name;
        names name_list := :names;
        ks name_list;
        vs num_list;
        k VARCHAR2(10);
      BEGIN
        FOR i IN 1 .. names.COUNT LOOP
          IF prices.EXISTS(names(i)) THEN
            prices(names(i)) := prices(names(i)) + i;
          ELSE
            prices(names(i)) := i;
          END IF;
        END LOOP;
        k := prices.FIRST;
        WHILE k IS NOT NULL LOOP
          ks(ks.COUNT + 1) := k;
          vs(vs.COUNT + 1) := prices(k);
          k := prices.NEXT(k);
        END LOOP;
        :keys := ks;
        :vals := vs;
        :last := prices.LAST;
        :prior := prices.PRIOR('pear');
        prices.DELETE('apple');
        :left := prices.COUNT || ':' || CASE WHEN prices.EXISTS('apple') THEN 'y' ELSE 'n' END;
      END;`,
      {
        names: { type: oracledb.STRING, dir: oracledb.BIND_IN, val: ["pear", "apple", "Plum", "pear", "kiwi"] },
        keys: arrayOut(oracledb.STRING),
        vals: arrayOut(oracledb.NUMBER),
        last: out(),
        prior: out(),
        left: out()
      }
    )
    expect(r.outBinds).toEqual({ keys: ["Plum", "apple", "kiwi", "pear"], vals: [3, 2, 5, 5], last: "pear", prior: "kiwi", left: "3:n" })
    // reading a key that is not there is NO_DATA_FOUND, as for any associative array
    const e = await failure(() => conn.execute("DECLARE TYPE m IS TABLE OF NUMBER INDEX BY VARCHAR2(5); x m; n NUMBER; BEGIN x('a') := 1; n := x('b'); END;"))
    expect(e.message).toMatch(/^ORA-01403: no data found/)
  })

  it("AND / OR stop at the operand that decides them and CASE evaluates only its chosen result, so a missing element is not read (was NO_DATA_FOUND / ORA-06533)", async () => {
    // PL/SQL Language Reference, "Short-Circuit Evaluation"
    const r = await conn.execute(
      `DECLARE
        TYPE by_name IS TABLE OF NUMBER INDEX BY VARCHAR2(10);
        TYPE nums IS TABLE OF NUMBER;
        m by_name;
        n nums := nums(5);
        c NUMBER;
        s VARCHAR2(20);
      BEGIN
        m('a') := 1;
        IF m.EXISTS('b') AND m('b') > 0 THEN s := 'b'; ELSE s := '-'; END IF;
        IF m.EXISTS('a') AND m('a') > 0 THEN s := s || 'a'; END IF;
        IF NOT m.EXISTS('c') OR m('c') = 0 THEN s := s || 'c'; END IF;
        IF n.COUNT >= 2 AND n(2) > 0 THEN s := s || '2'; ELSE s := s || 'n'; END IF;
        WHILE n.COUNT < 3 AND (n.COUNT = 0 OR n(n.COUNT) > 0) LOOP n.EXTEND; n(n.COUNT) := n.COUNT; END LOOP;
        -- CASE evaluates only the result it chooses (searched CASE expression)
        c := CASE WHEN m.EXISTS('z') THEN m('z') WHEN m.EXISTS('a') AND m('a') = 1 THEN 7 ELSE 0 END;
        s := s || c;
        c := CASE WHEN m.EXISTS('z') THEN m('z') END;
        :s := s || NVL(c, -1) || n.COUNT;
      END;`,
      { s: out() }
    )
    expect((r.outBinds as { s: string }).s).toBe("-acn7-13")
    // an operand that must be read still fails
    const e = await failure(() => conn.execute("DECLARE TYPE m IS TABLE OF NUMBER INDEX BY VARCHAR2(5); x m; b BOOLEAN; BEGIN b := x('q') > 0 AND 1 = 1; END;"))
    expect(e.message).toMatch(/^ORA-01403: no data found/)
  })

  it("a CASE inside a larger expression reads only its chosen result's elements (was ORA-06533 / NO_DATA_FOUND)", async () => {
    const r = await conn.execute(
      `DECLARE
        TYPE nums IS TABLE OF NUMBER;
        TYPE by_name IS TABLE OF NUMBER INDEX BY VARCHAR2(10);
        v nums := nums(10, 20);
        m by_name;
        i PLS_INTEGER := 5;
        x NUMBER;
        s VARCHAR2(40);
      BEGIN
        x := 1 + CASE WHEN i <= v.COUNT THEN v(i) ELSE 0 END;
        s := x;
        x := NVL(CASE WHEN m.EXISTS('k') THEN m('k') END, 0) + 1;
        s := s || ',' || x;
        x := (CASE WHEN 2 <= v.COUNT THEN v(2) ELSE 0 END) * 2 + CASE WHEN i <= v.COUNT THEN v(i) ELSE -1 END;
        :s := s || ',' || x;
      END;`,
      { s: out() }
    )
    expect((r.outBinds as { s: string }).s).toBe("1,1,39")
    // the chosen result's missing element still fails
    const e = await failure(() => conn.execute("DECLARE TYPE nums IS TABLE OF NUMBER; v nums := nums(1); x NUMBER; BEGIN x := 1 + CASE WHEN 1 = 1 THEN v(3) ELSE 0 END; END;"))
    expect(e.message).toMatch(/^ORA-06533: Subscript beyond count/)
  })
})
