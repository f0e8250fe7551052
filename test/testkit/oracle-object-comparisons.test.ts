/**
 * Oracle test server: object comparisons in SQL and PL/SQL follow the type's MAP or ORDER member function, and
 * without either compare attribute by attribute where Oracle allows it (raw node-oracledb). Object-Relational
 * Developer's Guide, "Comparing Objects" / "Performance of Object Comparisons"; SQL Language Reference, "Multiset
 * Conditions"; Database Error Messages, ORA-22901 "cannot compare VARRAY or LOB attributes of an object type",
 * ORA-22952 "Nested Table equality requires a map method on the element ADT".
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode, oracledb } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const rows = async (sql: string) => (await conn.execute(sql)).rows

describe("Oracle test server: object comparisons by MAP / ORDER methods (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      "CREATE TYPE oc_pt AS OBJECT (x NUMBER, y NUMBER, MAP MEMBER FUNCTION m RETURN NUMBER, MEMBER FUNCTION scaled(k NUMBER) RETURN NUMBER)",
      "CREATE TYPE BODY oc_pt AS MAP MEMBER FUNCTION m RETURN NUMBER IS BEGIN RETURN x + y; END; MEMBER FUNCTION scaled(k NUMBER) RETURN NUMBER IS BEGIN RETURN k * x; END; END;",
      "CREATE TYPE oc_pts AS TABLE OF oc_pt",
      "CREATE TYPE oc_op AS OBJECT (x NUMBER, y NUMBER, ORDER MEMBER FUNCTION o(other oc_op) RETURN NUMBER)",
      "CREATE TYPE BODY oc_op AS ORDER MEMBER FUNCTION o(other oc_op) RETURN NUMBER IS BEGIN RETURN SIGN(x - other.x); END; END;",
      "CREATE TYPE oc_ops AS TABLE OF oc_op",
      "CREATE TYPE oc_plain AS OBJECT (x NUMBER, y NUMBER)",
      "CREATE TYPE oc_plains AS TABLE OF oc_plain",
      "CREATE TYPE oc_nums AS VARRAY(5) OF NUMBER",
      "CREATE TYPE oc_va AS OBJECT (x NUMBER, v oc_nums)",
      "CREATE TYPE oc_vas AS TABLE OF oc_va",
      "CREATE TABLE oc_t (id NUMBER, c oc_pts, d oc_ops, e oc_vas, f oc_plains) NESTED TABLE c STORE AS oc_t_c NESTED TABLE d STORE AS oc_t_d NESTED TABLE e STORE AS oc_t_e NESTED TABLE f STORE AS oc_t_f",
      "INSERT INTO oc_t VALUES (1, oc_pts(oc_pt(1, 2), oc_pt(5, 5)), oc_ops(oc_op(1, 2), oc_op(1, 3)), oc_vas(oc_va(1, oc_nums(1))), oc_plains(oc_plain(1, 2), oc_plain(2, 1)))",
      "INSERT INTO oc_t VALUES (2, oc_pts(oc_pt(1, 2), oc_pt(3, 0)), oc_ops(oc_op(2, 2), oc_op(3, 2)), oc_vas(), oc_plains(oc_plain(1, 2), oc_plain(1, 2)))",
      "INSERT INTO oc_t VALUES (3, oc_pts(), oc_ops(), NULL, NULL)",
      "CREATE TABLE oc_o (id NUMBER, o oc_pt, o2 oc_pt, p oc_plain, q oc_plain, r oc_op, v oc_va)",
      "INSERT INTO oc_o VALUES (1, oc_pt(2, 1), oc_pt(3, 0), oc_plain(1, 2), oc_plain(1, 2), oc_op(5, 1), oc_va(1, oc_nums(1)))",
      "INSERT INTO oc_o VALUES (2, oc_pt(1, 9), oc_pt(2, 2), oc_plain(1, 2), oc_plain(2, 1), oc_op(10, 1), NULL)",
      "INSERT INTO oc_o VALUES (3, oc_pt(3, 3), oc_pt(9, 9), NULL, NULL, oc_op(7, 0), NULL)",
      "INSERT INTO oc_o VALUES (4, NULL, oc_pt(1, 1), NULL, NULL, NULL, NULL)"
    ]) await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("MEMBER OF and IS A SET of an unqualified nested table column compare by the MAP or ORDER method", async () => {
    expect(await rows("SELECT id FROM oc_t WHERE oc_pt(2, 1) MEMBER OF c ORDER BY id")).toEqual([[1], [2]])
    expect(await rows("SELECT id FROM oc_t WHERE oc_pt(0, 3) NOT MEMBER c ORDER BY id")).toEqual([])
    expect(await rows("SELECT id FROM oc_t WHERE oc_op(3, 99) MEMBER OF d ORDER BY id")).toEqual([[2]])
    expect(await rows("SELECT id, CASE WHEN c IS A SET THEN 'Y' WHEN c IS NOT A SET THEN 'N' END FROM oc_t ORDER BY id")).toEqual([[1, "Y"], [2, "N"], [3, "Y"]])
  })

  it("IS A SET by an ORDER method: elements it orders 0 are duplicates", async () => {
    expect(await rows("SELECT t.id, CASE WHEN t.d IS A SET THEN 'Y' WHEN t.d IS NOT A SET THEN 'N' END FROM oc_t t ORDER BY t.id")).toEqual([[1, "N"], [2, "Y"], [3, "Y"]])
    expect(await rows("SELECT id FROM oc_t WHERE d IS NOT A SET")).toEqual([[1]])
  })

  it("without MAP or ORDER: attribute by attribute, but ORA-22901 for a type with a VARRAY attribute", async () => {
    expect(await rows("SELECT id FROM oc_t WHERE oc_plain(2, 1) MEMBER OF f ORDER BY id")).toEqual([[1]])
    expect(await rows("SELECT t.id FROM oc_t t WHERE t.f IS NOT A SET")).toEqual([[2]])
    expect(oraCode(await failure(() => rows("SELECT t.id FROM oc_t t WHERE oc_va(1, oc_nums(1)) MEMBER OF t.e")))).toBe("ORA-22901")
    expect(oraCode(await failure(() => rows("SELECT id FROM oc_t WHERE e IS A SET")))).toBe("ORA-22901")
  })

  it("a member function of a TABLE(c) element is called in SQL", async () => {
    expect(await rows("SELECT t.id, e.m(), e.scaled(10) FROM oc_t t, TABLE(t.c) e ORDER BY 1, 3")).toEqual([[1, 3, 10], [1, 10, 50], [2, 3, 10], [2, 3, 30]])
    expect(await rows("SELECT t.id FROM oc_t t, TABLE(t.c) e WHERE e.m() > 5")).toEqual([[1]])
  })

  it("comparisons of objects in SQL use the MAP method, or the ORDER method's answer against 0", async () => {
    expect(await rows("SELECT t.id FROM oc_o t WHERE t.o = t.o2 ORDER BY t.id")).toEqual([[1]])
    expect(await rows("SELECT id FROM oc_o WHERE o <> o2 ORDER BY id")).toEqual([[2], [3]])
    expect(await rows("SELECT t.id FROM oc_o t WHERE t.o > oc_pt(0, 5) ORDER BY t.id")).toEqual([[2], [3]])
    expect(await rows("SELECT t.id FROM oc_o t WHERE t.r = oc_op(7, 99) ORDER BY t.id")).toEqual([[3]])
    expect(await rows("SELECT t.id FROM oc_o t WHERE t.r < oc_op(8, 0) ORDER BY t.id")).toEqual([[1], [3]])
  })

  it("[NOT] IN lists of objects compare by the MAP or ORDER method", async () => {
    expect(await rows("SELECT t.id FROM oc_o t WHERE t.o IN (oc_pt(0, 6), oc_pt(5, 5)) ORDER BY t.id")).toEqual([[2], [3]])
    expect(await rows("SELECT id FROM oc_o WHERE o NOT IN (oc_pt(1, 2)) ORDER BY id")).toEqual([[2], [3]])
    expect(await rows("SELECT t.id FROM oc_o t WHERE t.r IN (oc_op(7, 0), oc_op(5, 5)) ORDER BY t.id")).toEqual([[1], [3]])
  })

  it("[NOT] IN (subquery) of objects compares by the MAP method", async () => {
    // o maps to 3, 10, 6, NULL; o2 to 3, 4, 18, 2: only row 1's o maps to a value an o2 maps to
    expect(await rows("SELECT id FROM oc_o WHERE o IN (SELECT o2 FROM oc_o) ORDER BY id")).toEqual([[1]])
    expect(await rows("SELECT t.id FROM oc_o t WHERE t.o NOT IN (SELECT u.o2 FROM oc_o u WHERE u.id < 3) ORDER BY t.id")).toEqual([[2], [3]])
  })

  it("a subtype's objects compare by the MAP method they inherit, in SQL and in PL/SQL", async () => {
    await conn.execute("CREATE TYPE oc_base AS OBJECT (x NUMBER, MAP MEMBER FUNCTION m RETURN NUMBER) NOT FINAL")
    await conn.execute("CREATE TYPE BODY oc_base AS MAP MEMBER FUNCTION m RETURN NUMBER IS BEGIN RETURN MOD(x, 10); END; END;")
    await conn.execute("CREATE TYPE oc_sub UNDER oc_base (y NUMBER)")
    await conn.execute("CREATE TYPE oc_subs AS TABLE OF oc_sub")
    await conn.execute("CREATE TABLE oc_ih (id NUMBER, c oc_subs) NESTED TABLE c STORE AS oc_ih_c")
    await conn.execute("INSERT INTO oc_ih VALUES (1, oc_subs(oc_sub(1, 1), oc_sub(11, 2)))")
    // 21 maps to 1, as 1 and 11 do
    expect(await rows("SELECT id FROM oc_ih WHERE oc_sub(21, 5) MEMBER OF c")).toEqual([[1]])
    expect(await rows("SELECT id FROM oc_ih WHERE c IS NOT A SET")).toEqual([[1]])
    const out = { dir: oracledb.BIND_OUT, type: oracledb.STRING }
    const block = `DECLARE a oc_subs := oc_subs(oc_sub(1, 1), oc_sub(11, 2)); x oc_sub := oc_sub(21, 5); s VARCHAR2(20);
      BEGIN IF x MEMBER OF a THEN s := 'member'; END IF; IF a IS NOT A SET THEN s := s || ' dup'; END IF; :s := s || ' ' || CARDINALITY(SET(a)); END;`
    expect((await conn.execute(block, { s: out })).outBinds.s).toBe("member dup 1")
  })

  it("ORDER BY an object column sorts by the MAP or ORDER method, NULL objects last", async () => {
    expect(await rows("SELECT t.id FROM oc_o t ORDER BY t.o")).toEqual([[1], [3], [2], [4]])
    expect(await rows("SELECT id FROM oc_o ORDER BY o DESC")).toEqual([[4], [2], [3], [1]])
    expect(await rows("SELECT t.id FROM oc_o t ORDER BY t.r")).toEqual([[1], [3], [2], [4]])
    expect(await rows("SELECT id FROM oc_o WHERE id > 1 ORDER BY r DESC")).toEqual([[4], [2], [3]])
  })

  it("a block's SQL compares and sorts objects by the MAP method too", async () => {
    const block = "DECLARE s VARCHAR2(100); BEGIN FOR r IN (SELECT t.id FROM oc_o t WHERE t.o <> oc_pt(0, 6) ORDER BY t.o) LOOP s := s || r.id; END LOOP; :s := s; END;"
    expect((await conn.execute(block, { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } })).outBinds.s).toBe("12")
  })

  it("UPDATE ... SET an object column WHERE it equals another by its MAP method", async () => {
    await conn.execute("UPDATE oc_o t SET t.o = oc_pt(0, 0) WHERE t.o = oc_pt(1, 2)")
    expect(await rows("SELECT t.id, t.o.x FROM oc_o t WHERE t.id < 3 ORDER BY t.id")).toEqual([[1, 0], [2, 1]])
    await conn.rollback()
  })

  it("without MAP or ORDER: equality only (ORA-22950 otherwise), ORA-22901 for a VARRAY attribute", async () => {
    expect(await rows("SELECT t.id FROM oc_o t WHERE t.p = t.q ORDER BY t.id")).toEqual([[1]])
    expect(oraCode(await failure(() => rows("SELECT t.id FROM oc_o t WHERE t.p < t.q")))).toBe("ORA-22950")
    expect(oraCode(await failure(() => rows("SELECT t.id FROM oc_o t ORDER BY t.p")))).toBe("ORA-22950")
    expect(oraCode(await failure(() => rows("SELECT t.id FROM oc_o t WHERE t.v = oc_va(1, oc_nums(1))")))).toBe("ORA-22901")
    expect(oraCode(await failure(() => rows("SELECT DISTINCT t.v FROM oc_o t")))).toBe("ORA-22901")
    expect(oraCode(await failure(() => rows("SELECT COUNT(*) FROM oc_o t GROUP BY t.v")))).toBe("ORA-22901")
  })

  it("nested table equality in PL/SQL needs a MAP method on the element type (ORA-22952)", async () => {
    const equal = (type: string, a: string, b: string) => conn.execute(`DECLARE a ${type} := ${a}; b ${type} := ${b}; r VARCHAR2(1); BEGIN IF a = b THEN r := 'Y'; ELSE r := 'N'; END IF; :r := r; END;`, { r: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 1 } })
    expect((await equal("oc_pts", "oc_pts(oc_pt(1, 2))", "oc_pts(oc_pt(3, 0))")).outBinds.r).toBe("Y")
    expect(oraCode(await failure(() => equal("oc_plains", "oc_plains(oc_plain(1, 2))", "oc_plains(oc_plain(1, 2))")))).toBe("ORA-22952")
    expect(oraCode(await failure(() => equal("oc_ops", "oc_ops(oc_op(1, 2))", "oc_ops(oc_op(1, 3))")))).toBe("ORA-22952")
  })
})

describe("Oracle test server: objects without MAP / ORDER methods in a schema with no PL/SQL (raw node-oracledb)", () => {
  let bare: { server?: OracleTestServerHandle; conn?: Conn } = {}
  beforeAll(async () => {
    bare = await openConnection()
    for (const sql of [
      "CREATE TYPE ob_plain AS OBJECT (x NUMBER, y NUMBER)",
      "CREATE TYPE ob_nums AS VARRAY(5) OF NUMBER",
      "CREATE TYPE ob_va AS OBJECT (x NUMBER, v ob_nums)",
      "CREATE TYPE ob_vas AS TABLE OF ob_va",
      "CREATE TABLE ob_t (id NUMBER, p ob_plain, q ob_plain, v ob_va, e ob_vas) NESTED TABLE e STORE AS ob_t_e",
      "INSERT INTO ob_t VALUES (1, ob_plain(1, 2), ob_plain(1, 2), ob_va(1, ob_nums(1)), ob_vas(ob_va(1, ob_nums(1))))"
    ]) await bare.conn.execute(sql)
  })
  afterAll(() => closeConnection(bare))

  it("refuses ordering (ORA-22950) and comparing VARRAY attributes (ORA-22901)", async () => {
    const run = async (sql: string) => (await bare.conn.execute(sql)).rows
    expect(await run("SELECT t.id FROM ob_t t WHERE t.p = t.q")).toEqual([[1]])
    expect(oraCode(await failure(() => run("SELECT t.id FROM ob_t t ORDER BY t.p")))).toBe("ORA-22950")
    expect(oraCode(await failure(() => run("SELECT id FROM ob_t WHERE p >= q")))).toBe("ORA-22950")
    expect(oraCode(await failure(() => run("SELECT DISTINCT v FROM ob_t")))).toBe("ORA-22901")
    expect(oraCode(await failure(() => run("SELECT id FROM ob_t WHERE e IS A SET")))).toBe("ORA-22901")
    expect(oraCode(await failure(() => bare.conn.execute("DELETE FROM ob_t t WHERE t.v = ob_va(1, ob_nums(1))")))).toBe("ORA-22901")
  })
})
