/**
 * Work counters a test server keeps: how many rows its batch inserts and its result encoding handled and the server
 * time they took, so a benchmark can report the server's own throughput apart from the client's; and how many calls
 * waited for a lock, so a test can tell that a statement is waiting from the server's side instead of guessing it from
 * how long the statement has been running.
 */

/** Cumulative counters of one test server (milliseconds of server time). */
export interface ServerStats {
  /**
   * Requests received, each one round trip of a client (a request and its reply, whatever it carries; the Oracle
   * server counts function calls, not the connect negotiation), so a test can count a driver's round trips.
   */
  requests: number
  /**
   * Batch (multi-row) execution requests received: one per executeMany call of a client (a database call), however
   * many rows it carries, so a test can count how a driver cut its rows into calls.
   */
  insertCalls: number
  /** Rows received in batch (multi-row) executions and the time from request to reply. */
  insertRows: number
  insertMs: number
  /** CPU time of the server process (all its threads) during those batch executions. */
  insertCpuMs: number
  /** Result rows encoded into replies and the time that took (engine reads included). */
  encodedRows: number
  encodeMs: number
  encodeCpuMs: number
  /**
   * Calls that had to wait for a lock another transaction holds (a row it wrote or locked FOR UPDATE, a key it
   * inserted), each counted once, when its wait begins; 0 on a server that never makes a call wait.
   */
  lockWaits: number
  /**
   * Requests to cancel a running call: a BREAK marker (Oracle), an `ALTER SYSTEM CANCEL SESSION` of another session
   * (HANA), so that a test can tell that a client cancelled its call on the server rather than dropping the session.
   */
  cancels: number
}

/** Fresh zeroed counters. */
export const emptyStats = (): ServerStats => ({
  requests: 0,
  insertCalls: 0,
  insertRows: 0,
  insertMs: 0,
  insertCpuMs: 0,
  encodedRows: 0,
  encodeMs: 0,
  encodeCpuMs: 0,
  lockWaits: 0,
  cancels: 0
})

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
