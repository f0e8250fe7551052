/**
 * The TypeScript shapes of the node-oracledb objects the driver uses (its module, connections, result sets, column
 * metadata, thin-mode statements): types only, no code. The module value itself is loaded in DbPatches.ts.
 *
 * @since 0.1.0
 */
/** The parts of node-oracledb's module this driver uses. @category models @since 0.1.0 */
export interface OracleDbModule {
  readonly getConnection: (attributes: Record<string, unknown>) => Promise<OracleConnection>
  readonly OUT_FORMAT_ARRAY: number
  readonly STRING: DbType
  readonly BUFFER: DbType
  readonly BIND_IN: number
  readonly BIND_OUT: number
  readonly BIND_INOUT: number
  readonly versionString: string
  readonly thin: boolean
  readonly IntervalDS: new (fields: { days: number; hours: number; minutes: number; seconds: number; fseconds: number }) => unknown
  readonly IntervalYM: new (fields: { years: number; months: number }) => unknown
  readonly [dbType: `DB_TYPE_${string}`]: DbType
}

/** An oracledb DbType. @category models @since 0.1.0 */
export interface DbType {
  readonly num: number
  readonly name: string
  readonly columnTypeName: string
}

/** Column metadata as oracledb reports it, with the hook's raw precision and scale. @category models @since 0.1.0 */
export interface OracleMetaData {
  readonly name: string
  readonly dbType: DbType
  readonly dbTypeName?: string
  readonly precision?: number
  readonly scale?: number
  readonly byteSize?: number
  readonly nullable: boolean
  readonly isJson?: boolean
  readonly dbTypeClass?: { readonly fqn?: string; readonly isCollection?: boolean }
  readonly adbcPrecision?: number
  readonly adbcScale?: number
}

/** oracledb's ResultSet. @category models @since 0.1.0 */
export interface OracleResultSet {
  readonly metaData: ReadonlyArray<OracleMetaData>
  getRows(n: number): Promise<Array<Array<unknown>>>
  close(): Promise<void>
}

/** What `connection.execute` returns. @category models @since 0.1.0 */
export interface OracleExecuteResult {
  readonly metaData?: ReadonlyArray<OracleMetaData>
  readonly resultSet?: OracleResultSet
  readonly rows?: Array<Array<unknown>>
  readonly rowsAffected?: number
  readonly outBinds?: unknown
  readonly implicitResults?: ReadonlyArray<OracleResultSet>
}

/** oracledb's Connection. @category models @since 0.1.0 */
export interface OracleConnection {
  execute(sql: string, binds: unknown, options: Record<string, unknown>): Promise<OracleExecuteResult>
  executeMany(sql: string, binds: unknown, options: Record<string, unknown>): Promise<{ rowsAffected?: number }>
  getStatementInfo(sql: string): Promise<StatementInfo>
  commit(): Promise<void>
  rollback(): Promise<void>
  close(): Promise<void>
  breakExecution(): Promise<void>
  ping(): Promise<void>
  currentSchema: string
  readonly oracleServerVersionString: string
  /** The instance the session is bound to, from the logon reply (thin mode). */
  readonly instanceName?: string | undefined
  readonly transactionInProgress: boolean
  isHealthy(): boolean
  readonly _impl?: {
    readonly _protocol?: { readonly caps?: Record<PropertyKey, unknown> }
    /** Thin mode's network session: `forceDisconnect` destroys its socket (what oracledb's pool does to a hung connection). */
    readonly nscon?: { forceDisconnect?: (error?: Error) => void }
    /** Thin mode's statement cache (lib/thin/statementCache.js): statements by SQL text, with their cursor ids. */
    readonly statementCache?: {
      readonly _cachedStatements?: ReadonlyMap<string, ThinStatement>
      readonly _maxSize?: number
      /** Queues the statement's cursor for closing (sent with the next round trip) and forgets its id. */
      clearCursor?(statement: ThinStatement): void
    }
    /** The parse-only call behind `getStatementInfo`, taking the execute options (`keepInStmtCache` among them). */
    getStatementInfo?(sql: string, options: Record<string, unknown>): Promise<StatementInfo>
    /** Takes `sql`'s statement from the cache (in use until returned) as an execute with `options` would. */
    _prepare?(sql: string, options: Record<string, unknown>): ThinStatement
    /** Sends the define call a statement that `requiresDefine` needs (a full execute message with only DEFINE set). */
    _handleDefines?(statement: ThinStatement, message: unknown): Promise<void>
    _returnStatement?(statement: ThinStatement): void
  }
}

/** A statement of oracledb's thin statement cache (lib/thin/statement.js). @category models @since 0.1.0 */
export interface ThinStatement {
  readonly cursorId: number
  readonly inUse: boolean
  /** Whether the text is a PL/SQL block, as `_prepare` classified it. */
  readonly isPlSql?: boolean
  /** Set by a describe that found a LOB or JSON column: the next call on the cursor only defines, not executes. */
  readonly requiresDefine?: boolean
  _clearAllState?(): void
}

/** What a parse-only call (`getStatementInfo`) reports. @category models @since 0.1.0 */
export interface StatementInfo {
  readonly metaData?: ReadonlyArray<OracleMetaData>
  readonly statementType: number
  readonly bindNames: Array<string>
}
