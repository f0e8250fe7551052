import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oracledb } from "./oracle/helpers.ts"

/**
 * Trigger features beyond plain BEFORE / AFTER table triggers, through raw node-oracledb, as the Oracle Database PL/SQL
 * Language Reference (23ai) "PL/SQL Triggers" and "CREATE TRIGGER Statement" describe them
 * (https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/plsql-triggers.html,
 * .../lnpls/CREATE-TRIGGER-statement.html): `:NEW` of a column an INSERT leaves out holds its DEFAULT (the default is
 * evaluated before BEFORE row triggers fire); REFERENCING NEW AS n OLD AS o; INSTEAD OF triggers on views; ALTER
 * TRIGGER ENABLE / DISABLE / COMPILE and USER_OBJECTS rows of type TRIGGER; triggers fired by a trigger's own DML and
 * the mutating-table restriction (ORA-04091 "table string.string is mutating, trigger/function may not see it", for a
 * row trigger that reads or writes its own table; "Mutating-Table Restriction": a single-row INSERT ... VALUES does
 * not make its table mutating).
 */
describe("Oracle test server: trigger kinds and options", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE tk_item (id NUMBER(10) PRIMARY KEY, qty NUMBER(5), status VARCHAR2(10) DEFAULT 'NEW', note VARCHAR2(40))")
    await conn.execute("CREATE TABLE tk_log (what VARCHAR2(60))")
    await conn.execute("CREATE TABLE tk_log2 (what VARCHAR2(60))")
  })
  afterAll(() => closeConnection({ server, conn }))

  const log = async () => (await conn.execute("SELECT what FROM tk_log ORDER BY what")).rows

  it(":NEW of a column the INSERT leaves out holds its DEFAULT in a BEFORE row trigger", async () => {
    await conn.execute(`CREATE OR REPLACE TRIGGER tk_item_bi BEFORE INSERT ON tk_item FOR EACH ROW
      BEGIN
        :NEW.note := 'status ' || NVL(:NEW.status, 'null') || ' qty ' || NVL(TO_CHAR(:NEW.qty), 'null');
      END;`)
    await conn.execute("INSERT INTO tk_item (id, qty) VALUES (1, 5)")
    await conn.execute("INSERT INTO tk_item (id) SELECT 2 FROM dual")
    expect((await conn.execute("SELECT id, status, note FROM tk_item ORDER BY id")).rows).toEqual([
      [1, "NEW", "status NEW qty 5"],
      [2, "NEW", "status NEW qty null"]
    ])
    // DROP TRIGGER is DDL, which commits: undo the test's rows first
    await conn.rollback()
    await conn.execute("DROP TRIGGER tk_item_bi")
  })

  it("REFERENCING NEW AS n OLD AS o renames the correlation names in the body and in WHEN", async () => {
    await conn.execute("INSERT INTO tk_item (id, qty) VALUES (1, 5)")
    await conn.execute(`CREATE OR REPLACE TRIGGER tk_item_au AFTER UPDATE ON tk_item
      REFERENCING NEW AS n OLD AS o
      FOR EACH ROW
      WHEN (n.qty > o.qty)
      BEGIN
        INSERT INTO tk_log VALUES ('up ' || :o.qty || ' -> ' || :n.qty);
      END;`)
    await conn.execute("UPDATE tk_item SET qty = 9")
    await conn.execute("UPDATE tk_item SET qty = 2")
    expect(await log()).toEqual([["up 5 -> 9"]])
    // the trigger's REFERENCING clause is listed as Oracle lists it (ALL_TRIGGERS.REFERENCING_NAMES)
    const r = await conn.execute("SELECT referencing_names FROM user_triggers WHERE trigger_name = 'TK_ITEM_AU'")
    expect(r.rows).toEqual([["REFERENCING NEW AS N OLD AS O"]])
    await conn.execute("DROP TRIGGER tk_item_au")
    await conn.execute("DELETE FROM tk_item")
    await conn.execute("DELETE FROM tk_log")
    await conn.commit()
  })

  it("INSTEAD OF triggers run in place of INSERT / UPDATE / DELETE on a view", async () => {
    await conn.execute("CREATE OR REPLACE VIEW tk_item_v AS SELECT id, qty * 10 AS tenfold FROM tk_item")
    // CREATE TRIGGER Statement: INSTEAD OF is for views only, and always a row trigger
    const onTable = await failure(() => conn.execute("CREATE TRIGGER tk_bad INSTEAD OF INSERT ON tk_item BEGIN NULL; END;"))
    expect(onTable.message).toMatch(/^ORA-25002: cannot create INSTEAD OF triggers on tables/)
    const onView = await failure(() => conn.execute("CREATE TRIGGER tk_bad BEFORE INSERT ON tk_item_v FOR EACH ROW BEGIN NULL; END;"))
    expect(onView.message).toMatch(/^ORA-25001: cannot create this trigger type on views/)
    await conn.execute(`CREATE OR REPLACE TRIGGER tk_item_v_io INSTEAD OF INSERT OR UPDATE OR DELETE ON tk_item_v
      BEGIN
        IF INSERTING THEN
          INSERT INTO tk_item (id, qty) VALUES (:NEW.id, :NEW.tenfold / 10);
        ELSIF UPDATING THEN
          UPDATE tk_item SET qty = :NEW.tenfold / 10 WHERE id = :OLD.id;
        ELSE
          DELETE FROM tk_item WHERE id = :OLD.id;
        END IF;
        INSERT INTO tk_log VALUES ('io ' || NVL(:NEW.id, :OLD.id));
      END;`)
    const ins = await conn.execute("INSERT INTO tk_item_v (id, tenfold) VALUES (7, 30)")
    expect(ins.rowsAffected).toBe(1)
    await conn.execute("INSERT INTO tk_item_v (id, tenfold) VALUES (8, 40)")
    const upd = await conn.execute("UPDATE tk_item_v SET tenfold = tenfold + 10 WHERE id = 7")
    expect(upd.rowsAffected).toBe(1)
    const del = await conn.execute("DELETE FROM tk_item_v WHERE id = 8")
    expect(del.rowsAffected).toBe(1)
    expect((await conn.execute("SELECT id, qty, status FROM tk_item ORDER BY id")).rows).toEqual([[7, 4, "NEW"]])
    expect(await log()).toEqual([["io 7"], ["io 7"], ["io 8"], ["io 8"]])
    const r = await conn.execute("SELECT trigger_type, triggering_event, base_object_type, table_name FROM user_triggers WHERE trigger_name = 'TK_ITEM_V_IO'")
    expect(r.rows).toEqual([["INSTEAD OF", "INSERT OR UPDATE OR DELETE", "VIEW", "TK_ITEM_V"]])
    await conn.rollback()
    await conn.execute("DROP TRIGGER tk_item_v_io")
  })

  it("ALTER TRIGGER DISABLE stops a trigger firing, ENABLE restarts it; USER_OBJECTS lists triggers", async () => {
    await conn.execute("CREATE OR REPLACE TRIGGER tk_item_ai AFTER INSERT ON tk_item FOR EACH ROW BEGIN INSERT INTO tk_log VALUES ('ai ' || :NEW.id); END;")
    await conn.execute("ALTER TRIGGER tk_item_ai DISABLE")
    expect((await conn.execute("SELECT status FROM user_triggers WHERE trigger_name = 'TK_ITEM_AI'")).rows).toEqual([["DISABLED"]])
    await conn.execute("INSERT INTO tk_item (id) VALUES (11)")
    await conn.execute("ALTER TRIGGER tk_item_ai ENABLE")
    await conn.execute("ALTER TRIGGER tk_item_ai COMPILE")
    await conn.execute("INSERT INTO tk_item (id) VALUES (12)")
    expect(await log()).toEqual([["ai 12"]])
    const objects = await conn.execute("SELECT object_name, object_type, status FROM user_objects WHERE object_type = 'TRIGGER'")
    expect(objects.rows).toEqual([["TK_ITEM_AI", "TRIGGER", "VALID"]])
    const unknown = await failure(() => conn.execute("ALTER TRIGGER tk_nope ENABLE"))
    expect(unknown.message).toMatch(/^ORA-04080: trigger 'TK_NOPE' does not exist/)
    await conn.execute("DROP TRIGGER tk_item_ai")
    expect((await conn.execute("SELECT COUNT(*) FROM user_objects WHERE object_type = 'TRIGGER'")).rows).toEqual([[0]])
    await conn.execute("DELETE FROM tk_item")
    await conn.execute("DELETE FROM tk_log")
    await conn.commit()
  })

  it("a trigger's DML fires the triggers of the table it writes", async () => {
    await conn.execute("CREATE OR REPLACE TRIGGER tk_item_ai AFTER INSERT ON tk_item FOR EACH ROW BEGIN INSERT INTO tk_log VALUES ('item ' || :NEW.id); END;")
    await conn.execute("CREATE OR REPLACE TRIGGER tk_log_ai AFTER INSERT ON tk_log FOR EACH ROW BEGIN INSERT INTO tk_log2 VALUES ('log ' || :NEW.what); END;")
    await conn.execute("INSERT INTO tk_item (id) SELECT 20 FROM dual UNION ALL SELECT 21 FROM dual")
    expect((await conn.execute("SELECT what FROM tk_log2 ORDER BY what")).rows).toEqual([["log item 20"], ["log item 21"]])
    await conn.rollback()
    await conn.execute("DROP TRIGGER tk_item_ai")
    await conn.execute("DROP TRIGGER tk_log_ai")
  })

  it("a row trigger that reads or writes its own table fails ORA-04091 (a single-row INSERT ... VALUES excepted)", async () => {
    await conn.execute("INSERT INTO tk_item (id, qty) VALUES (30, 1)")
    await conn.execute("INSERT INTO tk_item (id, qty) VALUES (31, 2)")
    await conn.commit()
    await conn.execute(`CREATE OR REPLACE TRIGGER tk_item_bu BEFORE UPDATE OR INSERT ON tk_item FOR EACH ROW
      DECLARE
        n NUMBER;
      BEGIN
        SELECT COUNT(*) INTO n FROM tk_item;
        :NEW.note := 'saw ' || n;
      END;`)
    const e = await failure(() => conn.execute("UPDATE tk_item SET qty = qty + 1"))
    expect(e.message.split("\nHelp:")[0]).toBe(
      `ORA-04091: table ${server.user}.TK_ITEM is mutating, trigger/function may not see it\nORA-06512: at "${server.user}.TK_ITEM_BU", line 4\nORA-04088: error during execution of trigger '${server.user}.TK_ITEM_BU'`
    )
    expect((await conn.execute("SELECT id, qty FROM tk_item ORDER BY id")).rows).toEqual([
      [30, 1],
      [31, 2]
    ])
    const many = await failure(() => conn.execute("INSERT INTO tk_item (id) SELECT 32 FROM dual"))
    expect(many.message).toMatch(/^ORA-04091: /)
    // a single-row INSERT ... VALUES: the table is not mutating for its row triggers
    await conn.execute("INSERT INTO tk_item (id) VALUES (33)")
    expect((await conn.execute("SELECT note FROM tk_item WHERE id = 33")).rows).toEqual([["saw 2"]])
    await conn.execute(`CREATE OR REPLACE TRIGGER tk_item_bu AFTER DELETE ON tk_item FOR EACH ROW
      BEGIN
        UPDATE tk_item SET qty = 0 WHERE id <> :OLD.id;
      END;`)
    const write = await failure(() => conn.execute("DELETE FROM tk_item WHERE id = 30"))
    expect(write.message).toMatch(/^ORA-04091: table \w+\.TK_ITEM is mutating/)
    await conn.rollback()
    await conn.execute("DROP TRIGGER tk_item_bu")
  })

  it("INSERT / UPDATE / DELETE ... RETURNING INTO on a table with triggers return the rows as written (a trigger-filled key)", async () => {
    await conn.execute("CREATE SEQUENCE tk_seq START WITH 500")
    await conn.execute(`CREATE OR REPLACE TRIGGER tk_item_key BEFORE INSERT OR UPDATE ON tk_item FOR EACH ROW
      BEGIN
        IF INSERTING THEN :NEW.id := tk_seq.NEXTVAL; END IF;
        :NEW.note := 'qty ' || :NEW.qty;
      END;`)
    const ins = await conn.execute("INSERT INTO tk_item (qty) VALUES (:q) RETURNING id, note, status INTO :id, :note, :status", {
      q: 4,
      id: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
      note: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 },
      status: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 10 }
    })
    expect(ins.outBinds).toEqual({ id: [500], note: ["qty 4"], status: ["NEW"] })
    await conn.execute("INSERT INTO tk_item (qty) VALUES (6)")
    const upd = await conn.execute("UPDATE tk_item SET qty = qty + 1 WHERE id >= 500 RETURNING id, note INTO :id, :note", {
      id: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
      note: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 }
    })
    expect(upd.rowsAffected).toBe(2)
    expect(upd.outBinds).toEqual({ id: [500, 501], note: ["qty 5", "qty 7"] })
    const blk = await conn.execute("DECLARE v VARCHAR2(40); BEGIN INSERT INTO tk_item (qty) VALUES (9) RETURNING id, note INTO :id, v; :note := v; END;", {
      id: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
      note: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 40 }
    })
    expect(blk.outBinds).toEqual({ id: 502, note: "qty 9" })
    const del = await conn.execute("DELETE FROM tk_item WHERE id = 501 RETURNING qty INTO :q", { q: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })
    expect(del.outBinds).toEqual({ q: [7] })
    await conn.rollback()
    await conn.execute("DROP TRIGGER tk_item_key")
  })

  it("a compound trigger's sections share their declarations for one statement (the mutating-table workaround)", async () => {
    await conn.execute("DELETE FROM tk_item")
    await conn.execute("DELETE FROM tk_log")
    await conn.execute("INSERT INTO tk_item (id, qty) VALUES (1, 10)")
    await conn.execute("INSERT INTO tk_item (id, qty) VALUES (2, 20)")
    await conn.commit()
    // PL/SQL Language Reference, "Compound DML Triggers": one declaration section, then timing-point sections; its
    // state is made anew for each triggering statement
    await conn.execute(`CREATE OR REPLACE TRIGGER tk_item_ct
      FOR UPDATE OF qty ON tk_item
      COMPOUND TRIGGER
        TYPE t_ids IS TABLE OF NUMBER INDEX BY PLS_INTEGER;
        ids t_ids;
        rows_seen PLS_INTEGER := 0;
        BEFORE STATEMENT IS
        BEGIN
          INSERT INTO tk_log VALUES ('start ' || rows_seen);
        END BEFORE STATEMENT;
        BEFORE EACH ROW IS
        BEGIN
          :NEW.note := 'was ' || :OLD.qty;
        END BEFORE EACH ROW;
        AFTER EACH ROW IS
        BEGIN
          rows_seen := rows_seen + 1;
          ids(rows_seen) := :NEW.id;
        END AFTER EACH ROW;
        AFTER STATEMENT IS
          total NUMBER;
        BEGIN
          SELECT SUM(qty) INTO total FROM tk_item;
          FOR i IN 1 .. ids.COUNT LOOP
            INSERT INTO tk_log VALUES ('row ' || ids(i) || ' of ' || rows_seen || ', total ' || total);
          END LOOP;
        END AFTER STATEMENT;
      END tk_item_ct;`)
    await conn.execute("UPDATE tk_item SET qty = qty + 1")
    await conn.execute("UPDATE tk_item SET qty = 5 WHERE id = 2")
    expect((await conn.execute("SELECT id, qty, note FROM tk_item ORDER BY id")).rows).toEqual([
      [1, 11, "was 10"],
      [2, 5, "was 21"]
    ])
    expect(await log()).toEqual([["row 1 of 2, total 32"], ["row 2 of 1, total 16"], ["row 2 of 2, total 32"], ["start 0"], ["start 0"]])
    const r = await conn.execute("SELECT trigger_type, triggering_event FROM user_triggers WHERE trigger_name = 'TK_ITEM_CT'")
    expect(r.rows).toEqual([["COMPOUND", "UPDATE"]])
    await conn.rollback()
    await conn.execute("DROP TRIGGER tk_item_ct")
  })

  it("MERGE into a table with triggers fires the UPDATE triggers of matched rows and the INSERT triggers of new ones", async () => {
    await conn.execute("DELETE FROM tk_item")
    await conn.execute("DELETE FROM tk_log")
    await conn.execute("INSERT INTO tk_item (id, qty) VALUES (1, 10)")
    await conn.execute("INSERT INTO tk_item (id, qty) VALUES (2, 20)")
    await conn.commit()
    await conn.execute(`CREATE OR REPLACE TRIGGER tk_item_merge BEFORE INSERT OR UPDATE ON tk_item FOR EACH ROW
      BEGIN
        IF INSERTING THEN
          :NEW.note := 'ins ' || :NEW.qty;
          INSERT INTO tk_log VALUES ('I ' || :NEW.id);
        ELSE
          :NEW.note := 'upd ' || :OLD.qty || '->' || :NEW.qty;
          INSERT INTO tk_log VALUES ('U ' || :NEW.id);
        END IF;
      END;`)
    const r = await conn.execute(
      `MERGE INTO tk_item t
        USING (SELECT 2 AS id, 25 AS qty FROM dual UNION ALL SELECT 3, :q FROM dual) s
        ON (t.id = s.id)
        WHEN MATCHED THEN UPDATE SET t.qty = s.qty + :d
        WHEN NOT MATCHED THEN INSERT (id, qty) VALUES (s.id, s.qty)`,
      { q: 30, d: 1 }
    )
    expect(r.rowsAffected).toBe(2)
    expect((await conn.execute("SELECT id, qty, status, note FROM tk_item ORDER BY id")).rows).toEqual([
      [1, 10, "NEW", null],
      [2, 26, "NEW", "upd 20->26"],
      [3, 30, "NEW", "ins 30"]
    ])
    expect(await log()).toEqual([["I 3"], ["U 2"]])
    await conn.rollback()
    await conn.execute("DROP TRIGGER tk_item_merge")
  })
})
