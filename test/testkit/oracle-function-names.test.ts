import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// A function name Oracle does not have is an invalid identifier: ORA-00904 naming it (Database Error Messages,
// ORA-00904 "invalid identifier"; the names Oracle has: SQL Language Reference, "SQL Functions"). The server's engine
// has functions of its own (DuckDB's list_value, len, strlen, ...) that must not answer.
describe("Oracle test server: functions Oracle does not have (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE fnt (id NUMBER, s VARCHAR2(20), d DATE)")
    await conn.execute("INSERT INTO fnt VALUES (1, 'abc', DATE '2024-01-01')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("refuses DuckDB-only functions with ORA-00904 naming them, at their offset", async () => {
    const cases: Array<[string, string]> = [
      ["SELECT list_value(1, 2) FROM dual", "LIST_VALUE"],
      ["SELECT STRUCT_PACK(a := 1) FROM dual", "STRUCT_PACK"],
      ["SELECT len('x') FROM dual", "LEN"],
      ["SELECT strlen(s) FROM fnt", "STRLEN"],
      ["SELECT id FROM fnt WHERE regexp_matches(s, 'b')", "REGEXP_MATCHES"],
      ["SELECT epoch(d) FROM fnt", "EPOCH"],
      ["SELECT id, year(d) FROM fnt", "YEAR"],
      ["SELECT * FROM range(3)", "RANGE"],
      ["SELECT getvariable('ora_user') FROM dual", "GETVARIABLE"],
      ["UPDATE fnt SET s = md5(s)", "MD5"],
      ["INSERT INTO fnt (id, s) VALUES (2, left('abc', 1))", "LEFT"]
    ]
    for (const [sql, name] of cases) {
      const e = (await failure(() => conn.execute(sql))) as Error & { offset?: number }
      expect(e.message.split("\n")[0]).toBe(`ORA-00904: "${name}": invalid identifier`)
      expect(e.offset).toBe(sql.toUpperCase().indexOf(name))
    }
    // a view's or CREATE TABLE ... AS SELECT's query too, and nothing is created
    expect((await failure(() => conn.execute("CREATE VIEW fnv AS SELECT strlen(s) n FROM fnt"))).message.split("\n")[0]).toBe('ORA-00904: "STRLEN": invalid identifier')
    expect((await failure(() => conn.execute("CREATE TABLE fnc AS SELECT md5(s) h FROM fnt"))).message.split("\n")[0]).toBe('ORA-00904: "MD5": invalid identifier')
    expect(oraCode(await failure(() => conn.execute("SELECT * FROM fnv")))).toBe("ORA-00942")
    expect(oraCode(await failure(() => conn.execute("SELECT * FROM fnc")))).toBe("ORA-00942")
    // the failed writes changed nothing
    expect((await conn.execute("SELECT id, s FROM fnt")).rows).toEqual([[1, "abc"]])
  })

  it("still runs Oracle's functions and the forms that look like calls", async () => {
    const r = await conn.execute(
      "SELECT LENGTH(s), UPPER(s), SUBSTR(s, 2), NVL(NULL, 1), GREATEST(1, 2), TRUNC(d), CAST(id AS NUMBER(5)), CAST('x' AS VARCHAR2(3)) FROM fnt"
    )
    expect(r.rows[0].slice(0, 5)).toEqual([3, "ABC", "bc", 1, 2])
    expect((await conn.execute("SELECT INTERVAL '1' DAY(2) FROM dual")).rows.length).toBe(1)
    expect((await conn.execute("SELECT EXTRACT(YEAR FROM d) FROM fnt")).rows).toEqual([[2024]])
    expect((await conn.execute("WITH q (a, b) AS (SELECT 1, 2 FROM dual) SELECT a + b FROM q")).rows).toEqual([[3]])
    await conn.execute("INSERT INTO fnt (id, s) VALUES (2, 'b')")
    await conn.rollback()
    await conn.execute("CREATE VIEW fnok (n, u) AS SELECT LENGTH(s), UPPER(s) FROM fnt")
    await conn.execute("CREATE TABLE fnok2 (a, b) AS SELECT id, CAST(s AS VARCHAR2(5)) FROM fnt")
    expect((await conn.execute("SELECT n, u FROM fnok")).rows).toEqual([[3, "ABC"]])
  })

  it("runs stored functions and type constructors whatever their names", async () => {
    await conn.execute("CREATE OR REPLACE FUNCTION len(x VARCHAR2) RETURN NUMBER IS BEGIN RETURN LENGTH(x) * 10; END;")
    expect((await conn.execute("SELECT len('abc') FROM dual")).rows).toEqual([[30]])
    await conn.execute("CREATE OR REPLACE TYPE hash AS OBJECT (n NUMBER)")
    const t = await conn.execute("SELECT hash(4) FROM dual")
    expect(t.rows.length).toBe(1)
  })
})
