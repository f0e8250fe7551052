import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { failure, oraCode, oracledb, closeConnection, openConnection, withServer } from "./oracle/helpers.ts"

// Oracle Database PL/SQL Packages and Types Reference (23ai): UTL_RAW, DBMS_ASSERT, DBMS_RANDOM, DBMS_UTILITY
// (https://docs.oracle.com/en/database/oracle/oracle-database/23/arpls/); SQL Language Reference: DUMP, TO_YMINTERVAL,
// TO_DSINTERVAL, TO_BLOB (https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/DUMP.html).
describe("Oracle test server: built-in packages and functions (raw oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE builtin_dump (d DATE, n2 NUMBER(5,2), v VARCHAR2(10), r RAW(4))")
    await conn.execute("INSERT INTO builtin_dump VALUES (DATE '2024-01-02', 2.25, 'ab', HEXTORAW('0AFF'))")
  })
  afterAll(() => closeConnection({ server, conn }))

  const row = async (sql: string, binds: unknown = []) => (await conn.execute(sql, binds)).rows[0]

  it("UTL_RAW casts, measures, concatenates and slices RAW values in SQL and PL/SQL", async () => {
    expect(await row("SELECT UTL_RAW.CAST_TO_RAW('hé'), UTL_RAW.LENGTH(UTL_RAW.CAST_TO_RAW('abc')), UTL_RAW.CAST_TO_VARCHAR2(HEXTORAW('6869')) FROM dual")).toEqual([
      Buffer.from("hé", "utf8"), 3, "hi"
    ])
    // CONCAT skips NULL arguments; SUBSTR counts a negative position from the end
    expect(await row("SELECT UTL_RAW.CONCAT(HEXTORAW('01'), NULL, HEXTORAW('0203')), UTL_RAW.SUBSTR(HEXTORAW('010203'), 2), UTL_RAW.SUBSTR(HEXTORAW('010203'), -1, 1) FROM dual")).toEqual([
      Buffer.from([1, 2, 3]), Buffer.from([2, 3]), Buffer.from([3])
    ])
    expect(oraCode(await failure(() => conn.execute("SELECT UTL_RAW.SUBSTR(HEXTORAW('01'), 0) FROM dual")))).toBe("ORA-06502")
    const r = await conn.execute("DECLARE r RAW(10); BEGIN r := UTL_RAW.CAST_TO_RAW(:s); :len := UTL_RAW.LENGTH(r); :back := UTL_RAW.CAST_TO_VARCHAR2(r); END;", {
      s: "xyz",
      len: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER },
      back: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 10 }
    })
    expect(r.outBinds).toEqual({ len: 3, back: "xyz" })
  })

  it("DBMS_ASSERT returns valid names and literals and raises ORA-44001..44004 / ORA-06502 for others", async () => {
    expect(await row("SELECT DBMS_ASSERT.ENQUOTE_NAME('emp'), DBMS_ASSERT.ENQUOTE_NAME('emp', FALSE), DBMS_ASSERT.ENQUOTE_NAME('\"Mixed\"'), DBMS_ASSERT.ENQUOTE_LITERAL('it''''s'), DBMS_ASSERT.SIMPLE_SQL_NAME('Emp_1'), DBMS_ASSERT.NOOP('x'), DBMS_ASSERT.QUALIFIED_SQL_NAME('a.b@link'), DBMS_ASSERT.SCHEMA_NAME('SYS'), DBMS_ASSERT.SQL_OBJECT_NAME('builtin_dump') FROM dual")).toEqual([
      "\"EMP\"", "\"emp\"", "\"Mixed\"", "'it''s'", "Emp_1", "x", "a.b@link", "SYS", "builtin_dump"
    ])
    const code = async (sql: string) => oraCode(await failure(() => conn.execute(sql)))
    expect(await code("SELECT DBMS_ASSERT.SIMPLE_SQL_NAME('1bad') FROM dual")).toBe("ORA-44003")
    expect(await code("SELECT DBMS_ASSERT.ENQUOTE_NAME('a\"b') FROM dual")).toBe("ORA-44003")
    expect(await code("SELECT DBMS_ASSERT.SQL_OBJECT_NAME('no_such_table') FROM dual")).toBe("ORA-44002")
    expect(await code("SELECT DBMS_ASSERT.SCHEMA_NAME('NO_SUCH_USER') FROM dual")).toBe("ORA-44001")
    expect(await code("SELECT DBMS_ASSERT.QUALIFIED_SQL_NAME('a..b') FROM dual")).toBe("ORA-44004")
    expect(await code("SELECT DBMS_ASSERT.ENQUOTE_LITERAL('it''s') FROM dual")).toBe("ORA-06502")
    // in PL/SQL the error is catchable as any other
    const r = await conn.execute(`BEGIN :q := DBMS_ASSERT.ENQUOTE_NAME(:n); BEGIN :s := DBMS_ASSERT.SIMPLE_SQL_NAME('x y'); EXCEPTION WHEN OTHERS THEN :s := SQLCODE; END; END;`, {
      n: "tab", q: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 20 }, s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 20 }
    })
    expect(r.outBinds).toEqual({ q: "\"TAB\"", s: "-44003" })
  })

  it("DBMS_RANDOM draws values in range, strings of the asked alphabet, and repeats a sequence after SEED", async () => {
    const [v, between, upper, alnum, normal] = (await row("SELECT DBMS_RANDOM.VALUE, DBMS_RANDOM.VALUE(5, 10), DBMS_RANDOM.STRING('U', 12), DBMS_RANDOM.STRING('x', 30), DBMS_RANDOM.NORMAL FROM dual")) as [number, number, string, string, number]
    expect(v).toBeGreaterThanOrEqual(0)
    expect(v).toBeLessThan(1)
    expect(between).toBeGreaterThanOrEqual(5)
    expect(between).toBeLessThan(10)
    expect(upper).toMatch(/^[A-Z]{12}$/)
    expect(alnum).toMatch(/^[A-Z0-9]{30}$/)
    expect(Number.isFinite(normal)).toBe(true)
    // one value per row, not one per statement
    const rows = (await conn.execute("SELECT DBMS_RANDOM.VALUE FROM (SELECT 1 FROM dual UNION ALL SELECT 2 FROM dual UNION ALL SELECT 3 FROM dual)")).rows
    expect(new Set(rows.map((x: Array<number>) => x[0])).size).toBe(3)
    const draw = async () =>
      (await conn.execute("BEGIN DBMS_RANDOM.SEED(42); :a := DBMS_RANDOM.VALUE; :b := DBMS_RANDOM.STRING('A', 8); END;", {
        a: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }, b: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 8 }
      })).outBinds
    expect(await draw()).toEqual(await draw())
  })

  it("DBMS_UTILITY formats the handled error, its backtrace and the call stack, and GET_TIME counts hundredths", async () => {
    const r = await conn.execute(
      `DECLARE
         x NUMBER;
       BEGIN
         x := 1 / 0;
       EXCEPTION WHEN OTHERS THEN
         :stack := DBMS_UTILITY.FORMAT_ERROR_STACK;
         :trace := DBMS_UTILITY.FORMAT_ERROR_BACKTRACE();
         :calls := DBMS_UTILITY.FORMAT_CALL_STACK;
         :t := DBMS_UTILITY.GET_TIME;
       END;`,
      {
        stack: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 2000 },
        trace: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 2000 },
        calls: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 2000 },
        t: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }
      }
    )
    expect(r.outBinds.stack).toBe("ORA-01476: divisor is equal to zero\n")
    expect(r.outBinds.trace).toBe("ORA-06512: at line 4\n")
    expect(r.outBinds.calls).toMatch(/^----- PL\/SQL Call Stack -----\n.*anonymous block\n$/s)
    expect(Number.isInteger(r.outBinds.t)).toBe(true)
    const [t] = (await row("SELECT DBMS_UTILITY.GET_TIME FROM dual")) as [number]
    expect(t).toBeGreaterThanOrEqual(r.outBinds.t)
  })

  it("DUMP shows Oracle's type code, byte length and internal bytes", async () => {
    expect(await row("SELECT DUMP(123), DUMP(-1.5), DUMP('abc'), DUMP('abc', 1016), DUMP('abcdef', 10, 2, 3) FROM dual")).toEqual([
      "Typ=2 Len=3: 194,2,24", "Typ=2 Len=4: 62,100,51,102", "Typ=96 Len=3: 97,98,99", "Typ=96 Len=3 CharacterSet=AL32UTF8: 61,62,63", "Typ=96 Len=6: 98,99,100"
    ])
    expect(await row("SELECT DUMP(d), DUMP(n2), DUMP(v), DUMP(r, 16), DUMP(NULL) FROM builtin_dump")).toEqual([
      "Typ=12 Len=7: 120,124,1,2,1,1,1", "Typ=2 Len=3: 193,3,26", "Typ=1 Len=2: 97,98", "Typ=23 Len=2: a,ff", null
    ])
  })

  it("TO_YMINTERVAL / TO_DSINTERVAL read SQL and ISO texts into intervals; an invalid one is ORA-01867", async () => {
    const r = await conn.execute("SELECT TO_YMINTERVAL('01-02'), TO_YMINTERVAL('-P2Y'), TO_DSINTERVAL('1 02:03:04.5'), TO_DSINTERVAL('PT90M') FROM dual")
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["INTERVAL YEAR TO MONTH", "INTERVAL YEAR TO MONTH", "INTERVAL DAY TO SECOND", "INTERVAL DAY TO SECOND"])
    const [ym, neg, ds, iso] = r.rows[0]
    expect([ym.years, ym.months, neg.years, neg.months]).toEqual([1, 2, -2, 0])
    expect([ds.days, ds.hours, ds.minutes, ds.seconds, ds.fseconds]).toEqual([1, 2, 3, 4, 500000000])
    expect([iso.hours, iso.minutes]).toEqual([1, 30])
    expect(await row("SELECT DATE '2024-01-31' + TO_DSINTERVAL('2 00:00:00') FROM dual")).toEqual([new Date(2024, 1, 2)])
    expect(oraCode(await failure(() => conn.execute("SELECT TO_YMINTERVAL('x') FROM dual")))).toBe("ORA-01867")
    expect(oraCode(await failure(() => conn.execute("SELECT TO_DSINTERVAL('1 25:00:00') FROM dual")))).toBe("ORA-01867")
  })

  it("TO_CLOB and TO_BLOB return LOBs", async () => {
    const r = await conn.execute("SELECT TO_CLOB('text'), TO_BLOB(HEXTORAW('ABCD')) FROM dual")
    expect(r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName)).toEqual(["CLOB", "BLOB"])
    const [c, b] = r.rows[0]
    expect(await c.getData()).toBe("text")
    expect(await b.getData()).toEqual(Buffer.from([0xab, 0xcd]))
  })
})
