import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

// Oracle Database Security Guide, "Configuring Privilege and Role Authorization"; SQL Language Reference, GRANT /
// REVOKE / CREATE ROLE: a user created by CREATE USER holds no privilege (ORA-01045 at logon without CREATE SESSION,
// ORA-01031 for CREATE TABLE without CREATE TABLE); system privileges and roles are granted to users, roles or PUBLIC,
// WITH ADMIN OPTION to let the grantee grant them on. Database Reference: USER_SYS_PRIVS, DBA_SYS_PRIVS,
// SESSION_PRIVS, SESSION_ROLES, USER_ROLE_PRIVS, ROLE_SYS_PRIVS, ROLE_TAB_PRIVS, DBA_ROLES.
describe("Oracle test server: system privileges and roles", () => {
  let server: OracleTestServerHandle
  let connect: (user: string, password: string) => Promise<Conn>
  let dba: Conn
  let app: Conn
  const opened: Array<Conn> = []
  const code = async (conn: Conn, sql: string) => oraCode(await failure(() => conn.execute(sql)))
  const rows = async (conn: Conn, sql: string) => (await conn.execute(sql)).rows
  const login = async (user: string, password: string) => {
    const c = await connect(user, password)
    opened.push(c)
    return c
  }
  beforeAll(async () => {
    const s = await withServer({ users: [{ name: "dba", password: "dba", dba: true }, { name: "app", password: "app" }] })
    server = s.server
    connect = s.connect
    dba = await login("dba", "dba")
    app = await login("app", "app")
    await app.execute("CREATE TABLE t (id NUMBER PRIMARY KEY, v VARCHAR2(10))")
    await app.execute("INSERT INTO t VALUES (1, 'one')")
    await app.commit()
  })
  afterAll(async () => {
    for (const c of opened) await c?.close()
    await server?.close()
  })

  it("refuses the logon of a new user without CREATE SESSION (ORA-01045) and CREATE TABLE without the privilege (ORA-01031)", async () => {
    await dba.execute("CREATE USER eve IDENTIFIED BY eve")
    expect(oraCode(await failure(() => connect("eve", "eve")))).toBe("ORA-01045")
    await dba.execute("GRANT CREATE SESSION TO eve")
    const eve = await connect("eve", "eve")
    expect(await rows(eve, "SELECT privilege FROM session_privs")).toEqual([["CREATE SESSION"]])
    expect(await code(eve, "CREATE TABLE e (a NUMBER)")).toBe("ORA-01031")
    expect(await code(eve, "CREATE VIEW ev AS SELECT 1 x FROM dual")).toBe("ORA-01031")
    expect(await code(eve, "CREATE SEQUENCE es")).toBe("ORA-01031")
    expect(await code(eve, "CREATE PROCEDURE ep AS BEGIN NULL; END;")).toBe("ORA-01031")
    expect(await code(eve, "CREATE SYNONYM esyn FOR app.t")).toBe("ORA-01031")
    await dba.execute("GRANT CREATE TABLE, CREATE VIEW TO eve")
    await eve.execute("CREATE TABLE e (a NUMBER)")
    await eve.execute("CREATE VIEW ev AS SELECT a FROM e")
    expect(await rows(eve, "SELECT username, privilege, admin_option FROM user_sys_privs ORDER BY privilege")).toEqual([
      ["EVE", "CREATE SESSION", "NO"],
      ["EVE", "CREATE TABLE", "NO"],
      ["EVE", "CREATE VIEW", "NO"]
    ])
    await eve.close()
    // revoked: the next logon is refused
    await dba.execute("REVOKE CREATE SESSION FROM eve")
    expect(oraCode(await failure(() => connect("eve", "eve")))).toBe("ORA-01045")
    expect(await code(dba, "REVOKE CREATE SESSION FROM eve")).toBe("ORA-01952")
    // ALL PRIVILEGES: every system privilege, and a dropped user's grants go with it
    await dba.execute("GRANT ALL PRIVILEGES TO eve")
    expect(await rows(dba, "SELECT COUNT(*) FROM dba_sys_privs WHERE grantee = 'EVE' AND privilege IN ('CREATE SESSION', 'SELECT ANY TABLE', 'DROP USER')")).toEqual([[3]])
    await dba.execute("DROP USER eve CASCADE")
    await dba.execute("CREATE USER eve IDENTIFIED BY eve")
    expect(oraCode(await failure(() => connect("eve", "eve")))).toBe("ORA-01045")
    expect(await code(dba, "GRANT CREATE NONSENSE TO eve")).toBe("ORA-00990")
    expect(await code(dba, "GRANT CREATE SESSION TO nobody")).toBe("ORA-01917")
  })

  it("lets the server's start-up users do what they did (CONNECT, RESOURCE and the schema privileges), and no more", async () => {
    expect(await rows(app, "SELECT granted_role FROM user_role_privs ORDER BY 1")).toEqual([["CONNECT"], ["RESOURCE"]])
    expect(await rows(app, "SELECT role FROM session_roles ORDER BY 1")).toEqual([["CONNECT"], ["RESOURCE"]])
    const privs = (await rows(app, "SELECT privilege FROM session_privs")).map((r: Array<string>) => r[0])
    expect(privs).toEqual(expect.arrayContaining(["CREATE SESSION", "CREATE TABLE", "CREATE VIEW", "CREATE SEQUENCE", "CREATE PROCEDURE", "CREATE TYPE", "CREATE SYNONYM", "CREATE TRIGGER"]))
    expect(privs).not.toContain("SELECT ANY TABLE")
    expect(await code(app, "SELECT * FROM dba_sys_privs")).toBe("ORA-00942")
    expect(await code(app, "GRANT CREATE TABLE TO eve")).toBe("ORA-01031")
    expect(await code(app, "CREATE USER mallory IDENTIFIED BY m")).toBe("ORA-01031")
    expect(await rows(dba, "SELECT privilege FROM dba_sys_privs WHERE grantee = 'CONNECT' ORDER BY 1")).toEqual([["CREATE SESSION"], ["SET CONTAINER"]])
  })

  it("gives the ANY privileges on every schema, and WITH ADMIN OPTION lets the grantee grant on", async () => {
    await dba.execute("CREATE USER ann IDENTIFIED BY ann")
    await dba.execute("GRANT CREATE SESSION TO ann")
    const ann = await login("ann", "ann")
    expect(await code(ann, "SELECT v FROM app.t")).toBe("ORA-00942")
    await dba.execute("GRANT SELECT ANY TABLE TO ann WITH ADMIN OPTION")
    expect(await rows(ann, "SELECT v FROM app.t")).toEqual([["one"]])
    expect(await code(ann, "UPDATE app.t SET v = 'x'")).toBe("ORA-01031")
    expect(await code(ann, "CREATE TABLE app.x (a NUMBER)")).toBe("ORA-01031")
    await dba.execute("GRANT CREATE ANY TABLE TO ann")
    await ann.execute("CREATE TABLE app.x (a NUMBER)")
    // ann holds SELECT ANY TABLE with the ADMIN OPTION, not CREATE ANY TABLE
    await ann.execute("GRANT SELECT ANY TABLE TO eve")
    expect(await code(ann, "GRANT CREATE ANY TABLE TO eve")).toBe("ORA-01031")
    expect(await rows(dba, "SELECT grantee, admin_option FROM dba_sys_privs WHERE privilege = 'SELECT ANY TABLE' ORDER BY 1")).toEqual([["ANN", "YES"], ["EVE", "NO"]])
    await dba.execute("GRANT SELECT ANY DICTIONARY TO ann")
    expect(await rows(ann, "SELECT COUNT(*) FROM dba_users WHERE username = 'APP'")).toEqual([[1]])
  })

  it("creates roles, grants privileges and roles to them, and lets their holders use them", async () => {
    await dba.execute("CREATE USER rob IDENTIFIED BY rob")
    expect(await code(app, "CREATE ROLE reader")).toBe("ORA-01031")
    await dba.execute("CREATE ROLE reader")
    expect(await code(dba, "CREATE ROLE reader")).toBe("ORA-01921")
    expect(await code(dba, "CREATE ROLE app")).toBe("ORA-01921")
    await dba.execute("CREATE ROLE base")
    await dba.execute("GRANT CREATE SESSION TO base")
    await dba.execute("GRANT base TO reader")
    expect(await code(dba, "GRANT reader TO base")).toBe("ORA-01934")
    await app.execute("GRANT SELECT ON t TO reader")
    expect(await code(app, "GRANT UPDATE ON t TO reader WITH GRANT OPTION")).toBe("ORA-01926")
    // the logon needs CREATE SESSION, which rob holds through reader's base
    expect(oraCode(await failure(() => connect("rob", "rob")))).toBe("ORA-01045")
    await dba.execute("GRANT reader TO rob")
    const rob = await login("rob", "rob")
    expect(await rows(rob, "SELECT v FROM app.t")).toEqual([["one"]])
    expect(await code(rob, "DELETE FROM app.t")).toBe("ORA-01031")
    expect(await rows(rob, "SELECT role FROM session_roles ORDER BY 1")).toEqual([["BASE"], ["READER"]])
    expect(await rows(rob, "SELECT username, granted_role, admin_option, default_role FROM user_role_privs")).toEqual([["ROB", "READER", "NO", "YES"]])
    expect(await rows(rob, "SELECT role, privilege FROM role_sys_privs")).toEqual([["BASE", "CREATE SESSION"]])
    expect(await rows(rob, "SELECT role, owner, table_name, privilege FROM role_tab_privs")).toEqual([["READER", "APP", "T", "SELECT"]])
    // the ALL_* views show what an enabled role makes accessible (Database Reference, ALL_TAB_PRIVS, ALL_TABLES)
    expect(await rows(rob, "SELECT table_name FROM all_tables WHERE owner = 'APP'")).toEqual([["T"]])
    expect(await rows(rob, "SELECT grantee, table_name, privilege FROM all_tab_privs WHERE table_schema = 'APP'")).toEqual([["READER", "T", "SELECT"]])
    expect(await rows(dba, "SELECT role, oracle_maintained FROM dba_roles WHERE role IN ('READER', 'DBA', 'CONNECT') ORDER BY 1")).toEqual([["CONNECT", "Y"], ["DBA", "Y"], ["READER", "N"]])
    expect(await rows(dba, "SELECT grantee, granted_role FROM dba_role_privs WHERE granted_role IN ('READER', 'BASE') ORDER BY 1, 2")).toEqual([["DBA", "BASE"], ["DBA", "READER"], ["READER", "BASE"], ["ROB", "READER"]])
    // only a holder WITH ADMIN OPTION (the creator) grants it on
    expect(await code(rob, "GRANT reader TO app")).toBe("ORA-01031")
    // revoking the object privilege from the role takes effect at once
    await app.execute("REVOKE SELECT ON t FROM reader")
    expect(await code(rob, "SELECT v FROM app.t")).toBe("ORA-00942")
    await dba.execute("REVOKE reader FROM rob")
    expect(await code(dba, "REVOKE reader FROM rob")).toBe("ORA-01951")
    expect(oraCode(await failure(() => connect("rob", "rob")))).toBe("ORA-01045")
    await dba.execute("DROP ROLE reader")
    expect(await code(dba, "DROP ROLE reader")).toBe("ORA-01919")
    expect(await code(dba, "GRANT reader TO rob")).toBe("ORA-01919")
  })
})
