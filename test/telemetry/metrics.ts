/**
 * The metric scenarios every driver passes, against its test server over real sockets: operation durations with
 * their attributes and error type, rows returned and ingested, and a pool's connection counts and waits, read from a
 * fresh metric registry with `Metric.snapshot`.
 */
import { expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Metric } from "effect"
import * as Connection from "../../src/Connection.ts"
import * as ConnectionPool from "../../src/ConnectionPool.ts"
import * as Database from "../../src/Database.ts"
import { fromTable } from "../../src/Ingest.ts"
import * as Reader from "../../src/Reader.ts"
import { failure } from "../support/exits.ts"
import type { DriverCase } from "./drivers.ts"
import { numberedTable } from "./support.ts"

interface HistogramValue {
  readonly count: number
  readonly sum: number
  readonly min: number
  readonly max: number
}

/** The snapshot entries of metric `id` whose attributes include `attributes`. */
const series = (snapshot: ReadonlyArray<Metric.Metric.Snapshot>, id: string, attributes: Record<string, string>) =>
  snapshot.filter((s) =>
    s.id === id && Object.entries(attributes).every(([key, value]) => s.attributes?.[key] === value)
  )

const one = (snapshot: ReadonlyArray<Metric.Metric.Snapshot>, id: string, attributes: Record<string, string>) => {
  const found = series(snapshot, id, attributes)
  expect(found, `${id} ${JSON.stringify(attributes)} in ${JSON.stringify(snapshot.map((s) => [s.id, s.attributes]))}`)
    .toHaveLength(1)
  return found[0]!
}
const histogram = (snapshot: ReadonlyArray<Metric.Metric.Snapshot>, id: string, attributes: Record<string, string>) =>
  one(snapshot, id, attributes).state as HistogramValue
const count = (snapshot: ReadonlyArray<Metric.Metric.Snapshot>, id: string, attributes: Record<string, string>) =>
  (one(snapshot, id, attributes).state as { readonly count: number }).count

