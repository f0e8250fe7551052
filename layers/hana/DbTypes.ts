/**
 * The TypeScript shapes of the `hdb` client (2.30.1) objects the HANA driver uses: its module, client, internal
 * connection, request segment, prepared statement, result set, result and parameter metadata, a LOB descriptor. No code.
 *
 * @since 0.1.0
 */

/**
 * A LOB cell whose content is not all in its descriptor: the fields of hdb's `Reader.LobDescriptor` (lib/protocol/
 * Reader.js), as the read path scans them from a result page and `readLob` hands them back to hdb.
 */
export interface LobCell {
  readonly type: number
  readonly options: number
  readonly charLength: number
  readonly byteLength: number
  readonly locatorId: Buffer
  readonly chunk: Buffer
  readonly defaultType: number
}

/** The parts of hdb's module this driver uses. */
export interface HdbModule {
  readonly createClient: (options: Record<string, unknown>) => HdbClient
  readonly Lob: new(readLob: unknown, ld: unknown, options: Record<string, unknown>) => HdbLob
  readonly Reader: { readonly LobDescriptor: new(...args: Array<unknown>) => unknown }
  readonly util: { readonly convert: { readonly decode: (buffer: Buffer, useCesu8: boolean) => string } }
  readonly reply: {
    readonly Segment: new() => HdbReplySegment
    readonly Part: (new() => HdbReplyPart) & {
      /** Reads the part at `offset` into `this`, copying its bytes; returns the offset after it. */
      readonly read: (this: HdbReplyPart, buffer: Buffer, offset: number) => number
    }
  }
  readonly request: {
    readonly Segment: new(type: number, commit: number, commandOptions: number, useCesu8: boolean) => HdbSegment
  }
  readonly common: {
    readonly MessageType: { readonly EXECUTE: number }
    readonly PartKind: { readonly STATEMENT_ID: number; readonly PARAMETERS: number }
    readonly CommandOption: { readonly HOLD_CURSORS_OVER_COMMIT: number }
  }
}

/** A reply segment being parsed (lib/protocol/reply/Segment.js). */
export interface HdbReplySegment {
  kind: number
  functionCode: number
  push(part: HdbReplyPart): void
  /** The reply object hdb's callers get. */
  getReply(): unknown
}

/** A reply part (lib/protocol/reply/Part.js). */
export interface HdbReplyPart {
  kind: number
  attributes: number
  argumentCount: number
  buffer: Buffer | undefined
}

/** A request segment (lib/protocol/request/Segment.js); a part given as `{ kind, module }` is written by `module`. */
export interface HdbSegment {
  add(kind: number | { readonly kind: number; readonly module: HdbPartWriter }, args: unknown): void
}

/** What lib/protocol/request/Segment.js `partToBuffer` asks of a part's module. */
export interface HdbPartWriter {
  getArgumentCount(args: unknown): number
  write(part: { argumentCount: number; buffer: Buffer | undefined }, args: unknown): unknown
}

