import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

// ON ERROR / ON EMPTY clauses of JSON_VALUE, JSON_QUERY, JSON_EXISTS and JSON_TABLE through raw node-oracledb.
// Expected behaviour: JSON Developer's Guide 23ai, "Error Clause for SQL Functions and Conditions" (ERROR, NULL,
// TRUE / FALSE for json_exists, EMPTY [ARRAY | OBJECT] for json_query, DEFAULT for json_value) and "Empty-Field Clause
// for SQL/JSON Query Functions" (without ON EMPTY the ON ERROR clause also handles a missing field); the codes and
// texts as Oracle's Database Error Messages give them: ORA-40441 "JSON syntax error", ORA-40462 "JSON_VALUE evaluated
// to no value", ORA-40470 "JSON_VALUE evaluated to multiple values", ORA-40456 "JSON_VALUE evaluated to non-scalar
// value", ORA-40480 "result cannot be returned without array wrapper".
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: SQL/JSON ON ERROR and ON EMPTY clauses", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "19c" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE jec (id NUMBER, doc VARCHAR2(400))")
    await conn.executeMany("INSERT INTO jec VALUES (:1, :2)", [
      [1, '{"a":"x","n":"12","b":[1,2],"o":{"k":1},"z":null}'],
      [2, "not json"]
    ])
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const value = async (expr: string, id = 1) => (await conn.execute(`SELECT ${expr} FROM jec WHERE id = ${id}`)).rows?.[0]?.[0]
  const failed = async (sql: string) => {
    const e = await failure(() => conn.execute(sql))
    return `${oraCode(e)} ${e.message.split("\n")[0]!.replace(/^ORA-\d+: /, "")}`
  }
  const error = (expr: string, id = 1) => failed(`SELECT ${expr} FROM jec WHERE id = ${id}`)

  it("JSON_VALUE ... ERROR ON ERROR raises Oracle's errors", async () => {
    expect(await error(`JSON_VALUE(doc, '$.missing' ERROR ON ERROR)`)).toBe("ORA-40462 JSON_VALUE evaluated to no value")
    expect(await error(`JSON_VALUE(doc, '$.b[*]' ERROR ON ERROR)`)).toBe("ORA-40470 JSON_VALUE evaluated to multiple values")
    expect(await error(`JSON_VALUE(doc, '$.o' ERROR ON ERROR)`)).toBe("ORA-40456 JSON_VALUE evaluated to non-scalar value")
    expect(await error(`JSON_VALUE(doc, '$.a' ERROR ON ERROR)`, 2)).toBe("ORA-40441 JSON syntax error")
    // a JSON null is a value: NULL, no error
    expect(await value(`JSON_VALUE(doc, '$.z' ERROR ON ERROR)`)).toBe(null)
    expect(await value(`JSON_VALUE(doc, '$.a' ERROR ON ERROR)`)).toBe("x")
  })

  it("JSON_VALUE ... DEFAULT ON ERROR and the ON EMPTY clause for a missing field", async () => {
    expect(await value(`JSON_VALUE(doc, '$.o' DEFAULT 'obj' ON ERROR)`)).toBe("obj")
    expect(await value(`JSON_VALUE(doc, '$.missing' DEFAULT 'd' ON ERROR)`)).toBe("d")
    expect(await value(`JSON_VALUE(doc, '$.a' RETURNING NUMBER DEFAULT -1 ON ERROR)`)).toBe(-1)
    expect(await value(`JSON_VALUE(doc, '$.n' RETURNING NUMBER DEFAULT -1 ON ERROR)`)).toBe(12)
    // ON EMPTY takes the missing field, ON ERROR everything else
    expect(await value(`JSON_VALUE(doc, '$.missing' NULL ON EMPTY ERROR ON ERROR)`)).toBe(null)
    expect(await value(`JSON_VALUE(doc, '$.missing' DEFAULT 'e' ON EMPTY DEFAULT 'r' ON ERROR)`)).toBe("e")
    expect(await value(`JSON_VALUE(doc, '$.b' DEFAULT 'e' ON EMPTY DEFAULT 'r' ON ERROR)`)).toBe("r")
    expect(await error(`JSON_VALUE(doc, '$.missing' ERROR ON EMPTY)`)).toBe("ORA-40462 JSON_VALUE evaluated to no value")
    expect(await value(`JSON_VALUE(doc, '$.o' ERROR ON EMPTY)`)).toBe(null)
    // TYPE (LAX) is the default; strict typing and ON MISMATCH are refused by name, not ignored
    expect(await value(`JSON_VALUE(doc, '$.a' TYPE (LAX))`)).toBe("x")
    expect(oraCode(await failure(() => conn.execute(`SELECT JSON_VALUE(doc, '$.a' TYPE (STRICT)) FROM jec`)))).toBe("ORA-03001")
    expect(oraCode(await failure(() => conn.execute(`SELECT JSON_VALUE(doc, '$.a' NULL ON MISMATCH) FROM jec`)))).toBe("ORA-03001")
  })

  it("JSON_VALUE RETURNING NUMBER(p,s): a value too large is NULL by default, ORA-01438 under ERROR ON ERROR", async () => {
    // NULL ON ERROR is the default (SQL Language Reference, JSON_VALUE, "JSON_value_on_error_clause")
    expect(await value(`JSON_VALUE('{"a":123}', '$.a' RETURNING NUMBER(2))`)).toBe(null)
    expect(await value(`JSON_VALUE('{"a":123}', '$.a' RETURNING NUMBER(2) DEFAULT 7 ON ERROR)`)).toBe(7)
    expect(await error(`JSON_VALUE('{"a":123}', '$.a' RETURNING NUMBER(2) ERROR ON ERROR)`)).toBe("ORA-01438 value larger than specified precision allowed for this column")
    // a value that fits once rounded to the scale is returned rounded
    expect(await value(`JSON_VALUE('{"a":12.46}', '$.a' RETURNING NUMBER(3,1))`)).toBe(12.5)
    expect(await value(`JSON_VALUE('{"a":99.96}', '$.a' RETURNING NUMBER(3,1))`)).toBe(null)
  })

  it("JSON_QUERY ... ERROR / EMPTY ARRAY / EMPTY OBJECT ON ERROR and ON EMPTY", async () => {
    expect(await error(`JSON_QUERY(doc, '$.missing' ERROR ON ERROR)`)).toBe("ORA-40462 JSON_VALUE evaluated to no value")
    // several values, or a scalar on 19c, need the array wrapper
    expect(await error(`JSON_QUERY(doc, '$.b[*]' ERROR ON ERROR)`)).toBe("ORA-40480 result cannot be returned without array wrapper")
    expect(await error(`JSON_QUERY(doc, '$.a' ERROR ON ERROR)`)).toBe("ORA-40480 result cannot be returned without array wrapper")
    expect(await error(`JSON_QUERY(doc, '$' ERROR ON ERROR)`, 2)).toBe("ORA-40441 JSON syntax error")
    expect(await value(`JSON_QUERY(doc, '$.b[*]' EMPTY ARRAY ON ERROR)`)).toBe("[]")
    expect(await value(`JSON_QUERY(doc, '$.missing' EMPTY OBJECT ON ERROR)`)).toBe("{}")
    expect(await value(`JSON_QUERY(doc, '$.missing' EMPTY ON EMPTY ERROR ON ERROR)`)).toBe("[]")
    expect(await value(`JSON_QUERY(doc, '$.o' ERROR ON ERROR)`)).toBe('{"k":1}')
  })

  it("JSON_EXISTS ... ERROR / TRUE ON ERROR for a document that is no JSON", async () => {
    const ids = async (where: string) => ((await conn.execute(`SELECT id FROM jec WHERE ${where} ORDER BY id`)).rows as Array<Array<number>>).map((r) => r[0])
    expect(await ids(`JSON_EXISTS(doc, '$.a' TRUE ON ERROR)`)).toEqual([1, 2])
    expect(await ids(`JSON_EXISTS(doc, '$.a' FALSE ON ERROR)`)).toEqual([1])
    expect(oraCode(await failure(() => conn.execute(`SELECT id FROM jec WHERE JSON_EXISTS(doc, '$.a' ERROR ON ERROR)`)))).toBe("ORA-40441")
  })

  it("JSON_TABLE ... ERROR ON ERROR at the table and column level", async () => {
    // the table-level clause is the columns' default
    expect(
      await failed(`SELECT jt.* FROM jec, JSON_TABLE(jec.doc, '$' ERROR ON ERROR COLUMNS (a PATH '$.a', m PATH '$.missing')) jt WHERE jec.id = 1`)
    ).toBe("ORA-40462 JSON_VALUE evaluated to no value")
    expect(oraCode(await failure(() => conn.execute(`SELECT jt.* FROM jec, JSON_TABLE(jec.doc, '$' ERROR ON ERROR COLUMNS (a PATH '$.a')) jt`)))).toBe("ORA-40441")
    // a column's own clause wins over the table's
    expect(
      (await conn.execute(`SELECT jt.* FROM jec, JSON_TABLE(jec.doc, '$' ERROR ON ERROR COLUMNS (a PATH '$.a', m PATH '$.missing' NULL ON EMPTY, o PATH '$.o' DEFAULT 'obj' ON ERROR)) jt WHERE jec.id = 1`)).rows
    ).toEqual([["x", null, "obj"]])
    expect(await failed(`SELECT jt.* FROM jec, JSON_TABLE(jec.doc, '$' COLUMNS (n NUMBER PATH '$.b' ERROR ON ERROR)) jt WHERE jec.id = 1`)).toBe(
      "ORA-40456 JSON_VALUE evaluated to non-scalar value"
    )
    // without clauses: NULL ON ERROR, the default; a document that is no JSON gives no row
    expect((await conn.execute(`SELECT jec.id, jt.* FROM jec, JSON_TABLE(jec.doc, '$' COLUMNS (a PATH '$.a', o PATH '$.o')) jt ORDER BY jec.id`)).rows).toEqual([[1, "x", null]])
  })

  // René Nyffenegger's notes on the error clause show Oracle's output for a JSON_TABLE column too small for a value
  // (https://renenyffenegger.ch/notes/development/databases/Oracle/SQL/functions/json/error-clause): NULL without an
  // error clause, ORA-40478 "output value too large (maximum: 4)" with ERROR ON ERROR at the table or column level.
  it("a value longer than the RETURNING VARCHAR2 size is an error for the ON ERROR clause, ORA-40478", async () => {
    const doc = `'[[1, "one" , "B"], [2, "two" , "C"], [3, "three", "D"], [4, "four" , "E"]]'`
    const columns = (numClause: string) => `COLUMNS (id NUMBER(1) PATH '$[0]', num VARCHAR2(4) PATH '$[1]' ${numClause}, meta VARCHAR2(3) PATH '$[2]')`
    expect((await conn.execute(`SELECT * FROM JSON_TABLE(${doc}, '$[*]' ${columns("")})`)).rows).toEqual([
      [1, "one", "B"],
      [2, "two", "C"],
      [3, null, "D"],
      [4, "four", "E"]
    ])
    expect(await failed(`SELECT * FROM JSON_TABLE(${doc}, '$[*]' ERROR ON ERROR ${columns("")})`)).toBe("ORA-40478 output value too large (maximum: 4)")
    expect(await failed(`SELECT * FROM JSON_TABLE(${doc}, '$[*]' ${columns("ERROR ON ERROR")})`)).toBe("ORA-40478 output value too large (maximum: 4)")
    expect(await value(`JSON_VALUE('{"a":"three"}', '$.a' RETURNING VARCHAR2(4))`)).toBe(null)
    expect(await value(`JSON_VALUE('{"a":"three"}', '$.a' RETURNING VARCHAR2(4) DEFAULT 'long' ON ERROR)`)).toBe("long")
    expect(await value(`JSON_VALUE('{"a":"four"}', '$.a' RETURNING VARCHAR2(4) ERROR ON ERROR)`)).toBe("four")
    expect(await error(`JSON_VALUE('{"a":"three"}', '$.a' RETURNING VARCHAR2(4) ERROR ON ERROR)`)).toBe("ORA-40478 output value too large (maximum: 4)")
    // TRUNCATE (SQL Language Reference, JSON_value_return_type) cuts the value to the size instead
    expect(await value(`JSON_VALUE('{"a":"three"}', '$.a' RETURNING VARCHAR2(4) TRUNCATE ERROR ON ERROR)`)).toBe("thre")
  })

  // The guide's "Error Clause" page names the handlings each function lacks: NULL ON ERROR "Not available for
  // json_exists", EMPTY ... "Available only for json_query", DEFAULT not for json_exists nor json_query (nor a
  // json_table column with json_query behaviour); the table-level clause of JSON_TABLE is `{ ERROR | NULL } ON ERROR`
  // (SQL Language Reference, "JSON_TABLE"). They are refused as syntax errors (the code Oracle's parser gives is
  // unconfirmed, README).
  it("refuses the handlings a function's grammar lacks", async () => {
    const refused = [
      `SELECT JSON_QUERY(doc, '$.o' DEFAULT 'x' ON ERROR) FROM jec`,
      `SELECT JSON_QUERY(doc, '$.o' DEFAULT 'x' ON EMPTY) FROM jec`,
      `SELECT id FROM jec WHERE JSON_EXISTS(doc, '$.a' NULL ON ERROR)`,
      `SELECT JSON_VALUE(doc, '$.a' EMPTY ON ERROR) FROM jec`,
      `SELECT JSON_VALUE(doc, '$.a' EMPTY OBJECT ON EMPTY) FROM jec`,
      `SELECT JSON_VALUE(doc, '$.a' TRUE ON ERROR) FROM jec`,
      `SELECT jt.* FROM jec, JSON_TABLE(jec.doc, '$' COLUMNS (o FORMAT JSON PATH '$.o' DEFAULT '{}' ON ERROR)) jt`,
      `SELECT jt.* FROM jec, JSON_TABLE(jec.doc, '$' COLUMNS (a PATH '$.a' EMPTY ON ERROR)) jt`,
      `SELECT jt.* FROM jec, JSON_TABLE(jec.doc, '$' DEFAULT 'x' ON ERROR COLUMNS (a PATH '$.a')) jt`
    ]
    for (const sql of refused) expect([sql, oraCode(await failure(() => conn.execute(sql)))]).toEqual([sql, "ORA-00907"])
  })

  // Database Error Messages, ORA-40656 "Variable in JSON path expression has no value in PASSING clause."
  it("a path variable without a PASSING value is ORA-40656", async () => {
    for (const expr of [`JSON_VALUE(doc, '$.b?(@ > $x)')`, `JSON_QUERY(doc, '$.b?(@ > $x)' WITH WRAPPER)`]) {
      expect(await error(expr)).toBe("ORA-40656 Variable in JSON path expression has no value in PASSING clause.")
    }
    expect(await failed(`SELECT id FROM jec WHERE JSON_EXISTS(doc, '$.b?(@ == $x)' PASSING 1 AS "y")`)).toBe(
      "ORA-40656 Variable in JSON path expression has no value in PASSING clause."
    )
  })
})
