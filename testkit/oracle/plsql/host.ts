/**
 * What the PL/SQL interpreter needs from the SQL session it runs in (sqlsession.ts implements it), and the bind
 * directions it reports back.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import type { Session as EngineSession } from "../../engine/index.ts"
import type { OraError } from "../errors.ts"
import type { TableMeta } from "../catalog.ts"
import type { OracleDatabase, SessionInfo } from "../database.ts"
import type { BindSpec, ExecuteOptions, QueryResult, StatementResult } from "../statement.ts"
import type { QueryShape } from "../translate.ts"
import type { TextDatetimeKind } from "../translate-types.ts"
import type { Tok } from "../lexer.ts"

/** Bind direction OUT, as reported in the IO vector. */
export const BIND_OUT = 16
/** Bind direction IN. */
export const BIND_IN = 32
/** Bind direction IN OUT. */
export const BIND_INOUT = 48

/** The SQL session a block runs in. */
export interface PlsqlHost {
  readonly db: OracleDatabase
  readonly engine: EngineSession
  /** The session's V$SESSION entry (its application attributes: application-info.ts). */
  readonly info: SessionInfo
  readonly schema: string
  /** The session's PLSQL_CCFLAGS setting (ALTER SESSION), which conditional compilation reads. */
  readonly plsqlCcflags: string
  commit(): Promise<void>
  rollback(): Promise<void>
  mapError(e: unknown): OraError
  runLogged(sql: string, params?: ReadonlyArray<DuckDBValue>): Promise<number>
  /** Runs a write and undoes it, for the stored functions it calls to note their arguments (sql-functions.ts). */
  probeWrite(duckSql: string, params: ReadonlyArray<DuckDBValue>): Promise<void>
  /** Keeps what a logged statement uses (its call sites) until the transaction ends. */
  holdUntilTransactionEnds(release: () => void): void
  /** Runs a block's INSERT / UPDATE / DELETE / MERGE (engine text): an UPDATE or DELETE waits for and locks the rows it writes. */
  runBlockDml(sql: string, params: ReadonlyArray<DuckDBValue>): Promise<number>
  /**
   * Runs a translated query; `dictionary`: the dictionary snapshot tables it reads (session-dictionary.ts
   * `dictionaryTablesOf`), refreshed from the catalog first so the block sees the catalog as it is now. `withRowid`:
   * the query selects row ids last, `true` its single table's, a list one per FROM table (indexes into `shape.from`)
   * whose LOB columns' locators name their rows (session-columns.ts lobTablesOf).
   */
  queryDuck(duckSql: string, params: ReadonlyArray<DuckDBValue>, shape?: QueryShape, withRowid?: boolean | ReadonlyArray<number>, dictionary?: ReadonlySet<string>): Promise<QueryResult>
  /**
   * A query's FOR UPDATE clause (`shape.lock`), as for a client's query: its table and row locks taken (unless
   * `describeOnly`), waiting for other transactions'; the query's text without the rows SKIP LOCKED leaves out, or
   * undefined when it stays (sqlsession.ts).
   */
  lockForUpdate(shape: QueryShape, params: ReadonlyArray<DuckDBValue>, lobRowids: ReadonlyArray<string>, translate: (lobRowids: ReadonlyArray<string>, extra: ReadonlyArray<string>) => string, describeOnly?: boolean): Promise<{ sql: string; lobRowids: ReadonlyArray<string> } | undefined>
  /**
   * FOR UPDATE SKIP LOCKED of a cursor, locked as its rows are fetched: table locks taken now; the FROM tables whose
   * rows it locks (indexes into `shape.from`) and `claim`, false for a fetched row another transaction holds (sqlsession.ts).
   */
  skipLockedAtFetch(shape: QueryShape): Promise<{ tables: ReadonlyArray<number>; claim: (rowids: ReadonlyArray<bigint | undefined>) => Promise<boolean> }>
  execute(sql: string, rows: ReadonlyArray<ReadonlyArray<DuckDBValue>>, specs: ReadonlyArray<BindSpec>, opts: ExecuteOptions): Promise<StatementResult>
  /** NUMBER columns without precision of the tables a statement mentions (computed on exactly: number-functions.ts). */
  exactNumberColumnsOf(sql: string): ReadonlySet<string>
  /** TIMESTAMP WITH TIME ZONE (zoned text) and wall-clock text columns of the tables a statement mentions, by name. */
  textDatetimeColumnsOf(sql: string): ReadonlyMap<string, TextDatetimeKind>
  /** Resolves a table name as the session sees it. */
  lookupTable(schema: string | undefined, name: string): TableMeta | undefined
  /** True once a break (cancel, call timeout) arrived during the current call. */
  readonly callInterrupted: boolean
  /** Checks the privileges a block's statement `toks` needs (DML's on `target`, the table it writes) with the rights in force. */
  checkStatementAccess(toks: ReadonlyArray<Tok>, target?: TableMeta): void
  /**
   * Runs `body`, a stored unit's code, with the rights of `owner` (definer's rights: its SQL's unqualified names in
   * that schema, its privileges without roles); `owner` undefined keeps the rights in force (AUTHID CURRENT_USER).
   */
  runAs<T>(owner: string | undefined, body: () => Promise<T>): Promise<T>
  /** After the engine failed part way through a statement (e.g. while rows were read): the transaction as it was before it. */
  statementFailed(): Promise<void>
  /** True while a transaction is open. */
  readonly transactionInProgress: boolean
  /** The session an autonomous one was opened from; undefined for a client's session. */
  readonly parent: PlsqlHost | undefined
  /** Opens the session of an autonomous transaction this one starts (autonomous.ts). */
  openAutonomous(): Promise<PlsqlHost>
  /** Ends a session {@link openAutonomous} opened. */
  closeAutonomous(): Promise<void>
}

/** The client's session a (possibly autonomous) session belongs to: package state and DBMS_OUTPUT are kept per it. */
export const clientSessionOf = (host: PlsqlHost): PlsqlHost => {
  let h = host
  while (h.parent !== undefined) h = h.parent
  return h
}
