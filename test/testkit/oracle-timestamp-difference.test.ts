import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, ds, intervalRows, openConnection, oracledb } from "./oracle/helpers.ts"

// A datetime minus a datetime is a number of days only when both are DATEs; with a TIMESTAMP operand it is an
// INTERVAL DAY TO SECOND (SQL Language Reference, "Datetime/Interval Arithmetic", the matrix of operand and result
// types: https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Datetime-Interval-Arithmetic.html).
const typeNames = (r: { metaData?: ReadonlyArray<{ dbTypeName?: string }> }) => (r.metaData ?? []).map((m) => m.dbTypeName)
const DS = "INTERVAL DAY TO SECOND"
const asIntervals = { fetchTypeHandler: (m: { dbType?: unknown }) => (m.dbType === oracledb.DB_TYPE_INTERVAL_DS ? { type: oracledb.DB_TYPE_INTERVAL_DS } : undefined) }

describe("Oracle test server: TIMESTAMP - TIMESTAMP in SQL (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE tsd (a TIMESTAMP, b TIMESTAMP, d1 DATE, d2 DATE, n9 TIMESTAMP(9), m9 TIMESTAMP(9))")
    await conn.execute(
      "INSERT INTO tsd VALUES (TIMESTAMP '2024-01-01 00:00:00.000001', TIMESTAMP '2024-01-02 02:30:00.654322', DATE '2024-01-01', DATE '2024-01-03', TIMESTAMP '2024-01-01 00:00:00.000000001', TIMESTAMP '2024-01-01 01:00:00.123456789')"
    )
  })
  afterAll(() => closeConnection({ server, conn }))

  it("TIMESTAMP - TIMESTAMP, TIMESTAMP - DATE, DATE - TIMESTAMP are INTERVAL DAY TO SECOND, exact to the microsecond (was NUMBER days)", async () => {
    const r = await conn.execute("SELECT b - a, b - d1, d2 - b, a - b, CAST(d2 AS TIMESTAMP) - d1, TIMESTAMP '2024-01-02 00:00:00.5' - TIMESTAMP '2024-01-01 00:00:00' FROM tsd", [], asIntervals)
    expect(typeNames(r)).toEqual([DS, DS, DS, DS, DS, DS])
    expect(intervalRows(r.rows ?? [])).toEqual([[
      ds(1, 2, 30, 0, 654321000), ds(1, 2, 30, 0, 654322000), ds(0, 21, 29, 59, 345678000), ds(-1, -2, -30, 0, -654321000),
      ds(2, 0, 0, 0, 0), ds(1, 0, 0, 0, 500000000)
    ]])
  })

  it("DATE - DATE stays a NUMBER of days", async () => {
    const r = await conn.execute("SELECT d2 - d1, DATE '2024-01-06' - DATE '2024-01-01' FROM tsd")
    expect(typeNames(r)).toEqual(["NUMBER", "NUMBER"])
    expect(r.rows).toEqual([[2, 5]])
  })

  it("TIMESTAMP(9) - TIMESTAMP(9) keeps every nanosecond", async () => {
    const r = await conn.execute("SELECT m9 - n9, n9 - m9, m9 - a, (m9 - n9) * 2, EXTRACT(SECOND FROM m9 - n9) FROM tsd WHERE m9 - n9 > INTERVAL '1' HOUR AND m9 - n9 < INTERVAL '2' HOUR", [], asIntervals)
    expect(typeNames(r).slice(0, 4)).toEqual([DS, DS, DS, DS])
    expect(intervalRows(r.rows ?? [])).toEqual([[ds(0, 1, 0, 0, 123456788), ds(0, -1, 0, 0, -123456788), ds(0, 1, 0, 0, 123455789), ds(0, 2, 0, 0, 246913576), 0.123456788]])
  })

  it("a TIMESTAMP(9) difference compares with interval literals by every nanosecond", async () => {
    const r = await conn.execute("SELECT COUNT(*) FROM tsd WHERE m9 - n9 > INTERVAL '0 01:00:00.123456788' DAY TO SECOND OR m9 - n9 <= INTERVAL '1' HOUR")
    expect(r.rows).toEqual([[0]])
  })

  it("TO_CHAR and || print the difference as Oracle's interval text (was the engine's `1 day 02:30:00.654321`)", async () => {
    const r = await conn.execute("SELECT TO_CHAR(b - a), (b - a) || '', TO_CHAR(a - b) FROM tsd")
    expect(r.rows).toEqual([["+000000001 02:30:00.654321", "+000000001 02:30:00.654321", "-000000001 02:30:00.654321"]])
  })

  it("CREATE TABLE ... AS SELECT of a difference declares an INTERVAL DAY(9) TO SECOND, (9) for TIMESTAMP(9) operands", async () => {
    // (Oracle documents no precision for a datetime difference; a public note shows DAY(9) TO SECOND(9) for differences
    // of TIMESTAMP literals, https://renenyffenegger.ch/notes/development/databases/Oracle/SQL/data-types/timestamp/index;
    // the fractional precision of TIMESTAMP(6) columns' difference is unconfirmed, so not asserted)
    await conn.execute("CREATE TABLE tsd_diffs AS SELECT b - a d6, m9 - n9 d9, d2 - d1 n FROM tsd")
    const r = await conn.execute("SELECT column_name, data_type FROM user_tab_columns WHERE table_name = 'TSD_DIFFS' ORDER BY column_id")
    const types = (r.rows ?? []) as Array<[string, string]>
    expect(types.map(([c]) => c)).toEqual(["D6", "D9", "N"])
    expect(types[0]![1]).toMatch(/^INTERVAL DAY\(9\) TO SECOND\([69]\)$/)
    expect(types.slice(1)).toEqual([["D9", "INTERVAL DAY(9) TO SECOND(9)"], ["N", "NUMBER"]])
    const values = await conn.execute("SELECT d6, d9 FROM tsd_diffs", [], asIntervals)
    expect(intervalRows(values.rows ?? [])).toEqual([[ds(1, 2, 30, 0, 654321000), ds(0, 1, 0, 0, 123456788)]])
  })

  it("a TIMESTAMP minus a parenthesised TIMESTAMP ± INTERVAL is an interval (was ORA-00932)", async () => {
    const r = await conn.execute("SELECT b - (a + INTERVAL '1' HOUR), (a + INTERVAL '1' HOUR) - b FROM tsd", [], asIntervals)
    expect(typeNames(r)).toEqual([DS, DS])
    expect(intervalRows(r.rows ?? [])).toEqual([[ds(1, 1, 30, 0, 654321000), ds(-1, -1, -30, 0, -654321000)]])
  })

  it("NVL / COALESCE / GREATEST of a TIMESTAMP is a TIMESTAMP operand of a difference (was ORA-00932)", async () => {
    const r = await conn.execute("SELECT a - NVL(b, a), d1 - COALESCE(b, a), GREATEST(a, b) - a FROM tsd", [], asIntervals)
    expect(typeNames(r)).toEqual([DS, DS, DS])
    expect(intervalRows(r.rows ?? [])).toEqual([[ds(-1, -2, -30, 0, -654321000), ds(-1, -2, -30, 0, -654322000), ds(1, 2, 30, 0, 654321000)]])
  })

  it("SUM of a TIMESTAMP difference is an interval (was ORA-00932: the engine sums no INTERVAL)", async () => {
    const r = await conn.execute("SELECT SUM(b - a) FROM (SELECT a, b FROM tsd UNION ALL SELECT a, b FROM tsd)", [], asIntervals)
    expect(typeNames(r)).toEqual([DS])
    expect(intervalRows(r.rows ?? [])).toEqual([[ds(2, 5, 0, 1, 308642000)]])
  })

  it("SYSTIMESTAMP / CURRENT_TIMESTAMP - LOCALTIMESTAMP is zero in any session time zone (the TIMESTAMP read in the session zone)", async () => {
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+05:00'")
    try {
      const r = await conn.execute("SELECT CURRENT_TIMESTAMP - LOCALTIMESTAMP, EXTRACT(HOUR FROM SYSTIMESTAMP - LOCALTIMESTAMP) FROM dual", [], asIntervals)
      expect(intervalRows(r.rows ?? [])).toEqual([[ds(0, 0, 0, 0, 0), 0]])
    } finally {
      await conn.execute("ALTER SESSION SET TIME_ZONE = '+00:00'")
    }
  })

  it("SYSTIMESTAMP - a TIMESTAMP column is an interval", async () => {
    const r = await conn.execute("SELECT SYSTIMESTAMP - a, LOCALTIMESTAMP - a FROM tsd", [], asIntervals)
    expect(typeNames(r)).toEqual([DS, DS])
    const days = (intervalRows(r.rows ?? []) as Array<Array<{ days: number }>>).flatMap((row) => row.map((v) => v.days))
    expect(days.length).toBe(2)
    for (const d of days) expect(d).toBeGreaterThan(300)
  })

  it("the difference is an interval in EXTRACT, comparisons with intervals, and scaled by numbers (were ORA-00932)", async () => {
    const r = await conn.execute(
      "SELECT EXTRACT(HOUR FROM (b - a)), EXTRACT(DAY FROM b - a), EXTRACT(SECOND FROM (b - a)), (b - a) * 2, (b - a) / 3 FROM tsd WHERE b - a > INTERVAL '1' DAY AND b - a < INTERVAL '2' DAY",
      [],
      asIntervals
    )
    expect(typeNames(r).slice(3)).toEqual([DS, DS])
    expect(intervalRows(r.rows ?? [])).toEqual([[2, 1, 0.654321, ds(2, 5, 0, 1, 308642000), ds(0, 8, 50, 0, 218107000)]])
  })
})
