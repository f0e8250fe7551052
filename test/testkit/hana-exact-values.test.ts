import { describe, expect, it } from "@effect/vitest"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import { call, closeQuietly, connect, exec, failure } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

/** Values kept, padded and refused as HANA does, at the oldest data format version hdb can ask for and at 8. */
describe.each([1, 8])("HANA test server: exact values at data format version %i (raw hdb client)", (dfv) => {
  let c: HdbClient
  useRawHanaSession({ client: { dataFormatSupport: dfv } }, (opened) => (c = opened.client))

  it("ALPHANUM pads a purely numeric value with zeros to its declared length, whatever zeros it was given", async () => {
    // HANA stores a numeric ALPHANUM value as a number and the client pads it (hdb lib/protocol/Reader.js readBytes:
    // ALPHANUM_NUMERIC_VALUE, "zero-pad the value"); text stays as it is.
    await exec(c, "CREATE TABLE an (id INTEGER, a ALPHANUM(6))")
    for (const [id, v] of [[1, "00123"], [2, "123"], [3, "12A"], [4, "0"]] as const) await exec(c, `INSERT INTO an VALUES (${id}, '${v}')`)
    const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO an VALUES (?, ?)", cb))
    await call((cb) => st.exec([5, "42"], cb))
    expect(await exec(c, "SELECT a FROM an ORDER BY id")).toEqual([{ A: "000123" }, { A: "000123" }, { A: "12A" }, { A: "000000" }, { A: "000042" }])
  })

  it("a date beyond 9999-12-31 is refused with 303 on every write path, and the table keeps its rows", async () => {
    // HANA's dates run from 0001-01-01 to 9999-12-31 (SAP HANA SQL Reference, "Datetime Data Types"); 10000-01-01 is
    // DAYDATE's NULL value on the wire (hdb lib/protocol/Reader.js), so it must never be stored.
    await exec(c, "CREATE TABLE far (d DATE, ts TIMESTAMP, sd SECONDDATE)")
    await exec(c, "INSERT INTO far VALUES ('9999-12-31', '9999-12-31 23:59:59', '9999-12-31 23:59:59')")
    for (const sql of [
      "INSERT INTO far (d) VALUES ('10000-01-01')",
      "INSERT INTO far (ts) VALUES ('10000-01-01 00:00:00')",
      "UPDATE far SET sd = ADD_DAYS(sd, 1)"
    ]) {
      const err = await failure(exec(c, sql))
      expect([err.code, err.message]).toEqual([303, expect.stringMatching(/^invalid DATE, TIME or TIMESTAMP value: /)])
    }
    expect(await exec(c, "SELECT d, sd FROM far")).toEqual([{ D: "9999-12-31", SD: dfv >= 4 ? "9999-12-31 23:59:59" : "9999-12-31T23:59:59" }])
  })

  it("a SECONDDATE parameter keeps whole seconds, truncated as HANA does (not rounded)", async () => {
    await exec(c, "CREATE TABLE sdp (id INTEGER, sd SECONDDATE)")
    const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO sdp VALUES (?, ?)", cb))
    await call((cb) => st.exec([1, "2024-01-01 10:00:00.9"], cb))
    expect(await exec(c, "SELECT sd FROM sdp")).toEqual([{ SD: dfv >= 4 ? "2024-01-01 10:00:00" : "2024-01-01T10:00:00" }])
  })

  it("DECIMAL(p,s) parameters keep s fraction digits, truncated as HANA does, single and batched", async () => {
    // SAP HANA SQL Reference, "Numeric Data Types": DECIMAL(5,4) stores 3.141592 as 3.1415. hdb truncates itself
    // for the FIXED types of data format version 8; at 1-7 the value arrives with all its digits.
    await exec(c, "CREATE TABLE decp (id INTEGER, v DECIMAL(5,4))")
    const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO decp VALUES (?, ?)", cb))
    await call((cb) => st.exec([1, "3.141592"], cb))
    await call((cb) => st.exec([[2, "-2.71828"], [3, "0.00009"], [4, "1"]], cb))
    expect(await exec(c, "SELECT v FROM decp ORDER BY id")).toEqual([{ V: "3.1415" }, { V: "-2.7182" }, { V: "0.0000" }, { V: "1.0000" }])
    const overflow = await failure(call((cb) => st.exec([5, "12.5"], cb)))
    expect([overflow.code, overflow.message.startsWith("numeric overflow")]).toEqual([314, true])
  })

  it("a date written in the October 1582 gap reads as the day HANA numbers it, the same at every version", async () => {
    // Before 1582-10-15 HANA's days are Julian (testkit/hana/datetime.ts cites SAP's clients): 1582-10-10 Julian is
    // the day after 1582-10-19, so it reads 1582-10-20 and lies 6 days after 1582-10-04.
    await exec(c, "CREATE TABLE gap (id INTEGER, d DATE, ts TIMESTAMP)")
    await exec(c, "INSERT INTO gap VALUES (1, '1582-10-10', '1582-10-10 12:00:00')")
    const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO gap VALUES (?, ?, ?)", cb))
    await call((cb) => st.exec([2, "1582-10-04", "1582-10-04 12:00:00"], cb))
    const rows = await exec<Array<{ D: string; TS: string; N: number }>>(c, "SELECT d, ts, DAYS_BETWEEN(TO_DATE('1582-10-04'), d) AS N FROM gap ORDER BY id")
    expect(rows.map((r) => [r.D, r.TS.slice(0, 10), r.N])).toEqual([["1582-10-20", "1582-10-20", 6], ["1582-10-04", "1582-10-04", 0]])
  })

  it("a TIMESTAMP at either end of HANA's range reads back truncated, never rounded into the next second or day", async () => {
    // At data format version 1-3 a TIMESTAMP travels with milliseconds (hdb lib/protocol/Writer.js writeTimestamp
    // sends three fraction digits; Reader.js readTimestamp reads them), at 4 and later as a LONGDATE of 100 ns ticks.
    // Microseconds since 1970 pass 2^53 after the year 2255 and before 1685, so they must be split exactly.
    await exec(c, "CREATE TABLE ends (id INTEGER, ts TIMESTAMP)")
    await exec(c, "INSERT INTO ends VALUES (1, '0001-01-01 00:00:00.999999'), (2, '9999-12-31 23:59:59.999999')")
    const st = await call<HdbStatement>((cb) => c.prepare("INSERT INTO ends VALUES (?, ?)", cb))
    await call((cb) => st.exec([3, "0001-01-01 00:00:00.999999"], cb))
    await call((cb) => st.exec([[4, "9999-12-31 23:59:59.999999"], [5, "2300-06-30 23:59:59.999999"]], cb))
    const full = dfv >= 4 ? ["0001-01-01 00:00:00.999999000", "9999-12-31 23:59:59.999999000"] : ["0001-01-01T00:00:00.999", "9999-12-31T23:59:59.999"]
    expect(await exec(c, "SELECT ts FROM ends ORDER BY id")).toEqual([
      { TS: full[0] },
      { TS: full[1] },
      { TS: full[0] },
      { TS: full[1] },
      { TS: dfv >= 4 ? "2300-06-30 23:59:59.999999000" : "2300-06-30T23:59:59.999" }
    ])
  })

  it("SECONDTIME and TIME drop the fractions of a second", async () => {
    await exec(c, "CREATE TABLE tm (t TIME)")
    await exec(c, "INSERT INTO tm VALUES ('10:00:00.7')")
    expect(await exec(c, "SELECT t FROM tm")).toEqual([{ T: "10:00:00" }])
  })
})

