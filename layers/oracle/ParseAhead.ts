/**
 * The parse-ahead of a statement: oracledb's parse-only call (`getStatementInfo`) kept in the statement cache, and
 * the define call of a parsed LOB / JSON query, so that an execute runs on a cursor the client already knows
 * ({@link openCursor}). Reaches into oracledb's thin statement classes and connection internals.
 *
 * @since 0.1.0
 */
import { createRequire } from "node:module"
import { Effect } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import { call, callToEnd } from "./DbCalls.ts"
import { ExecuteMessage, StatementClass } from "./DbPatches.ts"
import type { OracleConnection, StatementInfo } from "./DbTypes.ts"

const require = createRequire(import.meta.url)

/** What oracledb's public getStatementInfo adds to each column (lib/util.js): its type name. */
const { addTypeProperties } = require("oracledb/lib/util.js") as {
  addTypeProperties: (metaData: object, attribute: string) => void
}


/**
 * The kind of statement `sql` is, for the parse ahead: a query or DML keeps the cursor its parse opens; oracledb
 * caches no DDL, and runs a PL/SQL block's first execute as one iteration to settle its bind directions, which a
 * parse would skip.
 */
const statementKind = (sql: string): "query" | "dml" | "plsql" | "other" => {
  if (StatementClass === undefined) return "other"
  const statement = new StatementClass()
  statement._prepare(sql)
  return statement.isQuery ? "query" : statement.isDml ? "dml" : statement.isPlSql ? "plsql" : "other"
}

/** Whether `sql` is a PL/SQL block (BEGIN, DECLARE, CALL), as oracledb classifies it. @category operations @since 0.1.0 */
export const isPlsql = (sql: string): boolean => statementKind(sql) === "plsql"

/** Whether `sql` is DML (INSERT, UPDATE, DELETE, MERGE), as oracledb classifies it. @category operations @since 0.1.0 */
export const isDml = (sql: string): boolean => statementKind(sql) === "dml"

/**
 * Parses `sql` without executing it and reports its columns and binds (oracledb's `getStatementInfo`). A query or
 * DML statement stays in oracledb's statement cache with the server cursor the parse opened, so that its execute
 * reuses that cursor (see {@link openCursor}); oracledb's public `getStatementInfo` would close it instead.
 * `executeOptions` are those of the execute that follows (its fetch types decide how LOB and JSON columns are
 * defined). With `keepQuery` false a query's parsed cursor is closed as oracledb's `getStatementInfo` does: the
 * first execute of a query with bound parameters on a known cursor is a full one, which fetches
 * `fetchArraySize` rows instead of `prefetchRows` (lib/thin/protocol/messages/execute.js), so such a query is
 * parsed again by its execute. The parse, and the define as a call of its own, is not broken by an interruption
 * unless it outlasts half of {@link ANSWER_BUDGET_MS}.
 *
 * @category operations
 * @since 0.1.0
 */
export const statementInfo = (
  connection: OracleConnection,
  sql: string,
  executeOptions: Record<string, unknown> = {},
  keepQuery = true
): Effect.Effect<StatementInfo, AdbcError> => {
  const impl = connection._impl
  if (impl?.getStatementInfo === undefined) return call(connection, () => connection.getStatementInfo(sql))
  const parse = impl.getStatementInfo.bind(impl)
  const kind = statementKind(sql)
  const options = { ...executeOptions, connection, keepInStmtCache: kind === "dml" || (kind === "query" && keepQuery) }
  return Effect.map(
    // two calls, each awaited on its own: an interruption during the parse stops before the define, which the next
    // openCursor of the text then makes
    Effect.tap(callToEnd(connection, () => parse(sql, options)), () => callToEnd(connection, () => defineParsed(impl, sql, options))),
    (info) => {
      // what the public getStatementInfo adds (lib/connection.js): the type name of each column
      for (const m of info.metaData ?? []) addTypeProperties(m, "dbType")
      return info
    }
  )
}

/** Whether `sql`'s cached statement has a cursor that still needs its define (see {@link defineParsed}). */
const needsDefine = (impl: NonNullable<OracleConnection["_impl"]>, sql: string): boolean => {
  const cached = impl.statementCache?._cachedStatements?.get(sql)
  return cached !== undefined && cached.cursorId !== 0 && cached.requiresDefine === true && !cached.inUse
}

/**
 * The define call of a parsed query with a LOB, JSON or VECTOR column, whose cursor oracledb defines only after an
 * execute (lib/thin/connection.js `_handleDefines`); an execute of a cursor still marked `requiresDefine` sends
 * only the define and never executes (the fetch then fails ORA-01002). Defined here, the cursor is in the state
 * oracledb leaves a cached LOB query in after its first execute, and the execute reuses it. Without the internals
 * this needs, the parsed cursor is closed instead (its id is known) and the execute parses anew.
 */
const defineParsed = async (
  impl: NonNullable<OracleConnection["_impl"]>,
  sql: string,
  options: Record<string, unknown>
): Promise<void> => {
  if (!needsDefine(impl, sql)) return
  if (impl._prepare === undefined || impl._handleDefines === undefined || impl._returnStatement === undefined || ExecuteMessage === undefined) {
    const parsed = impl.statementCache?._cachedStatements?.get(sql)
    if (parsed !== undefined) {
      impl.statementCache?.clearCursor?.(parsed)
      parsed._clearAllState?.()
    }
    return
  }
  const statement = impl._prepare(sql, options)
  try {
    await impl._handleDefines(statement, new ExecuteMessage(impl, statement, options))
  } finally {
    impl._returnStatement(statement)
  }
}

/**
 * Makes sure the server cursor `sql` will execute on is one the client knows, before the execute runs.
 *
 * A statement oracledb has no cursor for is parsed and executed by one call, whose reply carries the new cursor's
 * id. A break that crosses that reply (the server answered before the break reached it) makes oracledb discard the
 * reply while it resets the connection (lib/thin/protocol/protocol.js `_decodeMessage`), so the client never learns
 * the cursor and the server keeps it open until the session ends (it stays in V$OPEN_CURSOR). So a query or DML text
 * without a cached cursor is first parsed by {@link statementInfo}, a call that is not broken, and the execute then
 * runs on the cursor that parse opened: a break of the execute leaves a cursor the client closes or reuses.
 * `executeOptions` are the execute's (see {@link statementInfo}). Not covered here: PL/SQL and DDL texts (see
 * `statementKind`), queries with bound parameters (see {@link statementInfo}) and everything when the statement
 * cache is off (`stmtCacheSize=0`); their executes go through {@link callExecute}.
 *
 * @category operations
 * @since 0.1.0
 */
export const openCursor = (
  connection: OracleConnection,
  sql: string,
  executeOptions: Record<string, unknown> = {}
): Effect.Effect<void, AdbcError> =>
  Effect.suspend(() => {
    const cache = connection._impl?.statementCache
    if (cache?._cachedStatements === undefined || (cache._maxSize ?? 0) <= 0) return Effect.void
    const impl = connection._impl!
    const options = { ...executeOptions, connection, keepInStmtCache: true }
    // a parse whose define an interruption stopped gets it now
    if (needsDefine(impl, sql)) return callToEnd(connection, () => defineParsed(impl, sql, options))
    const cached = cache._cachedStatements.get(sql)
    if (cached !== undefined && (cached.cursorId !== 0 || cached.inUse)) return Effect.void
    const kind = statementKind(sql)
    if (kind === "other" || kind === "plsql") return Effect.void
    return Effect.asVoid(statementInfo(connection, sql, executeOptions))
  })
