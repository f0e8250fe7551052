/**
 * Oracle test server: wrong statements about data types and argument counts, each answered with the code and text
 * Oracle gives (raw node-oracledb), and their valid neighbours that must keep running. Companion of
 * oracle-error-corpus.test.ts and oracle-error-corpus-more.test.ts.
 *
 * Codes and texts: Oracle Database Error Messages (https://docs.oracle.com/en/error-help/db/ora-00932/, ora-00909,
 * ora-00938, ora-01425, ora-01722, ora-30076). Rules: SQL Language Reference, "Implicit Data Conversion" (no DATE
 * becomes a NUMBER), "AVG" / "SUM" / "STDDEV" / "VARIANCE" (numeric arguments, or ones implicitly converted to
 * numbers), "CASE Expressions" (results, and a simple CASE's selector and comparison values, of one data type
 * family), "LIKE Condition" (an escape character of length 1), "ADD_MONTHS" (a date or a value implicitly converted to
 * DATE: text by the session's NLS_DATE_FORMAT), "TRANSLATE" (three arguments), "ORA_HASH" (one to three).
 * ORA-30076 for EXTRACT of a character value and ORA-00938 (rather than ORA-00909) for `ORA_HASH()` are
 * **unconfirmed** codes.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn

const raised = async (sql: string) => {
  const e: any = await failure(() => conn.execute(sql))
  return { errorNum: e.errorNum as number, message: String(e.message).split("\n")[0]! }
}
const rows = async (sql: string) => (await conn.execute(sql)).rows

/** The statements of `list` not answered with their code and text, each with what came instead. */
const mismatches = async (list: ReadonlyArray<readonly [string, number, string]>) => {
  const wrong: Array<string> = []
  for (const [sql, code, text] of list) {
    const got = await raised(sql).catch(() => ({ errorNum: 0, message: "(ran)" }))
    if (got.errorNum !== code || got.message !== text) wrong.push(`${sql} -> ${got.message} (expected ORA-${String(code).padStart(5, "0")})`)
  }
  return wrong
}

const NUMBER_GOT_DATE = "ORA-00932: inconsistent datatypes: expected NUMBER got DATE"
const NUMBER_GOT_CHAR = "ORA-00932: inconsistent datatypes: expected NUMBER got CHAR"

/** Statement, Oracle's code, Oracle's message. */
const WRONG: ReadonlyArray<readonly [string, number, string]> = [
  ["SELECT SUM(d) FROM ty", 932, NUMBER_GOT_DATE],
  ["SELECT AVG(d) FROM ty", 932, NUMBER_GOT_DATE],
  ["SELECT AVG(DISTINCT ty.d) FROM ty", 932, NUMBER_GOT_DATE],
  ["SELECT STDDEV(d) FROM ty", 932, NUMBER_GOT_DATE],
  ["SELECT VARIANCE(d + 1) FROM ty", 932, NUMBER_GOT_DATE],
  ["SELECT AVG(SYSDATE) FROM dual", 932, NUMBER_GOT_DATE],
  ["SELECT STDDEV(s) FROM ty", 1722, "ORA-01722: invalid number"],
  ["SELECT EXTRACT(YEAR FROM s) FROM ty", 30076, "ORA-30076: invalid extract field for extract source"],
  ["SELECT CASE n WHEN 'a' THEN 1 END FROM ty", 932, NUMBER_GOT_CHAR],
  ["SELECT CASE s WHEN 1 THEN 1 END FROM ty", 932, "ORA-00932: inconsistent datatypes: expected CHAR got NUMBER"],
  ["SELECT CASE WHEN n = 1 THEN s ELSE 0 END FROM ty", 932, "ORA-00932: inconsistent datatypes: expected CHAR got NUMBER"],
  ["SELECT CASE WHEN n = 1 THEN n ELSE 'a' END FROM ty", 932, NUMBER_GOT_CHAR],
  ["SELECT CASE WHEN n = 1 THEN 'a' ELSE ty.n END FROM ty", 932, "ORA-00932: inconsistent datatypes: expected CHAR got NUMBER"],
  ["SELECT CASE WHEN n = 1 THEN d ELSE 'a' END FROM ty", 932, "ORA-00932: inconsistent datatypes: expected DATE got CHAR"],
  ["SELECT CASE WHEN n = 1 THEN SYSDATE ELSE 0 END FROM ty", 932, "ORA-00932: inconsistent datatypes: expected DATE got NUMBER"],
  ["SELECT ORA_HASH() FROM ty", 938, "ORA-00938: not enough arguments for function"],
  ["SELECT ORA_HASH(n, 1, 2, 3) FROM ty", 939, "ORA-00939: too many arguments for function"],
  ["SELECT TRANSLATE(s, 'a') FROM ty", 909, "ORA-00909: invalid number of arguments"],
  ["SELECT s FROM ty WHERE s LIKE 'a%' ESCAPE 'ab'", 1425, "ORA-01425: escape character must be character string of length 1"],
  ["SELECT ADD_MONTHS('no date', 1) FROM dual", 1858, "ORA-01858: a non-numeric character was found where a numeric was expected"]
]

