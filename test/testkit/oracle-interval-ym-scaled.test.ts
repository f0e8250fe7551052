import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode, oracledb, ym } from "./oracle/helpers.ts"

// A YEAR TO MONTH interval times or divided by a number is a YEAR TO MONTH interval ("Datetime/Interval Arithmetic",
// SQL Language Reference: interval * numeric and interval / numeric give an interval of the operand's kind,
// https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Datetime-Interval-Arithmetic.html), for a literal
// and a column of every YEAR(p) TO MONTH precision; it was an INTERVAL DAY TO SECOND of 30-day months (540 days for
// `INTERVAL '1' YEAR * 1.5`). A fraction of a month is cut (Oracle's rule for it is undocumented: unconfirmed).
// SUM and AVG of a YEAR(0-8) TO MONTH column are YEAR TO MONTH too (SUM failed ORA-00932, AVG gave 30-day months).
const YM = "INTERVAL YEAR TO MONTH"
const typeNames = (r: { metaData?: ReadonlyArray<{ dbTypeName?: string; dbType?: unknown }> }) => (r.metaData ?? []).map((m) => m.dbTypeName)
const dbTypes = (r: { metaData?: ReadonlyArray<{ dbType?: unknown }> }) => (r.metaData ?? []).map((m) => m.dbType)
const plain = (rows: ReadonlyArray<ReadonlyArray<unknown>> | undefined) => JSON.parse(JSON.stringify(rows ?? [])) as unknown

