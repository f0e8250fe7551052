/**
 * Foreign keys enabled NOVALIDATE: SQL Language Reference, "constraint", "constraint_state" (ENABLE NOVALIDATE
 * "ensures that all new DML operations on the constrained data comply with the constraint" without checking the
 * existing data; ENABLE, which is ENABLE VALIDATE, checks it and fails ORA-02298 "cannot validate (s.c) - parent keys
 * not found": https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/constraint.html,
 * https://docs.oracle.com/en/error-help/db/ora-02298/). Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const code = async (sql: string) => oraCode(await failure(() => conn.execute(sql)))
const rows = async (sql: string) => (await conn.execute(sql)).rows
const state = (name: string) => rows(`SELECT status, validated FROM user_constraints WHERE constraint_name = '${name}'`)

describe("Oracle test server: foreign keys enabled NOVALIDATE", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE nvf_par (id NUMBER PRIMARY KEY)")
    await conn.executeMany("INSERT INTO nvf_par VALUES (:1)", [[1], [2], [3]])
    for (const child of ["nvf_a", "nvf_b", "nvf_c"]) {
      await conn.execute(`CREATE TABLE ${child} (id NUMBER PRIMARY KEY, p NUMBER, note VARCHAR2(10))`)
      await conn.executeMany(`INSERT INTO ${child} VALUES (:1, :2, :3)`, [[1, 1, "ok"], [2, 99, "orphan"], [3, null, "none"]])
    }
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("ADD ... ENABLE NOVALIDATE keeps the orphan rows and checks new and changed rows", async () => {
    expect(await code("ALTER TABLE nvf_a ADD CONSTRAINT nvf_a_fk FOREIGN KEY (p) REFERENCES nvf_par (id)")).toBe("ORA-02298")
    await conn.execute("ALTER TABLE nvf_a ADD CONSTRAINT nvf_a_fk FOREIGN KEY (p) REFERENCES nvf_par (id) ENABLE NOVALIDATE")
    expect(await state("NVF_A_FK")).toEqual([["ENABLED", "NOT VALIDATED"]])
    expect(await rows("SELECT id, p FROM nvf_a ORDER BY id")).toEqual([[1, 1], [2, 99], [3, null]])
    await conn.execute("INSERT INTO nvf_a VALUES (4, 2, 'new')")
    expect(await code("INSERT INTO nvf_a VALUES (5, 98, 'bad')")).toBe("ORA-02291")
    // a second row of the orphan key is new too
    expect(await code("INSERT INTO nvf_a VALUES (5, 99, 'bad')")).toBe("ORA-02291")
    expect(await code("UPDATE nvf_a SET p = 97 WHERE id = 1")).toBe("ORA-02291")
    expect(await code("UPDATE nvf_a SET p = 97 WHERE id = 2")).toBe("ORA-02291")
    expect(await code("MERGE INTO nvf_a t USING (SELECT 6 id, 96 p FROM dual) s ON (t.id = s.id) WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.p, 'm')")).toBe("ORA-02291")
    expect(await code("BEGIN INSERT INTO nvf_a VALUES (6, 95, 'plsql'); END;")).toBe("ORA-02291")
    // the orphan row's other columns may change
    await conn.execute("UPDATE nvf_a SET note = 'kept' WHERE id = 2")
    // a parent row a child row uses cannot go, one no child uses can
    expect(await code("DELETE FROM nvf_par WHERE id = 2")).toBe("ORA-02292")
    await conn.execute("DELETE FROM nvf_par WHERE id = 3")
    // the failed statements undid only themselves
    expect(await rows("SELECT id, p, note FROM nvf_a ORDER BY id")).toEqual([[1, 1, "ok"], [2, 99, "kept"], [3, null, "none"], [4, 2, "new"]])
    expect(await rows("SELECT id FROM nvf_par ORDER BY id")).toEqual([[1], [2]])
    await conn.rollback()
  })

  it("ENABLE VALIDATE of a foreign key enabled NOVALIDATE checks the rows (ORA-02298), and holds once they comply", async () => {
    await conn.execute("ALTER TABLE nvf_b ADD CONSTRAINT nvf_b_fk FOREIGN KEY (p) REFERENCES nvf_par (id) ENABLE NOVALIDATE")
    expect(await code("ALTER TABLE nvf_b ENABLE VALIDATE CONSTRAINT nvf_b_fk")).toBe("ORA-02298")
    expect(await code("ALTER TABLE nvf_b MODIFY CONSTRAINT nvf_b_fk ENABLE")).toBe("ORA-02298")
    expect(await state("NVF_B_FK")).toEqual([["ENABLED", "NOT VALIDATED"]])
    expect(await code("INSERT INTO nvf_b VALUES (5, 98, 'bad')")).toBe("ORA-02291")
    await conn.execute("DELETE FROM nvf_b WHERE p = 99")
    await conn.commit()
    await conn.execute("ALTER TABLE nvf_b ENABLE VALIDATE CONSTRAINT nvf_b_fk")
    expect(await state("NVF_B_FK")).toEqual([["ENABLED", "VALIDATED"]])
    expect(await code("INSERT INTO nvf_b VALUES (5, 98, 'bad')")).toBe("ORA-02291")
    expect(await code("DELETE FROM nvf_par WHERE id = 1")).toBe("ORA-02292")
  })

  it("a foreign key added DISABLE is recorded only; ENABLE NOVALIDATE then checks new rows", async () => {
    await conn.execute("ALTER TABLE nvf_c ADD CONSTRAINT nvf_c_fk FOREIGN KEY (p) REFERENCES nvf_par (id) DISABLE")
    expect(await state("NVF_C_FK")).toEqual([["DISABLED", "NOT VALIDATED"]])
    await conn.execute("INSERT INTO nvf_c VALUES (4, 98, 'free')")
    await conn.commit()
    expect(await code("ALTER TABLE nvf_c ENABLE CONSTRAINT nvf_c_fk")).toBe("ORA-02298")
    await conn.execute("ALTER TABLE nvf_c ENABLE NOVALIDATE CONSTRAINT nvf_c_fk")
    expect(await state("NVF_C_FK")).toEqual([["ENABLED", "NOT VALIDATED"]])
    expect(await code("INSERT INTO nvf_c VALUES (5, 97, 'bad')")).toBe("ORA-02291")
    await conn.execute("INSERT INTO nvf_c VALUES (5, 1, 'good')")
    expect(await rows("SELECT id, p FROM nvf_c ORDER BY id")).toEqual([[1, 1], [2, 99], [3, null], [4, 98], [5, 1]])
    await conn.execute("ALTER TABLE nvf_c DROP CONSTRAINT nvf_c_fk")
    await conn.execute("INSERT INTO nvf_c VALUES (6, 97, 'free')")
    await conn.rollback()
  })

  it("ENABLE VALIDATE of a check enabled NOVALIDATE checks the rows (ORA-02293)", async () => {
    await conn.execute("CREATE TABLE nvf_chk (id NUMBER, qty NUMBER)")
    await conn.executeMany("INSERT INTO nvf_chk VALUES (:1, :2)", [[1, 5], [2, -1]])
    await conn.commit()
    await conn.execute("ALTER TABLE nvf_chk ADD CONSTRAINT nvf_chk_qty CHECK (qty > 0) ENABLE NOVALIDATE")
    expect(await state("NVF_CHK_QTY")).toEqual([["ENABLED", "NOT VALIDATED"]])
    expect(await code("ALTER TABLE nvf_chk ENABLE VALIDATE CONSTRAINT nvf_chk_qty")).toBe("ORA-02293")
    expect(await state("NVF_CHK_QTY")).toEqual([["ENABLED", "NOT VALIDATED"]])
    expect(await code("INSERT INTO nvf_chk VALUES (3, -3)")).toBe("ORA-02290")
    expect(await rows("SELECT id, qty FROM nvf_chk ORDER BY id")).toEqual([[1, 5], [2, -1]])
    await conn.execute("UPDATE nvf_chk SET qty = 1 WHERE id = 2")
    await conn.commit()
    await conn.execute("ALTER TABLE nvf_chk ENABLE CONSTRAINT nvf_chk_qty")
    expect(await state("NVF_CHK_QTY")).toEqual([["ENABLED", "VALIDATED"]])
    expect(await code("INSERT INTO nvf_chk VALUES (3, -3)")).toBe("ORA-02290")
  })
})
