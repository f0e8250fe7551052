/** ADBC rules of bulk ingest: the four modes and their errors, optional targets. */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect } from "effect"
import * as Connection from "../../../src/Connection.ts"
import { fromTable } from "../../../src/Ingest.ts"
import {
  type ConformanceDriver,
  type ConformanceEnv,
  countOf,
  failure,
  idsOf,
  numbers,
  rowsOf,
  uniqueTable
} from "../harness.ts"

export const ingestRules = (driver: ConformanceDriver, env: () => ConformanceEnv) =>
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
