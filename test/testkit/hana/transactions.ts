/**
 * Two raw hdb clients in transactions against one HANA test server, for the lock-wait scenarios.
 */
import { call } from "./client.ts"
import type { HdbClient } from "./client.ts"

/**
 * Runs `body` with autocommit off on both clients, then rolls back whatever either left open and turns autocommit
 * back on, so each scenario starts from committed data.
 */
export const inTransactions = async (a: HdbClient, b: HdbClient, body: () => Promise<void>): Promise<void> => {
  a.setAutoCommit(false)
  b.setAutoCommit(false)
  try {
    await body()
  } finally {
    await call((cb) => a.rollback(cb)).catch(() => undefined)
    await call((cb) => b.rollback(cb)).catch(() => undefined)
    a.setAutoCommit(true)
    b.setAutoCommit(true)
  }
}
