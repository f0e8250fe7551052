import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

// SQL Language Reference, "GRANT" (object privileges): a sequence takes SELECT and ALTER only (ORA-02205 "only SELECT
// and ALTER privileges are valid for sequences"); another schema's sequence is used with SELECT on it, and without
// any privilege on it is hidden: ORA-02289 "sequence does not exist" (https://docs.oracle.com/en/error-help/db/ora-02289/).
// The grants show in ALL_TAB_PRIVS with TYPE SEQUENCE (Database Reference, ALL_TAB_PRIVS).
describe("Oracle test server: object privileges on sequences", () => {
  let close: () => Promise<void>
  let app: Conn
  let bob: Conn
  const code = async (conn: Conn, sql: string) => oraCode(await failure(() => conn.execute(sql)))
  beforeAll(async () => {
    const s = await withServer({ users: [{ name: "app", password: "app" }, { name: "bob", password: "bob" }] })
    app = await s.connect("app", "app")
    bob = await s.connect("bob", "bob")
    close = async () => {
      await app.close()
      await bob.close()
      await s.server.close()
    }
    await app.execute("CREATE SEQUENCE ids")
  })
  afterAll(async () => close?.())

  it("needs SELECT on another schema's sequence, granted and revoked by its owner", async () => {
    expect(await code(bob, "SELECT app.ids.NEXTVAL FROM dual")).toBe("ORA-02289")
    expect(await code(app, "GRANT INSERT ON ids TO bob")).toBe("ORA-02205")
    await app.execute("GRANT SELECT ON ids TO bob")
    expect((await bob.execute("SELECT app.ids.NEXTVAL FROM dual")).rows).toEqual([[1]])
    expect((await bob.execute("SELECT table_name, privilege, type FROM all_tab_privs WHERE grantee = 'BOB'")).rows).toEqual([["IDS", "SELECT", "SEQUENCE"]])
    await app.execute("REVOKE SELECT ON ids FROM bob")
    expect(await code(bob, "SELECT app.ids.NEXTVAL FROM dual")).toBe("ORA-02289")
  })
  it("needs ALTER to alter another schema's sequence, and SELECT, not ALTER, for NEXTVAL", async () => {
    await app.execute("CREATE SEQUENCE alt")
    expect(await code(bob, "ALTER SEQUENCE app.alt INCREMENT BY 5")).toBe("ORA-02289")
    await app.execute("GRANT ALTER ON alt TO bob")
    await bob.execute("ALTER SEQUENCE app.alt INCREMENT BY 5")
    expect(await code(bob, "SELECT app.alt.NEXTVAL FROM dual")).toBe("ORA-01031")
    await app.execute("REVOKE ALTER ON alt FROM bob")
    await app.execute("GRANT SELECT ON alt TO bob")
    expect(await code(bob, "ALTER SEQUENCE app.alt INCREMENT BY 1")).toBe("ORA-01031")
  })
})
