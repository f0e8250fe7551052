/**
 * The SQL session of one HANA connection (after login): its state (session-state.ts) and the dispatch of the SQL
 * request kinds to their handlers in requests/ (EXECUTE_DIRECT, PREPARE, EXECUTE, FETCH_NEXT, LOB reads and writes,
 * COMMIT/ROLLBACK, closing result sets and statements). The connection (session.ts) hands it every request once the
 * client is logged in.
 */
import type { Session } from "../engine/index.ts"
import { cesu8Text } from "./cesu8-check.ts"
import { HanaError } from "./errors.ts"
import { ok } from "./replies.ts"
import type { Reply } from "./replies.ts"
import { SessionRowLocks } from "./row-locks.ts"
import type { ServerContext } from "./server-context.ts"
import type { SendPartial, SqlSessionState } from "./session-state.ts"
import { FunctionCode, MalformedPacket, MessageType, PartKind, requestPart } from "./wire.ts"
import type { Request } from "./wire.ts"
import { updateContext } from "./requests/client-info.ts"
import { sessionContextSql } from "./monitoring-views.ts"
import { closeResultSet, dropStatement } from "./requests/close.ts"
import { commitRequest, rollbackRequest } from "./requests/commit.ts"
import { execute } from "./requests/execute.ts"
import { executeDirect } from "./requests/execute-direct.ts"
import { fetchNext } from "./requests/fetch.ts"
import { readLob } from "./requests/lob-read.ts"
import { writeLob } from "./requests/lob-write.ts"
import { prepare } from "./requests/prepare.ts"
import { applySchema } from "./requests/session-command.ts"

/** The SQL session of one logged-in connection. */
export class SqlSession {
  private readonly s: SqlSessionState

  constructor(
    /** The engine session the SQL runs on. */
    readonly session: Session,
    ctx: ServerContext,
    connectionId: number,
    user: string,
    /** Data format version agreed at CONNECT. */
    dfv: number,
    sendPartial: SendPartial
  ) {
    this.s = {
      session,
      ctx,
      connectionId,
      user,
      dfv,
      sendPartial,
      schema: "",
      nextId: 1n,
      statements: new Map(),
      results: new Map(),
      lobs: new Map(),
      pending: undefined,
      ddlAutocommit: true,
      context: new Map(),
      rowLocks: new SessionRowLocks(ctx.rowLocks, session, connectionId, ctx.stats, ctx.options.lockWaitMs),
      temporaryTables: []
    }
  }

  /** The current schema (for error texts). */
  get currentSchema(): string {
    return this.s.schema
  }

  /** The logged-in user, the session variables and the local temporary tables (the monitoring views). */
  get identity(): {
    readonly user: string
    readonly context: ReadonlyMap<string, string>
    readonly temporaryTables: SqlSessionState["temporaryTables"]
  } {
    return { user: this.s.user, context: this.s.context, temporaryTables: this.s.temporaryTables }
  }

  /** Result sets this session holds open (server cursors not yet read to the end or closed by the client). */
  openResultSets(): number {
    return this.s.results.size
  }

  /** Closes the open result sets and forgets statements and LOBs (the engine session is closed by the connection). */
  release(): void {
    this.s.rowLocks.cancel()
    for (const r of this.s.results.values()) r.close()
    this.s.results.clear()
    this.s.statements.clear()
    this.s.lobs.clear()
  }

  /** Sets the current schema (SET SCHEMA, and the user's default schema at login). */
  applySchema(session: Session, schema: string): Promise<void> {
    return applySchema(this.s, session, schema)
  }

  /** Handles one SQL request; undefined when its reply was already sent. */
  async handle(request: Request): Promise<Reply | undefined> {
    const s = this.s
    const session = this.session
    const clientInfo = requestPart(request, PartKind.CLIENT_INFO)
    if (clientInfo !== undefined) {
      updateContext(s, clientInfo)
      await session.execute(sessionContextSql(s.context))
    }
    switch (request.messageType) {
      case MessageType.EXECUTE_DIRECT: {
        const command = requestPart(request, PartKind.COMMAND)
        if (command === undefined) throw new MalformedPacket("COMMAND part missing")
        const sql = cesu8Text(command.data, "the statement text")
        return executeDirect(s, session, sql, request.commit, request)
      }
      case MessageType.PREPARE: {
        const command = requestPart(request, PartKind.COMMAND)
        if (command === undefined) throw new MalformedPacket("COMMAND part missing")
        return prepare(s, session, cesu8Text(command.data, "the statement text"))
      }
      case MessageType.EXECUTE:
        return execute(s, session, request)
      case MessageType.FETCH_NEXT:
        return fetchNext(s, request)
      case MessageType.CLOSE_RESULT_SET:
        return closeResultSet(s, request)
      case MessageType.DROP_STATEMENT_ID:
        return dropStatement(s, request)
      case MessageType.COMMIT:
        return commitRequest(session)
      case MessageType.ROLLBACK:
        return rollbackRequest(session)
      case MessageType.READ_LOB:
        return readLob(s, request)
      case MessageType.WRITE_LOB:
        return writeLob(s, session, request)
      case MessageType.CLIENT_PING:
        return ok(FunctionCode.NIL)
      default:
        throw HanaError.unsupported(`message type ${request.messageType}`)
    }
  }
}
