import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

// The ownership model: without a privilege on another user's table, Oracle hides it (ORA-00942); holding some
// privilege but not the one needed gives ORA-01031; creating in another schema needs CREATE ANY TABLE (ORA-01031);
// DBA_* views need SELECT ANY DICTIONARY (ORA-00942). GRANT ... ON t TO u gives the object privilege.
// https://docs.oracle.com/en/database/oracle/oracle-database/23/dbseg/configuring-privilege-and-role-authorization.html
describe("Oracle test server: object privileges between two users", () => {
  let server: OracleTestServerHandle
  let app: Conn
  let bob: Conn
  let dba: Conn
  const code = async (conn: Conn, sql: string) => oraCode(await failure(() => conn.execute(sql)))
  beforeAll(async () => {
    const s = await withServer({ users: [{ name: "app", password: "app" }, { name: "bob", password: "bob" }, { name: "dba", password: "dba", dba: true }] })
    server = s.server
    app = await s.connect("app", "app")
    bob = await s.connect("bob", "bob")
    dba = await s.connect("dba", "dba")
    await app.execute("CREATE TABLE pk (id NUMBER PRIMARY KEY, v VARCHAR2(10))")
    await app.execute("INSERT INTO pk VALUES (1, 'one')")
    await app.commit()
  })
  afterAll(async () => {
    await app?.close()
    await bob?.close()
    await dba?.close()
    await server?.close()
  })

  it("hides another user's table from a user without a grant (ORA-00942), and refuses creating in its schema (ORA-01031)", async () => {
    expect(await code(bob, "SELECT * FROM app.pk")).toBe("ORA-00942")
    expect(await code(bob, "INSERT INTO app.pk VALUES (2, 'two')")).toBe("ORA-00942")
    expect(await code(bob, "UPDATE app.pk SET v = 'x'")).toBe("ORA-00942")
    expect(await code(bob, "DELETE FROM app.pk")).toBe("ORA-00942")
    expect(await code(bob, "DROP TABLE app.pk")).toBe("ORA-00942")
    expect(await code(bob, "SELECT p.id FROM dual d, app.pk p")).toBe("ORA-00942")
    expect(await code(bob, "SELECT 1 FROM dual WHERE EXISTS (SELECT 1 FROM app.pk)")).toBe("ORA-00942")
    expect(oraCode(await failure(() => bob.directPathLoad("APP", "PK", ["ID", "V"], [[9, "nine"]])))).toBe("ORA-00942")
    expect(await code(bob, "CREATE TABLE app.x (a NUMBER)")).toBe("ORA-01031")
    expect(await code(bob, "SELECT username FROM dba_users")).toBe("ORA-00942")
    // and the table is as it was
    expect((await app.execute("SELECT id, v FROM pk")).rows).toEqual([[1, "one"]])
  })

  it("allows what GRANT gives, refuses the rest with ORA-01031, and takes it back with REVOKE", async () => {
    await app.execute("GRANT SELECT ON pk TO bob")
    expect((await bob.execute("SELECT id, v FROM app.pk")).rows).toEqual([[1, "one"]])
    expect(await code(bob, "INSERT INTO app.pk VALUES (2, 'two')")).toBe("ORA-01031")
    expect(await code(bob, "DROP TABLE app.pk")).toBe("ORA-01031")
    await app.execute("GRANT INSERT, UPDATE ON pk TO bob")
    await bob.execute("INSERT INTO app.pk VALUES (2, 'two')")
    await bob.execute("UPDATE app.pk SET v = 'TWO' WHERE id = 2")
    expect(await code(bob, "DELETE FROM app.pk")).toBe("ORA-01031")
    await bob.commit()
    expect((await app.execute("SELECT id, v FROM pk ORDER BY id")).rows).toEqual([[1, "one"], [2, "TWO"]])
    // only the owner (or a DBA) grants
    expect(await code(bob, "GRANT DELETE ON app.pk TO bob")).toBe("ORA-01031")
    await app.execute("REVOKE ALL ON pk FROM bob")
    expect(await code(bob, "SELECT * FROM app.pk")).toBe("ORA-00942")
    // a grant to PUBLIC is everyone's
    await app.execute("GRANT SELECT ON pk TO PUBLIC")
    expect((await bob.execute("SELECT COUNT(*) FROM app.pk")).rows).toEqual([[2]])
    await app.execute("REVOKE SELECT ON pk FROM PUBLIC")
  })

  it("lets a DBA read and write every schema and the DBA_* views, and grant the DBA role", async () => {
    expect((await dba.execute("SELECT COUNT(*) FROM app.pk")).rows).toEqual([[2]])
    await dba.execute("CREATE TABLE app.by_dba (a NUMBER)")
    await dba.execute("DROP TABLE app.by_dba")
    expect((await dba.execute("SELECT COUNT(*) FROM dba_users WHERE username = 'BOB'")).rows).toEqual([[1]])
    expect(await code(app, "GRANT DBA TO bob")).toBe("ORA-01031")
    await dba.execute("GRANT DBA TO bob")
    // a role granted or revoked counts in an open session from its next SET ROLE (Database Security Guide, "When
    // Grants and Revokes Take Effect"; test/testkit/oracle-set-role.test.ts)
    await bob.execute("SET ROLE ALL")
    expect((await bob.execute("SELECT COUNT(*) FROM app.pk")).rows).toEqual([[2]])
    await dba.execute("REVOKE DBA FROM bob")
    await bob.execute("SET ROLE ALL")
    expect(await code(bob, "SELECT * FROM app.pk")).toBe("ORA-00942")
  })

  it("checks the privilege of CREATE USER before its tablespace (ORA-01031, not ORA-00959)", async () => {
    expect(await code(app, "CREATE USER eve IDENTIFIED BY eve DEFAULT TABLESPACE nosuch")).toBe("ORA-01031")
    expect(await code(dba, "CREATE USER eve IDENTIFIED BY eve DEFAULT TABLESPACE nosuch")).toBe("ORA-00959")
  })
})
