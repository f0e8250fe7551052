/**
 * A stored unit that names a table or another unit through a synonym depends on the synonym and on its target: the
 * target dropped, created again with another text, or a column it had dropped, makes the unit INVALID in
 * USER_OBJECTS and the next call compiles it again; a column added to the table does not (Database Development
 * Guide, "Schema Object Dependency": "If the referenced object is a synonym, the dependent object also depends on
 * the object the synonym names", "Object Invalidation"). A table reference whose synonym names nothing any more is
 * the compile error `PL/SQL: ORA-00980: synonym translation is no longer valid`. Before, such units stayed VALID
 * and failed only when the statement ran. Raw node-oracledb against the Oracle test server.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

describe("Oracle test server: stored units depending on synonyms", () => {
  let opened: Awaited<ReturnType<typeof openConnection>>
  let conn: Conn
  beforeAll(async () => {
    opened = await openConnection()
    conn = opened.conn
  })
  afterAll(() => closeConnection(opened))

  const status = async (name: string): Promise<unknown> => (await conn.execute(`SELECT status FROM user_objects WHERE object_name = '${name}'`)).rows[0]?.[0]

  it("a table reached through a synonym: dropped, the unit is INVALID and does not compile; created again, it compiles", async () => {
    await conn.execute("CREATE TABLE sd_t (a NUMBER)")
    await conn.execute("CREATE SYNONYM sd_ts FOR sd_t")
    await conn.execute("CREATE OR REPLACE PROCEDURE sd_count(n OUT NUMBER) IS BEGIN SELECT COUNT(*) INTO n FROM sd_ts; END;")
    expect(await status("SD_COUNT")).toBe("VALID")
    await conn.execute("ALTER TABLE sd_t ADD (b NUMBER)")
    expect(await status("SD_COUNT")).toBe("VALID")
    await conn.execute("DROP TABLE sd_t")
    expect(await status("SD_COUNT")).toBe("INVALID")
    await expect(conn.execute("BEGIN sd_count(:n); END;", { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })).rejects.toThrow(/PLS-00905: object TEST.SD_COUNT is invalid/)
    const errors = (await conn.execute("SELECT text FROM user_errors WHERE name = 'SD_COUNT' ORDER BY sequence")).rows
    expect(errors).toEqual([["PL/SQL: ORA-00980: synonym translation is no longer valid"], ["PL/SQL: SQL Statement ignored"]])
    await conn.execute("CREATE TABLE sd_t (a NUMBER)")
    expect((await conn.execute("BEGIN sd_count(:n); END;", { n: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER } })).outBinds.n).toBe(0)
    expect(await status("SD_COUNT")).toBe("VALID")
  })

  it("a procedure or function reached through a synonym: replaced with another text, the caller is INVALID until called", async () => {
    await conn.execute("CREATE OR REPLACE PROCEDURE sd_p IS BEGIN NULL; END;")
    await conn.execute("CREATE SYNONYM sd_ps FOR sd_p")
    await conn.execute("CREATE OR REPLACE FUNCTION sd_f RETURN NUMBER IS BEGIN RETURN 1; END;")
    await conn.execute("CREATE SYNONYM sd_fs FOR sd_f")
    await conn.execute("CREATE OR REPLACE PROCEDURE sd_caller IS BEGIN sd_ps; END;")
    await conn.execute("CREATE OR REPLACE FUNCTION sd_reader RETURN NUMBER IS BEGIN RETURN sd_fs + 1; END;")
    expect([await status("SD_CALLER"), await status("SD_READER")]).toEqual(["VALID", "VALID"])
    await conn.execute("CREATE OR REPLACE PROCEDURE sd_p IS BEGIN NULL; NULL; END;")
    await conn.execute("CREATE OR REPLACE FUNCTION sd_f RETURN NUMBER IS BEGIN RETURN 2; END;")
    expect([await status("SD_CALLER"), await status("SD_READER")]).toEqual(["INVALID", "INVALID"])
    await conn.execute("BEGIN sd_caller; END;")
    expect((await conn.execute("SELECT sd_reader FROM dual")).rows).toEqual([[3]])
    expect([await status("SD_CALLER"), await status("SD_READER")]).toEqual(["VALID", "VALID"])
  })
})
