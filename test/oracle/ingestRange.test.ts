import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import { epochDayOf } from "../../layers/common/ArrowCells.ts"
import { encodedRowsSent } from "../../layers/oracle/EncodedBinds.ts"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

/**
 * Dates and timestamps outside Oracle's range (-4712-01-01 … 9999-12-31) are refused naming column, row, value and
 * range before anything is sent, on the fast path, on oracledb's own encoder and as parameters: Oracle does not
 * check the bytes of a bound DATE, so such a value would be stored as another date (the century byte wraps).
 */

const server = useServer()

const SECONDS_PER_DAY = 86_400n
const secondsOf = (year: number, month = 1, day = 1) => BigInt(epochDayOf(year, month, day)) * SECONDS_PER_DAY
/** The last second of 9999-12-31 and the first of -4712-01-01. */
const LAST_SECOND = secondsOf(10000) - 1n
const FIRST_SECOND = secondsOf(-4712)

const timestamps = (unit: Arrow.TimeUnit, values: ReadonlyArray<bigint>) =>
  Arrow.makeVector(Arrow.makeData({ type: new Arrow.Timestamp(unit), length: values.length, nullCount: 0, data: BigInt64Array.from(values) }))
const dates = (days: ReadonlyArray<number>) =>
  Arrow.makeVector(Arrow.makeData({ type: new Arrow.DateDay(), length: days.length, nullCount: 0, data: Int32Array.from(days) }))

/** Rows `[from, to)`: k, a date32 `d` and a timestamp[s] `t`, with `bad` overriding row values. */
const rows = (from: number, to: number, bad: { row: number; d?: number; t?: bigint }, doc: boolean) => {
  const ks = Array.from({ length: to - from }, (_, i) => from + i)
  const columns: Record<string, Arrow.Vector> = {
    k: Arrow.vectorFromArray(ks, new Arrow.Int32()),
    d: dates(ks.map((k) => (k === bad.row && bad.d !== undefined ? bad.d : epochDayOf(2000, 1, 1) + k))),
    t: timestamps(Arrow.TimeUnit.SECOND, ks.map((k) => (k === bad.row && bad.t !== undefined ? bad.t : secondsOf(2020) + BigInt(k))))
  }
  if (doc) {
    const type = new Arrow.Struct([new Arrow.Field("n", new Arrow.Int32())])
    columns["doc"] = Arrow.vectorFromArray(ks.map((k) => ({ n: k })), type)
  }
  return new Arrow.Table(columns)
}

/** Two batches (rows 0-2 and 3-6), so that the row named is counted across batches. */
const twoBatches = (bad: { row: number; d?: number; t?: bigint }, doc = false) =>
  new Arrow.Table([...rows(0, 3, bad, doc).batches, ...rows(3, 7, bad, doc).batches])

const contents = (t: string) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(
      Stream.runCollect(conn.query(`SELECT "k", "d", "t" FROM "${t}" ORDER BY "k"`)),
      // dates and timestamps as epoch milliseconds
      (batches) => new Arrow.Table(batches).toArray().map((r) => `${r.k}|${r.d}|${r.t}`)
    ))

const createTable = (t: string, doc: boolean) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    conn.execute(`CREATE TABLE "${t}" ("k" NUMBER(10), "d" DATE, "t" TIMESTAMP(0)${doc ? `, "doc" NVARCHAR2(200)` : ""})`))

const cases = [
  {
    name: "a timestamp[s] in year 12000",
    bad: { row: 4, t: secondsOf(12000) },
    message: 'column "t": row 5 holds 12000-01-01 00:00:00'
  },
  {
    name: "a date32 in year -5000",
    bad: { row: 5, d: epochDayOf(-5000, 1, 1) },
    message: 'column "d": row 6 holds -5000-01-01'
  },
  {
    // its century byte (400) would wrap to 144: year 4400
    name: "a timestamp[s] in year 30000",
    bad: { row: 3, t: secondsOf(30000, 6, 15) },
    message: 'column "t": row 4 holds 30000-06-15 00:00:00'
  }
]

