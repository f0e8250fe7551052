/**
 * State shared by every session of one Oracle test server.
 */
import type { ServerStats } from "../common/stats.ts"
import type { OracleDatabase } from "./database.ts"
import type { OracleFaults } from "./faults.ts"

/** What the sessions of one server share. */
export interface ServerContext {
  readonly db: OracleDatabase
  readonly faults: OracleFaults
  readonly sessionTimeZone: string | undefined
  /** Work counters of the server (executeMany inserts, row encoding), read by benchmarks. */
  readonly stats: ServerStats
}
