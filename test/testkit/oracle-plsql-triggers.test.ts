import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

/**
 * DML triggers through raw node-oracledb, as the Oracle Database PL/SQL Language Reference (23ai), "PL/SQL Triggers"
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/plsql-triggers.html) describes them: BEFORE /
 * AFTER, statement and row level (FOR EACH ROW) with :NEW / :OLD (assignable :NEW in BEFORE row triggers), WHEN,
 * UPDATE OF columns, the conditional predicates INSERTING / UPDATING / DELETING; a trigger's unhandled exception
 * fails the statement, which is rolled back, with ORA-04088 under the error (Database Error Messages, ORA-04088
 * "error during execution of trigger 'string.string'").
 */
describe("Oracle test server: DML triggers", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE SEQUENCE item_seq")
    await conn.execute("CREATE TABLE item (id NUMBER(10) PRIMARY KEY, name VARCHAR2(20), qty NUMBER(5))")
    await conn.execute("CREATE TABLE item_audit (op VARCHAR2(1), item_id NUMBER(10), old_qty NUMBER(5), new_qty NUMBER(5))")
    await conn.execute("CREATE TABLE stmt_count (what VARCHAR2(20))")
  })
  afterAll(() => closeConnection({ server, conn }))

  const items = async () => (await conn.execute("SELECT id, name, qty FROM item ORDER BY id")).rows

  it("a BEFORE INSERT row trigger fills :NEW.id from a sequence, also for executeMany", async () => {
    await conn.execute(`CREATE OR REPLACE TRIGGER item_bi
      BEFORE INSERT ON item
      FOR EACH ROW
      BEGIN
        IF :NEW.id IS NULL THEN
          :NEW.id := item_seq.NEXTVAL;
        END IF;
        :NEW.name := UPPER(:new.name);
      END;`)
    const r = await conn.execute("INSERT INTO item (name, qty) VALUES (:1, :2)", ["bolt", 5])
    expect(r.rowsAffected).toBe(1)
    const many = await conn.executeMany("INSERT INTO item (name, qty) VALUES (:1, :2)", [["nut", 10], ["gear", 1]])
    expect(many.rowsAffected).toBe(2)
    await conn.execute("INSERT INTO item VALUES (100, 'pin', 3)")
    await conn.commit()
    expect(await items()).toEqual([
      [1, "BOLT", 5],
      [2, "NUT", 10],
      [3, "GEAR", 1],
      [100, "PIN", 3]
    ])
  })

  it("AFTER row triggers see :OLD and :NEW with INSERTING / UPDATING / DELETING, UPDATE OF and WHEN", async () => {
    await conn.execute(`CREATE TRIGGER item_au
      AFTER INSERT OR UPDATE OF qty OR DELETE ON item
      FOR EACH ROW
      WHEN (NEW.qty IS NULL OR NEW.qty <> 0)
      DECLARE
        v_op VARCHAR2(1);
      BEGIN
        IF INSERTING THEN v_op := 'I'; ELSIF UPDATING THEN v_op := 'U'; ELSIF DELETING THEN v_op := 'D'; END IF;
        INSERT INTO item_audit VALUES (v_op, NVL(:NEW.id, :OLD.id), :OLD.qty, :NEW.qty);
      END;`)
    await conn.execute("UPDATE item SET qty = qty * 2 WHERE id <= 2")
    await conn.execute("UPDATE item SET name = 'x' WHERE id = 3")
    await conn.execute("UPDATE item SET qty = 0 WHERE id = 3")
    await conn.execute("DELETE FROM item WHERE id = 100")
    await conn.execute("INSERT INTO item (name, qty) VALUES ('cog', 7)")
    const audit = await conn.execute("SELECT op, item_id, old_qty, new_qty FROM item_audit ORDER BY op, item_id")
    expect(audit.rows).toEqual([
      ["D", 100, 3, null],
      ["I", 4, null, 7],
      ["U", 1, 5, 10],
      ["U", 2, 10, 20]
    ])
    await conn.execute("DROP TRIGGER item_au")
    await conn.execute("DELETE FROM item WHERE id = 4")
    expect((await conn.execute("SELECT COUNT(*) FROM item_audit")).rows).toEqual([[4]])
    await conn.rollback()
  })

  it("statement-level triggers fire once per statement, before and after the rows", async () => {
    await conn.execute(`CREATE OR REPLACE TRIGGER item_bs BEFORE UPDATE ON item
      BEGIN
        INSERT INTO stmt_count VALUES ('before');
      END;`)
    await conn.execute(`CREATE OR REPLACE TRIGGER item_as AFTER UPDATE ON item
      DECLARE
        n NUMBER;
      BEGIN
        SELECT SUM(qty) INTO n FROM item;
        INSERT INTO stmt_count VALUES ('after ' || n);
      END;`)
    await conn.execute("UPDATE item SET qty = 1")
    await conn.execute("UPDATE item SET qty = 2 WHERE id = 999")
    const r = await conn.execute("SELECT what FROM stmt_count")
    expect(r.rows).toEqual([["before"], ["after 4"], ["before"], ["after 4"]])
    await conn.execute("DROP TRIGGER item_bs")
    await conn.execute("DROP TRIGGER item_as")
    await conn.rollback()
  })

  it("an exception in a trigger fails the statement with ORA-04088 and leaves the table as it was", async () => {
    // committed by the CREATE TRIGGER below (DDL commits)
    await conn.execute("UPDATE item SET qty = CASE WHEN id = 3 THEN 1 ELSE 10 END")
    await conn.execute(`CREATE OR REPLACE TRIGGER item_guard
      BEFORE UPDATE ON item
      FOR EACH ROW
      BEGIN
        IF :NEW.qty < 0 THEN
          RAISE_APPLICATION_ERROR(-20001, 'negative quantity for ' || :OLD.id);
        END IF;
      END;`)
    const before = await items()
    // the first rows are updated before the third one fails: all of them are undone
    const e = await failure(() => conn.execute("UPDATE item SET qty = qty - 3"))
    expect(e.message.split("\nHelp:")[0]).toBe(
      `ORA-20001: negative quantity for 3\nORA-06512: at "${server.user}.ITEM_GUARD", line 3\nORA-04088: error during execution of trigger '${server.user}.ITEM_GUARD'`
    )
    expect(await items()).toEqual(before)
    await conn.execute("DROP TRIGGER item_guard")
    const gone = await failure(() => conn.execute("DROP TRIGGER item_guard"))
    expect(gone.message).toMatch(/^ORA-04080: trigger 'ITEM_GUARD' does not exist/)
  })

  it("a block's DML on a table with triggers fires them, the block's variables bound; EXECUTE IMMEDIATE fires them", async () => {
    const r = await conn.execute(
      "DECLARE n VARCHAR2(10) := 'blk'; BEGIN INSERT INTO item (name, qty) VALUES (n, 1); :c := SQL%ROWCOUNT; UPDATE item SET name = n || '2' WHERE name = 'BLK'; END;",
      { c: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } }
    )
    expect(r.outBinds.c).toBe(1)
    expect((await conn.execute("SELECT name, qty FROM item WHERE UPPER(name) LIKE 'BLK%'")).rows).toEqual([["blk2", 1]])
    await conn.execute("BEGIN EXECUTE IMMEDIATE 'INSERT INTO item (name, qty) VALUES (''dyn'', 1)'; END;")
    expect((await conn.execute("SELECT name FROM item WHERE name LIKE 'DYN%'")).rows).toEqual([["DYN"]])
    await conn.rollback()
  })

  it("USER_TRIGGERS lists the triggers, DROP TRIGGER removes them", async () => {
    await conn.execute("CREATE OR REPLACE TRIGGER item_bud BEFORE UPDATE OF qty OR DELETE ON item FOR EACH ROW WHEN (OLD.qty > 0) BEGIN NULL; END;")
    // Database Reference 23ai, ALL_TRIGGERS: TRIGGER_TYPE "BEFORE EACH ROW" / "AFTER STATEMENT" ..., TRIGGERING_EVENT
    const r = await conn.execute("SELECT trigger_name, trigger_type, triggering_event, table_name, when_clause, status FROM user_triggers ORDER BY trigger_name")
    expect(r.rows).toEqual([
      ["ITEM_BI", "BEFORE EACH ROW", "INSERT", "ITEM", null, "ENABLED"],
      ["ITEM_BUD", "BEFORE EACH ROW", "UPDATE OR DELETE", "ITEM", "OLD.qty > 0", "ENABLED"]
    ])
    await conn.execute("DROP TRIGGER item_bud")
    expect((await conn.execute("SELECT COUNT(*) FROM user_triggers")).rows).toEqual([[1]])
  })

  it("refuses :NEW assignments in AFTER triggers and :NEW in statement triggers at CREATE", async () => {
    // Database Error Messages: ORA-04084 "cannot change NEW values for this trigger type", ORA-04082 "NEW or OLD
    // references not allowed in table level triggers"
    const after = await failure(() => conn.execute("CREATE TRIGGER bad1 AFTER INSERT ON item FOR EACH ROW BEGIN :NEW.qty := 1; END;"))
    expect(after.message).toMatch(/^ORA-04084: cannot change NEW values for this trigger type/)
    const stmt = await failure(() => conn.execute("CREATE TRIGGER bad2 BEFORE INSERT ON item BEGIN :NEW.qty := 1; END;"))
    expect(stmt.message).toMatch(/^ORA-04082: NEW or OLD references not allowed in table level triggers/)
  })

  it("a row trigger's CASE WHEN :OLD.x IS NULL THEN 'a' || :NEW.y ... runs for INSERT and UPDATE (reported ORA-03001)", async () => {
    await conn.execute("CREATE TABLE case_trg (x VARCHAR2(10), y VARCHAR2(10), z VARCHAR2(20))")
    await conn.execute(`CREATE TRIGGER case_trg_biu BEFORE INSERT OR UPDATE ON case_trg FOR EACH ROW
      BEGIN
        :NEW.z := CASE WHEN :OLD.x IS NULL THEN 'a' || :NEW.y WHEN :NEW.x IS NULL THEN 'c' ELSE 'b' || :OLD.x END;
      END;`)
    await conn.execute("INSERT INTO case_trg (x, y) VALUES ('1', 'q')")
    expect((await conn.execute("SELECT z FROM case_trg")).rows).toEqual([["aq"]])
    await conn.execute("UPDATE case_trg SET y = 'r'")
    expect((await conn.execute("SELECT z FROM case_trg")).rows).toEqual([["b1"]])
    await conn.execute("DROP TABLE case_trg")
  })
})
