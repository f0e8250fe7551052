/**
 * The HANA driver's statement execution: EXECUTE_DIRECT of plain SQL, PREPARE + EXECUTE with bound parameter rows
 * (an INSERT whose batches the ingest encoder takes goes as encoded parts, EncodedInsert.ts; other DML batches split
 * below hdb's 32,767-row limit; a CALL or a query runs once per row, a query's results read one
 * after the other), the outcome as a cursor (Cursor.ts) or a row count, and describe / parameter schemas from
 * PREPARE. HANA has no OUT-parameter results (scalar OUT parameters are not returned), so no OutBinds.ts.
 *
 * @since 0.2.0
 */
import * as Arrow from "apache-arrow"
import { Effect, Result, type Scope } from "effect"
import { type AdbcError, invalidArgument } from "../../src/AdbcError.ts"
import type { BoundParameters, DriverResult, ExecuteRequest } from "../../src/Driver.ts"
import type { ResolvedOptions } from "../../src/Options.ts"
import { clearInserts, type ConnectionContext, tracked } from "./ConnectionContext.ts"
import { cursorResult, mapColumns, type NextOutcome } from "./Cursor.ts"
import * as Hdb from "./DbCalls.ts"
import type { HdbStatement } from "./DbTypes.ts"
import { encodedBatches, insertEncodedStatement } from "./EncodedInsert.ts"
import { temporalRefusal } from "./IngestEncoder.ts"
import { nameOversizedParameter, oversizedRow, rowConverter, type RowConverter } from "./Params.ts"
import { arrowColumns } from "./ReadTypes.ts"
import { normalizeSql } from "./SqlNormalize.ts"

const FUNCTION_INSERT = 2
const FUNCTION_SELECT = 5
const FUNCTION_SELECT_FOR_UPDATE = 6
/**
 * DB_PROCEDURE_CALL and …_WITH_RESULT_SET. A real HANA prepares a CALL as 8 even when the procedure returns result
 * sets (SAP/node-hdb test/mock/data/prepare.js), and hdb refuses to batch either (lib/protocol/ExecuteTask.js: only
 * DDL and DML): a CALL runs once per parameter row.
 */
const FUNCTION_PROCEDURE = 8
const FUNCTION_PROCEDURE_WITH_RESULTS = 9
const IO_INPUT = 1
const IO_IN_OUT = 2

/**
 * EXECUTE of one parameter row (`single`) or a batch of rows; a row too large for one packet fails naming its
 * largest parameter.
 *
 * @category operations
 * @since 0.2.0
 */
export const executeRows = (
  ctx: ConnectionContext,
  statement: HdbStatement,
  rows: ReadonlyArray<ReadonlyArray<unknown>>,
  single: boolean,
  firstRow: number,
  names: ReadonlyArray<string>
) =>
  Hdb.executePrepared(ctx.client, statement, single ? rows[0]! : rows, firstRow).pipe(
    Effect.mapError((error) =>
      nameOversizedParameter(error, {
        rows,
        firstRow,
        names,
        parameterTypes: statement.parameterMetadata.map((p) => p.dataType),
        packetBytes: Hdb.packetSizeLimit(ctx.client)
      })
    )
  )

/**
 * `effect` (several batch executions of one statement under autocommit) as one transaction: autocommit is off while
 * it runs, then COMMIT, or ROLLBACK when it fails or is interrupted, and autocommit is on again, so that a statement
 * hdb sends as several executions is all or nothing, as one execution is.
 */
const allOrNothing = <A, E, R>(ctx: ConnectionContext, effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => ctx.client.setAutoCommit(false)),
    () => Effect.tap(effect, () => Hdb.commit(ctx.client)),
    (_, exit) =>
      Effect.andThen(
        exit._tag === "Success" ? Effect.void : Effect.ignore(Hdb.rollback(ctx.client)),
        Effect.sync(() => ctx.client.setAutoCommit(true))
      )
  )

