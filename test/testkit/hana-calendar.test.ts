import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../testkit/hana/index.ts"
import { closeQuietly, connect, exec, failure } from "./hana/client.ts"
import type { HdbClient, HdbSqlError } from "./hana/client.ts"

const pad = (n: number, width: number): string => String(n).padStart(width, "0")

/**
 * A date label HANA has: days 1-28 exist in every month of both calendars; 1582-10-05 .. 1582-10-14 do not exist
 * (HANA counts 1582-10-04 and 1582-10-15 as consecutive days).
 */
const label = (years: fc.Arbitrary<number>, months: fc.Arbitrary<number>): fc.Arbitrary<string> =>
  fc
    .record({ year: years, month: months, day: fc.integer({ min: 1, max: 28 }) })
    .filter(({ year, month, day }) => !(year === 1582 && month === 10 && day > 4 && day < 15))
    .map(({ year, month, day }) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`)

/** Dates anywhere in HANA's range (kept 600 years from its ends for the day counts below), and around October 1582. */
const dates = fc.oneof(
  label(fc.integer({ min: 600, max: 9400 }), fc.integer({ min: 1, max: 12 })),
  label(fc.integer({ min: 1580, max: 1584 }), fc.integer({ min: 1, max: 12 })),
  label(fc.constant(1582), fc.integer({ min: 9, max: 11 }))
)

/** Day counts: up to about 550 years either way, and short ones that land near the start date. */
const dayCounts = fc.oneof(fc.integer({ min: -200_000, max: 200_000 }), fc.integer({ min: -40, max: 40 }))

/** A Julian-only leap day (1500-02-29): the server stores proleptic Gregorian labels and cannot hold one (README). */
const JULIAN_ONLY_LEAP_DAY = /Date out of range: (\d+)-2-29$/
const isJulianOnlyLeapDay = (message: string): boolean => {
  const year = Number(JULIAN_ONLY_LEAP_DAY.exec(message)?.[1])
  return year < 1582 && year % 100 === 0 && year % 400 !== 0
}

describe("HANA test server: day arithmetic with the raw hdb client", () => {
  let server: HanaTestServerHandle
  let client: HdbClient
  beforeAll(async () => {
    server = await startHanaTestServer()
    client = await connect({ host: server.host, port: server.port, user: server.user, password: server.password })
  })
  afterAll(async () => {
    closeQuietly(client)
    await server.close()
  })

  // HANA numbers days consecutively across the Julian/Gregorian switch (testkit/hana/datetime.ts cites the sources),
  // so adding n days and counting the days back gives n on either side of October 1582, for DATE, SECONDDATE and
  // TIMESTAMP alike, and the weekday moves on by n.
  it("ADD_DAYS(d, n) is n days after d by DAYS_BETWEEN and WEEKDAY, on both sides of October 1582", async () => {
    await fc.assert(
      fc.asyncProperty(dates, dayCounts, async (date, n) => {
        const d = `TO_DATE('${date}')`
        const s = `CAST('${date} 23:59:59' AS SECONDDATE)`
        const t = `TO_TIMESTAMP('${date} 10:30:00.25')`
        const query = exec<Array<Record<string, number>>>(
          client,
          `SELECT DAYS_BETWEEN(${d}, ADD_DAYS(${d}, ${n})) AS D, DAYS_BETWEEN(${s}, ADD_DAYS(${s}, ${n})) AS S,
            DAYS_BETWEEN(${t}, ADD_DAYS(${t}, ${n})) AS T, WEEKDAY(${d}) AS W0, WEEKDAY(ADD_DAYS(${d}, ${n})) AS W1 FROM DUMMY`
        )
        const rows = await query.catch((e: HdbSqlError) => {
          if (e.code === 339 && isJulianOnlyLeapDay(e.message)) return undefined
          throw e
        })
        if (rows === undefined) return
        expect(rows).toEqual([{ D: n, S: n, T: n, W0: expect.any(Number), W1: (((rows[0]!["W0"]! + n) % 7) + 7) % 7 }])
      }),
      { numRuns: 150 }
    )
  })

  it("fails with 339 where ADD_DAYS lands on a Julian-only leap day, instead of giving the next day's label", async () => {
    const error = await failure(exec(client, "SELECT ADD_DAYS(TO_DATE('1500-02-28'), 1) AS D FROM DUMMY"))
    expect([error.code, isJulianOnlyLeapDay(error.message)]).toEqual([339, true])
    expect(await exec(client, "SELECT ADD_DAYS(TO_DATE('1500-02-28'), 2) AS D, DAYS_BETWEEN(TO_DATE('1500-02-28'), TO_DATE('1500-03-01')) AS N FROM DUMMY")).toEqual([
      { D: "1500-03-01", N: 2 }
    ])
  })
})
