/**
 * Work counters a test server keeps for benchmarks: how many rows its batch inserts and its result encoding handled
 * and the server time they took, so a benchmark can report the server's own throughput apart from the client's.
 */

/** Cumulative counters of one test server (milliseconds of server time). */
export interface ServerStats {
  /** Rows received in batch (multi-row) executions and the time from request to reply. */
  insertRows: number
  insertMs: number
  /** CPU time of the server process (all its threads) during those batch executions. */
  insertCpuMs: number
  /** Result rows encoded into replies and the time that took (engine reads included). */
  encodedRows: number
  encodeMs: number
  encodeCpuMs: number
}

/** Fresh zeroed counters. */
export const emptyStats = (): ServerStats => ({ insertRows: 0, insertMs: 0, insertCpuMs: 0, encodedRows: 0, encodeMs: 0, encodeCpuMs: 0 })

/**
 * Runs `f`, adding its wall time to `stats[work + "Ms"]` and the process's CPU time to `stats[work + "CpuMs"]`
 * (also when it fails). On a loaded machine the CPU time is the steadier measure of the server's own cost.
 */
export const timed = async <A>(stats: ServerStats, work: "insert" | "encode", f: () => Promise<A>): Promise<A> => {
  const start = performance.now()
  const cpu = process.cpuUsage()
  try {
    return await f()
  } finally {
    const used = process.cpuUsage(cpu)
    stats[`${work}Ms`] += performance.now() - start
    stats[`${work}CpuMs`] += (used.user + used.system) / 1000
  }
}
