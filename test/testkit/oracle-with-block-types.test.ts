/**
 * A column selected through a WITH block (subquery factoring) is described with the type of the block's item, as an
 * inline view's is: a CLOB stays a CLOB (SQL Language Reference, SELECT, subquery_factoring_clause: the query name
 * is treated as an inline view). Raw node-oracledb against the test server (it described the CLOB as VARCHAR2).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const types = async (sql: string) => ((await conn.execute(sql)).metaData ?? []).map((m: { name: string; dbTypeName?: string }) => [m.name, m.dbTypeName])

describe("Oracle test server: columns through a WITH block", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE wc (id NUMBER PRIMARY KEY, n NUMBER(6,2), c CLOB)")
    await conn.execute("INSERT INTO wc VALUES (1, 12.5, 'hello')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("describes a CLOB selected through a WITH block as CLOB, as through an inline view", async () => {
    expect(await types("SELECT c FROM (SELECT c FROM wc)")).toEqual([["C", "CLOB"]])
    expect(await types("WITH w AS (SELECT c FROM wc) SELECT c FROM w")).toEqual([["C", "CLOB"]])
    expect(await types("WITH w AS (SELECT id, c AS body FROM wc) SELECT x.body, x.id FROM w x")).toEqual([["BODY", "CLOB"], ["ID", "NUMBER"]])
  })

  it("reads the CLOB's value through the WITH block", async () => {
    const r = await conn.execute("WITH w AS (SELECT c FROM wc) SELECT c FROM w", [], { fetchInfo: { C: { type: oracledb.STRING } } })
    expect(r.rows).toEqual([["hello"]])
  })
})
