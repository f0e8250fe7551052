/**
 * Datetime values whose Oracle type the engine value does not carry: date arithmetic inside scalar subqueries, DATE
 * and TIMESTAMP WITH LOCAL TIME ZONE binds printed by TO_CHAR or cast, and NVL / COALESCE / NVL2 / DECODE results
 * converted to the deciding result's type (testkit/oracle/datetime-operand-casts.ts), through raw node-oracledb.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { closeConnection, type Conn, openConnection, oracledb } from "./oracle/helpers.ts"

let opened: Awaited<ReturnType<typeof openConnection>> | undefined
let conn: Conn

const rowOf = async (sql: string, binds: unknown = {}) => {
  const r = await conn.execute(sql, binds)
  return { row: r.rows[0] as Array<unknown>, types: r.metaData.map((m: { dbTypeName: string }) => m.dbTypeName) }
}

beforeAll(async () => {
  opened = await openConnection()
  conn = opened.conn
  await conn.execute("CREATE TABLE dt_ops (d DATE, ts TIMESTAMP, v VARCHAR2(100))")
  await conn.execute("INSERT INTO dt_ops (d, ts) VALUES (DATE '2020-01-04', NULL)")
  await conn.execute("INSERT INTO dt_ops (d, ts) VALUES (NULL, TIMESTAMP '2021-02-03 04:05:06.5')")
})

afterAll(async () => {
  if (opened !== undefined) await closeConnection(opened)
})

describe("date arithmetic in nested queries (SQL Language Reference, Datetime/Interval Arithmetic)", () => {
  it("computes d + 1 inside a scalar subquery of the select list as a DATE", async () => {
    const { row, types } = await rowOf("SELECT (SELECT d + 1 FROM dt_ops WHERE d IS NOT NULL), TO_CHAR((SELECT d - 1 FROM dt_ops WHERE d IS NOT NULL)), TO_CHAR((SELECT 2 + d FROM dt_ops WHERE d IS NOT NULL)) FROM dual")
    expect(types[0]).toBe("DATE")
    expect(row.slice(1)).toEqual(["03-JAN-20", "06-JAN-20"])
  })

  it("types a scalar subquery of d + 1 as a DATE for arithmetic on it", async () => {
    const { row } = await rowOf("SELECT TO_CHAR((SELECT d + 1 FROM dt_ops WHERE d IS NOT NULL) + 1), (SELECT d + 1 FROM dt_ops WHERE d IS NOT NULL) - DATE '2020-01-01' FROM dual")
    expect(row).toEqual(["06-JAN-20", 4])
  })

  it("computes it in FROM subqueries, WITH blocks and IN subqueries", async () => {
    expect((await rowOf("SELECT TO_CHAR(x) FROM (SELECT d + 1 x FROM dt_ops WHERE d IS NOT NULL)")).row).toEqual(["05-JAN-20"])
    expect((await rowOf("WITH w AS (SELECT d + 1 x FROM dt_ops WHERE d IS NOT NULL) SELECT TO_CHAR(x) FROM w")).row).toEqual(["05-JAN-20"])
    expect((await rowOf("SELECT COUNT(*) FROM dual WHERE DATE '2020-01-05' IN (SELECT d + 1 FROM dt_ops)")).row).toEqual([1])
  })
})

describe("DATE and TIMESTAMP WITH LOCAL TIME ZONE binds (TO_CHAR (datetime), CAST)", () => {
  const local = { val: new Date(Date.UTC(2020, 0, 4, 13, 5, 6)), type: oracledb.DB_TYPE_TIMESTAMP_LTZ }

  it("prints a DATE bind in NLS_DATE_FORMAT", async () => {
    const date = { val: new Date(2020, 0, 4, 13, 5, 6), type: oracledb.DB_TYPE_DATE }
    expect((await rowOf("SELECT TO_CHAR(:b), TO_CHAR(:b, 'YYYY-MM-DD HH24:MI:SS') FROM dual", { b: date })).row).toEqual(["04-JAN-20", "2020-01-04 13:05:06"])
  })

  it("prints a LOCAL TIME ZONE bind at the session time zone's wall clock, without a zone", async () => {
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+05:00'")
    try {
      expect((await rowOf("SELECT TO_CHAR(:b) FROM dual", { b: local })).row).toEqual(["04-JAN-20 06.05.06.000000 PM"])
      const { row, types } = await rowOf("SELECT TO_CHAR(CAST(:b AS TIMESTAMP)), CAST(:b AS TIMESTAMP) FROM dual", { b: local })
      expect(row[0]).toBe("04-JAN-20 06.05.06.000000 PM")
      expect(types[1]).toBe("TIMESTAMP")
    } finally {
      await conn.execute("ALTER SESSION SET TIME_ZONE = '+00:00'")
    }
  })

  it("writes a LOCAL TIME ZONE bind into VARCHAR2 as that text, by execute and executeMany", async () => {
    await conn.execute("CREATE TABLE dt_ltz_text (n NUMBER, v VARCHAR2(100))")
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+05:00'")
    try {
      await conn.execute("INSERT INTO dt_ltz_text VALUES (1, :b)", { b: local })
      await conn.executeMany("INSERT INTO dt_ltz_text VALUES (:1, :2)", [[2, local.val], [3, new Date(Date.UTC(2021, 5, 6, 7, 8, 9, 500))]], { bindDefs: [{ type: oracledb.DB_TYPE_NUMBER }, { type: oracledb.DB_TYPE_TIMESTAMP_LTZ }] })
      await conn.execute("UPDATE dt_ltz_text SET v = :b WHERE n = 1", { b: local })
    } finally {
      await conn.execute("ALTER SESSION SET TIME_ZONE = '+00:00'")
    }
    const r = await conn.execute("SELECT v FROM dt_ltz_text ORDER BY n")
    expect(r.rows).toEqual([["04-JAN-20 06.05.06.000000 PM"], ["04-JAN-20 06.05.06.000000 PM"], ["06-JUN-21 12.08.09.500000 PM"]])
    await conn.rollback()
  })
})

describe("NVL / COALESCE / NVL2 / DECODE convert their results to the deciding result's type", () => {
  const zoneless = /^\d\d-[A-Z]{3}-\d\d \d\d\.\d\d\.\d\d\.\d{6} [AP]M$/

  it("gives NVL(timestamp, SYSTIMESTAMP) as a TIMESTAMP, printed without a zone", async () => {
    const r = await conn.execute("SELECT NVL(ts, SYSTIMESTAMP), TO_CHAR(NVL(ts, SYSTIMESTAMP)) FROM dt_ops ORDER BY d NULLS LAST")
    expect(r.metaData[0].dbTypeName).toBe("TIMESTAMP")
    expect(r.rows[0][1]).toMatch(zoneless)
    expect(r.rows[1][1]).toBe("03-FEB-21 04.05.06.500000 AM")
  })

  it("gives COALESCE, NVL2 and DECODE of a TIMESTAMP first result and SYSTIMESTAMP as TIMESTAMPs", async () => {
    const r = await conn.execute("SELECT TO_CHAR(COALESCE(ts, SYSTIMESTAMP)), TO_CHAR(NVL2(d, ts, SYSTIMESTAMP)), TO_CHAR(DECODE(d, NULL, ts, SYSTIMESTAMP)) FROM dt_ops ORDER BY d NULLS LAST")
    expect(r.rows[0][0]).toMatch(zoneless)
    expect(r.rows[0][1]).toBeNull()
    expect(r.rows[0][2]).toMatch(zoneless)
    expect(r.rows[1]).toEqual(["03-FEB-21 04.05.06.500000 AM", expect.stringMatching(zoneless), "03-FEB-21 04.05.06.500000 AM"])
  })

  it("gives NVL(date, SYSTIMESTAMP) as a DATE", async () => {
    const r = await conn.execute("SELECT NVL(d, SYSTIMESTAMP), TO_CHAR(NVL(d, SYSTIMESTAMP)) FROM dt_ops ORDER BY d NULLS LAST")
    expect(r.metaData[0].dbTypeName).toBe("DATE")
    expect(r.rows[0][1]).toBe("04-JAN-20")
    expect(r.rows[1][1]).toMatch(/^\d\d-[A-Z]{3}-\d\d$/)
  })
})
