import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, oracledb, withServer } from "./oracle/helpers.ts"

// JSON_SERIALIZE and the SQL/JSON aggregates through the raw node-oracledb client. Expected values follow the SQL
// Language Reference 23ai ("JSON_SERIALIZE": VARCHAR2(4000) by default, a BLOB holds UTF-8 text, PRETTY / ASCII /
// ORDERED, TRUNCATE, ERROR ON ERROR by default; its example prints `"currency" : "\u20AC"` two blanks in;
// "JSON_ARRAYAGG", "JSON_OBJECTAGG": ORDER BY, NULL / ABSENT ON NULL with ABSENT ON NULL the JSON_ARRAYAGG default and
// NULL ON NULL the JSON_OBJECTAGG one, VARCHAR2(4000) results unless RETURNING says otherwise).
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: JSON_SERIALIZE, JSON_ARRAYAGG, JSON_OBJECTAGG", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE jdocs (id NUMBER, grp VARCHAR2(5), name VARCHAR2(20), n NUMBER, doc VARCHAR2(400), js JSON)")
    await conn.execute(`INSERT INTO jdocs VALUES (1, 'a', 'one', 1.50, '{"price":20,"currency":"€","list":[1,{"b":true}]}', '{"d":{"$oracleDate":"2024-01-02T00:00:00"},"v":[1]}')`)
    await conn.execute(`INSERT INTO jdocs VALUES (2, 'a', 'two', NULL, 'not json', NULL)`)
    await conn.execute(`INSERT INTO jdocs VALUES (3, 'b', 'three', 3, '[]', NULL)`)
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const rows = async (sql: string) => (await conn.execute(sql)).rows

  it("JSON_SERIALIZE writes standard JSON text, VARCHAR2 by default; a JSON column's date is an ISO string", async () => {
    const r = await conn.execute(`SELECT JSON_SERIALIZE(doc), JSON_SERIALIZE(js) FROM jdocs WHERE id = 1`)
    expect(r.rows).toEqual([['{"price":20,"currency":"€","list":[1,{"b":true}]}', '{"d":"2024-01-02T00:00:00","v":[1]}']])
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["VARCHAR2", "VARCHAR2"])
  })

  it("JSON_SERIALIZE ... ASCII PRETTY ORDERED prints as the reference's example", async () => {
    expect(await rows(`SELECT JSON_SERIALIZE('{"price":20, "currency":"€"}' ASCII PRETTY ORDERED) FROM dual`)).toEqual([['{\n  "currency" : "\\u20AC",\n  "price" : 20\n}']])
    expect(await rows(`SELECT JSON_SERIALIZE('{"a":[1,{"b":null}],"e":{}}' PRETTY) FROM dual`)).toEqual([['{\n  "a" :\n  [\n    1,\n    {\n      "b" : null\n    }\n  ],\n  "e" : {}\n}']])
  })

  // A real 19c JSON_SERIALIZE(... RETURNING CLOB PRETTY) output (gaiansentience/practicalplsql,
  // scripts/articles/json/dynamic-unpivot-dataguide/design-1.2-test_jdoc-query.sql): an array member value starts on
  // the line after `"my_shapes" :`, its bracket at the key's indentation.
  it("JSON_SERIALIZE PRETTY puts a member's array or object on the line after its key, as Oracle prints it", async () => {
    const doc = '{"my_shapes":[{"name":"square","side":5},{"name":"circle","radius":3}]}'
    expect(await rows(`SELECT JSON_SERIALIZE('${doc}' PRETTY) FROM dual`)).toEqual([
      [['{', '  "my_shapes" :', '  [', '    {', '      "name" : "square",', '      "side" : 5', '    },', '    {', '      "name" : "circle",', '      "radius" : 3', '    }', '  ]', '}'].join("\n")],
    ])
  })

  it("JSON_SERIALIZE RETURNING VARCHAR2(n) TRUNCATE cuts, without TRUNCATE fails; CLOB and BLOB results", async () => {
    expect(await rows(`SELECT JSON_SERIALIZE('{"a":[1,2,3,4]}' RETURNING VARCHAR2(3) TRUNCATE) FROM dual`)).toEqual([['{"a']])
    expect(oraCode(await failure(() => conn.execute(`SELECT JSON_SERIALIZE('{"a":[1,2,3,4]}' RETURNING VARCHAR2(3)) FROM dual`)))).toBe("ORA-40478")
    const r = await conn.execute(`SELECT JSON_SERIALIZE(doc RETURNING CLOB), JSON_SERIALIZE(doc RETURNING BLOB) FROM jdocs WHERE id = 3`, [], {
      fetchInfo: { '"JSON_SERIALIZE(DOCRETURNINGCLOB)"': { type: oracledb.STRING } }
    })
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["CLOB", "BLOB"])
    const [clob, blob] = r.rows[0]
    const text = typeof clob === "string" ? clob : await clob.getData()
    const bytes = Buffer.isBuffer(blob) ? blob : await blob.getData()
    expect([text, bytes.toString("utf8")]).toEqual(["[]", "[]"])
  })

  it("JSON_SERIALIZE of text that is no JSON fails (ERROR ON ERROR), NULL ON ERROR gives NULL", async () => {
    expect(oraCode(await failure(() => conn.execute(`SELECT JSON_SERIALIZE(doc) FROM jdocs WHERE id = 2`)))).toBe("ORA-40441")
    expect(await rows(`SELECT JSON_SERIALIZE(doc NULL ON ERROR) FROM jdocs WHERE id = 2`)).toEqual([[null]])
  })

  it("JSON_ARRAYAGG orders its elements, leaves NULLs out by default and writes them with NULL ON NULL", async () => {
    expect(await rows(`SELECT JSON_ARRAYAGG(n ORDER BY id DESC) FROM jdocs`)).toEqual([["[3,1.5]"]])
    expect(await rows(`SELECT JSON_ARRAYAGG(n ORDER BY id NULL ON NULL) FROM jdocs`)).toEqual([["[1.5,null,3]"]])
    expect(await rows(`SELECT grp, JSON_ARRAYAGG(name ORDER BY name) FROM jdocs GROUP BY grp ORDER BY grp`)).toEqual([
      ["a", '["one","two"]'],
      ["b", '["three"]']
    ])
    // FORMAT JSON and nested generation results are used as JSON
    expect(await rows(`SELECT JSON_ARRAYAGG(JSON_OBJECT('id' VALUE id) ORDER BY id) FROM jdocs WHERE id <> 2`)).toEqual([['[{"id":1},{"id":3}]']])
    const r = await conn.execute(`SELECT JSON_ARRAYAGG(id ORDER BY id RETURNING CLOB) FROM jdocs`, [], { fetchInfo: { '"JSON_ARRAYAGG(IDORDERBYIDRETURNINGCLOB)"': { type: oracledb.STRING } } })
    expect(r.metaData[0]).toMatchObject({ dbTypeName: "CLOB" })
  })

  it("JSON_OBJECTAGG writes NULL values as null by default, leaves them out with ABSENT ON NULL", async () => {
    expect(await rows(`SELECT JSON_OBJECTAGG(KEY name VALUE n) FROM jdocs WHERE id <= 2`)).toEqual([['{"one":1.5,"two":null}']])
    expect(await rows(`SELECT JSON_OBJECTAGG(name VALUE n ABSENT ON NULL) FROM jdocs`)).toEqual([['{"one":1.5,"three":3}']])
    expect(await rows(`SELECT grp, JSON_OBJECTAGG(name VALUE id) FROM jdocs WHERE id <> 2 GROUP BY grp ORDER BY grp`)).toEqual([
      ["a", '{"one":1}'],
      ["b", '{"three":3}']
    ])
  })

  // Oracle gives an empty JSON array when rows are aggregated but every value is left out, SQL NULL over no rows
  // (tested against Oracle in h2database/h2database issue #2928, "JSON_ARRAYAGG and all NULL values"); JSON_OBJECTAGG
  // ABSENT ON NULL is taken to do the same with `{}` (README: unconfirmed).
  it("JSON_ARRAYAGG over rows whose values are all left out is [], over no rows NULL", async () => {
    expect(await rows(`SELECT JSON_ARRAYAGG(n) FROM jdocs WHERE id = 2`)).toEqual([["[]"]])
    expect(await rows(`SELECT grp, JSON_ARRAYAGG(n) FROM jdocs WHERE id <> 3 GROUP BY grp`)).toEqual([["a", "[1.5]"]])
    expect(await rows(`SELECT grp, JSON_ARRAYAGG(n ORDER BY id) FROM jdocs WHERE id = 2 GROUP BY grp`)).toEqual([["a", "[]"]])
    expect(await rows(`SELECT JSON_ARRAYAGG(n) FROM jdocs WHERE id = 99`)).toEqual([[null]])
    expect(await rows(`SELECT JSON_OBJECTAGG(name VALUE n ABSENT ON NULL) FROM jdocs WHERE id = 2`)).toEqual([["{}"]])
    expect(await rows(`SELECT JSON_OBJECTAGG(name VALUE n) FROM jdocs WHERE id = 99`)).toEqual([[null]])
  })
})
