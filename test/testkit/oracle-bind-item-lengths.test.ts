/**
 * A VARCHAR2 bind selected as a column is described as VARCHAR2 of the length Oracle keeps the bind at: 32, 128, 2000
 * or 4000 bytes ("bind variable graduation", C. Antognini, Troubleshooting Oracle Performance; SQL*Plus sizes
 * `SELECT :s s FROM DUAL` of a VARCHAR2(32) variable 32 wide). Raw node-oracledb against the test server (it described
 * every such bind as VARCHAR2(4000)).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, oracledb, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: a VARCHAR2 bind item's described length", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("describes it by its graduated length, its value as bound", async () => {
    const cases: Array<[string, number]> = [["ab", 32], ["x".repeat(32), 32], ["x".repeat(33), 128], ["é".repeat(64), 128], ["x".repeat(129), 2000], ["x".repeat(2001), 4000]]
    for (const [value, size] of cases) {
      const r = await conn.execute("SELECT :b FROM dual", { b: { val: value, type: oracledb.DB_TYPE_VARCHAR } })
      expect([value.length, r.metaData[0].dbType, r.metaData[0].byteSize, r.rows[0][0]]).toEqual([value.length, oracledb.DB_TYPE_VARCHAR, size, value])
    }
  })
})
