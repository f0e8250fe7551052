/**
 * Shared helpers for the Oracle test server tests: start a server and open raw node-oracledb thin connections.
 */
import oracledb from "oracledb"
import { startOracleTestServer } from "../../../testkit/oracle/index.ts"
import type { OracleTestServerHandle, OracleTestServerOptions } from "../../../testkit/oracle/index.ts"

export { oracledb }

/** Starts a server and returns it with a connection factory for its first user. */
export const withServer = async (options: OracleTestServerOptions = {}) => {
  const server: OracleTestServerHandle = await startOracleTestServer(options)
  const connect = (user = server.user, password = server.password) =>
    oracledb.getConnection({ user, password, connectString: server.connectString })
  return { server, connect }
}

/** Extracts the ORA- code of an error thrown by node-oracledb. */
export const oraCode = (e: unknown): string | undefined => /ORA-\d{5}/.exec(e instanceof Error ? e.message : String(e))?.[0]

/** Runs `f` and returns the error it throws (fails the test when it does not throw). */
export const failure = async (f: () => Promise<unknown>): Promise<Error> => {
  try {
    await f()
  } catch (e) {
    return e as Error
  }
  throw new Error("expected a failure")
}
