/**
 * Statements the Oracle test server answered with the wrong code or refused where Oracle runs them
 * (testkit/oracle/README.md, "Where it still differs", Errors). Raw node-oracledb against the test server.
 * Codes and texts: Oracle Database Error Messages (https://docs.oracle.com/en/error-help/db/ora-NNNNN/).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const code = async (sql: string) => oraCode(await failure(() => conn.execute(sql)))

describe("Oracle test server: statement leftovers", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE p (id NUMBER PRIMARY KEY, v NUMBER, s VARCHAR2(10), n NUMBER(6,2))")
    await conn.execute("INSERT INTO p VALUES (1, 10, 'abcdefgh', 1234.5)")
    await conn.execute("INSERT INTO p VALUES (2, 20, 'ab', 12.25)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("names an unknown column of a CHECK constraint ORA-00904", async () => {
    // ORA-00904 "invalid identifier": a check condition may only name the table's columns (SQL Language Reference,
    // "constraint", check_constraint restrictions)
    const e = await failure(() => conn.execute("CREATE TABLE c1 (a NUMBER, CHECK (nope > 0))"))
    expect(oraCode(e)).toBe("ORA-00904")
    expect(e.message).toContain('"NOPE": invalid identifier')
    expect(await code("SELECT * FROM c1")).toBe("ORA-00942")
  })

  it("refuses a FOREIGN KEY to columns without a primary or unique key ORA-02270", async () => {
    // ORA-02270 "no matching unique or primary key for this column-list"
    const e = await failure(() => conn.execute("CREATE TABLE f1 (a NUMBER REFERENCES p (v))"))
    expect(oraCode(e)).toBe("ORA-02270")
    expect(e.message).toContain("no matching unique or primary key for this column-list")
    expect(await code("CREATE TABLE f2 (a NUMBER, FOREIGN KEY (a) REFERENCES p (s))")).toBe("ORA-02270")
    await conn.execute("CREATE TABLE f3 (a NUMBER REFERENCES p (id))")
    await conn.execute("DROP TABLE f3")
  })

  it("refuses FOR UPDATE OF an unknown column ORA-00904", async () => {
    const e = await failure(() => conn.execute("SELECT id FROM p FOR UPDATE OF nope"))
    expect(oraCode(e)).toBe("ORA-00904")
    expect(e.message).toContain('"NOPE": invalid identifier')
    expect(await code("SELECT id FROM p x FOR UPDATE OF x.nope")).toBe("ORA-00904")
    expect((await conn.execute("SELECT id FROM p x WHERE id = 1 FOR UPDATE OF x.v")).rows).toEqual([[1]])
    await conn.rollback()
  })

  it("refuses a MERGE updating a column of its ON clause ORA-38104", async () => {
    // ORA-38104 "Columns referenced in the ON Clause cannot be updated: string"
    const e = await failure(() =>
      conn.execute("MERGE INTO p t USING (SELECT 1 AS id, 5 AS v FROM dual) s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.id = s.v")
    )
    expect(oraCode(e)).toBe("ORA-38104")
    expect(e.message).toContain('Columns referenced in the ON Clause cannot be updated: "T"."ID"')
    await conn.execute("MERGE INTO p t USING (SELECT 1 AS id, 11 AS v FROM dual) s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.v = s.v")
    expect((await conn.execute("SELECT v FROM p WHERE id = 1")).rows).toEqual([[11]])
    await conn.rollback()
  })

  it("fails MODEL and flashback AS OF with ORA-03001 naming the clause", async () => {
    // both are valid Oracle syntax (SQL Language Reference, "SELECT": model_clause, flashback_query_clause) the
    // server cannot run: ORA-03001 "unimplemented feature"
    const m = await failure(() => conn.execute("SELECT id, v FROM p MODEL DIMENSION BY (id) MEASURES (v) RULES (v[1] = 0)"))
    expect(oraCode(m)).toBe("ORA-03001")
    expect(m.message).toContain("MODEL")
    const f = await failure(() => conn.execute("SELECT * FROM p AS OF TIMESTAMP SYSTIMESTAMP - INTERVAL '1' MINUTE"))
    expect(oraCode(f)).toBe("ORA-03001")
    expect(f.message).toContain("AS OF")
    expect(await code("SELECT * FROM p AS OF SCN 1000")).toBe("ORA-03001")
  })

  it("runs SAMPLE (n) [SEED (s)] as a row sample", async () => {
    // sample_clause: "SAMPLE [BLOCK] (sample_percent) [SEED (seed_value)]": each row kept with that probability,
    // the same rows again for the same seed; percent in [0.000001, 100), else ORA-30562 (SQL Language Reference,
    // "SELECT"; Database Error Messages ora-30562)
    await conn.execute("CREATE TABLE many AS SELECT LEVEL AS id FROM dual CONNECT BY LEVEL <= 1000")
    const half = (await conn.execute("SELECT COUNT(*) FROM many SAMPLE (50) SEED (7)")).rows[0][0]
    expect(half).toBeGreaterThan(350)
    expect(half).toBeLessThan(650)
    expect((await conn.execute("SELECT COUNT(*) FROM many SAMPLE (50) SEED (7)")).rows[0][0]).toBe(half)
    expect((await conn.execute("SELECT COUNT(*) FROM many SAMPLE (0.000001)")).rows[0][0]).toBeLessThanOrEqual(1)
    const some = (await conn.execute("SELECT m.id FROM many SAMPLE (10) m WHERE m.id <= 500 ORDER BY m.id")).rows.map((r: Array<number>) => r[0])
    expect(some.length).toBeLessThan(500)
    expect(some.every((id: number) => id >= 1 && id <= 500)).toBe(true)
    expect(await code("SELECT COUNT(*) FROM many SAMPLE (100)")).toBe("ORA-30562")
    expect(await code("SELECT COUNT(*) FROM many SAMPLE (0)")).toBe("ORA-30562")
    expect((await conn.execute("SELECT COUNT(*) FROM many SAMPLE BLOCK (99.9)")).rows[0][0]).toBeLessThanOrEqual(1000)
  })

  it("runs ALTER SEQUENCE, continuing after the last value", async () => {
    // SQL Language Reference, "ALTER SEQUENCE": INCREMENT BY, MAXVALUE, CYCLE, RESTART [START WITH n] (18c and
    // later); START WITH alone ORA-02283, a MAXVALUE below the current value ORA-04009
    await conn.execute("CREATE SEQUENCE sq START WITH 1 INCREMENT BY 1")
    const next = async () => (await conn.execute("SELECT sq.NEXTVAL FROM dual")).rows[0][0]
    expect([await next(), await next()]).toEqual([1, 2])
    await conn.execute("ALTER SEQUENCE sq INCREMENT BY 10")
    expect([await next(), await next()]).toEqual([12, 22])
    expect(await code("ALTER SEQUENCE sq START WITH 5")).toBe("ORA-02283")
    expect(await code("ALTER SEQUENCE sq MAXVALUE 10")).toBe("ORA-04009")
    await conn.execute("ALTER SEQUENCE sq MAXVALUE 40 CYCLE NOCACHE")
    expect([await next(), await next(), await next()]).toEqual([32, 1, 11])
    await conn.execute("ALTER SEQUENCE sq RESTART START WITH 7 INCREMENT BY 1")
    expect(await next()).toBe(7)
    expect(await code("ALTER SEQUENCE no_such_seq INCREMENT BY 2")).toBe("ORA-02289")
  })

  it("answers DROP of a missing trigger or synonym as Oracle does", async () => {
    // ORA-04080 "trigger 'string' does not exist", ORA-01434 "private synonym to be dropped does not exist",
    // ORA-01432 "public synonym to be dropped does not exist" (Database Error Messages)
    const e = await failure(() => conn.execute("DROP TRIGGER no_trg"))
    expect(oraCode(e)).toBe("ORA-04080")
    expect(e.message).toContain("trigger 'NO_TRG' does not exist")
    expect(await code("DROP SYNONYM no_syn")).toBe("ORA-01434")
    expect(await code("DROP PUBLIC SYNONYM no_syn")).toBe("ORA-01432")
  })

  it("refuses a MODIFY narrowing below an existing value ORA-01441 / ORA-01440", async () => {
    // ORA-01441 "cannot decrease column length because some value is too big"; ORA-01440 "column to be modified
    // must be empty to decrease precision or scale" (SQL Language Reference, "ALTER TABLE", modify_col_properties)
    const e = await failure(() => conn.execute("ALTER TABLE p MODIFY (s VARCHAR2(5))"))
    expect(oraCode(e)).toBe("ORA-01441")
    expect(e.message).toContain("cannot decrease column length because some value is too big")
    expect(await code("ALTER TABLE p MODIFY (n NUMBER(5,2))")).toBe("ORA-01440")
    expect(await code("ALTER TABLE p MODIFY (n NUMBER(6,1))")).toBe("ORA-01440")
    await conn.execute("ALTER TABLE p MODIFY (s VARCHAR2(8))")
    await conn.execute("ALTER TABLE p MODIFY (n NUMBER(8,3))")
    expect(await code("INSERT INTO p (id, s) VALUES (9, 'abcdefghi')")).toBe("ORA-12899")
    // the length check follows the new size both ways, and the table keeps its rows, keys and indexes
    await conn.execute("CREATE INDEX p_s ON p (s)")
    await conn.execute("ALTER TABLE p MODIFY (s VARCHAR2(12))")
    await conn.execute("INSERT INTO p (id, s) VALUES (9, 'abcdefghijkl')")
    expect(await code("INSERT INTO p (id, s) VALUES (10, 'abcdefghijklm')")).toBe("ORA-12899")
    expect(await code("INSERT INTO p (id, s) VALUES (9, 'x')")).toBe("ORA-00001")
    expect((await conn.execute("SELECT id, s FROM p ORDER BY id")).rows).toEqual([[1, "abcdefgh"], [2, "ab"], [9, "abcdefghijkl"]])
    await conn.rollback()
    await conn.execute("CREATE TABLE empty_n (n NUMBER(6,2))")
    await conn.execute("ALTER TABLE empty_n MODIFY (n NUMBER(3,1))")
  })

  it("changes a column's storage type in a table with CHECK constraints", async () => {
    await conn.execute("CREATE TABLE ck (id NUMBER, s VARCHAR2(5) CHECK (s <> 'x'), d DATE, e NUMBER(5))")
    await conn.execute("INSERT INTO ck (id) VALUES (1)")
    await conn.commit()
    await conn.execute("ALTER TABLE ck MODIFY (d TIMESTAMP)")
    // an empty column may change to any type (SQL Language Reference, "ALTER TABLE", modify_col_properties)
    await conn.execute("ALTER TABLE ck MODIFY (e VARCHAR2(3))")
    await conn.execute("INSERT INTO ck VALUES (2, 'ok', TIMESTAMP '2024-01-01 10:00:00.5', 'abc')")
    expect(await code("INSERT INTO ck VALUES (3, 'x', NULL, NULL)")).toBe("ORA-02290")
    expect(await code("INSERT INTO ck VALUES (3, 'toolong', NULL, NULL)")).toBe("ORA-12899")
    expect(await code("INSERT INTO ck VALUES (3, 'ok', NULL, 'abcd')")).toBe("ORA-12899")
    expect((await conn.execute("SELECT id FROM ck ORDER BY id")).rows).toEqual([[1], [2]])
  })
})
