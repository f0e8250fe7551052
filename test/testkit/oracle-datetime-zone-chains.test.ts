import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// Zoned values with regions newer than the driver's region table (America/Ciudad_Juarez, Europe/Kyiv) copied by
// `INSERT ... SELECT *` into DATE / TIMESTAMP columns (Oracle converts TIMESTAMP WITH TIME ZONE to DATE or TIMESTAMP by
// dropping the zone: the wall clock, Database Globalization Support Guide, "Datetime Data Types and Time Zone Support"),
// and USING / NATURAL joins whose left side is itself a join, comparing zoned columns by instant ("Datetime
// Comparisons", same guide).
describe("Oracle test server: zoned values through INSERT ... SELECT * and join chains (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("CREATE TABLE zsrc (id NUMBER, a TIMESTAMP WITH TIME ZONE)")
    await conn.execute("INSERT INTO zsrc VALUES (1, TIMESTAMP '2024-07-01 12:00:00 Europe/Kyiv')")
    await conn.execute("INSERT INTO zsrc VALUES (2, TIMESTAMP '2024-07-01 08:30:00 America/Ciudad_Juarez')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("keeps the names of regions newer than the driver's table", async () => {
    const r = await conn.execute("SELECT TO_CHAR(a, 'TZR TZH:TZM') FROM zsrc ORDER BY id")
    expect(r.rows).toEqual([["Europe/Kyiv +03:00"], ["America/Ciudad_Juarez -06:00"]])
    // named in a character bind, read by TO_TIMESTAMP_TZ or given to FROM_TZ
    await conn.execute("CREATE TABLE zbind (a TIMESTAMP WITH TIME ZONE)")
    // (a character bind written into the column is read in NLS_TIMESTAMP_TZ_FORMAT: oracle-datetime-text-reads.test.ts)
    await conn.execute("INSERT INTO zbind VALUES (:b)", ["01-JUL-24 12.00.00.000000 PM Europe/Kyiv"])
    await conn.execute("INSERT INTO zbind VALUES (TO_TIMESTAMP_TZ(:b, 'YYYY-MM-DD HH24:MI:SS TZR'))", ["2024-07-01 12:00:00 America/Ciudad_Juarez"])
    expect((await conn.execute("SELECT TO_CHAR(a, 'HH24:MI TZR') FROM zbind ORDER BY a")).rows).toEqual([["12:00 Europe/Kyiv"], ["12:00 America/Ciudad_Juarez"]])
    expect((await conn.execute("SELECT TO_CHAR(FROM_TZ(TIMESTAMP '2024-07-01 12:00:00', :z), 'TZR') FROM dual", ["Europe/Kyiv"])).rows).toEqual([["Europe/Kyiv"]])
    await conn.rollback()
  })

  it("INSERT ... SELECT * of zoned values with regions into DATE and TIMESTAMP columns takes their wall clocks", async () => {
    await conn.execute("CREATE TABLE zdate (id NUMBER, a DATE)")
    await conn.execute("CREATE TABLE zts (id NUMBER, a TIMESTAMP(3))")
    await conn.execute("CREATE TABLE ztz (id NUMBER, a TIMESTAMP WITH TIME ZONE)")
    expect((await conn.execute("INSERT INTO zdate SELECT * FROM zsrc")).rowsAffected).toBe(2)
    await conn.execute("INSERT INTO zts SELECT * FROM zsrc s WHERE s.id > 0")
    await conn.execute("INSERT INTO ztz SELECT * FROM zsrc")
    expect((await conn.execute("SELECT id, TO_CHAR(a, 'YYYY-MM-DD HH24:MI:SS') FROM zdate ORDER BY id")).rows).toEqual([[1, "2024-07-01 12:00:00"], [2, "2024-07-01 08:30:00"]])
    expect((await conn.execute("SELECT id, TO_CHAR(a, 'YYYY-MM-DD HH24:MI:SS') FROM zts ORDER BY id")).rows).toEqual([[1, "2024-07-01 12:00:00"], [2, "2024-07-01 08:30:00"]])
    expect((await conn.execute("SELECT TO_CHAR(a, 'HH24:MI TZR') FROM ztz ORDER BY id")).rows).toEqual([["12:00 Europe/Kyiv"], ["08:30 America/Ciudad_Juarez"]])
    await conn.rollback()
  })

  it("joins zoned columns by instant with USING and NATURAL after another join", async () => {
    await conn.execute("CREATE TABLE jl (id NUMBER, a TIMESTAMP WITH TIME ZONE)")
    await conn.execute("CREATE TABLE jm (k NUMBER, id NUMBER)")
    await conn.execute("CREATE TABLE jr (a TIMESTAMP WITH TIME ZONE, v NUMBER)")
    await conn.execute("INSERT INTO jl VALUES (1, TIMESTAMP '2024-01-01 12:00:00 +01:00')")
    await conn.execute("INSERT INTO jm VALUES (10, 1)")
    // the same instant as jl's row, in another zone
    await conn.execute("INSERT INTO jr VALUES (TIMESTAMP '2024-01-01 06:00:00 America/New_York', 7)")
    await conn.commit()
    expect((await conn.execute("SELECT k, v, TO_CHAR(a, 'TZR') FROM jl JOIN jm USING (id) JOIN jr USING (a)")).rows).toEqual([[10, 7, "+01:00"]])
    expect((await conn.execute("SELECT k, v FROM jl NATURAL JOIN jm NATURAL JOIN jr")).rows).toEqual([[10, 7]])
    expect((await conn.execute("SELECT x.k, v FROM jl JOIN jm x ON jl.id = x.id JOIN jr USING (a)")).rows).toEqual([[10, 7]])
    expect((await conn.execute("SELECT k, v FROM jm JOIN jl USING (id) LEFT JOIN jr USING (a)")).rows).toEqual([[10, 7]])
  })
})
