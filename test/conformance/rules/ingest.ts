/** ADBC rules of bulk ingest: the four modes and their errors, optional targets, atomicity, dictionary columns. */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Fiber, Stream } from "effect"
import { adbcError } from "../../../src/AdbcError.ts"
import * as Connection from "../../../src/Connection.ts"
import { fromTable, type IngestData } from "../../../src/Ingest.ts"
import { rawUtf8, rawUtf8View } from "../../support/arrowVectors.ts"
import {
  type ConformanceDriver,
  type ConformanceEnv,
  countOf,
  failure,
  hundreds,
  idsOf,
  numbers,
  rowsOf,
  uniqueTable
} from "../harness.ts"

/** Batches of 100 rows (ids from 1000), then a failure of the source after `goodBatches` of them. */
const failingSource = (goodBatches: number): IngestData => ({
  schema: numbers(0).schema,
  batches: Stream.concat(hundreds(goodBatches, 1000), Stream.fail(adbcError("IO", "source stream broke")))
})

/** A table of 10 rows, and its ids as read back. */
const seededTable = (driver: ConformanceDriver) =>
  Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const table = uniqueTable("ATM")
    yield* conn.ingest(fromTable(numbers(10)), { targetTable: table })
    return { table, ids: idsOf(yield* rowsOf(driver.sql.selectAll(table, "id"))) }
  })

/** Whether `table` exists (GetTableSchema fails NOT_FOUND when not). */
const exists = (table: string) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    conn.getTableSchema(undefined, undefined, table).pipe(
      Effect.as(true),
      Effect.catchIf((e) => e.status === "NOT_FOUND", () => Effect.succeed(false))
    ))

