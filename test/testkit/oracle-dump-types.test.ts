import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// DUMP's type codes and bytes through raw node-oracledb: columns as Oracle stores them (TIMESTAMP 180, TIMESTAMP WITH
// LOCAL TIME ZONE 231: SQL Language Reference, "Data Types"), computed datetimes in their own formats (SYSDATE 13, a
// TIMESTAMP literal 187, SYSTIMESTAMP and a zoned literal 188, 20 bytes: the Stack Overflow question "Meaning of
// Oracle's dump(systimestamp) bytes"); and a NATURAL join of tables without a common column, a cross join.
describe("Oracle test server: DUMP of datetimes, NATURAL join without common columns", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const rows = async (sql: string) => (await conn.execute(sql)).rows
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE dt_t (t9 TIMESTAMP(9), l TIMESTAMP WITH LOCAL TIME ZONE, l9 TIMESTAMP(9) WITH LOCAL TIME ZONE)")
    await conn.execute("INSERT INTO dt_t VALUES (TIMESTAMP '2024-01-02 03:04:05.123456789', TIMESTAMP '2024-01-02 03:04:05 +00:00', TIMESTAMP '2024-01-02 03:04:05.5 +00:00')")
    await conn.execute("CREATE TABLE dt_n (bd BINARY_DOUBLE, bf BINARY_FLOAT, ym INTERVAL YEAR TO MONTH, ds INTERVAL DAY TO SECOND)")
    await conn.execute("INSERT INTO dt_n VALUES (1.5, -1.5, INTERVAL '1-2' YEAR TO MONTH, INTERVAL '1 02:03:04.5' DAY TO SECOND)")
    await conn.execute("CREATE TABLE dt_x (ds9 INTERVAL DAY(9) TO SECOND(9), ym9 INTERVAL YEAR(9) TO MONTH, ds INTERVAL DAY TO SECOND)")
    await conn.execute("INSERT INTO dt_x VALUES (INTERVAL '-1 02:03:04.5' DAY TO SECOND, INTERVAL '-1-2' YEAR TO MONTH, NULL)")
    await conn.execute("CREATE TABLE dt_a (a NUMBER)")
    await conn.execute("CREATE TABLE dt_b (b NUMBER)")
    await conn.execute("INSERT INTO dt_a VALUES (1)")
    await conn.execute("INSERT INTO dt_a VALUES (2)")
    await conn.execute("INSERT INTO dt_b VALUES (3)")
    await conn.execute("CREATE TABLE dt_d (d DATE, ts TIMESTAMP, n NUMBER)")
    await conn.execute("INSERT INTO dt_d VALUES (DATE '2008-03-20', TIMESTAMP '2008-03-20 10:11:12.5', 1.5)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("SYSTIMESTAMP and CURRENT_TIMESTAMP dump as Typ=188 Len=20 (was ORA-00932)", async () => {
    const [[sys, current, sub, size]] = await rows("SELECT DUMP(SYSTIMESTAMP), DUMP(CURRENT_TIMESTAMP), DUMP((SELECT SYSTIMESTAMP FROM dual)), VSIZE(SYSTIMESTAMP) FROM dual")
    for (const d of [sys, current, sub]) expect(d).toMatch(/^Typ=188 Len=20: (\d+,){14}5,0,0,0,0,0$/)
    expect(size).toBe(20)
  })

  it("datetime literals and SYSDATE dump in their computed formats (were Typ=180 / 181 with a column's bytes)", async () => {
    expect(await rows("SELECT DUMP(TIMESTAMP '2015-07-31 08:55:06.157047'), DUMP(TIMESTAMP '2015-07-31 08:55:06.157047 +00:00'), DUMP(DATE '2015-07-31') FROM dual")).toEqual([[
      "Typ=187 Len=20: 223,7,7,31,8,55,6,0,216,88,92,9,0,0,3,0,0,0,0,0",
      "Typ=188 Len=20: 223,7,7,31,8,55,6,0,216,88,92,9,0,0,5,0,0,0,0,0",
      "Typ=13 Len=8: 223,7,7,31,0,0,0,0"
    ]])
    const [[sysdate]] = await rows("SELECT DUMP(SYSDATE) FROM dual")
    expect(sysdate).toMatch(/^Typ=13 Len=8: (\d+,){7}0$/)
  })

  // Oracle's outputs quoted: TO_DATE in the Stack Overflow answer "How are dates stored in Oracle?" (13568348),
  // TRUNC(dt, 'DD') through a view in "The dark side of the date: the type 13" (what.thedailywtf.com/topic/4023)
  it("a built-in date function's result dumps as a computed date, Typ=13 Len=8 (were Typ=12, and Typ=180 for ADD_MONTHS / LAST_DAY)", async () => {
    expect(await rows("SELECT DUMP(TO_DATE('17-DEC-1980 12:12:12', 'DD-MON-YYYY HH24:MI:SS')), DUMP(TRUNC(d, 'DD')), DUMP(TRUNC(ts)), DUMP(ROUND(d, 'MM')) FROM dt_d")).toEqual([[
      "Typ=13 Len=8: 188,7,12,17,12,12,12,0",
      "Typ=13 Len=8: 216,7,3,20,0,0,0,0",
      "Typ=13 Len=8: 216,7,3,20,0,0,0,0",
      "Typ=13 Len=8: 216,7,4,1,0,0,0,0"
    ]])
    expect(await rows("SELECT DUMP(ADD_MONTHS(d, 1)), DUMP(LAST_DAY(d)), DUMP(NEXT_DAY(d, 'MONDAY')), DUMP(d), DUMP(TRUNC(n)) FROM dt_d")).toEqual([[
      "Typ=13 Len=8: 216,7,4,20,0,0,0,0",
      "Typ=13 Len=8: 216,7,3,31,0,0,0,0",
      "Typ=13 Len=8: 216,7,3,24,0,0,0,0",
      "Typ=12 Len=7: 120,108,3,20,1,1,1",
      "Typ=2 Len=2: 193,2"
    ]])
    // VSIZE reads DUMP's length: 8 for TO_DATE's date, as Oracle reports it (dbasupport.com thread 16402 "Number Data Type")
    expect(await rows("SELECT VSIZE(TO_DATE('10/08/2001', 'MM/DD/YYYY')), VSIZE(d) FROM dt_d")).toEqual([[8, 7]])
  })

  // TIMESTAMP + number dumps as Typ=13 SQLT_DATE in "Oracle Datetime (5) - SQL Arithmetic" (ksun-oracle.blogspot.com, 2017)
  it("datetime arithmetic giving a DATE dumps as Typ=13 Len=8; a DATE difference, a number and a column do not (were Typ=12)", async () => {
    expect(await rows("SELECT DUMP(d + 0), DUMP(d - 1/24), DUMP(1 + d), DUMP(ts + 1), DUMP(d + n) FROM dt_d")).toEqual([[
      "Typ=13 Len=8: 216,7,3,20,0,0,0,0",
      "Typ=13 Len=8: 216,7,3,19,23,0,0,0",
      "Typ=13 Len=8: 216,7,3,21,0,0,0,0",
      "Typ=13 Len=8: 216,7,3,21,10,11,12,0",
      "Typ=13 Len=8: 216,7,3,21,12,0,0,0"
    ]])
    expect(await rows("SELECT DUMP(d - d), DUMP(n + 1), DUMP(d) FROM dt_d")).toEqual([["Typ=2 Len=1: 128", "Typ=2 Len=3: 193,3,51", "Typ=12 Len=7: 120,108,3,20,1,1,1"]])
  })

  // the same source: TO_TIMESTAMP(...) dumps as Typ=187 SQLT_TIMESTAMP, and so does that value + NUMTODSINTERVAL(...)
  it("TO_TIMESTAMP and a TIMESTAMP ± an interval dump as a computed TIMESTAMP, Typ=187 Len=20, TO_TIMESTAMP_TZ as Typ=188 (were a column's Typ=180 / 181)", async () => {
    expect(await rows("SELECT DUMP(TO_TIMESTAMP('2017-04-05 02:52:00', 'yyyy-mm-dd hh24:mi:ss')), DUMP(ts + INTERVAL '7' MINUTE), DUMP(ts - NUMTODSINTERVAL(1, 'HOUR')), DUMP(ts) FROM dt_d")).toEqual([[
      "Typ=187 Len=20: 225,7,4,5,2,52,0,0,0,0,0,0,0,0,3,0,0,0,0,0",
      "Typ=187 Len=20: 216,7,3,20,10,18,12,0,0,101,205,29,0,0,3,0,0,0,0,0",
      "Typ=187 Len=20: 216,7,3,20,9,11,12,0,0,101,205,29,0,0,3,0,0,0,0,0",
      "Typ=180 Len=11: 120,108,3,20,11,12,13,29,205,101,0"
    ]])
    // TO_TIMESTAMP_TZ: Typ=188 as ksun-oracle shows it, in the bytes of the zoned literal of the same instant above
    expect(await rows("SELECT DUMP(TO_TIMESTAMP_TZ('2015-07-31 08:55:06.157047 +00:00', 'yyyy-mm-dd hh24:mi:ss.ff TZH:TZM')) FROM dual")).toEqual([["Typ=188 Len=20: 223,7,7,31,8,55,6,0,216,88,92,9,0,0,5,0,0,0,0,0"]])
  })

  it("a TIMESTAMP(9) column dumps as Typ=180, a LOCAL TIME ZONE column as Typ=231 (were Typ=1 text and ORA-00932)", async () => {
    expect(await rows("SELECT DUMP(t9), DUMP(l), DUMP(l9), DUMP((SELECT t9 FROM dt_t)) FROM dt_t")).toEqual([[
      "Typ=180 Len=11: 120,124,1,2,4,5,6,7,91,205,21",
      "Typ=231 Len=7: 120,124,1,2,4,5,6",
      "Typ=231 Len=11: 120,124,1,2,4,5,6,29,205,101,0",
      "Typ=180 Len=11: 120,124,1,2,4,5,6,7,91,205,21"
    ]])
  })

  it("BINARY_DOUBLE / BINARY_FLOAT dump as Typ=101 / 100, intervals as Typ=182 / 183 (were Typ=2 and ORA-00932)", async () => {
    expect(await rows("SELECT DUMP(bd), DUMP(bf), DUMP(ym), DUMP(ds), DUMP(-ds), DUMP(1.5d) FROM dt_n")).toEqual([[
      "Typ=101 Len=8: 191,248,0,0,0,0,0,0",
      "Typ=100 Len=4: 64,63,255,255",
      "Typ=182 Len=5: 128,0,0,1,62",
      "Typ=183 Len=11: 128,0,0,1,62,63,64,157,205,101,0",
      "Typ=183 Len=11: 127,255,255,255,58,57,56,98,50,155,0",
      "Typ=101 Len=8: 191,248,0,0,0,0,0,0"
    ]])
    // intervals kept exactly (DAY(9) TO SECOND(9), YEAR(9) TO MONTH): by their type too (were Typ=2)
    expect(await rows("SELECT DUMP(ds9), DUMP(ym9), VSIZE(ds9) FROM dt_x")).toEqual([["Typ=183 Len=11: 127,255,255,255,58,57,56,98,50,155,0", "Typ=182 Len=5: 127,255,255,255,58", 11]])
  })

  it("DUMP of a scalar subquery whose item is a call or a zoned literal answers (was ORA-00933)", async () => {
    expect(await rows("SELECT DUMP((SELECT MAX(a) FROM dt_a)), DUMP((SELECT TIMESTAMP '2024-01-01 00:00:00 +01:00' FROM dual)) FROM dual")).toEqual([[
      "Typ=2 Len=2: 193,3",
      "Typ=181 Len=13: 120,123,12,31,24,1,1,0,0,0,0,21,60"
    ]])
  })

  it("a NATURAL join of tables without a common column is a cross join (was ORA-03001)", async () => {
    expect(await rows("SELECT * FROM dt_a NATURAL JOIN dt_b ORDER BY a")).toEqual([[1, 3], [2, 3]])
    expect(await rows("SELECT a, b FROM dt_a NATURAL LEFT JOIN dt_b ORDER BY a")).toEqual([[1, 3], [2, 3]])
    expect(await rows("SELECT COUNT(*) FROM dt_b NATURAL JOIN dt_a NATURAL JOIN dt_b x")).toEqual([[2]])
  })
})
