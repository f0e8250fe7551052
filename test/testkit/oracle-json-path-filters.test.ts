import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

// SQL/JSON path filter expressions and JSON_VALUE's DEFAULT ... ON EMPTY through raw node-oracledb. Expected values
// follow the JSON Developer's Guide 23ai: "Using Filters with JSON_EXISTS" (a filter applies to the path before it,
// `@` is the current item, e.g. each element of an array: `$.LineItems?(@.Part.UPCCode == 85391628927)`), "TYPE Clause
// for SQL Functions and Conditions" (lax: "'$.PONumber?(@ > 20)' implicitly interprets a PONumber value of "314" as
// the number 314") and "Empty-Field Clause for SQL/JSON Query Functions" (DEFAULT ... ON EMPTY for a missing field).
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: SQL/JSON path filters and ON EMPTY", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE jpf (id NUMBER, doc VARCHAR2(400))")
    await conn.executeMany("INSERT INTO jpf VALUES (:1, :2)", [
      [1, '{"po":"314","items":[{"part":"a","qty":1,"price":9.5},{"part":"b","qty":5,"price":20}],"tags":["x","y"],"ok":true}'],
      [2, '{"po":12,"items":[{"part":"c","qty":2,"price":100.50}],"tags":[],"ok":false,"note":"rush order"}'],
      [3, '{"po":null,"items":{"part":"abc","qty":7}}'],
      [4, "not json"]
    ])
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const ids = async (where: string, binds: unknown = []) => ((await conn.execute(`SELECT id FROM jpf WHERE ${where} ORDER BY id`, binds)).rows as Array<Array<number>>).map((r) => r[0])

  it("JSON_EXISTS with a filter selects the documents with matching data", async () => {
    // each element of an array is a current item; a lone object stands for a one-element array (lax)
    expect(await ids(`JSON_EXISTS(doc, '$.items?(@.qty > 4)')`)).toEqual([1, 3])
    expect(await ids(`JSON_EXISTS(doc, '$.items[*]?(@.price >= 100.5)')`)).toEqual([2])
    // a numeric string compares as a number, a non-numeric one never does
    expect(await ids(`JSON_EXISTS(doc, '$.po?(@ > 20)')`)).toEqual([1])
    expect(await ids(`JSON_EXISTS(doc, '$?(@.po == null)')`)).toEqual([3])
    expect(await ids(`JSON_EXISTS(doc, '$.items?(@.part == "b" && @.qty == 5)')`)).toEqual([1])
    expect(await ids(`JSON_EXISTS(doc, '$.items?(@.part == "zz" || @.qty < 2)')`)).toEqual([1])
    expect(await ids(`JSON_EXISTS(doc, '$?(exists(@.note))')`)).toEqual([2])
    expect(await ids(`JSON_EXISTS(doc, '$?(!(exists(@.note)) && @.ok == true)')`)).toEqual([1])
    expect(await ids(`JSON_EXISTS(doc, '$.items?(@.part starts with "a")')`)).toEqual([1, 3])
    expect(await ids(`JSON_EXISTS(doc, '$?(@.note has substring "rush")')`)).toEqual([2])
    expect(await ids(`JSON_EXISTS(doc, '$.items?(@.part like_regex "^A" flag "i")')`)).toEqual([1, 3])
    expect(await ids(`JSON_EXISTS(doc, '$.tags?(@ == "y")')`)).toEqual([1])
    // a filter's $ is the whole document
    expect(await ids(`JSON_EXISTS(doc, '$.items?(@.qty < $.po)')`)).toEqual([1, 2])
    expect(await ids(`JSON_EXISTS(doc, '$.items?(@.qty > $.po)')`)).toEqual([])
    expect(await ids(`NOT JSON_EXISTS(doc, '$.items?(@.qty > 100)')`)).toEqual([1, 2, 3, 4])
    // filters work in JSON_VALUE and JSON_QUERY too
    const q = await conn.execute(`SELECT JSON_VALUE(doc, '$.items?(@.qty > 4).part'), JSON_QUERY(doc, '$.items?(@.price > 1).part' WITH WRAPPER) FROM jpf WHERE id = 1`)
    expect(q.rows).toEqual([["b", '["a","b"]']])
  })

  it("takes SQL/JSON variables from PASSING and refuses a malformed filter", async () => {
    expect(await ids(`JSON_EXISTS(doc, '$?(@.po == $v)' PASSING 12 AS "v")`)).toEqual([2])
    expect(oraCode(await failure(() => conn.execute(`SELECT id FROM jpf WHERE JSON_EXISTS(doc, '$?(@.po ==)')`)))).toBe("ORA-40597")
  })

  it("JSON_VALUE ... DEFAULT value ON EMPTY gives the value for a missing field only", async () => {
    const r = await conn.execute(
      `SELECT id, JSON_VALUE(doc, '$.note' DEFAULT 'none' ON EMPTY),
              JSON_VALUE(doc, '$.items[0].qty' RETURNING NUMBER DEFAULT -1 ON EMPTY),
              JSON_VALUE(doc, '$.po' NULL ON ERROR DEFAULT :d ON EMPTY)
         FROM jpf ORDER BY id`,
      { d: "no po" }
    )
    // a JSON null is no empty result (NULL), a document that is no JSON is an error (NULL ON ERROR)
    expect(r.rows).toEqual([
      [1, "none", 1, "314"],
      [2, "rush order", 2, "12"],
      [3, "none", 7, null],
      [4, null, null, null]
    ])
    expect((await conn.execute(`SELECT JSON_VALUE('{"a":1}', '$.b' DEFAULT 'd' ON EMPTY) FROM dual`)).rows).toEqual([["d"]])
  })
})
