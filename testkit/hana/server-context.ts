/**
 * State shared by every connection of one HANA test server.
 */
import type { Engine } from "../engine/index.ts"
import type { JwtOptions, ScramMethod, X509Options } from "./auth.ts"
import type { ServerStats } from "../common/stats.ts"
import type { RowLockTable } from "./row-locks.ts"
import type { FaultState } from "./faults.ts"
import type { IdentityCommand } from "./identity/statements.ts"
import type { IdentityStore } from "./identity/store.ts"
import type { ConnectionMonitoring } from "./monitoring-views.ts"

/** A database user of the test server. */
export interface HanaUser {
  readonly name: string
  readonly password: string
  /** Schema selected at login (default: the user name; created if missing). */
  readonly defaultSchema?: string
}

/** Options after defaults. */
export interface ResolvedOptions {
  readonly databaseName: string
  readonly systemId: string
  readonly version: string
  readonly scramMethods: readonly ScramMethod[]
  readonly pbkdf2Iterations: number
  readonly jwt: JwtOptions | undefined
  readonly x509: X509Options | undefined
  readonly firstFetchSize: number
  readonly maxSessions: number
  /** The server's own compression setting (HANA's indexserver.ini [session] compression). */
  readonly compression: boolean
  /** Default lock wait timeout of a session, in milliseconds. */
  readonly lockWaitMs: number
}

/** What one connection lets another do to it (ALTER SYSTEM CANCEL / DISCONNECT SESSION). */
export interface SessionControl {
  /** Interrupts the statement the session is running. */
  cancel(): void
  /** Ends the session and closes its socket. */
  close(): Promise<void>
  /** What M_CONNECTIONS and M_SESSION_CONTEXT show of it (monitoring-views.ts). */
  monitoring(): ConnectionMonitoring
}

/** What connections need from their server. */
export interface ServerContext {
  readonly engine: Engine
  readonly options: ResolvedOptions
  readonly users: ReadonlyMap<string, { readonly password: string; readonly defaultSchema: string }>
  /** Logged-in sessions by connection id. */
  readonly connections: Map<number, SessionControl>
  readonly sessionCookies: Map<string, string>
  readonly faults: FaultState
  readonly maxPacketBytes: number
  /** Work counters for benchmarks (batch inserts, result encoding). */
  readonly stats: ServerStats
  /** Row locks of open transactions (row-locks.ts). */
  readonly rowLocks: RowLockTable
  nextConnectionId(): number
  addUser(user: HanaUser): Promise<void>
  dropUser(name: string): Promise<void>
  /** Trust configuration made by SQL (PSEs, certificates, X.509/JWT/SAML providers, user identities). */
  readonly identity: IdentityStore
  /** Carries out a security administration statement and updates the SYS views over the identity store. */
  administer(command: IdentityCommand): Promise<void>
}
