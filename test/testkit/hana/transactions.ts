/**
 * Two raw hdb clients in transactions against one HANA test server, for the lock-wait and transaction scenarios.
 */
import { startHanaTestServer } from "../../../testkit/hana/index.ts"
import type { HanaTestServerHandle } from "../../../testkit/hana/index.ts"
import { call, closeQuietly, connect } from "./client.ts"
import type { HdbClient } from "./client.ts"

/** A HANA test server and two raw hdb clients logged in to it as SYSTEM. */
export interface TwoClients {
  readonly server: HanaTestServerHandle
  readonly a: HdbClient
  readonly b: HdbClient
  /** Logs one more raw hdb client in as SYSTEM. */
  readonly login: () => Promise<HdbClient>
}

/** Starts a HANA test server and logs two clients in (close them with {@link closeTwoClients}). */
export const openTwoClients = async (): Promise<TwoClients> => {
  const server = await startHanaTestServer()
  const login = () => connect({ host: server.host, port: server.port, user: "SYSTEM", password: "Manager1" })
  return { server, a: await login(), b: await login(), login }
}

/** Closes both clients and the server (nothing when they were never opened). */
export const closeTwoClients = async (clients: Partial<TwoClients>): Promise<void> => {
  closeQuietly(clients.a)
  closeQuietly(clients.b)
  await clients.server?.close()
}

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
