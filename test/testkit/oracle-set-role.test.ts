/**
 * Roles enabled per session. "When a user logs on, Oracle Database enables all privileges granted explicitly to the
 * user and all privileges in the user's default roles. During the session, the user or an application can use the
 * SET ROLE statement any number of times to change the roles currently enabled" (SQL Language Reference, SET ROLE).
 * "All grants and revokes of system and object privileges ... take immediate effect. All grants and revokes of roles
 * ... take effect only when a current user session issues a SET ROLE statement to reenable the role after the grant
 * and revoke, or when a new user session is created" (Database Security Guide, "When Grants and Revokes Take
 * Effect"). ALTER USER ... DEFAULT ROLE chooses the roles enabled at logon (ORA-01955 for a role not granted to the
 * user directly); SET ROLE of a role not granted is ORA-01924, of a password-protected role without its password
 * ORA-01979, and SET ROLE ALL leaves out password-protected roles granted directly. Raw node-oracledb.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

describe("Oracle test server: SET ROLE, default roles and when role grants take effect", () => {
  let server: OracleTestServerHandle
  const opened: Array<Conn> = []
  let dba: Conn
  let app: Conn
  let connect: (user: string, password: string) => Promise<Conn>
  const open = async (user: string) => {
    const c = await connect(user, user)
    opened.push(c)
    return c
  }
  const code = async (conn: Conn, sql: string) => oraCode(await failure(() => conn.execute(sql)))
  const sessionRoles = async (conn: Conn) => (await conn.execute("SELECT role FROM session_roles ORDER BY role")).rows.map((r: Array<string>) => r[0])
  beforeAll(async () => {
    const s = await withServer({ users: [{ name: "dba", password: "dba", dba: true }, { name: "app", password: "app" }] })
    server = s.server
    connect = s.connect
    dba = await open("dba")
    app = await open("app")
    await app.execute("CREATE TABLE secrets (id NUMBER)")
    await app.execute("INSERT INTO secrets VALUES (1)")
    await app.commit()
    await dba.execute("CREATE USER rita IDENTIFIED BY rita")
    await dba.execute("GRANT CREATE SESSION TO rita")
    await dba.execute("CREATE ROLE reader")
    await app.execute("GRANT SELECT ON secrets TO reader")
  })
  afterAll(async () => {
    for (const c of opened) await c?.close()
    await server?.close()
  })

  it("a role granted to a logged-on user counts from its SET ROLE or next logon, not at once; its privileges change at once", async () => {
    const rita = await open("rita")
    await dba.execute("GRANT reader TO rita")
    expect(await code(rita, "SELECT id FROM app.secrets")).toBe("ORA-00942")
    expect(await sessionRoles(rita)).toEqual([])
    await rita.execute("SET ROLE reader")
    expect(await sessionRoles(rita)).toEqual(["READER"])
    expect((await rita.execute("SELECT id FROM app.secrets")).rows).toEqual([[1]])
    // a privilege granted to an enabled role counts at once
    await dba.execute("GRANT CREATE TABLE TO reader")
    expect((await rita.execute("SELECT privilege FROM session_privs WHERE privilege = 'CREATE TABLE'")).rows).toEqual([["CREATE TABLE"]])
    const later = await open("rita")
    expect(await sessionRoles(later)).toEqual(["READER"])
    // a revoked role stays enabled in the open session until SET ROLE
    await dba.execute("REVOKE reader FROM rita")
    expect((await rita.execute("SELECT id FROM app.secrets")).rows).toEqual([[1]])
    expect(await code(rita, "SET ROLE reader")).toBe("ORA-01924")
    await rita.execute("SET ROLE NONE")
    expect(await code(rita, "SELECT id FROM app.secrets")).toBe("ORA-00942")
  })

  it("SET ROLE NONE disables the roles, SET ROLE ALL [EXCEPT] enables them again", async () => {
    await dba.execute("GRANT reader TO rita")
    const rita = await open("rita")
    expect((await rita.execute("SELECT id FROM app.secrets")).rows).toEqual([[1]])
    await rita.execute("SET ROLE NONE")
    expect(await code(rita, "SELECT id FROM app.secrets")).toBe("ORA-00942")
    await rita.execute("SET ROLE ALL EXCEPT reader")
    expect(await sessionRoles(rita)).toEqual([])
    await rita.execute("SET ROLE ALL")
    expect(await sessionRoles(rita)).toEqual(["READER"])
    expect(await code(rita, "SET ROLE dba")).toBe("ORA-01924")
  })

  it("ALTER USER ... DEFAULT ROLE chooses the roles a new session enables; USER_ROLE_PRIVS shows DEFAULT_ROLE", async () => {
    expect(await code(dba, "ALTER USER rita DEFAULT ROLE connect")).toBe("ORA-01955")
    await dba.execute("ALTER USER rita DEFAULT ROLE NONE")
    const rita = await open("rita")
    expect(await sessionRoles(rita)).toEqual([])
    expect((await rita.execute("SELECT granted_role, default_role FROM user_role_privs")).rows).toEqual([["READER", "NO"]])
    await rita.execute("SET ROLE reader")
    expect((await rita.execute("SELECT id FROM app.secrets")).rows).toEqual([[1]])
    // only ALTER USER changes default roles, one's own too
    expect(await code(rita, "ALTER USER rita DEFAULT ROLE ALL")).toBe("ORA-01031")
    await dba.execute("ALTER USER rita DEFAULT ROLE ALL")
    expect(await sessionRoles(await open("rita"))).toEqual(["READER"])
  })

  it("a role IDENTIFIED BY a password needs it in SET ROLE (ORA-01979), SET ROLE ALL leaves it out; ALTER ROLE changes it", async () => {
    await dba.execute("CREATE ROLE vault IDENTIFIED BY opensesame")
    await app.execute("GRANT SELECT ON secrets TO vault")
    await dba.execute("GRANT vault TO rita")
    await dba.execute("ALTER USER rita DEFAULT ROLE ALL EXCEPT vault")
    expect((await dba.execute("SELECT password_required, authentication_type FROM dba_roles WHERE role = 'VAULT'")).rows).toEqual([["YES", "PASSWORD"]])
    const rita = await open("rita")
    await rita.execute("SET ROLE NONE")
    expect(await code(rita, "SET ROLE vault")).toBe("ORA-01979")
    expect(await code(rita, "SET ROLE vault IDENTIFIED BY wrong")).toBe("ORA-01979")
    await rita.execute("SET ROLE ALL")
    expect(await sessionRoles(rita)).toEqual(["READER"])
    await rita.execute("SET ROLE vault IDENTIFIED BY opensesame")
    expect(await sessionRoles(rita)).toEqual(["VAULT"])
    expect((await rita.execute("SELECT id FROM app.secrets")).rows).toEqual([[1]])
    expect(await code(rita, "ALTER ROLE vault NOT IDENTIFIED")).toBe("ORA-01031")
    await dba.execute("ALTER ROLE vault NOT IDENTIFIED")
    await rita.execute("SET ROLE vault")
    expect(await code(dba, "ALTER ROLE nosuch NOT IDENTIFIED")).toBe("ORA-01919")
  })
})
