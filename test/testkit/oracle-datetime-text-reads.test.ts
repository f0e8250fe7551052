import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

/** Rows of the large request: above the size from which executeMany requests are decoded while they arrive. */
const ROWS = 20_000

// Text where Oracle expects a DATE / TIMESTAMP / TIMESTAMP WITH TIME ZONE is converted implicitly in the session's
// NLS_DATE_FORMAT / NLS_TIMESTAMP_FORMAT / NLS_TIMESTAMP_TZ_FORMAT (SQL Language Reference, "Implicit Data
// Conversion", "Data Type Comparison Rules", "CAST"), text the format does not read failing as TO_DATE fails it;
// before, DuckDB's own cast failed `01-JAN-24` with ORA-01722 and read `2024-01-01` under DD-MON-RR.
describe("Oracle test server: text read as a datetime where one is expected (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE TABLE dtr (id NUMBER(6), d DATE, t TIMESTAMP(3), z TIMESTAMP(2) WITH TIME ZONE)`)
  })
  afterAll(() => closeConnection({ server, conn }))

  const shown = async (where = "") =>
    (await conn.execute(`SELECT id, TO_CHAR(d, 'YYYY-MM-DD HH24:MI:SS'), TO_CHAR(t, 'YYYY-MM-DD HH24:MI:SS.FF3'), TO_CHAR(z, 'YYYY-MM-DD HH24:MI:SS.FF2 TZH:TZM') FROM dtr ${where} ORDER BY id`)).rows
  const ids = async (where: string, binds: unknown = []) => (await conn.execute(`SELECT id FROM dtr WHERE ${where} ORDER BY id`, binds)).rows.map((r: Array<number>) => r[0])
  const fails = async (sql: string, binds: unknown = []) => {
    try {
      await conn.execute(sql, binds)
    } catch (e) {
      return (e as Error).message.split("\n")[0]
    }
    return "no error"
  }

  it("INSERT and UPDATE read a literal in the session's formats", async () => {
    await conn.execute(`DELETE FROM dtr`)
    await conn.execute(`INSERT INTO dtr (id, d, t, z) VALUES (1, '01-JAN-24', '01-JAN-24 01.02.03.500000 PM', '01-JAN-24 01.02.03.500000 PM +02:00')`)
    await conn.execute(`INSERT INTO dtr VALUES (2, '02-FEB-24', NULL, NULL)`)
    await conn.execute(`UPDATE dtr SET d = '15-MAR-24', t = '15-MAR-24 11.00.00.000000 PM' WHERE id = 2`)
    await conn.execute(`MERGE INTO dtr USING dual ON (id = 3) WHEN NOT MATCHED THEN INSERT (id, d) VALUES (3, '20-APR-24')`)
    expect(await shown()).toEqual([
      [1, "2024-01-01 00:00:00", "2024-01-01 13:02:03.500", "2024-01-01 13:02:03.50 +02:00"],
      [2, "2024-03-15 00:00:00", "2024-03-15 23:00:00.000", null],
      [3, "2024-04-20 00:00:00", null, null]
    ])
  })

  it("comparisons, BETWEEN and IN read a literal as the column's type; CAST reads it in the format", async () => {
    expect(await ids(`d = '15-MAR-24'`)).toEqual([2])
    expect(await ids(`d > '01-JAN-24'`)).toEqual([2, 3])
    expect(await ids(`'01-JAN-24' < dtr.d`)).toEqual([2, 3])
    expect(await ids(`d BETWEEN '01-FEB-24' AND '31-MAR-24'`)).toEqual([2])
    expect(await ids(`d NOT IN ('15-MAR-24', '20-APR-24')`)).toEqual([1])
    expect(await ids(`t >= '15-MAR-24 11.00.00.000000 PM'`)).toEqual([2])
    expect(await ids(`TRUNC(d, 'MM') = '01-MAR-24' OR ADD_MONTHS(d, 1) <= '01-FEB-24'`)).toEqual([1, 2])
    expect(await ids(`SYSDATE > '01-JAN-24' AND '01-JAN-24' = TRUNC(d)`)).toEqual([1])
    expect(await ids(`z = '01-JAN-24 01.02.03.500000 PM +02:00'`)).toEqual([1])
    const cast = await conn.execute(`SELECT TO_CHAR(CAST('01-JAN-24' AS DATE), 'YYYY-MM-DD'), TO_CHAR(CAST('01-JAN-24 01.02.03.5 PM' AS TIMESTAMP(1)), 'HH24:MI:SS.FF1') FROM dual`)
    expect(cast.rows).toEqual([["2024-01-01", "13:02:03.5"]])
  })

  it("text the format does not read fails with TO_DATE's errors", async () => {
    expect(await fails(`INSERT INTO dtr (id, d) VALUES (9, '2024-01-01')`)).toMatch(/^ORA-01861/)
    expect(await fails(`SELECT id FROM dtr WHERE d = 'xyz'`)).toMatch(/^ORA-01858/)
    expect(await fails(`SELECT CAST('01-XXX-24' AS DATE) FROM dual`)).toMatch(/^ORA-01843/)
  })

  it("character binds are read in the session's format, through execute and executeMany", async () => {
    expect(await ids(`d = :s`, ["15-MAR-24"])).toEqual([2])
    expect(await ids(`t < :s`, ["01-FEB-24 12.00.00.000000 AM"])).toEqual([1])
    await conn.execute(`INSERT INTO dtr (id, d) VALUES (4, :s)`, ["05-MAY-24"])
    await conn.executeMany(`INSERT INTO dtr (id, d, t) VALUES (:1, :2, :3)`, [[5, "06-JUN-24", "06-JUN-24 01.02.03.000000 AM"], [6, "07-JUL-24", null]])
    await conn.executeMany(`UPDATE dtr SET d = :1 WHERE id = :2`, [["08-AUG-24", 6]], { bindDefs: [{ type: oracledb.STRING, maxSize: 20 }, { type: oracledb.NUMBER }] })
    expect(await shown(`WHERE id >= 4`)).toEqual([
      [4, "2024-05-05 00:00:00", null, null],
      [5, "2024-06-06 00:00:00", "2024-06-06 01:02:03.000", null],
      [6, "2024-08-08 00:00:00", null, null]
    ])
  })

  it("a large executeMany of strings into DATE and TIMESTAMP columns reads each in the session's format", async () => {
    await conn.execute(`DELETE FROM dtr`)
    const rows = Array.from({ length: ROWS }, (_, i) => [i, `${String((i % 28) + 1).padStart(2, "0")}-MAR-24`, "01-JAN-24 01.02.03.250000 PM"])
    await conn.executeMany(`INSERT INTO dtr (id, d, t) VALUES (:1, :2, :3)`, rows)
    const r = await conn.execute(`SELECT COUNT(*), TO_CHAR(MIN(d), 'YYYY-MM-DD'), TO_CHAR(MAX(d), 'YYYY-MM-DD'), TO_CHAR(MAX(t), 'YYYY-MM-DD HH24:MI:SS.FF3') FROM dtr`)
    expect(r.rows).toEqual([[ROWS, "2024-03-01", "2024-03-28", "2024-01-01 13:02:03.250"]])
  })

  it("PL/SQL blocks' SQL reads text in the session's format", async () => {
    await conn.execute(`DELETE FROM dtr`)
    await conn.execute(`BEGIN INSERT INTO dtr (id, d) VALUES (10, '07-FEB-24'); UPDATE dtr SET d = '08-FEB-24' WHERE id = 10; END;`)
    const out = await conn.execute(`DECLARE n NUMBER; BEGIN SELECT COUNT(*) INTO n FROM dtr WHERE d = '08-FEB-24' AND d < :s; :o := n; END;`, {
      s: "09-FEB-24",
      o: { dir: oracledb.BIND_OUT, type: oracledb.NUMBER }
    })
    expect(out.outBinds.o).toBe(1)
  })

  // a date difference is a NUMBER of days and a date joined by || text ("Datetime/Interval Arithmetic",
  // "Concatenation Operator"): text compared with either is read as that, not as a date; a date minus a number is a DATE
  it("a datetime inside a larger operand is compared by that operand's type", async () => {
    await conn.execute(`CREATE TABLE dts (id NUMBER(6), start_d DATE, end_d DATE)`)
    await conn.execute(`INSERT INTO dts VALUES (1, DATE '2024-01-01', DATE '2024-03-01')`)
    await conn.execute(`INSERT INTO dts VALUES (2, DATE '2024-01-01', DATE '2024-01-11')`)
    const dts = async (where: string, binds: unknown = []) => (await conn.execute(`SELECT id FROM dts WHERE ${where} ORDER BY id`, binds)).rows.map((r: Array<number>) => r[0])
    expect(await dts(`end_d - start_d > :days`, ["30"])).toEqual([1])
    expect(await dts(`SYSDATE - start_d > '7' AND end_d - start_d < '30'`)).toEqual([2])
    expect(await dts(`end_d - start_d BETWEEN :lo AND :hi`, ["5", "20"])).toEqual([2])
    expect(await dts(`end_d - start_d NOT IN ('10', '11')`)).toEqual([1])
    expect(await dts(`:s = end_d || 'x'`, ["01-MAR-24x"])).toEqual([1])
    expect(await dts(`'15-JAN-24' < end_d - 1 AND start_d + 1 = '02-JAN-24'`)).toEqual([1])
  })

  it("a subquery's or WITH block's text named like a DATE column is compared as text", async () => {
    await conn.execute(`DELETE FROM dtr`)
    await conn.execute(`INSERT INTO dtr (id, d) VALUES (1, '15-MAR-24')`)
    const view = `(SELECT id, TO_CHAR(d, 'YYYY-MM-DD') d FROM dtr WHERE d > '01-JAN-24')`
    expect((await conn.execute(`SELECT id FROM ${view} WHERE d = '2024-03-15'`)).rows).toEqual([[1]])
    expect((await conn.execute(`WITH x AS (SELECT id, TO_CHAR(d, 'YYYY') d FROM dtr) SELECT id FROM x WHERE d = :y`, ["2024"])).rows).toEqual([[1]])
  })

  // the expansion of `:n > ANY (a, b)` writes :n once per item: the binds after it keep their numbers
  it("binds after a quantified list are numbered as they stand in the statement", async () => {
    expect((await conn.execute(`UPDATE dtr SET id = id WHERE :n > ANY (id, 2) AND d = :s`, [5, "15-MAR-24"])).rowsAffected).toBe(1)
    const dated = { type: oracledb.DB_TYPE_DATE, val: new Date(2024, 2, 15) }
    expect(await ids(`:n > ANY (id, 2) AND TO_CHAR(:dt) = '15-MAR-24'`, { n: 5, dt: dated })).toEqual([1])
  })

  it("after ALTER SESSION SET NLS_DATE_FORMAT, text is read in the new format", async () => {
    await conn.execute(`ALTER SESSION SET NLS_DATE_FORMAT = 'YYYY-MM-DD'`)
    try {
      await conn.execute(`INSERT INTO dtr (id, d) VALUES (11, '2024-04-05')`)
      await conn.executeMany(`INSERT INTO dtr (id, d) VALUES (:1, :2)`, [[12, "2024-04-06"]])
      expect(await ids(`d >= '2024-04-05'`)).toEqual([11, 12])
      expect(await ids(`d = :s`, ["2024-04-06"])).toEqual([12])
      expect(await fails(`SELECT id FROM dtr WHERE d = '2024-13-01'`)).toMatch(/^ORA-01843/)
    } finally {
      await conn.execute(`ALTER SESSION SET NLS_DATE_FORMAT = 'DD-MON-RR'`)
    }
  })
})
