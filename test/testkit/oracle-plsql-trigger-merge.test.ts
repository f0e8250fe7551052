import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

/**
 * MERGE into a table with triggers and ALTER TRIGGER RENAME, through raw node-oracledb. Oracle's rules (SQL Language
 * Reference 23ai, "MERGE"): the UPDATE triggers fire for the rows merge_update_clause changes, the INSERT triggers
 * for the rows merge_insert_clause inserts, and "If the MERGE statement deletes a row, any delete triggers defined on
 * the target table will be activated for each row deletion"; the DELETE WHERE condition "evaluates the updated value,
 * not the original value of the row", and deletes only rows the merge updated. Statement triggers of every event the
 * MERGE names fire, whether or not a row is written for it. PL/SQL Language Reference 23ai, "ALTER TRIGGER Statement":
 * RENAME TO changes the name, not the state.
 */
describe("Oracle test server: MERGE with triggers", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE mt_item (id NUMBER(10) PRIMARY KEY, qty NUMBER(5), note VARCHAR2(40))")
    await conn.execute("CREATE TABLE mt_price (id NUMBER(10), qty NUMBER(5), note VARCHAR2(40))")
    await conn.execute("CREATE TABLE mt_log (n NUMBER, what VARCHAR2(60))")
    await conn.execute("CREATE SEQUENCE mt_seq")
    for (const [name, timing, event, row] of [
      ["mt_bis", "BEFORE", "INSERT", false],
      ["mt_bus", "BEFORE", "UPDATE", false],
      ["mt_bds", "BEFORE", "DELETE", false],
      ["mt_ais", "AFTER", "INSERT", false],
      ["mt_aus", "AFTER", "UPDATE", false],
      ["mt_ads", "AFTER", "DELETE", false],
      ["mt_bur", "BEFORE", "UPDATE", true],
      ["mt_bir", "BEFORE", "INSERT", true],
      ["mt_adr", "AFTER", "DELETE", true]
    ] as const) {
      const what = row ? `'${name} ' || NVL(:NEW.id, :OLD.id)` : `'${name}'`
      await conn.execute(`CREATE TRIGGER ${name} ${timing} ${event} ON mt_item ${row ? "FOR EACH ROW" : ""}
        BEGIN INSERT INTO mt_log VALUES (mt_seq.NEXTVAL, ${what}); END;`)
    }
  })
  afterAll(() => closeConnection({ server, conn }))

  beforeEach(async () => {
    await conn.execute("DELETE FROM mt_item")
    await conn.execute("DELETE FROM mt_price")
    await conn.execute("INSERT INTO mt_item VALUES (1, 10, 'keep')")
    await conn.execute("INSERT INTO mt_item VALUES (2, 20, 'old')")
    await conn.execute("INSERT INTO mt_item VALUES (3, 30, 'old')")
    await conn.execute("DELETE FROM mt_log")
    await conn.commit()
  })

  const log = async (): Promise<Array<string>> => ((await conn.execute("SELECT what FROM mt_log ORDER BY n")).rows as Array<[string]>).map((r) => r[0])
  const items = async () => (await conn.execute("SELECT id, qty, note FROM mt_item ORDER BY id")).rows

  it("fires every BEFORE statement trigger first and every AFTER one last, for each event the MERGE names", async () => {
    const r = await conn.execute(`MERGE INTO mt_item t USING (SELECT 2 id, 21 qty FROM dual UNION ALL SELECT 4, 40 FROM dual) s
      ON (t.id = s.id)
      WHEN MATCHED THEN UPDATE SET t.qty = s.qty
      WHEN NOT MATCHED THEN INSERT (id, qty) VALUES (s.id, s.qty)`)
    expect(r.rowsAffected).toBe(2)
    const events = await log()
    // the statement triggers in the clauses' order (which of UPDATE and INSERT Oracle fires first is not documented)
    expect(events).toEqual(["mt_bus", "mt_bis", "mt_bur 2", "mt_bir 4", "mt_aus", "mt_ais"])
    expect(await items()).toEqual([
      [1, 10, "keep"],
      [2, 21, "old"],
      [3, 30, "old"],
      [4, 40, null]
    ])
    await conn.rollback()
  })

  it("DELETE WHERE deletes the updated rows that then meet its condition, firing the DELETE triggers", async () => {
    const r = await conn.execute(`MERGE INTO mt_item t USING (SELECT 2 id, 0 qty FROM dual UNION ALL SELECT 3, 31 FROM dual UNION ALL SELECT 5, 0 FROM dual) s
      ON (t.id = s.id)
      WHEN MATCHED THEN UPDATE SET t.qty = s.qty DELETE WHERE t.qty = 0
      WHEN NOT MATCHED THEN INSERT (id, qty) VALUES (s.id, s.qty)`)
    // rows 2 and 3 updated, row 5 inserted; row 2, updated to 0, is then deleted (counted once); row 5, inserted with 0,
    // is not: only updated rows are. A row's DELETE triggers fire right after its UPDATE triggers, before the next
    // row's and the inserted rows' (Data Warehousing Guide, "Using the DELETE Clause with MERGE Statements").
    expect(r.rowsAffected).toBe(3)
    expect(await items()).toEqual([
      [1, 10, "keep"],
      [3, 31, "old"],
      [5, 0, null]
    ])
    expect(await log()).toEqual(["mt_bus", "mt_bds", "mt_bis", "mt_bur 2", "mt_adr 2", "mt_bur 3", "mt_bir 5", "mt_aus", "mt_ads", "mt_ais"])
    await conn.rollback()
  })

  it("UPDATE SET (columns) = (subquery) reads the subquery per target row, correlated with the source", async () => {
    await conn.execute("INSERT INTO mt_price VALUES (2, 22, 'new two')")
    await conn.execute("INSERT INTO mt_price VALUES (3, 33, 'new three')")
    const r = await conn.execute(
      `MERGE INTO mt_item t USING (SELECT 2 id FROM dual UNION ALL SELECT 3 FROM dual) s
        ON (t.id = s.id)
        WHEN MATCHED THEN UPDATE SET (t.qty, t.note) = (SELECT p.qty + :d, p.note FROM mt_price p WHERE p.id = s.id)`,
      { d: 1 }
    )
    expect(r.rowsAffected).toBe(2)
    expect(await items()).toEqual([
      [1, 10, "keep"],
      [2, 23, "new two"],
      [3, 34, "new three"]
    ])
    await conn.rollback()
  })

  it("a batch MERGE that fails on its third bind row leaves the table as it was", async () => {
    await conn.execute(`CREATE OR REPLACE TRIGGER mt_check BEFORE UPDATE ON mt_item FOR EACH ROW
      BEGIN IF :NEW.qty < 0 THEN RAISE_APPLICATION_ERROR(-20001, 'negative ' || :NEW.id); END IF; END;`)
    try {
      const e = await failure(() =>
        conn.executeMany(
          `MERGE INTO mt_item t USING (SELECT :id id, :qty qty FROM dual) s ON (t.id = s.id)
            WHEN MATCHED THEN UPDATE SET t.qty = s.qty WHEN NOT MATCHED THEN INSERT (id, qty) VALUES (s.id, s.qty)`,
          [
            { id: 1, qty: 11 },
            { id: 6, qty: 60 },
            { id: 3, qty: -1 }
          ]
        )
      )
      expect(oraCode(e)).toBe("ORA-20001")
      expect(e.message).toContain("negative 3")
      await conn.rollback()
      expect(await items()).toEqual([
        [1, 10, "keep"],
        [2, 20, "old"],
        [3, 30, "old"]
      ])
    } finally {
      await conn.execute("DROP TRIGGER mt_check")
    }
  })

  it("ALTER TRIGGER RENAME TO keeps the trigger firing under its new name", async () => {
    await conn.execute("CREATE TRIGGER mt_named AFTER INSERT ON mt_item FOR EACH ROW BEGIN INSERT INTO mt_log VALUES (mt_seq.NEXTVAL, 'named ' || :NEW.id); END;")
    try {
      await conn.execute("ALTER TRIGGER mt_named DISABLE")
      await conn.execute("ALTER TRIGGER mt_named RENAME TO mt_renamed")
      const names = await conn.execute("SELECT trigger_name, status FROM user_triggers WHERE trigger_name LIKE 'MT_%NAMED' ORDER BY 1")
      expect(names.rows).toEqual([["MT_RENAMED", "DISABLED"]])
      expect((await conn.execute("SELECT object_name FROM user_objects WHERE object_type = 'TRIGGER' AND object_name LIKE 'MT_%NAMED'")).rows).toEqual([["MT_RENAMED"]])
      await conn.execute("ALTER TRIGGER mt_renamed ENABLE")
      await conn.execute("INSERT INTO mt_item (id, qty) VALUES (7, 70)")
      expect(await log()).toContain("named 7")
      expect(oraCode(await failure(() => conn.execute("ALTER TRIGGER mt_named ENABLE")))).toBe("ORA-04080")
      expect(oraCode(await failure(() => conn.execute("ALTER TRIGGER mt_renamed RENAME TO mt_bis")))).toBe("ORA-04081")
      await conn.rollback()
    } finally {
      await conn.execute("DROP TRIGGER mt_renamed")
    }
  })

  it("dynamic SQL in a row trigger and stored functions a DML statement calls are held to the mutating-table restriction", async () => {
    // Database Error Messages, ORA-04091: "A trigger (or a user defined PL/SQL function that is referenced in this
    // statement) attempted to look at (or modify) a table that was in the middle of being modified by the statement"
    await conn.execute(`CREATE OR REPLACE TRIGGER mt_dyn BEFORE UPDATE ON mt_item FOR EACH ROW
      DECLARE n NUMBER; BEGIN EXECUTE IMMEDIATE 'SELECT COUNT(*) FROM mt_item' INTO n; END;`)
    try {
      const e = await failure(() => conn.execute("UPDATE mt_item SET qty = qty + 1 WHERE id = 1"))
      expect(e.message).toMatch(/^ORA-04091: table \w+\.MT_ITEM is mutating, trigger\/function may not see it/)
    } finally {
      await conn.execute("DROP TRIGGER mt_dyn")
    }
    // mt_price has no triggers: its UPDATE / DELETE write it set-wise, calling the functions per row
    await conn.execute("INSERT INTO mt_price VALUES (1, 5, 'a')")
    await conn.execute("INSERT INTO mt_price VALUES (2, 7, 'b')")
    await conn.execute("CREATE OR REPLACE FUNCTION mt_total RETURN NUMBER IS n NUMBER; BEGIN SELECT SUM(qty) INTO n FROM mt_item; RETURN n; END;")
    await conn.execute("CREATE OR REPLACE FUNCTION mt_prices RETURN NUMBER IS n NUMBER; BEGIN SELECT SUM(qty) INTO n FROM mt_price; RETURN n; END;")
    const update = await failure(() => conn.execute("UPDATE mt_price SET note = TO_CHAR(mt_prices) WHERE id = 1"))
    expect(update.message).toMatch(/^ORA-04091: table \w+\.MT_PRICE is mutating, trigger\/function may not see it/)
    const fromBlock = await failure(() => conn.execute("BEGIN DELETE FROM mt_price WHERE qty < mt_prices / 2; END;"))
    expect(fromBlock.message).toMatch(/^ORA-04091: table \w+\.MT_PRICE is mutating/)
    const prices = async () => (await conn.execute("SELECT id, qty, note FROM mt_price ORDER BY id")).rows
    expect(await prices()).toEqual([
      [1, 5, "a"],
      [2, 7, "b"]
    ])
    // another table, and a single-row INSERT ... VALUES, are not mutating
    await conn.execute("UPDATE mt_price SET note = TO_CHAR(mt_total) WHERE id = 1")
    await conn.execute("INSERT INTO mt_price (id, qty) VALUES (3, mt_prices)")
    expect(await prices()).toEqual([
      [1, 5, "60"],
      [2, 7, "b"],
      [3, 12, null]
    ])
    await conn.rollback()
  })
})
