import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

// INTERVAL DAY TO SECOND(7-9) and YEAR(9) TO MONTH columns are stored as exact numbers (testkit/oracle/intervals.ts);
// a datetime ± such a column adds the interval: "DATE + INTERVAL" gives a DATE and "TIMESTAMP + INTERVAL" a TIMESTAMP
// (SQL Language Reference, "Datetime/Interval Arithmetic", Table "Matrix of Datetime Arithmetic").
describe("Oracle test server: datetime ± wide interval columns, and TIMESTAMP(9) writes of text (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE wide_ivl (id NUMBER, d DATE, t TIMESTAMP, t9 TIMESTAMP(9), ds INTERVAL DAY(9) TO SECOND(9), ym INTERVAL YEAR(9) TO MONTH)")
    await conn.execute(
      "INSERT INTO wide_ivl VALUES (1, DATE '2024-01-15', TIMESTAMP '2024-01-15 10:00:00.25', TIMESTAMP '2024-01-15 10:00:00.000000001', INTERVAL '1 02:03:04' DAY TO SECOND, INTERVAL '1-2' YEAR TO MONTH)"
    )
    await conn.execute("INSERT INTO wide_ivl VALUES (2, DATE '2024-01-15', TIMESTAMP '2024-01-15 10:00:00', TIMESTAMP '2024-01-15 10:00:00.000000001', INTERVAL '0 00:00:00.000000002' DAY TO SECOND, NULL)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("adds and subtracts the interval, a DATE giving a DATE and a TIMESTAMP a TIMESTAMP", async () => {
    const f = "'YYYY-MM-DD HH24:MI:SS'"
    const r = await conn.execute(
      `SELECT TO_CHAR(d + ds, ${f}), TO_CHAR(d - ds, ${f}), TO_CHAR(ds + d, ${f}), TO_CHAR(d + ym, ${f}), TO_CHAR(d - ym, ${f}), ` +
        `TO_CHAR(t + ds, 'YYYY-MM-DD HH24:MI:SS.FF3'), TO_CHAR(t + ym, 'YYYY-MM-DD HH24:MI:SS.FF3'), TO_CHAR(t9 + ds, 'YYYY-MM-DD HH24:MI:SS.FF9') FROM wide_ivl WHERE id = 1`
    )
    expect(r.rows).toEqual([
      ["2024-01-16 02:03:04", "2024-01-13 21:56:56", "2024-01-16 02:03:04", "2025-03-15 00:00:00", "2022-11-15 00:00:00", "2024-01-16 12:03:04.250", "2025-03-15 10:00:00.250", "2024-01-16 12:03:04.000000001"]
    ])
    const typed = await conn.execute("SELECT d + ds, t + ds, d + ym, t - ym FROM wide_ivl WHERE id = 1")
    expect(typed.metaData.map((m: any) => m.dbType)).toEqual([oracledb.DB_TYPE_DATE, oracledb.DB_TYPE_TIMESTAMP, oracledb.DB_TYPE_DATE, oracledb.DB_TYPE_TIMESTAMP])
    expect(typed.rows![0]![0]).toEqual(new Date(2024, 0, 16, 2, 3, 4))
  })

  it("adds an interval literal to a timestamp in a statement over such a table", async () => {
    const r = await conn.execute("SELECT TO_CHAR(t + INTERVAL '1' HOUR, 'YYYY-MM-DD HH24:MI:SS'), TO_CHAR(d + INTERVAL '1-1' YEAR TO MONTH, 'YYYY-MM-DD') FROM wide_ivl WHERE id = 1")
    expect(r.rows).toEqual([["2024-01-15 11:00:00", "2025-02-15"]])
  })

  it("adds the nanoseconds of a DAY TO SECOND(9) column to a TIMESTAMP (was ORA-00932); a DATE drops them as Oracle does", async () => {
    const f = "'YYYY-MM-DD HH24:MI:SS.FF9'"
    const ns = await conn.execute(`SELECT TO_CHAR(t + ds, ${f}), TO_CHAR(t9 - ds, ${f}), TO_CHAR(ds + t9, ${f}), t + ds FROM wide_ivl WHERE id = 2`)
    expect(ns.rows![0]!.slice(0, 3)).toEqual(["2024-01-15 10:00:00.000000002", "2024-01-15 09:59:59.999999999", "2024-01-15 10:00:00.000000003"])
    expect(ns.metaData[3].dbType).toBe(oracledb.DB_TYPE_TIMESTAMP)
    const zoned = await conn.execute(`SELECT TO_CHAR(TIMESTAMP '2024-03-31 01:59:59.999999999 Europe/Berlin' + ds, 'YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM') FROM wide_ivl WHERE id = 2`)
    expect(zoned.rows).toEqual([["2024-03-31 03:00:00.000000001 +02:00"]])
    // "If the other operand has a fractional seconds value, then the fractional seconds value is lost" (SQL Language
    // Reference, "Datetime/Interval Arithmetic")
    const r = await conn.execute("SELECT TO_CHAR(d + ds, 'YYYY-MM-DD HH24:MI:SS'), TO_CHAR(d - ds, 'YYYY-MM-DD HH24:MI:SS') FROM wide_ivl WHERE id = 2")
    expect(r.rows).toEqual([["2024-01-15 00:00:00", "2024-01-15 00:00:00"]])
  })

  it("adds narrower interval columns (stored as DuckDB INTERVAL) to datetimes too", async () => {
    await conn.execute("CREATE TABLE narrow_ivl (d DATE, t TIMESTAMP, ds INTERVAL DAY TO SECOND, ym INTERVAL YEAR TO MONTH)")
    await conn.execute("INSERT INTO narrow_ivl VALUES (DATE '2024-01-15', TIMESTAMP '2024-01-15 10:00:00', INTERVAL '1 02:03:04' DAY TO SECOND, INTERVAL '1-2' YEAR TO MONTH)")
    const r = await conn.execute("SELECT TO_CHAR(d + ds, 'YYYY-MM-DD HH24:MI:SS'), TO_CHAR(t - ym, 'YYYY-MM-DD HH24:MI:SS'), d + ym, t + ds FROM narrow_ivl")
    expect(r.rows![0]!.slice(0, 2)).toEqual(["2024-01-16 02:03:04", "2022-11-15 10:00:00"])
    expect(r.metaData.slice(2).map((m: any) => m.dbType)).toEqual([oracledb.DB_TYPE_DATE, oracledb.DB_TYPE_TIMESTAMP])
    await conn.rollback()
  })

  // Every other datetime column refuses text that is no datetime on write; TIMESTAMP(9) (kept as text) does too:
  // ORA-01861 "literal does not match format string", the table left as it was.
  it("refuses text that is no datetime written into a TIMESTAMP(9) column, by every write path", async () => {
    await conn.execute("CREATE TABLE ts9_text (id NUMBER, t TIMESTAMP(9))")
    await conn.execute("CREATE TABLE ts9_src (s VARCHAR2(20))")
    await conn.execute("INSERT INTO ts9_text VALUES (1, TIMESTAMP '2024-01-15 10:00:00.123456789')")
    await conn.execute("INSERT INTO ts9_src VALUES ('garbage')")
    await conn.commit()
    const writes: ReadonlyArray<[string, Record<string, unknown> | Array<unknown>]> = [
      ["INSERT INTO ts9_text VALUES (2, 'not a date')", []],
      ["UPDATE ts9_text SET t = 'not a date' WHERE id = 1", []],
      ["INSERT INTO ts9_text (id, t) SELECT 3, s FROM ts9_src", []],
      ["INSERT INTO ts9_text VALUES (:1, :2)", [4, "not a date"]],
      ["UPDATE ts9_text SET t = :t WHERE id = 1", { t: "garbage" }]
    ]
    for (const [sql, binds] of writes) await expect(conn.execute(sql, binds), sql).rejects.toThrow(/ORA-01861/)
    await expect(conn.executeMany("INSERT INTO ts9_text VALUES (:1, :2)", [[5, "2024-01-01 00:00:00"], [6, "nope"]])).rejects.toThrow(/ORA-01861/)
    await conn.rollback()
    const r = await conn.execute("SELECT id, TO_CHAR(t, 'YYYY-MM-DD HH24:MI:SS.FF9') FROM ts9_text ORDER BY id")
    expect(r.rows).toEqual([[1, "2024-01-15 10:00:00.123456789"]])
    // text that is a datetime is still taken
    await conn.execute("INSERT INTO ts9_text VALUES (7, '2024-02-29 23:59:59.999999999')")
    const ok = await conn.execute("SELECT TO_CHAR(t, 'YYYY-MM-DD HH24:MI:SS.FF9') FROM ts9_text WHERE id = 7")
    expect(ok.rows).toEqual([["2024-02-29 23:59:59.999999999"]])
    await conn.rollback()
  })
})