/** hdb's internal connection (lib/protocol/Connection.js). */
export interface HdbConnection {
  send(message: unknown, receive: (err: unknown, reply?: unknown) => void): void
  /** The client's physical connections; the anchor one holds the socket (lib/protocol/ConnectionTopology.js). */
  readonly _physicalConnections?: {
    getAnchorConnection(): { readonly _socket?: import("node:net").Socket | undefined } | undefined
  }
  /** Parses a reply packet's segment (after the packet header) into the reply object callers get. */
  _parseReplySegment(buffer: Buffer): unknown
  /** Queues an ExecuteTask (lib/protocol/ExecuteTask.js); its reply holds the ROWS_AFFECTED of every packet it sent. */
  execute(options: unknown, cb: (err: unknown, reply?: unknown) => void): void
  readonly _state: object | undefined
  on(event: "close", listener: () => void): void
  fetchNext(options: { resultSetId: Buffer; fetchSize: number }, cb: (err: unknown, reply: FetchReply) => void): void
  closeResultSet(options: { resultSetId: Buffer }, cb: (err: unknown) => void): void
  readLob(options: unknown, cb: (err: unknown, reply: unknown) => void): void
  readonly connectOptions?: { readonly connectionId?: number; readonly fullVersionString?: string }
  readonly readyState?: string
  isIdle(): boolean
  destroy(err?: unknown): void
  isValid(options: object, cb: (valid: boolean) => void): void
  /** Bytes one request packet may hold (lib/protocol/Connection.js: the `packetSizeLimit` setting, 128 KiB by default). */
  readonly packetSizeLimit: number
  /** Queues a request segment (or task); requests run one at a time, in order. */
  enqueue(segment: HdbSegment, cb: (err: unknown, reply?: { readonly rowsAffected?: unknown }) => void): void
  /** Bytes of a packet left for one part after the headers, statement context and client info. */
  getAvailableSize(forLobs: boolean): number
  readonly autoCommit: boolean
  readonly holdCursorsOverCommit: boolean
  readonly useCesu8: boolean
}

/** A FETCH_NEXT reply (lib/protocol/Connection.js `fetchNext`). @category models @since 0.1.0 */
export interface FetchReply {
  readonly resultSets: ReadonlyArray<{ readonly data: RawPage }>
}

/**
 * One RESULT_SET part: `argumentCount` rows encoded in `buffer`; `attributes` bit 1 = last page, 16 = closed by the
 * server.
 *
 * @category models
 * @since 0.1.0
 */
export interface RawPage {
  readonly argumentCount: number
  readonly attributes: number
  readonly buffer: Buffer | undefined
}

/** hdb's ResultSet as returned by `execute` (lib/protocol/ResultSet.js). */
export interface HdbResultSet {
  readonly id: Buffer
  readonly metadata: ReadonlyArray<HdbResultColumn>
  readonly _data: RawPage | undefined
}

/** hdb's prepared Statement (lib/protocol/Statement.js). @category models @since 0.1.0 */
export interface HdbStatement {
  readonly id: Buffer
  readonly functionCode: number
  readonly parameterMetadata: ReadonlyArray<HdbParameter>
  readonly resultSetMetadata: ReadonlyArray<HdbResultColumn> | undefined
  execute(values: unknown, cb: (err: unknown, ...results: Array<unknown>) => void): void
  drop(cb: (err: unknown) => void): void
}

/** Parameter metadata (lib/protocol/data/ParameterMetadata.js). @category models @since 0.1.0 */
export interface HdbParameter {
  readonly mode: number
  readonly dataType: number
  readonly ioType: number
  readonly name: string | undefined
  readonly length: number
  readonly fraction: number
}

/** A LOB reader (lib/protocol/Lob.js). @category models @since 0.1.0 */
export interface HdbLob {
  read(cb: (err: unknown, buffer: Buffer) => void): void
}

/** The hdb client. @category models @since 0.1.0 */
export interface HdbClient {
  readonly _connection: HdbConnection
  readonly readyState: string
  connect(cb: (err: unknown) => void): void
  execute(sql: string, cb: (err: unknown, ...results: Array<unknown>) => void): void
  prepare(sql: string, cb: (err: unknown, statement: HdbStatement) => void): void
  setAutoCommit(autoCommit: boolean): void
  commit(cb: (err: unknown) => void): void
  rollback(cb: (err: unknown) => void): void
  disconnect(cb: (err: unknown) => void): void
  close(): void
  on(event: string, listener: (...args: Array<unknown>) => void): void
}


/** hdb result-set column metadata (lib/protocol/data/ResultSetMetadata.js). @category models @since 0.1.0 */
export interface HdbResultColumn {
  readonly mode: number
  readonly dataType: number
  readonly fraction: number
  readonly length: number
  readonly columnName?: string | undefined
  readonly columnDisplayName?: string | undefined
}
