import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// TIMESTAMP WITH TIME ZONE values are equal when they are the same instant, whatever zones they carry (Database
// Globalization Support Guide, "Datetime Comparisons"; Oracle Objects for OLE, "IsEqual (OraTimeStampTZ) Method": it
// "only compares the Coordinated Universal Time (UTC) date-time values ...; the time zone information is ignored"). So
// they group, are DISTINCT and are unique keys by instant. Rows 1, 2 and 4 below are 11:00 UTC, row 3 is 10:00 UTC.
describe("Oracle test server: TIMESTAMP WITH TIME ZONE groups, DISTINCT and keys by instant (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const noon = new Date(Date.UTC(2024, 0, 1, 11, 0, 0, 123))
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE tzg (id NUMBER, a TIMESTAMP(9) WITH TIME ZONE, n NUMBER, g VARCHAR2(2))")
    await conn.execute("INSERT INTO tzg VALUES (1, TIMESTAMP '2024-01-01 12:00:00.123456789 +01:00', 10, 'lo')")
    await conn.execute("INSERT INTO tzg VALUES (2, TIMESTAMP '2024-01-01 11:00:00.123456789 +00:00', 20, 'lo')")
    await conn.execute("INSERT INTO tzg VALUES (3, TIMESTAMP '2024-01-01 11:00:00 +01:00', 30, 'hi')")
    await conn.execute("INSERT INTO tzg VALUES (4, TIMESTAMP '2024-01-01 06:00:00.123456789 America/New_York', 40, 'hi')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("groups by instant, keeping one of the group's values with its own zone", async () => {
    const r = await conn.execute("SELECT a, COUNT(*), SUM(n) FROM tzg GROUP BY a ORDER BY a")
    expect(r.rows).toEqual([
      [new Date(Date.UTC(2024, 0, 1, 10)), 1, 30],
      [noon, 3, 70]
    ])
    expect(r.metaData[0]).toMatchObject({ name: "A", dbTypeName: "TIMESTAMP WITH TIME ZONE", precision: 9 })
    // the representative is one stored value: its own wall clock and zone, all nine fraction digits
    const shown = await conn.execute("SELECT TO_CHAR(a, 'HH24:MI:SS.FF9 TZR') FROM tzg GROUP BY a HAVING COUNT(*) > 1")
    expect(["12:00:00.123456789 +01:00", "11:00:00.123456789 +00:00", "06:00:00.123456789 America/New_York"]).toContain(shown.rows[0][0])
    // qualified, with WHERE (before grouping) and with another grouped column
    const q = await conn.execute("SELECT x.a, MAX(x.id) FROM tzg x WHERE x.id <> 4 GROUP BY x.a ORDER BY 2")
    expect(q.rows).toEqual([[noon, 2], [new Date(Date.UTC(2024, 0, 1, 10)), 3]])
    const byRow = await conn.execute("SELECT id, TO_CHAR(a, 'HH24:MI TZR') FROM tzg GROUP BY id, a ORDER BY id")
    expect(byRow.rows).toEqual([[1, "12:00 +01:00"], [2, "11:00 +00:00"], [3, "11:00 +01:00"], [4, "06:00 America/New_York"]])
    expect((await conn.execute("SELECT COUNT(DISTINCT a), COUNT(a) FROM tzg")).rows).toEqual([[2, 4]])
  })

  it("makes DISTINCT rows by instant, other items compared as they are", async () => {
    expect((await conn.execute("SELECT DISTINCT a FROM tzg ORDER BY a")).rows).toEqual([[new Date(Date.UTC(2024, 0, 1, 10))], [noon]])
    const pairs = await conn.execute("SELECT DISTINCT a, g FROM tzg ORDER BY g, a")
    expect(pairs.rows).toEqual([[new Date(Date.UTC(2024, 0, 1, 10)), "hi"], [noon, "hi"], [noon, "lo"]])
    // rows that stay apart keep their own zones
    const zones = await conn.execute("SELECT DISTINCT id, TO_CHAR(a, 'TZR') z FROM tzg ORDER BY id")
    expect(zones.rows.map((row: Array<unknown>) => row[1])).toEqual(["+01:00", "+00:00", "+01:00", "America/New_York"])
  })

  // Oracle refuses a PRIMARY KEY or UNIQUE constraint on a TIMESTAMP WITH TIME ZONE column with ORA-02329 (SQL
  // Language Reference, "Constraints": no column of a unique key may be TIMESTAMP WITH TIME ZONE, TIMESTAMP WITH LOCAL
  // TIME ZONE may; https://jonathanlewis.wordpress.com/2019/05/29/timestamp-oddity/ shows the error and that a unique
  // index on the column is created). The unique index compares instants.
  it("refuses PRIMARY KEY and UNIQUE constraints on a zoned column (ORA-02329), keeps unique indexes by instant", async () => {
    const refused = [
      "CREATE TABLE tzk (a TIMESTAMP WITH TIME ZONE PRIMARY KEY, n NUMBER)",
      "CREATE TABLE tzk (a TIMESTAMP(3) WITH TIME ZONE CONSTRAINT tzk_u UNIQUE)",
      "CREATE TABLE tzk (id NUMBER, a TIMESTAMP WITH TIME ZONE, CONSTRAINT tzk_u UNIQUE (id, a))",
      "CREATE TABLE tzk (id NUMBER, a TIMESTAMP WITH TIME ZONE, PRIMARY KEY (a))"
    ]
    for (const sql of refused) {
      const e = await failure(() => conn.execute(sql))
      expect(e.message.split("\n")[0]).toBe("ORA-02329: column of datatype TIME/TIMESTAMP WITH TIME ZONE cannot be unique or a primary key")
    }
    // nothing was created
    expect(oraCode(await failure(() => conn.execute("SELECT * FROM tzk")))).toBe("ORA-00942")
    // LOCAL TIME ZONE keys are allowed
    await conn.execute("CREATE TABLE tzl (a TIMESTAMP WITH LOCAL TIME ZONE PRIMARY KEY)")
    await conn.execute("INSERT INTO tzl VALUES (TIMESTAMP '2024-01-01 12:00:00 +01:00')")
    expect(oraCode(await failure(() => conn.execute("INSERT INTO tzl VALUES (TIMESTAMP '2024-01-01 11:00:00 +00:00')")))).toBe("ORA-00001")
    await conn.execute("CREATE TABLE tzx (id NUMBER, a TIMESTAMP WITH TIME ZONE)")
    await conn.execute("CREATE UNIQUE INDEX tzx_i ON tzx (a)")
    await conn.execute("INSERT INTO tzx VALUES (1, TIMESTAMP '2024-01-01 12:00:00 +01:00')")
    await conn.commit()
    expect(oraCode(await failure(() => conn.execute("INSERT INTO tzx VALUES (2, TIMESTAMP '2024-01-01 11:00:00 +00:00')")))).toBe("ORA-00001")
    expect(oraCode(await failure(() => conn.execute("INSERT INTO tzx VALUES (3, TIMESTAMP '2024-01-01 06:00:00 America/New_York')")))).toBe("ORA-00001")
    await conn.execute("INSERT INTO tzx VALUES (4, TIMESTAMP '2024-01-01 12:00:00 +00:00')")
    await conn.commit()
    expect((await conn.execute("SELECT id, TO_CHAR(a, 'HH24:MI TZR') FROM tzx ORDER BY a")).rows).toEqual([[1, "12:00 +01:00"], [4, "12:00 +00:00"]])
  })

  it("orders by a select-list position or alias by instant, and describes an aliased column as the column", async () => {
    // by text, row 4 (06:00 in New York) would come first and row 1 (12:00 +01:00) last
    expect((await conn.execute("SELECT id, a FROM tzg ORDER BY 2, 1")).rows.map((r: Array<unknown>) => r[0])).toEqual([3, 1, 2, 4])
    const aliased = await conn.execute("SELECT id, a AS t FROM tzg x ORDER BY t DESC, id")
    expect(aliased.rows.map((r: Array<unknown>) => r[0])).toEqual([1, 2, 4, 3])
    expect(aliased.metaData[1]).toMatchObject({ name: "T", dbTypeName: "TIMESTAMP WITH TIME ZONE", precision: 9 })
    expect(aliased.rows[3][1]).toEqual(new Date(Date.UTC(2024, 0, 1, 10)))
    const grouped = await conn.execute("SELECT a, COUNT(*) FROM tzg GROUP BY a ORDER BY 1 DESC")
    expect(grouped.rows).toEqual([[noon, 3], [new Date(Date.UTC(2024, 0, 1, 10)), 1]])
  })

  it("joins and compares with IN (subquery) by instant", async () => {
    const r = await conn.execute("SELECT x.id, y.id FROM tzg x JOIN tzg y ON x.a = y.a WHERE x.id < y.id ORDER BY 1, 2")
    expect(r.rows).toEqual([[1, 2], [1, 4], [2, 4]])
    const ids = async (where: string) => (await conn.execute(`SELECT id FROM tzg x WHERE ${where} ORDER BY id`)).rows.map((row: Array<number>) => row[0])
    expect(await ids("a IN (SELECT a FROM tzg WHERE id = 4)")).toEqual([1, 2, 4])
    expect(await ids("a NOT IN (SELECT a FROM tzg WHERE id = 4)")).toEqual([3])
    expect(await ids("a IN (SELECT y.a FROM tzg y WHERE y.id <> x.id)")).toEqual([1, 2, 4])
    expect(await ids("a IN (SELECT a FROM tzg GROUP BY a HAVING COUNT(*) = 3)")).toEqual([1, 2, 4])
  })
})
