import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

// SQL Language Reference, "CREATE SYNONYM" / "DROP SYNONYM": a synonym stands for its target in queries and DML,
// with the privileges of the target; a private synonym's name shares the schema's namespace (ORA-00955); a public
// one needs CREATE PUBLIC SYNONYM (ORA-01031); a synonym whose target is gone fails with ORA-00980; dropping a missing
// one is ORA-01434 / ORA-01432; USER_SYNONYMS / ALL_SYNONYMS list them (Error Messages, https://docs.oracle.com/en/error-help/db/ora-00980/).
describe("Oracle test server: synonyms", () => {
  let server: OracleTestServerHandle
  let app: Conn
  let bob: Conn
  let dba: Conn
  const code = async (conn: Conn, sql: string) => oraCode(await failure(() => conn.execute(sql)))
  const rows = async (conn: Conn, sql: string) => (await conn.execute(sql)).rows
  beforeAll(async () => {
    const s = await withServer({ users: [{ name: "app", password: "app" }, { name: "bob", password: "bob" }, { name: "dba", password: "dba", dba: true }] })
    server = s.server
    app = await s.connect("app", "app")
    bob = await s.connect("bob", "bob")
    dba = await s.connect("dba", "dba")
    await app.execute("CREATE TABLE items (id NUMBER PRIMARY KEY, v VARCHAR2(10))")
    await app.execute("INSERT INTO items VALUES (1, 'one')")
    await app.commit()
  })
  afterAll(async () => {
    for (const c of [app, bob, dba]) await c?.close()
    await server?.close()
  })

  it("resolves a private synonym in queries and DML, and checks the privileges of its target", async () => {
    await bob.execute("CREATE SYNONYM it FOR app.items")
    expect(await code(bob, "SELECT * FROM it")).toBe("ORA-00942")
    await app.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON items TO bob")
    expect(await rows(bob, "SELECT it.id, v FROM it WHERE id = 1")).toEqual([[1, "one"]])
    await bob.execute("INSERT INTO it VALUES (2, 'two')")
    await bob.execute("UPDATE it SET v = 'TWO' WHERE id = 2")
    expect(await rows(bob, "SELECT x.v FROM dual, it x WHERE x.id = 2")).toEqual([["TWO"]])
    await bob.execute("DELETE FROM it WHERE id = 2")
    await bob.commit()
    expect(await rows(app, "SELECT COUNT(*) FROM items")).toEqual([[1]])
    expect(await code(bob, "CREATE SYNONYM it FOR app.other")).toBe("ORA-00955")
    await bob.execute("CREATE OR REPLACE SYNONYM it FOR app.items")
    await bob.execute("CREATE TABLE mine (a NUMBER)")
    expect(await code(bob, "CREATE SYNONYM mine FOR app.items")).toBe("ORA-00955")
  })

  it("resolves a public synonym after the schema's own objects; needs the DBA role to create one", async () => {
    expect(await code(app, "CREATE PUBLIC SYNONYM pitems FOR app.items")).toBe("ORA-01031")
    await dba.execute("CREATE PUBLIC SYNONYM pitems FOR app.items")
    expect(await rows(bob, "SELECT COUNT(*) FROM pitems")).toEqual([[1]])
    // Database Reference, USER_SYNONYMS / ALL_SYNONYMS: the user's own, and the public ones
    expect(await rows(bob, "SELECT synonym_name, table_owner, table_name, db_link FROM user_synonyms")).toEqual([["IT", "APP", "ITEMS", null]])
    expect(await rows(bob, "SELECT owner, synonym_name FROM all_synonyms WHERE owner IN ('BOB', 'PUBLIC', 'APP') ORDER BY 1")).toEqual([
      ["BOB", "IT"],
      ["PUBLIC", "PITEMS"]
    ])
    expect(await code(bob, "DROP PUBLIC SYNONYM pitems")).toBe("ORA-01031")
    await dba.execute("DROP PUBLIC SYNONYM pitems")
    expect(await code(bob, "SELECT COUNT(*) FROM pitems")).toBe("ORA-00942")
    expect(await code(dba, "DROP PUBLIC SYNONYM pitems")).toBe("ORA-01432")
  })

  it("fails with ORA-00980 once the target is gone, and drops with DROP SYNONYM", async () => {
    await app.execute("CREATE TABLE gone (a NUMBER)")
    await app.execute("CREATE SYNONYM g FOR gone")
    expect(await rows(app, "SELECT COUNT(*) FROM g")).toEqual([[0]])
    await app.execute("DROP TABLE gone")
    expect(await code(app, "SELECT COUNT(*) FROM g")).toBe("ORA-00980")
    await app.execute("DROP SYNONYM g")
    expect(await code(app, "DROP SYNONYM g")).toBe("ORA-01434")
    expect(await code(app, "SELECT COUNT(*) FROM g")).toBe("ORA-00942")
  })
  // SQL Language Reference, "CREATE SYNONYM": a private synonym is a schema object, so a table, view or sequence of
  // that name in the same schema is ORA-00955 (name is already used by an existing object).
  it("refuses a table, view or sequence named like a private synonym of the schema", async () => {
    await bob.execute("CREATE SYNONYM taken FOR app.items")
    expect(await code(bob, "CREATE TABLE taken (a NUMBER)")).toBe("ORA-00955")
    expect(await code(bob, "CREATE VIEW taken AS SELECT 1 a FROM dual")).toBe("ORA-00955")
    expect(await code(bob, "CREATE SEQUENCE taken")).toBe("ORA-00955")
    await bob.execute("DROP SYNONYM taken")
    await bob.execute("CREATE TABLE taken (a NUMBER)")
    await bob.execute("DROP TABLE taken")
  })

  // A synonym over an object at a database link is created without the link being checked ("CREATE SYNONYM": the
  // target need not exist); using it with no such link fails with ORA-02019 "connection description for remote
  // database not found" (https://docs.oracle.com/en/error-help/db/ora-02019/), as a direct `t@link` reference does.
  it("creates a synonym over a database link and fails with ORA-02019 when it is used without the link", async () => {
    await bob.execute("CREATE SYNONYM remote_items FOR app.items@nolink")
    expect(await rows(bob, "SELECT synonym_name, table_owner, table_name, db_link FROM user_synonyms WHERE synonym_name = 'REMOTE_ITEMS'")).toEqual([["REMOTE_ITEMS", "APP", "ITEMS", "NOLINK"]])
    expect(await code(bob, "SELECT COUNT(*) FROM remote_items")).toBe("ORA-02019")
    expect(await code(bob, "SELECT COUNT(*) FROM app.items@nolink")).toBe("ORA-02019")
    await bob.execute("DROP SYNONYM remote_items")
  })
  // SQL Language Reference, "Sequence Pseudocolumns": `[schema.]sequence.NEXTVAL`, where the sequence may be named
  // through a synonym ("CREATE SYNONYM": synonyms for sequences).
  it("resolves a synonym of a sequence in NEXTVAL and CURRVAL", async () => {
    await app.execute("CREATE SEQUENCE seq_items")
    await app.execute("GRANT SELECT ON seq_items TO bob")
    await bob.execute("CREATE SYNONYM sq FOR app.seq_items")
    expect(await rows(bob, "SELECT sq.NEXTVAL FROM dual")).toEqual([[1]])
    expect(await rows(bob, "SELECT sq.currval FROM dual")).toEqual([[1]])
    expect(await rows(bob, "SELECT bob.sq.NEXTVAL FROM dual")).toEqual([[2]])
    await dba.execute("CREATE PUBLIC SYNONYM psq FOR app.seq_items")
    expect(await rows(bob, "SELECT psq.NEXTVAL FROM dual")).toEqual([[3]])
    await dba.execute("DROP PUBLIC SYNONYM psq")
    await bob.execute("DROP SYNONYM sq")
  })
  // node-oracledb's connection.getStatementInfo parses and describes a statement without running it; a query over
  // a synonym is described like one over its target (SQL Language Reference, "CREATE SYNONYM").
  it("describes a query over a synonym without running it (getStatementInfo)", async () => {
    await app.execute("CREATE SYNONYM own_items FOR items")
    const info = await app.getStatementInfo("SELECT id, v FROM own_items WHERE id = :1")
    expect(info.metaData.map((m: { name: string }) => m.name)).toEqual(["ID", "V"])
    await app.execute("DROP SYNONYM own_items")
  })
})
