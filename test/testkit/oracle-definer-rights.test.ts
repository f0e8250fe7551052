/**
 * Oracle test server: the SQL inside stored code runs with its owner's rights (raw node-oracledb). PL/SQL Language
 * Reference, "Invoker's Rights and Definer's Rights (AUTHID Property)": a definer's rights unit (the default) "runs
 * with the privileges of its owner" and resolves the unqualified names of its SQL in the owner's schema, with no
 * roles enabled except PUBLIC; an invoker's rights unit (AUTHID CURRENT_USER) with those of its caller.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, withServer } from "./oracle/helpers.ts"

describe("Oracle test server: definer's rights for the SQL in stored code", () => {
  let server: OracleTestServerHandle
  let app: Conn
  let bob: Conn
  let dba: Conn
  const message = async (conn: Conn, sql: string) => String((await failure(() => conn.execute(sql, sql.includes(":r") ? out() : {}))).message).split("\n")[0]
  const out = () => ({ r: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
  beforeAll(async () => {
    const s = await withServer({ users: [{ name: "app", password: "app" }, { name: "bob", password: "bob" }, { name: "dba", password: "dba", dba: true }] })
    server = s.server
    app = await s.connect("app", "app")
    bob = await s.connect("bob", "bob")
    dba = await s.connect("dba", "dba")
    for (const sql of [
      "CREATE TABLE audit_t (who VARCHAR2(30), n NUMBER)",
      "INSERT INTO audit_t VALUES ('seed', 1)",
      "CREATE PROCEDURE note(n NUMBER) AS BEGIN INSERT INTO audit_t VALUES (USER, n); END;",
      "CREATE FUNCTION total RETURN NUMBER AS t NUMBER; BEGIN SELECT SUM(n) INTO t FROM audit_t; RETURN t; END;",
      "CREATE PROCEDURE bump(r OUT NUMBER) AS BEGIN UPDATE audit_t SET n = n + 1 WHERE who = 'seed'; SELECT n INTO r FROM audit_t WHERE who = 'seed'; DELETE FROM audit_t WHERE n > 100; END;",
      "CREATE PROCEDURE count_mine(r OUT NUMBER) AUTHID CURRENT_USER AS BEGIN SELECT COUNT(*) INTO r FROM audit_t; END;",
      "CREATE PROCEDURE whoami(r OUT VARCHAR2) AS BEGIN r := SYS_CONTEXT('USERENV', 'CURRENT_USER') || '/' || SYS_CONTEXT('USERENV', 'CURRENT_SCHEMA'); SELECT r || '/' || SYS_CONTEXT('USERENV', 'CURRENT_USER') || '/' || SYS_CONTEXT('USERENV', 'SESSION_USER') INTO r FROM dual; END;",
      "CREATE PROCEDURE whoami_ir(r OUT VARCHAR2) AUTHID CURRENT_USER AS BEGIN SELECT SYS_CONTEXT('USERENV', 'CURRENT_USER') || '/' || SYS_CONTEXT('USERENV', 'CURRENT_SCHEMA') INTO r FROM dual; END;",
      "CREATE PACKAGE pk AS PROCEDURE add(n NUMBER); FUNCTION cnt RETURN NUMBER; END;",
      "CREATE PACKAGE BODY pk AS PROCEDURE add(n NUMBER) IS BEGIN note(n); END; FUNCTION cnt RETURN NUMBER IS c NUMBER; BEGIN SELECT COUNT(*) INTO c FROM audit_t; RETURN c; END; END;",
      "GRANT EXECUTE ON note TO bob",
      "GRANT EXECUTE ON total TO bob",
      "GRANT EXECUTE ON bump TO bob",
      "GRANT EXECUTE ON count_mine TO bob",
      "GRANT EXECUTE ON pk TO bob",
      "GRANT EXECUTE ON whoami TO bob",
      "GRANT EXECUTE ON whoami_ir TO bob"
    ])
      await app.execute(sql)
    await app.commit()
  })
  afterAll(async () => {
    for (const c of [app, bob, dba]) await c?.close()
    await server?.close()
  })

  it("another user's call of a definer's rights procedure writes and reads the owner's table it names unqualified", async () => {
    // bob holds no privilege on APP.AUDIT_T, only EXECUTE on the procedures
    expect(await message(bob, "SELECT * FROM app.audit_t")).toMatch(/^ORA-00942/)
    await bob.execute("BEGIN app.note(5); END;")
    await bob.execute("BEGIN app.pk.add(6); END;")
    const bumped = await bob.execute("BEGIN app.bump(:r); END;", out())
    expect(bumped.outBinds.r).toBe(2)
    expect((await bob.execute("SELECT app.total FROM dual")).rows).toEqual([[13]])
    expect((await bob.execute("BEGIN :r := app.pk.cnt; END;", out())).outBinds.r).toBe(3)
    await bob.commit()
    expect((await app.execute("SELECT n FROM audit_t ORDER BY n")).rows).toEqual([[2], [5], [6]])
  })

  it("SYS_CONTEXT('USERENV', 'CURRENT_USER' | 'CURRENT_SCHEMA') name the owner inside a definer's rights unit, the caller inside an invoker's rights one", async () => {
    // SQL Language Reference, SYS_CONTEXT: both "may change during the duration of a session to reflect the owner of
    // any active definer's rights object"; SESSION_USER stays the user who logged on
    const text = () => ({ r: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } })
    expect((await bob.execute("BEGIN app.whoami(:r); END;", text())).outBinds.r).toBe("APP/APP/APP/BOB")
    expect((await bob.execute("BEGIN app.whoami_ir(:r); END;", text())).outBinds.r).toBe("BOB/BOB")
    expect((await bob.execute("SELECT SYS_CONTEXT('USERENV', 'CURRENT_USER') || '/' || SYS_CONTEXT('USERENV', 'CURRENT_SCHEMA') FROM dual")).rows).toEqual([["BOB/BOB"]])
  })

  it("a procedure another schema's user calls after a table it depends on changed is compiled again in its owner's schema", async () => {
    await app.execute("ALTER TABLE audit_t MODIFY (who VARCHAR2(40))")
    await bob.execute("BEGIN app.note(8); END;")
    await bob.rollback()
    expect((await app.execute("SELECT status FROM user_objects WHERE object_name = 'NOTE'")).rows).toEqual([["VALID"]])
  })

  it("a trigger's SQL runs with its owner's rights when another user's statement fires it", async () => {
    await app.execute("CREATE TABLE orders_t (id NUMBER)")
    await app.execute("CREATE TABLE orders_log (id NUMBER, by_user VARCHAR2(30))")
    await app.execute("CREATE TRIGGER orders_ai AFTER INSERT ON orders_t FOR EACH ROW BEGIN INSERT INTO orders_log VALUES (:NEW.id, USER); END;")
    await app.execute("GRANT INSERT ON orders_t TO bob")
    await bob.execute("INSERT INTO app.orders_t VALUES (1)")
    await bob.commit()
    expect((await app.execute("SELECT id FROM orders_log")).rows).toEqual([[1]])
  })

  it("an invoker's rights unit (AUTHID CURRENT_USER) resolves its names in the caller's schema", async () => {
    expect(await message(bob, "BEGIN app.count_mine(:r); END;")).toMatch(/ORA-00942/)
    await bob.execute("CREATE TABLE audit_t (who VARCHAR2(30), n NUMBER)")
    expect((await bob.execute("BEGIN app.count_mine(:r); END;", out())).outBinds.r).toBe(0)
    expect((await app.execute("BEGIN count_mine(:r); END;", out())).outBinds.r).toBe(3)
  })

  it("after a call, the session's own names resolve in its schema again, also when a later statement fails and the transaction is replayed", async () => {
    await bob.execute("INSERT INTO audit_t VALUES ('bob', 1)")
    await bob.execute("BEGIN app.note(7); END;")
    // a failing statement makes the session replay its transaction: the write the call made stays APP's
    expect(await message(bob, "INSERT INTO audit_t VALUES ('bob', 'x')")).toMatch(/^ORA-01722/)
    expect((await bob.execute("SELECT who, n FROM audit_t")).rows).toEqual([["bob", 1]])
    await bob.commit()
    expect((await app.execute("SELECT n FROM audit_t ORDER BY n")).rows).toEqual([[2], [5], [6], [7]])
  })

  it("the owner's privileges count without its roles: a DBA role does not open another schema's table to its procedure, nor RESOURCE's CREATE TABLE", async () => {
    await dba.execute("CREATE PROCEDURE peek(r OUT NUMBER) AS BEGIN SELECT COUNT(*) INTO r FROM app.audit_t; END;")
    // (Oracle reports this when it compiles the unit, and the call fails PLS-00905; here the statement fails ORA-00942)
    await failure(() => dba.execute("BEGIN peek(:r); END;", out()))
    // the session itself reads it through its DBA role
    expect((await dba.execute("SELECT COUNT(*) FROM app.audit_t")).rows).toEqual([[4]])
    await app.execute("GRANT SELECT ON audit_t TO dba")
    expect((await dba.execute("BEGIN peek(:r); END;", out())).outBinds.r).toBe(4)
    // app holds CREATE TABLE through the RESOURCE role only (Database Security Guide: a definer's rights unit runs
    // with no roles enabled), so dynamic DDL in its definer's rights procedure fails; the caller's rights run it
    await app.execute("CREATE PROCEDURE make(nm VARCHAR2) AS BEGIN EXECUTE IMMEDIATE 'CREATE TABLE ' || nm || ' (x NUMBER)'; END;")
    await app.execute("CREATE PROCEDURE make_ir(nm VARCHAR2) AUTHID CURRENT_USER AS BEGIN EXECUTE IMMEDIATE 'CREATE TABLE ' || nm || ' (x NUMBER)'; END;")
    expect(await message(app, "BEGIN make('made_t'); END;")).toBe("ORA-01031: insufficient privileges")
    await app.execute("BEGIN make_ir('made_t'); END;")
    expect((await app.execute("SELECT table_name FROM user_tables WHERE table_name = 'MADE_T'")).rows).toEqual([["MADE_T"]])
  })
})
