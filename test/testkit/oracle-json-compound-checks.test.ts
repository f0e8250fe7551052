import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// An IS JSON test combined with other conditions in one CHECK constraint, through raw node-oracledb. Expected
// behaviour: SQL Language Reference, "IS JSON Condition" (a condition like any other, usable in a check constraint's
// condition with AND / OR) and "constraint" (a row whose check condition is FALSE fails ORA-02290 "check constraint
// (s.c) violated"; TRUE or UNKNOWN passes); ALTER TABLE ADD CONSTRAINT over rows that break it fails ORA-02293 "cannot
// validate (s.c) - check constraint violated" (Database Error Messages).
let server: OracleTestServerHandle
let conn: Conn

describe("Oracle test server: IS JSON combined with other conditions in a CHECK", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("enforces `doc IS JSON AND LENGTH(doc) < 20` on INSERT and UPDATE", async () => {
    await conn.execute("CREATE TABLE jcc1 (id NUMBER, doc VARCHAR2(100) CONSTRAINT jcc1_doc CHECK (doc IS JSON AND LENGTH(doc) < 20))")
    await conn.execute(`INSERT INTO jcc1 VALUES (1, '{"a":1}')`)
    await conn.execute(`INSERT INTO jcc1 VALUES (2, NULL)`)
    const notJson = await failure(() => conn.execute(`INSERT INTO jcc1 VALUES (3, 'no json')`))
    expect(oraCode(notJson)).toBe("ORA-02290")
    expect(notJson.message).toContain("check constraint (TEST.JCC1_DOC) violated")
    expect(oraCode(await failure(() => conn.execute(`INSERT INTO jcc1 VALUES (4, '{"a":"a long enough text"}')`)))).toBe("ORA-02290")
    expect(oraCode(await failure(() => conn.execute(`UPDATE jcc1 SET doc = '[1,' WHERE id = 1`)))).toBe("ORA-02290")
    expect((await conn.execute(`SELECT id, doc FROM jcc1 ORDER BY id`)).rows).toEqual([
      [1, '{"a":1}'],
      [2, null]
    ])
  })

  it("enforces `doc IS JSON OR doc IS NULL` and `IS NOT JSON` inside a larger condition, also through executeMany", async () => {
    await conn.execute(`CREATE TABLE jcc2 (id NUMBER, doc CLOB, note VARCHAR2(40), CONSTRAINT jcc2_doc CHECK ((doc IS JSON STRICT) OR doc IS NULL), CONSTRAINT jcc2_note CHECK (id < 0 OR note IS NOT JSON))`)
    // a keyless table's array DML takes the bulk path, whose appender must not wait on the TypeScript check function
    await conn.executeMany("INSERT INTO jcc2 VALUES (:1, :2, :3)", [
      [1, '{"a":1}', "plain"],
      [2, null, null]
    ])
    expect(oraCode(await failure(() => conn.executeMany("INSERT INTO jcc2 VALUES (:1, :2, :3)", [[3, "{a:1}", "x"]])))).toBe("ORA-02290")
    const note = await failure(() => conn.execute(`INSERT INTO jcc2 VALUES (4, NULL, '{"k":1}')`))
    expect(note.message).toContain("check constraint (TEST.JCC2_NOTE) violated")
    await conn.execute(`INSERT INTO jcc2 VALUES (-5, NULL, '{"k":1}')`)
    expect((await conn.execute(`SELECT id FROM jcc2 ORDER BY id`)).rows).toEqual([[-5], [1], [2]])
  })

  it("ALTER TABLE ADD CONSTRAINT with a compound IS JSON check validates the rows present (ORA-02293), then holds new ones", async () => {
    await conn.execute("CREATE TABLE jcc3 (id NUMBER, doc VARCHAR2(100))")
    await conn.execute(`INSERT INTO jcc3 VALUES (1, '{"a":1}')`)
    await conn.execute(`INSERT INTO jcc3 VALUES (2, 'nope')`)
    const invalid = await failure(() => conn.execute("ALTER TABLE jcc3 ADD CONSTRAINT jcc3_doc CHECK (doc IS JSON AND id > 0)"))
    expect(oraCode(invalid)).toBe("ORA-02293")
    expect(invalid.message).toContain("cannot validate (TEST.JCC3_DOC) - check constraint violated")
    await conn.execute("DELETE FROM jcc3 WHERE id = 2")
    await conn.execute("ALTER TABLE jcc3 ADD CONSTRAINT jcc3_doc CHECK (doc IS JSON AND id > 0)")
    expect(oraCode(await failure(() => conn.execute(`INSERT INTO jcc3 VALUES (3, '[1,')`)))).toBe("ORA-02290")
    expect(oraCode(await failure(() => conn.execute(`INSERT INTO jcc3 VALUES (-1, '[1]')`)))).toBe("ORA-02290")
    await conn.execute(`INSERT INTO jcc3 VALUES (4, '[4]')`)
    expect((await conn.execute(`SELECT COUNT(*) FROM jcc3`)).rows).toEqual([[2]])
  })
})
