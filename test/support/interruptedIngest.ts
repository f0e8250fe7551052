/**
 * What both drivers' interrupted-ingest tests share: a large ingest whose batches are built only when pulled, the
 * bound an interrupt must return within, polling for a condition the server reaches, a timed interrupt and the
 * check that the server receives nothing more.
 */
import { expect } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Fiber, Stream } from "effect"
import type { ServerStats } from "../../testkit/common/stats.ts"

/** Rows per batch of the large ingest. */
export const BATCH_ROWS = 20_000
/** Batches of the large ingest. */
export const BATCHES = 12

/**
 * A hang would exceed it; a loaded machine should not. By design an interrupt waits at most a few answer budgets of
 * 800 ms (the cancel, the rollback, the cleanup) before it drops the session.
 */
export const INTERRUPT_BOUND_MS = 10_000

/** Batch `index` of the large ingest: ids from 1,000 on, a DOUBLE and a short string per row. */
export const batchAt = (index: number): Arrow.RecordBatch => {
  const start = 1_000 + index * BATCH_ROWS
  const ids = Int32Array.from({ length: BATCH_ROWS }, (_, i) => start + i)
  const table = new Arrow.Table({
    ID: Arrow.makeVector(ids),
    V: Arrow.makeVector(Float64Array.from(ids, (id) => id / 3)),
    S: Arrow.vectorFromArray(Array.from(ids, (id) => `row ${id}`), new Arrow.Utf8())
  })
  return table.batches[0]!
}

/** The large ingest's data, each batch built only when the ingest pulls it. */
export const largeIngest = () => ({
  schema: batchAt(0).schema,
  batches: Stream.fromIterable({
    *[Symbol.iterator]() {
      for (let i = 0; i < BATCHES; i++) yield batchAt(i)
    }
  })
})

/** Polls `done` every 10 ms until it holds or `ms` pass; resolves to whether it holds. */
export const eventually = (done: () => boolean, ms: number) =>
  Effect.gen(function*() {
    const deadline = Date.now() + ms
    while (!done() && Date.now() < deadline) yield* Effect.sleep("10 millis")
    return done()
  })

/** Interrupts `fiber`; resolves to the milliseconds the interrupt took to return. */
export const timedInterrupt = <A, E>(fiber: Fiber.Fiber<A, E>) =>
  Effect.gen(function*() {
    const start = Date.now()
    yield* Fiber.interrupt(fiber)
    return Date.now() - start
  })

/** Checks that the server receives no further batch rows within half a second (the interrupted ingest sends nothing more). */
export const expectNoMoreRows = (stats: ServerStats) =>
  Effect.gen(function*() {
    const after = stats.insertRows
    yield* Effect.sleep("500 millis")
    expect(stats.insertRows).toBe(after)
  })
