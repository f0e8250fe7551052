import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// JSON_TABLE through the raw node-oracledb client. Expected values follow the SQL Language Reference ("JSON_TABLE")
// and the JSON Developer's Guide ("SQL/JSON Function JSON_TABLE", "COLUMNS Clause of SQL/JSON Function JSON_TABLE":
// laterally joined with earlier FROM items, FOR ORDINALITY numbering from 1, VARCHAR2(4000) by default, NESTED PATH as
// an outer join, sibling NESTED clauses as a union join, NULL ON ERROR / NULL ON EMPTY by default).
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: JSON_TABLE", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE orders (id NUMBER, doc VARCHAR2(400))")
    await conn.execute(`INSERT INTO orders VALUES (1, '{"items":[{"sku":"a","qty":2,"tags":["x","y"]},{"sku":"b","qty":"many","tags":[]}],"ship":{"city":"Oslo"}}')`)
    await conn.execute(`INSERT INTO orders VALUES (2, '{"items":[]}')`)
    await conn.execute(`INSERT INTO orders VALUES (3, 'not json')`)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("makes a row per item the row path selects, laterally joined to the table; missing and unconvertible values are NULL", async () => {
    const r = await conn.execute(
      `SELECT o.id, jt.* FROM orders o, JSON_TABLE(o.doc, '$.items[*]'
         COLUMNS (n FOR ORDINALITY, sku VARCHAR2(10) PATH '$.sku', qty NUMBER PATH '$.qty', "note" PATH '$.note')) jt
        ORDER BY o.id, jt.n`
    )
    expect(r.rows).toEqual([
      [1, 1, "a", 2, null],
      [1, 2, "b", null, null]
    ])
    expect(r.metaData.map((m: { name: string; dbTypeName: string }) => [m.name, m.dbTypeName])).toEqual([
      ["ID", "NUMBER"],
      ["N", "NUMBER"],
      ["SKU", "VARCHAR2"],
      ["QTY", "NUMBER"],
      ["note", "VARCHAR2"]
    ])
  })

  it("NESTED PATH is an outer join: a parent whose nested path selects nothing keeps one row", async () => {
    expect(
      (
        await conn.execute(
          `SELECT jt.sku, jt.tag, jt.k FROM orders o, JSON_TABLE(o.doc, '$.items[*]'
             COLUMNS (sku PATH '$.sku', NESTED PATH '$.tags[*]' COLUMNS (k FOR ORDINALITY, tag PATH '$'))) jt
            WHERE o.id = 1 ORDER BY 1, 3`
        )
      ).rows
    ).toEqual([
      ["a", "x", 1],
      ["a", "y", 2],
      ["b", null, null]
    ])
  })

  it("sibling NESTED clauses give a union join; FORMAT JSON and EXISTS columns read as JSON_QUERY and JSON_EXISTS", async () => {
    expect(
      (
        await conn.execute(
          `SELECT jt.* FROM orders o, JSON_TABLE(o.doc, '$'
             COLUMNS (city PATH '$.ship.city', items VARCHAR2(200) FORMAT JSON PATH '$.items[0].tags', has_ship EXISTS PATH '$.ship',
                      NESTED PATH '$.items[*]' COLUMNS (sku PATH '$.sku'),
                      NESTED PATH '$.items[0].tags[*]' COLUMNS (tag PATH '$'))) jt
            WHERE o.id = 1 ORDER BY jt.sku, jt.tag`
        )
      ).rows
    ).toEqual([
      ["Oslo", '["x","y"]', "true", "a", null],
      ["Oslo", '["x","y"]', "true", "b", null],
      ["Oslo", '["x","y"]', "true", null, "x"],
      ["Oslo", '["x","y"]', "true", null, "y"]
    ])
  })

  it("reads a bind, and ERROR ON ERROR raises the error NULL ON ERROR hides", async () => {
    expect((await conn.execute(`SELECT v FROM JSON_TABLE(:d, '$[*]' COLUMNS (v NUMBER PATH '$')) ORDER BY v`, ['[3, 1, "x", 2]'])).rows).toEqual([[1], [2], [3], [null]])
    expect(oraCode(await failure(() => conn.execute(`SELECT v FROM JSON_TABLE(:d, '$[*]' ERROR ON ERROR COLUMNS (v NUMBER PATH '$'))`, ['[3, 1, "x", 2]'])))).toBe("ORA-01722")
  })

  it("aggregates and computes on NUMBER columns and JSON_VALUE ... RETURNING NUMBER values exactly", async () => {
    // SUM over a JSON_TABLE NUMBER column failed ORA-00932: its values are exact NUMBERs, as JSON_VALUE's are
    expect((await conn.execute(`SELECT SUM(jt.n), MAX(jt.n) * 2 FROM JSON_TABLE('[{"n":1},{"n":2.5},{"n":0.1}]', '$[*]' COLUMNS (n NUMBER PATH '$.n')) jt`)).rows).toEqual([[3.6, 5]])
    expect((await conn.execute(`SELECT SUM(x) FROM (SELECT JSON_VALUE('{"a":0.1}', '$.a' RETURNING NUMBER) x FROM dual UNION ALL SELECT JSON_VALUE('{"a":0.2}', '$.a' RETURNING NUMBER) FROM dual)`)).rows).toEqual([[0.3]])
  })

  // AskTom "JSON_TABLE functionality change from 12.1 to 19c" (19.18, answered by Chris Saxon): a JSON null where the
  // row path steps into an array gives a row of NULL columns ("The 19c behaviour is correct").
  it("a null the row path's array step meets is a row of NULLs, as on 19c", async () => {
    const doc = `'{data:[{"id":"a","audits":[{"policy_num":"10","policy_name":"Sally"},{"policy_num":"20","policy_name":"John"}]},{"id":"b","audits":null}]}'`
    const r = await conn.execute(`SELECT x.pol_num, x.pol_name FROM JSON_TABLE(${doc}, '$.data[ * ].audits[ * ]' COLUMNS (id FOR ORDINALITY, pol_num PATH '$.policy_num', pol_name PATH '$.policy_name')) x`)
    expect(r.rows).toEqual([
      ["10", "Sally"],
      ["20", "John"],
      [null, null]
    ])
  })

  // René Nyffenegger's JSON_TABLE notes (renenyffenegger.ch/notes/development/databases/Oracle/SQL/functions/json/table/index)
  // run these on Oracle: unquoted lower-case column names without PATH read the lower-case keys, and PATH takes simple
  // dot notation (`path dct.val_1`).
  it("reads a column without PATH by its name as written, and takes a dot-notation PATH", async () => {
    const doc = `'{"num": 42, "txt": "Hello world", "ary": ["foo", "bar", "baz"], "dct": {"val_1": "one", "val_2": "two"}}'`
    expect((await conn.execute(`SELECT t.num, t.txt FROM JSON_TABLE(${doc}, '$' COLUMNS (num NUMBER, txt VARCHAR2(20))) t`)).rows).toEqual([[42, "Hello world"]])
    const dotted = `SELECT t.num, t.dct_val_1, t.dct_val_2 FROM JSON_TABLE(${doc}, '$'
      COLUMNS (num NUMBER, dct_val_1 VARCHAR2(10) PATH dct.val_1, dct_val_2 VARCHAR2(10) PATH dct.val_2 ERROR ON ERROR)) t`
    expect((await conn.execute(dotted)).rows).toEqual([[42, "one", "two"]])
  })
})
