/**
 * The October 1582 gap and the year-10000 limit at every data format version the raw hdb client can ask for. The
 * versions change the wire types of datetime values (1 and 3: DATE 14 / TIME 15 / TIMESTAMP 16 with year, month and
 * day fields; 4 and later: DAYDATE 63, SECONDDATE 62, LONGDATE 61 as day, second and 100 ns counts; hdb
 * lib/protocol/common/DataFormatVersion.js lists 1, 3, 4 … 9), but not what HANA stores: the same values must be
 * kept, computed and refused at each of them.
 */
import { describe, expect, it } from "@effect/vitest"
import { call, exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

/** How hdb prints a SECONDDATE / TIMESTAMP value at `dfv` (ISO with T and milliseconds before 4). */
const shown = (dfv: number, date: string, time: string, kind: "SECONDDATE" | "TIMESTAMP"): string =>
  dfv >= 4 ? `${date} ${time}${kind === "TIMESTAMP" ? ".000000000" : ""}` : `${date}T${time}`

const RANGE_ERROR = /^invalid DATE, TIME or TIMESTAMP value: /

describe.each([1, 3, 4, 8, 9])("HANA test server: October 1582 and year 10000 at data format version %i (raw hdb client)", (dfv) => {
  let c: HdbClient
  useRawHanaSession({ client: { dataFormatSupport: dfv } }, (opened) => (c = opened.client))

  it("negotiates the version asked for", () => {
    expect(c.connectOptions.dataFormatVersion2).toBe(dfv)
  })

  it("counts 1582-10-04 and 1582-10-15 as consecutive days for DATE, SECONDDATE and TIMESTAMP", async () => {
    // HANA numbers days consecutively across the Julian/Gregorian switch (testkit/hana/datetime.ts cites the sources):
    // the ten labels 1582-10-05 .. 1582-10-14 are not days of HANA's calendar.
    // (ADD_SECONDS returns a TIMESTAMP whatever it is given: SAP HANA SQL Reference, ADD_SECONDS.)
    const rows = await exec<Array<Record<string, unknown>>>(
      c,
      `SELECT ADD_DAYS(TO_DATE('1582-10-04'), 1) AS D, DAYS_BETWEEN(TO_DATE('1582-10-04'), TO_DATE('1582-10-15')) AS N,
        ADD_SECONDS(TO_SECONDDATE('1582-10-04 23:59:59'), 1) AS S, ADD_DAYS(TO_TIMESTAMP('1582-10-15 00:00:00'), -1) AS T,
        WEEKDAY(TO_DATE('1582-10-15')) - WEEKDAY(TO_DATE('1582-10-04')) AS W FROM DUMMY`
    )
    expect(rows).toEqual([
      { D: "1582-10-15", N: 1, S: shown(dfv, "1582-10-15", "00:00:00", "TIMESTAMP"), T: shown(dfv, "1582-10-04", "00:00:00", "TIMESTAMP"), W: 1 }
    ])
  })

  it("stores a label inside the gap as the day HANA numbers it (1582-10-20), by literal and by parameter", async () => {
    // Before 1582-10-15 HANA's days are Julian: 1582-10-10 Julian lies 6 days after 1582-10-04 and reads 1582-10-20.
    await exec(c, "CREATE TABLE gap (id INTEGER, d DATE, sd SECONDDATE, ts TIMESTAMP)")
    await exec(c, "INSERT INTO gap VALUES (1, '1582-10-10', '1582-10-10 01:02:03', '1582-10-10 01:02:03')")
    const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO gap VALUES (?, ?, ?, ?)", cb))
    await call((cb) => st.exec([2, "1582-10-10", "1582-10-10 01:02:03", "1582-10-10 01:02:03"], cb))
    await call((cb) => st.exec([3, "1582-10-04", "1582-10-04 01:02:03", "1582-10-04 01:02:03"], cb))
    await call((cb) => st.exec([4, "1582-10-15", "1582-10-15 01:02:03", "1582-10-15 01:02:03"], cb))
    const day = (date: string) => ({ D: date, SD: shown(dfv, date, "01:02:03", "SECONDDATE"), TS: shown(dfv, date, "01:02:03", "TIMESTAMP") })
    expect(await exec(c, "SELECT d, sd, ts, DAYS_BETWEEN(TO_DATE('1582-10-04'), d) AS N FROM gap ORDER BY id")).toEqual([
      { ...day("1582-10-20"), N: 6 },
      { ...day("1582-10-20"), N: 6 },
      { ...day("1582-10-04"), N: 0 },
      { ...day("1582-10-15"), N: 1 }
    ])
  })

  it("refuses 10000-01-01 with 303 in DATE, SECONDDATE and TIMESTAMP columns, and keeps the rows it has", async () => {
    // HANA's datetime values run from 0001-01-01 to 9999-12-31 (SAP HANA SQL Reference, "Datetime Data Types").
    await exec(c, "CREATE TABLE far (id INTEGER, d DATE, sd SECONDDATE, ts TIMESTAMP)")
    await exec(c, "INSERT INTO far VALUES (1, '9999-12-31', '9999-12-31 23:59:59', '9999-12-31 23:59:59')")
    for (const sql of [
      "INSERT INTO far (id, d) VALUES (2, '10000-01-01')",
      "INSERT INTO far (id, sd) VALUES (2, '10000-01-01 00:00:00')",
      "INSERT INTO far (id, ts) VALUES (2, '10000-01-01 00:00:00')",
      "UPDATE far SET d = ADD_DAYS(d, 1)",
      "UPDATE far SET sd = ADD_SECONDS(sd, 1)",
      "UPDATE far SET ts = ADD_DAYS(ts, 1)"
    ]) {
      const err = await failure(exec(c, sql))
      expect([sql, err.code, err.message]).toEqual([sql, 303, expect.stringMatching(RANGE_ERROR)])
    }
    expect(await exec(c, "SELECT id, d, sd, ts FROM far")).toEqual([
      { ID: 1, D: "9999-12-31", SD: shown(dfv, "9999-12-31", "23:59:59", "SECONDDATE"), TS: shown(dfv, "9999-12-31", "23:59:59", "TIMESTAMP") }
    ])
  })

  it("refuses a year-10000 parameter: the server with 303 at versions 1 and 3, hdb itself from 4 on", async () => {
    // Before 4 hdb writes DATE / TIMESTAMP fields from the string's first four-digit year (lib/protocol/Writer.js
    // writeDate, writeTimestamp), which reaches the server as a year out of range; from 4 on it computes day counts
    // and refuses the value before sending (its "Wrong input for DAYDATE type").
    await exec(c, "CREATE TABLE farp (id INTEGER, d DATE, sd SECONDDATE, ts TIMESTAMP)")
    const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO farp VALUES (?, ?, ?, ?)", cb))
    for (const [row, type] of [
      [[1, "10000-01-01", null, null], "DAYDATE"],
      [[2, null, "10000-01-01 00:00:00", null], "SECONDDATE"],
      [[3, null, null, "10000-01-01 00:00:00"], "LONGDATE"]
    ] as const) {
      const err = await failure(call((cb) => st.exec([...row], cb)))
      if (dfv >= 4) expect(err.message).toBe(`Cannot set parameter at row: 1. Wrong input for ${type} type`)
      else expect([err.code, err.message]).toEqual([303, expect.stringMatching(RANGE_ERROR)])
    }
    expect(await exec(c, "SELECT COUNT(*) AS N FROM farp")).toEqual([{ N: 0 }])
    // The session goes on: the same statement takes the last day of the range.
    await call((cb) => st.exec([4, "9999-12-31", "9999-12-31 23:59:59", "9999-12-31 23:59:59"], cb))
    expect(await exec(c, "SELECT d FROM farp")).toEqual([{ D: "9999-12-31" }])
  })

  it("refuses a computed DATE, SECONDDATE or TIMESTAMP past 9999-12-31 with 303, neither NULL nor year 10000", async () => {
    // 10000-01-01 is the NULL value of DAYDATE / SECONDDATE / LONGDATE on the wire (hdb lib/protocol/Reader.js), and
    // DATE / TIMESTAMP (versions 1 and 3) would carry a year HANA does not have.
    for (const sql of [
      "SELECT ADD_DAYS(TO_DATE('9999-12-31'), 1) AS V FROM DUMMY",
      "SELECT ADD_YEARS(TO_DATE('9999-06-01'), 1) AS V FROM DUMMY",
      "SELECT ADD_DAYS(TO_SECONDDATE('9999-12-31 12:00:00'), 1) AS V FROM DUMMY",
      "SELECT CAST(ADD_SECONDS(TO_SECONDDATE('9999-12-31 23:59:59'), 1) AS SECONDDATE) AS V FROM DUMMY",
      "SELECT ADD_SECONDS(TO_TIMESTAMP('9999-12-31 23:59:59'), 1) AS V FROM DUMMY",
      "SELECT ADD_MONTHS(TO_TIMESTAMP('9999-12-31 12:00:00'), 1) AS V FROM DUMMY"
    ]) {
      const err = await failure(exec(c, sql))
      expect([sql, err.code, err.message]).toEqual([sql, 303, expect.stringMatching(RANGE_ERROR)])
    }
    // The last instant of the range is kept to the microsecond, not rounded into year 10000.
    expect(await exec(c, "SELECT ADD_SECONDS(TO_TIMESTAMP('9999-12-31 23:59:58.999999'), 1) AS V FROM DUMMY")).toEqual([
      { V: dfv >= 4 ? "9999-12-31 23:59:59.999999000" : "9999-12-31T23:59:59.999" }
    ])
  })
})
