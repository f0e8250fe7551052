import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { closeConnection, openConnection } from "./oracle/helpers.ts"

// ADD_MONTHS, LAST_DAY and MONTHS_BETWEEN take a DATE: a TIMESTAMP WITH TIME ZONE argument is converted to DATE,
// which keeps its own wall clock and drops the zone, and ADD_MONTHS / LAST_DAY return a DATE ("The return type is
// always DATE, regardless of the data type of date", SQL Language Reference, "ADD_MONTHS", "LAST_DAY"). The server
// computed them on the value's stored text (ORA-01861 / ORA-00932).
let server: OracleTestServerHandle
let conn: Conn

const iso = (v: unknown) => (v as Date).toISOString()

describe("Oracle test server: DATE functions of a TIMESTAMP WITH TIME ZONE", () => {
  beforeAll(async () => {
    ;({ server, conn } = await openConnection())
    await conn.execute(`CREATE TABLE zdf (ts TIMESTAMP(6) WITH TIME ZONE)`)
    // 23:30 in Paris is 21:30 UTC: the wall clock, not the instant, decides the day and month
    await conn.execute(`INSERT INTO zdf VALUES (TIMESTAMP '2024-03-31 23:30:00 Europe/Paris')`)
  })
  afterAll(() => closeConnection({ server, conn }))

  it("ADD_MONTHS and LAST_DAY work on the value's own wall clock", async () => {
    const r = (await conn.execute(`SELECT ADD_MONTHS(ts, 1), LAST_DAY(ts) FROM zdf`)).rows as Array<Array<unknown>>
    expect(r[0]!.map(iso)).toEqual(["2024-04-30T23:30:00.000Z", "2024-03-31T23:30:00.000Z"])
  })

  it("MONTHS_BETWEEN of a zoned value and a DATE counts whole months between last days", async () => {
    const r = (await conn.execute(`SELECT MONTHS_BETWEEN(ts, DATE '2024-02-29') FROM zdf`)).rows as Array<Array<unknown>>
    expect(r).toEqual([[1]])
  })

  // "Q: Quarter (rounds up on the sixteenth day of the second month of the quarter)" (SQL Language Reference, "ROUND
  // and TRUNC Date Functions"); was ORA-01722 for a zoned value
  it("ROUND by quarter rounds up from the sixteenth day of the quarter's second month", async () => {
    const r = (await conn.execute(`SELECT ROUND(ts, 'Q'), ROUND(DATE '2024-02-15', 'Q'), ROUND(DATE '2024-02-16', 'Q') FROM zdf`)).rows as Array<Array<unknown>>
    expect(r[0]!.map(iso)).toEqual(["2024-04-01T00:00:00.000Z", "2024-01-01T00:00:00.000Z", "2024-04-01T00:00:00.000Z"])
  })
})
