import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"
import { laidOut } from "../../testkit/oracle/bulk-insert.ts"

// "Datetime Format Elements", FF: "If you do not specify a digit, then Oracle Database uses the precision specified for
// the datetime data type or the data type's default precision" (SQL Language Reference); a CAST to TIMESTAMP(p) gives a
// value of that precision, its fraction rounded to p digits (testkit/oracle/fraction-precision.ts on the rounding).
describe("Oracle test server: FF prints the precision a TIMESTAMP is described with; CAST to TIMESTAMP(p) applies it (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE TABLE tfp (a TIMESTAMP(0), b TIMESTAMP(3), c TIMESTAMP(9))`)
    await conn.execute(`INSERT INTO tfp VALUES (TIMESTAMP '2024-01-01 10:00:05', TIMESTAMP '2024-01-01 10:00:00.123', TIMESTAMP '2024-01-01 10:00:00.123456789')`)
  })
  afterAll(() => closeConnection({ server, conn }))

  it("TO_CHAR's FF of a column prints its declared digits", async () => {
    const r = await conn.execute(`SELECT TO_CHAR(a, 'HH24:MI:SS.FF'), TO_CHAR(b, 'SS.FF'), TO_CHAR(c, 'SS.FF'), TO_CHAR(b, 'SS.FF5 "FF"') FROM tfp`)
    expect(r.rows).toEqual([["10:00:05.", "00.123", "00.123456789", "00.12300 FF"]])
  })

  it("CAST to TIMESTAMP(p) rounds the fraction to p digits, and FF prints p digits", async () => {
    const r = await conn.execute(
      `SELECT TO_CHAR(CAST(TIMESTAMP '2024-01-01 10:00:00.56' AS TIMESTAMP(1)), 'SS.FF'), ` +
        `TO_CHAR(CAST(TIMESTAMP '2024-01-01 10:00:00.7' AS TIMESTAMP(0)), 'HH24:MI:SS'), ` +
        `TO_CHAR(CAST(TIMESTAMP '2024-12-31 23:59:59.9996' AS TIMESTAMP(3)), 'YYYY-MM-DD HH24:MI:SS.FF'), ` +
        `TO_CHAR(CAST(TIMESTAMP '1960-01-01 10:00:00.25' AS TIMESTAMP(1)), 'SS.FF'), ` +
        `CAST(TIMESTAMP '2024-01-01 10:00:00.5' AS TIMESTAMP(2)) || '', TO_CHAR(CAST(TIMESTAMP '2024-01-01 10:00:00.5' AS TIMESTAMP(2))) FROM dual`
    )
    expect(r.rows).toEqual([["00.6", "10:00:01", "2025-01-01 00:00:00.000", "00.3", "01-JAN-24 10.00.00.50 AM", "01-JAN-24 10.00.00.50 AM"]])
    const fetched = await conn.execute(`SELECT CAST(TIMESTAMP '2024-01-01 10:00:00.7' AS TIMESTAMP(0)) FROM dual`)
    expect((fetched.rows[0][0] as Date).getSeconds()).toBe(1)
  })

  // a TIMESTAMP literal and TO_TIMESTAMP's value show nine digits (TechOnTheNet "TO_TIMESTAMP Function": '13-DEC-03
  // 10.13.18.000000000 AM'; testkit/oracle/fraction-precision.ts on the literal, unconfirmed), LOCALTIMESTAMP six
  it("FF and the session's format print nine digits for a TIMESTAMP literal and TO_TIMESTAMP", async () => {
    const r = await conn.execute(
      `SELECT TO_CHAR(TIMESTAMP '2024-01-01 10:00:00.12', 'SS.FF'), TO_CHAR(TIMESTAMP '2024-01-01 10:00:00.12'), TIMESTAMP '2024-01-01 10:00:00.5' || '', ` +
        `TO_CHAR(TO_TIMESTAMP('2024-01-01 10:00:00.12', 'YYYY-MM-DD HH24:MI:SS.FF'), 'SS.FF'), TO_CHAR(TIMESTAMP '2024-01-01 10:00:00.12 +01:00', 'SS.FF'), ` +
        `LENGTH(TO_CHAR(LOCALTIMESTAMP, 'FF')) FROM dual`
    )
    expect(r.rows).toEqual([["00.120000000", "01-JAN-24 10.00.00.120000000 AM", "01-JAN-24 10.00.00.500000000 AM", "00.120000000", "00.120000000", 6]])
  })

  it("FF of a qualified column prints its own table's precision where two tables declare the name differently", async () => {
    await conn.execute(`CREATE TABLE tfq1 (id NUMBER, ts TIMESTAMP(2))`)
    await conn.execute(`CREATE TABLE tfq2 (id NUMBER, ts TIMESTAMP(4))`)
    await conn.execute(`INSERT INTO tfq1 VALUES (1, TIMESTAMP '2024-01-01 10:00:00.12')`)
    await conn.execute(`INSERT INTO tfq2 VALUES (1, TIMESTAMP '2024-01-01 10:00:00.1234')`)
    const r = await conn.execute(
      `SELECT TO_CHAR(a.ts, 'SS.FF'), TO_CHAR(b.ts, 'SS.FF'), a.ts || '', TO_CHAR(b.ts), TO_CHAR(tfq1.ts, 'FF') FROM tfq1 a JOIN tfq2 b ON a.id = b.id, tfq1`
    )
    expect(r.rows).toEqual([["00.12", "00.1234", "01-JAN-24 10.00.00.12 AM", "01-JAN-24 10.00.00.1234 AM", "12"]])
  })

  // a PL/SQL TIMESTAMP(p) variable holds its value at p digits, rounded as a column of that type stores it, and FF
  // prints p digits ("the precision specified for the datetime data type", "Datetime Format Elements")
  it("a PL/SQL TIMESTAMP(p) variable rounds what it is given to p digits, and FF prints p digits", async () => {
    const r = await conn.execute(
      `DECLARE v TIMESTAMP(3) := TIMESTAMP '2024-01-01 10:00:00.1236'; w TIMESTAMP(0); u TIMESTAMP(2); BEGIN ` +
        `w := TIMESTAMP '2024-12-31 23:59:59.7'; SELECT TIMESTAMP '2024-01-01 10:00:00.125' INTO u FROM dual; ` +
        `:o := TO_CHAR(v, 'SS.FF') || '|' || TO_CHAR(v) || '|' || TO_CHAR(v, 'SS.FF9') || '|' || TO_CHAR(w, 'YYYY-MM-DD HH24:MI:SS') || '|' || TO_CHAR(u, 'SS.FF'); END;`,
      { o: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 200 } }
    )
    expect(r.outBinds.o).toBe("00.124|01-JAN-24 10.00.00.124 AM|00.124000000|2025-01-01 00:00:00|00.13")
  })

  // the CAST's value is of the type it names (SQL Language Reference, "CAST"), which node-oracledb's metadata gives as
  // the fractional second precision of a TIMESTAMP ("precision ... set only for DB_TYPE_NUMBER, DB_TYPE_TIMESTAMP, ...")
  it("a CAST to TIMESTAMP(p) is described as TIMESTAMP(p), as a select item and through an inline view", async () => {
    const described = async (sql: string) =>
      ((await conn.execute(sql)).metaData as Array<{ dbTypeName: string; precision: number }>).map((m) => [m.dbTypeName, m.precision])
    expect(await described(
      `SELECT CAST(TIMESTAMP '2024-01-01 10:00:00.126' AS TIMESTAMP(2)), CAST(b AS TIMESTAMP(0)) x, CAST(a AS TIMESTAMP(9)) AS y, CAST(b AS TIMESTAMP) FROM tfp`
    )).toEqual([["TIMESTAMP", 2], ["TIMESTAMP", 0], ["TIMESTAMP", 9], ["TIMESTAMP", 6]])
    expect(await described(`SELECT * FROM (SELECT CAST(b AS TIMESTAMP(1)) c FROM tfp)`)).toEqual([["TIMESTAMP", 1]])
  })

  // A value with more fractional digits than the column stores is rounded when it is written ("If you try to add a row
  // with more digits in your fractional second than your TIMESTAMP can store, your fraction is rounded", Oracle
  // Database 10g SQL, Oracle Press, quoted by java2s.com "Use timestamps"), so fetches, FF and comparisons see it
  it("a value written into a TIMESTAMP(0-5) column is rounded to the column's precision, by every kind of write", async () => {
    await conn.execute(`CREATE TABLE tfw (id NUMBER, a TIMESTAMP(3), b TIMESTAMP(1), z TIMESTAMP(0))`)
    const at = (ms: number) => new Date(Date.UTC(2024, 0, 1, 10, 0, 0, ms))
    await conn.execute(`INSERT INTO tfw VALUES (1, TIMESTAMP '2024-01-01 10:00:00.1236', TIMESTAMP '2024-01-01 10:00:00.25', TIMESTAMP '2024-01-01 10:00:00.5')`)
    await conn.execute(`INSERT INTO tfw VALUES (2, :1, :2, :3)`, [at(567), at(560), at(499)])
    await conn.executeMany(`INSERT INTO tfw VALUES (:1, :2, :3, :4)`, [[3, at(567), at(560), at(500)]], {
      bindDefs: [{ type: oracledb.NUMBER }, { type: oracledb.DB_TYPE_TIMESTAMP }, { type: oracledb.DB_TYPE_TIMESTAMP }, { type: oracledb.DB_TYPE_TIMESTAMP }]
    })
    await conn.execute(`INSERT INTO tfw (id) VALUES (4)`)
    await conn.execute(`UPDATE tfw SET b = TIMESTAMP '2024-01-01 10:00:00.95', z = TIMESTAMP '2024-01-01 10:00:00.7' WHERE id = 4`)
    await conn.execute(`MERGE INTO tfw USING dual ON (id = 4) WHEN MATCHED THEN UPDATE SET a = TIMESTAMP '2024-01-01 10:00:00.9996'`)
    const r = await conn.execute(`SELECT id, TO_CHAR(a, 'SS.FF9'), TO_CHAR(b, 'SS.FF9'), TO_CHAR(z, 'SS.FF9'), TO_CHAR(a, 'SS.FF') FROM tfw ORDER BY id`)
    expect(r.rows).toEqual([
      [1, "00.124000000", "00.300000000", "01.000000000", "00.124"],
      [2, "00.567000000", "00.600000000", "00.000000000", "00.567"],
      [3, "00.567000000", "00.600000000", "01.000000000", "00.567"],
      [4, "01.000000000", "01.000000000", "01.000000000", "01.000"]
    ])
    const fetched = await conn.execute(`SELECT a, b FROM tfw WHERE id = 1`)
    expect((fetched.rows[0] as Array<Date>).map((d) => d.getUTCMilliseconds())).toEqual([124, 300])
    const compared = await conn.execute(`SELECT COUNT(*) FROM tfw WHERE a = TIMESTAMP '2024-01-01 10:00:00.124' AND b = TIMESTAMP '2024-01-01 10:00:00.3'`)
    expect(compared.rows).toEqual([[1]])
  })

  it("executeMany keeps its column-wise path into TIMESTAMP(0-5) columns for values that fit, and rounds the others", async () => {
    await conn.execute(`CREATE TABLE tfm (id NUMBER(10), a TIMESTAMP(3), b TIMESTAMP(1))`)
    const rows = Array.from({ length: 2000 }, (_, k) => [k, new Date(Date.UTC(2024, 0, 1, 10, 0, 0, k % 1000)), new Date(Date.UTC(2024, 0, 1, 10, 0, 0, 100 * (k % 10)))])
    const bindDefs = [{ type: oracledb.NUMBER }, { type: oracledb.DB_TYPE_TIMESTAMP }, { type: oracledb.DB_TYPE_TIMESTAMP }]
    const before = laidOut.rows
    await conn.executeMany(`INSERT INTO tfm VALUES (:1, :2, :3)`, rows, { bindDefs })
    expect(laidOut.rows - before).toBe(rows.length)
    // 10:00:00.xx5 into TIMESTAMP(1): more digits than the column keeps, so the general path stores them rounded
    await conn.executeMany(`INSERT INTO tfm VALUES (:1, :2, :3)`, rows.map(([k, a]) => [Number(k) + 2000, a, new Date(Date.UTC(2024, 0, 1, 10, 0, 0, 250))]), { bindDefs })
    expect(laidOut.rows - before).toBe(rows.length)
    const r = await conn.execute(`SELECT COUNT(*), COUNT(DISTINCT a), MIN(TO_CHAR(b, 'SS.FF9')), MAX(TO_CHAR(b, 'SS.FF9')) FROM tfm WHERE id >= 2000`)
    expect(r.rows).toEqual([[2000, 1000, "00.300000000", "00.300000000"]])
    const fast = await conn.execute(`SELECT TO_CHAR(a, 'SS.FF'), TO_CHAR(b, 'SS.FF') FROM tfm WHERE id = 1234`)
    expect(fast.rows).toEqual([["00.234", "00.4"]])
  })

  it("executeMany's rows decoded straight from their bytes into a TIMESTAMP(0-5) column are rounded too", async () => {
    await conn.execute(`CREATE TABLE tfs (id NUMBER(10), b TIMESTAMP(1))`)
    const sql = `INSERT INTO tfs VALUES (:1, :2)`
    const bindDefs = [{ type: oracledb.NUMBER }, { type: oracledb.DB_TYPE_TIMESTAMP }]
    const rowsOf = (ms: (k: number) => number) => Array.from({ length: 60_000 }, (_, k) => [k, new Date(Date.UTC(2024, 0, 1, 10, 0, 0, ms(k)))])
    // the statement's first request may arrive whole before its append target is known (then it is decoded as values)
    await conn.executeMany(sql, rowsOf((k) => 100 * (k % 10)).slice(0, 10), { bindDefs })
    await conn.execute(`DELETE FROM tfs`)
    const before = laidOut.straight
    await conn.executeMany(sql, rowsOf((k) => 100 * (k % 10)), { bindDefs })
    expect(laidOut.straight - before).toBe(60_000)
    await conn.execute(`DELETE FROM tfs`)
    await conn.executeMany(sql, rowsOf((k) => (k % 2 === 0 ? 250 : 300)), { bindDefs })
    expect(laidOut.straight - before).toBe(60_000)
    const r = await conn.execute(`SELECT COUNT(*), MIN(TO_CHAR(b, 'SS.FF9')), MAX(TO_CHAR(b, 'SS.FF9')) FROM tfs`)
    expect(r.rows).toEqual([[60_000, "00.300000000", "00.300000000"]])
    await conn.rollback()
  })
})
