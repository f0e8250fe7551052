/**
 * The Oracle driver's statement execution: plain SQL (a query's first round trip sized by `prefetch_rows` /
 * `prefetch_bytes`), bound parameters (DML through executeMany in `insert_batch_rows` chunks, encoded from the Arrow
 * buffers where the ingest encoder takes the batch; a query or PL/SQL block once per parameter row, results
 * concatenated), PL/SQL implicit result sets, OUT / IN OUT binds as port v2's `out`, a statement's calls as one unit
 * (`statementUnit`, `blockUnit`), and the outcome as a cursor (Cursor.ts) or a row count. The OUT-bind helpers
 * (`outField`, `outValue`, `returnedRow`) stay here, as HANA keeps its parameter handling in its Execute.ts.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Effect, Exit, Result, type Scope } from "effect"
import { type AdbcError, adbcError, invalidArgument, notImplemented } from "../../src/AdbcError.ts"
import type { BoundParameters, DriverCursor, DriverResult } from "../../src/Driver.ts"
import type { ResolvedOptions } from "../../src/Options.ts"
import { formatEpochDay, formatEpochTicks } from "../common/ArrowCells.ts"
import { type ConnectionContext, run, runScoped, tracked } from "./ConnectionContext.ts"
import { makeCursor, mapColumns, prefetchRowsFor, queryOptions } from "./Cursor.ts"
import * as DbCalls from "./DbCalls.ts"
import * as DbPatches from "./DbPatches.ts"
import type * as DbTypes from "./DbTypes.ts"
import { executeManyEncoded, executeManyRows } from "./EncodedBinds.ts"
import { atParameterRow } from "./Errors.ts"
import { encodedCall } from "./Ingest.ts"
import { addRows, joinedRows, joinsRows, type RowsCall } from "./IngestCalls.ts"
import * as Opt from "./OracleOptions.ts"
import { bindRows, type BoundColumn, parameterColumns, spanOutValue } from "./Params.ts"
import * as ParseAhead from "./ParseAhead.ts"
import { type MappedColumn, TYPE_NAME_METADATA } from "./ReadTypes.ts"
import { bindTypeFor } from "./WriteTypes.ts"

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

/** A cursor over `rs` (and the result sets `more` gives); the result set is closed when its columns cannot be mapped. @category operations @since 0.1.0 */
export const cursorOf = (
  ctx: ConnectionContext,
  rs: DbTypes.OracleResultSet,
  options: ResolvedOptions,
  more: Effect.Effect<DbTypes.OracleResultSet | undefined, AdbcError>
): Effect.Effect<DriverCursor, AdbcError> =>
  mapColumns(rs.metaData, options).pipe(
    Effect.tapError(() => Effect.andThen(DbCalls.closeResultSet(rs), DbCalls.releaseCursors(ctx.connection))),
    Effect.map((columns) =>
      makeCursor(
        ctx.connection,
        ctx.cancellation,
        rs,
        columns,
        options.value(Opt.FetchArraySize),
        more,
        options.value(Opt.ExecutionMode) === "batch"
      )
    )
  )

/** A rows result over `rs` ({@link cursorOf}). @category operations @since 0.1.0 */
export const rowsResult = (
  ctx: ConnectionContext,
  rs: DbTypes.OracleResultSet,
  options: ResolvedOptions,
  more: Effect.Effect<DbTypes.OracleResultSet | undefined, AdbcError>
): Effect.Effect<DriverResult, AdbcError> =>
  Effect.map(cursorOf(ctx, rs, options, more), (cursor) => ({ _tag: "Rows" as const, cursor }))

/**
 * What one execute produced: rows of a result set, implicit result sets (the first as the result, the others as
 * port v2's `more`, which the core closes unread), OUT values (port v2's `out`: the core appends them as columns
 * holding values in the first row), or a count.
 */
