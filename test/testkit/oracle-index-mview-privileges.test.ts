/**
 * ALTER INDEX and DROP MATERIALIZED VIEW of another schema's object need a system privilege: "The index must be in
 * your own schema or you must have the ALTER ANY INDEX system privilege" (SQL Language Reference, ALTER INDEX,
 * Prerequisites); "The materialized view must be in your own schema or you must have the DROP ANY MATERIALIZED VIEW
 * system privilege. You must also have the privileges to drop the internal table" (DROP MATERIALIZED VIEW,
 * Prerequisites). Without it the statement fails with ORA-01031 and the
 * object stays, as DROP INDEX without DROP ANY INDEX does. An index one makes in one's own schema on another
 * schema's table belongs to one's schema but its table to the other: USER_INDEXES.TABLE_OWNER names the table's
 * owner ("TABLE_OWNER: Owner of the indexed object", Database Reference, ALL_INDEXES). Raw node-oracledb.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

describe("Oracle test server: ALTER INDEX and DROP MATERIALIZED VIEW of another schema, TABLE_OWNER of an index on another schema's table", () => {
  let server: OracleTestServerHandle
  const opened: Array<Conn> = []
  let dba: Conn
  let app: Conn
  let eve: Conn
  const code = async (conn: Conn, sql: string) => oraCode(await failure(() => conn.execute(sql)))
  beforeAll(async () => {
    const s = await withServer({ users: [{ name: "dba", password: "dba", dba: true }, { name: "app", password: "app" }, { name: "eve", password: "eve" }] })
    server = s.server
    for (const u of ["dba", "app", "eve"]) opened.push(await s.connect(u, u))
    ;[dba, app, eve] = opened
    await app.execute("CREATE TABLE t (id NUMBER PRIMARY KEY, v VARCHAR2(10), w NUMBER)")
    await app.execute("CREATE INDEX t_v ON t (v)")
    await app.execute("CREATE MATERIALIZED VIEW mv AS SELECT id, v FROM t")
  })
  afterAll(async () => {
    for (const c of opened) await c?.close()
    await server?.close()
  })

  it("ALTER INDEX of another schema's index is ORA-01031 without ALTER ANY INDEX and runs with it", async () => {
    expect(await code(eve, "ALTER INDEX app.t_v REBUILD")).toBe("ORA-01031")
    await app.execute("ALTER INDEX t_v REBUILD")
    await dba.execute("GRANT ALTER ANY INDEX TO eve")
    await eve.execute("ALTER INDEX app.t_v REBUILD")
  })

  it("DROP MATERIALIZED VIEW of another schema's one is ORA-01031 without DROP ANY MATERIALIZED VIEW, and the view stays", async () => {
    expect(await code(eve, "DROP MATERIALIZED VIEW app.mv")).toBe("ORA-01031")
    expect((await app.execute("SELECT mview_name FROM user_mviews")).rows).toEqual([["MV"]])
    expect((await app.execute("SELECT COUNT(*) FROM mv")).rows).toEqual([[0]])
    // "You must also have the privileges to drop the internal table ... that the database uses to maintain the
    // materialized view data" (ibid.)
    await dba.execute("GRANT DROP ANY MATERIALIZED VIEW TO eve")
    expect(await code(eve, "DROP MATERIALIZED VIEW app.mv")).toBe("ORA-01031")
    expect((await app.execute("SELECT mview_name FROM user_mviews")).rows).toEqual([["MV"]])
    await dba.execute("GRANT DROP ANY TABLE TO eve")
    await eve.execute("DROP MATERIALIZED VIEW app.mv")
    expect((await app.execute("SELECT mview_name FROM user_mviews")).rows).toEqual([])
  })

  it("an index in one's own schema on another schema's table shows the table's owner as TABLE_OWNER", async () => {
    await app.execute("GRANT INDEX ON t TO eve")
    await eve.execute("CREATE INDEX ei ON app.t (w)")
    expect((await eve.execute("SELECT index_name, table_owner, table_name FROM user_indexes")).rows).toEqual([["EI", "APP", "T"]])
    expect((await eve.execute("SELECT index_name, table_owner, table_name, column_name FROM user_ind_columns")).rows).toEqual([["EI", "APP", "T", "W"]])
    // and it is dropped from one's own schema
    await eve.execute("DROP INDEX ei")
    expect((await eve.execute("SELECT index_name FROM user_indexes")).rows).toEqual([])
  })
})
