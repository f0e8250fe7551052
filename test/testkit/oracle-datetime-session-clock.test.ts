import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { vi } from "vitest"
import type { OracleTestServerHandle } from "../../testkit/oracle/index.ts"
import type { Conn } from "./oracle/helpers.ts"
import { withServer } from "./oracle/helpers.ts"

/** The wall clock of `millis` in `region` as UTC-based milliseconds (to compare wall clocks as numbers). */
const wallMillis = (millis: number, region: string): number => {
  const f = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone: region, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" })
      .formatToParts(millis)
      .map((p) => [p.type, p.value])
  )
  return Date.UTC(Number(f.year), Number(f.month) - 1, Number(f.day), Number(f.hour), Number(f.minute), Number(f.second))
}
const offsetMinutes = (millis: number, region: string) => Math.round((wallMillis(millis, region) - Math.floor(millis / 1000) * 1000) / 60_000)
const textMillis = (text: string) => Date.parse(`${text.replace(" ", "T")}Z`)

// LOCALTIMESTAMP "returns the current date and time in the session time zone" and CURRENT_DATE "the current date in
// the session time zone" (SQL Language Reference, "LOCALTIMESTAMP", "CURRENT_DATE"): with a region as session time
// zone, the region's offset at the instant the statement runs, not the one in force when the session set its zone.
describe("Oracle test server: LOCALTIMESTAMP and CURRENT_DATE in a region session time zone (raw node-oracledb)", () => {
  const region = "Europe/Berlin"
  let server: OracleTestServerHandle
  let conn: Conn
  beforeAll(async () => {
    const s = await withServer()
    server = s.server
    conn = await s.connect()
  })
  afterAll(async () => {
    vi.useRealTimers()
    await conn?.close()
    await server?.close()
  })

  it("uses the region's offset at the current instant, also after the offset changed since ALTER SESSION", async () => {
    // the session zone is set while the clock reads a date on the other side of a daylight saving change
    const now = Date.now()
    const other = [6, 5, 7, 4, 8].map((months) => now + months * 30 * 86_400_000).find((t) => offsetMinutes(t, region) !== offsetMinutes(now, region))!
    vi.useFakeTimers({ toFake: ["Date"], now: other })
    try {
      await conn.execute(`ALTER SESSION SET TIME_ZONE = '${region}'`)
    } finally {
      vi.useRealTimers()
    }
    const r = await conn.execute("SELECT TO_CHAR(LOCALTIMESTAMP, 'YYYY-MM-DD HH24:MI:SS'), TO_CHAR(CURRENT_DATE, 'YYYY-MM-DD HH24:MI:SS') FROM DUAL")
    const expected = wallMillis(Date.now(), region)
    for (const text of r.rows[0] as Array<string>) expect(Math.abs(textMillis(text) - expected)).toBeLessThan(60_000)
  })
})