describe("Oracle test server: data type and argument mistakes answered as Oracle answers them (raw node-oracledb)", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE ty (n NUMBER, s VARCHAR2(20), d DATE)")
    await conn.execute("INSERT INTO ty VALUES (1, '31-JAN-24', DATE '2024-01-02')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it(`answers each of the ${WRONG.length} statements with Oracle's code and text`, async () => {
    expect(await mismatches(WRONG)).toEqual([])
  })

  it("ADD_MONTHS converts text to a DATE by the session's NLS_DATE_FORMAT", async () => {
    const fmt = "'YYYY-MM-DD HH24:MI:SS'"
    expect(await rows(`SELECT TO_CHAR(ADD_MONTHS(s, 1), ${fmt}), TO_CHAR(ADD_MONTHS('15-MAR-24', -1), ${fmt}) FROM ty`)).toEqual([["2024-02-29 00:00:00", "2024-02-15 00:00:00"]])
    await conn.execute("ALTER SESSION SET NLS_DATE_FORMAT = 'YYYY-MM-DD'")
    expect(await rows(`SELECT TO_CHAR(ADD_MONTHS('2024-01-31', 13), ${fmt}) FROM dual`)).toEqual([["2025-02-28 00:00:00"]])
    await conn.execute("ALTER SESSION SET NLS_DATE_FORMAT = 'DD-MON-RR'")
  })

  it("still runs the valid neighbours of those statements", async () => {
    expect(await rows("SELECT SUM(n), AVG(DISTINCT n), MIN(d), MAX(s) FROM ty")).toEqual([[1, 1, new Date("2024-01-02T00:00:00Z"), "31-JAN-24"]])
    expect(await rows("SELECT CASE n WHEN 1 THEN 'x' ELSE 'y' END, CASE WHEN n = 1 THEN n ELSE 2 END, CASE WHEN n = 1 THEN s ELSE 'a' END, CASE WHEN n = 1 THEN d ELSE DATE '2000-01-01' END FROM ty")).toEqual([["x", 1, "31-JAN-24", new Date("2024-01-02T00:00:00Z")]])
    expect(await rows("SELECT CASE s WHEN '31-JAN-24' THEN 'y' END, CASE WHEN n = 2 THEN 'a' ELSE s END FROM ty")).toEqual([["y", "31-JAN-24"]])
    expect(await rows("SELECT TRANSLATE(s, 'AJN', 'ajn'), EXTRACT(YEAR FROM d), ORA_HASH(n, 0) FROM ty")).toEqual([["31-jan-24", 2024, 0]])
    expect(await rows("SELECT COUNT(*) FROM ty WHERE s LIKE '31\\_%' ESCAPE '\\'")).toEqual([[0]])
    expect(await rows("SELECT COUNT(*) FROM ty WHERE s LIKE '31-%' ESCAPE '\\'")).toEqual([[1]])
  })
})
