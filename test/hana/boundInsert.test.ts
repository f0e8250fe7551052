/**
 * A prepared INSERT bound with Arrow batches (the ADBC statement API, and `sql.insert` of many records through the
 * Effect SQL client) takes the encoded path: it stores what hdb's own batch insert stores for the same values,
 * doubles into DECIMAL and timestamps into DATE included; under autocommit a statement larger than one packet is all
 * or nothing, as hdb's batch execute makes it, and a statement of one packet is one round trip without a COMMIT.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import fc from "fast-check"
import * as Connection from "../../src/Connection.ts"
import { makeRecorder } from "../telemetry/support.ts"
import { rawInsert, rowsOf } from "./rawInsert.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const DDL = "(ID INTEGER PRIMARY KEY, A DECIMAL(12,2), B DECIMAL(18,0), C DECIMAL(38,6), D DATE, E DOUBLE)"
const MS_MIN = Date.UTC(1, 0, 1) - 365 * 86_400_000 * 1900
const MS_MAX = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

const batchOf = (rows: ReadonlyArray<{ a: number | null; b: number | null; c: number | null; d: number | null; e: number }>) =>
  new Arrow.RecordBatch({
    ID: Arrow.vectorFromArray(rows.map((_, i) => i), new Arrow.Int32()).data[0]!,
    A: Arrow.vectorFromArray(rows.map((r) => r.a), new Arrow.Float64()).data[0]!,
    B: Arrow.vectorFromArray(rows.map((r) => r.b), new Arrow.Float64()).data[0]!,
    C: Arrow.vectorFromArray(rows.map((r) => r.c), new Arrow.Float64()).data[0]!,
    D: Arrow.vectorFromArray(rows.map((r) => r.d), new Arrow.TimestampMillisecond()).data[0]!,
    E: Arrow.vectorFromArray(rows.map((r) => r.e), new Arrow.Float64()).data[0]!
  })

const boundInsert = (table: string, batch: Arrow.RecordBatch) =>
  Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const insert = yield* conn.statement()
    yield* insert.setSqlQuery(`INSERT INTO "${table}" VALUES (?, ?, ?, ?, ?, ?)`)
    yield* insert.bind(batch)
    return yield* insert.executeUpdate
  }).pipe(Effect.scoped)

const count = (table: string) =>
  Effect.flatMap(Connection.Connection, (conn) => conn.queryTable(`SELECT COUNT(*) AS N FROM "${table}"`)).pipe(
    Effect.map((t) => Number(t.getChildAt(0)!.get(0)))
  )

const money = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -9.99e9, max: 9.99e9 }),
  fc.integer({ min: -99999999, max: 99999999 }).map((cents) => cents / 100),
  fc.constantFrom(0.29, 0.1 + 0.2, -0.005, 1e-7, 123456789.125, -0)
)

describe("a bound INSERT on the encoded path", () => {
  it("stores what hdb's own batch insert stores: doubles into DECIMAL(p,s), timestamps into DATE", async () => {
    const row = fc.record({
      a: fc.option(money, { nil: null }),
      b: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true, min: -9e17, max: 9e17 }), { nil: null }),
      c: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e31, max: 1e31 }), { nil: null }),
      d: fc.option(fc.integer({ min: MS_MIN > Date.UTC(1, 0, 1) ? MS_MIN : Date.UTC(1, 0, 1), max: MS_MAX }), { nil: null }),
      e: fc.double({ noNaN: true, noDefaultInfinity: true })
    })
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 60 }), async (rows) => {
        const batch = batchOf(rows)
        const [ours, theirs] = [uniqueName("BIO"), uniqueName("BIH")]
        const recorder = makeRecorder()
        await Effect.runPromise(withConnection(server.uri, Effect.gen(function*() {
          const conn = yield* Connection.Connection
          yield* conn.execute(`CREATE COLUMN TABLE "${ours}" ${DDL}`)
          yield* conn.execute(`CREATE COLUMN TABLE "${theirs}" ${DDL}`)
          expect(yield* boundInsert(ours, batch)).toBe(rows.length)
        })).pipe(Effect.provide(recorder.layer)))
        expect(recorder.logs.some((l) => l.annotations["hana.insert.path"] === "encoded")).toBe(true)
        await rawInsert(server.uri, theirs, batch)
        const [a, b] = await Effect.runPromise(withConnection(server.uri, Effect.all([rowsOf(ours), rowsOf(theirs)])))
        expect(a).toHaveLength(rows.length)
        expect(a).toEqual(b)
      }),
      { numRuns: 12 }
    )
  }, 300_000)

  it.effect("under autocommit, a statement of several packets is all or nothing: a failing last row leaves the table as it was", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const table = uniqueName("BIATOM")
      yield* conn.execute(`CREATE COLUMN TABLE "${table}" ${DDL}`)
      const rows = Array.from({ length: 40_000 }, (_, i) => ({ a: i / 4, b: i, c: i / 8, d: Date.UTC(2024, 0, 1 + (i % 28)), e: i }))
      const batch = batchOf(rows)
      // the last row repeats the first row's key
      const ids = Arrow.vectorFromArray(rows.map((_, i) => (i === rows.length - 1 ? 0 : i)), new Arrow.Int32()).data[0]!
      const failing = new Arrow.RecordBatch(batch.schema, Arrow.makeData({ type: new Arrow.Struct(batch.schema.fields), length: rows.length, children: [ids, ...batch.data.children.slice(1)] }))
      const error = yield* Effect.flip(boundInsert(table, failing))
      expect(error.message).toMatch(/unique|301/i)
      // another connection sees no row: nothing of the first packet was committed
      expect(yield* withConnection(server.uri, count(table))).toBe(0)
      expect(yield* boundInsert(table, batch)).toBe(40_000)
      expect(yield* withConnection(server.uri, count(table))).toBe(40_000)
    })), 120_000)

  it.effect("under autocommit, a statement bound through hdb's writer (decimals as text) is all or nothing too", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const table = uniqueName("BIHDB")
      yield* conn.execute(`CREATE COLUMN TABLE "${table}" (ID INTEGER PRIMARY KEY, A DECIMAL(12,2))`)
      const n = 40_000
      const batchOf2 = (ids: ReadonlyArray<number>) =>
        new Arrow.RecordBatch({
          ID: Arrow.vectorFromArray(ids, new Arrow.Int32()).data[0]!,
          A: Arrow.vectorFromArray(ids.map((i) => (i / 4).toFixed(2)), new Arrow.Utf8()).data[0]!
        })
      const insert = (batch: Arrow.RecordBatch) =>
        Effect.gen(function*() {
          const statement = yield* conn.statement()
          yield* statement.setSqlQuery(`INSERT INTO "${table}" VALUES (?, ?)`)
          yield* statement.bind(batch)
          return yield* statement.executeUpdate
        }).pipe(Effect.scoped)
      const recorder = makeRecorder()
      // the last row repeats the first row's key: it fails in the second execution, after 32,000 rows went in
      const failing = batchOf2(Array.from({ length: n }, (_, i) => (i === n - 1 ? 0 : i)))
      const error = yield* Effect.flip(insert(failing).pipe(Effect.provide(recorder.layer)))
      expect(recorder.logs.some((l) => l.annotations["hana.insert.path"] === "hdb")).toBe(true)
      expect(error.message).toMatch(/unique|301/i)
      expect(yield* withConnection(server.uri, count(table))).toBe(0)
      // the session is in autocommit again: the next statement's rows are seen by another connection at once
      expect(yield* insert(batchOf2(Array.from({ length: n }, (_, i) => i)))).toBe(n)
      expect(yield* withConnection(server.uri, count(table))).toBe(n)
    })), 120_000)

  it.effect("a double the DECIMAL column cannot take (NaN, Infinity, past its precision) is refused naming column and row, before anything is written", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const table = uniqueName("BIBAD")
      yield* conn.execute(`CREATE COLUMN TABLE "${table}" ${DDL}`)
      const good = { a: 1.5, b: 2, c: 3.25, d: Date.UTC(2024, 0, 1), e: 1 }
      for (const [bad, problem] of [[Number.NaN, /NaN/], [Number.POSITIVE_INFINITY, /Infinity/], [1e300, /more digits/]] as const) {
        const rows = Array.from({ length: 10 }, () => ({ ...good }))
        rows[6] = { ...good, a: bad }
        const error = yield* Effect.flip(boundInsert(table, batchOf(rows)))
        expect(error.status).toBe("INVALID_ARGUMENT")
        expect(error.message).toMatch(/column 2 \("A"\), row 7/)
        expect(error.message).toMatch(problem)
        expect(yield* count(table)).toBe(0)
      }
    })))

  it.effect("several bound batches are one statement: all or nothing under autocommit, a failed row named across batches", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const table = uniqueName("BIMULTI")
      yield* conn.execute(`CREATE COLUMN TABLE "${table}" ${DDL}`)
      const rowsOf = (n: number) => Array.from({ length: n }, (_, i) => ({ a: i / 4, b: i, c: i / 8, d: Date.UTC(2024, 0, 1), e: i }))
      const withIds = (batch: Arrow.RecordBatch, ids: ReadonlyArray<number>) =>
        new Arrow.RecordBatch(batch.schema, Arrow.makeData({ type: new Arrow.Struct(batch.schema.fields), length: ids.length, children: [Arrow.vectorFromArray(ids, new Arrow.Int32()).data[0]!, ...batch.data.children.slice(1)] }))
      const first = withIds(batchOf(rowsOf(300)), Array.from({ length: 300 }, (_, i) => i))
      // the second batch's row 5 repeats a key of the first batch: row 305 of the statement
      const second = withIds(batchOf(rowsOf(300)), Array.from({ length: 300 }, (_, i) => (i === 4 ? 7 : 300 + i)))
      const insert = (batches: ReadonlyArray<Arrow.RecordBatch>) =>
        Effect.gen(function*() {
          const statement = yield* conn.statement()
          yield* statement.setSqlQuery(`INSERT INTO "${table}" VALUES (?, ?, ?, ?, ?, ?)`)
          yield* statement.bindStream(batches[0]!.schema, Stream.fromIterable(batches))
          return yield* statement.executeUpdate
        }).pipe(Effect.scoped)
      const error = yield* Effect.flip(insert([first, second]))
      expect(error.message).toMatch(/unique|301/i)
      expect(error.message).toMatch(/row 305/)
      expect(yield* withConnection(server.uri, count(table))).toBe(0)
      expect(yield* insert([first, withIds(second, Array.from({ length: 300 }, (_, i) => 300 + i))])).toBe(600)
      expect(yield* withConnection(server.uri, count(table))).toBe(600)
    })))

  it.effect("without autocommit the rows join the open transaction: a failing statement leaves it to the caller", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const table = uniqueName("BITXN")
      yield* conn.execute(`CREATE COLUMN TABLE "${table}" ${DDL}`)
      const rows = Array.from({ length: 100 }, (_, i) => ({ a: i / 4, b: i, c: i / 8, d: Date.UTC(2024, 0, 1), e: i }))
      const outcome = yield* Effect.exit(conn.withTransaction(Effect.gen(function*() {
        expect(yield* boundInsert(table, batchOf(rows))).toBe(100)
        // nothing is committed yet: another connection sees no row
        expect(yield* withConnection(server.uri, count(table))).toBe(0)
        yield* boundInsert(table, batchOf(rows))
      })))
      expect(outcome._tag).toBe("Failure")
      expect(yield* count(table)).toBe(0)
    })))

  it.effect("under autocommit, a statement of one packet is one EXECUTE and commits with it (no COMMIT request)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const table = uniqueName("BIONE")
      yield* conn.execute(`CREATE COLUMN TABLE "${table}" ${DDL}`)
      const batch = batchOf(Array.from({ length: 500 }, (_, i) => ({ a: i / 4, b: i, c: i / 8, d: Date.UTC(2024, 0, 1), e: i })))
      const stats = server.server!.stats
      const before = stats.insertCalls
      const requests = stats.requests
      expect(yield* boundInsert(table, batch)).toBe(500)
      expect(stats.insertCalls - before).toBe(1)
      // PREPARE, EXECUTE, DROP STATEMENT: no COMMIT of its own
      expect(stats.requests - requests).toBeLessThanOrEqual(3)
      expect(yield* withConnection(server.uri, count(table))).toBe(500)
    })))
})
