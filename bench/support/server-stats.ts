/** Figures the server benchmarks derive from a test server's work counters (`ServerStats`). */
import type { ServerStats } from "../../testkit/common/stats.ts"

/** Rows per second of `ms` milliseconds, rounded. */
export const perSecond = (rows: number, ms: number): number => Math.round(rows / (ms / 1000))

/** The work counted between two readings of a server's counters. */
export const statsDelta = (after: ServerStats, before: ServerStats): ServerStats => ({
  insertRows: after.insertRows - before.insertRows,
  insertMs: after.insertMs - before.insertMs,
  insertCpuMs: after.insertCpuMs - before.insertCpuMs,
  encodedRows: after.encodedRows - before.encodedRows,
  encodeMs: after.encodeMs - before.encodeMs,
  encodeCpuMs: after.encodeCpuMs - before.encodeCpuMs,
  lockWaits: after.lockWaits - before.lockWaits
})
