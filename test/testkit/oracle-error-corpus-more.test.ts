/**
 * Oracle test server: more wrong statements, each answered with the code and text Oracle gives (raw node-oracledb, no
 * driver in between), and the valid neighbours of each that must keep running. Companion of
 * oracle-error-corpus.test.ts.
 *
 * Codes and texts: Oracle Database Error Messages (https://docs.oracle.com/en/error-help/db/ora-NNNNN/ for each code
 * below). Sequence restrictions: SQL Language Reference, "Sequence Pseudocolumns". Session parameters: SQL Language
 * Reference, "ALTER SESSION", and Database Reference, "Modifiable Parameters". Namespaces (an index may share a
 * table's name): SQL Language Reference, "Database Object Naming Rules" ("tables and indexes are in different
 * namespaces").
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

/** errorNum and the first line of the message, as node-oracledb reports them. */
const raised = async (sql: string, binds: ReadonlyArray<unknown> = []) => {
  const e: any = await failure(() => conn.execute(sql, binds))
  return { errorNum: e.errorNum as number, message: String(e.message).split("\n")[0]! }
}
const rows = async (sql: string, binds: ReadonlyArray<unknown> = []) => (await conn.execute(sql, binds)).rows

/** The statements of `list` (run in order) not answered with their code and text, each with what came instead. */
const mismatches = async (list: ReadonlyArray<readonly [string, number, string]>) => {
  const wrong: Array<string> = []
  for (const [sql, code, text] of list) {
    const got = await raised(sql).catch(() => ({ errorNum: 0, message: "(ran)" }))
    if (got.errorNum !== code || got.message !== text) wrong.push(`${sql} -> ${got.message} (expected ORA-${String(code).padStart(5, "0")})`)
  }
  return wrong
}

/** Statement, Oracle's code, Oracle's message. */
const WRONG: ReadonlyArray<readonly [string, number, string]> = [
  ["SELECT n FROM t WHERE n = SYSDATE", 932, "ORA-00932: inconsistent datatypes: expected NUMBER got DATE"],
  ["SELECT n FROM t WHERE n > DATE '2024-01-01'", 932, "ORA-00932: inconsistent datatypes: expected NUMBER got DATE"],
  ["SELECT n FROM t WHERE SYSDATE = n", 932, "ORA-00932: inconsistent datatypes: expected DATE got NUMBER"],
  ["SELECT TO_DATE('2023-02-29', 'YYYY-MM-DD') FROM dual", 1839, "ORA-01839: date not valid for month specified"],
  ["SELECT TO_DATE('2023-04-31', 'YYYY-MM-DD') FROM dual", 1839, "ORA-01839: date not valid for month specified"],
  ["SELECT TO_DATE('2023 2023', 'YYYY YYYY') FROM dual", 1810, "ORA-01810: format code appears twice"],
  ["SELECT TO_TIMESTAMP('2024-01-01 10 10', 'YYYY-MM-DD HH24 HH24') FROM dual", 1810, "ORA-01810: format code appears twice"],
  ["SELECT TO_DATE('0000-01-01', 'YYYY-MM-DD') FROM dual", 1841, "ORA-01841: (full) year must be between -4713 and +9999, and not be 0"],
  ["SELECT NVL(1) FROM dual", 909, "ORA-00909: invalid number of arguments"],
  ["SELECT NVL(1, 2, 3) FROM dual", 909, "ORA-00909: invalid number of arguments"],
  ["ALTER SESSION SET nosuch_param = 1", 2248, "ORA-02248: invalid option for ALTER SESSION"],
  ["SELECT DISTINCT sq.NEXTVAL FROM dual", 2287, "ORA-02287: sequence number not allowed here"],
  ["SELECT sq.NEXTVAL FROM t ORDER BY 1", 2287, "ORA-02287: sequence number not allowed here"],
  ["SELECT n FROM t WHERE n = (SELECT sq.NEXTVAL FROM dual)", 2287, "ORA-02287: sequence number not allowed here"],
  ["SELECT EXTRACT(HOUR FROM SYSDATE) FROM dual", 30076, "ORA-30076: invalid extract field for extract source"],
  ["SELECT EXTRACT(MINUTE FROM DATE '2024-01-01') FROM dual", 30076, "ORA-30076: invalid extract field for extract source"],
  ["SELECT TO_CHAR(SYSDATE, 'XYZ') FROM dual", 1821, "ORA-01821: date format not recognized"],
  ["SELECT INSTR('abc', 'b', 1, 0) FROM dual", 1428, "ORA-01428: argument '0' is out of range"],
  ["LOCK TABLE nosuch IN EXCLUSIVE MODE", 942, "ORA-00942: table or view \"TEST\".\"NOSUCH\" does not exist"],
  ["ALTER TABLE nosuch ADD CONSTRAINT nosuch_pk PRIMARY KEY (id)", 942, "ORA-00942: table or view \"TEST\".\"NOSUCH\" does not exist"]
]

