/**
 * Oracle test server: a corpus of the wrong statements applications and their tests commonly send (syntax errors of
 * each kind, unknown names in every clause, bad function arguments, bad datetime text, bad DDL, constraint
 * violations, sequence misuse, values too large), each answered with the ORA- code and text Oracle gives; and the
 * failures the server cannot map, which carry no engine (DuckDB) text. Raw node-oracledb, no driver in between.
 *
 * Codes and texts: Oracle Database Error Messages (https://docs.oracle.com/en/error-help/db/ora-NNNNN/ for each code
 * below). ORA-00932's text is "inconsistent datatypes: expected %s got %s". Which code Oracle's parser gives a
 * malformed statement follows each code's documented cause (see testkit/oracle/statement-checks.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, withServer } from "./oracle/helpers.ts"

let server: OracleTestServerHandle
let conn: Conn
const logged: Array<string> = []

/** errorNum and the first line of the message, as node-oracledb reports them. */
const raised = async (sql: string) => {
  const e: any = await failure(() => conn.execute(sql))
  return { errorNum: e.errorNum as number, message: String(e.message).split("\n")[0]! }
}

/** Statement, Oracle's code, Oracle's message (a pattern where it names a generated constraint). */
const CORPUS: ReadonlyArray<readonly [string, number, string | RegExp]> = [
  ["SELECT (SELECT 1, 2 FROM dual) FROM dual", 913, "ORA-00913: too many values"],
  ["SELECT 1 FROM dual WHERE (1, 2) = (SELECT 1 FROM dual)", 947, "ORA-00947: not enough values"],
  ["UPDATE c SET (id, pid) = (SELECT 1 FROM dual) WHERE 1 = 0", 947, "ORA-00947: not enough values"],
  ["SELECT COUNT(*), n FROM t", 937, "ORA-00937: not a single-group group function"],
  ["SELECT * FORM t", 923, "ORA-00923: FROM keyword not found where expected"],
  ["SELECT n FROM t WHERE n =", 936, "ORA-00936: missing expression"],
  ["SELECT n, FROM t", 936, "ORA-00936: missing expression"],
  ["SELECT FROM t", 936, "ORA-00936: missing expression"],
  ["SELECT n FROM t ORDER n", 924, "ORA-00924: missing BY keyword"],
  ["SELECT n FROM t GROUP n", 924, "ORA-00924: missing BY keyword"],
  ["SELECT n FROM t t2 t3", 933, "ORA-00933: SQL command not properly ended"],
  ["SELECT (n FROM t", 907, "ORA-00907: missing right parenthesis"],
  ["SELECT n FROM t WHERE n IN (1, 2", 907, "ORA-00907: missing right parenthesis"],
  ["INSERT t VALUES (1, 'a')", 925, "ORA-00925: missing INTO keyword"],
  ["UPDATE t n = 1", 971, "ORA-00971: missing SET keyword"],
  ["DELETE t WHERE", 936, "ORA-00936: missing expression"],
  ["CREATE TABLE x (a FOO)", 902, "ORA-00902: invalid datatype"],
  ["CREATE TABLE x (a NUMBER, a NUMBER)", 957, "ORA-00957: duplicate column name"],
  ["CREATE TABLE t (a NUMBER)", 955, "ORA-00955: name is already used by an existing object"],
  ["CREATE TABLE x1 (a VARCHAR2)", 906, "ORA-00906: missing left parenthesis"],
  ["CREATE TABLE x2 (a NUMBER(39))", 1727, "ORA-01727: numeric precision specifier is out of range (1 to 38)"],
  ["CREATE TABLE x3 (a VARCHAR2(40000))", 910, "ORA-00910: specified length too long for its datatype"],
  ["CREATE TABLE x4 (a NUMBER(5, 200))", 1728, "ORA-01728: numeric scale specifier is out of range (-84 to 127)"],
  ["DROP TABLE nosuch", 942, "ORA-00942: table or view \"TEST\".\"NOSUCH\" does not exist"],
  ["DROP SEQUENCE nosuch", 2289, "ORA-02289: sequence does not exist"],
  ["ALTER TABLE t ADD (n NUMBER)", 1430, "ORA-01430: column being added already exists in table"],
  ["ALTER TABLE t DROP COLUMN zz", 904, "ORA-00904: \"ZZ\": invalid identifier"],
  ["SELECT zz FROM t", 904, "ORA-00904: \"ZZ\": invalid identifier"],
  ["SELECT n FROM t WHERE zz = 1", 904, "ORA-00904: \"ZZ\": invalid identifier"],
  ["SELECT n FROM t ORDER BY zz", 904, "ORA-00904: \"ZZ\": invalid identifier"],
  ["SELECT n FROM t GROUP BY zz", 904, "ORA-00904: \"ZZ\": invalid identifier"],
  ["UPDATE t SET zz = 1", 904, "ORA-00904: \"ZZ\": invalid identifier"],
  ["INSERT INTO t (zz) VALUES (1)", 904, "ORA-00904: \"ZZ\": invalid identifier"],
  ["SELECT n FROM t GROUP BY s HAVING n > 1", 979, "ORA-00979: not a GROUP BY expression"],
  ["SELECT t.zz FROM t", 904, "ORA-00904: \"ZZ\": invalid identifier"],
  ["SELECT n FROM t x WHERE t.n = 1", 904, "ORA-00904: \"T\": invalid identifier"],
  ["SELECT n FROM t WHERE s = \"one\"", 904, "ORA-00904: \"one\": invalid identifier"],
  ["SELECT NOSUCHFN(1) FROM dual", 904, "ORA-00904: \"NOSUCHFN\": invalid identifier"],
  ["SELECT n FROM nosuch", 942, "ORA-00942: table or view \"TEST\".\"NOSUCH\" does not exist"],
  ["SELECT 1/0 FROM dual", 1476, "ORA-01476: divisor is equal to zero"],
  ["SELECT n / 0 FROM t", 1476, "ORA-01476: divisor is equal to zero"],
  ["SELECT TO_NUMBER('abc') FROM dual", 1722, "ORA-01722: invalid number"],
  ["SELECT TO_NUMBER('1e') FROM dual", 1722, "ORA-01722: invalid number"],
  ["SELECT TO_DATE('2024-01-01 10', 'YYYY-MM-DD') FROM dual", 1830, "ORA-01830: date format picture ends before converting entire input string"],
  ["SELECT TO_DATE('2024-01-32', 'YYYY-MM-DD') FROM dual", 1847, "ORA-01847: day of month must be between 1 and last day of month"],
  ["SELECT TO_DATE('2024-01-01 10:61', 'YYYY-MM-DD HH24:MI') FROM dual", 1851, "ORA-01851: minutes must be between 0 and 59"],
  ["SELECT TO_DATE('13', 'HH') FROM dual", 1849, "ORA-01849: hour must be between 1 and 12"],
  ["SELECT SUBSTR('abc', 'x') FROM dual", 1722, "ORA-01722: invalid number"],
  ["SELECT SUBSTR('abc', 1, 'x') FROM dual", 1722, "ORA-01722: invalid number"],
  ["SELECT INSTR('abc') FROM dual", 938, "ORA-00938: not enough arguments for function"],
  ["SELECT INSTR('abc', 'b', 'x') FROM dual", 1722, "ORA-01722: invalid number"],
  ["SELECT LPAD('a') FROM dual", 938, "ORA-00938: not enough arguments for function"],
  ["SELECT LPAD('a', 'x') FROM dual", 1722, "ORA-01722: invalid number"],
  ["SELECT LPAD('a', 5, 'x', 'y') FROM dual", 939, "ORA-00939: too many arguments for function"],
  ["SELECT ROUND('x') FROM dual", 1722, "ORA-01722: invalid number"],
  ["SELECT ROUND(1, 2, 3) FROM dual", 939, "ORA-00939: too many arguments for function"],
  ["SELECT MOD('a', 2) FROM dual", 1722, "ORA-01722: invalid number"],
  ["SELECT SQRT('x') FROM dual", 1722, "ORA-01722: invalid number"],
  ["SELECT SYSDATE + SYSDATE FROM dual", 975, "ORA-00975: date + date not allowed"],
  ["SELECT 'a' + 1 FROM dual", 1722, "ORA-01722: invalid number"],
  ["SELECT n FROM t WHERE n = 'abc'", 1722, "ORA-01722: invalid number"],
  ["SELECT n, COUNT(*) FROM t GROUP BY s", 979, "ORA-00979: not a GROUP BY expression"],
  ["SELECT SUM(s) FROM t", 1722, "ORA-01722: invalid number"],
  ["SELECT n FROM t WHERE COUNT(*) > 1", 934, "ORA-00934: group function is not allowed here"],
  ["SELECT n FROM t UNION SELECT n, s FROM t", 1789, "ORA-01789: query block has incorrect number of result columns"],
  ["SELECT n FROM t ORDER BY 3", 1785, "ORA-01785: ORDER BY item must be the number of a SELECT-list expression"],
  ["SELECT n FROM t, t t2", 918, "ORA-00918: column ambiguously defined"],
  ["INSERT INTO p VALUES (1, 'b', 1, 'B')", 1, /^ORA\-00001:\ unique\ constraint\ \(TEST\.SYS_C\d+\)\ violated\ on\ table\ TEST\.P\ columns\ \(ID\)$/],
  ["INSERT INTO p VALUES (2, 'b', 1, 'A')", 1, /^ORA-00001: unique constraint \(TEST\.SYS_C\d+\) violated on table TEST\.P columns \(CODE\)$/],
  ["INSERT INTO p (id, qty) VALUES (2, 1)", 1400, "ORA-01400: cannot insert NULL into (\"TEST\".\"P\".\"NAME\")"],
  ["INSERT INTO p VALUES (3, 'b', 0, 'B')", 2290, /^ORA\-02290:\ check\ constraint\ \(TEST\.SYS_C\d+\)\ violated$/],
  ["INSERT INTO c VALUES (2, 99)", 2291, /^ORA\-02291:\ integrity\ constraint\ \(TEST\.SYS_C\d+\)\ violated\ \-\ parent\ key\ not\ found$/],
  ["DELETE FROM p WHERE id = 1", 2292, /^ORA\-02292:\ integrity\ constraint\ \(TEST\.SYS_C\d+\)\ violated\ \-\ child\ record\ found$/],
  ["INSERT INTO p VALUES (4, 'abcdef', 1, 'C')", 12899, "ORA-12899: value too large for column \"TEST\".\"P\".\"NAME\" (actual: 6, maximum: 5)"],
  ["INSERT INTO p VALUES (5, 'e', 1000, 'D')", 1438, "ORA-01438: value larger than specified precision allowed for this column"],
  ["UPDATE p SET name = NULL WHERE id = 1", 1407, "ORA-01407: cannot update (\"TEST\".\"P\".\"NAME\") to NULL"],
  ["SELECT sq.CURRVAL FROM dual", 8002, "ORA-08002: sequence SQ.CURRVAL is not yet defined in this session"],
  ["SELECT nosuchseq.NEXTVAL FROM dual", 2289, "ORA-02289: sequence does not exist"],
  ["CREATE SEQUENCE sq", 955, "ORA-00955: name is already used by an existing object"],
  ["SELECT 1 FROM dual WHERE 1 = (SELECT n FROM t UNION ALL SELECT n FROM t)", 1427, "ORA-01427: single-row subquery returns more than one row"],
  ["SELECT CAST('abc' AS NUMBER) FROM dual", 1722, "ORA-01722: invalid number"],
  ["SELECT TO_CHAR(1, 'XYZ') FROM dual", 1481, "ORA-01481: invalid number format model"],
  ["SELECT TO_NUMBER('1', 'XYZ') FROM dual", 1481, "ORA-01481: invalid number format model"],
  ["INSERT INTO t VALUES ('x', 'a')", 1722, "ORA-01722: invalid number"],
  ["INSERT INTO t VALUES (1, 'abcdefghijkl')", 12899, "ORA-12899: value too large for column \"TEST\".\"T\".\"S\" (actual: 12, maximum: 10)"],
  ["SELECT n FROM t WHERE n BETWEEN 1", 905, "ORA-00905: missing keyword"],
  ["SELECT CASE WHEN n = 1 THEN 'a' FROM t", 905, "ORA-00905: missing keyword"],
  ["SELECT n FROM t WHERE n IS 1", 908, "ORA-00908: missing NULL keyword"],
  ["CREATE VIEW v AS SELECT zz FROM t", 904, "ORA-00904: \"ZZ\": invalid identifier"],
  ["SELECT DECODE(1) FROM dual", 938, "ORA-00938: not enough arguments for function"],
  ["TRUNCATE TABLE nosuch", 942, "ORA-00942: table or view \"TEST\".\"NOSUCH\" does not exist"],
  ["SELECT n FROM t WHERE n = 1 ORDER BY", 936, "ORA-00936: missing expression"],
  ["CREATE TABLE x5 (a NUMBER PRIMARY KEY, b NUMBER PRIMARY KEY)", 2260, "ORA-02260: table can have only one primary key"],
  ["CREATE TABLE x6 AS SELECT n, n FROM t", 957, "ORA-00957: duplicate column name"],
  ["SELECT 'abc FROM dual", 1756, "ORA-01756: quoted string not properly terminated"],
  ["SELECT \"abc FROM dual", 1740, "ORA-01740: missing double quote in identifier"],
  ["SELECT 1 FROM dual WHERE 1 = 1)", 933, "ORA-00933: SQL command not properly ended"],
  ["SELEC 1 FROM dual", 900, "ORA-00900: invalid SQL statement"],
  ["SELECT 1 FROM", 903, "ORA-00903: invalid table name"],
  ["INSERT INTO VALUES (1)", 903, "ORA-00903: invalid table name"],
  ["SELECT n FROM t WHERE n IN ()", 936, "ORA-00936: missing expression"],
  ["SELECT LENGTH(1, 2) FROM dual", 909, "ORA-00909: invalid number of arguments"],
  ["CREATE TABLE x7 (a RAW, b NUMBER)", 906, "ORA-00906: missing left parenthesis"],
  ["SELECT UPPER('a', 'b') FROM dual", 909, "ORA-00909: invalid number of arguments"],
  ["SELECT 'abc' * 2 FROM dual", 1722, "ORA-01722: invalid number"],
  ["SELECT RPAD('a') FROM dual", 938, "ORA-00938: not enough arguments for function"],
  ["SELECT SUBSTR('abc', 1, 2, 3) FROM dual", 939, "ORA-00939: too many arguments for function"],
  ["SELECT TO_DATE('2024-01-01 10:00', 'YYYY-MM-DD HH24') FROM dual", 1830, "ORA-01830: date format picture ends before converting entire input string"],
  ["INSERT INTO t VALUES (1, 'a'", 907, "ORA-00907: missing right parenthesis"],
  ["SELECT n, (SELECT n, s FROM t) FROM t", 913, "ORA-00913: too many values"],
  ["UPDATE t SET (n) = (SELECT 1, 2 FROM dual)", 913, "ORA-00913: too many values"],
  ["UPDATE t SET (n, s) = (SELECT 1 FROM dual)", 947, "ORA-00947: not enough values"],
  ["INSERT INTO t VALUES (1, 'a', 'b')", 913, "ORA-00913: too many values"],
  ["DELETE FROM t WHERE n IN (SELECT n FROM t ORDER n)", 924, "ORA-00924: missing BY keyword"],
  ["SELECT n FROM t WHERE n > 1 AND", 936, "ORA-00936: missing expression"],
  ["SELECT n + FROM t", 936, "ORA-00936: missing expression"],
  ["SELECT n FROM t WHERE s IS NOT 'a'", 908, "ORA-00908: missing NULL keyword"],
  ["UPDATE t SET n =", 936, "ORA-00936: missing expression"],
  ["SELECT n FROM t WHERE SUM(n) > 1", 934, "ORA-00934: group function is not allowed here"],
  ["SELECT MAX(n), s FROM t", 937, "ORA-00937: not a single-group group function"],
  ["SELECT 1 FROM dual WHERE SYSDATE = 1", 932, "ORA-00932: inconsistent datatypes: expected DATE got NUMBER"],
  ["SELECT n FROM t WHERE DATE '2024-01-01' > 5", 932, "ORA-00932: inconsistent datatypes: expected DATE got NUMBER"],
  ["SELECT ADD_MONTHS(1, 1) FROM dual", 932, "ORA-00932: inconsistent datatypes: expected DATE got NUMBER"],
  ["SELECT SYSDATE + 'x' FROM dual", 1722, "ORA-01722: invalid number"]
]

