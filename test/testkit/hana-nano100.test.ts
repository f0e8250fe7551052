import { beforeAll, describe, expect, it } from "@effect/vitest"
import { call, exec } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

/**
 * HANA's 100 ns datetime functions and TIMESTAMP text, with the raw hdb client, at the oldest data format version
 * hdb can ask for (TIMESTAMP on the wire) and at 8 (LONGDATE). The functions are computed by the server, so the
 * answers are the same at both.
 */
describe.each([1, 8])("HANA test server: NANO100_BETWEEN, ADD_NANO100 and TO_VARCHAR of a TIMESTAMP at data format version %i (raw hdb client)", (dfv) => {
  let c: HdbClient
  useRawHanaSession({ client: { dataFormatSupport: dfv }, setup: ["CREATE TABLE ticks (id INTEGER, a TIMESTAMP, b TIMESTAMP, d DATE, sd SECONDDATE)"] }, (opened) => (c = opened.client))
  beforeAll(async () => {
    await exec(c, `INSERT INTO ticks VALUES (1, '2024-01-02 03:04:05.123456', '2024-01-03 03:04:05.5', '2024-01-02', '2024-01-02 03:04:05')`)
    await exec(c, `INSERT INTO ticks VALUES (2, '1582-10-04 23:59:59', '1582-10-15 00:00:00', '1582-10-04', '1582-10-15 00:00:00')`)
    await exec(c, `INSERT INTO ticks VALUES (3, '0001-01-01 00:00:00', '9999-12-31 23:59:59.999999', '0001-01-01', '9999-12-31 23:59:59')`)
  })

  it("NANO100_BETWEEN counts 100 ns units from its first argument to its second, across October 1582 as HANA numbers days", async () => {
    // SAP HANA SQL Reference, "NANO100_BETWEEN Function (Datetime)": the difference between two dates in 0.1
    // microseconds. Clients build their tick and nanosecond differences on it: Hibernate's HANA dialect
    // (timestampdiff NANOSECOND is `nano100_between(?2,?3)*100`), linq2db's SAP HANA provider (DateDiff in ticks).
    // HANA counts 1582-10-04 and 1582-10-15 as consecutive days (README, "Day numbers").
    const rows = await exec<Array<Record<string, unknown>>>(
      c,
      "SELECT id, NANO100_BETWEEN(a, b) AS AB, NANO100_BETWEEN(b, a) AS BA, NANO100_BETWEEN(d, a) AS DA FROM ticks ORDER BY id"
    )
    expect(rows.map((r) => [r["AB"], r["BA"], r["DA"]].map(String))).toEqual([
      ["864003765440", "-864003765440", "110451234560"],
      ["10000000", "-10000000", "863990000000"],
      ["3155380703999999990", "-3155380703999999990", "0"]
    ])
  })

  it("NANO100_BETWEEN takes DATE and SECONDDATE values and datetime literals", async () => {
    const [row] = await exec<Array<Record<string, unknown>>>(
      c,
      `SELECT NANO100_BETWEEN(TO_DATE('2024-01-01'), TO_DATE('2024-01-02')) AS DD,
        NANO100_BETWEEN(sd, a) AS SA, NANO100_BETWEEN('2024-01-02 03:04:05', '2024-01-02 03:04:06.25') AS LL FROM ticks WHERE id = 1`
    )
    expect([row!["DD"], row!["SA"], row!["LL"]].map(String)).toEqual(["864000000000", "1234560", "12500000"])
    // Parameters take the argument types: a TIMESTAMP for the dates, a BIGINT for the count.
    const st = await call<HdbStatement>((cb) =>
      c.prepare("SELECT NANO100_BETWEEN(?, a) AS N, TO_VARCHAR(ADD_NANO100(a, ?)) AS T FROM ticks WHERE id = 1", cb)
    )
    const [bound] = await call<Array<Record<string, unknown>>>((cb) => st.exec(["2024-01-02 03:04:05", 20], cb))
    expect([String(bound!["N"]), bound!["T"]]).toEqual(["1234560", "2024-01-02 03:04:05.1234580"])
  })

  it("ADD_NANO100 adds 100 ns units to a TIMESTAMP, across October 1582 as HANA numbers days", async () => {
    // SAP HANA SQL Reference, "ADD_NANO100 Function (Datetime)": ADD_NANO100(TO_TIMESTAMP('1000-01-01 10:00:00.0000000'),
    // 864000000000) is 1000-01-02 10:00:00.0000000.
    const [row] = await exec<Array<Record<string, unknown>>>(
      c,
      `SELECT TO_VARCHAR(ADD_NANO100(TO_TIMESTAMP('1000-01-01 10:00:00.0000000'), 864000000000)) AS DOC,
        TO_VARCHAR(ADD_NANO100(a, 10)) AS LATER, TO_VARCHAR(ADD_NANO100(a, -1234560)) AS EARLIER FROM ticks WHERE id = 1`
    )
    expect(row).toEqual({ DOC: "1000-01-02 10:00:00.0000000", LATER: "2024-01-02 03:04:05.1234570", EARLIER: "2024-01-02 03:04:05.0000000" })
    const [gap] = await exec<Array<Record<string, unknown>>>(
      c,
      "SELECT TO_VARCHAR(ADD_NANO100(a, 10000000)) AS FWD, TO_VARCHAR(ADD_NANO100(b, -10000000)) AS BACK FROM ticks WHERE id = 2"
    )
    expect(gap).toEqual({ FWD: "1582-10-15 00:00:00.0000000", BACK: "1582-10-04 23:59:59.0000000" })
  })

  it("TO_VARCHAR of a TIMESTAMP prints HANA's default format with seven fraction digits; SECONDDATE and DATE none", async () => {
    // SAP HANA SQL Reference, "Datetime Data Types": TIMESTAMP's default format is 'YYYY-MM-DD HH24:MI:SS.FF7',
    // SECONDDATE's 'YYYY-MM-DD HH24:MI:SS', DATE's 'YYYY-MM-DD'.
    const rows = await exec<Array<Record<string, unknown>>>(
      c,
      "SELECT TO_VARCHAR(a) AS A, TO_NVARCHAR(b) AS B, TO_VARCHAR(sd) AS SD, TO_VARCHAR(d) AS D FROM ticks ORDER BY id"
    )
    expect(rows).toEqual([
      { A: "2024-01-02 03:04:05.1234560", B: "2024-01-03 03:04:05.5000000", SD: "2024-01-02 03:04:05", D: "2024-01-02" },
      { A: "1582-10-04 23:59:59.0000000", B: "1582-10-15 00:00:00.0000000", SD: "1582-10-15 00:00:00", D: "1582-10-04" },
      { A: "0001-01-01 00:00:00.0000000", B: "9999-12-31 23:59:59.9999990", SD: "9999-12-31 23:59:59", D: "0001-01-01" }
    ])
    const [now] = await exec<Array<Record<string, string>>>(c, "SELECT TO_VARCHAR(CURRENT_TIMESTAMP) AS T FROM DUMMY")
    expect(now!["T"]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{7}$/)
  })

  it("the seventh fraction digit is kept on every write path, never rounded into the next second or year 10000", async () => {
    // SAP HANA SQL Reference, "Datetime Data Types": TIMESTAMP keeps seven fraction digits (100 ns); rounding would
    // carry 9999-12-31 23:59:59.9999999 out of HANA's range.
    await exec(c, "CREATE TABLE seventh (id INTEGER, ts TIMESTAMP)")
    await exec(c, "INSERT INTO seventh VALUES (1, '2024-01-02 03:04:05.9999999')")
    await exec(c, "INSERT INTO seventh VALUES (2, TIMESTAMP '9999-12-31 23:59:59.9999999')")
    await exec(c, "INSERT INTO seventh VALUES (3, NULL)")
    await exec(c, "UPDATE seventh SET ts = '0001-01-01 00:00:00.0000009' WHERE id = 3")
    await exec(c, "INSERT INTO seventh SELECT id + 10, ts FROM seventh WHERE id < 4")
    const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO seventh VALUES (?, ?)", cb))
    await call((cb) => st.exec([21, "2024-01-02 03:04:05.9999999"], cb))
    await call((cb) => st.exec([[22, "9999-12-31 23:59:59.9999999"], [23, "0001-01-01 00:00:00.0000009"]], cb))
    const rows = await exec<Array<Record<string, unknown>>>(c, "SELECT id, TO_VARCHAR(ts) AS T FROM seventh ORDER BY id")
    const written = ["2024-01-02 03:04:05.9999999", "9999-12-31 23:59:59.9999999", "0001-01-01 00:00:00.0000009"]
    // hdb itself sends a TIMESTAMP parameter with milliseconds at data format versions 1-3 (Writer.js writeTimestamp).
    const sent = dfv >= 4 ? written : ["2024-01-02 03:04:05.9990000", "9999-12-31 23:59:59.9990000", "0001-01-01 00:00:00.0000000"]
    expect(rows.map((r) => r["T"])).toEqual([...written, ...written, ...sent])
  })
})
