import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { closeQuietly, connect, exec, failure } from "./hana/client.ts"
import type { HdbClient } from "./hana/client.ts"

/** Everyday HANA SQL, sent through raw hdb, that the test server once refused or answered wrongly. */
describe("HANA test server: everyday SQL", () => {
  let server: HanaTestServerHandle
  let c: HdbClient
  beforeAll(async () => {
    server = await startHanaTestServer()
    c = await connect({ host: server.host, port: server.port, user: server.user, password: server.password })
  })
  afterAll(async () => {
    closeQuietly(c)
    await server.close()
  })

  it("SET [SESSION] '<key>' = '<value>' and UNSET [SESSION] '<key>' set the session variables SESSION_CONTEXT reads", async () => {
    const other = await connect({ host: server.host, port: server.port, user: server.user, password: server.password })
    try {
      await exec(c, "SET 'APPLICATION' = 'billing'")
      await exec(c, "SET SESSION 'MY_VAR' = 'v1'")
      expect(await exec(c, "SELECT SESSION_CONTEXT('APPLICATION') AS A, SESSION_CONTEXT('MY_VAR') AS V FROM DUMMY")).toEqual([
        { A: "billing", V: "v1" }
      ])
      // per session: another connection does not see them
      expect(await exec(other, "SELECT SESSION_CONTEXT('MY_VAR') AS V FROM DUMMY")).toEqual([{ V: null }])
      await exec(c, "UNSET SESSION 'MY_VAR'")
      await exec(c, "UNSET 'APPLICATION'")
      expect(await exec(c, "SELECT SESSION_CONTEXT('APPLICATION') AS A, SESSION_CONTEXT('MY_VAR') AS V FROM DUMMY")).toEqual([
        { A: null, V: null }
      ])
      expect(await failure(exec(c, "SET 'X' = 5"))).toMatchObject({ code: 257 })
      expect(await failure(exec(c, "UNSET"))).toMatchObject({ code: 257 })
    } finally {
      closeQuietly(other)
    }
  })

  it("NOW() is a TIMESTAMP like CURRENT_TIMESTAMP: TO_VARCHAR applies its format", async () => {
    const [row] = await exec(c, "SELECT TO_VARCHAR(NOW(), 'YYYYMMDD') AS N, TO_VARCHAR(CURRENT_DATE, 'YYYYMMDD') AS D, TO_VARCHAR(NOW(), 'HH24') AS H FROM DUMMY") as Array<{ N: string; D: string; H: string }>
    expect(row!.N).toMatch(/^\d{8}$/)
    expect(row!.H).toMatch(/^\d{2}$/)
    expect(await exec(c, "SELECT COUNT(*) AS N FROM DUMMY WHERE NOW() >= CURRENT_DATE AND NOW() <= ADD_DAYS(CURRENT_DATE, 1)")).toEqual([{ N: 1 }])
  })
})

describe("HANA test server: SYS views by their public synonyms", () => {
  let server: HanaTestServerHandle
  let c: HdbClient
  beforeAll(async () => {
    server = await startHanaTestServer()
    c = await connect({ host: server.host, port: server.port, user: server.user, password: server.password })
  })
  afterAll(async () => {
    closeQuietly(c)
    await server.close()
  })

  it("TABLES, TABLE_COLUMNS, VIEWS and M_DATABASE answer unqualified, from any current schema", async () => {
    await exec(c, "CREATE COLUMN TABLE syn_t (id INT PRIMARY KEY, v NVARCHAR(5))")
    await exec(c, "CREATE VIEW syn_v AS SELECT id FROM syn_t")
    expect(await exec(c, "SELECT TABLE_NAME, TABLE_TYPE FROM TABLES WHERE SCHEMA_NAME = CURRENT_SCHEMA AND TABLE_NAME = 'SYN_T'")).toEqual([
      { TABLE_NAME: "SYN_T", TABLE_TYPE: "COLUMN" }
    ])
    expect(await exec(c, "SELECT COLUMN_NAME FROM TABLE_COLUMNS WHERE TABLE_NAME = 'SYN_T' ORDER BY POSITION")).toEqual([
      { COLUMN_NAME: "ID" },
      { COLUMN_NAME: "V" }
    ])
    expect(await exec(c, "SELECT VIEW_NAME FROM VIEWS WHERE VIEW_NAME = 'SYN_V'")).toEqual([{ VIEW_NAME: "SYN_V" }])
    await exec(c, "CREATE SCHEMA syn_s")
    await exec(c, "SET SCHEMA syn_s")
    try {
      expect(await exec(c, "SELECT COUNT(*) AS N FROM M_DATABASE")).toEqual([{ N: 1 }])
      // an object of the current schema comes first, as it does before a public synonym on HANA
      await exec(c, "CREATE TABLE TABLES (x INT)")
      await exec(c, "INSERT INTO TABLES VALUES (7)")
      expect(await exec(c, "SELECT x FROM TABLES")).toEqual([{ X: 7 }])
      expect(await exec(c, "SELECT COUNT(*) AS N FROM SYS.TABLES WHERE SCHEMA_NAME = 'SYN_S' AND TABLE_NAME = 'TABLES'")).toEqual([{ N: 1 }])
      // new objects still go to the current schema
      await exec(c, "CREATE TABLE in_s (a INT)")
      expect(await exec(c, "SELECT SCHEMA_NAME FROM SYS.TABLES WHERE TABLE_NAME = 'IN_S'")).toEqual([{ SCHEMA_NAME: "SYN_S" }])
      expect(await failure(exec(c, "SELECT * FROM no_such_table"))).toMatchObject({ code: 259 })
    } finally {
      await exec(c, `SET SCHEMA ${server.user}`)
    }
  })
})
