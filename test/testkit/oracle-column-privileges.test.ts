import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

// SQL Language Reference, GRANT ("column": INSERT, UPDATE and REFERENCES may name columns) and REVOKE (ORA-01750: a
// column privilege is revoked from the whole table only); Database Reference, USER_COL_PRIVS / ALL_COL_PRIVS. An
// UPDATE of, or an INSERT naming, a column the user holds no privilege on fails with ORA-01031.
describe("Oracle test server: column privileges", () => {
  let server: OracleTestServerHandle
  let app: Conn
  let bob: Conn
  const code = async (conn: Conn, sql: string) => oraCode(await failure(() => conn.execute(sql)))
  const rows = async (conn: Conn, sql: string) => (await conn.execute(sql)).rows
  beforeAll(async () => {
    const s = await withServer({ users: [{ name: "app", password: "app" }, { name: "bob", password: "bob" }] })
    server = s.server
    app = await s.connect("app", "app")
    bob = await s.connect("bob", "bob")
    await app.execute("CREATE TABLE emp (id NUMBER PRIMARY KEY, name VARCHAR2(10), salary NUMBER)")
    await app.execute("INSERT INTO emp VALUES (1, 'ann', 100)")
    await app.commit()
  })
  afterAll(async () => {
    for (const c of [app, bob]) await c?.close()
    await server?.close()
  })

  it("lets UPDATE (col) and INSERT (cols) write only the granted columns, other columns ORA-01031", async () => {
    await app.execute("GRANT SELECT, UPDATE (name) ON emp TO bob")
    await bob.execute("UPDATE app.emp SET name = 'ANN' WHERE id = 1")
    await bob.execute("UPDATE app.emp e SET e.name = 'Ann' WHERE id = 1")
    expect(await code(bob, "UPDATE app.emp SET salary = 0")).toBe("ORA-01031")
    expect(await code(bob, "UPDATE app.emp SET name = 'x', salary = 0")).toBe("ORA-01031")
    await bob.commit()
    expect(await rows(app, "SELECT name, salary FROM emp")).toEqual([["Ann", 100]])
    expect(await code(bob, "INSERT INTO app.emp (id, name) VALUES (2, 'bo')")).toBe("ORA-01031")
    await app.execute("GRANT INSERT (id, name) ON emp TO bob")
    await bob.execute("INSERT INTO app.emp (id, name) VALUES (2, 'bo')")
    expect(await code(bob, "INSERT INTO app.emp VALUES (3, 'cy', 1)")).toBe("ORA-01031")
    expect(await code(bob, "INSERT INTO app.emp (id, salary) VALUES (3, 1)")).toBe("ORA-01031")
    await bob.rollback()
  })

  it("makes the table visible (ORA-01031, not ORA-00942), lists the grants in USER_ / ALL_COL_PRIVS, and revokes from the whole table", async () => {
    await app.execute("CREATE TABLE pay (id NUMBER, amount NUMBER)")
    expect(await code(bob, "UPDATE app.pay SET amount = 1")).toBe("ORA-00942")
    await app.execute("GRANT UPDATE (amount), REFERENCES (id) ON pay TO bob")
    expect(await code(bob, "UPDATE app.pay SET id = 1")).toBe("ORA-01031")
    await bob.execute("UPDATE app.pay SET amount = 1")
    expect(await rows(bob, "SELECT owner, table_name, column_name, grantor, privilege, grantable FROM user_col_privs ORDER BY table_name, column_name, privilege")).toEqual([
      ["APP", "EMP", "ID", "APP", "INSERT", "NO"],
      ["APP", "EMP", "NAME", "APP", "INSERT", "NO"],
      ["APP", "EMP", "NAME", "APP", "UPDATE", "NO"],
      ["APP", "PAY", "AMOUNT", "APP", "UPDATE", "NO"],
      ["APP", "PAY", "ID", "APP", "REFERENCES", "NO"]
    ])
    expect(await rows(app, "SELECT grantee, table_schema, column_name FROM all_col_privs WHERE table_name = 'PAY' ORDER BY column_name")).toEqual([["BOB", "APP", "AMOUNT"], ["BOB", "APP", "ID"]])
    // column grants are not table grants
    expect(await rows(bob, "SELECT COUNT(*) FROM user_tab_privs WHERE table_name = 'PAY'")).toEqual([[0]])
    expect(await code(app, "REVOKE UPDATE (amount) ON pay FROM bob")).toBe("ORA-01750")
    expect(await code(app, "GRANT SELECT (amount) ON pay TO bob")).toBe("ORA-00969")
    expect(await code(app, "GRANT UPDATE (nosuch) ON pay TO bob")).toBe("ORA-00904")
    await app.execute("REVOKE UPDATE ON pay FROM bob")
    expect(await code(bob, "UPDATE app.pay SET amount = 2")).toBe("ORA-01031")
    await bob.rollback()
  })

  it("needs REFERENCES on the table or the referenced columns for a foreign key to another schema's table", async () => {
    await app.execute("CREATE TABLE dept (id NUMBER PRIMARY KEY, code VARCHAR2(5) UNIQUE)")
    expect(await code(bob, "CREATE TABLE d1 (dept_id NUMBER REFERENCES app.dept)")).toBe("ORA-00942")
    await app.execute("GRANT SELECT ON dept TO bob")
    expect(await code(bob, "CREATE TABLE d1 (dept_id NUMBER REFERENCES app.dept)")).toBe("ORA-01031")
    expect(await code(bob, "CREATE TABLE d2 (c VARCHAR2(5), CONSTRAINT d2_fk FOREIGN KEY (c) REFERENCES app.dept (code))")).toBe("ORA-01031")
    await app.execute("GRANT REFERENCES (id) ON dept TO bob")
    // past the privilege check the engine refuses a foreign key across schemas (ORA-03001, README "Privileges")
    expect(await code(bob, "CREATE TABLE d1 (dept_id NUMBER REFERENCES app.dept)")).toBe("ORA-03001")
    expect(await code(bob, "CREATE TABLE d2 (c VARCHAR2(5), CONSTRAINT d2_fk FOREIGN KEY (c) REFERENCES app.dept (code))")).toBe("ORA-01031")
    await app.execute("GRANT REFERENCES ON dept TO bob")
    expect(await code(bob, "CREATE TABLE d2 (c VARCHAR2(5), CONSTRAINT d2_fk FOREIGN KEY (c) REFERENCES app.dept (code))")).toBe("ORA-03001")
  })
})
