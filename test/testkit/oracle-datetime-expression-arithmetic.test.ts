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
})
