import { beforeAll, describe, expect, it } from "@effect/vitest"
import { call, exec } from "./hana/client.ts"
import { useRawHanaSession } from "./hana/raw-session.ts"
import type { HdbClient, HdbStatement } from "./hana/client.ts"

/**
 * HANA's datetime format models (testkit/hana/datetime-formats.ts) with the raw hdb client: TO_VARCHAR prints a
 * datetime in its format argument, TO_DATE / TO_TIMESTAMP read text in theirs (SAP HANA SQL Reference, "TO_VARCHAR
 * Function (Data Type Conversion)", "TO_DATE Function (Data Type Conversion)"; the elements as "Datetime Data
 * Types" and the conversion functions list them). Text that does not match its format fails with 303 (L. Breddemann,
 * "Be careful with dates and timestamps": `[303]: invalid DATE, TIME or TIMESTAMP value: Error while parsing …`).
 */
describe.each([1, 8])("HANA test server: datetime format models at data format version %i (raw hdb client)", (dfv) => {
  let c: HdbClient
  useRawHanaSession({ client: { dataFormatSupport: dfv }, setup: ["CREATE TABLE fmt (id INTEGER, ts TIMESTAMP, d DATE, sd SECONDDATE, t TIME)"] }, (opened) => (c = opened.client))
  beforeAll(async () => {
    await exec(c, `INSERT INTO fmt VALUES (1, '2024-03-05 14:07:09.1234567', '2024-03-05', '2024-12-31 00:30:59', '23:59:58')`)
  })

  it("TO_VARCHAR prints every element of a format, names in the element's case", async () => {
    const [row] = await exec<Array<Record<string, string>>>(
      c,
      `SELECT TO_VARCHAR(ts, 'YYYY-MM-DD HH24:MI:SS.FF3') AS A, TO_VARCHAR(ts, 'DD.MM.YY HH12:MI AM') AS B,
        TO_NVARCHAR(d, 'YYYYMMDD') AS C, TO_CHAR(d, 'Q "Q" YYYY, MON Mon mon MONTH Month, DY Day, DDD, WW, W, RM') AS D,
        TO_VARCHAR(sd, 'HH:MI:SS PM DDD') AS E, TO_VARCHAR(t, 'HH24MISS') AS F, TO_VARCHAR(ts, 'FF7 FF6 FF1 FF') AS G
       FROM fmt WHERE id = 1`
    )
    expect(row).toEqual({
      A: "2024-03-05 14:07:09.123",
      B: "05.03.24 02:07 PM",
      C: "20240305",
      D: "1 Q 2024, MAR Mar mar MARCH March, TUE Tuesday, 065, 10, 1, III",
      E: "12:30:59 AM 366",
      // The server keeps microseconds (README, "TIMESTAMP (LONGDATE) keeps microseconds"): the seventh digit is 0.
      F: "235958",
      G: "1234567 123456 1 1234567"
    })
  })

  it("TO_DATE and TO_TIMESTAMP read text in their format", async () => {
    const [row] = await exec<Array<Record<string, unknown>>>(
      c,
      `SELECT TO_VARCHAR(TO_DATE('20240131', 'YYYYMMDD')) AS A, TO_VARCHAR(TO_DATE('31/12/1999', 'DD/MM/YYYY')) AS B,
        TO_VARCHAR(TO_DATE('5-Feb-2023', 'DD-MON-YYYY')) AS C, TO_VARCHAR(TO_DATE('2024 060', 'YYYY DDD')) AS D,
        TO_VARCHAR(TO_TIMESTAMP('2024-01-02 03:04:05.25', 'YYYY-MM-DD HH24:MI:SS.FF7')) AS E,
        TO_VARCHAR(TO_TIMESTAMP('01/02/2024 11:15 PM', 'MM/DD/YYYY HH:MI AM')) AS F,
        TO_VARCHAR(TO_TIMESTAMP('20240102031500', 'YYYYMMDDHH24MISS')) AS G,
        TO_VARCHAR(TO_DATE('MARCH 7 2020', 'MONTH DD YYYY')) AS H
       FROM DUMMY`
    )
    expect(row).toEqual({
      A: "2024-01-31",
      B: "1999-12-31",
      C: "2023-02-05",
      D: "2024-02-29",
      E: "2024-01-02 03:04:05.2500000",
      F: "2024-01-02 23:15:00.0000000",
      G: "2024-01-02 03:15:00.0000000",
      H: "2020-03-07"
    })
    // The result is a DATE: day arithmetic and comparison with a DATE column work on it.
    const [cmp] = await exec<Array<Record<string, unknown>>>(
      c,
      "SELECT COUNT(*) AS N, TO_VARCHAR(ADD_DAYS(TO_DATE('04032024', 'DDMMYYYY'), 1)) AS NEXT FROM fmt WHERE d = TO_DATE('05.03.2024', 'DD.MM.YYYY')"
    )
    expect([String(cmp!["N"]), cmp!["NEXT"]]).toEqual(["1", "2024-03-05"])
  })

  it("SSSSS is the seconds past midnight, printed in five digits and read back", async () => {
    // SAP HANA SQL Reference, "Datetime Data Types" (format elements): SSSSS, seconds past midnight (0-86399).
    expect(await exec(c, "SELECT TO_VARCHAR(ts, 'SSSSS') AS A, TO_VARCHAR(sd, 'YYYY-MM-DD SSSSS') AS B FROM fmt WHERE id = 1")).toEqual([
      { A: "50829", B: "2024-12-31 01859" }
    ])
    expect(await exec(c, "SELECT TO_VARCHAR(TO_TIMESTAMP('2024-03-05 50829', 'YYYY-MM-DD SSSSS')) AS T FROM DUMMY")).toEqual([
      { T: "2024-03-05 14:07:09.0000000" }
    ])
  })

  it("a format applies to a parameter, and the value read is a DATE", async () => {
    const st = await call<HdbStatement>((cb) => c.prepare("SELECT TO_VARCHAR(TO_DATE(?, 'DD.MM.YYYY'), 'YYYY/MM/DD') AS V FROM DUMMY", cb))
    const rows = await call<Array<Record<string, unknown>>>((cb) => st.exec(["29.02.2024"], cb))
    expect(rows).toEqual([{ V: "2024/02/29" }])
  })

  it("text that does not match its format fails with 303 naming the text and the session stays usable", async () => {
    for (const [sql, why] of [
      ["SELECT TO_DATE('2024|01|31x', 'YYYY|MM|DD') FROM DUMMY", /after the format's end/],
      ["SELECT TO_DATE('31.02.2024', 'DD.MM.YYYY') FROM DUMMY", /day 31 is not in 2024-02/],
      ["SELECT TO_DATE('2024-13-01', 'YYYY-MM-DD') FROM DUMMY", /month 13/],
      ["SELECT TO_TIMESTAMP('2024-01-01 13:00 PM', 'YYYY-MM-DD HH:MI PM') FROM DUMMY", /hour 13/],
      ["SELECT TO_DATE('Jan 2024', 'XYZ YYYY') FROM DUMMY", /format element XYZ is not one of/]
    ] as const) {
      const err = await exec(c, sql).then(() => undefined, (e: { code?: number; message?: string }) => e)
      expect(err?.code, sql).toBe(303)
      expect(err?.message).toMatch(/invalid DATE, TIME or TIMESTAMP value/)
      expect(err?.message).toMatch(why)
    }
    const [ok] = await exec<Array<Record<string, unknown>>>(c, "SELECT TO_VARCHAR(d, 'DD') AS D FROM fmt")
    expect(ok).toEqual({ D: "05" })
  })

  it("without a format nothing changes: TO_VARCHAR prints HANA's default text, TO_DATE reads ISO text", async () => {
    const [row] = await exec<Array<Record<string, unknown>>>(
      c,
      "SELECT TO_VARCHAR(ts) AS A, TO_VARCHAR(d) AS B, TO_VARCHAR(TO_DATE('2024-01-31')) AS C, TO_VARCHAR(42, 'XX') AS N FROM fmt"
    )
    expect(row).toEqual({ A: "2024-03-05 14:07:09.1234567", B: "2024-03-05", C: "2024-01-31", N: "42" })
  })
})