/**
 * Common wrong DDL / DML / calls (CREATE with bad clauses, DROP of missing objects of each kind, GRANT, sequence
 * options, MERGE, too long identifiers, reserved words as names), run in order: statement, code, message.
 */
const WRONG_DDL_DML: ReadonlyArray<readonly [string, number, string]> = [
  ["DROP VIEW nosuch", 942, "ORA-00942: table or view \"TEST\".\"NOSUCH\" does not exist"],
  ["DROP INDEX nosuch", 1418, "ORA-01418: specified index does not exist"],
  ["DROP PROCEDURE nosuch", 4043, "ORA-04043: object NOSUCH does not exist"],
  ["DROP FUNCTION nosuch", 4043, "ORA-04043: object NOSUCH does not exist"],
  ["DROP PACKAGE nosuch", 4043, "ORA-04043: object NOSUCH does not exist"],
  ["DROP TYPE nosuch", 4043, "ORA-04043: object NOSUCH does not exist"],
  ["DROP SEQUENCE nosuch", 2289, "ORA-02289: sequence does not exist"],
  ["CREATE VIEW t AS SELECT 1 x FROM dual", 955, "ORA-00955: name is already used by an existing object"],
  ["CREATE INDEX i1 ON nosuch (a)", 942, "ORA-00942: table or view \"TEST\".\"NOSUCH\" does not exist"],
  ["CREATE INDEX i2 ON t (zz)", 904, "ORA-00904: \"ZZ\": invalid identifier"],
  ["CREATE TABLE x1 (a NUMBER REFERENCES nosuch (id))", 942, "ORA-00942: table or view \"TEST\".\"NOSUCH\" does not exist"],
  ["CREATE TABLE x3 (a NUMBER PRIMARY KEY, CONSTRAINT pk2 PRIMARY KEY (a))", 2260, "ORA-02260: table can have only one primary key"],
  ["CREATE TABLE x6 (a NUMBER, b NUMBER, CONSTRAINT u1 UNIQUE (zz))", 904, "ORA-00904: \"ZZ\": invalid identifier"],
  ["CREATE TABLE select (a NUMBER)", 903, "ORA-00903: invalid table name"],
  ["CREATE TABLE x5 (select NUMBER)", 904, "ORA-00904: : invalid identifier"],
  [`CREATE TABLE ${"A".repeat(129)} (a NUMBER)`, 972, "ORA-00972: identifier is too long"],
  [`SELECT ${"b".repeat(129)} FROM dual`, 972, "ORA-00972: identifier is too long"],
  ["SELECT 1 FROM \"\"", 1741, "ORA-01741: illegal zero-length identifier"],
  ["CREATE SEQUENCE sqa INCREMENT BY 0", 4002, "ORA-04002: INCREMENT must be a non-zero integer"],
  ["CREATE SEQUENCE sqb MINVALUE 10 MAXVALUE 5", 4004, "ORA-04004: MINVALUE must be less than MAXVALUE"],
  ["CREATE SEQUENCE sqc START WITH 0 MINVALUE 1", 4006, "ORA-04006: START WITH cannot be less than MINVALUE"],
  ["CREATE SEQUENCE sqd MAXVALUE 5 START WITH 10", 4008, "ORA-04008: START WITH cannot be more than MAXVALUE"],
  ["CREATE SEQUENCE sqe CACHE 1", 4010, "ORA-04010: the number of values to CACHE must be greater than 1"],
  ["GRANT SELECT ON nosuch TO test", 942, "ORA-00942: table or view \"TEST\".\"NOSUCH\" does not exist"],
  ["GRANT SELECT ON t TO nosuchuser", 1917, "ORA-01917: user or role 'NOSUCHUSER' does not exist"],
  ["REVOKE SELECT ON t FROM nosuchuser", 1917, "ORA-01917: user or role 'NOSUCHUSER' does not exist"],
  ["MERGE INTO t USING dual ON (1 = 1) WHEN MATCHED THEN UPDATE SET zz = 1", 904, "ORA-00904: \"ZZ\": invalid identifier"],
  ["MERGE INTO nosuch USING dual ON (1 = 1) WHEN NOT MATCHED THEN INSERT VALUES (1)", 942, "ORA-00942: table or view \"TEST\".\"NOSUCH\" does not exist"],
  ["INSERT INTO t (n, n) VALUES (1, 1)", 957, "ORA-00957: duplicate column name"],
  ["UPDATE t SET n = 1, n = 2", 957, "ORA-00957: duplicate column name"],
  ["INSERT INTO t VALUES (1)", 947, "ORA-00947: not enough values"],
  ["COMMENT ON TABLE nosuch IS 'x'", 942, "ORA-00942: table or view \"TEST\".\"NOSUCH\" does not exist"],
  ["ALTER TABLE t RENAME COLUMN zz TO yy", 904, "ORA-00904: \"ZZ\": invalid identifier"],
  ["ALTER TABLE t MODIFY (zz NUMBER)", 904, "ORA-00904: \"ZZ\": invalid identifier"],
  ["ALTER TABLE nosuch DROP COLUMN a", 942, "ORA-00942: table or view \"TEST\".\"NOSUCH\" does not exist"]
]