/**
 * PREPARE and EXECUTE with bound parameter rows: a row count, or a cursor for a query (or a CALL under a query
 * intent). The statement is dropped when its result is done, or with the scope.
 *
 * @category operations
 * @since 0.2.0
 */
export const executeWithParameters = (
  ctx: ConnectionContext,
  sql: string,
  parameters: BoundParameters,
  options: ResolvedOptions,
  intent: ExecuteRequest["intent"]
): Effect.Effect<DriverResult, AdbcError, Scope.Scope> =>
  Effect.gen(function*() {
    const statement = yield* Hdb.prepare(ctx.client, sql)
    let dropped = false
    const drop = Effect.suspend(() => {
      if (dropped) return Effect.void
      dropped = true
      return Hdb.dropStatement(statement)
    })
    yield* Effect.addFinalizer(() => drop)
    const inputs = statement.parameterMetadata.filter((p) => p.ioType === IO_INPUT || p.ioType === IO_IN_OUT)
    if (parameters.schema.fields.length !== inputs.length) {
      return yield* invalidArgument(
        `the statement has ${inputs.length} parameters but ${parameters.schema.fields.length} columns are bound`
      )
    }
    const types = inputs.map((p) => p.dataType)
    const names = parameters.schema.fields.map((f) => f.name)
    const isCall = statement.functionCode === FUNCTION_PROCEDURE || statement.functionCode === FUNCTION_PROCEDURE_WITH_RESULTS
    const isQuery = statement.functionCode === FUNCTION_SELECT ||
      statement.functionCode === FUNCTION_SELECT_FOR_UPDATE ||
      (isCall && intent === "query") ||
      (statement.resultSetMetadata !== undefined && statement.resultSetMetadata.length > 0)
    const converters: Array<{ readonly batch: Arrow.RecordBatch; readonly converter: RowConverter }> = []
    let rowsBefore = 0
    for (const batch of parameters.batches) {
      const c = rowConverter(batch, types)
      if (!c.ok) return yield* c.error
      const refused = temporalRefusal(batch, inputs, rowsBefore)
      if (refused !== undefined) return yield* refused
      rowsBefore += batch.numRows
      const tooLarge = oversizedRow(batch, types, Hdb.packetSizeLimit(ctx.client))
      if (tooLarge !== undefined) return yield* tooLarge
      converters.push({ batch, converter: c.converter })
    }
    if (!isQuery && isCall) {
      // an update CALL: once per row, any result sets closed unread, no row count
      let before = 0
      for (const { batch, converter } of converters) {
        for (const [i, row] of converter.rows(0, batch.numRows).entries()) {
          const outcome = yield* executeRows(ctx, statement, [row], true, before + i, names)
          if (outcome._tag === "Rows") yield* Hdb.closeResultSet(ctx.client, outcome.id)
        }
        before += batch.numRows
      }
      yield* drop
      return { _tag: "Count" as const, rowsAffected: -1 }
    }
    if (!isQuery && statement.functionCode === FUNCTION_INSERT && inputs.length === statement.parameterMetadata.length) {
      const plans = encodedBatches(parameters.batches, inputs)
      yield* Effect.logDebug(plans !== undefined ? "hana: bound INSERT encoded from Arrow columns" : "hana: bound INSERT through hdb's writer")
        .pipe(Effect.annotateLogs({ "hana.insert.path": plans !== undefined ? "encoded" : "hdb" }))
      if (plans !== undefined) {
        const total = yield* insertEncodedStatement(ctx, statement, plans)
        yield* drop
        return { _tag: "Count" as const, rowsAffected: total }
      }
    }
    if (!isQuery) {
      const writeAll = Effect.gen(function*() {
        let total = 0
        let before = 0
        for (const { batch, converter } of converters) {
          for (let start = 0; start < batch.numRows; start += Hdb.MAX_BATCH_ROWS) {
            const end = Math.min(batch.numRows, start + Hdb.MAX_BATCH_ROWS)
            const outcome = yield* executeRows(ctx, statement, converter.rows(start, end), false, before + start, names)
            if (outcome._tag === "Count" && outcome.rowsAffected > 0) total += outcome.rowsAffected
            if (outcome._tag === "Rows") yield* Hdb.closeResultSet(ctx.client, outcome.id)
          }
          before += batch.numRows
        }
        return total
      })
      const executions = converters.reduce((n, { batch }) => n + Math.ceil(batch.numRows / Hdb.MAX_BATCH_ROWS), 0)
      const total = executions > 1 && Hdb.isAutoCommit(ctx.client) ? yield* allOrNothing(ctx, writeAll) : yield* writeAll
      yield* drop
      return { _tag: "Count" as const, rowsAffected: total }
    }
    // A query runs once per parameter row; results are concatenated.
    const rows: Array<ReadonlyArray<unknown>> = []
    for (const { batch, converter } of converters) {
      for (const row of converter.rows(0, batch.numRows)) rows.push([...row])
    }
    if (rows.length === 0) {
      return yield* invalidArgument("no parameter rows are bound to the query")
    }
    let next = 0
    const more: NextOutcome = Effect.suspend(() =>
      next >= rows.length ? Effect.succeed(undefined) : executeRows(ctx, statement, [rows[next]!], true, next++, names)
    )
    const first = yield* more
    if (first === undefined || first._tag !== "Rows") {
      yield* drop
      return { _tag: "Count" as const, rowsAffected: first?._tag === "Count" ? first.rowsAffected : -1 }
    }
    return yield* cursorResult(ctx, first, options, more, drop)
  })

