import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import { BatchAssembler } from "../../src/arrow/index.ts"
import * as Connection from "../../src/Connection.ts"
import { RawTemporal } from "../../layers/oracle/DbPatches.ts"
import { oraclePage } from "../../layers/oracle/RowPage.ts"
import { arrowColumns, DEFAULT_MAPPING } from "../../layers/oracle/ReadTypes.ts"
import { Result } from "effect"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

// Results must not depend on the Node process's time zone: run this file under a zone with DST.
const previousTz = process.env["TZ"]
beforeAll(() => {
  process.env["TZ"] = "America/New_York"
})
afterAll(() => {
  if (previousTz === undefined) delete process.env["TZ"]
  else process.env["TZ"] = previousTz
})

const tableOf = (sql: string, options?: Record<string, string>) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(Stream.runCollect(conn.query(sql, options)), (batches) => new Arrow.Table(batches)))
const raw = (table: Arrow.Table, column: string) => table.getChild(column)!.data[0]!.values

describe("dates, timestamps and time zones", () => {
  it.effect("DATE maps to date32 (the day); redo.query.date_type=timestamp keeps the time of day", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("DT")
      yield* conn.execute(`CREATE TABLE ${t} (D DATE)`)
      // 2024-03-10 02:30 does not exist in New York (DST gap): it must come back unchanged.
      yield* conn.execute(`INSERT INTO ${t} VALUES (TIMESTAMP '2024-03-10 02:30:45')`)
      const day = yield* tableOf(`SELECT D FROM ${t}`)
      expect(String(day.schema.fields[0]!.type)).toBe("Date32<DAY>")
      expect(raw(day, "D")[0]).toBe(19792)
      const full = yield* tableOf(`SELECT D FROM ${t}`, { "redo.query.date_type": "timestamp" })
      expect(String(full.schema.fields[0]!.type)).toBe("Timestamp<SECOND>")
      expect(raw(full, "D")[0]).toBe(BigInt(Date.UTC(2024, 2, 10, 2, 30, 45) / 1000))
    })))

  it.effect("the timezone option sets the session time zone; zoned values are instants; region names work", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const zone = yield* tableOf("SELECT SESSIONTIMEZONE AS Z FROM DUAL")
      expect(zone.getChild("Z")!.get(0)).toBe("+05:30")
      const ts = yield* tableOf(
        "SELECT TIMESTAMP '2024-07-01 12:00:00 Europe/Paris' AS P, TIMESTAMP '2024-07-01 12:00:00.5 -05:00' AS N FROM DUAL"
      )
      expect(String(ts.schema.fields[0]!.type)).toMatch(/UTC/)
      // a TIMESTAMP literal is of precision 9 (TIMESTAMP(9) WITH TIME ZONE), so read in nanoseconds
      expect(raw(ts, "P")[0]).toBe(BigInt(Date.UTC(2024, 6, 1, 10)) * 1000000n)
      expect(raw(ts, "N")[0]).toBe(BigInt(Date.UTC(2024, 6, 1, 17, 0, 0, 500)) * 1000000n)
    }), { timezone: "+05:30" }))
})