describe("Oracle test server: more wrong statements answered as Oracle answers them (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of [
      "CREATE TABLE t (n NUMBER, s VARCHAR2(10))",
      "INSERT INTO t VALUES (1, 'one')",
      "CREATE SEQUENCE sq"
    ]) await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it(`answers each of the ${WRONG.length} statements with Oracle's code and text`, async () => {
    expect(await mismatches(WRONG)).toEqual([])
  })

  it(`answers each of ${WRONG_DDL_DML.length} wrong DDL and DML statements with Oracle's code and text`, async () => {
    expect(await mismatches(WRONG_DDL_DML)).toEqual([])
  })

  it("refuses a sequence's NEXTVAL past its MAXVALUE with ORA-08004 naming it", async () => {
    await conn.execute("CREATE SEQUENCE sq1 MAXVALUE 2 NOCYCLE")
    expect(await rows("SELECT sq1.NEXTVAL FROM dual")).toEqual([[1]])
    expect(await rows("SELECT sq1.NEXTVAL FROM dual")).toEqual([[2]])
    expect(await raised("SELECT sq1.NEXTVAL FROM dual")).toEqual({ errorNum: 8004, message: "ORA-08004: sequence SQ1.NEXTVAL exceeds MAXVALUE and cannot be instantiated" })
  })

  it("still runs the valid neighbours of those statements", async () => {
    expect(await rows("SELECT TO_CHAR(TO_DATE('2024-02-29', 'YYYY-MM-DD'), 'YYYY-MM-DD'), EXTRACT(YEAR FROM DATE '2024-05-06') FROM dual")).toEqual([["2024-02-29", 2024]])
    expect(await rows("SELECT NVL(NULL, 2), EXTRACT(HOUR FROM TIMESTAMP '2024-01-01 10:11:12') FROM dual")).toEqual([[2, 10]])
    // INSTR's occurrence, forwards and (negative position) backwards from the end; NULL stays NULL
    expect(await rows("SELECT INSTR('abcabcabc', 'b', 1, 2), INSTR('abcabcabc', 'b', -1, 1), INSTR('abcabcabc', 'b', 1, 4), INSTR('abcabc', 'bc', -2, 1), INSTR(NULL, 'b', 1, 1) FROM dual")).toEqual([[5, 8, 0, 5, null]])
    for (const sql of [
      "ALTER SESSION SET NLS_DATE_FORMAT = 'YYYY-MM-DD HH24:MI:SS'",
      "ALTER SESSION SET NLS_SORT = BINARY",
      "ALTER SESSION SET OPTIMIZER_MODE = ALL_ROWS",
      "ALTER SESSION SET OPTIMIZER_INDEX_COST_ADJ = 50",
      "ALTER SESSION SET STATISTICS_LEVEL = ALL",
      "ALTER SESSION SET EDITION = ORA$BASE",
      "ALTER SESSION SET DDL_LOCK_TIMEOUT = 10",
      "ALTER SESSION SET CURRENT_SCHEMA = TEST",
      "ALTER SESSION SET \"_optimizer_use_feedback\" = FALSE"
    ]) await conn.execute(sql)
    // an index lives in its own namespace: it may share a table's name, not another index's
    await conn.execute("CREATE INDEX t ON t (n)")
    expect(await raised("CREATE INDEX t ON t (s)")).toEqual({ errorNum: 955, message: "ORA-00955: name is already used by an existing object" })
    expect(await rows("SELECT sq.NEXTVAL FROM dual")).toEqual([[1]])
    expect((await conn.execute("INSERT INTO t SELECT sq.NEXTVAL, 'two' FROM dual")).rowsAffected).toBe(1)
    await conn.execute("CREATE SEQUENCE sqf START WITH 10 INCREMENT BY -2 MINVALUE 0 MAXVALUE 10 CACHE 5")
    expect(await rows("SELECT sqf.NEXTVAL FROM dual")).toEqual([[10]])
    await conn.execute(`CREATE TABLE ${"L".repeat(128)} ("SELECT" NUMBER, a NUMBER CHECK (a > 0), UNIQUE (a))`)
    expect((await conn.execute("UPDATE t SET (n, s) = (SELECT 1, 'x' FROM dual) WHERE 1 = 0")).rowsAffected).toBe(0)
    await conn.rollback()
  })
})