/** Registers the metric scenarios for one driver in the current `describe`. */
export const metricScenarios = (c: DriverCase) => {
  it.effect("metrics: an ingest adds its rows; a query records its duration and returned rows; no SQL text", () => {
    const table = c.uniqueName("MET")
    const literal = "lit-Secret-4711"
    const total = 250
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      expect(yield* conn.ingest(fromTable(numberedTable(total, 100)), { targetTable: table })).toBe(total)
      const read = yield* Effect.scoped(Effect.gen(function*() {
        const reader = yield* conn.executeQuery(`SELECT ID, NAME FROM ${table} WHERE NAME <> '${literal}'`, {
          ...c.smallBatches(100),
          "telemetry.query_text": "true"
        })
        let rows = 0
        for (const batch of yield* Reader.collect(reader)) rows += batch.numRows
        return rows
      }))
      expect(read).toBe(total)
      const snapshot = yield* Metric.snapshot
      const system = { "db.system.name": c.systemName }

      expect(count(snapshot, "db.client.ingest.rows", { ...system, "db.collection.name": table })).toBe(total)
      expect(histogram(snapshot, "db.client.operation.duration", { ...system, "db.operation.name": "ingest" }).count)
        .toBe(1)

      const select = { ...system, "db.operation.name": "SELECT" }
      const duration = one(snapshot, "db.client.operation.duration", select)
      expect((duration.state as HistogramValue).count).toBe(1)
      expect((duration.state as HistogramValue).sum).toBeGreaterThan(0)
      expect(duration.attributes?.["server.port"]).toBe(new URL(c.server.uri).port)
      expect(duration.attributes).not.toHaveProperty("error.type")
      const returned = histogram(snapshot, "db.client.response.returned_rows", select)
      expect([returned.count, returned.sum]).toEqual([1, total])

      // query text (and so its literals) never becomes a metric attribute, even where spans carry it
      const text = JSON.stringify(snapshot.map((s) => [s.id, s.attributes]))
      expect(text).not.toContain("db.query.text")
      expect(text).not.toContain(literal)
      expect(text).not.toContain(decodeURIComponent(new URL(c.server.uri).password))
    }).pipe(Effect.provide(c.layer(c.server.uri)), Effect.provideService(Metric.MetricRegistry, new Map()))
  }, 60_000)

  it.effect("metrics: a failed query records its duration with error.type and db.response.status_code", () => {
    const missing = c.uniqueName("NO_SUCH")
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const error = failure(yield* Effect.exit(Effect.scoped(conn.executeQuery(`SELECT * FROM ${missing}`))))
      const snapshot = yield* Metric.snapshot
      const failed = histogram(snapshot, "db.client.operation.duration", {
        "db.system.name": c.systemName,
        "db.operation.name": "SELECT",
        "error.type": error.status,
        "db.response.status_code": c.missingTableCode
      })
      expect(failed.count).toBe(1)
      expect(series(snapshot, "db.client.response.returned_rows", {})).toEqual([])
    }).pipe(Effect.provide(c.layer(c.server.uri)), Effect.provideService(Metric.MetricRegistry, new Map()))
  })

  it.effect("metrics: a pool of 2 with 3 users: connections used and idle, the third waits, max 2", () => {
    const pool = { "db.client.connection.pool.name": "metrics-pool" }
    const used = { ...pool, "db.client.connection.state": "used" }
    const idle = { ...pool, "db.client.connection.state": "idle" }
    return Effect.gen(function*() {
      const database = yield* Database.Database
      const release = yield* Deferred.make<void>()
      const snapshotWhileHeld = yield* Effect.scoped(Effect.gen(function*() {
        const connections = yield* ConnectionPool.make(database, { size: 2, name: "metrics-pool" })
        const borrowed = [yield* Deferred.make<void>(), yield* Deferred.make<void>(), yield* Deferred.make<void>()]
        const user = (i: number) =>
          connections.use(() => Effect.andThen(Deferred.succeed(borrowed[i]!, undefined), Deferred.await(release)))
        const first = yield* Effect.forkChild(user(0))
        const second = yield* Effect.forkChild(user(1))
        yield* Deferred.await(borrowed[0]!)
        yield* Deferred.await(borrowed[1]!)
        const held = yield* Metric.snapshot
        const third = yield* Effect.forkChild(user(2))
        yield* Effect.yieldNow
        expect(yield* Deferred.isDone(borrowed[2]!)).toBe(false)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(first)
        yield* Fiber.join(second)
        yield* Fiber.join(third)
        const after = yield* Metric.snapshot
        expect(count(after, "db.client.connection.count", used)).toBe(0)
        expect(count(after, "db.client.connection.count", idle)).toBe(2)
        const waits = histogram(after, "db.client.connection.wait_time", pool)
        expect(waits.count).toBe(3)
        expect(waits.max).toBeGreaterThan(0)
        return held
      }))
      expect(count(snapshotWhileHeld, "db.client.connection.count", used)).toBe(2)
      expect(count(snapshotWhileHeld, "db.client.connection.count", idle)).toBe(0)
      expect(count(snapshotWhileHeld, "db.client.connection.max", pool)).toBe(2)
      expect(histogram(snapshotWhileHeld, "db.client.connection.wait_time", pool).count).toBe(2)
      // the pool closed: its connections are gone, and so is its capacity
      const closed = yield* Metric.snapshot
      expect(count(closed, "db.client.connection.count", idle)).toBe(0)
      expect(count(closed, "db.client.connection.max", pool)).toBe(0)
    }).pipe(Effect.provide(c.layer(c.server.uri)), Effect.provideService(Metric.MetricRegistry, new Map()))
  }, 60_000)

  it.effect("metrics: a pool without a name is named server.address:server.port/db.namespace", () => {
    const url = new URL(c.server.uri)
    const name = `${url.hostname}:${url.port}${c.namespace === undefined ? "" : `/${c.namespace}`}`
    return Effect.gen(function*() {
      const database = yield* Database.Database
      const snapshot = yield* Effect.scoped(Effect.gen(function*() {
        const connections = yield* ConnectionPool.make(database, { size: 3 })
        yield* connections.use(() => Effect.void)
        return yield* Metric.snapshot
      }))
      expect(count(snapshot, "db.client.connection.max", { "db.client.connection.pool.name": name })).toBe(3)
      expect(histogram(snapshot, "db.client.connection.wait_time", { "db.client.connection.pool.name": name }).count)
        .toBe(1)
    }).pipe(Effect.provide(c.layer(c.server.uri)), Effect.provideService(Metric.MetricRegistry, new Map()))
  })
}
