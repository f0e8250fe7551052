import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { laidOut } from "../../testkit/oracle/bulk-insert.ts"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

/** Rows of the large request: above the size from which executeMany requests are decoded while they arrive. */
const ROWS = 20_000

// A datetime expression or bind written into a VARCHAR2 column is converted as TO_CHAR converts it without a format
// (SQL Language Reference, "Implicit Data Conversion"; "TO_CHAR (datetime)": a DATE in NLS_DATE_FORMAT, a TIMESTAMP in
// NLS_TIMESTAMP_FORMAT, a TIMESTAMP WITH TIME ZONE in NLS_TIMESTAMP_TZ_FORMAT), whatever the expression's form; before,
// the forms whose type their operands decide and binds were stored as DuckDB's text (`2020-01-04 00:00:00`).
describe("Oracle test server: datetime expressions and binds written into VARCHAR2 columns (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE TABLE dvw_d (id NUMBER(3), d DATE, e DATE, t TIMESTAMP(3), z TIMESTAMP(2) WITH TIME ZONE)`)
    await conn.execute(`INSERT INTO dvw_d VALUES (1, DATE '2020-01-04', NULL, TIMESTAMP '2020-01-04 13:05:06.5', TIMESTAMP '2020-01-04 13:05:06.5 +02:00')`)
    await conn.execute(`CREATE TABLE dvw_s (id NUMBER(6), v VARCHAR2(60), n NVARCHAR2(60))`)
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  const texts = async (where = "") => (await conn.execute(`SELECT id, v, n FROM dvw_s ${where} ORDER BY id`)).rows
  const clear = () => conn.execute(`DELETE FROM dvw_s`)
  // a JS Date binds as a TIMESTAMP (node-oracledb's default for Date values), or as the type asked for
  const at = new Date(2020, 0, 4, 13, 5, 6, 500)
  const as = (type: unknown, val = at) => ({ val, type })

  it("NVL / COALESCE / CASE / DECODE / TRUNC / ROUND of datetimes are stored in the session's format", async () => {
    await conn.execute(`INSERT INTO dvw_s (id, v, n) SELECT 1, NVL(e, d), COALESCE(e, d) FROM dvw_d`)
    await conn.execute(`INSERT INTO dvw_s (id, v, n) SELECT 2, CASE WHEN id = 1 THEN d END, DECODE(id, 1, d) FROM dvw_d`)
    await conn.execute(`INSERT INTO dvw_s VALUES (3, (SELECT TRUNC(d) FROM dvw_d), (SELECT ROUND(t) FROM dvw_d))`)
    await conn.execute(`INSERT INTO dvw_s (id, v, n) SELECT 4, NVL(t, t), CASE WHEN id = 1 THEN z END FROM dvw_d`)
    await conn.execute(`INSERT INTO dvw_s (id, v, n) SELECT 5, TRUNC(t, 'MM'), GREATEST(d, DATE '2020-01-05') FROM dvw_d`)
    // through a subquery's alias too
    await conn.execute(`INSERT INTO dvw_s (id, v) SELECT 6, m FROM (SELECT NVL(e, d) m FROM dvw_d)`)
    // a call naming one column twice is no column list naming it twice (was ORA-00957)
    await conn.execute(`INSERT INTO dvw_s SELECT 7, NVL(d, d), NVL(t, t) FROM dvw_d`)
    expect(await texts()).toEqual([
      [1, "04-JAN-20", "04-JAN-20"],
      [2, "04-JAN-20", "04-JAN-20"],
      [3, "04-JAN-20", "05-JAN-20"],
      [4, "04-JAN-20 01.05.06.500000 PM", "04-JAN-20 01.05.06.500000 PM +02:00"],
      [5, "01-JAN-20", "05-JAN-20"],
      [6, "04-JAN-20", null],
      [7, "04-JAN-20", "04-JAN-20 01.05.06.500000 PM"]
    ])
    // UPDATE and MERGE alike
    await conn.execute(`UPDATE dvw_s SET v = (SELECT NVL(e, d) FROM dvw_d), n = (SELECT TRUNC(d, 'YYYY') FROM dvw_d) WHERE id = 1`)
    await conn.execute(`MERGE INTO dvw_s s USING dvw_d x ON (s.id = x.id + 1) WHEN MATCHED THEN UPDATE SET v = COALESCE(x.e, x.d), n = DECODE(x.id, 1, x.d)`)
    expect(await texts("WHERE id < 3")).toEqual([
      [1, "04-JAN-20", "01-JAN-20"],
      [2, "04-JAN-20", "04-JAN-20"]
    ])
    await conn.rollback()
  })

  it("a TIMESTAMP(p) WITH TIME ZONE written through a scalar subquery shows p fraction digits", async () => {
    await conn.execute(`INSERT INTO dvw_s (id, v) VALUES (1, (SELECT z FROM dvw_d))`)
    expect(await texts()).toEqual([[1, "04-JAN-20 01.05.06.50 PM +02:00", null]])
    expect((await conn.execute(`SELECT TO_CHAR((SELECT z FROM dvw_d)) FROM dual`)).rows).toEqual([["04-JAN-20 01.05.06.50 PM +02:00"]])
    await conn.rollback()
  })

  it("datetime binds are stored in the session's format by INSERT, UPDATE and MERGE", async () => {
    await conn.execute(`INSERT INTO dvw_s VALUES (1, :1, :2)`, [at, as(oracledb.DB_TYPE_DATE)])
    await conn.execute(`INSERT INTO dvw_s (id, v) VALUES (2, :1)`, [as(oracledb.DB_TYPE_TIMESTAMP_TZ, new Date(Date.UTC(2020, 0, 4, 13, 5, 6, 500)))])
    await conn.execute(`INSERT INTO dvw_s (id) VALUES (3)`)
    await conn.execute(`UPDATE dvw_s SET v = :d, n = :t WHERE id = 3`, { d: as(oracledb.DB_TYPE_DATE), t: at })
    await conn.execute(`MERGE INTO dvw_s s USING (SELECT 4 id FROM dual) x ON (s.id = x.id) WHEN NOT MATCHED THEN INSERT (id, v) VALUES (x.id, :1)`, [as(oracledb.DB_TYPE_DATE)])
    await conn.execute(`MERGE INTO dvw_s s USING (SELECT 4 id FROM dual) x ON (s.id = x.id) WHEN MATCHED THEN UPDATE SET n = :1`, [at])
    // binds inside NVL / COALESCE: the first argument's type decides
    await conn.execute(`INSERT INTO dvw_s (id, v, n) SELECT 5, NVL(:1, :2), COALESCE(:3, d) FROM dvw_d`, [as(oracledb.DB_TYPE_DATE, null as unknown as Date), as(oracledb.DB_TYPE_DATE), at])
    expect(await texts()).toEqual([
      [1, "04-JAN-20 01.05.06.500000 PM", "04-JAN-20"],
      [2, "04-JAN-20 01.05.06.500000 PM +00:00", null],
      [3, "04-JAN-20", "04-JAN-20 01.05.06.500000 PM"],
      [4, "04-JAN-20", "04-JAN-20 01.05.06.500000 PM"],
      [5, "04-JAN-20", "04-JAN-20 01.05.06.500000 PM"]
    ])
    await conn.rollback()
  })

  it("executeMany formats datetime binds per column as execute does, small and large requests", async () => {
    const row = (i: number) => [i, new Date(2020, 0, 1 + (i % 28), i % 24, i % 60, i % 60, (i * 7) % 1000), new Date(2021, i % 12, 3)]
    const bindDefs = [{ type: oracledb.NUMBER }, { type: oracledb.DB_TYPE_TIMESTAMP }, { type: oracledb.DB_TYPE_DATE }]
    const insert = `INSERT INTO dvw_s VALUES (:1, :2, :3)`
    const rows = Array.from({ length: 20 }, (_, i) => row(i))
    const before = laidOut.rows
    await conn.executeMany(insert, rows, { bindDefs })
    expect(laidOut.rows - before).toBe(rows.length)
    const small = await texts()
    await clear()
    for (const r of rows) await conn.execute(insert, [r[0], as(oracledb.DB_TYPE_TIMESTAMP, r[1] as Date), as(oracledb.DB_TYPE_DATE, r[2] as Date)])
    const general = await texts()
    expect(small).toEqual(general)
    expect(general.slice(0, 2)).toEqual([
      [0, "01-JAN-20 12.00.00.000000 AM", "03-JAN-21"],
      [1, "02-JAN-20 01.01.01.007000 AM", "03-FEB-21"]
    ])
    await clear()
    // decoded straight from the request's bytes (the statement's first large request may arrive whole before its
    // target is known: the second one finds it known)
    const many = Array.from({ length: ROWS }, (_, i) => row(i))
    await conn.executeMany(insert, many, { bindDefs })
    expect(await texts("WHERE id < 20")).toEqual(general)
    await clear()
    const straight = laidOut.straight
    expect((await conn.executeMany(insert, many, { bindDefs })).rowsAffected).toBe(ROWS)
    expect(laidOut.straight - straight).toBe(ROWS)
    expect(await texts("WHERE id < 20")).toEqual(general)
    await conn.rollback()
  })

  it("datetimes and numbers written into CLOB / NCLOB columns are stored as into VARCHAR2, also by executeMany", async () => {
    // Oracle converts them to the character form ("Implicit Data Conversion"); before, DuckDB's text was stored
    await conn.execute(`CREATE TABLE dvw_c (id NUMBER(6), c CLOB, n NCLOB)`)
    await conn.execute(`INSERT INTO dvw_c VALUES (1, DATE '2020-01-04', 1.50)`)
    await conn.execute(`INSERT INTO dvw_c SELECT 2, NVL(e, d), t FROM dvw_d`)
    await conn.execute(`INSERT INTO dvw_c VALUES (3, :1, :2)`, [as(oracledb.DB_TYPE_DATE), at])
    const bindDefs = [{ type: oracledb.NUMBER }, { type: oracledb.DB_TYPE_DATE }, { type: oracledb.DB_TYPE_TIMESTAMP }]
    await conn.executeMany(`INSERT INTO dvw_c VALUES (:1, :2, :3)`, [[4, at, at]], { bindDefs })
    expect((await conn.execute(`SELECT id, TO_CHAR(c), TO_CHAR(n) FROM dvw_c ORDER BY id`)).rows).toEqual([
      [1, "04-JAN-20", "1.5"],
      [2, "04-JAN-20", "04-JAN-20 01.05.06.500 PM"],
      [3, "04-JAN-20", "04-JAN-20 01.05.06.500000 PM"],
      [4, "04-JAN-20", "04-JAN-20 01.05.06.500000 PM"]
    ])
    await conn.rollback()
  })

  it("PL/SQL DATE / TIMESTAMP variables a block writes into VARCHAR2 / CLOB columns are stored in the session's format", async () => {
    // a variable's declared type is known to the block (plsql/render.ts); before, DuckDB's `2020-01-04 00:00:00`
    await conn.execute(`CREATE TABLE dvw_p (id NUMBER(6), v VARCHAR2(60), c CLOB)`)
    await conn.execute(`DECLARE d DATE := DATE '2020-01-04'; BEGIN INSERT INTO dvw_p (id, v) VALUES (1, d); INSERT INTO dvw_p (id, v) VALUES (2, NVL(d, d)); END;`)
    await conn.execute(`DECLARE t TIMESTAMP := TIMESTAMP '2020-01-04 01:02:03.5'; BEGIN INSERT INTO dvw_p (id, v) VALUES (3, t); UPDATE dvw_p SET c = t WHERE id = 3; END;`)
    await conn.execute(`DECLARE d DATE := DATE '2020-01-04'; BEGIN INSERT INTO dvw_p (id, v, c) SELECT 4, d, d FROM dual; END;`)
    expect((await conn.execute(`SELECT id, v, TO_CHAR(c) FROM dvw_p ORDER BY id`)).rows).toEqual([
      [1, "04-JAN-20", null],
      [2, "04-JAN-20", null],
      [3, "04-JAN-20 01.02.03.500000 AM", "04-JAN-20 01.02.03.500000 AM"],
      [4, "04-JAN-20", "04-JAN-20"]
    ])
    await conn.rollback()
  })

  it("a request's remembered texts of repeated values follow the format of its own time", async () => {
    // each request formats a value once and reuses its text for the rows repeating it (datetime-bind-texts.ts)
    const bindDefs = [{ type: oracledb.NUMBER }, { type: oracledb.DB_TYPE_DATE }, { type: oracledb.DB_TYPE_TIMESTAMP }]
    const insert = `INSERT INTO dvw_s VALUES (:1, :2, :3)`
    await conn.executeMany(insert, [[1, at, at], [2, at, at]], { bindDefs })
    await conn.execute(`ALTER SESSION SET NLS_DATE_FORMAT = 'YYYY-MM-DD'`)
    try {
      await conn.executeMany(insert, [[3, at, at], [4, at, at]], { bindDefs })
    } finally {
      await conn.execute(`ALTER SESSION SET NLS_DATE_FORMAT = 'DD-MON-RR'`)
    }
    const timestamp = "04-JAN-20 01.05.06.500000 PM"
    expect(await texts()).toEqual([
      [1, "04-JAN-20", timestamp],
      [2, "04-JAN-20", timestamp],
      [3, "2020-01-04", timestamp],
      [4, "2020-01-04", timestamp]
    ])
    await clear()
  })

  it("after ALTER SESSION SET NLS_DATE_FORMAT / NLS_TIMESTAMP_FORMAT the new format is used", async () => {
    await conn.execute(`ALTER SESSION SET NLS_DATE_FORMAT = 'YYYY-MM-DD HH24:MI:SS'`)
    await conn.execute(`ALTER SESSION SET NLS_TIMESTAMP_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.FF3'`)
    try {
      await conn.execute(`INSERT INTO dvw_s (id, v, n) SELECT 1, NVL(e, d), TRUNC(t) FROM dvw_d`)
      await conn.execute(`INSERT INTO dvw_s VALUES (2, :1, :2)`, [as(oracledb.DB_TYPE_DATE), at])
      const bindDefs = [{ type: oracledb.NUMBER }, { type: oracledb.DB_TYPE_DATE }, { type: oracledb.DB_TYPE_TIMESTAMP }]
      await conn.executeMany(`INSERT INTO dvw_s VALUES (:1, :2, :3)`, [[3, at, at]], { bindDefs })
      expect(await texts()).toEqual([
        [1, "2020-01-04 00:00:00", "2020-01-04 00:00:00"],
        [2, "2020-01-04 13:05:06", "2020-01-04T13:05:06.500"],
        [3, "2020-01-04 13:05:06", "2020-01-04T13:05:06.500"]
      ])
      // the text reads back through the same format
      expect((await conn.execute(`SELECT COUNT(*) FROM dvw_s WHERE TO_DATE(v) = TO_DATE('2020-01-04 13:05:06', 'YYYY-MM-DD HH24:MI:SS')`)).rows).toEqual([[2]])
    } finally {
      await conn.execute(`ALTER SESSION SET NLS_DATE_FORMAT = 'DD-MON-RR'`)
      await conn.execute(`ALTER SESSION SET NLS_TIMESTAMP_FORMAT = 'DD-MON-RR HH.MI.SSXFF AM'`)
      await conn.rollback()
    }
  })

  it("LOG ERRORS of an INSERT ... SELECT * or a set operation logs a DATE in NLS_DATE_FORMAT", async () => {
    await conn.execute(`CREATE TABLE dvw_src (id NUMBER(3), name VARCHAR2(20), d DATE)`)
    await conn.execute(`INSERT INTO dvw_src VALUES (1, 'ok', DATE '2020-01-02')`)
    await conn.execute(`INSERT INTO dvw_src VALUES (2, 'much too long', DATE '2020-01-03')`)
    await conn.execute(`CREATE TABLE dvw_t (id NUMBER(3), name VARCHAR2(5), d DATE)`)
    await conn.execute(`BEGIN DBMS_ERRLOG.CREATE_ERROR_LOG('DVW_T'); END;`)
    await conn.execute(`INSERT INTO dvw_t SELECT * FROM dvw_src LOG ERRORS ('star') REJECT LIMIT UNLIMITED`)
    await conn.execute(`INSERT INTO dvw_t SELECT 3, 'x', DATE '2020-01-05' FROM dual UNION ALL SELECT id, name, d FROM dvw_src WHERE id = 2 LOG ERRORS ('set') REJECT LIMIT UNLIMITED`)
    expect((await conn.execute(`SELECT ora_err_number$, ora_err_tag$, id, name, d FROM err$_dvw_t ORDER BY ora_err_tag$ DESC`)).rows).toEqual([
      [12899, "star", "2", "much too long", "03-JAN-20"],
      [12899, "set", "2", "much too long", "03-JAN-20"]
    ])
    expect((await conn.execute(`SELECT id FROM dvw_t ORDER BY id`)).rows).toEqual([[1], [3]])
    await conn.rollback()
  })
})
