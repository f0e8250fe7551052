import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection, oracledb } from "./oracle/helpers.ts"

// A TIMESTAMP WITH TIME ZONE bind is a datetime in expressions, as a column of that type is: `:1 + INTERVAL`,
// TO_CHAR(:1, ...), AT TIME ZONE, EXTRACT, in SQL and in PL/SQL (IN OUT binds included). Datetime + interval keeps the
// datetime's zone and adds in UTC, so a region zone moves across a DST change ("Datetime/Interval Arithmetic": "Oracle
// performs all timestamp arithmetic in UTC time", SQL Language Reference,
// https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Datetime-Interval-Arithmetic.html).
const tstz = (d: Date, dir?: number) => ({ type: oracledb.DB_TYPE_TIMESTAMP_TZ, val: d, ...(dir !== undefined ? { dir } : {}) })
const text = { dir: oracledb.BIND_OUT, type: oracledb.STRING, maxSize: 100 }
const FMT = "YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM"

describe("Oracle test server: TIMESTAMP WITH TIME ZONE binds in expressions (raw node-oracledb)", () => {
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
  })
  afterAll(() => closeConnection({ server, conn }))

  it("PL/SQL `:1 := :1 + INTERVAL` on an IN OUT bind in a region zone crosses the DST change by the instant, zone kept (was ORA-00932)", async () => {
    // 2024-03-31 00:30 UTC is 01:30 CET in Berlin; one hour later is 03:30 CEST (clocks jump from 02:00 to 03:00)
    const r = await conn.execute(
      `BEGIN :1 := :1 AT TIME ZONE 'Europe/Berlin'; :1 := :1 + INTERVAL '1' HOUR; :2 := TO_CHAR(:1, '${FMT} TZD'); END;`,
      [tstz(new Date(Date.UTC(2024, 2, 31, 0, 30)), oracledb.BIND_INOUT), text]
    )
    expect(r.outBinds[0]).toEqual(new Date(Date.UTC(2024, 2, 31, 1, 30)))
    expect(r.outBinds[1]).toBe("2024-03-31 03:30:00.000000000 +02:00 CEST")
  })

  it("PL/SQL `:1 := :1 + INTERVAL` on an IN OUT bind with an offset zone keeps the offset and the exact value (was ORA-00932)", async () => {
    const r = await conn.execute(
      `BEGIN :1 := :1 AT TIME ZONE '+05:30'; :1 := :1 + INTERVAL '1:30:00.25' HOUR TO SECOND; :2 := TO_CHAR(:1, '${FMT}'); END;`,
      [tstz(new Date(Date.UTC(2024, 0, 1, 10, 0, 0, 500)), oracledb.BIND_INOUT), text]
    )
    expect(r.outBinds[0]).toEqual(new Date(Date.UTC(2024, 0, 1, 11, 30, 0, 750)))
    expect(r.outBinds[1]).toBe("2024-01-01 17:00:00.750000000 +05:30")
    // the bind as sent (node-oracledb sends a Date at UTC), minus an interval
    const minus = await conn.execute("BEGIN :1 := :1 - INTERVAL '1' DAY; END;", [tstz(new Date(Date.UTC(2024, 0, 1)), oracledb.BIND_INOUT)])
    expect(minus.outBinds[0]).toEqual(new Date(Date.UTC(2023, 11, 31)))
  })

  it("in SQL, a TIMESTAMP WITH TIME ZONE bind is added to, formatted, moved to a zone and extracted from (was ORA-00932)", async () => {
    const at = new Date(Date.UTC(2024, 9, 27, 0, 30))
    const r = await conn.execute(
      `SELECT :1 + INTERVAL '1' HOUR, TO_CHAR(:1 AT TIME ZONE 'Europe/Berlin', '${FMT} TZD'), EXTRACT(HOUR FROM :1), TO_CHAR(:1 + INTERVAL '1' HOUR, 'HH24:MI TZH:TZM') FROM dual`,
      [tstz(at), tstz(at), tstz(at), tstz(at)]
    )
    expect(r.rows).toEqual([[new Date(Date.UTC(2024, 9, 27, 1, 30)), "2024-10-27 02:30:00.000000000 +02:00 CEST", 0, "01:30 +00:00"]])
  })
  it("a parenthesised AT TIME ZONE is an operand of arithmetic, over a bind or a literal (was mistranslated)", async () => {
    const at = new Date(Date.UTC(2024, 2, 31, 0, 30))
    const r = await conn.execute(
      `SELECT TO_CHAR((:1 AT TIME ZONE 'Europe/Berlin') + INTERVAL '1' HOUR, '${FMT} TZD'), ` +
        `TO_CHAR((TIMESTAMP '2024-03-31 00:30:00 +00:00' AT TIME ZONE 'Europe/Berlin') + INTERVAL '1' HOUR, '${FMT} TZD') FROM dual`,
      [tstz(at)]
    )
    expect(r.rows).toEqual([["2024-03-31 03:30:00.000000000 +02:00 CEST", "2024-03-31 03:30:00.000000000 +02:00 CEST"]])
  })
})
