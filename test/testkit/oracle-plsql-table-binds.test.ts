import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

/**
 * `TABLE(:bind)` in a client's SQL with a DbObject collection bind, through raw node-oracledb (SQL Language Reference
 * 23ai, "TABLE Collection Expressions": the collection's elements as rows, `COLUMN_VALUE` for a collection of
 * scalars, one column per attribute for a collection of objects; node-oracledb documentation, "Binding Named Types").
 */
describe("Oracle test server: TABLE(:bind) over DbObject collections", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TYPE tb_num_list AS TABLE OF NUMBER")
    await conn.execute("CREATE TYPE tb_person AS OBJECT (id NUMBER, name VARCHAR2(20))")
    await conn.execute("CREATE TYPE tb_person_list AS TABLE OF tb_person")
    await conn.execute("CREATE TABLE tb_item (id NUMBER, name VARCHAR2(20))")
    await conn.execute("INSERT INTO tb_item VALUES (1, 'one')")
    await conn.execute("INSERT INTO tb_item VALUES (2, 'two')")
    await conn.execute("INSERT INTO tb_item VALUES (3, 'three')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("selects a collection of scalars as COLUMN_VALUE rows, joins and filters with it", async () => {
    const NumList = await conn.getDbObjectClass("TB_NUM_LIST")
    const r = await conn.execute("SELECT column_value FROM TABLE(:ids) ORDER BY 1", { ids: new NumList([3, 1, 2]) })
    expect(r.metaData.map((m: { name: string }) => m.name)).toEqual(["COLUMN_VALUE"])
    expect(r.rows).toEqual([[1], [2], [3]])
    const joined = await conn.execute("SELECT i.name FROM tb_item i WHERE i.id IN (SELECT column_value FROM TABLE(:ids)) AND i.id > :min ORDER BY i.id", {
      ids: new NumList([1, 3]),
      min: 0
    })
    expect(joined.rows).toEqual([["one"], ["three"]])
    const empty = await conn.execute("SELECT COUNT(*) FROM TABLE(:ids)", { ids: new NumList([]) })
    expect(empty.rows).toEqual([[0]])
  })

  it("selects a collection of objects with one column per attribute", async () => {
    const People = await conn.getDbObjectClass("TB_PERSON_LIST")
    const r = await conn.execute("SELECT p.name, p.id FROM TABLE(:people) p WHERE p.id <> 2 ORDER BY p.id", {
      people: new People([
        { ID: 1, NAME: "ann" },
        { ID: 2, NAME: "bob" },
        { ID: 3, NAME: "cy" }
      ])
    })
    expect(r.rows).toEqual([
      ["ann", 1],
      ["cy", 3]
    ])
  })

  it("CAST(MULTISET(subquery) AS type) makes a collection of the subquery's rows (scalars and objects)", async () => {
    // SQL Language Reference, "CAST": MULTISET informs Oracle to take the subquery's result set and return a collection value
    const r = await conn.execute("SELECT CAST(MULTISET(SELECT id FROM tb_item WHERE id > :m ORDER BY id) AS tb_num_list) AS ids FROM dual", { m: 1 })
    expect(r.rows[0][0].toJSON()).toEqual([2, 3])
    const people = await conn.execute("SELECT CAST(MULTISET(SELECT id, name FROM tb_item ORDER BY id DESC) AS tb_person_list) FROM dual")
    expect(people.rows[0][0].toJSON()).toEqual([
      { ID: 3, NAME: "three" },
      { ID: 2, NAME: "two" },
      { ID: 1, NAME: "one" }
    ])
    const none = await conn.execute("SELECT CAST(MULTISET(SELECT id FROM tb_item WHERE 1 = 0) AS tb_num_list) FROM dual")
    expect(none.rows[0][0].toJSON()).toEqual([])
  })

  it("MULTISET UNION / INTERSECT / EXCEPT [ALL | DISTINCT] of two collection binds", async () => {
    // SQL Language Reference, "Multiset Operators": ALL (the default) keeps duplicates, DISTINCT removes them;
    // INTERSECT ALL keeps an element as often as both hold it, EXCEPT ALL removes it as often as the right one holds it
    const NumList = await conn.getDbObjectClass("TB_NUM_LIST")
    const a = new NumList([1, 2, 2, 3])
    const b = new NumList([2, 3, 3, 4])
    const r = await conn.execute(
      `SELECT :a1 MULTISET UNION :b1, :a2 MULTISET UNION DISTINCT :b2, :a3 MULTISET INTERSECT :b3,
              :a4 MULTISET EXCEPT :b4, :a5 MULTISET EXCEPT DISTINCT :b5 FROM dual`,
      { a1: a, b1: b, a2: a, b2: b, a3: a, b3: b, a4: a, b4: b, a5: a, b5: b }
    )
    expect(r.rows[0].map((c: { toJSON(): unknown }) => c.toJSON())).toEqual([[1, 2, 2, 3, 2, 3, 3, 4], [1, 2, 3, 4], [2, 3], [1, 2], [1]])
  })

  it("TABLE(:bind) in a client's UPDATE and DELETE", async () => {
    const NumList = await conn.getDbObjectClass("TB_NUM_LIST")
    const u = await conn.execute("UPDATE tb_item SET name = UPPER(name) WHERE id IN (SELECT column_value FROM TABLE(:ids))", { ids: new NumList([1, 2]) })
    expect(u.rowsAffected).toBe(2)
    const d = await conn.execute("DELETE FROM tb_item WHERE id IN (SELECT column_value FROM TABLE(:ids)) AND name <> :keep", { ids: new NumList([2, 3]), keep: "TWO" })
    expect(d.rowsAffected).toBe(1)
    expect((await conn.execute("SELECT id, name FROM tb_item ORDER BY id")).rows).toEqual([
      [1, "ONE"],
      [2, "TWO"]
    ])
    await conn.rollback()
  })
})
