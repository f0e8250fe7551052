/**
 * Oracle test server: multiset conditions and equality over nested tables of object types compare the objects by the
 * type's MAP or ORDER member function, in PL/SQL and (MEMBER OF) in SQL (raw node-oracledb). Object-Relational Developer's Guide, "Comparing
 * Objects" (a MAP method maps an object to a scalar that is compared; an ORDER method answers negative, 0 or positive
 * for a pair); SQL Language Reference, "Multiset Conditions" (IS A SET, MEMBER OF); PL/SQL Language Reference,
 * "Comparing Nested Tables for Equality and Inequality".
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

/** Y, N or ? (NULL) for each condition of `conditions`, evaluated in a block declaring `declarations`. */
const answers = async (declarations: string, conditions: ReadonlyArray<string>): Promise<string> => {
  const body = conditions.map((c) => `b := ${c}; IF b THEN r := r || 'Y'; ELSIF NOT b THEN r := r || 'N'; ELSE r := r || '?'; END IF;`).join(" ")
  const result = await conn.execute(`DECLARE ${declarations} b BOOLEAN; r VARCHAR2(100) := ''; BEGIN ${body} :out := r; END;`, { out: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 } })
  return result.outBinds.out
}

describe("Oracle test server: multisets of objects compare by MAP / ORDER methods (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      "CREATE TYPE mm_pt AS OBJECT (x NUMBER, y NUMBER, MAP MEMBER FUNCTION m RETURN NUMBER)",
      "CREATE TYPE BODY mm_pt AS MAP MEMBER FUNCTION m RETURN NUMBER IS BEGIN RETURN x + y; END; END;",
      "CREATE TYPE mm_pts AS TABLE OF mm_pt",
      "CREATE TYPE mm_op AS OBJECT (x NUMBER, y NUMBER, ORDER MEMBER FUNCTION o(other mm_op) RETURN NUMBER)",
      "CREATE TYPE BODY mm_op AS ORDER MEMBER FUNCTION o(other mm_op) RETURN NUMBER IS BEGIN RETURN SIGN(x - other.x); END; END;",
      "CREATE TYPE mm_ops AS TABLE OF mm_op",
      "CREATE TYPE mm_plain AS OBJECT (x NUMBER, y NUMBER)",
      "CREATE TYPE mm_plains AS TABLE OF mm_plain",
      "CREATE TABLE mm_t (id NUMBER, c mm_pts, o mm_pt, d mm_ops) NESTED TABLE c STORE AS mm_t_c NESTED TABLE d STORE AS mm_t_d",
      "INSERT INTO mm_t VALUES (1, mm_pts(mm_pt(1, 2), mm_pt(5, 5)), mm_pt(2, 1), mm_ops(mm_op(1, 2)))",
      "INSERT INTO mm_t VALUES (2, mm_pts(mm_pt(1, 1)), mm_pt(2, 2), mm_ops(mm_op(2, 2)))",
      "INSERT INTO mm_t VALUES (3, mm_pts(), mm_pt(0, 0), mm_ops())"
    ]) await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a MAP method: objects mapping to one value are the same element", async () => {
    const decl = "c mm_pts := mm_pts(mm_pt(1, 2), mm_pt(3, 0)); d mm_pts := mm_pts(mm_pt(0, 3), mm_pt(2, 1)); e mm_pts := mm_pts(mm_pt(1, 2), mm_pt(5, 5)); p mm_pt := mm_pt(2, 1); q mm_pt := mm_pt(9, 9);"
    expect(await answers(decl, ["c IS A SET", "e IS A SET", "p MEMBER OF e", "q MEMBER OF e", "c = d", "c SUBMULTISET OF d"])).toBe("NYYNYY")
  })

  it("an ORDER method: objects it orders 0 are the same element", async () => {
    const decl = "c mm_ops := mm_ops(mm_op(1, 2), mm_op(1, 5)); e mm_ops := mm_ops(mm_op(1, 2), mm_op(2, 2)); p mm_op := mm_op(1, 9); q mm_op := mm_op(3, 2);"
    expect(await answers(decl, ["c IS A SET", "e IS A SET", "p MEMBER OF e", "q MEMBER OF e"])).toBe("NYYN")
  })

  it("MEMBER OF a nested table column in SQL compares by the MAP or ORDER method; NULL for an empty collection", async () => {
    const ids = async (where: string) => (await conn.execute(`SELECT t.id FROM mm_t t WHERE ${where} ORDER BY t.id`)).rows
    expect(await ids("mm_pt(2, 1) MEMBER OF t.c")).toEqual([[1]])
    expect(await ids("t.o MEMBER t.c")).toEqual([[1]])
    expect(await ids("mm_pt(0, 3) NOT MEMBER OF t.c")).toEqual([[2]])
    expect(await ids("mm_op(1, 99) MEMBER OF t.d")).toEqual([[1]])
    expect((await conn.execute("SELECT t.id, CASE WHEN mm_pt(10, 0) MEMBER OF t.c THEN 'Y' ELSE 'N' END FROM mm_t t ORDER BY t.id")).rows).toEqual([[1, "Y"], [2, "N"], [3, "N"]])
  })

  it("IS A SET of a nested table column in SQL compares by the MAP method", async () => {
    await conn.execute("INSERT INTO mm_t VALUES (4, mm_pts(mm_pt(1, 2), mm_pt(3, 0)), NULL, NULL)")
    await conn.execute("INSERT INTO mm_t VALUES (5, NULL, NULL, NULL)")
    expect((await conn.execute("SELECT t.id, CASE WHEN t.c IS A SET THEN 'Y' WHEN t.c IS NOT A SET THEN 'N' ELSE '?' END FROM mm_t t ORDER BY t.id")).rows).toEqual([[1, "Y"], [2, "Y"], [3, "Y"], [4, "N"], [5, "?"]])
    await conn.rollback()
  })

  it("without MAP or ORDER: attribute by attribute", async () => {
    const decl = "c mm_plains := mm_plains(mm_plain(1, 2), mm_plain(2, 1)); p mm_plain := mm_plain(1, 2); q mm_plain := mm_plain(3, 0);"
    expect(await answers(decl, ["c IS A SET", "p MEMBER OF c", "q MEMBER OF c"])).toBe("YYN")
  })
})
