/**
 * DDL on tables joined by a foreign key, against the Oracle test server with raw node-oracledb. Oracle: dropping a
 * foreign key ends the rule, so the parent's rows may be deleted and its key dropped; renaming either table keeps
 * the constraint between them, enforced as before (SQL Language Reference, "ALTER TABLE": drop_constraint_clause,
 * rename_table_clause; "RENAME"). The server makes a table again to change its constraints (DuckDB cannot alter
 * them); these scenarios failed with ORA-03001 / ORA-00942 or left the server's database unusable before.
 */
import { afterEach, beforeEach, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const code = async (sql: string) => oraCode(await failure(() => conn.execute(sql)))
const rows = async (sql: string) => (await conn.execute(sql)).rows

describe("Oracle test server: DDL on tables joined by a foreign key", () => {
  beforeEach(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE fk_p (id NUMBER PRIMARY KEY, v NUMBER)")
    await conn.execute("CREATE TABLE fk_c (id NUMBER, pid NUMBER, note VARCHAR2(10), CONSTRAINT fk_c_p FOREIGN KEY (pid) REFERENCES fk_p (id))")
    await conn.execute("CREATE INDEX fk_c_note ON fk_c (note)")
    await conn.executeMany("INSERT INTO fk_p VALUES (:1, :2)", [[1, 10], [2, 20]])
    await conn.execute("INSERT INTO fk_c VALUES (100, 1, 'child')")
    await conn.commit()
  })
  afterEach(() => closeConnection({ server, conn }))

  it("frees the parent once the foreign key is dropped: its rows delete and its key drops", async () => {
    await conn.execute("ALTER TABLE fk_c DROP CONSTRAINT fk_c_p")
    await conn.execute("DELETE FROM fk_p WHERE id = 1")
    expect(await rows("SELECT id FROM fk_p")).toEqual([[2]])
    await conn.execute("ALTER TABLE fk_p DROP PRIMARY KEY")
    await conn.execute("INSERT INTO fk_p VALUES (2, 21)")
    expect(await rows("SELECT COUNT(*) FROM fk_p")).toEqual([[2]])
    expect(await rows("SELECT id, pid, note FROM fk_c")).toEqual([[100, 1, "child"]])
    expect(await rows("SELECT constraint_name FROM user_constraints WHERE table_name = 'FK_C'")).toEqual([])
  })

  it("keeps the rule when the child table is renamed, with its rows and indexes", async () => {
    await conn.execute("ALTER TABLE fk_c RENAME TO fk_c2")
    await conn.execute("DELETE FROM fk_p WHERE id = 2")
    const e = await failure(() => conn.execute("DELETE FROM fk_p WHERE id = 1"))
    expect(oraCode(e)).toBe("ORA-02292")
    expect(e.message).toContain("FK_C_P")
    expect(await code("INSERT INTO fk_c2 VALUES (101, 9, 'orphan')")).toBe("ORA-02291")
    expect(await rows("SELECT id, pid, note FROM fk_c2")).toEqual([[100, 1, "child"]])
    expect(await rows("SELECT constraint_name, constraint_type FROM user_constraints WHERE table_name = 'FK_C2'")).toEqual([["FK_C_P", "R"]])
    expect(await rows("SELECT index_name FROM user_indexes WHERE table_name = 'FK_C2'")).toEqual([["FK_C_NOTE"]])
    expect(await code("SELECT * FROM fk_c")).toBe("ORA-00942")
    await conn.execute("RENAME fk_c2 TO fk_c3")
    expect(await code("DELETE FROM fk_p WHERE id = 1")).toBe("ORA-02292")
    expect(await rows("SELECT note FROM fk_c3")).toEqual([["child"]])
  })

  it("keeps the rule after a CHECK constraint is added to the child and a length is widened", async () => {
    await conn.execute("ALTER TABLE fk_c ADD CONSTRAINT fk_c_id CHECK (id > 0)")
    await conn.execute("ALTER TABLE fk_c MODIFY (note VARCHAR2(20))")
    expect(await code("DELETE FROM fk_p WHERE id = 1")).toBe("ORA-02292")
    expect(await code("INSERT INTO fk_c VALUES (-1, 1, 'x')")).toBe("ORA-02290")
    await conn.execute("INSERT INTO fk_c VALUES (101, 2, 'a longer note here')")
    expect(await rows("SELECT COUNT(*) FROM fk_c")).toEqual([[2]])
    await conn.rollback()
  })
})
