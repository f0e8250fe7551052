import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

// Oracle Database Security Guide, "Granting a User Privileges to Grant Privileges" and "Cascading Effects of Revoking
// Privileges" (https://docs.oracle.com/en/database/oracle/oracle-database/19/dbseg/revokes-privileges-and-roles-user.html):
// a grantee WITH GRANT OPTION may grant the privilege on; revoking it from that grantee also revokes what it granted.
// Only a privilege's grantor revokes it (ORA-01927). Database Reference, ALL_TAB_PRIVS / USER_TAB_PRIVS / DBA_TAB_PRIVS:
// grants where the user is owner, grantor or grantee (ALL_: or PUBLIC is the grantee). ALL_TABLES and the other ALL_*
// views describe "the relational tables accessible to the current user" (Database Reference, ALL_TABLES).
describe("Oracle test server: WITH GRANT OPTION, the *_TAB_PRIVS views and what ALL_* views show", () => {
  let server: OracleTestServerHandle
  let app: Conn
  let bob: Conn
  let carol: Conn
  const code = async (conn: Conn, sql: string) => oraCode(await failure(() => conn.execute(sql)))
  const rows = async (conn: Conn, sql: string) => (await conn.execute(sql)).rows
  beforeAll(async () => {
    const s = await withServer({ users: [{ name: "app", password: "app" }, { name: "bob", password: "bob" }, { name: "carol", password: "carol" }] })
    server = s.server
    app = await s.connect("app", "app")
    bob = await s.connect("bob", "bob")
    carol = await s.connect("carol", "carol")
    await app.execute("CREATE TABLE t (id NUMBER CONSTRAINT t_pk PRIMARY KEY, v VARCHAR2(10))")
    await app.execute("CREATE TABLE hidden (a NUMBER)")
    await app.execute("CREATE VIEW tv AS SELECT id FROM t")
    await app.execute("INSERT INTO t VALUES (1, 'one')")
    await app.commit()
    await bob.execute("CREATE TABLE mine (b NUMBER)")
  })
  afterAll(async () => {
    for (const c of [app, bob, carol]) await c?.close()
    await server?.close()
  })

  it("lets a grantee WITH GRANT OPTION grant on, refuses it without, and cascades REVOKE", async () => {
    await app.execute("GRANT SELECT ON t TO bob")
    expect(await code(bob, "GRANT SELECT ON app.t TO carol")).toBe("ORA-01031")
    await app.execute("GRANT SELECT ON t TO bob WITH GRANT OPTION")
    await bob.execute("GRANT SELECT ON app.t TO carol")
    expect(await rows(carol, "SELECT id, v FROM app.t")).toEqual([[1, "one"]])
    // bob may not grant a privilege it holds without the option
    await app.execute("GRANT INSERT ON t TO bob")
    expect(await code(bob, "GRANT INSERT ON app.t TO carol")).toBe("ORA-01031")
    // only the grantor revokes: bob's grant to carol is not app's to revoke
    expect(await code(app, "REVOKE SELECT ON t FROM carol")).toBe("ORA-01927")
    await app.execute("REVOKE SELECT ON t FROM bob")
    expect(await code(bob, "SELECT * FROM app.t")).toBe("ORA-01031") // bob still holds INSERT
    expect(await code(carol, "SELECT * FROM app.t")).toBe("ORA-00942")
    await app.execute("REVOKE INSERT ON t FROM bob")
  })

  it("shows grants in USER_TAB_PRIVS, ALL_TAB_PRIVS and (for a DBA only) DBA_TAB_PRIVS", async () => {
    await app.execute("GRANT SELECT ON t TO bob WITH GRANT OPTION")
    await bob.execute("GRANT SELECT ON app.t TO carol")
    await app.execute("GRANT SELECT ON tv TO PUBLIC")
    const sql = "SELECT grantee, owner, table_name, grantor, privilege, grantable, type FROM user_tab_privs ORDER BY table_name, grantee"
    expect(await rows(app, sql)).toEqual([
      ["BOB", "APP", "T", "APP", "SELECT", "YES", "TABLE"],
      ["CAROL", "APP", "T", "BOB", "SELECT", "NO", "TABLE"],
      ["PUBLIC", "APP", "TV", "APP", "SELECT", "NO", "VIEW"]
    ])
    expect(await rows(carol, sql)).toEqual([["CAROL", "APP", "T", "BOB", "SELECT", "NO", "TABLE"]])
    expect(await rows(carol, "SELECT grantor, grantee, table_schema, table_name, privilege FROM all_tab_privs ORDER BY table_name")).toEqual([
      ["BOB", "CAROL", "APP", "T", "SELECT"],
      ["APP", "PUBLIC", "APP", "TV", "SELECT"]
    ])
    expect(await code(carol, "SELECT * FROM dba_tab_privs")).toBe("ORA-00942")
    await app.execute("REVOKE SELECT ON t FROM bob")
    expect(await rows(app, "SELECT COUNT(*) FROM user_tab_privs WHERE table_name = 'T'")).toEqual([[0]])
  })

  it("lists in the ALL_* views only what the user owns or holds a privilege on", async () => {
    // both hold SELECT on APP.TV through PUBLIC; nobody but APP holds anything on APP.HIDDEN
    await app.execute("GRANT SELECT ON t TO bob")
    const tables = "SELECT owner || '.' || table_name FROM all_tables WHERE owner IN ('APP', 'BOB', 'CAROL') ORDER BY 1"
    expect(await rows(bob, tables)).toEqual([["APP.T"], ["BOB.MINE"]])
    expect(await rows(carol, tables)).toEqual([])
    expect(await rows(app, tables)).toEqual([["APP.HIDDEN"], ["APP.T"]])
    expect(await rows(bob, "SELECT table_name, column_name FROM all_tab_columns WHERE owner = 'APP' ORDER BY 1, 2")).toEqual([
      ["T", "ID"],
      ["T", "V"],
      ["TV", "ID"]
    ])
    expect(await rows(bob, "SELECT object_name FROM all_objects WHERE owner = 'APP' ORDER BY 1")).toEqual([["T"], ["TV"]])
    expect(await rows(bob, "SELECT constraint_name FROM all_constraints WHERE owner = 'APP'")).toEqual([["T_PK"]])
    expect(await rows(bob, "SELECT column_name FROM all_cons_columns WHERE owner = 'APP'")).toEqual([["ID"]])
    expect(await rows(carol, "SELECT view_name FROM all_views WHERE owner = 'APP'")).toEqual([["TV"]])
    await app.execute("REVOKE SELECT ON t FROM bob")
    expect(await rows(bob, tables)).toEqual([["BOB.MINE"]])
  })
})
