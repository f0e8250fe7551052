import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import fc from "fast-check"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

// Property tests: random timestamps (every fractional-second precision, with and without time zones) and intervals
// (both kinds, every value of redo.query.day_time_interval_type / year_month_interval_type) go through the test
// server by the driver in both directions (ingest and bind, then query in row and batch mode) and come back exact.

const server = useServer()

const RUNS = 60
const modes = ["row", "batch"] as const

const validity = (values: ReadonlyArray<unknown>) => {
  const bits = new Uint8Array(Math.ceil(values.length / 8))
  values.forEach((v, i) => {
    if (v !== null) bits[i >> 3]! |= 1 << (i & 7)
  })
  return bits
}

/** An Arrow vector of `type` over `values` (null for a null cell), laid out by `store`. */
const vectorOf = <T>(type: Arrow.DataType, values: ReadonlyArray<T | null>, data: ArrayBufferView): Arrow.Vector =>
  Arrow.makeVector(Arrow.makeData({
    type,
    length: values.length,
    nullCount: values.filter((v) => v === null).length,
    nullBitmap: validity(values),
    data
  } as never))

const keys = (n: number) => Arrow.vectorFromArray(Array.from({ length: n }, (_, k) => k), new Arrow.Int32())

const collect = (sql: string, options: Record<string, string>) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(Stream.runCollect(conn.query(sql, options)), (batches) => new Arrow.Table(batches)))

/** Raw int64 cells of column `name` (null where invalid). */
const int64Cells = (table: Arrow.Table, name: string): Array<bigint | null> => {
  const column = table.getChild(name)!
  const out: Array<bigint | null> = []
  for (const data of column.data) {
    const values = data.values as BigInt64Array
    for (let k = 0; k < data.length; k++) out.push(data.getValid(k) ? values[k]! : null)
  }
  return out
}

const UNITS = [
  { unit: Arrow.TimeUnit.SECOND, perSecond: 1n, digits: 0 },
  { unit: Arrow.TimeUnit.MILLISECOND, perSecond: 1_000n, digits: 3 },
  { unit: Arrow.TimeUnit.MICROSECOND, perSecond: 1_000_000n, digits: 6 },
  { unit: Arrow.TimeUnit.NANOSECOND, perSecond: 1_000_000_000n, digits: 9 }
] as const

// 0001-01-01 .. 9999-12-31 in seconds; nanoseconds stay inside int64 (1677-09-21 .. 2262-04-11) and the test server's
// TIMESTAMP(7-9) storage (1678-2261).
const YEAR_1 = -62_135_596_800n
const YEAR_10000 = 253_402_300_800n
const YEAR_1678 = -9_183_110_400n
const YEAR_2262 = 9_183_110_400n

/** Random epoch ticks of `perSecond` in the range the unit allows, with fraction digits down to 10^-digits s. */
const ticksOf = (perSecond: bigint, digits: number, nanosUnit: boolean): fc.Arbitrary<bigint> => {
  const [lo, hi] = nanosUnit ? [YEAR_1678, YEAR_2262] : [YEAR_1, YEAR_10000]
  const unitDigits = String(perSecond).length - 1
  const step = 10n ** BigInt(unitDigits - Math.min(digits, unitDigits))
  return fc.bigInt({ min: (lo * perSecond) / step, max: (hi * perSecond - 1n) / step }).map((v) => v * step)
}

/** The cells where `got` and `expected` differ, as `index: got != expected` (empty when equal). */
const mismatches = <A>(got: ReadonlyArray<A>, expected: ReadonlyArray<A>): Array<string> =>
  expected.flatMap((e, k) => (got[k] === e ? [] : [`${k}: ${String(got[k])} != ${String(e)}`])).concat(got.length === expected.length ? [] : [`length ${got.length} != ${expected.length}`])

const floorDiv = (a: bigint, b: bigint): bigint => {
  const q = a / b
  return q * b > a ? q - 1n : q
}

const nullable = <A>(arb: fc.Arbitrary<A>) => fc.option(arb, { nil: null, freq: 6 })

