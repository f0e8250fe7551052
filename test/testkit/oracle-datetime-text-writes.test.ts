import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// A datetime written into a VARCHAR2 column is converted as TO_CHAR converts it without a format (SQL Language
// Reference, "Implicit Data Conversion"; "TO_CHAR (datetime)": a DATE in NLS_DATE_FORMAT, a TIMESTAMP in
// NLS_TIMESTAMP_FORMAT, a TIMESTAMP WITH TIME ZONE in NLS_TIMESTAMP_TZ_FORMAT), not as DuckDB's ISO text.
describe("Oracle test server: datetimes written into VARCHAR2 columns (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE TABLE dtw_d (id NUMBER(3), d DATE, t TIMESTAMP)`)
    await conn.execute(`INSERT INTO dtw_d VALUES (1, DATE '2020-01-04', TIMESTAMP '2020-01-04 13:05:06.5')`)
    await conn.execute(`CREATE TABLE dtw_z (id NUMBER(3), z TIMESTAMP(3) WITH TIME ZONE)`)
    await conn.execute(`INSERT INTO dtw_z VALUES (1, TIMESTAMP '2020-01-04 13:05:06.5 +02:00')`)
    await conn.execute(`CREATE TABLE dtw_s (id NUMBER(3), v VARCHAR2(40), w VARCHAR2(40))`)
  })
  afterAll(() => closeConnection({ server, conn }))

  const texts = async () => (await conn.execute(`SELECT id, v, w FROM dtw_s ORDER BY id`)).rows

  it("INSERT ... VALUES and INSERT ... SELECT write the session's NLS text", async () => {
    await conn.execute(`INSERT INTO dtw_s (id, v, w) SELECT id, d, x.t FROM dtw_d x`)
    await conn.execute(`INSERT INTO dtw_s VALUES (2, DATE '2021-02-03', (SELECT d FROM dtw_d))`)
    await conn.execute(`INSERT INTO dtw_s (w, v, id) SELECT z, TIMESTAMP '2021-02-03 04:05:06.25', 3 FROM dtw_z`)
    expect(await texts()).toEqual([
      [1, "04-JAN-20", "04-JAN-20 01.05.06.500000 PM"],
      [2, "03-FEB-21", "04-JAN-20"],
      [3, "03-FEB-21 04.05.06.250000000 AM", "04-JAN-20 01.05.06.500 PM +02:00"]
    ])
    // a datetime function's result or a CAST to DATE / TIMESTAMP
    await conn.execute(`CREATE TABLE dtw_f (id NUMBER(3), v VARCHAR2(40))`)
    await conn.execute(`INSERT INTO dtw_f VALUES (1, TO_DATE('2020-01-04', 'YYYY-MM-DD'))`)
    await conn.execute(`INSERT INTO dtw_f SELECT 2, ADD_MONTHS(d, 1) FROM dtw_d`)
    await conn.execute(`INSERT INTO dtw_f (v, id) VALUES (LAST_DAY(DATE '2020-02-03'), 3)`)
    await conn.execute(`INSERT INTO dtw_f VALUES (4, CAST(DATE '2020-01-04' AS TIMESTAMP))`)
    await conn.execute(`INSERT INTO dtw_f VALUES (5, TO_TIMESTAMP('2020-01-04 01:02:03.5', 'YYYY-MM-DD HH24:MI:SS.FF'))`)
    expect((await conn.execute(`SELECT v FROM dtw_f ORDER BY id`)).rows).toEqual([["04-JAN-20"], ["04-FEB-20"], ["29-FEB-20"], ["04-JAN-20 12.00.00.000000 AM"], ["04-JAN-20 01.02.03.500000000 AM"]])
    // a `*` select list is written column by column
    await conn.execute(`CREATE TABLE dtw_star (id NUMBER(3), v VARCHAR2(40), w VARCHAR2(40))`)
    await conn.execute(`INSERT INTO dtw_star SELECT * FROM dtw_d`)
    expect((await conn.execute(`SELECT v, w FROM dtw_star`)).rows).toEqual([["04-JAN-20", "04-JAN-20 01.05.06.500000 PM"]])
  })

  it("UPDATE and MERGE write the text in the format ALTER SESSION set", async () => {
    await conn.execute(`ALTER SESSION SET NLS_DATE_FORMAT = 'YYYY/MM/DD HH24:MI'`)
    try {
      await conn.execute(`UPDATE dtw_s s SET v = (SELECT d FROM dtw_d), w = DATE '2022-03-04' WHERE id = 1`)
      await conn.execute(`MERGE INTO dtw_s s USING dtw_d x ON (s.id = x.id + 1) WHEN MATCHED THEN UPDATE SET v = x.d, w = t`)
      expect((await texts()).slice(0, 2)).toEqual([
        [1, "2020/01/04 00:00", "2022/03/04 00:00"],
        [2, "2020/01/04 00:00", "04-JAN-20 01.05.06.500000 PM"]
      ])
      // read back through the same format: the text is a date again
      expect((await conn.execute(`SELECT COUNT(*) FROM dtw_s s JOIN dtw_d x ON TO_DATE(s.v) = x.d WHERE s.id < 3`)).rows).toEqual([[2]])
    } finally {
      await conn.execute(`ALTER SESSION SET NLS_DATE_FORMAT = 'DD-MON-RR'`)
    }
  })
})
