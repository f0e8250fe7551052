/**
 * A column of another schema's object type needs EXECUTE on the type: "EXECUTE enables you to use the type to:
 * Define a table. Define a column in a relational table. Declare a variable or parameter of the named type"
 * (Object-Relational Developer's Guide, "Privileges on Object Types and Their Methods"), granted directly, to PUBLIC
 * or to an enabled role, or EXECUTE ANY TYPE. Without it the type is not there for the user: ORA-00902 invalid
 * datatype (the code is Unconfirmed). Raw node-oracledb.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

describe("Oracle test server: EXECUTE on a type another schema's table column uses", () => {
  let server: OracleTestServerHandle
  const opened: Array<Conn> = []
  let dba: Conn
  let app: Conn
  let bob: Conn
  const code = async (conn: Conn, sql: string) => oraCode(await failure(() => conn.execute(sql)))
  beforeAll(async () => {
    const s = await withServer({ users: [{ name: "dba", password: "dba", dba: true }, { name: "app", password: "app" }, { name: "bob", password: "bob" }] })
    server = s.server
    for (const u of ["dba", "app", "bob"]) opened.push(await s.connect(u, u))
    ;[dba, app, bob] = opened
    await app.execute("CREATE TYPE point_t AS OBJECT (x NUMBER, y NUMBER)")
  })
  afterAll(async () => {
    for (const c of opened) await c?.close()
    await server?.close()
  })

  it("is ORA-00902 without EXECUTE on the type, and creates the table with it", async () => {
    expect(await code(bob, "CREATE TABLE places (id NUMBER, p app.point_t)")).toBe("ORA-00902")
    await app.execute("GRANT EXECUTE ON point_t TO bob")
    await bob.execute("CREATE TABLE places (id NUMBER, p app.point_t)")
    await bob.execute("INSERT INTO places VALUES (1, app.point_t(1, 2))")
    expect((await bob.execute("SELECT t.p.x, t.p.y FROM places t")).rows).toEqual([[1, 2]])
  })

  it("EXECUTE ANY TYPE stands for EXECUTE on every type", async () => {
    await app.execute("REVOKE EXECUTE ON point_t FROM bob")
    expect(await code(bob, "CREATE TABLE places2 (p app.point_t)")).toBe("ORA-00902")
    await dba.execute("GRANT EXECUTE ANY TYPE TO bob")
    await bob.execute("CREATE TABLE places2 (p app.point_t)")
  })
})
