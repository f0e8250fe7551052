/**
 * `startOracleTestServer`: a wire-compatible Oracle Database test server on loopback, backed by an
 * embedded DuckDB, for the unmodified node-oracledb thin client (verified against oracledb 26.0.0).
 */
import * as net from "node:net"
import { OracleDatabase } from "./database.ts"
import { storedCodeHooks } from "./plsql/stored-code-hooks.ts"
import type { OracleVersion } from "./errors.ts"
import type { OracleFaults } from "./faults.ts"
import { ProtocolSession, type SessionHost } from "./session.ts"
import type { ServerStats } from "../common/stats.ts"

export type { OracleFaults } from "./faults.ts"
export type { OracleVersion } from "./errors.ts"

/** The node-oracledb version whose thin-mode protocol the server was verified against. */
export const VERIFIED_ORACLEDB_VERSION = "26.0.0"

/** A database user of the test server. */
export interface OracleUser {
  readonly name: string
  readonly password: string
  /**
   * Holds the DBA role (every system privilege): may CREATE, ALTER and DROP other users, grant system privileges and
   * roles, use every schema (others get ORA-01031, as on Oracle). Default false. Every start-up user holds the CONNECT
   * and RESOURCE roles and CREATE VIEW, CREATE SYNONYM, CREATE MATERIALIZED VIEW and UNLIMITED TABLESPACE
   * (system-privileges.ts); a user made by `CREATE USER` holds nothing until granted.
   */
  readonly dba?: boolean
}

/** Options of {@link startOracleTestServer}. */
export interface OracleTestServerOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free port. */
  readonly port?: number
  /** Users (and their schemas). Default: one user `TEST` / `test`. Names are stored upper-cased. */
  readonly users?: ReadonlyArray<OracleUser>
  /** Service name the listener accepts (default `FREEPDB1`); others are refused with ORA-12514. */
  readonly serviceName?: string
  /** Message layout and reported release (default "23ai"). */
  readonly version?: OracleVersion
  /** DBTIMEZONE as an offset (default "+00:00"). */
  readonly dbTimeZone?: string
  /** NLS_NUMERIC_CHARACTERS of the database, which every session starts with (default ".,"; ",." as in much of Europe). */
  readonly numericCharacters?: string
  /** Forces the session time zone instead of the one the client sends at logon. */
  readonly sessionTimeZone?: string
  /**
   * How long a write, FOR UPDATE without WAIT / NOWAIT, LOCK TABLE or a key claim waits for a lock another session's
   * open transaction holds before failing with ORA-30006. Default: until that transaction ends (or a break, ORA-01013,
   * or a deadlock, ORA-00060), as Oracle: "If you omit this clause, then the database waits until the row is
   * available" (SQL Language Reference, SELECT, for_update_clause). A number bounds the wait, for tests.
   */
  readonly lockWaitMs?: number
  /** Initial fault injection switches (can be changed later through the handle). */
  readonly faults?: OracleFaults
  /**
   * Receives the engine's own message of every statement failure with the ORA- error sent for it (`ORA-03001 <=
   * Binder Error: ...`); clients never see the engine's text. Default: written to stderr when the environment variable
   * ORACLE_TESTKIT_DEBUG is set, else dropped.
   */
  readonly debugLog?: (line: string) => void
}

/** A running server. */
export interface OracleTestServerHandle {
  readonly host: string
  readonly port: number
  /** `oracle://USER:PASS@127.0.0.1:PORT/SERVICE` for the first user. */
  readonly uri: string
  /** Easy Connect string `127.0.0.1:PORT/SERVICE` for `oracledb.getConnection({ connectString })`. */
  readonly connectString: string
  /** First configured user and password. */
  readonly user: string
  readonly password: string
  readonly serviceName: string
  readonly version: OracleVersion
  /** Live fault switches; mutate to inject faults. */
  readonly faults: OracleFaults
  /** Number of open client sessions. */
  readonly sessionCount: () => number
  /** Cursors the clients hold open across all sessions (V$OPEN_CURSOR rows; client statement caches included). */
  readonly openCursors: () => number
  /**
   * Cursors across all sessions whose result still has rows the client has neither fetched, closed nor cancelled:
   * 0 once every reader released its cursor.
   */
  readonly openResultSets: () => number
  /**
   * Cumulative work counters: executeMany rows and the server time they took, rows encoded into FETCH replies, calls
   * that waited for a lock.
   */
  readonly stats: ServerStats
  /** Closes every session, the listening port and the database. Idempotent. */
  readonly close: () => Promise<void>
}

/** Starts a server on 127.0.0.1. */
export const startOracleTestServer = async (options: OracleTestServerOptions = {}): Promise<OracleTestServerHandle> => {
  const users = (options.users ?? [{ name: "TEST", password: "test" }]).map((u) => ({
    name: u.name.startsWith('"') ? u.name.slice(1, -1) : u.name.toUpperCase(),
    password: u.password,
    dba: u.dba === true
  }))
  const serviceName = options.serviceName ?? "FREEPDB1"
  const version = options.version ?? "23ai"
  const faults: OracleFaults = { ...options.faults }
  const db = await OracleDatabase.create({ version, serviceName, dbTimeZone: options.dbTimeZone ?? "+00:00", users, lockWaitMs: options.lockWaitMs ?? Number.POSITIVE_INFINITY, storedCode: storedCodeHooks, faults, ...(options.debugLog === undefined ? {} : { debugLog: options.debugLog }), ...(options.numericCharacters === undefined ? {} : { numericCharacters: options.numericCharacters }) })
  const sessions = new Set<ProtocolSession>()
  const stats = db.stats
  const host: SessionHost = {
    db,
    faults,
    stats,
    sessionTimeZone: options.sessionTimeZone,
    onClose: (s) => {
      sessions.delete(s)
    }
  }
  const server = net.createServer((socket) => {
    sessions.add(new ProtocolSession(socket, host))
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve())
  })
  const port = (server.address() as net.AddressInfo).port
  let closed: Promise<void> | undefined
  const first = users[0]!
  return {
    host: "127.0.0.1",
    port,
    uri: `oracle://${encodeURIComponent(first.name)}:${encodeURIComponent(first.password)}@127.0.0.1:${port}/${serviceName}`,
    connectString: `127.0.0.1:${port}/${serviceName}`,
    user: first.name,
    password: first.password,
    serviceName,
    version,
    faults,
    sessionCount: () => sessions.size,
    openCursors: () => [...sessions].reduce((n, s) => n + s.openCursors(), 0),
    openResultSets: () => [...sessions].reduce((n, s) => n + s.openResults(), 0),
    stats,
    close: () => {
      closed ??= (async () => {
        const done = new Promise<void>((resolve) => server.close(() => resolve()))
        for (const s of [...sessions]) s.close()
        await done
        // give in-flight statements a moment to settle before closing DuckDB
        await new Promise((r) => setTimeout(r, 10))
        db.close()
      })()
      return closed
    }
  }
}
