import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, oracledb, openConnection } from "./oracle/helpers.ts"

/**
 * `a = b` / `a <> b` of two nested tables in SQL, through raw node-oracledb against the Oracle test server: equal
 * when they hold the same elements as often, in any order (PL/SQL Language Reference, "Collection Comparisons"),
 * NULL when either is NULL or holds a NULL element; nested tables of objects need a MAP method on the element type
 * (ORA-22952, SQL Language Reference, "Comparison Conditions"); VARRAYs cannot be compared.
 */
describe("Oracle test server: nested table equality in SQL", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TYPE nte_nums AS TABLE OF NUMBER")
    await conn.execute("CREATE TYPE nte_strs AS TABLE OF VARCHAR2(10)")
    await conn.execute(`CREATE TABLE nte (id NUMBER, c nte_nums, d nte_nums, s nte_strs, u nte_strs)
      NESTED TABLE c STORE AS nte_c NESTED TABLE d STORE AS nte_d NESTED TABLE s STORE AS nte_s NESTED TABLE u STORE AS nte_u`)
    await conn.execute("INSERT INTO nte VALUES (1, nte_nums(1, 2, 2), nte_nums(2, 1, 2), nte_strs('a', 'b'), nte_strs('b', 'a'))")
    await conn.execute("INSERT INTO nte VALUES (2, nte_nums(1, 2, 2), nte_nums(1, 1, 2), nte_strs('a'), nte_strs('a', 'a'))")
    await conn.execute("INSERT INTO nte VALUES (3, nte_nums(1.50), nte_nums(1.5), nte_strs(), nte_strs())")
    await conn.execute("INSERT INTO nte VALUES (4, NULL, nte_nums(), NULL, nte_strs())")
    await conn.execute("INSERT INTO nte VALUES (5, nte_nums(1, NULL), nte_nums(NULL, 1), nte_strs('x', NULL), nte_strs('y'))")
  })
  afterAll(() => closeConnection({ server, conn }))

  const rows = async (sql: string, binds: Record<string, unknown> = {}) =>
    ((await conn.execute(sql, binds, { outFormat: oracledb.OUT_FORMAT_ARRAY })).rows as Array<Array<unknown>>).map((r) => (r.length === 1 ? r[0] : r))

  it("compares two nested tables as multisets: the same elements as often, in any order", async () => {
    expect(await rows("SELECT 1 FROM dual WHERE nte_nums(1, 2) = nte_nums(2, 1)")).toEqual([1])
    expect(await rows("SELECT 1 FROM dual WHERE nte_nums(1, 2) = nte_nums(2, 1, 1)")).toEqual([])
    expect(await rows("SELECT 1 FROM dual WHERE nte_strs('a', 'b') <> nte_strs('b', 'b')")).toEqual([1])
    expect(await rows("SELECT id FROM nte t WHERE t.c = t.d ORDER BY id")).toEqual([1, 3])
    expect(await rows("SELECT id FROM nte WHERE c <> d ORDER BY id")).toEqual([2])
    expect(await rows("SELECT id FROM nte t WHERE t.s = t.u ORDER BY id")).toEqual([1, 3])
    expect(await rows("SELECT id FROM nte t WHERE t.c = nte_nums(2, 2, 1) ORDER BY id")).toEqual([1, 2])
    expect(await rows("SELECT id FROM nte t WHERE nte_strs(:a, :b) = t.u ORDER BY id", { a: "a", b: "b" })).toEqual([1])
    // a DbObject bind compared with a nested table column
    const Nums = await conn.getDbObjectClass("NTE_NUMS")
    expect(await rows("SELECT id FROM nte t WHERE t.c = :b ORDER BY id", { b: new Nums([2, 2, 1]) })).toEqual([1, 2])
    expect(await rows("SELECT id FROM nte WHERE :b <> d ORDER BY id", { b: new Nums([2, 2, 1]) })).toEqual([2, 3, 4])
    // a NUMBER column named as a nested table column of another table of the statement stays a number
    await conn.execute("CREATE TABLE nte_n (id NUMBER, c NUMBER)")
    await conn.execute("INSERT INTO nte_n VALUES (1, 7)")
    expect(await rows("SELECT t.id FROM nte_n n, nte_n m, nte t WHERE n.c = m.c AND t.c = t.d ORDER BY t.id")).toEqual([1, 3])
  })

  // "Collection Comparisons": a NULL nested table makes the comparison NULL; NULL elements make it unknown too
  it("is NULL when either nested table is NULL or holds a NULL element", async () => {
    expect(await rows("SELECT id, CASE WHEN c = d THEN 'T' WHEN c <> d THEN 'F' ELSE 'N' END FROM nte ORDER BY id")).toEqual([
      [1, "T"],
      [2, "F"],
      [3, "T"],
      [4, "N"],
      [5, "N"]
    ])
    expect(await rows("SELECT id FROM nte WHERE NOT (s = u) ORDER BY id")).toEqual([2])
  })

  it("takes the comparison in a PL/SQL block's SQL, and leaves an UPDATE's SET assignment an assignment", async () => {
    const out = await conn.execute(
      `DECLARE n NUMBER; m NUMBER;
       BEGIN
         SELECT COUNT(*) INTO n FROM nte t WHERE t.c = t.d;
         SELECT COUNT(*) INTO m FROM nte WHERE nte_nums(2, 1) = nte_nums(1, 2) AND id = 1;
         :n := n; :m := m;
       END;`,
      { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }, m: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    )
    expect(out.outBinds).toEqual({ n: 2, m: 1 })
    // a schema type's constructor as an operand of a PL/SQL expression
    const plsql = await conn.execute(
      `DECLARE a nte_nums := nte_nums(1, 2, 2);
       BEGIN
         :eq := CASE WHEN a = nte_nums(2, 1, 2) THEN 'T' WHEN a <> nte_nums(2, 1, 2) THEN 'F' END;
         :ne := CASE WHEN nte_nums(1, 1, 2) = a THEN 'T' WHEN nte_nums(1, 1, 2) <> a THEN 'F' END;
       END;`,
      { eq: { dir: oracledb.BIND_OUT, type: oracledb.STRING }, ne: { dir: oracledb.BIND_OUT, type: oracledb.STRING } }
    )
    expect(plsql.outBinds).toEqual({ eq: "T", ne: "F" })
    await conn.execute("UPDATE nte SET d = c WHERE id = 2")
    expect(await rows("SELECT id FROM nte t WHERE t.c = t.d ORDER BY id")).toEqual([1, 2, 3])
    await conn.execute("UPDATE nte SET d = nte_nums(1, 1, 2) WHERE id = 2")
  })

  // SQL Language Reference, "Comparison Conditions": nested tables of user-defined object types must have MAP methods
  // to be used in equality conditions (Database Error Messages, ORA-22952)
  it("refuses nested tables of objects without a MAP method with ORA-22952, and compares by the MAP method with one", async () => {
    await conn.execute("CREATE TYPE nte_pt AS OBJECT (x NUMBER)")
    await conn.execute("CREATE TYPE nte_pts AS TABLE OF nte_pt")
    await conn.execute("CREATE TYPE nte_ord AS OBJECT (x NUMBER, ORDER MEMBER FUNCTION cmp(o nte_ord) RETURN NUMBER)")
    await conn.execute("CREATE TYPE BODY nte_ord AS ORDER MEMBER FUNCTION cmp(o nte_ord) RETURN NUMBER IS BEGIN RETURN x - o.x; END; END;")
    await conn.execute("CREATE TYPE nte_ords AS TABLE OF nte_ord")
    await conn.execute("CREATE TYPE nte_mod AS OBJECT (x NUMBER, MAP MEMBER FUNCTION m RETURN NUMBER)")
    await conn.execute("CREATE TYPE BODY nte_mod AS MAP MEMBER FUNCTION m RETURN NUMBER IS BEGIN RETURN MOD(x, 10); END; END;")
    await conn.execute("CREATE TYPE nte_mods AS TABLE OF nte_mod")
    await conn.execute(`CREATE TABLE nte_o (id NUMBER, p nte_pts, q nte_pts, o nte_ords, r nte_ords, a nte_mods, b nte_mods)
      NESTED TABLE p STORE AS nte_o_p NESTED TABLE q STORE AS nte_o_q NESTED TABLE o STORE AS nte_o_o NESTED TABLE r STORE AS nte_o_r
      NESTED TABLE a STORE AS nte_o_a NESTED TABLE b STORE AS nte_o_b`)
    await conn.execute(`INSERT INTO nte_o VALUES (1, nte_pts(nte_pt(1)), nte_pts(nte_pt(1)), nte_ords(nte_ord(1)), nte_ords(nte_ord(1)),
      nte_mods(nte_mod(1), nte_mod(2)), nte_mods(nte_mod(12), nte_mod(11)))`)
    await conn.execute("INSERT INTO nte_o (id, a, b) VALUES (2, nte_mods(nte_mod(1), nte_mod(1)), nte_mods(nte_mod(1), nte_mod(2)))")
    await conn.execute("INSERT INTO nte_o (id, a, b) VALUES (3, nte_mods(), nte_mods())")
    await conn.execute("INSERT INTO nte_o (id, a, b) VALUES (4, NULL, nte_mods())")
    const refused = await failure(() => conn.execute("SELECT id FROM nte_o t WHERE t.p = t.q"))
    expect(refused.message).toContain("ORA-22952: Nested Table equality requires a map method on the element ADT")
    expect((await failure(() => conn.execute("SELECT id FROM nte_o WHERE o <> r"))).message).toContain("ORA-22952")
    // 1 and 11, 2 and 12 map to the same values; {1, 1} and {1, 2} do not
    expect(await rows("SELECT id FROM nte_o t WHERE t.a = t.b ORDER BY id")).toEqual([1, 3])
    expect(await rows("SELECT id FROM nte_o WHERE a <> b ORDER BY id")).toEqual([2])
    const block = await conn.execute("BEGIN SELECT COUNT(*) INTO :n FROM nte_o t WHERE t.a = t.b; END;", { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect(block.outBinds).toEqual({ n: 2 })
  })

  // "Collection Comparisons": only nested tables compare with relational operators; a VARRAY is refused as by
  // CARDINALITY, SET and MEMBER OF (ORA-00932 "expected UDT got <type>"; for `=` unconfirmed)
  it("refuses the equality of two VARRAYs", async () => {
    await conn.execute("CREATE TYPE nte_arr AS VARRAY(5) OF NUMBER")
    await conn.execute("CREATE TABLE nte_v (id NUMBER, v nte_arr, w nte_arr)")
    await conn.execute("INSERT INTO nte_v VALUES (1, nte_arr(1, 2), nte_arr(1, 2))")
    const e = await failure(() => conn.execute("SELECT id FROM nte_v t WHERE t.v = t.w"))
    expect(e.message).toMatch(/^ORA-00932: inconsistent datatypes: expected UDT got \w+\.NTE_ARR/)
    expect((await failure(() => conn.execute("SELECT 1 FROM dual WHERE nte_arr(1) <> nte_arr(2)"))).message).toContain("ORA-00932")
    // so are CARDINALITY and MEMBER OF of one (https://coderapp.vercel.app/answer/51837805,
    // https://db-oriented.com/2016/05/14/subtleties-part-2-nested-tables-and-varrays/)
    expect((await failure(() => conn.execute("SELECT id FROM nte_v t WHERE 1 MEMBER OF t.v"))).message).toMatch(/^ORA-00932: inconsistent datatypes: expected UDT got \w+\.NTE_ARR/)
    expect((await failure(() => conn.execute("SELECT CARDINALITY(w) FROM nte_v"))).message).toMatch(/^ORA-00932: inconsistent datatypes: expected UDT got \w+\.NTE_ARR/)
    // in a PL/SQL expression `=` of two VARRAYs does not compile (PLS-00306, as
    // https://www.oratable.com/oracle-object-type-comparison/ shows)
    const plsql = await failure(() => conn.execute("DECLARE TYPE va IS VARRAY(3) OF NUMBER; a va := va(1, 2); b va := va(1, 2); BEGIN IF a = b THEN NULL; END IF; END;"))
    expect(plsql.message).toMatch(/^ORA-06550: line 1, column \d+:\nPLS-00306: wrong number or types of arguments in call to '='/)
    expect((await failure(() => conn.execute("DECLARE a nte_arr := nte_arr(1); b nte_arr := nte_arr(1); BEGIN IF a <> b THEN NULL; END IF; END;"))).message).toContain("PLS-00306")
    expect((await failure(() => conn.execute("DECLARE a nte_arr := nte_arr(1); BEGIN IF a <> nte_arr(2) THEN NULL; END IF; END;"))).message).toContain("PLS-00306")
  })
})
