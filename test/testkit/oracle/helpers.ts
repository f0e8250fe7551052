/**
 * Shared helpers for the Oracle test server tests: start a server and open raw node-oracledb thin connections.
 */
import { createRequire } from "node:module"
import { startOracleTestServer } from "../../../testkit/oracle/index.ts"
import type { OracleTestServerHandle, OracleTestServerOptions } from "../../../testkit/oracle/index.ts"

/* eslint-disable @typescript-eslint/no-explicit-any */
/** Raw node-oracledb (thin mode). Loaded through require: the package ships no type declarations. */
export const oracledb: any = createRequire(import.meta.url)("oracledb")

/** A raw node-oracledb connection (untyped: the package ships no declarations). */
export type Conn = any

/** Starts a server and returns it with a connection factory for its first user. */
export const withServer = async (options: OracleTestServerOptions = {}) => {
  const server: OracleTestServerHandle = await startOracleTestServer(options)
  const connect = (user = server.user, password = server.password): Promise<Conn> =>
    oracledb.getConnection({ user, password, connectString: server.connectString })
  return { server, connect }
}

/** Starts a server and opens one raw connection to it as its first user. */
export const openConnection = async (options: OracleTestServerOptions = {}) => {
  const { server, connect } = await withServer(options)
  return { server, conn: (await connect()) as Conn }
}

/** Closes what {@link openConnection} opened (nothing when it never ran). */
export const closeConnection = async (opened: { readonly server?: OracleTestServerHandle; readonly conn?: Conn }) => {
  await opened.conn?.close()
  await opened.server?.close()
}

/** Starts a server with `count` raw connections (scenarios between sessions, e.g. lock waits); `close` ends them and the server. */
export const withSessions = async (count: number) => {
  const { server, connect } = await withServer()
  const sessions: Array<Conn> = []
  for (let i = 0; i < count; i++) sessions.push(await connect())
  const close = async () => {
    for (const c of sessions) await c.close()
    await server.close()
  }
  return { server, sessions, close }
}

/** Two sessions on one server (`env.close` ends them and the server), as the tests between two transactions use them. */
export interface TwoSessions {
  readonly env: Awaited<ReturnType<typeof withSessions>>
  readonly a: Conn
  readonly b: Conn
}

/** Opens {@link TwoSessions}; session `a` runs `setup` (tables, rows) and commits it, so both start from the same data. */
export const openTwoSessions = async (setup: ReadonlyArray<string>): Promise<TwoSessions> => {
  const env = await withSessions(2)
  const [a, b] = env.sessions
  for (const sql of setup) await a.execute(sql)
  await a.commit()
  return { env, a, b }
}

/** Execute options fetching every NUMBER as the decimal text node-oracledb decodes from Oracle's digits (no JS double). */
export const numbersAsText = { fetchTypeHandler: (m: { dbType: unknown }) => (m.dbType === oracledb.DB_TYPE_NUMBER ? { type: oracledb.STRING } : undefined) }

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

/** Starts a call and tells when the server counts it waiting for a lock (test/support/lockWaits.ts). */
export { waitsForLock } from "../../support/lockWaits.ts"
/** An INTERVAL DAY TO SECOND as node-oracledb fetches it (every field with the value's sign). */
export const ds = (days: number, hours: number, minutes: number, seconds: number, fseconds: number) => ({ days, hours, minutes, seconds, fseconds })

/** An INTERVAL YEAR TO MONTH as node-oracledb fetches it. */
export const ym = (years: number, months: number) => ({ years, months })

/** Rows with interval objects as plain values; node-oracledb reads a zero field as +0 or -0 by the value's sign, so they compare by value. */
export const intervalRows = (rows: ReadonlyArray<ReadonlyArray<unknown>>) =>
  JSON.parse(JSON.stringify(rows.map((r) => r.map((v) => (v !== null && typeof v === "object" && !(v instanceof Date) ? { ...v } : v)))))
