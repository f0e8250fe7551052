/**
 * Oracle test server: wrong statements whose code used to differ from Oracle's (the "Still differing" list of the
 * errors item in testkit/oracle/README.md), each answered with Oracle's code and text. Raw node-oracledb.
 *
 * Codes and texts: Oracle Database Error Messages (https://docs.oracle.com/en/error-help/db/ora-00909/, ora-00932,
 * ora-00942, ora-00955, ora-01428, ora-01810, ora-01821, ora-01839, ora-01841, ora-02248, ora-02287, ora-30076).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const raised = async (sql: string) => {
  const e: any = await failure(() => conn.execute(sql))
  return `${String(e.message).split("\n")[0]}`
}

const CORPUS: ReadonlyArray<readonly [string, string]> = [
  ["SELECT n FROM t WHERE n = SYSDATE", "ORA-00932: inconsistent datatypes: expected NUMBER got DATE"],
  ["SELECT n FROM t WHERE t.d > 5 AND n = 1", "ORA-00932: inconsistent datatypes: expected DATE got NUMBER"],
  ["SELECT sq.NEXTVAL FROM t WHERE n = sq.CURRVAL", "ORA-02287: sequence number not allowed here"],
  ["SELECT n FROM t ORDER BY sq.NEXTVAL", "ORA-02287: sequence number not allowed here"],
  ["SELECT SUBSTR('abc', 1, 2, 3) FROM dual", "ORA-00939: too many arguments for function"],
  ["SELECT TO_DATE('2023-04-31', 'YYYY-MM-DD') FROM dual", "ORA-01839: date not valid for month specified"],
  ["SELECT TO_CHAR(d, 'YYYY-MM-DD HH24:MI:SS BZ') FROM t", "ORA-01821: date format not recognized"],
  ["LOCK TABLE t IN SOME MODE", "ORA-01737: valid modes for LOCK TABLE are: ROW SHARE, ROW EXCLUSIVE, SHARE UPDATE, SHARE, SHARE ROW EXCLUSIVE, EXCLUSIVE"],
  ["SELECT TO_DATE('2023-02-29', 'YYYY-MM-DD') FROM dual", "ORA-01839: date not valid for month specified"],
  ["SELECT TO_DATE('2024-01-01 2024', 'YYYY-MM-DD YYYY') FROM dual", "ORA-01810: format code appears twice"],
  ["SELECT TO_DATE('0000-01-01', 'YYYY-MM-DD') FROM dual", "ORA-01841: (full) year must be between -4713 and +9999, and not be 0"],
  ["SELECT NVL(1) FROM dual", "ORA-00909: invalid number of arguments"],
  ["ALTER SESSION SET no_such_parameter = 1", "ORA-02248: invalid option for ALTER SESSION"],
  ["CREATE INDEX t_idx ON t (d)", "ORA-00955: name is already used by an existing object"],
  ["SELECT DISTINCT sq.NEXTVAL FROM dual", "ORA-02287: sequence number not allowed here"],
  ["SELECT EXTRACT(HOUR FROM DATE '2024-01-01') FROM dual", "ORA-30076: invalid extract field for extract source"],
  ["SELECT EXTRACT(MINUTE FROM d) FROM t", "ORA-30076: invalid extract field for extract source"],
  ["SELECT TO_CHAR(SYSDATE, 'YYYY-ZZ') FROM dual", "ORA-01821: date format not recognized"],
  ["SELECT INSTR('abc', 'b', 1, 0) FROM dual", "ORA-01428: argument '0' is out of range"],
  ["LOCK TABLE nosuch IN EXCLUSIVE MODE", "ORA-00942: table or view \"TEST\".\"NOSUCH\" does not exist"],
  ["ALTER TABLE nosuch ADD CONSTRAINT nosuch_pk PRIMARY KEY (n)", "ORA-00942: table or view \"TEST\".\"NOSUCH\" does not exist"]
]

describe("Oracle test server: Oracle's code for statements it used to answer with another (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    for (const sql of ["CREATE TABLE t (n NUMBER, d DATE)", "INSERT INTO t VALUES (1, DATE '2024-01-01')", "CREATE SEQUENCE sq", "CREATE INDEX t_idx ON t (n)"]) await conn.execute(sql)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it.each(CORPUS)("%s", async (sql, text) => {
    expect(await raised(sql)).toBe(text)
  })

  it("still runs the valid forms", async () => {
    const one = async (sql: string) => (await conn.execute(sql)).rows
    expect(await one("SELECT n FROM t WHERE d = DATE '2024-01-01'")).toEqual([[1]])
    expect(await one("SELECT TO_CHAR(TO_DATE('2024-02-29', 'YYYY-MM-DD'), 'YYYY-MM-DD') FROM dual")).toEqual([["2024-02-29"]])
    expect(await one("SELECT NVL(NULL, 1), INSTR('abcb', 'b', 1, 2), EXTRACT(YEAR FROM d), EXTRACT(HOUR FROM CAST(d AS TIMESTAMP)) FROM t")).toEqual([[1, 4, 2024, 0]])
    expect(await one("SELECT sq.NEXTVAL FROM dual")).toEqual([[1]])
    for (const sql of [
      "ALTER SESSION SET NLS_DATE_FORMAT = 'YYYY-MM-DD'",
      "ALTER SESSION SET NLS_LANGUAGE = 'AMERICAN'",
      "ALTER SESSION SET OPTIMIZER_MODE = ALL_ROWS",
      "ALTER SESSION SET STATISTICS_LEVEL = ALL",
      "ALTER SESSION SET SQL_TRACE = TRUE",
      "ALTER SESSION SET EDITION = ORA$BASE",
      "ALTER SESSION SET DDL_LOCK_TIMEOUT = 10",
      "ALTER SESSION SET \"_optimizer_ansi_rearchitecture\" = FALSE",
      // indexes have their own namespace: an index may share its table's name (Database Concepts / SQL Language
      // Reference, "Database Object Names and Qualifiers", Schema Object Namespaces)
      "CREATE INDEX t ON t (n, d)",
      "LOCK TABLE t IN EXCLUSIVE MODE",
      "LOCK TABLE test.t, t IN ROW SHARE MODE NOWAIT"
    ]) await conn.execute(sql)
    expect(await one("SELECT INSTR('abcb', 'b', 1, 2), INSTR('abcb', 'b', -1), INSTR('abcb', 'b', -1, 2), INSTR('abc', 'b', 0), INSTR('abc', 'z', 1, 1) FROM dual")).toEqual([[4, 4, 2, 0, 0]])
    expect(await one("SELECT TO_CHAR(d, 'DD \"de\" Month YYYY, HH12:MI AM Dy') FROM t")).toEqual([["01 de January   2024, 12:00 AM Mon"]])
    await conn.rollback()
  })

  it("TO_CHAR prints the calendar elements strftime lacks (Q, WW, W, IW, IYYY, D, J, CC, SSSSS) as Oracle does", async () => {
    const one = async (sql: string) => (await conn.execute(sql)).rows
    // 2024-01-01 is a Monday (Julian day 2460311); 2021-01-03 a Sunday in ISO week 53 of 2020
    expect(await one("SELECT TO_CHAR(DATE '2024-01-01', 'Q WW W IW IYYY IY D J CC SSSSS') FROM dual")).toEqual([["1 01 1 01 2024 24 2 2460311 21 00000"]])
    expect(await one("SELECT TO_CHAR(TIMESTAMP '2021-01-03 01:02:03', 'D IW IYYY WW W Q SSSSS \"Q\"') FROM dual")).toEqual([["1 53 2020 01 1 1 03723 Q"]])
    expect(await one("SELECT TO_CHAR(DATE '2024-11-28', 'FMWW-IW-Q-DDD-D') FROM dual")).toEqual([["48-48-4-333-5"]])
  })
})
