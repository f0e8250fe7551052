import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, oracledb, openConnection } from "./oracle/helpers.ts"

// Everyday analytics shapes over TIMESTAMP WITH TIME ZONE columns (raw node-oracledb). Oracle compares and subtracts
// such values by their UTC instants (Database Globalization Support Guide, "Datetime and Interval Arithmetic and Time
// Zones"), converts them to DATE on their own wall clock, and `DATE - DATE` is a number of days, `DATE ± n` a DATE
// (SQL Language Reference, "Datetime/Interval Arithmetic").
describe("Oracle test server: everyday shapes over zoned timestamps", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const rows = async (sql: string) => (await conn.execute(sql)).rows
  const typeOf = async (sql: string) => (await conn.execute(sql)).metaData.map((m: { dbType: unknown }) => m.dbType)
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE zes_ev (id NUMBER, t TIMESTAMP WITH TIME ZONE, v NUMBER)")
    await conn.execute("CREATE TABLE zes_dim (id NUMBER, w NUMBER)")
    await conn.execute("CREATE TABLE zes_d (id NUMBER, d DATE)")
    await conn.execute("INSERT INTO zes_ev VALUES (1, TIMESTAMP '2024-01-01 10:00:00 +00:00', 5)")
    await conn.execute("INSERT INTO zes_ev VALUES (2, TIMESTAMP '2024-06-01 11:30:00 Europe/Berlin', 6)")
    await conn.execute("INSERT INTO zes_dim VALUES (1, 3)")
    await conn.execute("INSERT INTO zes_d VALUES (1, DATE '2024-01-05')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("TRUNC / ROUND of a date and CAST to DATE take days and intervals as DATEs (was ORA-00932)", async () => {
    expect(await rows("SELECT TRUNC(d) - 1, TRUNC(d, 'MM') - 1, 1 + ROUND(d), TRUNC(d) - DATE '2024-01-01' FROM zes_d")).toEqual([
      [new Date("2024-01-04T00:00:00Z"), new Date("2023-12-31T00:00:00Z"), new Date("2024-01-06T00:00:00Z"), 4]
    ])
    // the last week's rows, as a report filters them
    expect(await rows("SELECT COUNT(*) FROM zes_ev WHERE t >= TRUNC(DATE '2024-06-03') - 7")).toEqual([[1]])
    expect(await rows("SELECT COUNT(*) FROM zes_ev WHERE TRUNC(SYSDATE) - 100000 <= t")).toEqual([[2]])
    // hours since New Year on each value's own wall clock
    expect(await rows("SELECT CAST(t AS DATE) - DATE '2024-01-01', ROUND((CAST(t AS DATE) - DATE '2024-01-01') * 24), CAST(t AS DATE) + 1 FROM zes_ev ORDER BY id")).toEqual([
      [10 / 24, 10, new Date("2024-01-02T10:00:00Z")],
      [152 + 11.5 / 24, 3660, new Date("2024-06-02T11:30:00Z")]
    ])
    expect(await rows("SELECT ROUND((d - DATE '2024-01-01') * 24) FROM zes_d")).toEqual([[96]])
  })

  it("the span of zoned extremes is an interval of their instants (was ORA-00932)", async () => {
    const span = { days: 151, hours: 23, minutes: 30, seconds: 0, fseconds: 0 }
    expect(await rows("SELECT MAX(t) - MIN(t), EXTRACT(DAY FROM (MAX(t) - MIN(t))) FROM zes_ev")).toEqual([[span, 151]])
    expect(await typeOf("SELECT MAX(t) - MIN(t) FROM zes_ev")).toEqual([oracledb.DB_TYPE_INTERVAL_DS])
    expect(await rows("SELECT MAX(t) - TIMESTAMP '2024-06-01 09:00:00 +00:00' FROM zes_ev")).toEqual([[{ days: 0, hours: 0, minutes: 30, seconds: 0, fseconds: 0 }]])
  })

  it("SELECT * over a USING or NATURAL join describes each column by its own table (was ORA-01722)", async () => {
    const star = await conn.execute("SELECT * FROM zes_dim JOIN zes_ev USING (id)")
    expect(star.metaData.map((m: { name: string; dbType: unknown }) => [m.name, m.dbType])).toEqual([
      ["ID", oracledb.DB_TYPE_NUMBER], ["W", oracledb.DB_TYPE_NUMBER], ["T", oracledb.DB_TYPE_TIMESTAMP_TZ], ["V", oracledb.DB_TYPE_NUMBER]
    ])
    expect(star.rows).toEqual([[1, 3, new Date("2024-01-01T10:00:00Z"), 5]])
    expect(await rows("SELECT * FROM zes_dim NATURAL JOIN zes_ev")).toEqual([[1, 3, new Date("2024-01-01T10:00:00Z"), 5]])
    expect(await rows("SELECT * FROM zes_dim LEFT JOIN (SELECT id, t FROM zes_ev) s USING (id)")).toEqual([[1, 3, new Date("2024-01-01T10:00:00Z")]])
  })
})
