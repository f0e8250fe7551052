/**
 * ADBC rules of the connection pool on a Database: one connection per concurrent fiber, never shared, and a broken
 * connection replaced on checkout.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Latch, Layer, Stream } from "effect"
import * as ConnectionPool from "../../../src/ConnectionPool.ts"
import { fromTable } from "../../../src/Ingest.ts"
import { type ConformanceDriver, type ConformanceEnv, failure, numbers, uniqueTable } from "../harness.ts"

export const poolRules = (driver: ConformanceDriver, env: () => ConformanceEnv) =>
  describe(`${driver.name}: connection pool`, () => {
    // the env's layer opens one connection of its own next to the pool's
    const poolLayer = (size: number) => ConnectionPool.layer({ size }).pipe(Layer.provide(env().layer()))

    it.live("three concurrent fibers use three different connections", () =>
      Effect.gen(function*() {
        const pool = yield* ConnectionPool.ConnectionPool
        const seen = new Set<object>()
        // Each fiber keeps its connection until all three hold one at once, so none can hand its connection back for
        // another to reuse, however slowly the machine opens them. A pool that shares or lacks connections never gets
        // there: the timeout turns that hang into a failure.
        const allHolding = yield* Latch.make()
        let holding = 0
        let sessionsWhileHeld = 0
        yield* Effect.all(
          [1, 2, 3].map(() =>
            pool.use((conn) =>
              Effect.gen(function*() {
                seen.add(conn)
                if (++holding === 3) {
                  sessionsWhileHeld = env().openSessions()
                  yield* allHolding.open
                }
                yield* allHolding.await
              })
            )
          ),
          { concurrency: "unbounded" }
        ).pipe(
          Effect.timeoutOrElse({
            duration: "60 seconds",
            orElse: () => Effect.die(new Error(`only ${holding} of 3 fibers got a connection at the same time`))
          })
        )
        expect(seen.size).toBe(3)
        expect(sessionsWhileHeld).toBeGreaterThanOrEqual(3)
      }).pipe(Effect.provide(poolLayer(3))))

    it.live("a size of 1 makes fibers wait for the one connection, never share it", () =>
      Effect.gen(function*() {
        const pool = yield* ConnectionPool.ConnectionPool
        let inUse = 0
        let most = 0
        yield* Effect.all(
          [1, 2, 3].map(() =>
            pool.use((conn) =>
              Effect.gen(function*() {
                inUse++
                most = Math.max(most, inUse)
                yield* Effect.sleep("50 millis")
                yield* conn.getTableTypes
                inUse--
              })
            )
          ),
          { concurrency: "unbounded" }
        )
        expect(most).toBe(1)
      }).pipe(Effect.provide(poolLayer(1))))

    if (driver.faults.dropMidFetch) {
      it.live("after a connection is lost, the next checkout gets a working connection", () =>
        Effect.gen(function*() {
          const pool = yield* ConnectionPool.ConnectionPool
          const table = uniqueTable("POOL")
          yield* pool.use((conn) => conn.ingest(fromTable(numbers(200)), { targetTable: table }))
          env().faults.dropMidFetch!(true)
          const lost = yield* Effect.exit(
            pool.use((conn) => Stream.runCollect(conn.query(driver.sql.selectAll(table, "id"), driver.smallPages))).pipe(
              Effect.ensuring(Effect.sync(() => env().faults.dropMidFetch!(false)))
            )
          )
          expect(failure(lost).status).toBe("IO")
          const batches = yield* pool.use((conn) => Stream.runCollect(conn.query(driver.sql.count(table))))
          expect(Number(batches[0]!.getChildAt(0)!.get(0))).toBe(200)
        }).pipe(Effect.provide(poolLayer(1))))
    }

    it.effect("a size below 1 fails INVALID_ARGUMENT naming what is accepted", () =>
      Effect.gen(function*() {
        const error = failure(yield* Effect.exit(Layer.build(poolLayer(0)).pipe(Effect.scoped)))
        expect(error.status).toBe("INVALID_ARGUMENT")
        expect(error.message).toContain("positive integer")
      }))
  })