describe("Oracle test server: YEAR TO MONTH intervals times or divided by a number (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE yms (id NUMBER, y2 INTERVAL YEAR TO MONTH, y0 INTERVAL YEAR(0) TO MONTH, y4 INTERVAL YEAR(4) TO MONTH, y9 INTERVAL YEAR(9) TO MONTH)")
    await conn.execute("INSERT INTO yms VALUES (1, INTERVAL '1-1' YEAR TO MONTH, INTERVAL '0-5' YEAR(0) TO MONTH, INTERVAL '10-3' YEAR(4) TO MONTH, INTERVAL '5-3' YEAR(9) TO MONTH)")
    await conn.execute("INSERT INTO yms VALUES (2, INTERVAL '2-0' YEAR TO MONTH, INTERVAL '0-11' YEAR(0) TO MONTH, NULL, INTERVAL '-1-7' YEAR(9) TO MONTH)")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("a YEAR TO MONTH literal times or divided by a number is YEAR TO MONTH (was 540 days)", async () => {
    const r = await conn.execute("SELECT INTERVAL '1' YEAR * 1.5, 1.5 * INTERVAL '1' YEAR, INTERVAL '1' YEAR / 4, INTERVAL '1-1' YEAR TO MONTH * -2, INTERVAL '7' MONTH / 2 FROM dual")
    expect(typeNames(r)).toEqual([YM, YM, YM, YM, YM])
    expect(dbTypes(r)).toEqual(Array(5).fill(oracledb.DB_TYPE_INTERVAL_YM))
    expect(plain(r.rows)).toEqual([[ym(1, 6), ym(1, 6), ym(0, 3), ym(-2, -2), ym(0, 3)]])
  })

  it("columns of every YEAR(p) TO MONTH precision times or divided by a number, a bind too, are YEAR TO MONTH", async () => {
    const r = await conn.execute("SELECT y2 * 2, 2 * y2, y2 / 4, y0 * 3, y4 * 1.5, y9 * 2, y9 / 4, y2 * :1, (y2 + y0) * 2, -y2 * 2 FROM yms WHERE id = 1", [1.5])
    expect(typeNames(r)).toEqual(Array(10).fill(YM))
    expect(plain(r.rows)).toEqual([[ym(2, 2), ym(2, 2), ym(0, 3), ym(1, 3), ym(15, 4), ym(10, 6), ym(1, 3), ym(1, 7), ym(3, 0), ym(-2, -2)]])
    const text = await conn.execute("SELECT TO_CHAR(y2 * 1.5), TO_CHAR(y4 / 3) FROM yms WHERE id = 1")
    expect(text.rows).toEqual([["+000000001-07", "+000000003-05"]])
  })

  it("scaled YEAR TO MONTH values compare as months in WHERE, with literals, columns and sums", async () => {
    // 13 months * 1.5 = 19.5: 1-7, not 585 days (which matched no YEAR TO MONTH value)
    const eq = await conn.execute("SELECT id FROM yms WHERE y2 * 1.5 = INTERVAL '1-7' YEAR TO MONTH")
    expect(eq.rows).toEqual([[1]])
    const cols = await conn.execute("SELECT id FROM yms WHERE y2 * 10 > y4 AND y4 < y2 * 10 AND y2 / 2 = y0 + INTERVAL '1' MONTH ORDER BY id")
    expect(cols.rows).toEqual([[1]])
    const exact = await conn.execute("SELECT id FROM yms WHERE y9 / 2 < y2 * 3 ORDER BY id")
    expect(exact.rows).toEqual([[1], [2]])
    const dated = await conn.execute("SELECT TO_CHAR(DATE '2024-01-31' + y2 * 2, 'YYYY-MM-DD') FROM yms WHERE id = 1")
    expect(dated.rows).toEqual([["2026-03-31"]])
  })

  it("scaled YEAR TO MONTH values mix with the other storage in set operations, CASE, BETWEEN, IN, MIN / MAX, EXTRACT and ORDER BY", async () => {
    const union = await conn.execute("SELECT y2 * 2 FROM yms WHERE id = 1 UNION ALL SELECT INTERVAL '1' YEAR FROM dual UNION ALL SELECT y4 FROM yms WHERE id = 1")
    expect(typeNames(union)).toEqual([YM])
    expect(plain(union.rows)).toEqual([[ym(2, 2)], [ym(1, 0)], [ym(10, 3)]])
    const chosen = await conn.execute("SELECT CASE WHEN id = 1 THEN y2 * 2 ELSE y0 END, NVL(y4 / 2, y2), EXTRACT(MONTH FROM y2 * 2) FROM yms ORDER BY id")
    expect(typeNames(chosen)).toEqual([YM, YM, "NUMBER"])
    expect(plain(chosen.rows)).toEqual([[ym(2, 2), ym(5, 1), 2], [ym(0, 11), ym(2, 0), 0]])
    const where = await conn.execute("SELECT id FROM yms WHERE y2 * 2 BETWEEN INTERVAL '0-1' YEAR TO MONTH AND y4 OR y0 * 2 IN (INTERVAL '1-10' YEAR TO MONTH, y2) ORDER BY id")
    expect(where.rows).toEqual([[1], [2]])
    const ordered = await conn.execute("SELECT id, MAX(y2 * 2) OVER (), MIN(y0 / 2) OVER () FROM yms ORDER BY y2 * 2 DESC")
    expect(plain(ordered.rows)).toEqual([[2, ym(4, 0), ym(0, 2)], [1, ym(4, 0), ym(0, 2)]])
    // also where no table of the statement has an exact (YEAR(9) TO MONTH) column
    await conn.execute("CREATE TABLE ymn (id NUMBER, y2 INTERVAL YEAR TO MONTH, y4 INTERVAL YEAR(4) TO MONTH)")
    await conn.execute("INSERT INTO ymn VALUES (1, INTERVAL '1-1' YEAR TO MONTH, INTERVAL '0-3' YEAR(4) TO MONTH)")
    const plainTables = await conn.execute("SELECT y2 * 2 FROM ymn UNION ALL SELECT CASE WHEN id = 1 THEN y4 ELSE y2 * 2 END FROM ymn UNION ALL SELECT INTERVAL '1' YEAR FROM dual")
    expect(plain(plainTables.rows)).toEqual([[ym(2, 2)], [ym(0, 3)], [ym(1, 0)]])
    const inList = await conn.execute("SELECT id FROM ymn WHERE y2 * 2 IN (INTERVAL '2-2' YEAR TO MONTH, y4) AND y2 / 2 BETWEEN y4 AND INTERVAL '1' YEAR")
    expect(inList.rows).toEqual([[1]])
    await conn.rollback()
  })

  it("INSERT and UPDATE write scaled YEAR TO MONTH values into columns of every precision, ORA-01873 past one", async () => {
    await conn.execute("CREATE TABLE ymw (id NUMBER, y2 INTERVAL YEAR TO MONTH, y4 INTERVAL YEAR(4) TO MONTH, y9 INTERVAL YEAR(9) TO MONTH)")
    await conn.execute("INSERT INTO ymw VALUES (1, INTERVAL '1' YEAR * 1.5, INTERVAL '10-3' YEAR(4) TO MONTH / 2, INTERVAL '1-1' YEAR TO MONTH * 3)")
    await conn.execute("INSERT INTO ymw (id, y2, y4, y9) SELECT 2, y2 * 2, y4 * 1.5, y9 / 3 FROM yms WHERE id = 1")
    await conn.execute("UPDATE ymw SET y2 = y2 / 3, y4 = y4 * 2, y9 = y9 * 2 WHERE id = 1")
    const r = await conn.execute("SELECT y2, y4, y9 FROM ymw ORDER BY id")
    expect(plain(r.rows)).toEqual([
      [ym(0, 6), ym(10, 2), ym(6, 6)],
      [ym(2, 2), ym(15, 4), ym(1, 9)]
    ])
    expect(oraCode(await failure(() => conn.execute("UPDATE ymw SET y2 = y2 * 100")))).toBe("ORA-01873")
    await conn.rollback()
  })

  it("a PL/SQL YEAR TO MONTH variable given a scaled value holds that interval", async () => {
    const text = async (block: string): Promise<string> =>
      ((await conn.execute(block, { s: { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 } })).outBinds as { s: string }).s
    expect(await text("DECLARE a INTERVAL YEAR TO MONTH := INTERVAL '1' YEAR * 1.5; BEGIN :s := EXTRACT(YEAR FROM a) || '-' || EXTRACT(MONTH FROM a); END;")).toBe("1-6")
    expect(await text("DECLARE a INTERVAL YEAR TO MONTH; BEGIN SELECT y2 * 2 INTO a FROM yms WHERE id = 1; IF a = INTERVAL '2-2' YEAR TO MONTH THEN :s := 'eq'; ELSE :s := 'ne'; END IF; END;")).toBe("eq")
    const out = await conn.execute("DECLARE a INTERVAL YEAR TO MONTH := INTERVAL '1' YEAR * 1.5; BEGIN :t := a; END;", { t: { dir: oracledb.BIND_OUT, type: oracledb.DB_TYPE_INTERVAL_YM } })
    expect(plain([[(out.outBinds as { t: unknown }).t]])).toEqual([[ym(1, 6)]])
  })

  // database.guide, "NUMTOYMINTERVAL() Function in Oracle" (https://database.guide/?p=19607), run on Oracle:
  // NUMTOYMINTERVAL(10.56, 'YEAR') is +10-07 and NUMTOYMINTERVAL(10.56, 'MONTH') +00-11 (126.72 and 10.56 months rounded)
  it("NUMTOYMINTERVAL rounds a fraction of a month, of a literal, a column and a bind (was cut: +10-06, +00-10)", async () => {
    const r = await conn.execute("SELECT NUMTOYMINTERVAL(10.56, 'YEAR'), NUMTOYMINTERVAL(10.56, 'MONTH'), NUMTOYMINTERVAL(n, 'YEAR'), NUMTOYMINTERVAL(:1, 'MONTH') FROM (SELECT 10.56 n FROM dual)", [10.5])
    expect(typeNames(r)).toEqual(Array(4).fill(YM))
    expect(plain(r.rows)).toEqual([[ym(10, 7), ym(0, 11), ym(10, 7), ym(0, 11)]])
  })

  it("SUM and AVG of YEAR(0-8) TO MONTH columns are YEAR TO MONTH (SUM was ORA-00932, AVG 30-day months)", async () => {
    const r = await conn.execute("SELECT SUM(y2), AVG(y2), SUM(y0), AVG(y4), SUM(y9) FROM yms")
    expect(typeNames(r)).toEqual(Array(5).fill(YM))
    // AVG(y2) = 37 / 2 months: 1-6 (the half month cut); AVG(y4) over its one non-NULL value
    expect(plain(r.rows)).toEqual([[ym(3, 1), ym(1, 6), ym(1, 4), ym(10, 3), ym(3, 8)]])
    const grouped = await conn.execute("SELECT id, SUM(y2 * 2) FROM yms GROUP BY id ORDER BY id")
    expect(plain(grouped.rows)).toEqual([[1, ym(2, 2)], [2, ym(4, 0)]])
  })
})
