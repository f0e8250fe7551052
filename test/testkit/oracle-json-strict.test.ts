import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// Strict SQL/JSON path mode through raw node-oracledb. Expected behaviour: JSON Developer's Guide, "SQL/JSON Path
// Expression Syntax" (a path may start with `lax`, the default, or `strict`) and "SQL/JSON Path Expression Syntax
// Relaxation" (the implicit array wrapping and unwrapping is lax mode's; strict mode navigates the data as written);
// the SQL standard's strict mode (ISO/IEC 9075-2, 9.40 "SQL/JSON path language: syntax and semantics"): a missing
// member, a member accessor on a non-object, an array accessor on a non-array or a subscript out of bounds is an
// error, which the function's ON ERROR clause handles (NULL ON ERROR, FALSE ON ERROR for JSON_EXISTS, by default).
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: strict SQL/JSON paths", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE jstrict (id NUMBER, doc VARCHAR2(400))")
    await conn.execute(`INSERT INTO jstrict VALUES (1, '{"a":"x","o":{"k":1},"arr":[1,2],"objs":[{"k":1},{"k":2}]}')`)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const value = async (expr: string) => (await conn.execute(`SELECT ${expr} FROM jstrict WHERE id = 1`)).rows?.[0]?.[0]
  const error = async (expr: string) => oraCode(await failure(() => conn.execute(`SELECT ${expr} FROM jstrict WHERE id = 1`)))

  it("JSON_VALUE: strict selects what is there, and a missing field is an error for ON ERROR, not ON EMPTY", async () => {
    expect(await value(`JSON_VALUE(doc, 'strict $.a')`)).toBe("x")
    expect(await value(`JSON_VALUE(doc, 'strict $.arr[1]')`)).toBe("2")
    expect(await value(`JSON_VALUE(doc, 'strict $.missing')`)).toBe(null)
    expect(await error(`JSON_VALUE(doc, 'strict $.missing' ERROR ON ERROR)`)).toBe("ORA-40462")
    // lax: the missing field is empty, so ON EMPTY decides; strict: it is an error, so ON ERROR does
    expect(await value(`JSON_VALUE(doc, 'lax $.missing' DEFAULT 'e' ON EMPTY DEFAULT 'r' ON ERROR)`)).toBe("e")
    expect(await value(`JSON_VALUE(doc, 'strict $.missing' DEFAULT 'e' ON EMPTY DEFAULT 'r' ON ERROR)`)).toBe("r")
  })

  it("JSON_VALUE: strict mode neither wraps a non-array nor unwraps an array", async () => {
    // lax: `$.a[0]` reads the string as a one-element array, `$.objs.k` each element's field
    expect(await value(`JSON_VALUE(doc, '$.a[0]')`)).toBe("x")
    expect(await value(`JSON_VALUE(doc, '$.objs[0].k')`)).toBe("1")
    expect(await error(`JSON_VALUE(doc, 'strict $.a[0]' ERROR ON ERROR)`)).toBe("ORA-40462")
    expect(await error(`JSON_VALUE(doc, 'strict $.objs.k' ERROR ON ERROR)`)).toBe("ORA-40462")
    expect(await error(`JSON_VALUE(doc, 'strict $.a.b' ERROR ON ERROR)`)).toBe("ORA-40462")
    expect(await error(`JSON_VALUE(doc, 'strict $.arr[5]' ERROR ON ERROR)`)).toBe("ORA-40462")
    expect(await value(`JSON_VALUE(doc, '$.arr[5]' DEFAULT 'e' ON EMPTY)`)).toBe("e")
    expect(await value(`JSON_VALUE(doc, 'strict $.arr[5]' DEFAULT 'r' ON ERROR)`)).toBe("r")
  })

  it("JSON_QUERY: strict paths, errors by the ON ERROR clause", async () => {
    expect(await value(`JSON_QUERY(doc, 'strict $.o')`)).toBe('{"k":1}')
    expect(await value(`JSON_QUERY(doc, 'strict $.objs[*].k' WITH WRAPPER)`)).toBe("[1,2]")
    expect(await value(`JSON_QUERY(doc, 'strict $.objs.k' WITH WRAPPER)`)).toBe(null)
    expect(await value(`JSON_QUERY(doc, 'strict $.objs.k' WITH WRAPPER EMPTY ARRAY ON ERROR)`)).toBe("[]")
    expect(await error(`JSON_QUERY(doc, 'strict $.o.missing' ERROR ON ERROR)`)).toBe("ORA-40462")
  })

  it("JSON_EXISTS: a strict path that cannot navigate is FALSE ON ERROR by default, TRUE or an error when asked", async () => {
    const count = async (where: string) => (await conn.execute(`SELECT COUNT(*) FROM jstrict WHERE ${where}`)).rows?.[0]?.[0]
    expect(await count(`JSON_EXISTS(doc, 'strict $.o.k')`)).toBe(1)
    expect(await count(`JSON_EXISTS(doc, 'strict $.a[0]')`)).toBe(0)
    expect(await count(`JSON_EXISTS(doc, '$.a[0]')`)).toBe(1)
    expect(await count(`JSON_EXISTS(doc, 'strict $.missing' TRUE ON ERROR)`)).toBe(1)
    expect(oraCode(await failure(() => conn.execute(`SELECT COUNT(*) FROM jstrict WHERE JSON_EXISTS(doc, 'strict $.missing' ERROR ON ERROR)`)))).toBe("ORA-40462")
  })

  it("JSON_TABLE: strict row and column paths", async () => {
    const r = await conn.execute(
      `SELECT jt.* FROM jstrict j, JSON_TABLE(j.doc, 'strict $.objs[*]' COLUMNS (k NUMBER PATH 'strict $.k', z PATH 'strict $.z')) jt ORDER BY jt.k`
    )
    expect(r.rows).toEqual([
      [1, null],
      [2, null]
    ])
    // a strict row path that cannot navigate gives no row (NULL ON ERROR), or the error (ERROR ON ERROR)
    expect((await conn.execute(`SELECT COUNT(*) FROM jstrict j, JSON_TABLE(j.doc, 'strict $.objs.k' COLUMNS (k PATH '$')) jt`)).rows).toEqual([[0]])
    const e = await failure(() => conn.execute(`SELECT jt.* FROM jstrict j, JSON_TABLE(j.doc, '$.objs[*]' ERROR ON ERROR COLUMNS (z PATH 'strict $.z')) jt`))
    expect(oraCode(e)).toBe("ORA-40462")
  })
})
