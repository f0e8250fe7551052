/**
 * The Oracle driver on node-oracledb in thin mode (no Oracle Client libraries): the driver port of src/Driver.ts.
 *
 * - Connect: URI or native connect string and credentials resolved and checked before any I/O (ConnectConfig.ts);
 *   the whole connect is bounded by `connectTimeout`; the `timezone` option sets the session time zone (UTC without it).
 * - Queries: results are fetched `redo.statement.fetch_array_size` rows per round trip (first execute:
 *   `redo.statement.prefetch_rows`, lowered to fit `redo.statement.prefetch_bytes`); batch mode decodes the TTC
 *   row bytes straight into Arrow builders, row mode oracledb's JS values (RowPage.ts); the core cuts batches at
 *   `redo.statement.read_batch_rows` (hard).
 * - OUT values and implicit result sets beyond the first go through port v2's `out` and `more`.
 * - Parameters: Arrow batches converted by Params.ts; DML runs through executeMany in chunks of
 *   `redo.statement.insert_batch_rows`; a query or PL/SQL block with several parameter rows runs once per row, results
 *   concatenated (a block's first implicit result set of each run).
 * - PL/SQL: implicit result sets (DBMS_SQL.RETURN_RESULT) in batch mode only, first cursor; OUT / IN OUT binds
 *   declared by `ORACLE:parameter_type` come back as extra columns of a one-row result.
 * - Cursor (Cursor.ts), catalog (Catalog.ts), ingest DDL (Ddl.ts), type mappings (ReadTypes.ts, WriteTypes.ts),
 *   errors (Errors.ts).
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Effect, Exit, Result, type Scope } from "effect"
import { type AdbcError, adbcError, invalidArgument, notImplemented } from "../../src/AdbcError.ts"
import type { BoundParameters, DriverConnection, DriverCursor, DriverResult, DriverShape } from "../../src/Driver.ts"
import type { ResolvedOptions } from "../../src/Options.ts"
import { catalogRows, CURRENT_CATALOG_SQL } from "./Catalog.ts"
import { connectionAttributes, NLS_SETUP_SQL, resolveConnectConfig, timeZoneSql } from "./ConnectConfig.ts"
import { makeConnectionContext, run as runIn, runScoped as runScopedIn, tracked } from "./ConnectionContext.ts"
import { makeCursor, mapColumns, prefetchRowsFor, queryOptions } from "./Cursor.ts"
import * as DbCalls from "./DbCalls.ts"
import * as DbPatches from "./DbPatches.ts"
import type * as DbTypes from "./DbTypes.ts"
import * as Ddl from "./Ddl.ts"
import { executeManyEncoded, executeManyRows } from "./EncodedBinds.ts"
import { atParameterRow, oraCode } from "./Errors.ts"
import { encodedCall, makeIngest } from "./Ingest.ts"
import { addRows, joinedRows, joinsRows, type RowsCall } from "./IngestCalls.ts"
import { describe, info, scalar, tableSchema } from "./Metadata.ts"
import * as Opt from "./OracleOptions.ts"
import { bindRows, type BoundColumn, directionOf, parameterColumns, spanOutValue } from "./Params.ts"
import * as ParseAhead from "./ParseAhead.ts"
import { type MappedColumn, TYPE_NAME_METADATA } from "./ReadTypes.ts"
import { DEFAULT_PORT } from "./Uri.ts"
import { bindTypeFor } from "./WriteTypes.ts"
import { formatEpochDay, formatEpochTicks } from "../common/ArrowCells.ts"

/** The driver version. @category constants @since 0.1.0 */
export const VERSION = "0.1.0"

/**
 * Milliseconds a connect may take when the URI sets no `connectTimeout` (node-oracledb itself bounds only the TCP
 * connect, by 20 s: a server that accepts the socket and then stays silent would hold the connect forever).
 *
 * @category constants
 * @since 0.1.0
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000

/**
 * The milliseconds a connect may take: the URI's `connectTimeout` when it has one, else
 * {@link DEFAULT_CONNECT_TIMEOUT_MS}.
 *
 * @category config
 * @since 0.1.0
 */
export const connectTimeoutMs = (uriTimeoutMs: number | undefined): number => uriTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS


/** One parameter row: the bound columns and this row's values. */
interface ParameterRow {
  readonly columns: ReadonlyArray<BoundColumn>
  readonly values: ReadonlyArray<unknown>
}

