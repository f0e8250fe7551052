import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// Oracle's lax JSON syntax through raw node-oracledb. Expected behaviour: JSON Developer's Guide, "About Strict and
// Lax JSON Syntax" (lax is the default: JavaScript syntax for object fields, true / false / null in any case, more
// permissive numerals) and "Specifying Strict or Lax JSON Syntax" (strict or lax matters only for IS JSON; the other
// SQL/JSON functions read their input in lax syntax); SODA "Content Column JSON Validation" (LAX: field names need not
// be in double quotation marks).
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: lax JSON syntax", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  const holds = async (condition: string) => (await conn.execute(`SELECT COUNT(*) FROM dual WHERE ${condition}`)).rows?.[0]?.[0] === 1

  it("IS JSON [LAX] takes unquoted and single-quoted names, single-quoted strings, any-case literals and lax numerals; IS JSON STRICT does not", async () => {
    for (const doc of [`{a:1}`, `{''b'':''x''}`, `{"c": ''y''}`, `[TRUE, False, NULL]`, `[+1, .5, 1., 007, -.25e2]`, `{ $id_1 : {nested: [1]} }`]) {
      expect(await holds(`'${doc}' IS JSON`)).toBe(true)
      expect(await holds(`'${doc}' IS JSON LAX`)).toBe(true)
      expect(await holds(`'${doc}' IS JSON STRICT`)).toBe(false)
      expect(await holds(`'${doc}' IS NOT JSON STRICT`)).toBe(true)
    }
    expect(await holds(`'{"a":1}' IS JSON STRICT`)).toBe(true)
    // still no JSON in either syntax
    for (const doc of [`not json`, `{a 1}`, `{a:undefined}`, `{''a'':1`]) expect(await holds(`'${doc}' IS JSON`)).toBe(false)
    // WITH UNIQUE KEYS sees lax names too
    expect(await holds(`'{a:1, ''a'':2}' IS JSON WITH UNIQUE KEYS`)).toBe(false)
    expect(await holds(`'{a:1, b:2}' IS JSON WITH UNIQUE KEYS`)).toBe(true)
  })

  it("JSON_VALUE, JSON_QUERY and JSON_EXISTS read lax input", async () => {
    const r = await conn.execute(`SELECT JSON_VALUE('{a:{b:''x''}, n:+.5}', '$.a.b'), JSON_VALUE('{a:{b:''x''}, n:+.5}', '$.n' RETURNING NUMBER), JSON_QUERY('{a:[TRUE,null]}', '$.a') FROM dual`)
    expect(r.rows).toEqual([["x", 0.5, "[true,null]"]])
    expect(await holds(`JSON_EXISTS('{a:{b:1}}', '$.a.b')`)).toBe(true)
  })

  it("a CHECK (doc IS JSON) column takes lax documents, a CHECK (doc IS JSON STRICT) one refuses them", async () => {
    await conn.execute("CREATE TABLE jlax (id NUMBER, lx VARCHAR2(100) CHECK (lx IS JSON), st VARCHAR2(100) CONSTRAINT jlax_st CHECK (st IS JSON STRICT))")
    await conn.execute(`INSERT INTO jlax (id, lx) VALUES (1, '{name: ''n''}')`)
    const e = await failure(() => conn.execute(`INSERT INTO jlax (id, st) VALUES (2, '{name: ''n''}')`))
    expect(oraCode(e)).toBe("ORA-02290")
    expect(e.message).toContain("(TEST.JLAX_ST)")
    // dot notation on a textual column gives a targeted string's text (oracle-json-checks.test.ts)
    expect((await conn.execute(`SELECT j.lx.name FROM jlax j`)).rows).toEqual([["n"]])
  })
})