describe("ingest refuses dates and timestamps outside Oracle's range, naming column, row, value and range", () => {
  for (const path of ["fast path", "oracledb's encoder (a struct column)"] as const) {
    const doc = path !== "fast path"
    for (const c of cases) {
      it.effect(`${path}: ${c.name}; the table is unchanged`, () =>
        withConnection(server.uri, Effect.gen(function*() {
          const conn = yield* Connection.Connection
          const t = uniqueName("RANGE")
          yield* createTable(t, doc)
          yield* conn.ingest(fromTable(rows(0, 2, { row: -1 }, doc)), { targetTable: t, mode: "append" })
          const before = yield* contents(t)
          expect(before).toHaveLength(2)
          const sent = encodedRowsSent()
          const error = yield* Effect.flip(conn.ingest(fromTable(twoBatches(c.bad, doc)), { targetTable: t, mode: "append" }))
          expect(error.status).toBe("INVALID_ARGUMENT")
          expect(error.message).toContain(c.message)
          expect(error.message).toContain("-4712-01-01")
          expect(error.message).toContain("9999-12-31")
          expect(yield* contents(t)).toEqual(before)
          // nothing is sent: the first, valid batch's rows wait to share a call with the next batch's
          // (redo.statement.insert_batch_rows), which is refused before any call
          expect(encodedRowsSent() - sent).toBe(0)
        }), doc ? { "redo.ingest.struct_type": "nvarchar2" } : {}))
    }

    it.effect(`${path}: the first and last second of the range are stored exactly`, () =>
      withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueName("RANGEOK")
        yield* createTable(t, doc)
        const data = new Arrow.Table({
          k: Arrow.vectorFromArray([1, 2], new Arrow.Int32()),
          d: dates([epochDayOf(-4712, 1, 1), epochDayOf(9999, 12, 31)]),
          t: timestamps(Arrow.TimeUnit.SECOND, [FIRST_SECOND, LAST_SECOND]),
          ...(doc ? { doc: Arrow.vectorFromArray([{ n: 1 }, { n: 2 }], new Arrow.Struct([new Arrow.Field("n", new Arrow.Int32())])) } : {})
        })
        expect(yield* conn.ingest(fromTable(data), { targetTable: t, mode: "append" })).toBe(2)
        const ms = (day: number, seconds: bigint) => `${day * 86_400_000}|${seconds * 1000n}`
        expect(yield* contents(t)).toEqual([`1|${ms(epochDayOf(-4712, 1, 1), FIRST_SECOND)}`, `2|${ms(epochDayOf(9999, 12, 31), LAST_SECOND)}`])
      }), doc ? { "redo.ingest.struct_type": "nvarchar2" } : {}))
  }

  it.effect("a parameter of year 12000 or -5000 is refused before the statement runs", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("RANGEP")
      yield* createTable(t, false)
      const insert = yield* conn.statement()
      yield* insert.setSqlQuery(`INSERT INTO "${t}" VALUES (:1, :2, :3)`)
      yield* insert.bind(rows(0, 2, { row: 1, t: secondsOf(12000) }, false))
      const error = yield* Effect.flip(insert.executeUpdate)
      expect(error.status).toBe("INVALID_ARGUMENT")
      expect(error.message).toContain('column "t": row 2 holds 12000-01-01 00:00:00')
      yield* insert.bind(rows(0, 2, { row: 0, d: epochDayOf(-5000, 1, 1) }, false))
      const dateError = yield* Effect.flip(insert.executeUpdate)
      expect(dateError.status).toBe("INVALID_ARGUMENT")
      expect(dateError.message).toContain('column "d": row 1 holds -5000-01-01')
      expect(yield* contents(t)).toEqual([])
    })))
})