/** A parameter row as oracledb's execute takes it: one bind per column, with the column's direction and type. */
const bindsOf = (r: ParameterRow) =>
  r.columns.map((c, i) => ({ dir: c.def.dir, type: c.def.type, ...(c.def.maxSize !== undefined ? { maxSize: c.def.maxSize } : {}), val: r.values[i] }))

/** Whether two results have the same columns: names, Arrow types, nullability and Oracle type names. */
const sameShape = (a: ReadonlyArray<MappedColumn>, b: ReadonlyArray<MappedColumn>): boolean =>
  a.length === b.length && a.every((c, i) => {
    const d = b[i]!.field
    return c.field.name === d.name && String(c.field.type) === String(d.type) && c.field.nullable === d.nullable &&
      c.field.metadata.get(TYPE_NAME_METADATA) === d.metadata.get(TYPE_NAME_METADATA)
  })

/** A result's columns as `NAME TYPE-NAME` text, for error messages. */
const shapeText = (columns: ReadonlyArray<MappedColumn>): string =>
  columns.map((c) => `${c.field.name} ${c.field.metadata.get(TYPE_NAME_METADATA) ?? String(c.field.type)}`).join(", ")

/** The savepoint a PL/SQL block runs after inside the caller's transaction, to be undone on a failure. */
const BLOCK_SAVEPOINT = "ADBC_BLOCK"

/** The error of implicit result sets in row mode. */
const implicitResultsInRowMode = () =>
  notImplemented(
  "implicit result sets (DBMS_SQL.RETURN_RESULT) are only supported with redo.statement.execution_mode=batch"
)

/** An OUT parameter's column: its bound field, with the Oracle type it was bound as in `oracle.type-name`. */
const outField = (column: BoundColumn): Arrow.Field => {
  const typeName = Result.getOrElse(bindTypeFor(column.field), () => typeof column.def.type === "string" ? column.def.type : column.def.type.columnTypeName)
  return column.field.clone({ metadata: new Map([...column.field.metadata, [TYPE_NAME_METADATA, typeName]]) })
}

/**
 * An OUT value as the core's builder of its field's Arrow type takes it: a date (wire bytes through the precision
 * hook) as `YYYY-MM-DD`, a timestamp as `YYYY-MM-DD HH:MM:SS.fffffffff` text, which keeps its nanoseconds; an
 * interval as months, days and milliseconds, months, days and nanoseconds, or a count of the duration's unit
 * ({@link spanOutValue}); anything else as oracledb returns it.
 */
const outValue = (field: Arrow.Field, value: unknown): unknown => {
  if (value instanceof DbPatches.RawTemporal) {
    const nanos = BigInt(value.seconds) * 1_000_000_000n + BigInt(value.nanos)
    return Arrow.DataType.isDate(field.type) ? formatEpochDay(Math.floor(value.seconds / 86_400)) : formatEpochTicks(nanos, 1e9)
  }
  return spanOutValue(field.type, value)
}

/**
 * The OUT values of a DML statement's RETURNING ... INTO: oracledb gives each OUT bind as an array of the values of
 * the rows the statement touched. OUT values are one row, so one touched row gives its values, none gives NULLs, and
 * more fail INVALID_ARGUMENT (the statement is then undone by its unit).
 */
const returnedRow = (result: DbTypes.OracleExecuteResult): Result.Result<DbTypes.OracleExecuteResult, AdbcError> => {
  const outBinds = Array.isArray(result.outBinds) ? result.outBinds : []
  const most = outBinds.reduce((n: number, v) => Math.max(n, Array.isArray(v) ? v.length : 1), 0)
  if (most > 1) {
    return Result.fail(invalidArgument(
      `RETURNING ... INTO returned ${most} rows, but OUT parameters hold one row's values; return one row, or query the rows`
    ))
  }
  return Result.succeed({ ...result, outBinds: outBinds.map((v) => (Array.isArray(v) ? v[0] ?? null : v)) })
}

