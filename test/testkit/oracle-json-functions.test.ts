import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, oracledb, withServer } from "./oracle/helpers.ts"

// SQL/JSON functions and conditions through the raw node-oracledb client. Expected values follow the Oracle SQL
// Language Reference (JSON_VALUE, JSON_QUERY, JSON_EXISTS Condition, IS JSON Condition, JSON_OBJECT, JSON_ARRAY) and
// the JSON Developer's Guide 23ai ("Handling of Input Values For SQL/JSON Generation Functions": VARCHAR2(4000) by
// default; "Wrapper Clause for SQL/JSON Query Functions"; "JSON Scalar Allowed at Top Level (RFC 8259 Support)").
let server: OracleTestServerHandle
let conn: Conn

const DOC = '{"a":"x","b":[1,2,{"c":true}],"n":1.50,"s":null,"q":"say \\"hi\\""}'

describe("Oracle test server: SQL/JSON functions (23ai)", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE docs (id NUMBER, doc VARCHAR2(400), n NUMBER, p NUMBER(5,2), dt DATE, js JSON)")
    await conn.execute(`INSERT INTO docs VALUES (1, :d, 0.5, 1.25, DATE '2024-03-01', '{"k":{"$oracleDate":"2024-01-02T00:00:00"},"v":[1]}')`, [DOC])
    await conn.execute("INSERT INTO docs (id, doc) VALUES (2, 'not json')")
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const rows = async (sql: string, binds: unknown = []) => (await conn.execute(sql, binds)).rows

  it("JSON_VALUE returns a scalar's text without JSON quotes; objects, arrays, JSON null and missing targets are NULL", async () => {
    const r = await conn.execute(
      `SELECT JSON_VALUE(doc, '$.a'), JSON_VALUE(doc, '$.q'), JSON_VALUE(doc, '$.b[2].c'), JSON_VALUE(doc, '$.b'),
              JSON_VALUE(doc, '$.s'), JSON_VALUE(doc, '$.zz'), JSON_VALUE(doc, '$.b[last]'), JSON_VALUE(doc, '$.b[0]')
         FROM docs ORDER BY id`
    )
    expect(r.rows).toEqual([
      ["x", 'say "hi"', "true", null, null, null, null, "1"],
      [null, null, null, null, null, null, null, null]
    ])
    // VARCHAR2 by default, headed as Oracle heads the unaliased expression
    expect(r.metaData[0]).toMatchObject({ name: "JSON_VALUE(DOC,'$.A')", dbTypeName: "VARCHAR2" })
    expect(await rows(`SELECT id FROM docs WHERE JSON_VALUE(doc, '$.a') = 'x'`)).toEqual([[1]])
  })

  // 23ai's message texts name the path: its Reference's JSON_BEHAVIOR example shows "ORA-40470: JSON query '$.a'
  // evaluated to multiple values." for this call, and https://docs.oracle.com/en/error-help/db/ora-40456 gives "JSON
  // path 'string' evaluated to non-scalar value." for 23ai (19c / 21c: "JSON_VALUE evaluated to ...",
  // oracle-json-error-clauses.test.ts).
  it("JSON_VALUE ... ERROR ON ERROR raises 23ai's texts for several values and a non-scalar", async () => {
    const message = async (sql: string) => (await failure(() => conn.execute(sql))).message.split("\n")[0]
    expect(await message(`SELECT JSON_VALUE('[{a:1},{a:2}]', '$.a' ERROR ON ERROR) FROM dual`)).toBe("ORA-40470: JSON query '$.a' evaluated to multiple values.")
    expect(await message(`SELECT JSON_VALUE('{"o":{"k":1}}', '$.o' ERROR ON ERROR) FROM dual`)).toBe("ORA-40456: JSON path '$.o' evaluated to non-scalar value.")
  })

  it("JSON_VALUE RETURNING NUMBER / DATE gives those types; a value of another type is NULL (NULL ON ERROR)", async () => {
    const r = await conn.execute(
      `SELECT JSON_VALUE(doc, '$.n' RETURNING NUMBER) + 1, JSON_VALUE(doc, '$.a' RETURNING NUMBER),
              JSON_VALUE('{"d":"2024-05-06"}', '$.d' RETURNING DATE) FROM docs WHERE id = 1`
    )
    expect(r.rows).toEqual([[2.5, null, new Date(2024, 4, 6)]])
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["NUMBER", "NUMBER", "DATE"])
    // ERROR ON ERROR raises the error NULL ON ERROR hides (an array: ORA-40456; oracle-json-error-clauses.test.ts)
    expect(oraCode(await failure(() => conn.execute(`SELECT JSON_VALUE(doc, '$.b' ERROR ON ERROR) FROM docs`)))).toBe("ORA-40456")
  })

  it("JSON_VALUE and JSON_QUERY read a JSON column's Oracle scalars (a date as ISO 8601 text)", async () => {
    expect(await rows(`SELECT JSON_VALUE(js, '$.k'), JSON_QUERY(js, '$.v' RETURNING VARCHAR2) FROM docs WHERE id = 1`)).toEqual([["2024-01-02T00:00:00", "[1]"]])
  })

  it("JSON_QUERY over a JSON column, or RETURNING JSON, is JSON (OSON on the wire); over VARCHAR2 it stays text", async () => {
    // "If the input type is JSON then JSON is also the default return type" (JSON Developer's Guide, 21c and 23ai,
    // "SQL/JSON Function JSON_QUERY")
    const r = await conn.execute(`SELECT JSON_QUERY(js, '$.v'), JSON_QUERY(d.js, '$'), JSON_QUERY(doc, '$.b' RETURNING JSON), JSON_QUERY(doc, '$.b') FROM docs d WHERE id = 1`)
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["JSON", "JSON", "JSON", "VARCHAR2"])
    const [v, whole, b, bText] = r.rows[0] as [unknown, Record<string, unknown>, unknown, string]
    expect(v).toEqual([1])
    expect(whole["v"]).toEqual([1])
    expect(b).toEqual(JSON.parse(bText))
  })

  it("JSON_QUERY returns JSON text by its wrapper clause", async () => {
    expect(
      await rows(
        `SELECT JSON_QUERY(doc, '$.b'), JSON_QUERY(doc, '$.a'), JSON_QUERY(doc, '$.b[*]' WITH WRAPPER),
                JSON_QUERY(doc, '$.a' WITH CONDITIONAL WRAPPER), JSON_QUERY(doc, '$.b[2]' WITH CONDITIONAL WRAPPER),
                JSON_QUERY(doc, '$.b[*]'), JSON_QUERY(doc, '$.a' OMIT QUOTES), JSON_QUERY(doc, '$.zz')
           FROM docs WHERE id = 1`
      )
    ).toEqual([['[1,2,{"c":true}]', '"x"', '[1,2,{"c":true}]', '["x"]', '{"c":true}', null, "x", null]])
  })

  // M. Bach's 19c output of JSON_QUERY(json_txt, '$' PRETTY ERROR ON ERROR)
  // (martincarstenbach.wordpress.com/2019/06/14/json_table-and-date-time-columns-in-oracle-19c): two blanks a level,
  // `"results" :` with the array on the next line
  it("JSON_QUERY ... PRETTY lays the text out as Oracle prints it", async () => {
    const doc = `'{"results":[{"resultID":1,"resultDate":"13-JUN-19 08:10:00","details":"none"}]}'`
    const pretty = ["{", '  "results" :', "  [", "    {", '      "resultID" : 1,', '      "resultDate" : "13-JUN-19 08:10:00",', '      "details" : "none"', "    }", "  ]", "}"]
    expect(await rows(`SELECT JSON_QUERY(${doc}, '$' PRETTY ERROR ON ERROR) FROM dual`)).toEqual([[pretty.join("\n")]])
  })

  it("JSON_EXISTS and IS [NOT] JSON as conditions", async () => {
    expect(await rows(`SELECT id FROM docs WHERE JSON_EXISTS(doc, '$.b[2].c') ORDER BY id`)).toEqual([[1]])
    expect(await rows(`SELECT id FROM docs WHERE NOT JSON_EXISTS(doc, '$.zz') ORDER BY id`)).toEqual([[1], [2]])
    expect(await rows(`SELECT id FROM docs WHERE doc IS JSON ORDER BY id`)).toEqual([[1]])
    expect(await rows(`SELECT id FROM docs WHERE doc IS NOT JSON ORDER BY id`)).toEqual([[2]])
    expect(await rows(`SELECT id FROM docs WHERE n IS NOT NULL AND doc IS JSON STRICT ORDER BY id`)).toEqual([[1]])
    const r = await conn.execute(
      `SELECT CASE WHEN '{"a":1,"a":2}' IS JSON WITH UNIQUE KEYS THEN 'y' ELSE 'n' END,
              CASE WHEN '{"a":1,"a":2}' IS JSON THEN 'y' ELSE 'n' END,
              CASE WHEN '1' IS JSON THEN 'y' ELSE 'n' END,
              CASE WHEN '1' IS JSON DISALLOW SCALARS THEN 'y' ELSE 'n' END FROM dual`
    )
    expect(r.rows).toEqual([["n", "y", "y", "n"]])
    expect(r.metaData[0].name).toBe(`CASEWHEN'{"A":1,"A":2}'ISJSONWITHUNIQUEKEYSTHEN'Y'ELSE'N'END`)
  })

  it("a DATE literal or TO_DATE value in JSON_OBJECT / JSON_ARRAY / JSON_ARRAYAGG is ISO 8601 with its time of day, as a DATE column is (was '2024-01-02')", async () => {
    expect(
      await rows(
        `SELECT JSON_OBJECT('d' VALUE DATE '2024-01-02'), JSON_ARRAY(DATE '2024-01-02', TO_DATE('2024-01-02 10:11:12', 'YYYY-MM-DD HH24:MI:SS')),
                (SELECT JSON_ARRAYAGG(d) FROM (SELECT DATE '1999-12-31' d FROM dual)) FROM dual`
      )
    ).toEqual([['{"d":"2024-01-02T00:00:00"}', '["2024-01-02T00:00:00","2024-01-02T10:11:12"]', '["1999-12-31T00:00:00"]']])
  })

  // JSON's datetime and interval scalars print as ISO 8601 (oracle.sql.json OracleJsonTimestampTZ / OracleJsonIntervalDS
  // getString; the syntax of JSON Developer's Guide, "ISO 8601 Date, Time, and Duration Support"); this wrote the
  // engine's text ("2024-01-02 10:11:12.500000000+01:00 Europe/Berlin", "1 day 02:03:04.5", "1 year 2 months")
  it("TIMESTAMP WITH [LOCAL] TIME ZONE, TIMESTAMP(9) and INTERVAL values in JSON generation are ISO 8601 strings; a VARCHAR2 stays as it is", async () => {
    await conn.execute(
      `CREATE TABLE jiso (z TIMESTAMP WITH TIME ZONE, l TIMESTAMP WITH LOCAL TIME ZONE, z9 TIMESTAMP(9) WITH TIME ZONE, t9 TIMESTAMP(9),
                          i INTERVAL DAY TO SECOND, y INTERVAL YEAR TO MONTH, i9 INTERVAL DAY(9) TO SECOND(9), y9 INTERVAL YEAR(9) TO MONTH, s VARCHAR2(40))`
    )
    await conn.execute(
      `INSERT INTO jiso VALUES (TIMESTAMP '2024-01-02 10:11:12.5 Europe/Berlin', TIMESTAMP '2024-01-02 10:11:12 UTC', TIMESTAMP '2024-01-02 10:11:12.123456789 -03:00',
                                TIMESTAMP '2024-01-02 10:11:12.123456789', INTERVAL '1 02:03:04.5' DAY TO SECOND, INTERVAL '1-2' YEAR TO MONTH,
                                INTERVAL '-3 00:00:00.000000001' DAY(9) TO SECOND(9), INTERVAL '-0-3' YEAR(9) TO MONTH, '2024-01-02 10:11:12+05:00')`
    )
    const [[object, array, aggregated, difference]] = await rows(
      `SELECT JSON_OBJECT('z' VALUE z, 'l' VALUE l, 'z9' VALUE z9, 't9' VALUE t9, 'i' VALUE i, 'y' VALUE y, 'i9' VALUE i9, 'y9' VALUE y9, 's' VALUE s),
              JSON_ARRAY(TIMESTAMP '2024-01-02 10:11:12 +05:30', INTERVAL '10' MINUTE, INTERVAL '5' YEAR),
              (SELECT JSON_ARRAYAGG(z) FROM jiso), JSON_OBJECT('d' VALUE z - TIMESTAMP '2024-01-01 00:00:00 UTC') FROM jiso`
    )
    expect(JSON.parse(object)).toEqual({
      z: "2024-01-02T10:11:12.5+01:00",
      l: "2024-01-02T10:11:12+00:00",
      z9: "2024-01-02T10:11:12.123456789-03:00",
      t9: "2024-01-02T10:11:12.123456789",
      i: "P1DT2H3M4.5S",
      y: "P1Y2M",
      i9: "-P3DT0.000000001S",
      y9: "-P3M",
      s: "2024-01-02 10:11:12+05:00"
    })
    expect([array, aggregated, difference]).toEqual(['["2024-01-02T10:11:12+05:30","PT10M","P5Y"]', '["2024-01-02T10:11:12.5+01:00"]', '{"d":"P1DT9H11M12.5S"}'])
    await conn.execute("DROP TABLE jiso")
  })

  it("JSON_OBJECT and JSON_ARRAY build VARCHAR2 JSON from SQL values of every type", async () => {
    const r = await conn.execute(
      `SELECT JSON_OBJECT('id' VALUE id, 'n' VALUE n, 'p' VALUE p, 'dt' VALUE dt, 'doc' VALUE doc FORMAT JSON,
                          'arr' VALUE JSON_ARRAY(1, 'a', NULL), KEY 'none' IS NULL, 'js' VALUE js)
         FROM docs WHERE id = 1`
    )
    expect(r.metaData[0].dbTypeName).toBe("VARCHAR2")
    expect(JSON.parse(r.rows[0][0])).toEqual({
      id: 1,
      n: 0.5,
      p: 1.25,
      dt: "2024-03-01T00:00:00",
      doc: JSON.parse(DOC),
      arr: [1, "a"],
      none: null,
      js: { k: "2024-01-02T00:00:00", v: [1] }
    })
    // the exact NUMBER .5 is the JSON number 0.5, not the string ".5"
    expect(r.rows[0][0]).toContain('"n":0.5,')
    expect(
      await rows(
        `SELECT JSON_OBJECT('a' VALUE NULL, 'b' VALUE 1 ABSENT ON NULL), JSON_ARRAY(1, NULL, 'x' NULL ON NULL), JSON_OBJECT(),
                JSON_ARRAY(), JSON_OBJECT('a' VALUE :1, 'b' VALUE :2) FROM dual`,
        [5, 'q"x']
      )
    ).toEqual([['{"b":1}', '[1,null,"x"]', "{}", "[]", '{"a":5,"b":"q\\"x"}']])
  })

  it("answers the SQL/JSON functions in PL/SQL expressions and SELECT INTO", async () => {
    const r = await conn.execute(
      `DECLARE v VARCHAR2(100); BEGIN v := JSON_VALUE('{"a":"x"}', '$.a'); :o := v || JSON_OBJECT('k' VALUE 1); SELECT JSON_VALUE(doc, '$.b[1]') INTO :p FROM docs WHERE id = 1; END;`,
      { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING }, p: { dir: oracledb.BIND_OUT, type: oracledb.STRING } }
    )
    expect(r.outBinds).toEqual({ o: 'x{"k":1}', p: "2" })
  })
})

describe("Oracle test server: SQL/JSON functions (19c)", () => {
  it("JSON_QUERY of a scalar without a wrapper is NULL and IS JSON refuses top-level scalars, as before compatible 20", async () => {
    const s = await withServer({ version: "19c" })
    try {
      const c = await s.connect()
      expect((await c.execute(`SELECT JSON_QUERY('{"a":"x"}', '$.a'), CASE WHEN '1' IS JSON THEN 'y' ELSE 'n' END, CASE WHEN '1' IS JSON ALLOW SCALARS THEN 'y' ELSE 'n' END FROM dual`)).rows).toEqual([[null, "n", "y"]])
      await c.close()
    } finally {
      await s.server.close()
    }
  })
})
