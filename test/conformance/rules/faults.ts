/**
 * Faults injected by the driver's test server: each must end in a typed error, never a short success or a crash.
 * A rule is registered only when the driver's record says its server can inject the fault (`faults`).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import * as Connection from "../../../src/Connection.ts"
import { fromTable } from "../../../src/Ingest.ts"
import { type ConformanceDriver, type ConformanceEnv, failure, numbers, uniqueTable } from "../harness.ts"

export const faultRules = (driver: ConformanceDriver, env: () => ConformanceEnv) =>
  describe(`${driver.name}: faults`, () => {
    if (driver.faults.dropMidFetch) {
      it.live("a connection lost in the middle of a result fails the stream with IO, not a short success", () =>
        Effect.gen(function*() {
          const conn = yield* Connection.Connection
          const table = uniqueTable("FLT")
          yield* conn.ingest(fromTable(numbers(2000)), { targetTable: table })
          env().faults.dropMidFetch!(true)
          const exit = yield* Effect.exit(
            Stream.runCollect(conn.query(driver.sql.selectAll(table, "id"), driver.smallPages)).pipe(
              Effect.ensuring(Effect.sync(() => env().faults.dropMidFetch!(false)))
            )
          )
          const error = failure(exit)
          expect(error.status).toBe("IO")
        }).pipe(Effect.provide(env().layer())))
    }
  })