const makeConnection = (connection: DbTypes.OracleConnection, connectOptions: ResolvedOptions): DriverConnection => {
  const ctx = makeConnectionContext(connection, connectOptions)
  const { cancellation } = ctx
  const run = (sql: string, binds: unknown, options: Record<string, unknown>) => runIn(ctx, sql, binds, options)
  const runScoped = (sql: string, binds: unknown, options: Record<string, unknown>) => runScopedIn(ctx, sql, binds, options)

  const cursorOf = (
    rs: DbTypes.OracleResultSet,
    options: ResolvedOptions,
    more: Effect.Effect<DbTypes.OracleResultSet | undefined, AdbcError>
  ): Effect.Effect<DriverCursor, AdbcError> =>
    mapColumns(rs.metaData, options).pipe(
      Effect.tapError(() => Effect.andThen(DbCalls.closeResultSet(rs), DbCalls.releaseCursors(connection))),
      Effect.map((columns) =>
        makeCursor(
          connection,
          cancellation,
          rs,
          columns,
          options.value(Opt.FetchArraySize),
          more,
          options.value(Opt.ExecutionMode) === "batch"
        )
      )
    )

  const rowsResult = (
    rs: DbTypes.OracleResultSet,
    options: ResolvedOptions,
    more: Effect.Effect<DbTypes.OracleResultSet | undefined, AdbcError>
  ): Effect.Effect<DriverResult, AdbcError> =>
    Effect.map(cursorOf(rs, options, more), (cursor) => ({ _tag: "Rows" as const, cursor }))

  /**
   * What one execute produced: rows of a result set, implicit result sets (the first as the result, the others as
   * port v2's `more`, which the core closes unread), OUT values (port v2's `out`: the core appends them as columns
   * holding values in the first row), or a count.
   */
  const outcome = (
    result: DbTypes.OracleExecuteResult,
    options: ResolvedOptions,
    columns: ReadonlyArray<BoundColumn> | undefined
  ): Effect.Effect<DriverResult, AdbcError> =>
    Effect.gen(function*() {
      if (result.resultSet !== undefined) return yield* rowsResult(result.resultSet, options, Effect.succeed(undefined))
      const outs = (columns ?? []).filter((c) => c.direction !== "in")
      const outBinds = Array.isArray(result.outBinds) ? result.outBinds : []
      const out = outs.length === 0 ? undefined : {
        schema: new Arrow.Schema(outs.map(outField)),
        values: outs.map((c, i) => outValue(c.field, outBinds[i] ?? null))
      }
      const implicit = result.implicitResults ?? []
      if (implicit.length > 0) {
        if (options.value(Opt.ExecutionMode) !== "batch") {
          yield* Effect.forEach(implicit, DbCalls.closeResultSet, { discard: true })
          yield* DbCalls.releaseCursors(connection)
          return yield* implicitResultsInRowMode()
        }
        const cursors: Array<DriverCursor> = []
        for (const [i, rs] of implicit.entries()) {
          const cursor = yield* cursorOf(rs, options, Effect.succeed(undefined)).pipe(
            Effect.tapError(() =>
              Effect.andThen(
                Effect.forEach(cursors, (c) => c.close, { discard: true }),
                Effect.andThen(
                  Effect.forEach(implicit.slice(i + 1), DbCalls.closeResultSet, { discard: true }),
                  DbCalls.releaseCursors(connection)
                )
              )
            )
          )
          cursors.push(cursor)
        }
        return { _tag: "Rows" as const, cursor: cursors[0]!, more: cursors.slice(1), out }
      }
      return { _tag: "Count" as const, rowsAffected: result.rowsAffected ?? -1, out }
    })

  /**
   * A statement's calls as one unit under autocommit (a PL/SQL block's runs, bound DML's executeMany chunks): they
   * run with `autoCommit: false`, the commit follows once the driver accepts their outcome, and a failure or an
   * interruption rolls them back, so that an error after a call (implicit results in row mode, a column the driver
   * cannot map, a later parameter row's or chunk's failure) leaves nothing written. An array DML call that fails
   * keeps the rows before the failing one in the transaction (Oracle rolls back only the failing row, "commits the
   * rows that were successfully inserted prior to encountering the error" in autocommit:
   * https://docs.progress.com/bundle/datadirect-oracle-odbc-80/page/Batch-Failure-Returns-Error.html), where the
   * next autocommit statement would have committed them. Outside autocommit the calls are part of the caller's
   * transaction.
   */
  const statementUnit = <A, R>(effect: Effect.Effect<A, AdbcError, R>): Effect.Effect<A, AdbcError, R> =>
    Effect.suspend(() =>
      ctx.autocommit
        ? undoOnFailure(Effect.tap(effect, () => DbCalls.call(connection, () => connection.commit())), () => connection.rollback())
        : effect
    )

  /** `effect`, followed on failure or interruption by `undo` (within the answer budget; its own failure ignored). */
  const undoOnFailure = <A, R>(effect: Effect.Effect<A, AdbcError, R>, undo: () => Promise<unknown>): Effect.Effect<A, AdbcError, R> =>
    Effect.onExit(effect, (exit) =>
      Exit.isSuccess(exit) ? Effect.void : DbCalls.withinBudget(connection, Effect.promise(() => undo().catch(() => undefined))))

  /**
   * A PL/SQL block bound to several parameter rows, run once per row in order: oracledb's executeMany returns no
   * implicit result sets, so they would be lost without an error. The first implicit result set of every run makes
   * the result, in row order (the others are closed), so every run must return one, all of the same shape; a block
   * that returns none gives a count. The runs are one unit ({@link blockUnit}); a failure or an interruption closes
   * every result set they opened.
   */
  const executeBlockPerRow = (
    sql: string,
    rows: ReadonlyArray<ParameterRow>,
    options: ResolvedOptions,
    prefetchRows: number
  ): Effect.Effect<DriverResult, AdbcError, Scope.Scope> => {
    const results: Array<DbTypes.OracleExecuteResult> = []
    const closeAll = Effect.flatMap(
      Effect.promise(async () => {
        let closed = false
        for (const result of results) if (await DbCalls.closeResults(result)) closed = true
        return closed
      }),
      (closed) => closed ? DbCalls.releaseCursors(connection) : Effect.void
    )
    return blockUnit(Effect.gen(function*() {
      const firsts: Array<{ readonly row: number; readonly resultSet: DbTypes.OracleResultSet }> = []
      let without: number | undefined
      for (const [i, r] of rows.entries()) {
        // each run's implicit result sets are new server cursors that only its reply names (DbCalls.callExecute)
        const result = yield* Effect.uninterruptibleMask((restore) =>
          restore(run(sql, bindsOf(r), { ...queryOptions(options, prefetchRows), autoCommit: false })).pipe(
            Effect.tap((result) => Effect.sync(() => results.push(result))),
            Effect.mapError((e) => atParameterRow(e, i + 1))
          )
        )
        const [first, ...others] = result.implicitResults ?? []
        yield* Effect.forEach(others, DbCalls.closeResultSet, { discard: true })
        if (first === undefined) {
          without ??= i + 1
          continue
        }
        if (options.value(Opt.ExecutionMode) !== "batch") return yield* implicitResultsInRowMode()
        firsts.push({ row: i + 1, resultSet: first })
      }
      const [head, ...tail] = firsts
      if (head === undefined) {
        const counts = results.map((r) => r.rowsAffected)
        return { _tag: "Count" as const, rowsAffected: counts.every((n) => n !== undefined) ? counts.reduce((a, n) => a + n, 0) : -1 }
      }
      if (without !== undefined) {
        return yield* adbcError(
          "INVALID_DATA",
          `parameter row ${without} of the PL/SQL block returned no implicit result set, parameter row ${head.row} did: the rows' results cannot be concatenated into one`
        )
      }
      const columns = yield* mapColumns(head.resultSet.metaData, options)
      for (const { row, resultSet } of tail) {
        const other = yield* mapColumns(resultSet.metaData, options)
        if (!sameShape(columns, other)) {
          return yield* adbcError(
            "INVALID_DATA",
            `the first implicit result set of parameter row ${row} has the columns (${shapeText(other)}), that of parameter row ${head.row} (${shapeText(columns)}): results of different shapes are not concatenated`
          )
        }
      }
      let next = 0
      const more = Effect.sync(() => tail[next++]?.resultSet)
      const cursor = makeCursor(connection, cancellation, head.resultSet, columns, options.value(Opt.FetchArraySize), more, true)
      return { _tag: "Rows" as const, cursor: { ...cursor, close: Effect.andThen(cursor.close, closeAll) } }
    })).pipe(Effect.onExit((exit) => Exit.isSuccess(exit) ? Effect.void : closeAll))
  }

  /**
   * A PL/SQL block's calls as one unit: under autocommit {@link statementUnit}; inside the caller's transaction after
   * a savepoint, rolled back to on a failure or an interruption (implicit results refused in row mode, a column the
   * driver cannot map), so that the block leaves nothing written and the caller's earlier work stays. A block that
   * commits by itself cannot be undone.
   */
  const blockUnit = <A, R>(effect: Effect.Effect<A, AdbcError, R>): Effect.Effect<A, AdbcError, R> =>
    Effect.suspend(() =>
      ctx.autocommit ? statementUnit(effect) : Effect.andThen(
        run(`SAVEPOINT ${BLOCK_SAVEPOINT}`, [], {}),
        undoOnFailure(effect, () => connection.execute(`ROLLBACK TO SAVEPOINT ${BLOCK_SAVEPOINT}`, [], {}))
      )
    )

  /** A PL/SQL block run once (unbound, or bound to one parameter row), as one unit ({@link blockUnit}). */
  const executeBlockOnce = (
    sql: string,
    binds: unknown,
    executeOptions: Record<string, unknown>,
    options: ResolvedOptions,
    columns: ReadonlyArray<BoundColumn> | undefined
  ): Effect.Effect<DriverResult, AdbcError, Scope.Scope> =>
    blockUnit(Effect.flatMap(runScoped(sql, binds, { ...executeOptions, autoCommit: false }), (result) => outcome(result, options, columns)))

  const executeWithParameters = (
    sql: string,
    parameters: BoundParameters,
    options: ResolvedOptions
  ): Effect.Effect<DriverResult, AdbcError, Scope.Scope> =>
    Effect.gen(function*() {
      const prepared: Array<{ columns: Array<BoundColumn>; rows: number }> = []
      for (const batch of parameters.batches) {
        const columns = yield* Effect.fromResult(parameterColumns(batch, ParseAhead.isPlsql(sql)))
        prepared.push({ columns, rows: batch.numRows })
      }
      const total = prepared.reduce((n, p) => n + p.rows, 0)
      if (total === 0) return yield* invalidArgument("no parameter rows are bound to the statement")
      const hasOut = prepared.some((p) => p.columns.some((c) => c.direction !== "in"))
      // OUT values come back as the columns of one row, so each row would need its own result: refused, not cut short
      if (hasOut && total > 1) {
        return yield* invalidArgument(
          `OUT / IN OUT parameters (ORACLE:parameter_type out or inout) take exactly one parameter row; got ${total}`
        )
      }
      // a bound query's execute parses anew, so that its first round trip fetches prefetch_rows (ParseAhead.statementInfo);
      // DML returns no rows and needs no parse of its own: its execute parses it in the same round trip
      const info = ParseAhead.isDml(sql) ? undefined : yield* ParseAhead.statementInfo(connection, sql, queryOptions(options, 1), false)
      const isQuery = info?.metaData !== undefined && info.metaData.length > 0
      const isBlock = ParseAhead.isPlsql(sql)
      if (!isQuery && !isBlock && !hasOut && total > 1) {
        // insert_batch_rows rows per executeMany, across parameter batches as for ingest (IngestCalls.ts)
        const perCall = options.value(Opt.InsertBatchRows)
        const only = prepared.length === 1 && total <= perCall ? prepared[0] : undefined
        if (ctx.autocommit && only !== undefined) {
          // one call under autocommit: it commits in the same round trip (oracledb's autoCommit), as a raw executeMany
          // does; Oracle commits only a call that succeeds, and the rows a failing call kept are rolled back. The rows
          // are encoded straight from the Arrow buffers where the ingest encoder takes every column (the parameters'
          // own Arrow types decide the bind types, as oracledb's encoder would), else by oracledb from JS values.
          const encoded = encodedCall(ctx, sql, parameters.batches[0]!)
          return yield* undoOnFailure(
            Effect.map(
              DbCalls.callExecute(connection, sql, () =>
                encoded !== undefined
                  ? executeManyEncoded(connection, sql, joinedRows(encoded.call), encoded.bindDefs, encoded.maxStringSize, { autoCommit: true })
                  : executeManyRows(connection, sql, bindRows(only.columns, 0, only.rows), {
                    autoCommit: true,
                    bindDefs: only.columns.map((c) => c.def)
                  })),
              (result) => ({ _tag: "Count" as const, rowsAffected: result.rowsAffected ?? 0 })
            ),
            () => connection.rollback()
          )
        }
        return yield* statementUnit(Effect.gen(function*() {
          let affected = 0
          let call: RowsCall | undefined
          const send = Effect.suspend(() => {
            const sending = call
            call = undefined
            return sending === undefined ? Effect.void : Effect.map(
              DbCalls.callExecute(connection, sql, () => executeManyRows(connection, sql, sending.rows, { autoCommit: false, bindDefs: sending.defs })),
              (result) => {
                affected += result.rowsAffected ?? 0
              }
            )
          })
          let row = 0
          for (const { columns, rows } of prepared) {
            const defs = columns.map((c) => c.def)
            if (call !== undefined && !joinsRows(call, sql, defs)) yield* send
            for (let start = 0; start < rows;) {
              const current: RowsCall = call ?? { _tag: "Rows", sql, firstRow: row + start, rows: [], defs: [...defs] }
              call = current
              const end = Math.min(rows, start + perCall - current.rows.length)
              addRows(current, bindRows(columns, start, end), defs)
              start = end
              if (current.rows.length >= perCall) yield* send
            }
            row += rows
          }
          yield* send
          return { _tag: "Count" as const, rowsAffected: affected }
        }))
      }
      // Queries and PL/SQL blocks run once per parameter row and their results are concatenated; PL/SQL with OUT
      // binds runs once.
      const rows: Array<ParameterRow> = []
      for (const { columns, rows: n } of prepared) {
        for (const values of bindRows(columns, 0, n)) rows.push({ columns, values })
      }
      const prefetchRows = prefetchRowsFor(info?.metaData, options)
      if (isBlock && rows.length > 1) return yield* executeBlockPerRow(sql, rows, options, prefetchRows)
      if (isBlock) return yield* executeBlockOnce(sql, bindsOf(rows[0]!), queryOptions(options, prefetchRows), options, rows[0]!.columns)
      if (hasOut && !isQuery) {
        // DML ... RETURNING ... INTO: one unit (blockUnit), so that a refused outcome leaves nothing written
        return yield* blockUnit(Effect.flatMap(
          runScoped(sql, bindsOf(rows[0]!), { ...queryOptions(options, prefetchRows), autoCommit: false }),
          (result) => Effect.flatMap(Effect.fromResult(returnedRow(result)), (row) => outcome(row, options, rows[0]!.columns))
        ))
      }
      const first = yield* runScoped(sql, bindsOf(rows[0]!), queryOptions(options, prefetchRows))
      if (first.resultSet === undefined || rows.length === 1) return yield* outcome(first, options, rows[0]!.columns)
      let next = 1
      const more: Effect.Effect<DbTypes.OracleResultSet | undefined, AdbcError> = Effect.suspend(() => {
        if (next >= rows.length) return Effect.succeed(undefined)
        const r = rows[next++]!
        return Effect.map(run(sql, bindsOf(r), queryOptions(options, prefetchRows)), (res) => res.resultSet)
      })
      return yield* rowsResult(first.resultSet, options, more)
    })

  const execute = (
    sql: string,
    parameters: BoundParameters | undefined,
    options: ResolvedOptions
  ): Effect.Effect<DriverResult, AdbcError, Scope.Scope> =>
    tracked(ctx, Effect.gen(function*() {
      if (parameters !== undefined && parameters.schema.fields.length > 0) {
        return yield* executeWithParameters(sql, parameters, options)
      }
      // prefetch_bytes needs the row size before the first round trip: one describe (parse only) when it is set;
      // otherwise the parse happens only when oracledb holds no cursor for the text (ParseAhead.openCursor).
      const info = options.get(Opt.PrefetchBytes) === undefined
        ? yield* Effect.as(ParseAhead.openCursor(connection, sql, queryOptions(options, 1)), undefined)
        : yield* ParseAhead.statementInfo(connection, sql, queryOptions(options, 1))
      const executeOptions = queryOptions(options, prefetchRowsFor(info?.metaData, options))
      if (ParseAhead.isPlsql(sql)) return yield* executeBlockOnce(sql, [], executeOptions, options, undefined)
      const result = yield* runScoped(sql, [], executeOptions)
      return yield* outcome(result, options, undefined)
    }))

  const ISOLATION: Readonly<Record<string, string>> = {
    "adbc.connection.transaction.isolation.default": "READ COMMITTED",
    "adbc.connection.transaction.isolation.read_committed": "READ COMMITTED",
    "adbc.connection.transaction.isolation.serializable": "SERIALIZABLE"
  }

  return {
    namespace: connection.instanceName,
    // Execute update with OUT parameters is refused by the core (the driver declares `outParameters`).
    execute: (request) => execute(request.sql, request.parameters, request.options),
    describe: (sql, options) => describe(ctx, sql, options),
    setAutocommit: (enabled) =>
      Effect.gen(function*() {
        if (enabled && !ctx.autocommit) yield* DbCalls.call(connection, () => connection.commit())
        ctx.autocommit = enabled
      }),
    commit: DbCalls.call(connection, () => connection.commit()),
    rollback: DbCalls.call(connection, () => connection.rollback()),
    savepoints: {
      create: (name) => Effect.asVoid(run(`SAVEPOINT ${Ddl.quoteIdentifier(name)}`, [], {})),
      rollbackTo: (name) => Effect.asVoid(run(`ROLLBACK TO SAVEPOINT ${Ddl.quoteIdentifier(name)}`, [], {}))
    },
    // No setReadOnly: Oracle's SET TRANSACTION READ ONLY lasts one transaction, so the core accepts only `false`.
    setIsolationLevel: (level) => {
      const sql = ISOLATION[level]
      return sql === undefined
        ? Effect.fail(notImplemented(`isolation level ${level} is not supported by Oracle (read committed, serializable)`))
        : Effect.asVoid(run(`ALTER SESSION SET ISOLATION_LEVEL = ${sql}`, [], {}))
    },
    currentCatalog: scalar(ctx, CURRENT_CATALOG_SQL),
    currentDbSchema: scalar(ctx, "SELECT SYS_CONTEXT('USERENV', 'CURRENT_SCHEMA') FROM DUAL"),
    setCurrentDbSchema: (schema) =>
      Effect.asVoid(run(`ALTER SESSION SET CURRENT_SCHEMA = ${Ddl.quoteIdentifier(schema)}`, [], {})),
    info: info(ctx),
    catalogRows: (depth, filters) => catalogRows(connection, depth, filters),
    tableSchema: (catalog, dbSchema, table) => tableSchema(ctx, catalog, dbSchema, table),
    tableTypes: ["TABLE", "VIEW"],
    ingest: makeIngest(ctx),
    cancel: cancellation.cancel(Effect.promise(() => connection.breakExecution().catch(() => undefined))),
    isUsable: () => connection.isHealthy(),
    abort: DbCalls.abort(connection)
  }
}