/** Words of DuckDB's messages that must never reach a client. */
const DUCKDB_WORDS = /Binder Error|Parser Error|Catalog Error|Conversion Error|Invalid Input Error|Constraint Error|Sequence Error|DuckDB|duckdb|LINE 1:/

describe("Oracle test server: Oracle's code and text for common wrong statements (raw node-oracledb)", () => {
  beforeAll(async () => {
    const s = await withServer({ debugLog: (line) => logged.push(line) })
    server = s.server
    conn = await s.connect()
    for (const sql of [
      "CREATE TABLE t (n NUMBER, s VARCHAR2(10))",
      "INSERT INTO t VALUES (1, 'one')",
      "CREATE TABLE p (id NUMBER PRIMARY KEY, name VARCHAR2(5) NOT NULL, qty NUMBER(3) CHECK (qty > 0), code VARCHAR2(3) UNIQUE)",
      "CREATE TABLE c (id NUMBER, pid NUMBER REFERENCES p (id))",
      "INSERT INTO p VALUES (1, 'a', 1, 'A')",
      "INSERT INTO c VALUES (1, 1)",
      "CREATE SEQUENCE sq"
    ]) await conn.execute(sql)
    await conn.commit()
  })
  afterAll(async () => {
    await conn?.close()
    await server?.close()
  })

  it(`answers each of the ${CORPUS.length} statements with Oracle's code and text`, async () => {
    const wrong: Array<string> = []
    for (const [sql, code, text] of CORPUS) {
      const got = await raised(sql)
      const ok = got.errorNum === code && (typeof text === "string" ? got.message === text : text.test(got.message))
      if (!ok) wrong.push(`${sql} -> ${got.message} (expected ORA-${String(code).padStart(5, "0")})`)
    }
    expect(wrong).toEqual([])
    expect(CORPUS.length).toBeGreaterThanOrEqual(60)
  })

  it("names the violated UNIQUE constraint, not the primary key, when a unique column repeats", async () => {
    const rows = (await conn.execute("SELECT constraint_name, constraint_type FROM user_constraints WHERE table_name = 'P' AND constraint_type IN ('P', 'U') ORDER BY constraint_type")).rows as Array<[string, string]>
    const unique = rows.find(([, type]) => type === "U")![0]
    expect((await raised("INSERT INTO p VALUES (9, 'z', 1, 'A')")).message).toBe(`ORA-00001: unique constraint (TEST.${unique}) violated on table TEST.P columns (CODE)`)
  })

  it("keeps the engine's text out of every message of the corpus and writes it to the server's debug log instead", async () => {
    logged.length = 0
    const messages: Array<string> = []
    for (const [sql] of CORPUS) messages.push((await raised(sql)).message)
    expect(messages.filter((m) => DUCKDB_WORDS.test(m))).toEqual([])
    expect(logged.some((line) => /<= (?:Binder|Parser|Catalog) Error/.test(line))).toBe(true)
  })

  it("a failure the server cannot map is ORA-03001 naming the server's limitation; the engine's message goes to the debug log only", async () => {
    logged.length = 0
    const got = await raised("SELECT n FROM t WHERE CHR(-1) = s")
    expect(got).toEqual({ errorNum: 3001, message: "ORA-03001: unimplemented feature: the Oracle test server cannot run this statement (its debug log has the reason)" })
    expect(logged).toEqual([expect.stringMatching(/^oracle testkit: ORA-03001: .* <= Invalid Input Error: /)])
  })

  it("still runs the valid forms of the same statements", async () => {
    const one = async (sql: string) => (await conn.execute(sql)).rows
    expect(await one("SELECT (SELECT 1 FROM dual), n FROM t")).toEqual([[1, 1]])
    expect(await one("SELECT COUNT(*), MAX(n) FROM t")).toEqual([[1, 1]])
    expect(await one("SELECT n FROM t WHERE s IS NOT NULL ORDER BY n")).toEqual([[1]])
    expect(await one("SELECT LPAD('a', 3, '-'), ROUND(1.25, 1), SUBSTR('abc', 2), INSTR('abc', 'c'), NVL(NULL, 2) FROM dual")).toEqual([["--a", 1.3, "bc", 3, 2]])
    expect(await one("SELECT n FROM t WHERE n BETWEEN 0 AND 2 AND n IN (1, 2)")).toEqual([[1]])
    expect(await one("SELECT CASE WHEN n = 1 THEN 'a' END FROM t")).toEqual([["a"]])
    await conn.execute("CREATE TABLE okt (raw RAW(10), v VARCHAR2(4000), d NUMBER(38, -84), e NUMBER(1, 127), l LONG RAW)")
    expect((await conn.execute("UPDATE t SET (n) = (SELECT 1 FROM dual)")).rowsAffected).toBe(1)
    await conn.rollback()
  })
})
