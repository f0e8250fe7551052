import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, ds, failure, intervalRows, openConnection, oraCode, oracledb } from "./oracle/helpers.ts"

// Oracle types every expression, so datetime arithmetic works on any DATE or TIMESTAMP expression, not only on columns
// and literals: DATE - DATE is a NUMBER of days, DATE ± n a DATE, a TIMESTAMP minus a datetime an INTERVAL DAY TO
// SECOND, TIMESTAMP ± n a DATE (the TIMESTAMP converted to DATE first) and DATE + DATE ORA-00975 (SQL Language
// Reference, "Datetime/Interval Arithmetic":
// https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Datetime-Interval-Arithmetic.html).
const typeNames = (r: { metaData?: ReadonlyArray<{ dbTypeName?: string }> }) => (r.metaData ?? []).map((m) => m.dbTypeName)
const day = (text: string) => new Date(`${text}Z`)
const DS = "INTERVAL DAY TO SECOND"

describe("Oracle test server: datetime arithmetic on DATE / TIMESTAMP expressions (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE dte (a DATE, d DATE, d2 DATE, x NUMBER, ts TIMESTAMP, ts2 TIMESTAMP)")
    await conn.execute(
      "INSERT INTO dte VALUES (DATE '2024-01-01', DATE '2024-01-05', DATE '2024-01-10', 1, TIMESTAMP '2024-01-02 00:00:00.5', TIMESTAMP '2024-01-03 12:00:00.25')"
    )
    await conn.execute("CREATE TABLE dte_tz (x NUMBER, tz TIMESTAMP WITH TIME ZONE, s VARCHAR2(10))")
    await conn.execute("INSERT INTO dte_tz VALUES (1, TIMESTAMP '2024-01-02 00:00:00 +02:00', 'abc')")
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a scalar subquery giving a DATE: DATE - it is a NUMBER of days, it + n a DATE (was ORA-00932)", async () => {
    const r = await conn.execute("SELECT d - (SELECT MAX(a) FROM dte), (SELECT MAX(d) FROM dte) + 1, (SELECT MIN(d2) FROM dte) - 2 FROM dte")
    expect(typeNames(r)).toEqual(["NUMBER", "DATE", "DATE"])
    expect(r.rows).toEqual([[4, day("2024-01-06T00:00:00"), day("2024-01-08T00:00:00")]])
    // and DATE + a DATE expression is ORA-00975
    expect(oraCode(await failure(() => conn.execute("SELECT (SELECT MAX(d) FROM dte) + CASE WHEN x = 1 THEN a END FROM dte")))).toBe("ORA-00975")
  })

  it("CASE, DECODE, NVL and COALESCE giving a DATE are DATE operands (a CASE minus a DATE was an INTERVAL, DATE - CASE ORA-00932)", async () => {
    const r = await conn.execute(
      "SELECT CASE WHEN x = 1 THEN d ELSE d2 END - a, d2 - CASE WHEN x = 1 THEN d ELSE a END, DECODE(x, 1, d, d2) - a, NVL(d, a) - a, COALESCE(d, a) + 1 FROM dte"
    )
    expect(typeNames(r)).toEqual(["NUMBER", "NUMBER", "NUMBER", "NUMBER", "DATE"])
    expect(r.rows).toEqual([[4, 5, 4, 4, day("2024-01-06T00:00:00")]])
  })

  it("a column of a FROM subquery or WITH block that is a DATE expression is a DATE (was ORA-00932)", async () => {
    const q = await conn.execute("SELECT q.m - q.a, q.m + 1 FROM (SELECT ADD_MONTHS(a, 1) m, a FROM dte) q")
    expect(typeNames(q)).toEqual(["NUMBER", "DATE"])
    expect(q.rows).toEqual([[31, day("2024-02-02T00:00:00")]])
    const w = await conn.execute("WITH w AS (SELECT NVL(d, a) m, a FROM dte) SELECT m - a, m + 1 FROM w")
    expect(w.rows).toEqual([[4, day("2024-01-06T00:00:00")]])
  })

  it("a WITH block's or FROM subquery's TO_TIMESTAMP or CAST to TIMESTAMP ± n is a DATE, minus a TIMESTAMP an interval (were ORA-01722 / ORA-00932)", async () => {
    const w = "WITH b AS (SELECT TO_TIMESTAMP('2017-04-05 02:52:00', 'yyyy-mm-dd hh24:mi:ss') t, CAST(TIMESTAMP '2017-04-05 02:52:00.5' AS TIMESTAMP(3)) c FROM dual) "
    const [[sum, next, difference]] = (await conn.execute(`${w}SELECT t + 5/1440, c + 1, TO_CHAR(c - TIMESTAMP '2017-04-04 02:52:00') FROM b`)).rows
    expect([sum, next]).toEqual([new Date("2017-04-05T02:57:00Z"), new Date("2017-04-06T02:52:00Z")])
    // the fraction digits of a difference's text are README's unconfirmed precision (6 or 9)
    expect(difference).toMatch(/^\+000000001 00:00:00\.5/)
    expect((await conn.execute("SELECT q.t - 1 FROM (SELECT TO_TIMESTAMP('2017-04-05', 'yyyy-mm-dd') t FROM dual) q")).rows).toEqual([[new Date("2017-04-04T00:00:00Z")]])
  })

  it("TRUNC / ROUND of an aggregate or CASE giving a DATE or TIMESTAMP is a DATE (was ORA-00932, the number TRUNC)", async () => {
    const r = await conn.execute("SELECT TRUNC(MAX(ts)) - MIN(a), ROUND(MAX(d)) - MIN(a), (SELECT TRUNC(MAX(ts)) FROM dte) - MIN(a) FROM dte")
    expect(typeNames(r)).toEqual(["NUMBER", "NUMBER", "NUMBER"])
    expect(r.rows).toEqual([[1, 4, 1]])
    expect((await conn.execute("SELECT TRUNC(CASE WHEN x = 1 THEN ts END) FROM dte")).rows).toEqual([[day("2024-01-02T00:00:00")]])
  })

  it("a TIMESTAMP scalar subquery minus a TIMESTAMP is an INTERVAL DAY TO SECOND (was ORA-00932)", async () => {
    const r = await conn.execute("SELECT ts2 - (SELECT MAX(ts) FROM dte), (SELECT MAX(ts) FROM dte) - ts2 FROM dte", [], {
      fetchTypeHandler: (m: { dbType?: unknown }) => (m.dbType === oracledb.DB_TYPE_INTERVAL_DS ? { type: oracledb.DB_TYPE_INTERVAL_DS } : undefined)
    })
    expect(typeNames(r)).toEqual([DS, DS])
    expect(intervalRows(r.rows ?? [])).toEqual([[ds(1, 11, 59, 59, 750000000), ds(-1, -11, -59, -59, -750000000)]])
  })

  it("TIMESTAMP ± n is a DATE of the TIMESTAMP converted to DATE, its fraction dropped (was rounded to the next second)", async () => {
    // a TIMESTAMP + 1 loses its fractional seconds, truncated (Packt, "Developing Robust Date and Time Oriented
    // Applications in Oracle Cloud", "TIMESTAMP arithmetic": LOCALTIMESTAMP 07:08:49.847 + 1 gives 07:08:49)
    const r = await conn.execute("SELECT ts + 1, ts - 1, 1 + ts FROM dte")
    expect(typeNames(r)).toEqual(["DATE", "DATE", "DATE"])
    expect(r.rows).toEqual([[day("2024-01-03T00:00:00"), day("2024-01-01T00:00:00"), day("2024-01-03T00:00:00")]])
  })

  it("PL/SQL: a TIMESTAMP variable ± n is a DATE without the fraction", async () => {
    const r = await conn.execute(
      "DECLARE t TIMESTAMP := '2024-01-02 00:00:00.5'; c DATE; BEGIN c := t + 1; :o := TO_CHAR(c, 'YYYY-MM-DD HH24:MI:SS') || ' ' || TO_CHAR(t - 1, 'YYYY-MM-DD HH24:MI:SS'); END;",
      { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } }
    )
    expect((r.outBinds as { o: string }).o).toBe("2024-01-03 00:00:00 2024-01-01 00:00:00")
  })

  it("PL/SQL: TO_CHAR and || of a cursor row's INTERVAL field print Oracle's interval text at the column's precisions (were the engine's `1 day 11:59:59.75`)", async () => {
    await conn.execute("CREATE TABLE dte_iv (i INTERVAL DAY(3) TO SECOND(2), y INTERVAL YEAR(3) TO MONTH)")
    await conn.execute("INSERT INTO dte_iv VALUES (INTERVAL '1 02:00:00.5' DAY TO SECOND, INTERVAL '1-2' YEAR TO MONTH)")
    const out = { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 } }
    const text = async (block: string) => ((await conn.execute(block, out)).outBinds as { o: string }).o
    // a TIMESTAMP difference is described as INTERVAL DAY(9) TO SECOND(6) (oracle-timestamp-difference.test.ts)
    expect(await text("DECLARE CURSOR cur IS SELECT ts2 - ts d FROM dte; BEGIN FOR r IN cur LOOP :o := TO_CHAR(r.d); END LOOP; END;")).toBe("+000000001 11:59:59.750000")
    expect(await text("BEGIN FOR r IN (SELECT i, y FROM dte_iv) LOOP :o := TO_CHAR(r.i) || '|' || TO_CHAR(r.y) || '|' || r.i; END LOOP; END;")).toBe("+001 02:00:00.50|+001-02|+001 02:00:00.50")
  })

  it("DECODE whose first result is NULL is a VARCHAR2: a zoned later result in the session's NLS format (was TIMESTAMP WITH TIME ZONE)", async () => {
    // "If the first result is null, then Oracle converts the return value to the data type VARCHAR2" (SQL Language
    // Reference, "DECODE": https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/DECODE.html)
    const r = await conn.execute("SELECT DECODE(x, 1, NULL, tz), DECODE(x, 2, NULL, tz) FROM dte_tz")
    expect(typeNames(r)).toEqual(["VARCHAR2", "VARCHAR2"])
    expect(r.rows).toEqual([[null, "02-JAN-24 12.00.00.000000 AM +02:00"]])
  })

  it("COALESCE of a character first argument and a datetime is ORA-00932 (was ORA-01861, or the DATE converted)", async () => {
    // COALESCE converts only numeric arguments; the others must be of one data type family (SQL Language Reference,
    // "COALESCE": https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/COALESCE.html); NVL converts
    expect((await failure(() => conn.execute("SELECT COALESCE(s, tz) FROM dte_tz"))).message).toMatch(/^ORA-00932: inconsistent datatypes: expected CHAR got TIMESTAMP WITH TIME ZONE/)
    expect(oraCode(await failure(() => conn.execute("SELECT COALESCE(s, d) FROM dte, dte_tz")))).toBe("ORA-00932")
    expect((await conn.execute("SELECT NVL(s, tz) FROM dte_tz")).rows).toEqual([["abc"]])
  })
})
