/**
 * CREATE INDEX on another schema's table needs the INDEX object privilege on it or the CREATE ANY INDEX system
 * privilege: "To create an index in your own schema, one of the following conditions must be true: The table or
 * cluster to be indexed must be in your own schema. You must have the INDEX object privilege on the table to be
 * indexed. You must have the CREATE ANY INDEX system privilege." (SQL Language Reference, CREATE INDEX,
 * Prerequisites). Without any privilege on the table Oracle reports it missing (ORA-00942), with another one
 * ORA-01031. CREATE MATERIALIZED VIEW in one's own schema needs CREATE MATERIALIZED VIEW and CREATE TABLE (SQL
 * Language Reference, CREATE MATERIALIZED VIEW, Prerequisites), CREATE / DROP CONTEXT the CREATE / DROP ANY CONTEXT
 * system privilege (CREATE CONTEXT, DROP CONTEXT). Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

describe("Oracle test server: system and object privileges of CREATE INDEX, MATERIALIZED VIEW and CONTEXT", () => {
  let server: OracleTestServerHandle
  const opened: Array<Conn> = []
  let dba: Conn
  let app: Conn
  let eve: Conn
  let connect: (user: string, password: string) => Promise<Conn>
  const code = async (conn: Conn, sql: string) => oraCode(await failure(() => conn.execute(sql)))
  beforeAll(async () => {
    const s = await withServer({ users: [{ name: "dba", password: "dba", dba: true }, { name: "app", password: "app" }, { name: "eve", password: "eve" }] })
    server = s.server
    connect = s.connect
    for (const u of ["dba", "app", "eve"]) opened.push(await s.connect(u, u))
    ;[dba, app, eve] = opened
    await app.execute("CREATE TABLE t (id NUMBER PRIMARY KEY, v VARCHAR2(10), w NUMBER)")
  })
  afterAll(async () => {
    for (const c of opened) await c?.close()
    await server?.close()
  })

  it("is ORA-00942 without any privilege on the table and ORA-01031 with SELECT only; the owner indexes its own table", async () => {
    expect(await code(eve, "CREATE INDEX ei ON app.t (v)")).toBe("ORA-00942")
    await app.execute("GRANT SELECT ON t TO eve")
    expect(await code(eve, "CREATE INDEX ei ON app.t (v)")).toBe("ORA-01031")
    await app.execute("CREATE INDEX ai ON t (w)")
    expect((await eve.execute("SELECT index_name FROM user_indexes")).rows).toEqual([])
  })

  it("runs with the INDEX object privilege, or with CREATE ANY INDEX", async () => {
    await app.execute("GRANT INDEX ON t TO eve")
    await eve.execute("CREATE INDEX ei ON app.t (v)")
    expect((await eve.execute("SELECT index_name, table_name FROM user_indexes")).rows).toEqual([["EI", "T"]])
    await app.execute("REVOKE INDEX ON t FROM eve")
    expect(await code(eve, "CREATE INDEX ei2 ON app.t (v, w)")).toBe("ORA-01031")
    await dba.execute("GRANT CREATE ANY INDEX TO eve")
    await eve.execute("CREATE INDEX ei2 ON app.t (v, w)")
  })

  it("CREATE MATERIALIZED VIEW needs CREATE MATERIALIZED VIEW beside CREATE TABLE; CREATE / DROP CONTEXT the ANY CONTEXT privileges", async () => {
    // a user made by CREATE USER holds only what it is granted (the start-up users hold CREATE MATERIALIZED VIEW)
    await dba.execute("CREATE USER mo IDENTIFIED BY mo")
    await dba.execute("GRANT CREATE SESSION, CREATE TABLE TO mo")
    const mo = await connect("mo", "mo")
    opened.push(mo)
    expect(await code(mo, "CREATE MATERIALIZED VIEW mmv AS SELECT 1 x FROM dual")).toBe("ORA-01031")
    await dba.execute("GRANT CREATE MATERIALIZED VIEW TO mo")
    await mo.execute("CREATE MATERIALIZED VIEW mmv AS SELECT 1 x FROM dual")
    expect((await mo.execute("SELECT x FROM mmv")).rows).toEqual([[1]])
    expect(await code(mo, "CREATE OR REPLACE CONTEXT mctx USING app.pkg")).toBe("ORA-01031")
    await dba.execute("GRANT CREATE ANY CONTEXT TO mo")
    await mo.execute("CREATE OR REPLACE CONTEXT mctx USING app.pkg")
    expect(await code(mo, "DROP CONTEXT mctx")).toBe("ORA-01031")
    await dba.execute("DROP CONTEXT mctx")
  })
})
