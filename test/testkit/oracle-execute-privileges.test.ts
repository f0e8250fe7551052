import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, oracledb, withServer } from "./oracle/helpers.ts"

// SQL Language Reference, GRANT: procedures, functions and packages take EXECUTE (and DEBUG; ORA-02225 for another
// privilege), types EXECUTE / UNDER / DEBUG. Error Messages, PLS-00201 (https://docs.oracle.com/en/error-help/db/pls-00201/):
// a unit the caller holds no privilege on is reported as undeclared, and stored code runs with its owner's privileges
// "with no roles enabled except PUBLIC".
describe("Oracle test server: EXECUTE on procedures, functions, packages and types", () => {
  let server: OracleTestServerHandle
  let app: Conn
  let bob: Conn
  let dba: Conn
  const code = async (conn: Conn, sql: string) => oraCode(await failure(() => conn.execute(sql)))
  const message = async (conn: Conn, sql: string) => (await failure(() => conn.execute(sql, sql.includes(":r") ? out() : {}))).message as string
  const out = () => ({ r: { dir: oracledb.BIND_OUT, type: oracledb.STRING } })
  const note = async (conn: Conn, m: string) => (await conn.execute("BEGIN app.note(:m, :r); END;", { m, ...out() })).outBinds.r
  beforeAll(async () => {
    const s = await withServer({ users: [{ name: "app", password: "app" }, { name: "bob", password: "bob" }, { name: "dba", password: "dba", dba: true }] })
    server = s.server
    app = await s.connect("app", "app")
    bob = await s.connect("bob", "bob")
    dba = await s.connect("dba", "dba")
    await app.execute("CREATE TABLE log_t (msg VARCHAR2(20))")
    await app.execute("CREATE PROCEDURE note(m VARCHAR2, r OUT VARCHAR2) AS BEGIN r := 'noted ' || m; END;")
    await app.execute("CREATE FUNCTION twice(n NUMBER) RETURN NUMBER AS BEGIN RETURN n * 2; END;")
    await app.execute("CREATE PACKAGE pk AS PROCEDURE p(m VARCHAR2); END;")
    await app.execute("CREATE PACKAGE BODY pk AS PROCEDURE p(m VARCHAR2) IS BEGIN IF m IS NULL THEN RAISE_APPLICATION_ERROR(-20001, 'no m'); END IF; END; END;")
    await app.execute("CREATE TYPE pt AS OBJECT (x NUMBER)")
  })
  afterAll(async () => {
    for (const c of [app, bob, dba]) await c?.close()
    await server?.close()
  })

  it("refuses another user's call without EXECUTE as an undeclared identifier (PLS-00201 in ORA-06550), and allows it once granted", async () => {
    expect(oraCode(await failure(() => note(bob, "b")))).toBe("ORA-06550")
    expect(await message(bob, "BEGIN app.note('b', :r); END;")).toContain("PLS-00201: identifier 'APP.NOTE' must be declared")
    expect(await message(bob, "BEGIN app.pk.p('b'); END;")).toContain("PLS-00201")
    expect(await code(bob, "SELECT app.twice(2) FROM dual")).toBe("ORA-00904")
    await app.execute("GRANT EXECUTE ON note TO bob")
    await app.execute("GRANT EXECUTE ON pk TO bob")
    await app.execute("GRANT EXECUTE ON twice TO bob")
    expect(await note(bob, "b")).toBe("noted b")
    await bob.execute("BEGIN app.pk.p('b'); END;")
    expect(await message(bob, "BEGIN app.pk.p(NULL); END;")).toContain("ORA-20001: no m")
    expect((await bob.execute("SELECT app.twice(21) FROM dual")).rows).toEqual([[42]])
    expect((await bob.execute("SELECT table_name, privilege, type FROM user_tab_privs WHERE owner = 'APP' ORDER BY 1")).rows).toEqual([
      ["NOTE", "EXECUTE", "PROCEDURE"],
      ["PK", "EXECUTE", "PACKAGE"],
      ["TWICE", "EXECUTE", "FUNCTION"]
    ])
    // dropping a unit drops its grants: the new one of the same name starts with none
    await app.execute("DROP PACKAGE pk")
    await app.execute("CREATE PACKAGE pk AS PROCEDURE p(m VARCHAR2); END;")
    await app.execute("CREATE PACKAGE BODY pk AS PROCEDURE p(m VARCHAR2) IS BEGIN NULL; END; END;")
    expect(await message(bob, "BEGIN app.pk.p('b'); END;")).toContain("PLS-00201")
    await app.execute("REVOKE EXECUTE ON note FROM bob")
    expect(await message(bob, "BEGIN app.note('b', :r); END;")).toContain("PLS-00201")
  })

  it("takes only EXECUTE and DEBUG on procedures (ORA-02225), EXECUTE / UNDER on types, no EXECUTE on tables (ORA-02224)", async () => {
    expect(await code(app, "GRANT SELECT ON note TO bob")).toBe("ORA-02225")
    expect(await code(app, "GRANT EXECUTE ON log_t TO bob")).toBe("ORA-02224")
    await app.execute("GRANT EXECUTE ON pt TO bob")
    expect((await bob.execute("SELECT privilege, type FROM user_tab_privs WHERE table_name = 'PT'")).rows).toEqual([["EXECUTE", "TYPE"]])
    // bob holds EXECUTE on twice without the GRANT OPTION
    expect(await code(bob, "GRANT EXECUTE ON app.twice TO dba")).toBe("ORA-01031")
  })

  it("gives EXECUTE through a role to SQL and blocks, and EXECUTE ANY PROCEDURE everywhere", async () => {
    await dba.execute("CREATE ROLE runner")
    await app.execute("GRANT EXECUTE ON note TO runner")
    await dba.execute("GRANT runner TO bob")
    expect(await note(bob, "role")).toBe("noted role")
    await dba.execute("REVOKE runner FROM bob")
    expect(await message(bob, "BEGIN app.note('c', :r); END;")).toContain("PLS-00201")
    await dba.execute("GRANT EXECUTE ANY PROCEDURE TO bob")
    expect(await note(bob, "any")).toBe("noted any")
  })
})