export const outcome = (
  ctx: ConnectionContext,
  result: DbTypes.OracleExecuteResult,
  options: ResolvedOptions,
  columns: ReadonlyArray<BoundColumn> | undefined
): Effect.Effect<DriverResult, AdbcError> =>
  Effect.gen(function*() {
    if (result.resultSet !== undefined) return yield* rowsResult(ctx, result.resultSet, options, Effect.succeed(undefined))
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
        yield* DbCalls.releaseCursors(ctx.connection)
        return yield* implicitResultsInRowMode()
      }
      const cursors: Array<DriverCursor> = []
      for (const [i, rs] of implicit.entries()) {
        const cursor = yield* cursorOf(ctx, rs, options, Effect.succeed(undefined)).pipe(
          Effect.tapError(() =>
            Effect.andThen(
              Effect.forEach(cursors, (c) => c.close, { discard: true }),
              Effect.andThen(
                Effect.forEach(implicit.slice(i + 1), DbCalls.closeResultSet, { discard: true }),
                DbCalls.releaseCursors(ctx.connection)
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
export const statementUnit = <A, R>(ctx: ConnectionContext, effect: Effect.Effect<A, AdbcError, R>): Effect.Effect<A, AdbcError, R> =>
  Effect.suspend(() =>
    ctx.autocommit
      ? undoOnFailure(ctx, Effect.tap(effect, () => DbCalls.call(ctx.connection, () => ctx.connection.commit())), () => ctx.connection.rollback())
      : effect
  )

/** `effect`, followed on failure or interruption by `undo` (within the answer budget; its own failure ignored). */
export const undoOnFailure = <A, R>(ctx: ConnectionContext, effect: Effect.Effect<A, AdbcError, R>, undo: () => Promise<unknown>): Effect.Effect<A, AdbcError, R> =>
  Effect.onExit(effect, (exit) =>
    Exit.isSuccess(exit) ? Effect.void : DbCalls.withinBudget(ctx.connection, Effect.promise(() => undo().catch(() => undefined))))

/**
 * A PL/SQL block bound to several parameter rows, run once per row in order: oracledb's executeMany returns no
 * implicit result sets, so they would be lost without an error. The k-th implicit result set of every run, in row
 * order, makes the k-th result: the first is the statement's result, the others port v2's `more`, as for one run
 * ({@link outcome}). So every run must return as many result sets, the k-th of every run of one shape; a block that
 * returns none gives a count. The runs are one unit ({@link blockUnit}); a failure or an interruption closes every
 * result set they opened.
 */
export const executeBlockPerRow = (
  ctx: ConnectionContext,
  sql: string,
  rows: ReadonlyArray<ParameterRow>,
  options: ResolvedOptions,
  prefetchRows: number
): Effect.Effect<DriverResult, AdbcError, Scope.Scope> => {
  const results: Array<DbTypes.OracleExecuteResult> = []
  /** Closes `sets` (those still open) and releases their server cursors at once when one was open. */
  const closeSets = (sets: ReadonlyArray<DbTypes.OracleResultSet>) =>
    Effect.flatMap(
      Effect.forEach(sets, DbCalls.closeResultSet),
      (closed) => closed.some((c) => c) ? DbCalls.releaseCursors(ctx.connection) : Effect.void
    )
  const closeAll = Effect.suspend(() => closeSets(results.flatMap((r) => [...(r.implicitResults ?? [])])))
  return blockUnit(ctx, Effect.gen(function*() {
    const runs: Array<ReadonlyArray<DbTypes.OracleResultSet>> = []
    for (const [i, r] of rows.entries()) {
      // each run's implicit result sets are new server cursors that only its reply names (DbCalls.callExecute)
      const result = yield* Effect.uninterruptibleMask((restore) =>
        restore(run(ctx, sql, bindsOf(r), { ...queryOptions(options, prefetchRows), autoCommit: false })).pipe(
          Effect.tap((result) => Effect.sync(() => results.push(result))),
          Effect.mapError((e) => atParameterRow(e, i + 1))
        )
      )
      const sets = result.implicitResults ?? []
      if (sets.length > 0 && options.value(Opt.ExecutionMode) !== "batch") return yield* implicitResultsInRowMode()
      runs.push(sets)
    }
    const count = runs[0]!.length
    const differing = runs.findIndex((sets) => sets.length !== count)
    if (differing >= 0) {
      return yield* adbcError(
        "INVALID_DATA",
        `parameter row ${differing + 1} of the PL/SQL block returned ${runs[differing]!.length} implicit result sets, parameter row 1 returned ${count}: the rows' results cannot be concatenated into one`
      )
    }
    if (count === 0) {
      const counts = results.map((r) => r.rowsAffected)
      return { _tag: "Count" as const, rowsAffected: counts.every((n) => n !== undefined) ? counts.reduce((a, n) => a + n, 0) : -1 }
    }
    const cursors: Array<DriverCursor> = []
    for (let k = 0; k < count; k++) {
      const sets = runs.map((r) => r[k]!)
      const columns = yield* mapColumns(sets[0]!.metaData, options)
      for (const [i, resultSet] of sets.entries()) {
        if (i === 0) continue
        const other = yield* mapColumns(resultSet.metaData, options)
        if (!sameShape(columns, other)) {
          return yield* adbcError(
            "INVALID_DATA",
            `implicit result set ${k + 1} of parameter row ${i + 1} has the columns (${shapeText(other)}), that of parameter row 1 (${shapeText(columns)}): results of different shapes are not concatenated`
          )
        }
      }
      let next = 1
      const more = Effect.sync(() => sets[next++])
      const cursor = makeCursor(ctx.connection, ctx.cancellation, sets[0]!, columns, options.value(Opt.FetchArraySize), more, true)
      // closing the cursor early closes the later runs' result sets it has not reached
      cursors.push({ ...cursor, close: Effect.andThen(cursor.close, closeSets(sets)) })
    }
    return { _tag: "Rows" as const, cursor: cursors[0]!, more: cursors.slice(1) }
  })).pipe(Effect.onExit((exit) => Exit.isSuccess(exit) ? Effect.void : closeAll))
}

/**
 * A PL/SQL block's calls as one unit: under autocommit {@link statementUnit}; inside the caller's transaction after
 * a savepoint, rolled back to on a failure or an interruption (implicit results refused in row mode, a column the
 * driver cannot map), so that the block leaves nothing written and the caller's earlier work stays. A block that
 * commits by itself cannot be undone.
 */
export const blockUnit = <A, R>(ctx: ConnectionContext, effect: Effect.Effect<A, AdbcError, R>): Effect.Effect<A, AdbcError, R> =>
  Effect.suspend(() =>
    ctx.autocommit ? statementUnit(ctx, effect) : Effect.andThen(
      run(ctx, `SAVEPOINT ${BLOCK_SAVEPOINT}`, [], {}),
      undoOnFailure(ctx, effect, () => ctx.connection.execute(`ROLLBACK TO SAVEPOINT ${BLOCK_SAVEPOINT}`, [], {}))
    )
  )

/** A PL/SQL block run once (unbound, or bound to one parameter row), as one unit ({@link blockUnit}). */
export const executeBlockOnce = (
  ctx: ConnectionContext,
  sql: string,
  binds: unknown,
  executeOptions: Record<string, unknown>,
  options: ResolvedOptions,
  columns: ReadonlyArray<BoundColumn> | undefined
): Effect.Effect<DriverResult, AdbcError, Scope.Scope> =>
  blockUnit(ctx, Effect.flatMap(runScoped(ctx, sql, binds, { ...executeOptions, autoCommit: false }), (result) => outcome(ctx, result, options, columns)))

/** A statement run with bound parameter batches (see the module header). @category operations @since 0.1.0 */
export const executeWithParameters = (
  ctx: ConnectionContext,
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
    const info = ParseAhead.isDml(sql) ? undefined : yield* ParseAhead.statementInfo(ctx.connection, sql, queryOptions(options, 1), false)
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
        return yield* undoOnFailure(ctx, 
          Effect.map(
            DbCalls.callExecute(ctx.connection, sql, () =>
              encoded !== undefined
                ? executeManyEncoded(ctx.connection, sql, joinedRows(encoded.call), encoded.bindDefs, encoded.maxStringSize, { autoCommit: true })
                : executeManyRows(ctx.connection, sql, bindRows(only.columns, 0, only.rows), {
                  autoCommit: true,
                  bindDefs: only.columns.map((c) => c.def)
                })),
            (result) => ({ _tag: "Count" as const, rowsAffected: result.rowsAffected ?? 0 })
          ),
          () => ctx.connection.rollback()
        )
      }
      return yield* statementUnit(ctx, Effect.gen(function*() {
        let affected = 0
        let call: RowsCall | undefined
        const send = Effect.suspend(() => {
          const sending = call
          call = undefined
          return sending === undefined ? Effect.void : Effect.map(
            DbCalls.callExecute(ctx.connection, sql, () => executeManyRows(ctx.connection, sql, sending.rows, { autoCommit: false, bindDefs: sending.defs })),
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
    if (isBlock && rows.length > 1) return yield* executeBlockPerRow(ctx, sql, rows, options, prefetchRows)
    if (isBlock) return yield* executeBlockOnce(ctx, sql, bindsOf(rows[0]!), queryOptions(options, prefetchRows), options, rows[0]!.columns)
    if (hasOut && !isQuery) {
      // DML ... RETURNING ... INTO: one unit (blockUnit), so that a refused outcome leaves nothing written
      return yield* blockUnit(ctx, Effect.flatMap(
        runScoped(ctx, sql, bindsOf(rows[0]!), { ...queryOptions(options, prefetchRows), autoCommit: false }),
        (result) => Effect.flatMap(Effect.fromResult(returnedRow(result)), (row) => outcome(ctx, row, options, rows[0]!.columns))
      ))
    }
    const first = yield* runScoped(ctx, sql, bindsOf(rows[0]!), queryOptions(options, prefetchRows))
    if (first.resultSet === undefined || rows.length === 1) return yield* outcome(ctx, first, options, rows[0]!.columns)
    let next = 1
    const more: Effect.Effect<DbTypes.OracleResultSet | undefined, AdbcError> = Effect.suspend(() => {
      if (next >= rows.length) return Effect.succeed(undefined)
      const r = rows[next++]!
      return Effect.map(run(ctx, sql, bindsOf(r), queryOptions(options, prefetchRows)), (res) => res.resultSet)
    })
    return yield* rowsResult(ctx, first.resultSet, options, more)
  })

/** Runs `sql`, with its parameters when any are bound, as a call Connection.cancel can cancel. @category operations @since 0.1.0 */
export const execute = (
  ctx: ConnectionContext,
  sql: string,
  parameters: BoundParameters | undefined,
  options: ResolvedOptions
): Effect.Effect<DriverResult, AdbcError, Scope.Scope> =>
  tracked(ctx, Effect.gen(function*() {
    if (parameters !== undefined && parameters.schema.fields.length > 0) {
      return yield* executeWithParameters(ctx, sql, parameters, options)
    }
    // prefetch_bytes needs the row size before the first round trip: one describe (parse only) when it is set;
    // otherwise the parse happens only when oracledb holds no cursor for the text (ParseAhead.openCursor).
    const info = options.get(Opt.PrefetchBytes) === undefined
      ? yield* Effect.as(ParseAhead.openCursor(ctx.connection, sql, queryOptions(options, 1)), undefined)
      : yield* ParseAhead.statementInfo(ctx.connection, sql, queryOptions(options, 1))
    const executeOptions = queryOptions(options, prefetchRowsFor(info?.metaData, options))
    if (ParseAhead.isPlsql(sql)) return yield* executeBlockOnce(ctx, sql, [], executeOptions, options, undefined)
    const result = yield* runScoped(ctx, sql, [], executeOptions)
    return yield* outcome(ctx, result, options, undefined)
  }))
