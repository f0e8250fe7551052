/**
 * Oracle hierarchical queries (START WITH / CONNECT BY) against the Oracle test server through raw node-oracledb.
 * Expected results follow the SQL Language Reference, "Hierarchical Queries" and "Hierarchical Query Operators"
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Hierarchical-Queries.html): rows come in
 * depth-first pre-order, siblings by ORDER SIBLINGS BY, WHERE filters after the hierarchy is built, a loop fails
 * ORA-01436 unless NOCYCLE.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, oraCode, withServer } from "./oracle/helpers.ts"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: CONNECT BY", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE emp (id NUMBER(4), mgr NUMBER(4), name VARCHAR2(20))")
    // KING > (JONES > (FORD > SMITH), BLAKE > ALLEN), inserted out of order
    for (const [id, mgr, name] of [[4, 2, "FORD"], [1, null, "KING"], [2, 1, "JONES"], [5, 4, "SMITH"], [3, 1, "BLAKE"], [6, 3, "ALLEN"]]) {
      await conn.execute("INSERT INTO emp VALUES (:1, :2, :3)", [id, mgr, name])
    }
    await conn.execute("CREATE TABLE loop_t (id NUMBER(4), parent NUMBER(4))")
    for (const [id, parent] of [[1, 3], [2, 1], [3, 2]]) await conn.execute("INSERT INTO loop_t VALUES (:1, :2)", [id, parent])
    await conn.execute("CREATE TABLE nums (n NUMBER(6))")
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("generates rows with CONNECT BY LEVEL <= n, ROWNUM <= n and a bind", async () => {
    const r = await conn.execute("SELECT LEVEL FROM dual CONNECT BY LEVEL <= 4")
    expect(r.metaData[0].name).toBe("LEVEL")
    expect(r.rows).toEqual([[1], [2], [3], [4]])
    expect((await conn.execute("SELECT ROWNUM FROM dual CONNECT BY ROWNUM <= 3")).rows).toEqual([[1], [2], [3]])
    expect((await conn.execute("SELECT * FROM dual CONNECT BY LEVEL < 3")).rows).toEqual([["X"], ["X"]])
    expect((await conn.execute("SELECT LEVEL AS n FROM dual CONNECT BY LEVEL <= :n", { n: 5 })).rows).toEqual([[1], [2], [3], [4], [5]])
  })

  it("generates a million rows at once, keeps the root row when the bound is below 1, and rounds a fractional bound as Oracle's comparison does", async () => {
    expect((await conn.execute("SELECT COUNT(*), MAX(LEVEL) FROM dual CONNECT BY LEVEL <= 1000000")).rows).toEqual([[1000000, 1000000]])
    expect((await conn.execute("SELECT LEVEL FROM dual CONNECT BY LEVEL <= 0")).rows).toEqual([[1]])
    expect((await conn.execute("SELECT LEVEL FROM dual CONNECT BY LEVEL <= 2.7")).rows).toEqual([[1], [2]])
    expect((await conn.execute("SELECT LEVEL FROM dual CONNECT BY LEVEL < 3.5")).rows).toEqual([[1], [2], [3]])
    expect((await conn.execute("SELECT LEVEL, CONNECT_BY_ISLEAF FROM dual CONNECT BY LEVEL <= 3")).rows).toEqual([[1, 0], [2, 0], [3, 1]])
  })

  it("generates rows inside a subquery, a WITH clause and an INSERT ... SELECT", async () => {
    expect((await conn.execute("SELECT SUM(n) FROM (SELECT LEVEL n FROM dual CONNECT BY LEVEL <= 10)")).rows).toEqual([[55]])
    expect((await conn.execute("WITH g AS (SELECT LEVEL * 2 AS v FROM dual CONNECT BY LEVEL <= 3) SELECT v FROM g ORDER BY v")).rows).toEqual([[2], [4], [6]])
    const ins = await conn.execute("INSERT INTO nums SELECT LEVEL FROM dual CONNECT BY LEVEL <= 7")
    expect(ins.rowsAffected).toBe(7)
    expect((await conn.execute("SELECT COUNT(*), MAX(n) FROM nums")).rows).toEqual([[7, 7]])
  })

  it("generates rows in CREATE TABLE ... AS, CREATE VIEW ... AS and a PL/SQL cursor FOR loop", async () => {
    await conn.execute("CREATE TABLE gen AS SELECT LEVEL AS id FROM dual CONNECT BY LEVEL <= 5")
    expect((await conn.execute("SELECT COUNT(*), SUM(id) FROM gen")).rows).toEqual([[5, 15]])
    await conn.execute("CREATE VIEW gen_v AS SELECT LEVEL AS id FROM dual CONNECT BY LEVEL <= 3")
    expect((await conn.execute("SELECT id FROM gen_v ORDER BY id")).rows).toEqual([[1], [2], [3]])
    await conn.execute("BEGIN FOR r IN (SELECT LEVEL AS l FROM dual CONNECT BY LEVEL <= 4) LOOP INSERT INTO nums VALUES (100 + r.l); END LOOP; END;")
    expect((await conn.execute("SELECT COUNT(*) FROM nums WHERE n > 100")).rows).toEqual([[4]])
  })

  it("walks a hierarchy depth-first with LEVEL, SYS_CONNECT_BY_PATH, CONNECT_BY_ROOT and CONNECT_BY_ISLEAF", async () => {
    const r = await conn.execute(
      `SELECT name, LEVEL, SYS_CONNECT_BY_PATH(name, '/') AS path, CONNECT_BY_ROOT name AS root, CONNECT_BY_ISLEAF AS leaf
       FROM emp START WITH mgr IS NULL CONNECT BY PRIOR id = mgr ORDER SIBLINGS BY name`
    )
    expect(r.rows).toEqual([
      ["KING", 1, "/KING", "KING", 0],
      ["BLAKE", 2, "/KING/BLAKE", "KING", 0],
      ["ALLEN", 3, "/KING/BLAKE/ALLEN", "KING", 1],
      ["JONES", 2, "/KING/JONES", "KING", 0],
      ["FORD", 3, "/KING/JONES/FORD", "KING", 0],
      ["SMITH", 4, "/KING/JONES/FORD/SMITH", "KING", 1]
    ])
  })

  it("accepts PRIOR on either side, a qualified table alias, descending sibling order and unaliased headings", async () => {
    const r = await conn.execute(
      `SELECT e.name, SYS_CONNECT_BY_PATH(e.name, '>') FROM emp e START WITH e.id = 2 CONNECT BY e.mgr = PRIOR e.id ORDER SIBLINGS BY e.name DESC`
    )
    expect(r.metaData.map((m: { name: string }) => m.name)).toEqual(["NAME", "SYS_CONNECT_BY_PATH(E.NAME,'>')"])
    expect(r.rows).toEqual([["JONES", ">JONES"], ["FORD", ">JONES>FORD"], ["SMITH", ">JONES>FORD>SMITH"]])
  })

  it("applies WHERE after the hierarchy is built and ORDER BY over the whole result", async () => {
    // SMITH stays although its parent FORD is filtered out
    const r = await conn.execute(`SELECT name, LEVEL FROM emp WHERE name <> 'FORD' START WITH mgr IS NULL CONNECT BY PRIOR id = mgr ORDER BY name`)
    expect(r.rows).toEqual([["ALLEN", 3], ["BLAKE", 2], ["JONES", 2], ["KING", 1], ["SMITH", 4]])
    expect((await conn.execute("SELECT COUNT(*) FROM emp WHERE LEVEL = 3 CONNECT BY PRIOR id = mgr START WITH id = 1")).rows).toEqual([[2]])
  })

  it("gives the parent row's value for PRIOR in the select list, NULL on a root", async () => {
    const r = await conn.execute("SELECT name, PRIOR name AS boss FROM emp START WITH id = 2 CONNECT BY PRIOR id = mgr")
    expect(r.rows).toEqual([["JONES", null], ["FORD", "JONES"], ["SMITH", "FORD"]])
  })

  it("limits with ROWNUM in WHERE in hierarchy order", async () => {
    const sql = "SELECT name FROM emp WHERE name <> 'BLAKE' AND ROWNUM <= 3 START WITH mgr IS NULL CONNECT BY PRIOR id = mgr ORDER SIBLINGS BY name"
    expect((await conn.execute(sql)).rows).toEqual([["KING"], ["ALLEN"], ["JONES"]])
    expect((await conn.execute("SELECT LEVEL FROM dual WHERE ROWNUM < 3 CONNECT BY LEVEL <= 10")).rows).toEqual([[1], [2]])
  })

  it("SELECT * returns the table's columns only", async () => {
    const r = await conn.execute("SELECT * FROM emp START WITH id = 3 CONNECT BY PRIOR id = mgr")
    expect(r.metaData.map((m: { name: string }) => m.name)).toEqual(["ID", "MGR", "NAME"])
    expect(r.rows).toEqual([[3, 1, "BLAKE"], [6, 3, "ALLEN"]])
  })

  it("fails a loop with ORA-01436, and NOCYCLE stops at it with CONNECT_BY_ISCYCLE", async () => {
    const e = await failure(() => conn.execute("SELECT id FROM loop_t START WITH id = 1 CONNECT BY PRIOR id = parent"))
    expect(oraCode(e)).toBe("ORA-01436")
    const r = await conn.execute("SELECT id, LEVEL, CONNECT_BY_ISCYCLE FROM loop_t START WITH id = 1 CONNECT BY NOCYCLE PRIOR id = parent")
    expect(r.rows).toEqual([[1, 1, 0], [2, 2, 0], [3, 3, 1]])
  })

  it("computes with LEVEL as the NUMBER it is: CHR(64 + LEVEL), and quotients on every digit", async () => {
    expect((await conn.execute("SELECT CHR(64+LEVEL) FROM DUAL CONNECT BY LEVEL <= 3")).rows).toEqual([["A"], ["B"], ["C"]])
    // NUMBER division keeps NUMBER's 40 digits (SQL Language Reference, "Numeric Data Types"), not a double's 17
    const text = { fetchTypeHandler: () => ({ type: oracledb.STRING }) }
    expect((await conn.execute("SELECT MAX(LEVEL/7) FROM DUAL CONNECT BY LEVEL <= 3", [], text)).rows).toEqual([[".4285714285714285714285714285714285714286"]])
    expect((await conn.execute("SELECT name, LEVEL/3 FROM emp START WITH id = 2 CONNECT BY PRIOR id = mgr", [], text)).rows).toEqual([
      ["JONES", ".3333333333333333333333333333333333333333"],
      ["FORD", ".6666666666666666666666666666666666666667"],
      ["SMITH", "1"]
    ])
  })

  it("describes a table's unbounded NUMBER columns as NUMBER through the hierarchy (were VARCHAR2 text)", async () => {
    await conn.execute("CREATE TABLE tree_n (id NUMBER, parent NUMBER, tag VARCHAR2(5))")
    await conn.execute("INSERT INTO tree_n VALUES (1, NULL, 'a')")
    await conn.execute("INSERT INTO tree_n VALUES (2, 1, 'b')")
    const r = await conn.execute("SELECT id, tree_n.parent, LEVEL FROM tree_n START WITH parent IS NULL CONNECT BY PRIOR id = parent")
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["NUMBER", "NUMBER", "NUMBER"])
    expect(r.rows).toEqual([[1, null, 1], [2, 1, 2]])
    expect((await conn.execute("SELECT * FROM tree_n START WITH parent IS NULL CONNECT BY PRIOR id = parent")).rows).toEqual([[1, null, "a"], [2, 1, "b"]])
    await conn.rollback()
  })

  it("takes any NUMBER in CHR, truncating a fraction as Oracle's SQL CHR does", async () => {
    // CHR(122.5) is 'z' in SQL (https://stackoverflow.com/questions/73751435: "In all cases of SQL ... chr()
    // truncates the decimal portion of the number")
    expect((await conn.execute("SELECT CHR(122.5), CHR(65 USING NCHAR_CS) FROM dual")).rows).toEqual([["z", "A"]])
    expect((await conn.execute("SELECT CHR(id + 64), CHR(SUM(id) + 64) FROM emp WHERE id = 1 GROUP BY id")).rows).toEqual([["A", "A"]])
  })
})

describe("Oracle test server: CONNECT BY with binds in several clauses", () => {
  it("binds values by their place in the statement, whatever clause the rewrite moves", async () => {
    const s = await withServer({ version: "23ai" })
    const c = await s.connect()
    try {
      await c.execute("CREATE TABLE tree (id NUMBER(4), parent NUMBER(4), tag VARCHAR2(5))")
      for (const [id, parent, tag] of [[1, null, "a"], [2, 1, "b"], [3, 2, "c"], [4, 3, "d"]]) await c.execute("INSERT INTO tree VALUES (:1, :2, :3)", [id, parent, tag])
      const r = await c.execute(
        "SELECT :prefix || tag AS t FROM tree WHERE tag <> :skip START WITH id = :root CONNECT BY PRIOR id = parent AND LEVEL <= :depth",
        { prefix: "x-", skip: "c", root: 2, depth: 3 }
      )
      expect(r.rows).toEqual([["x-b"], ["x-d"]])
    } finally {
      await c.close()
      await s.server.close()
    }
  })
})
