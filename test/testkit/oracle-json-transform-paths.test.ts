import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// JSON_TRANSFORM target paths ending in a filter, a descendant step or an item method, through raw node-oracledb.
// Expected behaviour: JSON Developer's Guide 23ai, "JSON_TRANSFORM Operator REMOVE" (Example 13-26: `[*]?(pred)`
// removes the array elements the predicate holds for; Example 13-27: `?(pred)` without `[*]` removes the whole array
// when one of its elements satisfies it); Database Error Messages, JZN-00413 "JSON_TRANSFORM called with '..' path
// step" (the descendant axis is not allowed on the target side) and ORA-40789 "JSON_TRANSFORM operation invalid or not
// supported".
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: JSON_TRANSFORM target paths", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection({ version: "23ai" }))
  })
  afterAll(() => closeConnection({ server, conn }))

  const one = async (sql: string): Promise<unknown> => ((await conn.execute(sql)).rows as Array<Array<unknown>>)[0]![0]
  const doc = `'{"LineItems":[{"Part":{"UPCCode":1}},{"Part":{"UPCCode":2}}],"n":[1,5,7]}'`

  it("REMOVE with a path ending in a filter removes what it targets (the reference's Examples 13-26 and 13-27)", async () => {
    expect(await one(`SELECT JSON_TRANSFORM(${doc}, REMOVE '$.LineItems[*]?(@.Part.UPCCode == 2)') FROM dual`)).toBe('{"LineItems":[{"Part":{"UPCCode":1}}],"n":[1,5,7]}')
    expect(await one(`SELECT JSON_TRANSFORM(${doc}, REMOVE '$.LineItems?(@.Part.UPCCode == 2)') FROM dual`)).toBe('{"n":[1,5,7]}')
    // nothing targeted: IGNORE ON MISSING, the default
    expect(await one(`SELECT JSON_TRANSFORM(${doc}, REMOVE '$.LineItems?(@.Part.UPCCode == 9)') FROM dual`)).toBe('{"LineItems":[{"Part":{"UPCCode":1}},{"Part":{"UPCCode":2}}],"n":[1,5,7]}')
  })

  it("SET and REPLACE with a path ending in a filter change the values it targets", async () => {
    expect(await one(`SELECT JSON_TRANSFORM(${doc}, SET '$.n[*]?(@ > 4)' = 0) FROM dual`)).toBe('{"LineItems":[{"Part":{"UPCCode":1}},{"Part":{"UPCCode":2}}],"n":[1,0,0]}')
    expect(await one(`SELECT JSON_TRANSFORM('{"a":1,"b":2}', REPLACE '$.*?(@ == 2)' = 'two') FROM dual`)).toBe('{"a":1,"b":"two"}')
  })

  it("refuses a descendant step or an item method on the target side", async () => {
    const descendant = await failure(() => conn.execute(`SELECT JSON_TRANSFORM(${doc}, REMOVE '$..UPCCode') FROM dual`))
    expect(oraCode(descendant)).toBe("ORA-40789")
    expect(descendant.message).toContain("JSON_TRANSFORM operation invalid or not supported")
    expect(oraCode(await failure(() => conn.execute(`SELECT JSON_TRANSFORM(${doc}, SET '$..Part.x' = 1) FROM dual`)))).toBe("ORA-40789")
    expect(oraCode(await failure(() => conn.execute(`SELECT JSON_TRANSFORM(${doc}, SET '$.n.size()' = 1) FROM dual`)))).toBe("ORA-40789")
  })
})