describe("region-named time zones", () => {
  it.effect("a region as session time zone (no ORA-01805 in thin mode): zoned and local-zone values are exact instants in both modes", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("TZR")
      yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(2), Z TIMESTAMP(6) WITH TIME ZONE, L TIMESTAMP(6) WITH LOCAL TIME ZONE)`)
      // a wall clock read in the session time zone (New York: -05:00 in January, -04:00 in July)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1, TIMESTAMP '2024-01-15 12:00:00.5 Europe/Paris', CAST(TIMESTAMP '2024-01-15 07:00:00' AS TIMESTAMP WITH LOCAL TIME ZONE))`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (2, TIMESTAMP '2024-07-15 12:00:00 America/New_York', CAST(TIMESTAMP '2024-07-15 08:00:00' AS TIMESTAMP WITH LOCAL TIME ZONE))`)
      for (const mode of ["row", "batch"]) {
        const options = { "redo.statement.execution_mode": mode }
        const zone = yield* tableOf("SELECT SESSIONTIMEZONE AS Z, TIMESTAMP '2024-07-01 12:00:00 Europe/Paris' AS P, TIMESTAMP '2024-07-01 12:00:00 Asia/Kolkata' AS K FROM DUAL", options)
        expect(zone.getChild("Z")!.get(0)).toBe("America/New_York")
        // zoned TIMESTAMP literals: TIMESTAMP(9) WITH TIME ZONE, read in nanoseconds
        expect([raw(zone, "P")[0], raw(zone, "K")[0]]).toEqual([BigInt(Date.UTC(2024, 6, 1, 10)) * 1000000n, BigInt(Date.UTC(2024, 6, 1, 6, 30)) * 1000000n])
        const stored = yield* tableOf(`SELECT Z, L FROM ${t} ORDER BY K`, options)
        expect([...(raw(stored, "Z") as BigInt64Array)], mode).toEqual([BigInt(Date.UTC(2024, 0, 15, 11, 0, 0, 500)) * 1000n, BigInt(Date.UTC(2024, 6, 15, 16)) * 1000n])
        expect([...(raw(stored, "L") as BigInt64Array)], mode).toEqual([BigInt(Date.UTC(2024, 0, 15, 12)) * 1000n, BigInt(Date.UTC(2024, 6, 15, 12)) * 1000n])
      }
    }), { timezone: "America/New_York" }))
})

describe("timestamps outside an Arrow unit's range", () => {
  it.effect("TIMESTAMP(6) keeps years before 1678 and after 2261 exactly (microseconds cover every Oracle year)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("TSR")
      yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(2), T TIMESTAMP(6), Z TIMESTAMP(6) WITH TIME ZONE)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1, TIMESTAMP '0001-01-01 00:00:00.000001', TIMESTAMP '1000-06-15 12:34:56.654321 +00:00')`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (2, TIMESTAMP '9999-12-31 23:59:59.999999', TIMESTAMP '9999-12-31 23:59:59.999999 +00:00')`)
      for (const mode of ["row", "batch"]) {
        const table = yield* tableOf(`SELECT T, Z FROM ${t} ORDER BY K`, { "redo.statement.execution_mode": mode })
        const us = (y: number, mo: number, d: number, h: number, mi: number, s: number, micros: number) =>
          BigInt(Date.UTC(y, mo - 1, d, h, mi, s)) * 1000n + BigInt(micros)
        const year1 = new Date(0) // Date.UTC would read year 1 as 1901

        year1.setUTCFullYear(1, 0, 1)
        expect([...(raw(table, "T") as BigInt64Array)], mode).toEqual([BigInt(year1.getTime()) * 1000n + 1n, us(9999, 12, 31, 23, 59, 59, 999_999)])
        expect([...(raw(table, "Z") as BigInt64Array)], mode).toEqual([us(1000, 6, 15, 12, 34, 56, 654_321), us(9999, 12, 31, 23, 59, 59, 999_999)])
      }
    })))

  // The test server keeps TIMESTAMP(9) over Oracle's whole range with nine digits; the driver decodes the wire bytes
  // itself (node-oracledb's Date stops at milliseconds), so values timestamp[ns] holds (1677-09-21 00:12:43.145224192
  // to 2262-04-11 23:47:16.854775807) come back to the nanosecond, and one it cannot hold is an error naming the column
  // and the row rather than a wrapped or rounded value.
  it.effect("TIMESTAMP(9) with and without zone is exact to the nanosecond at timestamp[ns]'s limits; beyond them an error names column and row", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("TS9")
      yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(2), T TIMESTAMP(9), Z TIMESTAMP(9) WITH TIME ZONE)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1, TIMESTAMP '1677-09-21 00:12:43.145224193', TIMESTAMP '1677-09-21 01:12:43.145224193 +01:00')`)
      // New York keeps summer time (-04:00) in April 2262 as today
      yield* conn.execute(`INSERT INTO ${t} VALUES (2, TIMESTAMP '2262-04-11 23:47:16.854775807', TIMESTAMP '2262-04-11 19:47:16.854775807 America/New_York')`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (3, TIMESTAMP '2024-03-01 10:00:00.123456789', TIMESTAMP '2024-03-01 10:00:00.123456789 Europe/Paris')`)
      const max = 2n ** 63n - 1n
      for (const mode of ["row", "batch"]) {
        const table = yield* tableOf(`SELECT T, Z FROM ${t} ORDER BY K`, { "redo.statement.execution_mode": mode })
        expect(String(table.schema.fields[0]!.type), mode).toBe("Timestamp<NANOSECOND>")
        expect([...(raw(table, "T") as BigInt64Array)], mode).toEqual([-max, max, BigInt(Date.UTC(2024, 2, 1, 10)) * 1_000_000n + 123_456_789n])
        expect([...(raw(table, "Z") as BigInt64Array)], mode).toEqual([-max, max, BigInt(Date.UTC(2024, 2, 1, 9)) * 1_000_000n + 123_456_789n])
      }
      yield* conn.execute(`INSERT INTO ${t} VALUES (4, TIMESTAMP '1500-06-15 12:34:56.123456789', NULL)`)
      for (const mode of ["row", "batch"]) {
        const error = yield* Effect.flip(tableOf(`SELECT T FROM ${t} ORDER BY K`, { "redo.statement.execution_mode": mode }))
        expect(error.message, mode).toContain(`column "T": row 4: TIMESTAMP(9) value 1500-06-15 12:34:56.123456789 is outside the range of Timestamp<NANOSECOND>`)
      }
    })))

  it("a value timestamp[ns] cannot hold fails naming the column and the row, never wraps", () => {
    const mapped = Result.getOrThrow(arrowColumns([{ name: "TS", type: "TIMESTAMP", precision: 9, nullable: true }], DEFAULT_MAPPING))
    const assembler = new BatchAssembler(new Arrow.Schema(mapped.map((m) => m.field)), { maxRows: 100, mode: "hard" })
    // 1000-01-01 00:00:00.123456789, and the first second past int64 nanoseconds (2262-04-11 23:47:16.854775807)
    const rows = [[new RawTemporal(-30610224000, 123_456_789, 0)], [new RawTemporal(9_223_372_037, 0, 0)]]
    for (const [k, row] of rows.entries()) {
      expect(() => [...assembler.push(oraclePage([row], mapped, 41 + k))]).toThrow(
        `column "TS": row ${42 + k}: TIMESTAMP(9) value ${k === 0 ? "1000-01-01 00:00:00.123456789" : "2262-04-11 23:47:17.000000000"} is outside the range of Timestamp<NANOSECOND>`
      )
    }
  })
})

describe("intervals", () => {
  it("an INTERVAL DAY TO SECOND a duration cannot hold fails naming the column and the row, never wraps", () => {
    const mapped = Result.getOrThrow(arrowColumns([{ name: "IV", type: "INTERVAL_DS", precision: 9, scale: 9, nullable: true }], { ...DEFAULT_MAPPING, dayTimeInterval: "duration" }))
    expect(String(mapped[0]!.field.type)).toBe("Duration<NANOSECOND>")
    const assembler = new BatchAssembler(new Arrow.Schema(mapped.map((m) => m.field)), { maxRows: 100, mode: "hard" })
    const fits = { days: 106_751, hours: 23, minutes: 47, seconds: 16, fseconds: 854_775_807 } // 2^63 - 1 nanoseconds
    const over = { days: -106_752, hours: 0, minutes: 0, seconds: 0, fseconds: 0 }
    expect([...assembler.push(oraclePage([[fits]], mapped, 0))]).toEqual([])
    expect(() => [...assembler.push(oraclePage([[over]], mapped, 6))]).toThrow(
      `column "IV": row 7: INTERVAL DAY TO SECOND value -P106752D overflows the int64 of Duration<NANOSECOND>`
    )
  })

  const ds = "INTERVAL '-1 02:03:04.123456' DAY(2) TO SECOND(6)"
  const dsMilli = "INTERVAL '1 02:03:04.5' DAY(2) TO SECOND(3)"
  const ym = "INTERVAL '1-2' YEAR(2) TO MONTH"

  it.effect("INTERVAL DAY TO SECOND in every mode (declared fractional-second precision decides auto and duration)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("IDS")
      yield* conn.execute(`CREATE TABLE ${t} (M INTERVAL DAY(2) TO SECOND(3), U INTERVAL DAY(2) TO SECOND(6))`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (${dsMilli}, ${ds})`)
      const sql = `SELECT M, U FROM ${t}`
      const auto = yield* tableOf(sql)
      expect(auto.schema.fields.map((f) => String(f.type))).toEqual(["Interval<DAY_TIME>", "Interval<MONTH_DAY_NANO>"])
      expect([...(raw(auto, "M") as Int32Array)]).toEqual([1, (2 * 3600 + 3 * 60 + 4) * 1000 + 500])
      const u = raw(auto, "U") as Int32Array
      expect(u[0]).toBe(0)
      expect(u[1]).toBe(-1)
      const nanos = BigInt.asIntN(64, (BigInt(u[3]! >>> 0) << 32n) | BigInt(u[2]! >>> 0))
      expect(nanos).toBe(-(7384123456000n))
      const duration = yield* tableOf(sql, { "redo.query.day_time_interval_type": "duration" })
      expect(duration.schema.fields.map((f) => String(f.type))).toEqual(["Duration<MILLISECOND>", "Duration<MICROSECOND>"])
      expect(raw(duration, "M")[0]).toBe(93784500n)
      expect(raw(duration, "U")[0]).toBe(-(86400000000n + 7384123456n))
      const mdn = yield* tableOf(sql, { "redo.query.day_time_interval_type": "monthdaynano" })
      expect(mdn.schema.fields.map((f) => String(f.type))).toEqual(["Interval<MONTH_DAY_NANO>", "Interval<MONTH_DAY_NANO>"])
      const text = yield* tableOf(sql, { "redo.query.day_time_interval_type": "string" })
      expect([text.getChild("M")!.get(0), text.getChild("U")!.get(0)]).toEqual(["P1DT2H3M4.5S", "-P1DT2H3M4.123456S"])
    })))

  it.effect("INTERVAL YEAR TO MONTH in every mode", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const auto = yield* tableOf(`SELECT ${ym} AS Y FROM DUAL`)
      expect(String(auto.schema.fields[0]!.type)).toBe("Interval<YEAR_MONTH>")
      expect(raw(auto, "Y")[0]).toBe(14)
      const mdn = yield* tableOf(`SELECT ${ym} AS Y FROM DUAL`, { "redo.query.year_month_interval_type": "monthdaynano" })
      expect([...(raw(mdn, "Y") as Int32Array)].slice(0, 2)).toEqual([14, 0])
      const text = yield* tableOf(`SELECT ${ym} AS Y FROM DUAL`, { "redo.query.year_month_interval_type": "string" })
      expect(text.getChild("Y")!.get(0)).toBe("P1Y2M")
    })))
})
