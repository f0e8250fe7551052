import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, withServer } from "./oracle/helpers.ts"

/**
 * Application contexts set from PL/SQL, through raw node-oracledb: `CREATE CONTEXT ns USING pkg` (SQL Language
 * Reference, "CREATE CONTEXT") trusts `pkg` to call DBMS_SESSION.SET_CONTEXT(ns, attribute, value) (PL/SQL Packages
 * and Types Reference, "DBMS_SESSION"), which SYS_CONTEXT(ns, attribute) then reads in the session; called from
 * anywhere else it is ORA-01031 (insufficient privileges).
 */
describe("Oracle test server: DBMS_SESSION.SET_CONTEXT with CREATE CONTEXT ... USING", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  let other: Conn
  beforeAll(async () => {
    // CREATE CONTEXT needs CREATE ANY CONTEXT (SQL Language Reference, "CREATE CONTEXT", Prerequisites), which an
    // application user does not hold: a DBA creates the namespace for the application's package
    const s = await withServer({ users: [{ name: "TEST", password: "test" }, { name: "ADMIN", password: "admin", dba: true }] })
    server = s.server
    conn = await s.connect()
    other = await s.connect()
    const admin = await s.connect("ADMIN", "admin")
    await admin.execute("CREATE CONTEXT app_ctx USING test.ctx_pkg")
    await admin.close()
    await conn.execute(`CREATE OR REPLACE PACKAGE ctx_pkg AS
      PROCEDURE set_tenant(t VARCHAR2);
    END ctx_pkg;`)
    await conn.execute(`CREATE OR REPLACE PACKAGE BODY ctx_pkg AS
      PROCEDURE set_tenant(t VARCHAR2) IS
      BEGIN
        DBMS_SESSION.SET_CONTEXT('app_ctx', 'tenant', t);
      END;
    END ctx_pkg;`)
  })
  afterAll(async () => {
    await other?.close()
    await conn?.close()
    await server?.close()
  })

  it("the trusted package sets an attribute SYS_CONTEXT reads, in its own session only", async () => {
    await conn.execute("BEGIN ctx_pkg.set_tenant('acme'); END;")
    expect((await conn.execute("SELECT SYS_CONTEXT('APP_CTX', 'TENANT'), SYS_CONTEXT('app_ctx', 'tenant') FROM dual")).rows).toEqual([["acme", "acme"]])
    expect((await other.execute("SELECT SYS_CONTEXT('app_ctx', 'tenant') FROM dual")).rows).toEqual([[null]])
  })

  it("SET_CONTEXT outside the trusted package, or of an unknown namespace, is ORA-01031", async () => {
    const outside = await failure(() => conn.execute("BEGIN DBMS_SESSION.SET_CONTEXT('app_ctx', 'tenant', 'evil'); END;"))
    expect(outside.message).toMatch(/^ORA-01031: insufficient privileges/)
    const unknown = await failure(() => conn.execute("BEGIN DBMS_SESSION.SET_CONTEXT('nope_ctx', 'a', 'b'); END;"))
    expect(unknown.message).toMatch(/^ORA-01031: insufficient privileges/)
    expect((await conn.execute("SELECT SYS_CONTEXT('app_ctx', 'tenant') FROM dual")).rows).toEqual([["acme"]])
  })
})
