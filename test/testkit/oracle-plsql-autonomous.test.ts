import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, oracledb, waitsForLock, withSessions } from "./oracle/helpers.ts"

/**
 * PRAGMA AUTONOMOUS_TRANSACTION through raw node-oracledb: the routine's writes are committed or rolled back on
 * their own, whatever the caller's transaction does, and its caller's uncommitted rows are invisible to it (PL/SQL
 * Language Reference, "AUTONOMOUS_TRANSACTION Pragma" and "Autonomous Transactions"); leaving it with its transaction
 * open is ORA-06519; a row its caller's transaction holds is a deadlock (ORA-00060); package state and DBMS_OUTPUT
 * stay the session's.
 */
describe("Oracle test server: autonomous transactions", () => {
  let env: Awaited<ReturnType<typeof withSessions>>
  let conn: Conn
  let other: Conn
  beforeAll(async () => {
    env = await withSessions(2)
    ;[conn, other] = env.sessions
    await conn.execute("CREATE TABLE app_log (msg VARCHAR2(100), sid_seen NUMBER)")
    await conn.execute("CREATE TABLE orders (id NUMBER PRIMARY KEY, status VARCHAR2(10))")
    await conn.execute(
      "CREATE OR REPLACE PROCEDURE log_msg(m VARCHAR2) IS\n  PRAGMA AUTONOMOUS_TRANSACTION;\nBEGIN\n  INSERT INTO app_log VALUES (m, SYS_CONTEXT('USERENV', 'SID'));\n  COMMIT;\nEND;"
    )
  })
  afterAll(() => env?.close())
  beforeEach(async () => {
    await conn.execute("DELETE FROM app_log")
    await conn.execute("DELETE FROM orders")
    await conn.commit()
  })

  const logged = async (c: Conn = conn) => (await c.execute("SELECT msg FROM app_log ORDER BY msg")).rows.map((r: Array<string>) => r[0])

  it("keeps the routine's committed row when the caller rolls back, and the caller's row stays uncommitted", async () => {
    await conn.execute("INSERT INTO orders VALUES (1, 'NEW')")
    await conn.execute("BEGIN log_msg('order 1'); END;")
    // the caller's transaction is still open: another session sees the log row, not the order
    expect(await logged(other)).toEqual(["order 1"])
    expect((await other.execute("SELECT COUNT(*) FROM orders")).rows).toEqual([[0]])
    await conn.rollback()
    expect(await logged()).toEqual(["order 1"])
    expect((await conn.execute("SELECT COUNT(*) FROM orders")).rows).toEqual([[0]])
  })

  it("does not commit the caller's work with the routine's COMMIT, and shows the caller's SID inside the routine", async () => {
    await conn.execute("BEGIN INSERT INTO orders VALUES (2, 'NEW'); log_msg('order 2'); END;")
    expect((await other.execute("SELECT COUNT(*) FROM orders")).rows).toEqual([[0]])
    const sid = (await conn.execute("SELECT SYS_CONTEXT('USERENV', 'SID') FROM dual")).rows[0][0]
    expect((await other.execute("SELECT sid_seen FROM app_log")).rows).toEqual([[Number(sid)]])
    await conn.commit()
    expect((await other.execute("SELECT COUNT(*) FROM orders")).rows).toEqual([[1]])
  })

  it("runs an autonomous anonymous block and an autonomous function, which does not see the caller's uncommitted rows", async () => {
    await conn.execute("DECLARE PRAGMA AUTONOMOUS_TRANSACTION; BEGIN INSERT INTO app_log (msg) VALUES ('block'); COMMIT; END;")
    // (DDL commits: the function is created before the caller's uncommitted row)
    await conn.execute("CREATE OR REPLACE FUNCTION order_count RETURN NUMBER IS\n  PRAGMA AUTONOMOUS_TRANSACTION;\n  n NUMBER;\nBEGIN\n  SELECT COUNT(*) INTO n FROM orders;\n  RETURN n;\nEND;")
    await conn.execute("INSERT INTO orders VALUES (3, 'NEW')")
    const r = await conn.execute("BEGIN :n := order_count; END;", { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect(r.outBinds.n).toBe(0)
    expect((await conn.execute("SELECT COUNT(*) FROM orders")).rows).toEqual([[1]])
    await conn.rollback()
    expect(await logged()).toEqual(["block"])
  })

  it("rolls back and raises ORA-06519 when the routine returns with its transaction open; an unhandled error rolls it back", async () => {
    await conn.execute("CREATE OR REPLACE PROCEDURE forgets IS\n  PRAGMA AUTONOMOUS_TRANSACTION;\nBEGIN\n  INSERT INTO app_log (msg) VALUES ('forgotten');\nEND;")
    const e = await failure(() => conn.execute("BEGIN forgets; END;"))
    expect(e.message).toMatch(/^ORA-06519: active autonomous transaction detected and rolled back/)
    await conn.execute("CREATE OR REPLACE PROCEDURE fails IS\n  PRAGMA AUTONOMOUS_TRANSACTION;\nBEGIN\n  INSERT INTO app_log (msg) VALUES ('failed');\n  RAISE_APPLICATION_ERROR(-20001, 'boom');\nEND;")
    expect(oraCode(await failure(() => conn.execute("BEGIN fails; END;")))).toBe("ORA-20001")
    // the caller may handle the error and go on
    await conn.execute("BEGIN fails; EXCEPTION WHEN OTHERS THEN log_msg('handled ' || SQLCODE); END;")
    expect(await logged(other)).toEqual(["handled -20001"])
  })

  it("fails with ORA-00060 when the routine writes a row its caller's transaction holds, instead of waiting forever", async () => {
    await conn.execute("CREATE OR REPLACE PROCEDURE touch_order IS\n  PRAGMA AUTONOMOUS_TRANSACTION;\nBEGIN\n  UPDATE orders SET status = 'AUTO' WHERE id = 4;\n  COMMIT;\nEND;")
    await conn.execute("INSERT INTO orders VALUES (4, 'NEW')")
    await conn.commit()
    await conn.execute("UPDATE orders SET status = 'MINE' WHERE id = 4")
    expect(oraCode(await failure(() => conn.execute("BEGIN touch_order; END;")))).toBe("ORA-00060")
    // the caller's transaction and its lock are as they were
    expect((await conn.execute("SELECT status FROM orders WHERE id = 4")).rows).toEqual([["MINE"]])
    await conn.rollback()
    await conn.execute("BEGIN touch_order; END;")
    expect((await other.execute("SELECT status FROM orders WHERE id = 4")).rows).toEqual([["AUTO"]])
  })

  it("ends a routine's wait for another session's lock with ORA-01013 on a break, leaving the session usable", async () => {
    await conn.execute("CREATE OR REPLACE PROCEDURE wait_order IS\n  PRAGMA AUTONOMOUS_TRANSACTION;\nBEGIN\n  UPDATE orders SET status = 'AUTO' WHERE id = 6;\n  COMMIT;\nEND;")
    await conn.execute("INSERT INTO orders VALUES (6, 'NEW')")
    await conn.commit()
    await other.execute("UPDATE orders SET status = 'OTHER' WHERE id = 6")
    try {
      const call = waitsForLock(env.server, () => conn.execute("BEGIN wait_order; END;"))
      expect(await call.waiting).toBe(true)
      await conn.breakExecution()
      expect(oraCode(await failure(() => call.result))).toBe("ORA-01013")
    } finally {
      await other.rollback()
    }
    expect((await conn.execute("SELECT status FROM orders WHERE id = 6")).rows).toEqual([["NEW"]])
    await conn.execute("BEGIN wait_order; END;")
    expect((await other.execute("SELECT status FROM orders WHERE id = 6")).rows).toEqual([["AUTO"]])
  })

  it("shares the session's package state and DBMS_OUTPUT with the routine", async () => {
    await conn.execute("CREATE OR REPLACE PACKAGE counters IS n NUMBER := 0; END;")
    await conn.execute("CREATE OR REPLACE PROCEDURE bump IS\n  PRAGMA AUTONOMOUS_TRANSACTION;\nBEGIN\n  counters.n := counters.n + 1;\n  DBMS_OUTPUT.PUT_LINE('bumped ' || counters.n);\nEND;")
    await conn.execute("BEGIN DBMS_OUTPUT.ENABLE; counters.n := 10; bump; bump; END;")
    const r = await conn.execute("DECLARE l VARCHAR2(100); s NUMBER; BEGIN DBMS_OUTPUT.GET_LINE(l, s); :a := l; DBMS_OUTPUT.GET_LINE(l, s); :b := l; :n := counters.n; END;", {
      a: { dir: oracledb.BIND_OUT, type: oracledb.STRING },
      b: { dir: oracledb.BIND_OUT, type: oracledb.STRING },
      n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }
    })
    expect(r.outBinds).toEqual({ a: "bumped 11", b: "bumped 12", n: 12 })
  })

  it("runs autonomous package subprograms, trigger bodies, object methods and functions called from SQL", async () => {
    await conn.execute("CREATE OR REPLACE PACKAGE audit_pkg IS PROCEDURE note(m VARCHAR2); END;")
    await conn.execute(
      "CREATE OR REPLACE PACKAGE BODY audit_pkg IS\n  PROCEDURE note(m VARCHAR2) IS\n    PRAGMA AUTONOMOUS_TRANSACTION;\n  BEGIN\n    INSERT INTO app_log (msg) VALUES (m);\n    COMMIT;\n  END;\nEND;"
    )
    // a trigger logging each insert, kept when the insert is rolled back (PL/SQL Language Reference, "Autonomous
    // Triggers", Example "Autonomous Trigger Logs INSERT Statements")
    await conn.execute(
      "CREATE OR REPLACE TRIGGER orders_audit BEFORE INSERT ON orders FOR EACH ROW\nDECLARE\n  PRAGMA AUTONOMOUS_TRANSACTION;\nBEGIN\n  INSERT INTO app_log (msg) VALUES ('trigger ' || :NEW.id);\n  COMMIT;\nEND;"
    )
    await conn.execute("CREATE OR REPLACE TYPE counter_obj AS OBJECT (n NUMBER, MEMBER FUNCTION logged RETURN NUMBER)")
    await conn.execute(
      "CREATE OR REPLACE TYPE BODY counter_obj AS\n  MEMBER FUNCTION logged RETURN NUMBER IS\n    PRAGMA AUTONOMOUS_TRANSACTION;\n  BEGIN\n    INSERT INTO app_log (msg) VALUES ('method ' || n);\n    COMMIT;\n    RETURN n;\n  END;\nEND;"
    )
    await conn.execute(
      "CREATE OR REPLACE FUNCTION logged_value(v NUMBER) RETURN NUMBER IS\n  PRAGMA AUTONOMOUS_TRANSACTION;\nBEGIN\n  INSERT INTO app_log (msg) VALUES ('sql ' || v);\n  COMMIT;\n  RETURN v * 2;\nEND;"
    )
    try {
      await conn.execute("BEGIN audit_pkg.note('package'); END;")
      await conn.execute("INSERT INTO orders VALUES (5, 'NEW')")
      const m = await conn.execute("DECLARE o counter_obj := counter_obj(7); BEGIN :v := o.logged; END;", { v: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
      expect(m.outBinds.v).toBe(7)
      expect((await conn.execute("SELECT logged_value(21) FROM dual")).rows).toEqual([[42]])
      await conn.rollback()
      expect((await conn.execute("SELECT COUNT(*) FROM orders")).rows).toEqual([[0]])
      expect(await logged()).toEqual(["method 7", "package", "sql 21", "trigger 5"])
    } finally {
      await conn.execute("DROP TRIGGER orders_audit")
    }
  })

  it("refuses the pragma in a nested block with PLS-00710", async () => {
    const e = await failure(() => conn.execute("BEGIN DECLARE PRAGMA AUTONOMOUS_TRANSACTION; BEGIN NULL; END; END;"))
    expect(e.message).toMatch(/PLS-00710: Pragma AUTONOMOUS_TRANSACTION cannot be specified here/)
  })
})
