import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

// SQL Language Reference, ALTER TABLE (add_table_constraint / constraint_clauses): a constraint added to a table with
// rows validates them first and fails naming it: ORA-02437 (primary key violated), ORA-02299 (duplicate keys found),
// ORA-02293 (check constraint violated), ORA-02298 (parent keys not found) (Error Messages,
// https://docs.oracle.com/en/error-help/db/ora-02437/ and the others); once added it holds and shows in
// USER_CONSTRAINTS / USER_CONS_COLUMNS.
describe("Oracle test server: ALTER TABLE ADD CONSTRAINT on a table with rows", () => {
  let close: () => Promise<void>
  let c: Conn
  const code = async (sql: string) => oraCode(await failure(() => c.execute(sql)))
  beforeAll(async () => {
    const { server, connect } = await withServer()
    c = await connect()
    close = async () => {
      await c.close()
      await server.close()
    }
    await c.execute("CREATE TABLE parent (id NUMBER, name VARCHAR2(10))")
    await c.execute("INSERT INTO parent VALUES (1, 'a')")
    await c.execute("INSERT INTO parent VALUES (1, 'b')")
    await c.execute("CREATE TABLE child (id NUMBER, parent_id NUMBER, qty NUMBER)")
    await c.execute("INSERT INTO child VALUES (10, 1, 5)")
    await c.execute("INSERT INTO child VALUES (11, 2, -1)")
    await c.commit()
  })
  afterAll(async () => close?.())

  it("validates the rows a new constraint would break, then enforces it", async () => {
    expect(await code("ALTER TABLE parent ADD CONSTRAINT parent_pk PRIMARY KEY (id)")).toBe("ORA-02437")
    expect(await code("ALTER TABLE parent ADD CONSTRAINT parent_uk UNIQUE (id)")).toBe("ORA-02299")
    await c.execute("DELETE FROM parent WHERE name = 'b'")
    await c.execute("INSERT INTO parent VALUES (3, 'c')")
    await c.commit()
    await c.execute("ALTER TABLE parent ADD CONSTRAINT parent_pk PRIMARY KEY (id)")
    expect(await code("INSERT INTO parent VALUES (1, 'dup')")).toBe("ORA-00001")
    expect(await code("ALTER TABLE child ADD CONSTRAINT child_qty CHECK (qty > 0)")).toBe("ORA-02293")
    expect(await code("ALTER TABLE child ADD CONSTRAINT child_fk FOREIGN KEY (parent_id) REFERENCES parent (id)")).toBe("ORA-02298")
    await c.execute("UPDATE child SET qty = 1, parent_id = 3 WHERE id = 11")
    await c.commit()
    await c.execute("ALTER TABLE child ADD CONSTRAINT child_qty CHECK (qty > 0)")
    await c.execute("ALTER TABLE child ADD CONSTRAINT child_fk FOREIGN KEY (parent_id) REFERENCES parent (id)")
    await c.execute("ALTER TABLE child ADD UNIQUE (id)")
    expect(await code("INSERT INTO child VALUES (12, 1, 0)")).toBe("ORA-02290")
    expect(await code("INSERT INTO child VALUES (12, 9, 1)")).toBe("ORA-02291")
    expect(await code("INSERT INTO child VALUES (10, 1, 1)")).toBe("ORA-00001")
    // the rows are all there
    expect((await c.execute("SELECT id, parent_id, qty FROM child ORDER BY id")).rows).toEqual([[10, 1, 5], [11, 3, 1]])
    expect((await c.execute("SELECT constraint_name, constraint_type, r_constraint_name FROM user_constraints WHERE table_name = 'CHILD' AND generated = 'USER NAME' ORDER BY 1")).rows).toEqual([
      ["CHILD_FK", "R", "PARENT_PK"],
      ["CHILD_QTY", "C", null]
    ])
    expect((await c.execute("SELECT column_name FROM user_cons_columns WHERE constraint_name = 'PARENT_PK'")).rows).toEqual([["ID"]])
    expect((await c.execute("SELECT nullable FROM user_tab_columns WHERE table_name = 'PARENT' AND column_name = 'ID'")).rows).toEqual([["N"]])
    expect(await code("ALTER TABLE parent ADD PRIMARY KEY (name)")).toBe("ORA-02260")
  })

  it("drops a constraint by name, a primary or unique key, and refuses a referenced key (ORA-02273) or a missing one (ORA-02443 / ORA-02441)", async () => {
    expect(await code("ALTER TABLE parent DROP PRIMARY KEY")).toBe("ORA-02273")
    await c.execute("ALTER TABLE child DROP CONSTRAINT child_qty")
    await c.execute("INSERT INTO child VALUES (12, 3, -5)")
    await c.execute("ALTER TABLE child DROP CONSTRAINT child_fk")
    await c.execute("INSERT INTO child VALUES (13, 99, 1)")
    await c.commit()
    // (PARENT keeps its key: DuckDB still counts CHILD's dropped foreign key against it, README "still differs")
    await c.execute("CREATE TABLE solo (id NUMBER CONSTRAINT solo_pk PRIMARY KEY, u NUMBER CONSTRAINT solo_u UNIQUE)")
    await c.execute("INSERT INTO solo VALUES (1, 1)")
    await c.execute("ALTER TABLE solo DROP PRIMARY KEY")
    await c.execute("ALTER TABLE solo DROP UNIQUE (u)")
    await c.execute("INSERT INTO solo VALUES (1, 1)")
    await c.commit()
    expect(await code("ALTER TABLE child DROP CONSTRAINT nosuch")).toBe("ORA-02443")
    expect(await code("ALTER TABLE solo DROP PRIMARY KEY")).toBe("ORA-02441")
    expect((await c.execute("SELECT constraint_name FROM user_constraints WHERE table_name IN ('SOLO', 'CHILD') AND generated = 'USER NAME'")).rows).toEqual([])
    expect((await c.execute("SELECT COUNT(*) FROM child")).rows).toEqual([[4]])
  })
  // SQL Language Reference, ALTER TABLE: `ADD (out_of_line_constraint [, out_of_line_constraint]...)`; a statement that
  // fails adds none of its constraints.
  it("adds one or several parenthesised constraints, all or none", async () => {
    await c.execute("CREATE TABLE paren (id NUMBER, qty NUMBER)")
    await c.execute("INSERT INTO paren VALUES (1, 5)")
    await c.commit()
    await c.execute("ALTER TABLE paren ADD (CONSTRAINT paren_pk PRIMARY KEY (id))")
    expect(await code("ALTER TABLE paren ADD (CONSTRAINT paren_qty CHECK (qty > 0), CONSTRAINT paren_small CHECK (qty < 3))")).toBe("ORA-02293")
    expect((await c.execute("SELECT constraint_name FROM user_constraints WHERE table_name = 'PAREN' ORDER BY 1")).rows).toEqual([["PAREN_PK"]])
    await c.execute("ALTER TABLE paren ADD (CONSTRAINT paren_qty CHECK (qty > 0), CONSTRAINT paren_uq UNIQUE (qty))")
    expect((await c.execute("SELECT constraint_name FROM user_constraints WHERE table_name = 'PAREN' ORDER BY 1")).rows).toEqual([["PAREN_PK"], ["PAREN_QTY"], ["PAREN_UQ"]])
    expect(await code("INSERT INTO paren VALUES (2, -1)")).toBe("ORA-02290")
    expect(await code("INSERT INTO paren VALUES (1, 7)")).toBe("ORA-00001")
    expect((await c.execute("SELECT id, qty FROM paren")).rows).toEqual([[1, 5]])
  })
  // SQL Language Reference, ALTER TABLE "enable_disable_clause" / "constraint_state": a disabled constraint stays in
  // USER_CONSTRAINTS (STATUS DISABLED, VALIDATED NOT VALIDATED) and is not enforced; enabling it again validates the
  // rows (ORA-02293 / ORA-02437 ...); disabling a referenced key is ORA-02297; an unknown one ORA-02431 / ORA-02430.
  it("disables and enables constraints", async () => {
    await c.execute("CREATE TABLE st_parent (id NUMBER CONSTRAINT st_parent_pk PRIMARY KEY)")
    await c.execute("CREATE TABLE st (id NUMBER CONSTRAINT st_pk PRIMARY KEY, qty NUMBER CONSTRAINT st_qty CHECK (qty > 0), p NUMBER CONSTRAINT st_fk REFERENCES st_parent (id))")
    await c.execute("INSERT INTO st_parent VALUES (1)")
    await c.execute("INSERT INTO st VALUES (1, 5, 1)")
    await c.commit()
    const state = async () => (await c.execute("SELECT constraint_name, status, validated FROM user_constraints WHERE table_name = 'ST' ORDER BY 1")).rows
    await c.execute("ALTER TABLE st DISABLE CONSTRAINT st_qty")
    await c.execute("ALTER TABLE st MODIFY CONSTRAINT st_fk DISABLE")
    expect(await state()).toEqual([["ST_FK", "DISABLED", "NOT VALIDATED"], ["ST_PK", "ENABLED", "VALIDATED"], ["ST_QTY", "DISABLED", "NOT VALIDATED"]])
    await c.execute("INSERT INTO st VALUES (2, -1, 9)")
    await c.commit()
    expect(await code("ALTER TABLE st ENABLE CONSTRAINT st_qty")).toBe("ORA-02293")
    expect(await code("ALTER TABLE st ENABLE VALIDATE CONSTRAINT st_fk")).toBe("ORA-02298")
    expect(await state()).toEqual([["ST_FK", "DISABLED", "NOT VALIDATED"], ["ST_PK", "ENABLED", "VALIDATED"], ["ST_QTY", "DISABLED", "NOT VALIDATED"]])
    await c.execute("UPDATE st SET qty = 2, p = 1 WHERE id = 2")
    await c.commit()
    await c.execute("ALTER TABLE st ENABLE CONSTRAINT st_qty")
    await c.execute("ALTER TABLE st MODIFY CONSTRAINT st_fk ENABLE VALIDATE")
    expect(await state()).toEqual([["ST_FK", "ENABLED", "VALIDATED"], ["ST_PK", "ENABLED", "VALIDATED"], ["ST_QTY", "ENABLED", "VALIDATED"]])
    expect(await code("INSERT INTO st VALUES (3, -1, 1)")).toBe("ORA-02290")
    expect(await code("INSERT INTO st VALUES (3, 1, 9)")).toBe("ORA-02291")
    expect((await c.execute("SELECT id, qty, p FROM st ORDER BY id")).rows).toEqual([[1, 5, 1], [2, 2, 1]])
    await c.execute("ALTER TABLE st DISABLE CONSTRAINT st_pk")
    await c.execute("INSERT INTO st VALUES (1, 7, 1)")
    await c.commit()
    expect(await code("ALTER TABLE st ENABLE CONSTRAINT st_pk")).toBe("ORA-02437")
    await c.execute("DELETE FROM st WHERE qty = 7")
    await c.commit()
    await c.execute("ALTER TABLE st ENABLE NOVALIDATE CONSTRAINT st_pk")
    expect((await c.execute("SELECT status, validated FROM user_constraints WHERE constraint_name = 'ST_PK'")).rows).toEqual([["ENABLED", "NOT VALIDATED"]])
    expect(await code("INSERT INTO st VALUES (1, 7, 1)")).toBe("ORA-00001")
    // a disabled check is dropped without a rebuild; the enabled one keeps being enforced under its name
    await c.execute("ALTER TABLE st ADD CONSTRAINT st_small CHECK (qty < 100)")
    await c.execute("ALTER TABLE st DISABLE CONSTRAINT st_qty")
    expect(await code("INSERT INTO st VALUES (5, 500, 1)")).toBe("ORA-02290")
    await c.execute("ALTER TABLE st DROP CONSTRAINT st_qty")
    await c.execute("INSERT INTO st VALUES (5, -5, 1)")
    expect((await failure(() => c.execute("INSERT INTO st VALUES (6, 500, 1)"))).message).toContain("ST_SMALL")
    await c.rollback()
    expect(await code("ALTER TABLE st_parent DISABLE CONSTRAINT st_parent_pk")).toBe("ORA-02297")
    expect(await code("ALTER TABLE st DISABLE CONSTRAINT nosuch")).toBe("ORA-02431")
    expect(await code("ALTER TABLE st ENABLE CONSTRAINT nosuch")).toBe("ORA-02430")
  })

  it("ENABLE NOVALIDATE of a check leaves the rows that break it and checks new and updated rows", async () => {
    // SQL Language Reference, ALTER TABLE "constraint_state": ENABLE NOVALIDATE checks new DML, not the existing data;
    // USER_CONSTRAINTS shows it ENABLED / NOT VALIDATED
    await c.execute("CREATE TABLE nv (id NUMBER, qty NUMBER CONSTRAINT nv_qty CHECK (qty > 0))")
    await c.execute("INSERT INTO nv VALUES (1, 5)")
    await c.execute("ALTER TABLE nv DISABLE CONSTRAINT nv_qty")
    await c.execute("INSERT INTO nv VALUES (2, -1)")
    await c.commit()
    await c.execute("ALTER TABLE nv ENABLE NOVALIDATE CONSTRAINT nv_qty")
    expect((await c.execute("SELECT status, validated FROM user_constraints WHERE constraint_name = 'NV_QTY'")).rows).toEqual([["ENABLED", "NOT VALIDATED"]])
    expect((await c.execute("SELECT id, qty FROM nv ORDER BY id")).rows).toEqual([[1, 5], [2, -1]])
    expect(await code("INSERT INTO nv VALUES (3, -3)")).toBe("ORA-02290")
    expect(await code("UPDATE nv SET qty = -2 WHERE id = 1")).toBe("ORA-02290")
    await c.execute("INSERT INTO nv VALUES (3, 3)")
    // a later rebuild of the table (another constraint) keeps the old row
    await c.execute("ALTER TABLE nv ADD CONSTRAINT nv_id CHECK (id < 100)")
    await c.commit()
    expect((await c.execute("SELECT id, qty FROM nv ORDER BY id")).rows).toEqual([[1, 5], [2, -1], [3, 3]])
    expect(await code("INSERT INTO nv VALUES (4, -4)")).toBe("ORA-02290")
  })
})
