/**
 * Oracle test server: the privileges a view's owner needs on the objects its query names (raw node-oracledb).
 *
 * "The owner of the schema containing the view must have the privileges necessary to either select (READ or SELECT
 * privilege), insert, update, or delete rows from all the tables or views on which the view is based. The owner must
 * be granted these privileges directly, rather than through a role" (SQL Language Reference, CREATE VIEW,
 * Prerequisites); "before you can grant other users access to your view, you must have object privileges to the base
 * objects with the GRANT OPTION clause" (Database Security Guide, "Privileges Required to Create Views"); a view is
 * valid only while "the owner of the view ... has the necessary privileges for the referenced objects" (Database
 * Concepts, "Compilation of Views and PL/SQL Program Units"). Codes: ORA-01031 "insufficient privileges", ORA-01720
 * "grant option does not exist for 'APP.T'", ORA-04063 "view ... has errors" (Database Error Messages).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

describe("Oracle test server: a view's owner's privileges on its base objects", () => {
  let server: OracleTestServerHandle
  let connect: (user: string, password: string) => Promise<Conn>
  const opened: Array<Conn> = []
  let app: Conn
  let bob: Conn
  let carol: Conn
  let dba: Conn
  const open = async (user: string) => {
    const c = await connect(user, user)
    opened.push(c)
    return c
  }
  const code = async (conn: Conn, sql: string) => oraCode(await failure(() => conn.execute(sql)))
  const message = async (conn: Conn, sql: string) => String((await failure(() => conn.execute(sql))).message).split("\n")[0]
  const rows = async (conn: Conn, sql: string) => (await conn.execute(sql)).rows
  beforeAll(async () => {
    const s = await withServer({ users: [{ name: "app", password: "app" }, { name: "bob", password: "bob" }, { name: "carol", password: "carol" }, { name: "dba", password: "dba", dba: true }] })
    server = s.server
    connect = s.connect
    app = await open("app")
    bob = await open("bob")
    carol = await open("carol")
    dba = await open("dba")
    for (const sql of ["CREATE TABLE vp_t (id NUMBER PRIMARY KEY, v VARCHAR2(10))", "INSERT INTO vp_t VALUES (1, 'one')", "CREATE TABLE vp_r (id NUMBER PRIMARY KEY, v VARCHAR2(10))", "INSERT INTO vp_r VALUES (1, 'one')"]) await app.execute(sql)
    await app.commit()
  })
  afterAll(async () => {
    for (const c of opened) await c?.close()
    await server?.close()
  })

  it("a write through a view needs its owner's privilege on the base table (ORA-01031), not the writer's", async () => {
    await app.execute("GRANT SELECT ON vp_t TO bob")
    await bob.execute("CREATE VIEW vp_v AS SELECT id, v FROM app.vp_t")
    expect(await rows(bob, "SELECT id, v FROM vp_v")).toEqual([[1, "one"]])
    expect(await message(bob, "INSERT INTO vp_v VALUES (2, 'two')")).toBe("ORA-01031: insufficient privileges")
    expect(await code(bob, "UPDATE vp_v SET v = 'x'")).toBe("ORA-01031")
    expect(await code(bob, "DELETE FROM vp_v")).toBe("ORA-01031")
    expect(await code(bob, "MERGE INTO vp_v d USING (SELECT 1 id FROM dual) s ON (d.id = s.id) WHEN MATCHED THEN UPDATE SET d.v = 'm'")).toBe("ORA-01031")
    await app.execute("GRANT INSERT, UPDATE ON vp_t TO bob")
    expect((await bob.execute("INSERT INTO vp_v VALUES (2, 'two')")).rowsAffected).toBe(1)
    expect((await bob.execute("UPDATE vp_v SET v = 'TWO' WHERE id = 2")).rowsAffected).toBe(1)
    expect(await code(bob, "DELETE FROM vp_v WHERE id = 2")).toBe("ORA-01031")
    await bob.commit()
    expect(await rows(app, "SELECT id, v FROM vp_t ORDER BY id")).toEqual([[1, "one"], [2, "TWO"]])
    // a user the view's owner granted INSERT on the view writes with the owner's privileges on the table
    await app.execute("GRANT DELETE ON vp_t TO bob WITH GRANT OPTION")
    await bob.execute("GRANT DELETE ON vp_v TO carol")
    expect((await carol.execute("DELETE FROM bob.vp_v WHERE id = 2")).rowsAffected).toBe(1)
    await carol.commit()
    expect(await code(carol, "SELECT * FROM app.vp_t")).toBe("ORA-00942")
  })

  it("a privilege the view's owner holds through a role does not count for the view", async () => {
    await dba.execute("CREATE ROLE vp_writer")
    await app.execute("GRANT SELECT, UPDATE ON vp_r TO vp_writer")
    await app.execute("GRANT SELECT ON vp_r TO carol")
    await dba.execute("GRANT vp_writer TO carol")
    const c = await open("carol")
    expect((await c.execute("UPDATE app.vp_r SET v = 'direct' WHERE id = 1")).rowsAffected).toBe(1)
    await c.rollback()
    await c.execute("CREATE VIEW vp_rv AS SELECT id, v FROM app.vp_r")
    expect(await code(c, "UPDATE vp_rv SET v = 'view' WHERE id = 1")).toBe("ORA-01031")
    // with no direct privilege at all, CREATE VIEW itself fails (ORA-01031: the table is visible through the role)
    await app.execute("REVOKE SELECT ON vp_r FROM carol")
    expect(await code(c, "CREATE VIEW vp_rv2 AS SELECT id, v FROM app.vp_r")).toBe("ORA-01031")
  })

  it("granting on a view needs the owner's grant option on its base objects (ORA-01720)", async () => {
    await app.execute("GRANT SELECT ON vp_r TO bob")
    await bob.execute("CREATE VIEW vp_rv AS SELECT id, v FROM app.vp_r")
    expect(await message(bob, "GRANT SELECT ON vp_rv TO carol")).toBe("ORA-01720: grant option does not exist for 'APP.VP_R'")
    // also through a view of the owner's own over it
    await bob.execute("CREATE VIEW vp_rv_over AS SELECT id FROM vp_rv")
    expect(await message(bob, "GRANT SELECT ON vp_rv_over TO carol")).toBe("ORA-01720: grant option does not exist for 'APP.VP_R'")
    await app.execute("GRANT SELECT ON vp_r TO bob WITH GRANT OPTION")
    await bob.execute("GRANT SELECT ON vp_rv TO carol")
    expect(await rows(carol, "SELECT id FROM bob.vp_rv")).toEqual([[1]])
    // a view on one's own tables only is granted freely
    await bob.execute("CREATE TABLE vp_own (a NUMBER)")
    await bob.execute("CREATE VIEW vp_ownv AS SELECT a FROM vp_own")
    await bob.execute("GRANT SELECT, INSERT ON vp_ownv TO carol")
  })

  it("a read through a view needs its owner's SELECT (ORA-01031); with no privilege left the view has errors (ORA-04063)", async () => {
    await app.execute("CREATE TABLE vp_w (id NUMBER)")
    await app.execute("INSERT INTO vp_w VALUES (7)")
    await app.commit()
    await app.execute("GRANT SELECT, INSERT ON vp_w TO bob")
    await bob.execute("CREATE VIEW vp_wv AS SELECT id FROM app.vp_w")
    await bob.execute("CREATE VIEW vp_wv2 AS SELECT id FROM vp_wv")
    expect(await rows(bob, "SELECT id FROM vp_wv2")).toEqual([[7]])
    await app.execute("REVOKE SELECT ON vp_w FROM bob")
    expect(await code(bob, "SELECT id FROM vp_wv")).toBe("ORA-01031")
    expect(await code(bob, "SELECT id FROM vp_wv2")).toBe("ORA-01031")
    expect(await code(bob, "SELECT 1 FROM dual WHERE EXISTS (SELECT 1 FROM vp_wv)")).toBe("ORA-01031")
    // a write needs no SELECT
    expect((await bob.execute("INSERT INTO vp_wv VALUES (8)")).rowsAffected).toBe(1)
    await bob.rollback()
    await app.execute("REVOKE INSERT ON vp_w FROM bob")
    expect(await message(bob, "SELECT id FROM vp_wv")).toBe('ORA-04063: view "BOB.VP_WV" has errors')
    expect(await code(bob, "INSERT INTO vp_wv VALUES (8)")).toBe("ORA-04063")
  })
})
