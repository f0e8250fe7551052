import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, withServer } from "./oracle/helpers.ts"

// DDL that application schemas and their migrations run, through raw node-oracledb (SQL Language Reference 23ai,
// "ALTER TABLE": a NOT NULL column added to a table with rows needs a DEFAULT, else ORA-01758 "table must be empty to
// add mandatory (NOT NULL) column").
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: schema maintenance DDL", () => {
  beforeAll(async () => {
    const s = await withServer({ version: "23ai" })
    server = s.server
    conn = await s.connect()
    await conn.execute("CREATE TABLE dm (id NUMBER PRIMARY KEY, s VARCHAR2(10))")
    await conn.execute("INSERT INTO dm VALUES (1, 'a')")
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it("ALTER TABLE ADD of a NOT NULL column: filled from its DEFAULT, ORA-01758 without one on a table with rows", async () => {
    await conn.execute("ALTER TABLE dm ADD (flag NUMBER(1) DEFAULT 0 NOT NULL, note VARCHAR2(5))")
    await conn.execute("ALTER TABLE dm ADD qty NUMBER DEFAULT 7 NOT NULL")
    expect((await conn.execute("SELECT id, s, flag, note, qty FROM dm")).rows).toEqual([[1, "a", 0, null, 7]])
    expect((await conn.execute("SELECT column_name, nullable FROM user_tab_columns WHERE table_name = 'DM' AND column_name IN ('FLAG', 'QTY') ORDER BY 1")).rows).toEqual([
      ["FLAG", "N"],
      ["QTY", "N"]
    ])
    expect(oraCode(await failure(() => conn.execute("INSERT INTO dm (id, s, flag, qty) VALUES (2, 'b', NULL, 1)")))).toBe("ORA-01400")
    expect(oraCode(await failure(() => conn.execute("ALTER TABLE dm ADD (must NUMBER NOT NULL)")))).toBe("ORA-01758")
    expect((await conn.execute("SELECT COUNT(*) FROM user_tab_columns WHERE table_name = 'DM' AND column_name = 'MUST'")).rows).toEqual([[0]])
    await conn.execute("CREATE TABLE dm_empty (id NUMBER)")
    await conn.execute("ALTER TABLE dm_empty ADD (must NUMBER NOT NULL)")
    expect(oraCode(await failure(() => conn.execute("INSERT INTO dm_empty (id) VALUES (1)")))).toBe("ORA-01400")
  })

  it("storage maintenance and statistics calls are accepted, checking the objects they name", async () => {
    await conn.execute("CREATE INDEX dm_s ON dm (s)")
    for (const sql of [
      "ALTER INDEX dm_s REBUILD ONLINE",
      "ALTER INDEX dm_s MONITORING USAGE",
      "ALTER TABLE dm MOVE",
      "ALTER TABLE dm ENABLE ROW MOVEMENT",
      "ALTER TABLE dm SHRINK SPACE",
      "PURGE RECYCLEBIN",
      "BEGIN DBMS_STATS.GATHER_TABLE_STATS(USER, 'DM'); END;",
      "BEGIN DBMS_STATS.GATHER_TABLE_STATS(ownname => USER, tabname => 'DM', cascade => TRUE); END;",
      "BEGIN DBMS_STATS.GATHER_SCHEMA_STATS(USER); END;",
      "BEGIN DBMS_STATS.GATHER_INDEX_STATS(USER, 'DM_S'); END;"
    ])
      await conn.execute(sql)
    expect(oraCode(await failure(() => conn.execute("ALTER INDEX no_such_index REBUILD")))).toBe("ORA-01418")
    const stats = await failure(() => conn.execute("BEGIN DBMS_STATS.GATHER_TABLE_STATS(USER, 'NO_SUCH'); END;"))
    expect(stats.message).toMatch(/^ORA-20000: Unable to analyze TABLE "\w+"."NO_SUCH", insufficient privileges or does not exist/)
    expect((await conn.execute("SELECT id, s FROM dm")).rows).toEqual([[1, "a"]])
  })

  it("CREATE VIEW ... WITH READ ONLY and WITH CHECK OPTION", async () => {
    await conn.execute("CREATE OR REPLACE VIEW dm_ro AS SELECT id, s FROM dm WITH READ ONLY")
    await conn.execute("CREATE OR REPLACE VIEW dm_ck AS SELECT id, s FROM dm WHERE id > 0 WITH CHECK OPTION CONSTRAINT dm_ck_c")
    expect((await conn.execute("SELECT * FROM dm_ro")).rows).toEqual([[1, "a"]])
    expect((await conn.execute("SELECT * FROM dm_ck")).rows).toEqual([[1, "a"]])
  })

  it("function-based indexes: a unique one refuses values whose expression repeats, naming the index", async () => {
    // SQL Language Reference, "CREATE INDEX", column_expression; Oracle names the unique index in ORA-00001
    await conn.execute("CREATE TABLE dm_fbi (id NUMBER, code VARCHAR2(10), d DATE)")
    await conn.execute("CREATE UNIQUE INDEX dm_fbi_code ON dm_fbi (UPPER(code))")
    await conn.execute("CREATE INDEX dm_fbi_day ON dm_fbi (TRUNC(d), id DESC)")
    await conn.execute("INSERT INTO dm_fbi VALUES (1, 'abc', DATE '2024-05-01')")
    const e = await failure(() => conn.execute("INSERT INTO dm_fbi VALUES (2, 'ABC', DATE '2024-05-02')"))
    expect(e.message).toMatch(/^ORA-00001: unique constraint \(\w+\.DM_FBI_CODE\) violated/)
    // NULL keys are not compared
    await conn.execute("INSERT INTO dm_fbi VALUES (3, NULL, NULL)")
    await conn.execute("INSERT INTO dm_fbi VALUES (4, NULL, NULL)")
    expect((await conn.execute("SELECT id FROM dm_fbi ORDER BY id")).rows).toEqual([[1], [3], [4]])
    expect((await conn.execute("SELECT index_name, uniqueness FROM user_indexes WHERE table_name = 'DM_FBI' ORDER BY 1")).rows).toEqual([
      ["DM_FBI_CODE", "UNIQUE"],
      ["DM_FBI_DAY", "NONUNIQUE"]
    ])
    await conn.rollback()
  })
})