describe("timestamps round-trip exactly (property tests through the server)", () => {
  for (const { unit, perSecond, digits } of UNITS) {
    for (const zone of [null, "UTC"] as const) {
      const label = `timestamp[${Arrow.TimeUnit[unit].toLowerCase()}${zone === null ? "" : ", UTC"}]`
      it.effect(`${label}: ingest creates TIMESTAMP(${digits})${zone === null ? "" : " WITH TIME ZONE"}, query gives the same values in row and batch mode`, () =>
        withConnection(server.uri, Effect.gen(function*() {
          const conn = yield* Connection.Connection
          const values = fc.sample(nullable(ticksOf(perSecond, digits, unit === Arrow.TimeUnit.NANOSECOND)), { numRuns: RUNS, seed: 4242 + unit })
          const type = new Arrow.Timestamp(unit, zone)
          const t = uniqueName("TSP")
          yield* conn.ingest(fromTable(new Arrow.Table({
            K: keys(values.length),
            T: vectorOf(type, values, BigInt64Array.from(values, (v) => v ?? 0n))
          })), { targetTable: t })
          for (const mode of modes) {
            const back = yield* collect(`SELECT "T" FROM "${t}" ORDER BY "K"`, { "redo.statement.execution_mode": mode })
            const field = back.schema.fields[0]!
            expect(field.metadata.get("oracle.type-name")).toBe(`TIMESTAMP(${digits})${zone === null ? "" : " WITH TIME ZONE"}`)
            const got = int64Cells(back, "T")
            const scale = (digits > 6 ? 1_000_000_000n : 1_000_000n) / perSecond
            expect(mismatches(got, values.map((v) => (v === null ? null : v * scale))), mode).toEqual([])
          }
        })))
    }
  }

  for (let fsp = 0; fsp <= 9; fsp++) {
    for (const zone of ["", " WITH TIME ZONE", " WITH LOCAL TIME ZONE"]) {
      it.effect(`TIMESTAMP(${fsp})${zone}: bound ${fsp > 6 ? "timestamp[ns]" : "timestamp[us]"} values come back exact`, () =>
        withConnection(server.uri, Effect.gen(function*() {
          const conn = yield* Connection.Connection
          const nanos = fsp > 6
          const perSecond = nanos ? 1_000_000_000n : 1_000_000n
          const values = fc.sample(nullable(ticksOf(perSecond, fsp, nanos)), { numRuns: 25, seed: 77 + fsp })
          const t = uniqueName("TSB")
          yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(5), T TIMESTAMP(${fsp})${zone})`)
          const stmt = yield* conn.statement()
          yield* stmt.setSqlQuery(`INSERT INTO ${t} (K, T) VALUES (:1, :2)`)
          const type = new Arrow.Timestamp(nanos ? Arrow.TimeUnit.NANOSECOND : Arrow.TimeUnit.MICROSECOND, zone === "" ? null : "UTC")
          yield* stmt.bind(new Arrow.Table({ K: keys(values.length), T: vectorOf(type, values, BigInt64Array.from(values, (v) => v ?? 0n)) }))
          expect(yield* stmt.executeUpdate).toBe(values.length)
          // the type table maps TIMESTAMP WITH LOCAL TIME ZONE to timestamp[us] at every precision
          const local = zone.includes("LOCAL")
          const expected = local && nanos ? values.map((v) => (v === null ? null : floorDiv(v, 1000n))) : values
          for (const mode of modes) {
            const back = yield* collect(`SELECT T FROM ${t} ORDER BY K`, { "redo.statement.execution_mode": mode })
            expect(String(back.schema.fields[0]!.type)).toBe(`Timestamp<${nanos && !local ? "NANOSECOND" : "MICROSECOND"}${zone === "" ? "" : ", UTC"}>`)
            expect(mismatches(int64Cells(back, "T"), expected), mode).toEqual([])
          }
        })))
    }
  }
})

const NANOS_PER_DAY = 86_400_000_000_000n

/**
 * A day-to-second interval within INTERVAL DAY(9) TO SECOND(9), as signed total nanoseconds. `maxDays` keeps it
 * within what an Arrow duration holds (int64 nanoseconds: about 106,751 days).
 */
const dayToSecondWithin = (maxDays: number) => fc.record({
  days: fc.integer({ min: -maxDays, max: maxDays }),
  nanos: fc.bigInt({ min: 0n, max: NANOS_PER_DAY - 1n })
}).map(({ days, nanos }) => (days < 0 ? -1n : 1n) * (BigInt(Math.abs(days)) * NANOS_PER_DAY + nanos))
const dayToSecond = dayToSecondWithin(999_999_999)
const durationDays = 106_000

const isoOfNanos = (total: bigint): string => {
  if (total === 0n) return "PT0S"
  const sign = total < 0n ? "-" : ""
  let rest = total < 0n ? -total : total
  const days = rest / NANOS_PER_DAY
  rest -= days * NANOS_PER_DAY
  const h = rest / 3_600_000_000_000n
  rest -= h * 3_600_000_000_000n
  const m = rest / 60_000_000_000n
  rest -= m * 60_000_000_000n
  const s = rest / 1_000_000_000n
  const frac = String(rest - s * 1_000_000_000n).padStart(9, "0").replace(/0+$/, "")
  const time = `${h > 0n ? `${h}H` : ""}${m > 0n ? `${m}M` : ""}${s > 0n || frac !== "" ? `${s}${frac === "" ? "" : `.${frac}`}S` : ""}`
  return `${sign}P${days > 0n ? `${days}D` : ""}${time === "" ? "" : `T${time}`}`
}

const isoOfMonths = (months: number): string => {
  if (months === 0) return "P0M"
  const a = Math.abs(months)
  const y = Math.floor(a / 12)
  const m = a % 12
  return `${months < 0 ? "-" : ""}P${y > 0 ? `${y}Y` : ""}${m > 0 ? `${m}M` : ""}`
}

/** A month_day_nano vector of signed nanosecond totals: days and nanoseconds share the sign, as Oracle's fields do. */
const monthDayNanoVector = (values: ReadonlyArray<bigint | null>): Arrow.Vector => {
  const cells = new Int32Array(values.length * 4)
  values.forEach((v, k) => {
    if (v === null) return
    const days = v / NANOS_PER_DAY // truncates toward zero
    const nanos = BigInt.asUintN(64, v - days * NANOS_PER_DAY)
    cells[4 * k + 1] = Number(days)
    cells[4 * k + 2] = Number(nanos & 0xFFFFFFFFn) | 0
    cells[4 * k + 3] = Number(nanos >> 32n) | 0
  })
  return vectorOf(new Arrow.IntervalMonthDayNano(), values, cells)
}

/** month-day-nano cells as [months, days, nanoseconds]. */
const monthDayNanoCells = (table: Arrow.Table, name: string): Array<[number, number, bigint] | null> => {
  const out: Array<[number, number, bigint] | null> = []
  for (const data of table.getChild(name)!.data) {
    const w = data.values as Int32Array
    for (let k = 0; k < data.length; k++) {
      out.push(data.getValid(k) ? [w[4 * k]!, w[4 * k + 1]!, BigInt.asIntN(64, (BigInt(w[4 * k + 3]!) << 32n) | BigInt(w[4 * k + 2]! >>> 0))] : null)
    }
  }
  return out
}

const stringCells = (table: Arrow.Table, name: string): Array<string | null> =>
  Array.from({ length: table.numRows }, (_, k) => table.getChild(name)!.get(k) as string | null)

describe("intervals round-trip exactly (property tests through the server)", () => {
  it.effect("INTERVAL DAY(9) TO SECOND(9): ingested month_day_nano values read back in every day_time_interval_type", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const values = fc.sample(nullable(dayToSecond), { numRuns: RUNS, seed: 9001 })
      const durations = fc.sample(nullable(dayToSecondWithin(durationDays)), { numRuns: RUNS, seed: 9002 })
      const t = uniqueName("IVP")
      yield* conn.ingest(fromTable(new Arrow.Table({ K: keys(values.length), V: monthDayNanoVector(values) })), { targetTable: t })
      const d = uniqueName("IVD")
      yield* conn.ingest(fromTable(new Arrow.Table({ K: keys(durations.length), V: monthDayNanoVector(durations) })), { targetTable: d })
      const sql = `SELECT "V" FROM "${t}" ORDER BY "K"`
      for (const mode of modes) {
        const options = (kind: string) => ({ "redo.statement.execution_mode": mode, "redo.query.day_time_interval_type": kind })
        const auto = yield* collect(sql, options("auto"))
        expect(String(auto.schema.fields[0]!.type)).toBe("Interval<MONTH_DAY_NANO>")
        expect(auto.schema.fields[0]!.metadata.get("oracle.type-name")).toBe("INTERVAL DAY(9) TO SECOND(9)")
        const expectedMdn = values.map((v) => {
          if (v === null) return null
          const days = v / NANOS_PER_DAY
          return [0, Number(days), v - days * NANOS_PER_DAY] as [number, number, bigint]
        })
        expect(monthDayNanoCells(auto, "V"), mode).toEqual(expectedMdn)
        expect(monthDayNanoCells(yield* collect(sql, options("monthdaynano")), "V"), mode).toEqual(expectedMdn)
        const duration = yield* collect(`SELECT "V" FROM "${d}" ORDER BY "K"`, options("duration"))
        expect(String(duration.schema.fields[0]!.type)).toBe("Duration<NANOSECOND>")
        expect(mismatches(int64Cells(duration, "V"), durations), mode).toEqual([])
        expect(stringCells(yield* collect(sql, options("string")), "V"), mode).toEqual(values.map((v) => (v === null ? null : isoOfNanos(v))))
      }
    })))

  it.effect("INTERVAL DAY(9) TO SECOND(f) for every f: values appended by ingest come back exact in every mode", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      for (let fsp = 0; fsp <= 9; fsp++) {
        const step = 10n ** BigInt(9 - fsp)
        const values = fc.sample(nullable(dayToSecondWithin(durationDays).map((v) => (v / step) * step)), { numRuns: 15, seed: 31 + fsp })
        const t = uniqueName("IVA")
        yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(5), V INTERVAL DAY(9) TO SECOND(${fsp}))`)
        yield* conn.ingest(fromTable(new Arrow.Table({ K: keys(values.length), V: monthDayNanoVector(values) })), { targetTable: t, mode: "append" })
        for (const mode of modes) {
          const sql = `SELECT V FROM ${t} ORDER BY K`
          const duration = yield* collect(sql, { "redo.statement.execution_mode": mode, "redo.query.day_time_interval_type": "duration" })
          const unitNanos = fsp === 0 ? 1_000_000_000n : fsp <= 3 ? 1_000_000n : fsp <= 6 ? 1_000n : 1n
          expect(mismatches(int64Cells(duration, "V"), values.map((v) => (v === null ? null : v / unitNanos))), `fsp ${fsp} ${mode}`).toEqual([])
          const text = yield* collect(sql, { "redo.statement.execution_mode": mode, "redo.query.day_time_interval_type": "string" })
          expect(mismatches(stringCells(text, "V"), values.map((v) => (v === null ? null : isoOfNanos(v)))), `fsp ${fsp} ${mode}`).toEqual([])
        }
      }
    })))

  it.effect("interval parameters are not bindable (NA in the Arrow-to-Oracle bind table): NOT_IMPLEMENTED naming the field", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery("SELECT :1 FROM DUAL")
      for (const type of [new Arrow.IntervalMonthDayNano(), new Arrow.IntervalYearMonth(), new Arrow.IntervalDayTime()]) {
        const error = yield* Effect.scoped(Effect.flip(Effect.flatMap(stmt.bind(new Arrow.Table({ V: Arrow.makeVector(Arrow.makeData({ type, length: 1, nullCount: 0, data: new Int32Array(4) } as never)) })), () => stmt.executeQuery)))
        expect(error.status).toBe("NOT_IMPLEMENTED")
        expect(error.message).toContain(`field "V" of Arrow type ${type}`)
      }
    })))

  it.effect("INTERVAL YEAR(9) TO MONTH: year_month values ingested (created and appended) read back in every year_month_interval_type", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      // Arrow's year_month interval is an int32 of months, so the values stay within it (Oracle's YEAR(9) goes further)
      const values = fc.sample(nullable(fc.integer({ min: -(2 ** 31) + 1, max: 2 ** 31 - 1 })), { numRuns: RUNS, seed: 515 })
      const ingested = uniqueName("YMP")
      const vector = () => vectorOf(new Arrow.IntervalYearMonth(), values, Int32Array.from(values, (v) => v ?? 0))
      yield* conn.ingest(fromTable(new Arrow.Table({ K: keys(values.length), V: vector() })), { targetTable: ingested })
      const bound = uniqueName("YMA")
      yield* conn.execute(`CREATE TABLE ${bound} (K NUMBER(5), V INTERVAL YEAR(9) TO MONTH)`)
      yield* conn.ingest(fromTable(new Arrow.Table({ K: keys(values.length), V: vector() })), { targetTable: bound, mode: "append" })
      for (const sql of [`SELECT "V" FROM "${ingested}" ORDER BY "K"`, `SELECT V FROM ${bound} ORDER BY K`]) {
        for (const mode of modes) {
          const options = (kind: string) => ({ "redo.statement.execution_mode": mode, "redo.query.year_month_interval_type": kind })
          const auto = yield* collect(sql, options("auto"))
          expect(String(auto.schema.fields[0]!.type)).toBe("Interval<YEAR_MONTH>")
          const months = auto.getChild("V")!
          expect(Array.from({ length: values.length }, (_, k) => months.get(k) as Int32Array | null).map((m) => (m === null ? null : m[0]! * 12 + m[1]!)), mode).toEqual(values)
          expect(monthDayNanoCells(yield* collect(sql, options("monthdaynano")), "V"), mode).toEqual(values.map((v) => (v === null ? null : [v, 0, 0n])))
          expect(stringCells(yield* collect(sql, options("string")), "V"), mode).toEqual(values.map((v) => (v === null ? null : isoOfMonths(v))))
        }
      }
    })))
})
