import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, failure, openConnection, oraCode } from "./oracle/helpers.ts"

// SYS_EXTRACT_UTC, FROM_TZ, TZ_OFFSET and NEW_TIME as the Oracle SQL Language Reference describes them ("SYS_EXTRACT_UTC":
// the UTC of a datetime with time zone, a TIMESTAMP; "FROM_TZ": a timestamp and a zone to a TIMESTAMP WITH TIME ZONE;
// "TZ_OFFSET": the offset of a zone, '+hh:mi' text; "NEW_TIME": a DATE of zone1 as zone2 shows it).
describe("Oracle test server: time zone functions (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  const one = async (sql: string) => (await conn.execute(sql)).rows[0][0]
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute("ALTER SESSION SET TIME_ZONE = '+05:00'")
    await conn.execute("CREATE TABLE tzf (id NUMBER, a TIMESTAMP(9) WITH TIME ZONE, t TIMESTAMP)")
    await conn.execute("INSERT INTO tzf VALUES (1, TIMESTAMP '2024-07-01 12:00:00.5 Europe/Paris', TIMESTAMP '2024-07-01 12:00:00')")
    await conn.execute("INSERT INTO tzf VALUES (2, TIMESTAMP '2024-01-01 06:00:00 America/New_York', TIMESTAMP '2024-01-01 06:00:00')")
    await conn.commit()
  })
  afterAll(() => closeConnection({ server, conn }))

  it("SYS_EXTRACT_UTC gives the UTC wall clock as a TIMESTAMP", async () => {
    const r = await conn.execute("SELECT SYS_EXTRACT_UTC(TIMESTAMP '2024-01-01 12:00:00 +01:00') u FROM dual")
    expect(r.metaData[0]).toMatchObject({ name: "U", dbTypeName: "TIMESTAMP" })
    expect(await one("SELECT TO_CHAR(SYS_EXTRACT_UTC(TIMESTAMP '2024-01-01 12:00:00 +01:00'), 'YYYY-MM-DD HH24:MI:SS') FROM dual")).toBe("2024-01-01 11:00:00")
    const cols = await conn.execute("SELECT id, TO_CHAR(SYS_EXTRACT_UTC(a), 'YYYY-MM-DD HH24:MI:SS.FF3') FROM tzf ORDER BY id")
    expect(cols.rows).toEqual([[1, "2024-07-01 10:00:00.500"], [2, "2024-01-01 11:00:00.000"]])
    // every fraction digit of a TIMESTAMP(9) WITH TIME ZONE
    expect(await one("SELECT TO_CHAR(SYS_EXTRACT_UTC(TIMESTAMP '2024-01-01 00:30:00.123456789 +01:00'), 'YYYY-MM-DD HH24:MI:SS.FF9') FROM dual")).toBe("2023-12-31 23:30:00.123456789")
    // a TIMESTAMP is read in the session time zone (+05:00)
    expect(await one("SELECT TO_CHAR(SYS_EXTRACT_UTC(t), 'HH24:MI') FROM tzf WHERE id = 2")).toBe("01:00")
    expect(await one("SELECT COUNT(*) FROM tzf WHERE SYS_EXTRACT_UTC(a) = TIMESTAMP '2024-01-01 11:00:00'")).toBe(1)
    expect(await one("SELECT SYS_EXTRACT_UTC(NULL) FROM dual")).toBeNull()
    expect(oraCode(await failure(() => conn.execute("SELECT SYS_EXTRACT_UTC(a, a) FROM tzf")))).toBe("ORA-00909")
  })

  it("FROM_TZ gives a TIMESTAMP WITH TIME ZONE of the wall clock in that zone", async () => {
    const r = await conn.execute("SELECT FROM_TZ(TIMESTAMP '2024-07-01 12:00:00', 'Europe/Paris') z FROM dual")
    expect(r.metaData[0]).toMatchObject({ name: "Z", dbTypeName: "TIMESTAMP WITH TIME ZONE" })
    expect(r.rows[0][0]).toEqual(new Date(Date.UTC(2024, 6, 1, 10)))
    expect(await one("SELECT TO_CHAR(FROM_TZ(TIMESTAMP '2024-07-01 12:00:00', 'Europe/Paris'), 'HH24:MI TZR TZH:TZM') FROM dual")).toBe("12:00 Europe/Paris +02:00")
    expect(await one("SELECT TO_CHAR(FROM_TZ(t, '-3:30'), 'HH24:MI TZH:TZM') FROM tzf WHERE id = 2")).toBe("06:00 -03:30")
    // compared by instant with other zoned values
    expect(await one("SELECT id FROM tzf WHERE FROM_TZ(t, 'America/New_York') = a")).toBe(2)
    expect(oraCode(await failure(() => conn.execute("SELECT FROM_TZ(TIMESTAMP '2024-07-01 12:00:00', 'Europe/Nowhere') FROM dual")))).toBe("ORA-01882")
    expect(oraCode(await failure(() => conn.execute("SELECT FROM_TZ(TIMESTAMP '2024-07-01 12:00:00') FROM dual")))).toBe("ORA-00909")
  })

  it("TZ_OFFSET gives a zone's offset as text", async () => {
    const r = await conn.execute("SELECT TZ_OFFSET('Asia/Kolkata') o FROM dual")
    expect(r.metaData[0]).toMatchObject({ name: "O", dbTypeName: "VARCHAR2" })
    expect(r.rows[0][0]).toBe("+05:30")
    expect(await one("SELECT TZ_OFFSET('-08:00') FROM dual")).toBe("-08:00")
    expect(await one("SELECT TZ_OFFSET(SESSIONTIMEZONE) FROM dual")).toBe("+05:00")
    expect(await one("SELECT TZ_OFFSET('UTC') FROM dual")).toBe("+00:00")
    expect(oraCode(await failure(() => conn.execute("SELECT TZ_OFFSET('Mars/Olympus') FROM dual")))).toBe("ORA-01882")
  })

  it("NEW_TIME moves a DATE between the zones it names", async () => {
    // the SQL Language Reference's example: 01:23:45 AST is 21:23:45 PST the day before
    const r = await conn.execute("SELECT NEW_TIME(TO_DATE('11-10-09 01:23:45', 'MM-DD-YY HH24:MI:SS'), 'AST', 'PST') d FROM dual")
    expect(r.metaData[0]).toMatchObject({ name: "D", dbTypeName: "DATE" })
    expect(await one("SELECT TO_CHAR(NEW_TIME(TO_DATE('11-10-09 01:23:45', 'MM-DD-YY HH24:MI:SS'), 'AST', 'PST'), 'YYYY-MM-DD HH24:MI:SS') FROM dual")).toBe("2009-11-09 21:23:45")
    expect(await one("SELECT TO_CHAR(NEW_TIME(DATE '2024-01-01', 'GMT', 'nst'), 'YYYY-MM-DD HH24:MI') FROM dual")).toBe("2023-12-31 20:30")
    expect(oraCode(await failure(() => conn.execute("SELECT NEW_TIME(SYSDATE, 'CET', 'GMT') FROM dual")))).toBe("ORA-01857")
  })
})
