/** Figures the server benchmarks derive from a test server's work counters (`ServerStats`). */
import type { ServerStats } from "../../testkit/common/stats.ts"

/** Rows per second of `ms` milliseconds, rounded. */
export const perSecond = (rows: number, ms: number): number => Math.round(rows / (ms / 1000))

/** The work counted between two readings of a server's counters. */
export const statsDelta = (after: ServerStats, before: ServerStats): ServerStats => ({
  requests: after.requests - before.requests,
  insertCalls: after.insertCalls - before.insertCalls,
  insertRows: after.insertRows - before.insertRows,
  insertMs: after.insertMs - before.insertMs,
  insertCpuMs: after.insertCpuMs - before.insertCpuMs,
  encodedRows: after.encodedRows - before.encodedRows,
  encodeMs: after.encodeMs - before.encodeMs,
  encodeCpuMs: after.encodeCpuMs - before.encodeCpuMs,
  lockWaits: after.lockWaits - before.lockWaits,
  cancels: after.cancels - before.cancels
})

/**
 * Which clock each figure of a server benchmark divides by, printed with the figures (`clocks`) so that a reader of
 * the JSON line alone can tell them apart: on the shared, often loaded machine the wall-clock and CPU figures differ
 * several-fold.
 */
export const FIGURE_CLOCKS = {
  "*_rows_per_s (insert, direct_path, server_encode)": "server wall clock: request to reply, from the server's own counters",
  "*_rows_per_cpu_s": "server CPU time: the server process's CPU seconds over the same work",
  "*_end_to_end_rows_per_s, rows_per_s": "client wall clock: the client's call, its own encoding or decoding and the network included"
} as const