describe.each([1, 3, 4, 8, 9])("HANA test server: computed datetimes beyond 9999-12-31 (raw hdb client, data format version %i)", (dfv) => {
  it("fail with 303 instead of reading as NULL or as year 10000, for DATE, SECONDDATE and TIMESTAMP", async () => {
    const server = await startHanaTestServer()
    const c = await connect({ host: server.host, port: server.port, user: server.user, password: server.password, dataFormatSupport: dfv })
    try {
      // 10000-01-01 is the NULL value of DAYDATE, SECONDDATE and LONGDATE (data format version 4 and later); at 1-3 the
      // DATE / TIMESTAMP wire types could carry year 10000, which HANA does not have.
      for (const sql of [
        "SELECT ADD_YEARS(TO_DATE('9999-06-01'), 1) AS D FROM DUMMY",
        "SELECT ADD_DAYS(TO_DATE('9999-12-31'), 1) AS D FROM DUMMY",
        "SELECT ADD_SECONDS(TO_SECONDDATE('9999-12-31 23:59:59'), 1) AS D FROM DUMMY",
        "SELECT ADD_SECONDS(TO_TIMESTAMP('9999-12-31 23:59:59'), 1) AS D FROM DUMMY",
        "SELECT ADD_DAYS(TO_TIMESTAMP('9999-12-31 12:00:00'), 1) AS D FROM DUMMY"
      ]) {
        const err = await failure(exec(c, sql))
        expect({ sql, code: err.code }).toEqual({ sql, code: 303 })
      }
      expect(await exec(c, "SELECT ADD_YEARS(TO_DATE('9998-06-01'), 1) AS D FROM DUMMY")).toEqual([{ D: "9999-06-01" }])
      const [last] = await exec<Array<{ S: string; T: string }>>(
        c,
        "SELECT ADD_SECONDS(TO_SECONDDATE('9999-12-31 23:59:58'), 1) AS S, ADD_SECONDS(TO_TIMESTAMP('9999-12-31 23:59:58'), 1) AS T FROM DUMMY"
      )
      expect(last!.S.replace("T", " ")).toMatch(/^9999-12-31 23:59:59/)
      expect(last!.T.replace("T", " ")).toMatch(/^9999-12-31 23:59:59/)
      // the session stays usable
      expect(await exec(c, "SELECT 1 AS X FROM DUMMY")).toEqual([{ X: 1 }])
    } finally {
      closeQuietly(c)
      await server.close()
    }
  })
})