const connect = (options: ResolvedOptions): Effect.Effect<DriverConnection, AdbcError, Scope.Scope> =>
  Effect.gen(function*() {
    const config = yield* Effect.fromResult(resolveConnectConfig(options))
    const connection = yield* Effect.acquireRelease(
      DbCalls.connect(connectionAttributes(config), connectTimeoutMs(config.uri.connectTimeoutMs), config.lobPrefetchLength),
      DbCalls.disconnect,
      { interruptible: true }
    )
    yield* DbCalls.call(connection, () => connection.execute(NLS_SETUP_SQL, [], {}))
    const zone = timeZoneSql(config)
    yield* DbCalls.call(connection, () => connection.execute(zone, [], {}))
    return makeConnection(connection, options)
  })

/**
 * The Oracle driver.
 *
 * @category drivers
 * @since 0.1.0
 */
export const OracleDriver: DriverShape = {
  name: "oracle",
  version: VERSION,
  options: Opt.OracleOptions,
  outParameters: { direction: (field) => Result.getOrElse(directionOf(field), () => "in" as const) },
  batchCap: {
    mode: "hard",
    rows: Opt.ReadBatchRows,
    bytes: Opt.ReadBatchApproxBytes
  },
  validate: (options) => Effect.asVoid(Effect.fromResult(resolveConnectConfig(options))),
  // The conventions for Oracle Database (opentelemetry.io/docs/specs/semconv/db/oracledb): db.system.name
  // "oracle.db", db.response.status_code the ORA- number ("ORA-02813"), oracle.db.service "the service name
  // originally provided at connection establishment" when the current one needs a query (registry/attributes/
  // oracledb), and db.namespace "the unique identifier of the database" (ORCL1) "if available without an additional
  // network call": before logon that is the URI's instance name, if it names one; after logon the instance name the
  // server sent in its logon reply (the connection's `namespace`).
  telemetry: {
    systemName: "oracle.db",
    endpoint: (options) => {
      const uri = Result.getOrUndefined(resolveConnectConfig(options))?.uri
      const port = uri?.host === undefined ? undefined : uri.port ?? DEFAULT_PORT
      return {
        address: uri?.host,
        port,
        namespace: uri?.instanceName,
        attributes: uri?.serviceName === undefined ? {} : { "oracle.db.service": uri.serviceName }
      }
    },
    statusCode: oraCode
  },
  connect
}


