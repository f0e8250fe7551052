/**
 * Dates and timestamps outside HANA's range (0001-01-01 … 9999-12-31), or on one of the ten labels 1582-10-05 …
 * 1582-10-14 its calendar has no day for, are refused naming column, row (counted across the whole ingest), value
 * and range, on the fast path and through hdb's writer; the table is unchanged.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import { epochDayOf } from "../../layers/common/ArrowCells.ts"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { failure } from "../support/exits.ts"
import { useServer, withConnection } from "./support.ts"

const server = useServer()

const dates = (days: ReadonlyArray<number>) =>
  Arrow.makeVector(Arrow.makeData({ type: new Arrow.DateDay(), length: days.length, nullCount: 0, data: Int32Array.from(days) }))
const seconds = (values: ReadonlyArray<bigint>) =>
  Arrow.makeVector(
    Arrow.makeData({ type: new Arrow.Timestamp(Arrow.TimeUnit.SECOND), length: values.length, nullCount: 0, data: BigInt64Array.from(values) })
  )

const secondsOf = (year: number) => BigInt(epochDayOf(year, 1, 1)) * 86_400n

/** Rows `[from, to)` of K, D (date32) and T (timestamp[s]), row `bad` holding `d` / `t`; with `text`, an NCLOB column. */
const rows = (from: number, to: number, bad: { row: number; d?: number; t?: bigint }, text: boolean) => {
  const ks = Array.from({ length: to - from }, (_, i) => from + i)
  return new Arrow.Table({
    K: Arrow.vectorFromArray(ks, new Arrow.Int32()),
    D: dates(ks.map((k) => (k === bad.row && bad.d !== undefined ? bad.d : epochDayOf(2000, 1, 1) + k))),
    T: seconds(ks.map((k) => (k === bad.row && bad.t !== undefined ? bad.t : secondsOf(2020) + BigInt(k)))),
    ...(text ? { N: Arrow.vectorFromArray(ks.map((k) => `n${k}`), new Arrow.Utf8()) } : {})
  })
}

const contents = (table: string) =>
  Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const batches = yield* Stream.runCollect(conn.query(`SELECT K, TO_VARCHAR(D) AS D, TO_VARCHAR(T) AS T FROM "${table}" ORDER BY K`))
    return batches.flatMap((b) => b.toArray().map((r) => `${r.K}|${r.D}|${r.T}`))
  })

describe("ingest refuses dates and timestamps outside HANA's range (HANA)", () => {
  for (const path of ["fast path", "hdb's writer (an NCLOB column)"] as const) {
    const text = path !== "fast path"
    it.effect(`${path}: year 10000 and year 0 in a second batch; named by the row of the whole ingest, the table unchanged`, () =>
      withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const table = text ? "RANGE_HDB" : "RANGE_FAST"
        yield* conn.execute(`CREATE TABLE "${table}" (K INTEGER, D DATE, T TIMESTAMP${text ? ", N NCLOB" : ""})`)
        yield* conn.ingest(fromTable(rows(0, 2, { row: -1 }, text)), { targetTable: table, mode: "append" })
        const before = yield* contents(table)
        expect(before).toHaveLength(2)
        const refusals = [
          { bad: { row: 4, t: secondsOf(10000) }, where: 'column 3 ("T"), row 5', what: "the date 10000-01-01 is outside 0001-01-01 … 9999-12-31" },
          { bad: { row: 5, d: epochDayOf(0, 12, 31) }, where: 'column 2 ("D"), row 6', what: "the date 0000-12-31 is outside 0001-01-01 … 9999-12-31" },
          // hdb's writer takes this one as a wrong date rather than refusing it
          { bad: { row: 6, d: -(2 ** 31) }, where: 'column 2 ("D"), row 7', what: "the date -5877641-06-23 is outside 0001-01-01 … 9999-12-31" },
          // hdb would store these as Julian dates, read back ten days later
          { bad: { row: 3, d: epochDayOf(1582, 10, 10) }, where: 'column 2 ("D"), row 4', what: "the date 1582-10-10 has no day in HANA's calendar" },
          { bad: { row: 1, t: BigInt(epochDayOf(1582, 10, 14)) * 86_400n + 43_200n }, where: 'column 3 ("T"), row 2', what: "the date 1582-10-14 has no day in HANA's calendar" }
        ]
        for (const r of refusals) {
          const data = new Arrow.Table([...rows(0, 3, r.bad, text).batches, ...rows(3, 7, r.bad, text).batches])
          const error = failure(yield* Effect.exit(conn.ingest(fromTable(data), { targetTable: table, mode: "append" })))
          expect(error.status).toBe("INVALID_ARGUMENT")
          expect(error.message).toContain(r.where)
          expect(error.message).toContain(r.what)
          expect(yield* contents(table)).toEqual(before)
        }
      })))
  }

  it.effect("a parameter outside the range is refused before the statement runs, naming column, row and value", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.execute(`CREATE TABLE "RANGE_PARAM" (K INTEGER, D DATE, T TIMESTAMP)`)
      const insert = yield* conn.statement()
      yield* insert.setSqlQuery(`INSERT INTO "RANGE_PARAM" VALUES (?, ?, ?)`)
      for (const [bad, message] of [
        [{ row: 1, d: -(2 ** 31) }, 'column 2 ("D"), row 2: the date -5877641-06-23 is outside 0001-01-01 … 9999-12-31'],
        [{ row: 0, t: secondsOf(10000) }, 'column 3 ("T"), row 1: the date 10000-01-01 is outside 0001-01-01 … 9999-12-31'],
        [{ row: 1, d: epochDayOf(1582, 10, 5) }, 'column 2 ("D"), row 2: the date 1582-10-05 has no day in HANA\'s calendar']
      ] as const) {
        yield* insert.bind(rows(0, 2, bad, false))
        const error = failure(yield* Effect.exit(insert.executeUpdate))
        expect(error.status).toBe("INVALID_ARGUMENT")
        expect(error.message).toContain(message)
      }
      expect(yield* contents("RANGE_PARAM")).toEqual([])
    })))

  it.effect("the days either side of the calendar change are taken and read back as written", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.execute(`CREATE TABLE "RANGE_EDGE" (K INTEGER, D DATE, T TIMESTAMP)`)
      const edges = new Arrow.Table({
        K: Arrow.vectorFromArray([1, 2], new Arrow.Int32()),
        D: dates([epochDayOf(1582, 10, 4), epochDayOf(1582, 10, 15)]),
        T: seconds([BigInt(epochDayOf(1582, 10, 4)) * 86_400n + 86_399n, BigInt(epochDayOf(1582, 10, 15)) * 86_400n])
      })
      yield* conn.ingest(fromTable(edges), { targetTable: "RANGE_EDGE", mode: "append" })
      expect(yield* contents("RANGE_EDGE")).toEqual(["1|1582-10-04|1582-10-04 23:59:59.0000000", "2|1582-10-15|1582-10-15 00:00:00.0000000"])
    })))
})
