/**
 * Work counters a test server keeps for benchmarks: how many rows its batch inserts and its result encoding handled
 * and the server time they took, so a benchmark can report the server's own throughput apart from the client's.
 */

/** Cumulative counters of one test server (milliseconds of server time). */
export interface ServerStats {
  /** Rows received in batch (multi-row) executions and the time from request to reply. */
  insertRows: number
  insertMs: number
  /** Result rows encoded into replies and the time that took (engine reads included). */
  encodedRows: number
  encodeMs: number
}

/** Fresh zeroed counters. */
export const emptyStats = (): ServerStats => ({ insertRows: 0, insertMs: 0, encodedRows: 0, encodeMs: 0 })

/** Runs `f`, adding its duration to `stats[key]` (also when it fails). */
export const timed = async <A>(stats: ServerStats, key: "insertMs" | "encodeMs", f: () => Promise<A>): Promise<A> => {
  const start = performance.now()
  try {
    return await f()
  } finally {
    stats[key] += performance.now() - start
  }
}
