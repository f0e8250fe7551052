/**
 * What the SQL session of one logged-in connection keeps (sqlsession.ts), read and changed by its request handlers
 * (requests/): prepared statements, open result sets and LOBs, the transaction settings and the row locks it holds.
 */
import * as crypto from "node:crypto"
import type { Session } from "../engine/index.ts"
import type { Reply } from "./replies.ts"
import type { OpenResult } from "./results.ts"
import type { SessionRowLocks } from "./row-locks.ts"
import type { ServerContext } from "./server-context.ts"
import type { PendingExecution, StatementState } from "./statement.ts"
import type { SessionValues } from "./translated.ts"
import type { Request } from "./wire.ts"

/** Sends half of a reply and closes the connection (the dropMidResult fault). */
export type SendPartial = (request: Request, reply: Reply) => Promise<void>

/** The state of one SQL session. */
export interface SqlSessionState {
  /** The engine session the SQL runs on. */
  readonly session: Session
  readonly ctx: ServerContext
  readonly connectionId: number
  readonly user: string
  /** Data format version agreed at CONNECT. */
  readonly dfv: number
  readonly sendPartial: SendPartial
  /** The current schema. */
  schema: string
  /** The next statement / result set id. */
  nextId: bigint
  readonly statements: Map<bigint, StatementState>
  readonly results: Map<bigint, OpenResult>
  readonly lobs: Map<string, { value: string | Buffer; kind: string }>
  pending: PendingExecution | undefined
  /** HANA commits DDL immediately (together with the open transaction) unless `SET TRANSACTION AUTOCOMMIT DDL OFF`. */
  ddlAutocommit: boolean
  /** Session context (CLIENT_INFO key/values, e.g. APPLICATION) for SESSION_CONTEXT. */
  readonly context: Map<string, string>
  /** The rows this session's transaction locks, and its waits for other transactions' locks. */
  readonly rowLocks: SessionRowLocks
  /** This session's local temporary tables as its last DDL left them, for other sessions' M_TEMPORARY_TABLES. */
  temporaryTables: ReadonlyArray<{ readonly schema: string; readonly table: string }>
}

/** The session values substituted into SQL (translate.ts). */
export const sessionValues = (s: SqlSessionState): SessionValues => {
  return { schema: s.schema, user: s.user, connectionId: s.connectionId, context: s.context }
}

/** Keeps a LOB value for READ_LOB; returns its locator id. */
export const registerLob = (s: SqlSessionState, value: string | Buffer, kind: string): Buffer => {
  const id = crypto.randomBytes(8)
  s.lobs.set(id.toString("hex"), { value, kind })
  return id
}
