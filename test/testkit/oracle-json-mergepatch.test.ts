import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, oracledb, withServer } from "./oracle/helpers.ts"

// JSON_MERGEPATCH through the raw node-oracledb client, as the SQL Language Reference 21c ("JSON_MERGEPATCH") and the
// JSON Developer's Guide ("Oracle SQL Function JSON_MERGEPATCH") describe it: RFC 7396 merge patch (a patch member
// whose value is null removes the field; an object is merged recursively; anything else replaces), NULL for a NULL
// target or patch, VARCHAR2(4000) by default and JSON for a JSON column input, PRETTY / ASCII / TRUNCATE, NULL ON
// ERROR by default. The RFC's own examples (RFC 7396, Appendix A) are checked one by one.
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: JSON_MERGEPATCH", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE jmp (id NUMBER, doc VARCHAR2(400), js JSON)")
    await conn.execute(`INSERT INTO jmp VALUES (1, '{"title":"Goodbye!","author":{"givenName":"John","familyName":"Doe"},"tags":["example","sample"],"content":"This will be unchanged"}', '{"a":1,"b":{"c":2}}')`)
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  const merged = async (target: string, patch: string): Promise<unknown> =>
    ((await conn.execute("SELECT JSON_MERGEPATCH(:t, :p) FROM dual", { t: target, p: patch })).rows as Array<Array<unknown>>)[0]![0]

  it("applies RFC 7396's examples", async () => {
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ['{"a":"b"}', '{"a":"c"}', '{"a":"c"}'],
      ['{"a":"b"}', '{"b":"c"}', '{"a":"b","b":"c"}'],
      ['{"a":"b"}', '{"a":null}', "{}"],
      ['{"a":"b","b":"c"}', '{"a":null}', '{"b":"c"}'],
      ['{"a":["b"]}', '{"a":"c"}', '{"a":"c"}'],
      ['{"a":"c"}', '{"a":["b"]}', '{"a":["b"]}'],
      ['{"a":{"b":"c"}}', '{"a":{"b":"d","c":null}}', '{"a":{"b":"d"}}'],
      ['{"a":[{"b":"c"}]}', '{"a":[1]}', '{"a":[1]}'],
      ['["a","b"]', '["c","d"]', '["c","d"]'],
      ['{"a":"b"}', '["c"]', '["c"]'],
      ['{"e":null}', '{"a":1}', '{"e":null,"a":1}'],
      ['[1,2]', '{"a":"b","c":null}', '{"a":"b"}'],
      ["{}", '{"a":{"bb":{"ccc":null}}}', '{"a":{"bb":{}}}']
    ]
    for (const [target, patch, result] of cases) expect([target, patch, await merged(target, patch)]).toEqual([target, patch, result])
  })

  it("patches a VARCHAR2 column in an UPDATE and a JSON column as JSON", async () => {
    await conn.execute(`UPDATE jmp SET doc = JSON_MERGEPATCH(doc, '{"title":"Hello!","phoneNumber":"+01-123-456-7890","author":{"familyName":null},"tags":["example"]}') WHERE id = 1`)
    expect((await conn.execute("SELECT doc FROM jmp")).rows).toEqual([
      ['{"title":"Hello!","author":{"givenName":"John"},"tags":["example"],"content":"This will be unchanged","phoneNumber":"+01-123-456-7890"}']
    ])
    const r = await conn.execute(`SELECT JSON_MERGEPATCH(js, '{"b":{"d":3},"a":null}') FROM jmp`, [], { fetchTypeHandler: () => ({ type: oracledb.STRING }) })
    expect(r.rows).toEqual([['{"b":{"c":2,"d":3}}']])
    expect((r.metaData as Array<{ dbTypeName: string }>)[0]!.dbTypeName).toBe("JSON")
    // a JSON column fetched as a string (oracledb converts JSON to VARCHAR on request: its DB_TYPE_CONVERSION_MAP)
    const asText = await conn.execute(`SELECT js FROM jmp`, [], { fetchInfo: { JS: { type: oracledb.STRING } } })
    expect(asText.rows).toEqual([['{"a":1,"b":{"c":2}}']])
    await conn.execute(`UPDATE jmp SET js = JSON_MERGEPATCH(js, '{"e":[true]}')`)
    expect((await conn.execute(`SELECT JSON_SERIALIZE(js) FROM jmp`)).rows).toEqual([['{"a":1,"b":{"c":2},"e":[true]}']])
    await conn.rollback()
  })

  it("takes NULL, RETURNING, PRETTY, TRUNCATE and the ON ERROR clauses", async () => {
    expect(await merged('{"a":1}', null as unknown as string)).toBeNull()
    const pretty = await conn.execute(`SELECT JSON_MERGEPATCH('{"a":1}', '{"b":"€"}' RETURNING CLOB PRETTY ASCII) FROM dual`, [], { fetchTypeHandler: () => ({ type: oracledb.STRING }) })
    expect((pretty.metaData as Array<{ dbTypeName: string }>)[0]!.dbTypeName).toBe("CLOB")
    expect(pretty.rows).toEqual([['{\n  "a" : 1,\n  "b" : "\\u20AC"\n}']])
    const short = await conn.execute(`SELECT JSON_MERGEPATCH('{"a":1}', '{"b":"xyz"}' RETURNING VARCHAR2(10) TRUNCATE) FROM dual`)
    expect(short.rows).toEqual([['{"a":1,"b"']])
    // NULL ON ERROR (the default): not JSON, or too long for the return type, gives NULL
    expect(await merged("not json", '{"a":1}')).toBeNull()
    expect((await conn.execute(`SELECT JSON_MERGEPATCH('{"a":1}', '{"b":"xyz"}' RETURNING VARCHAR2(10)) FROM dual`)).rows).toEqual([[null]])
    const e = await failure(() => conn.execute(`SELECT JSON_MERGEPATCH('{"a":1}', 'oops' ERROR ON ERROR) FROM dual`))
    expect(oraCode(e)).toBe("ORA-40441")
  })
})