/** Runs one statement: EXECUTE_DIRECT, or PREPARE and EXECUTE when parameters are bound; a DDL drops the cached INSERTs. @category operations @since 0.2.0 */
export const execute = (
  ctx: ConnectionContext,
  { intent, options, parameters, sql }: ExecuteRequest
): Effect.Effect<DriverResult, AdbcError, Scope.Scope> =>
  tracked(ctx, Effect.gen(function*() {
    const text = normalizeSql(sql)
    if (parameters !== undefined && parameters.schema.fields.length > 0) {
      return yield* executeWithParameters(ctx, text, parameters, options, intent)
    }
    const outcome = yield* Hdb.executeDirect(ctx.client, text)
    if (outcome._tag === "Rows") return yield* cursorResult(ctx, outcome, options, Effect.succeed(undefined), Effect.void)
    if (outcome.rowsAffected < 0) yield* clearInserts(ctx)
    return outcome
  }))

/** Result schema of a statement, from PREPARE (no execution). @category operations @since 0.2.0 */
export const describeStatement = (ctx: ConnectionContext, sql: string): Effect.Effect<Arrow.Schema, AdbcError> =>
  Effect.acquireUseRelease(
    Hdb.prepare(ctx.client, normalizeSql(sql)),
    (statement) =>
      Effect.map(mapColumns([...(statement.resultSetMetadata ?? [])]), (cols) => new Arrow.Schema(cols.map((c) => c.field))),
    Hdb.dropStatement
  )

/** Parameter schema of a statement, from PREPARE (no execution); a parameter type without mapping is null. @category operations @since 0.2.0 */
export const parameterSchema = (ctx: ConnectionContext, sql: string): Effect.Effect<Arrow.Schema, AdbcError> =>
  Effect.acquireUseRelease(
    Hdb.prepare(ctx.client, normalizeSql(sql)),
    (statement) =>
      Effect.gen(function*() {
        const inputs = statement.parameterMetadata.filter((p) => p.ioType === IO_INPUT || p.ioType === IO_IN_OUT)
        const fields: Array<Arrow.Field> = []
        for (const p of inputs) {
          const mapped = arrowColumns([{
            name: p.name ?? "",
            dataType: p.dataType,
            length: p.length,
            fraction: p.fraction,
            nullable: true
          }])
          fields.push(
            Result.isSuccess(mapped) ? mapped.success[0]!.field : new Arrow.Field(p.name ?? "", new Arrow.Null(), true)
          )
        }
        return new Arrow.Schema(fields)
      }),
    Hdb.dropStatement
  )
