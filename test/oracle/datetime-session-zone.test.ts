import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const collect = (sql: string, options: Record<string, string> = {}) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(Stream.runCollect(conn.query(sql, options)), (batches) => new Arrow.Table(batches)))

const cells = (table: Arrow.Table, name: string): Array<unknown> => Array.from({ length: table.numRows }, (_, k) => table.getChild(name)!.get(k))

/** month-day-nano cells as [months, days, nanoseconds] (Arrow gets each as four int32 words, nanoseconds low word first). */
const monthDayNanos = (table: Arrow.Table, name: string): Array<[number, number, bigint] | null> =>
  cells(table, name).map((v) => {
    if (v === null) return null
    const [months = 0, days = 0, low = 0, high = 0] = v as Int32Array
    return [months, days, BigInt.asIntN(64, (BigInt(high) << 32n) | BigInt(low >>> 0))]
  })

// TIMESTAMP WITH LOCAL TIME ZONE is returned "in the user's local session time zone" (Database Globalization Support
// Guide, "TIMESTAMP WITH LOCAL TIME ZONE Data Type"); the driver's `timezone` option sets that zone, and TO_CHAR shows a
// CAST to LOCAL TIME ZONE there, with the abbreviation in force (TZD). The value itself reaches Arrow as its instant.
describe("the session time zone of the timezone option, through the driver", () => {
  it.effect("a CAST to TIMESTAMP WITH LOCAL TIME ZONE shows in the session zone and reads as its instant, typed LOCAL TIME ZONE", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const t = yield* collect(
        "SELECT TO_CHAR(CAST(TIMESTAMP '2024-07-01 00:00:00 +00:00' AS TIMESTAMP WITH LOCAL TIME ZONE), 'YYYY-MM-DD HH24:MI TZR TZD') AS S, " +
          "CAST(TIMESTAMP '2024-07-01 00:00:00 +00:00' AS TIMESTAMP WITH LOCAL TIME ZONE) AS L FROM DUAL"
      )
      expect(cells(t, "S")).toEqual(["2024-06-30 20:00 America/New_York EDT"])
      expect(t.schema.fields[1]!.metadata.get("oracle.type-name")).toMatch(/WITH LOCAL TIME ZONE/)
      expect(String(t.schema.fields[1]!.type)).toBe("Timestamp<MICROSECOND, UTC>")
      expect(t.getChild("L")!.data[0]!.values[0]).toBe(BigInt(Date.UTC(2024, 6, 1)) * 1000n)
    }), { timezone: "America/New_York" }))
})

// Every interval precision keeps its value exactly whatever the table's other interval columns (testkit/oracle/README.md),
// and the extremes of INTERVAL DAY(9) TO SECOND(9) reach Arrow's month_day_nano and ISO text exactly.
describe("interval literals into a table mixing interval precisions, read into Arrow", () => {
  it.effect("DAY(9) TO SECOND(9) and YEAR(9) TO MONTH values, extremes included, next to DAY TO SECOND(6) and YEAR(2) columns", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("IVM")
      yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(5), W INTERVAL DAY(9) TO SECOND(9), N INTERVAL DAY(2) TO SECOND(6), Y INTERVAL YEAR(9) TO MONTH, M INTERVAL YEAR(2) TO MONTH)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1, INTERVAL '1 02:03:04' DAY(9) TO SECOND(9), INTERVAL '1 02:03:04.5' DAY TO SECOND, INTERVAL '1-2' YEAR(9) TO MONTH, INTERVAL '1-2' YEAR TO MONTH)`)
      yield* conn.execute(`INSERT INTO ${t} (K, W, Y) VALUES (2, INTERVAL '999999999 23:59:59.999999999' DAY(9) TO SECOND(9), INTERVAL '999999999-11' YEAR(9) TO MONTH)`)
      yield* conn.execute(`INSERT INTO ${t} (K, W, Y) VALUES (3, INTERVAL '-999999999 23:59:59.999999999' DAY(9) TO SECOND(9), INTERVAL '-999999999-11' YEAR(9) TO MONTH)`)
      const sql = `SELECT W, N FROM ${t} ORDER BY K`
      const mdn = yield* collect(sql)
      const dayNanos = 86_399_999_999_999n
      expect(monthDayNanos(mdn, "W")).toEqual([[0, 1, 7_384_000_000_000n], [0, 999_999_999, dayNanos], [0, -999_999_999, -dayNanos]])
      expect(monthDayNanos(mdn, "N")).toEqual([[0, 1, 7_384_500_000_000n], null, null])
      const text = yield* collect(sql, { "redo.query.day_time_interval_type": "string" })
      expect(cells(text, "W")).toEqual(["P1DT2H3M4S", "P999999999DT23H59M59.999999999S", "-P999999999DT23H59M59.999999999S"])
      const months = yield* collect(`SELECT Y, M FROM ${t} WHERE K = 1 AND Y = INTERVAL '14' MONTH AND W = INTERVAL '1 02:03:04' DAY TO SECOND`, { "redo.query.year_month_interval_type": "string" })
      expect([cells(months, "Y"), cells(months, "M")]).toEqual([["P1Y2M"], ["P1Y2M"]])
    })))
})
