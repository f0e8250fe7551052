/**
 * The state one client session shares between the TTC message handlers: negotiated layout, logon, the SQL
 * session, cursors and LOBs.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { LogonChallenge, Verifier } from "./auth.ts"
import { activeResult, type ActiveResult, type ColumnDefine, type ServerCursor } from "./cursors.ts"
import type { OracleDatabase, SessionInfo } from "./database.ts"
import { columnEncoder, type ColumnEncoder } from "./encode.ts"
import { LobStore } from "./lobs.ts"
import type { ServerContext } from "./server-context.ts"
import type { SqlSession } from "./sqlsession.ts"
import { lobRowOf, type QueryResult, type ResultColumn } from "./statement.ts"
import { Dty } from "./types.ts"
import type { WriteBuffer } from "./wire.ts"

/** A pipeline the client opened and has not ended. */
export interface Pipeline {
  readonly mode: number
  /** ABORT_ON_ERROR: an operation failed, the remaining ones are not run. */
  aborted: boolean
}

/** Reply assembled for one request. */
export interface Reply {
  readonly w: WriteBuffer
  /** True when the reply carries rows (for the mid-result fault). */
  rows: boolean
  /** Negotiation replies (PROTOCOL, DATA_TYPES) never carry the end-of-request message. */
  negotiation?: boolean
  /** A one-way function (TNS_MSG_TYPE_ONEWAY_FN): the client reads no answer, so none is sent. */
  oneWay?: boolean
}

/** Client details shown in V$SESSION. */
export interface ClientDetails {
  program: string
  machine: string
  osUser: string
}

/** A direct path load in progress. */
export interface DirectPathLoad {
  readonly owner: string
  readonly table: string
  readonly columns: Array<ResultColumn>
  /** The load stream's pieces as received, and values split over several pieces, joined (messages/direct-path.ts). */
  readonly pieces: Array<Buffer>
  /**
   * Per value, row after row, three entries: index in `pieces`, start and length of its bytes (length -1: NULL). A
   * typed array grown by doubling: a load notes millions of entries, and pushing them onto an array cost several
   * times more.
   */
  cells: Int32Array
  /** Entries of `cells` in use. */
  cellCount: number
  /** Rows received. */
  rows: number
}

/** Per-session state the message handlers read and update. */
export class SessionState {
  /** TTC field version: the server's, lowered to the client's in DATA_TYPES. */
  fieldVersion: number
  /** Set once logged on. */
  sql: SqlSession | undefined
  info: SessionInfo | undefined
  /** Logon in progress. */
  user = ""
  verifier: Verifier | undefined
  challenge: LogonChallenge | undefined
  /** The key the logon agreed with the client: a later password change (oracledb `changePassword`) is encrypted with it. */
  comboKey: Buffer | undefined
  readonly client: ClientDetails = { program: "node", machine: "localhost", osUser: "unknown" }
  /** A break marker arrived and is not answered yet. */
  breakPending = false
  /** After a reply with rows, what to encode ahead for the probable next FETCH. */
  prefetchAfterSend: { res: ActiveResult; max: number; bytes: number } | undefined
  readonly cursors = new Map<number, ServerCursor>()
  /** The cursor the call being answered works on: a break answering the call ends its result. */
  callCursor: ServerCursor | undefined
  /** Whether that call opened the cursor (the client learns its id only from the reply, or from an error naming it). */
  callOpenedCursor = false
  readonly lobs = new LobStore()
  /** Resolves LOB locators bound as values. */
  readonly lobContent = (loc: Buffer): string | Uint8Array | null => this.lobs.content(loc)
  readonly directPaths = new Map<number, DirectPathLoad>()
  /** The request pipeline the client opened (messages/pipeline.ts), until its PIPELINE_END. */
  pipeline: Pipeline | undefined
  /** The ORA- code of the last end of call written (0: success). */
  callErrorCode = 0
  private nextCursorId = 1

  constructor(
    readonly host: ServerContext,
    fieldVersion: number
  ) {
    this.fieldVersion = fieldVersion
  }

  get db(): OracleDatabase {
    return this.host.db
  }

  /** A new cursor id (cursors and direct path loads share the numbering). */
  nextId(): number {
    return this.nextCursorId++
  }

  /** Opens a cursor for `sql` (`returned`: ServerCursor.returned). */
  newCursor(sql: string, returned = false): ServerCursor {
    const c: ServerCursor = { id: this.nextId(), sql, specs: [], directions: undefined, defines: undefined, result: undefined, dmlRowCounts: false, ...(returned && { returned }) }
    this.cursors.set(c.id, c)
    if (this.info !== undefined) this.info.cursorsOpened++
    return c
  }

  /** Opens a cursor over a query result the client fetches later (implicit results, REF CURSOR binds). */
  cursorFor(label: string, q: QueryResult): ServerCursor {
    const c = this.newCursor(label, true)
    c.result = this.result(q, undefined)
    return c
  }

  /**
   * A result the client fetches, with encoders for its columns as the client defined them; a query FOR UPDATE SKIP
   * LOCKED locks each row as it is sent (messages/fetch.ts).
   */
  result(q: QueryResult, defines: ReadonlyArray<ColumnDefine> | undefined): ActiveResult {
    const res = activeResult(q.columns, q.cursor, [], q.rowidColumn, q.rowidColumn === undefined ? undefined : q.claimFetchedRow)
    res.encoders = this.encoders(res, defines)
    return res
  }

  /** Row encoders for the columns of `res`, as the client defined them (LOBs as locators or inline). */
  encoders(res: ActiveResult, defines: ReadonlyArray<ColumnDefine> | undefined): Array<ColumnEncoder> {
    const columns = res.columns
    const dbTzOffsetMinutes = this.db.dbOffsetMinutes()
    return columns.map((c, i) => {
      const d = defines?.[i]
      const dty = d?.dty ?? c.type.dty
      const inline = dty === Dty.LONG || dty === Dty.LONG_RAW || dty === Dty.VARCHAR
      return columnEncoder(c.type, {
        dbTzOffsetMinutes,
        lobMode: inline ? "inline" : "locator",
        lobPrefetch: d?.lobPrefetch ?? 0,
        // the client compares its own variable size with 32767: the described size, or the LONG size once a LOB is
        // defined as string/buffer (the define metadata scales NCHAR sizes, so it cannot be used directly); a JSON
        // or VECTOR column defined as another type has the LONG size too
        trailer: dty === Dty.LONG || dty === Dty.LONG_RAW || c.type.maxSize > 32767 || ((c.type.kind === "json" || c.type.kind === "vector") && dty !== c.type.dty),
        vectorAsClob: c.type.kind === "vector" && dty === Dty.CLOB,
        registerLob: (value, type, row) => {
          // a LOB read from a table row remembers that row, so that writes through its locator reach the table
          return this.lobs.register(value, type, c.lobTemporary === true, lobRowOf(c, (k) => res.rowids?.[k]?.value(row)))
        }
      })
    })
  }
}

