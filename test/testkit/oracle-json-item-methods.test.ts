import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { withServer } from "./oracle/helpers.ts"

// SQL/JSON path item methods, descendant steps and SQL/JSON variables (PASSING) through raw node-oracledb. Expected
// values follow the JSON Developer's Guide 23ai: "SQL/JSON Path Expression Syntax" (`..name` descendant steps, array
// steps), "SQL/JSON Path Expression Item Methods" (a method transforms the targeted values; one that does not apply
// makes the path match nothing; lax mode applies it to each array element, size() and type() to the value itself)
// and SQL Language Reference, "JSON_EXISTS Condition" (PASSING expr AS identifier, `$identifier` in the path).
let server: OracleTestServerHandle
let conn: Conn

const ORDER =
  '{"po":"314","name":"Ada","items":[{"part":"a","qty":1,"price":"9.5"},{"part":"b","qty":5,"price":-20.25},{"part":"c","qty":7,"price":3}],"tags":["x","yy"],"ship":{"addr":{"city":"Oslo"},"name":"Bo"},"when":"2024-05-06T07:08:09","ok":"true"}'

describe("Oracle test server: SQL/JSON item methods, descendant steps and PASSING", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE jim (id NUMBER, doc VARCHAR2(1000))")
    await conn.executeMany("INSERT INTO jim VALUES (:1, :2)", [
      [1, ORDER],
      [2, '{"items":[{"part":"z","qty":2}],"tags":"solo"}']
    ])
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const one = async (sql: string, binds: unknown = []) => (await conn.execute(`${sql} FROM jim WHERE id = 1`, binds)).rows?.[0]

  it("JSON_VALUE applies item methods to the targeted value", async () => {
    expect(
      await one(`SELECT JSON_VALUE(doc, '$.items.size()'), JSON_VALUE(doc, '$.tags.size()'), JSON_VALUE(doc, '$.name.size()'),
                        JSON_VALUE(doc, '$.items.type()'), JSON_VALUE(doc, '$.po.type()'), JSON_VALUE(doc, '$.items[0].qty.type()'),
                        JSON_VALUE(doc, '$.po.number() '), JSON_VALUE(doc, '$.items[1].price.abs()'), JSON_VALUE(doc, '$.items[1].price.ceiling()'),
                        JSON_VALUE(doc, '$.items[1].price.floor()'), JSON_VALUE(doc, '$.name.upper()'), JSON_VALUE(doc, '$.name.lower()'),
                        JSON_VALUE(doc, '$.name.length()'), JSON_VALUE(doc, '$.items[2].price.string()'), JSON_VALUE(doc, '$.ok.boolean()')`)
    ).toEqual(["3", "2", "1", "array", "string", "number", "314", "20.25", "-20", "-21", "ADA", "ada", "3", "3", "true"])
    // RETURNING NUMBER over number(): arithmetic on the JSON string "314"
    expect(await one(`SELECT JSON_VALUE(doc, '$.po.number()' RETURNING NUMBER) + 1`)).toEqual([315])
    // a method that does not apply matches nothing: NULL (NULL ON ERROR)
    expect(await one(`SELECT JSON_VALUE(doc, '$.name.number()'), JSON_VALUE(doc, '$.items[0].qty.upper()')`)).toEqual([null, null])
  })

  it("aggregate item methods take every targeted value", async () => {
    expect(
      await one(`SELECT JSON_VALUE(doc, '$.items[*].count()'), JSON_VALUE(doc, '$.items.qty.sum()'), JSON_VALUE(doc, '$.items[*].qty.avg()'),
                        JSON_VALUE(doc, '$.items[*].qty.maxNumber()'), JSON_VALUE(doc, '$.items[*].part.minString()')`)
    ).toEqual(["3", "13", "4.33333333333333333333333333333333333333", "7", "a"])
  })

  it("date() and timestamp() read ISO 8601 strings", async () => {
    const r = await one(`SELECT JSON_VALUE(doc, '$.when.date()' RETURNING DATE), JSON_VALUE(doc, '$.when.timestamp()' RETURNING TIMESTAMP), JSON_VALUE(doc, '$.when.date().type()')`)
    expect(r).toEqual([new Date(2024, 4, 6), new Date(2024, 4, 6, 7, 8, 9), "date"])
  })

  it("item methods end relative paths in filters and JSON_EXISTS conditions", async () => {
    const ids = async (where: string) => ((await conn.execute(`SELECT id FROM jim WHERE ${where} ORDER BY id`)).rows as Array<Array<number>>).map((r) => r[0])
    expect(await ids(`JSON_EXISTS(doc, '$.items?(@.part.upper() == "B")')`)).toEqual([1])
    expect(await ids(`JSON_EXISTS(doc, '$?(@.items.size() > 2)')`)).toEqual([1])
    expect(await ids(`JSON_EXISTS(doc, '$.items?(@.price.number() > 9)')`)).toEqual([1])
    expect(await ids(`JSON_EXISTS(doc, '$.tags?(@.length() == 4)')`)).toEqual([2])
    // a method that does not apply filters the value out
    expect(await ids(`JSON_EXISTS(doc, '$.name.number()')`)).toEqual([])
  })

  it("array steps and descendant steps select in document order", async () => {
    expect(
      await one(`SELECT JSON_QUERY(doc, '$.items[0].part' WITH WRAPPER), JSON_QUERY(doc, '$.items[*].part' WITH WRAPPER), JSON_QUERY(doc, '$.items[1 to 2].qty' WITH WRAPPER),
                        JSON_VALUE(doc, '$.items[last].part'), JSON_QUERY(doc, '$.items[last - 1, 0].part' WITH WRAPPER),
                        JSON_QUERY(doc, '$..name' WITH WRAPPER), JSON_VALUE(doc, '$..city'), JSON_QUERY(doc, '$..part' WITH WRAPPER)`)
    ).toEqual(['["a"]', '["a","b","c"]', "[5,7]", "c", '["b","a"]', '["Ada","Bo"]', "Oslo", '["a","b","c"]'])
  })

  it("JSON_TABLE column paths take item methods and descendant steps", async () => {
    const r = await conn.execute(
      `SELECT jt.* FROM jim, JSON_TABLE(jim.doc, '$' COLUMNS (n NUMBER PATH '$.items.size()', city PATH '$..city', first PATH '$.items[0].part.upper()')) jt WHERE jim.id = 1`
    )
    expect(r.rows).toEqual([[3, "Oslo", "A"]])
  })

  it("SQL/JSON variables take their PASSING values", async () => {
    const ids = async (where: string, binds: unknown = []) => ((await conn.execute(`SELECT id FROM jim WHERE ${where} ORDER BY id`, binds)).rows as Array<Array<number>>).map((r) => r[0])
    expect(await ids(`JSON_EXISTS(doc, '$.items[*]?(@.qty > $q)' PASSING 5 AS "q")`)).toEqual([1])
    expect(await ids(`JSON_EXISTS(doc, '$.items[*]?(@.qty > $q)' PASSING 1 AS "q")`)).toEqual([1, 2])
    expect(await ids(`JSON_EXISTS(doc, '$.items[*]?(@.part == $p && @.qty >= $q)' PASSING :p AS "p", :q AS "q")`, { p: "z", q: 2 })).toEqual([2])
    // an unquoted name is upper-cased, as any SQL identifier
    expect(await ids(`JSON_EXISTS(doc, '$.items?(@.part == $P)' PASSING 'c' AS p)`)).toEqual([1])
    // PASSING in JSON_VALUE and JSON_QUERY
    expect(await one(`SELECT JSON_VALUE(doc, '$.items?(@.qty == $n).part' PASSING 5 AS "n"), JSON_QUERY(doc, '$.items?(@.qty < $n).part' PASSING 6 AS "n" WITH WRAPPER)`)).toEqual([
      "b",
      '["a","b"]'
    ])
  })
})