export const ingestRules = (driver: ConformanceDriver, env: () => ConformanceEnv) => {
  describe(`${driver.name}: ingest rules`, () => {
    it.effect("append matches columns by name: columns in another order land in the right columns; an unknown column fails naming it and inserts nothing", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const table = uniqueTable("BYNAME")
        const nameFirst = new Arrow.Table({
          name: Arrow.vectorFromArray(["zero"], new Arrow.Utf8()),
          id: Arrow.vectorFromArray([0], new Arrow.Int32())
        })
        yield* conn.ingest(fromTable(nameFirst), { targetTable: table })
        expect(yield* conn.ingest(fromTable(numbers(3, 1)), { targetTable: table, mode: "append" })).toBe(3)
        const back = new Arrow.Table(yield* rowsOf(driver.sql.selectAll(table, "id")))
        expect(back.toArray().map((row) => `${row.id}:${row.name}`)).toEqual(["0:zero", "1:null", "2:row 2", "3:row 3"])
        const unknown = new Arrow.Table({
          id: Arrow.vectorFromArray([9], new Arrow.Int32()),
          zz: Arrow.vectorFromArray(["x"], new Arrow.Utf8())
        })
        const error = failure(yield* Effect.exit(conn.ingest(fromTable(unknown), { targetTable: table, mode: "append" })))
        expect(error.status).toBe("ALREADY_EXISTS")
        expect(error.message).toContain("zz")
        expect(yield* countOf(driver, table)).toBe(4)
      }).pipe(Effect.provide(env().layer())))

    it.effect("invalid UTF-8 in a utf8 or string_view column fails INVALID_DATA naming column and row (create and append); nothing is written", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const long = (last: number) => [...Array.from({ length: 19 }, () => 0x61), last]
        // Each case: a valid first row (which creates the append target), then the table whose row 2 is invalid.
        // string_view values of 12 bytes or fewer sit in the view itself, longer ones in a variadic buffer.
        const cases = [
          rawUtf8([[0x6f, 0x6b], [0x61, 0xff]]),
          rawUtf8View([[0x6f, 0x6b], [0x61, 0xff]]),
          rawUtf8View([long(0x62), long(0xff)])
        ]
        for (const name of cases) {
          const bad = new Arrow.Table({ id: Arrow.vectorFromArray([7, 8], new Arrow.Int32()), name })
          const table = uniqueTable("UTF")
          yield* conn.ingest(fromTable(bad.slice(0, 1)), { targetTable: table })
          for (const [target, mode] of [[table, "append"], [uniqueTable("UTFC"), "create"]] as const) {
            const error = failure(yield* Effect.exit(conn.ingest(fromTable(bad), { targetTable: target, mode })))
            expect(error.status, `${name.type} into ${mode}`).toBe("INVALID_DATA")
            expect(error.message).toContain("column name, row 2")
            expect(error.message).toContain("not valid UTF-8")
          }
          expect(yield* countOf(driver, table)).toBe(1)
        }
      }).pipe(Effect.provide(env().layer())))

    it.effect("a failed ingest inside the caller's transaction undoes only its own rows", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const table = uniqueTable("SPT")
        yield* conn.ingest(fromTable(numbers(0)), { targetTable: table })
        yield* conn.setOption("adbc.connection.autocommit", "false")
        yield* conn.ingest(fromTable(numbers(1, -1)), { targetTable: table, mode: "append" })
        // the source fails after its first batch went in
        const error = failure(yield* Effect.exit(conn.ingest(failingSource(1), { targetTable: table, mode: "append" })))
        expect(error.message).toContain("source stream broke")
        yield* conn.commit
        yield* conn.setOption("adbc.connection.autocommit", "true")
        expect(idsOf(yield* rowsOf(driver.sql.selectAll(table, "id")))).toEqual([-1])
      }).pipe(Effect.provide(env().layer())))
  })

  describe(`${driver.name}: ingest is atomic`, () => {
    for (const mode of ["replace", "append", "create_append"] as const) {
      it.effect(`${mode}: a source stream error keeps the old table and rows`, () =>
        Effect.gen(function*() {
          const conn = yield* Connection.Connection
          const { table, ids } = yield* seededTable(driver)
          const error = failure(yield* Effect.exit(conn.ingest(failingSource(3), { targetTable: table, mode })))
          expect(error.message).toContain("source stream broke")
          expect(idsOf(yield* rowsOf(driver.sql.selectAll(table, "id")))).toEqual(ids)
        }).pipe(Effect.provide(env().layer())))
    }

    for (const mode of ["create", "replace", "create_append"] as const) {
      it.effect(`${mode} into a missing table: a failure leaves no table`, () =>
        Effect.gen(function*() {
          const conn = yield* Connection.Connection
          const table = uniqueTable("ATN")
          failure(yield* Effect.exit(conn.ingest(failingSource(2), { targetTable: table, mode })))
          expect(yield* exists(table)).toBe(false)
        }).pipe(Effect.provide(env().layer())))
    }

    it.effect("replace: a batch whose schema differs from the data's fails INVALID_ARGUMENT and keeps the old table", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const { table, ids } = yield* seededTable(driver)
        const good = numbers(2, 1000)
        const other = new Arrow.Table({
          id: Arrow.vectorFromArray([3], new Arrow.Int32()),
          extra: Arrow.vectorFromArray(["x"], new Arrow.Utf8())
        })
        const data: IngestData = { schema: good.schema, batches: Stream.make(good.batches[0]!, other.batches[0]!) }
        const error = failure(yield* Effect.exit(conn.ingest(data, { targetTable: table, mode: "replace" })))
        expect(error.status).toBe("INVALID_ARGUMENT")
        expect(idsOf(yield* rowsOf(driver.sql.selectAll(table, "id")))).toEqual(ids)
      }).pipe(Effect.provide(env().layer())))

    it.live("replace: an interrupted ingest keeps the old table and rows", () =>
      Effect.gen(function*() {
        const { table, ids } = yield* seededTable(driver)
        const slow: IngestData = {
          schema: numbers(0).schema,
          batches: hundreds(50, 1000).pipe(Stream.tap(() => Effect.sleep("20 millis")))
        }
        // on a connection of its own, as a program that gives up on a long ingest would
        const fiber = yield* Effect.forkChild(
          Effect.flatMap(Connection.Connection, (conn) => conn.ingest(slow, { targetTable: table, mode: "replace" })).pipe(
            Effect.provide(env().layer())
          )
        )
        yield* Effect.sleep("300 millis")
        yield* Fiber.interrupt(fiber)
        expect(idsOf(yield* rowsOf(driver.sql.selectAll(table, "id")))).toEqual(ids)
      }).pipe(Effect.provide(env().layer())))
  })

  describe(`${driver.name}: dictionary-encoded columns`, () => {
    it.effect("strings from tableFromArrays / tableFromJSON (dictionary-encoded) create and append like their value type", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const table = uniqueTable("DICT")
        const ids = (values: Array<number>) => Arrow.vectorFromArray(values, new Arrow.Int32())
        const first = Arrow.tableFromArrays({ name: ["a", "b", null] })
        yield* conn.ingest(fromTable(new Arrow.Table({ id: ids([0, 1, 2]), name: first.getChild("name")! })), { targetTable: table })
        const more = Arrow.tableFromJSON([{ name: "c" }])
        yield* conn.ingest(fromTable(new Arrow.Table({ id: ids([3]), name: more.getChild("name")! })), {
          targetTable: table,
          mode: "append"
        })
        const rows = yield* rowsOf(driver.sql.selectAll(table, "id"))
        expect(rows.flatMap((b) => [...b.getChild("name")!.toArray()])).toEqual(["a", "b", null, "c"])
      }).pipe(Effect.provide(env().layer())))
  })

  describe(`${driver.name}: bulk ingest`, () => {
    it.effect("create, append, create_append and replace; ALREADY_EXISTS and NOT_FOUND as ADBC says", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueTable("ING")
        expect(yield* conn.ingest(fromTable(numbers(5)), { targetTable: t })).toBe(5)
        expect(failure(yield* Effect.exit(conn.ingest(fromTable(numbers(1)), { targetTable: t }))).status).toBe(
          "ALREADY_EXISTS"
        )
        expect(yield* conn.ingest(fromTable(numbers(3, 100)), { targetTable: t, mode: "append" })).toBe(3)
        expect(yield* conn.ingest(fromTable(numbers(2, 200)), { targetTable: t, mode: "create_append" })).toBe(2)
        expect(yield* countOf(driver, t)).toBe(10)
        expect(yield* conn.ingest(fromTable(numbers(4, 300)), { targetTable: t, mode: "replace" })).toBe(4)
        const rows = yield* rowsOf(driver.sql.selectAll(t, "id"))
        expect(idsOf(rows)).toEqual([300, 301, 302, 303])
        expect(rows.flatMap((b) => [...b.getChild("name")!.toArray()])).toEqual([null, "row 301", "row 302", "row 303"])
        const fresh = uniqueTable("ING")
        expect(yield* conn.ingest(fromTable(numbers(2)), { targetTable: fresh, mode: "create_append" })).toBe(2)
        expect(yield* conn.ingest(fromTable(numbers(2)), { targetTable: uniqueTable("ING"), mode: "replace" })).toBe(2)
        const missing = failure(
          yield* Effect.exit(conn.ingest(fromTable(numbers(1)), { targetTable: uniqueTable("NOPE"), mode: "append" }))
        )
        expect(missing.status).toBe("NOT_FOUND")
      }).pipe(Effect.provide(env().layer())))

    it.effect("append with a column of another type fails ALREADY_EXISTS naming the column and inserts nothing", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueTable("ING")
        yield* conn.ingest(fromTable(numbers(3)), { targetTable: t })
        const wrong = new Arrow.Table({ id: Arrow.vectorFromArray(["a"], new Arrow.Utf8()) })
        const error = failure(yield* Effect.exit(conn.ingest(fromTable(wrong), { targetTable: t, mode: "append" })))
        expect(error.status).toBe("ALREADY_EXISTS")
        expect(error.message).toContain("id")
        expect(yield* countOf(driver, t)).toBe(3)
      }).pipe(Effect.provide(env().layer())))

    it.effect(
      driver.capabilities.ingestTargetCatalog
        ? "a target catalog is accepted"
        : "a target catalog fails NOT_IMPLEMENTED naming the feature and the driver, before any table exists",
      () =>
        Effect.gen(function*() {
          const conn = yield* Connection.Connection
          const t = uniqueTable("ING")
          const exit = yield* Effect.exit(
            conn.ingest(fromTable(numbers(1)), { targetTable: t, targetCatalog: driver.catalog })
          )
          if (driver.capabilities.ingestTargetCatalog) {
            expect(exit._tag).toBe("Success")
          } else {
            const error = failure(exit)
            expect(error.status).toBe("NOT_IMPLEMENTED")
            expect(error.message).toContain(driver.name)
            expect(error.message).toContain("adbc.ingest.target_catalog")
          }
        }).pipe(Effect.provide(env().layer()))
    )
  })
}
