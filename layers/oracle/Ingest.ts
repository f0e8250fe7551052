/**
 * The Oracle driver's bulk insert: the target's schema, and the batches' rows gathered into executeMany calls of
 * `redo.statement.insert_batch_rows` rows (IngestCalls.ts), each call either encoded straight from the Arrow columns
 * (IngestEncoder.ts, sent through EncodedBinds.ts; the next call is encoded while the server inserts one) or bound
 * through oracledb's own encoder.
 *
 * An ingest carries state between its steps, in an {@link IngestContext}: the string columns' limits learnt when the
 * target is described or created (the encoder refuses a value longer than its column takes), and the rows held back
 * for the next call. The core's ingest port (src/Driver.ts `DriverIngest`) has no value that lives for one ingest, so
 * the driver makes one: `describeTarget`, the first step the core runs for every ingest, starts a new context, and
 * the later steps (create, insert, finish) of that ingest are given it; nothing of it outlives the next ingest.
 *
 * An encoded call stays in flight across the core's batches: it is joined by the next call, by `finishInsert`, or
 * by `stopInsert` (the core's step before its rollback on failure or interruption, which breaks it when interrupted),
 * so the rows of the next batches are encoded while the server inserts the call's.
 *
 * @since 0.1.0
 */
import type * as Arrow from "apache-arrow"
import { Deferred, Effect, Fiber, Result } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import type { DriverIngest, IngestColumn, IngestTarget } from "../../src/Driver.ts"
import type { ResolvedOptions } from "../../src/Options.ts"
import { type ConnectionContext, tracked } from "./ConnectionContext.ts"
import * as DbCalls from "./DbCalls.ts"
import * as DbPatches from "./DbPatches.ts"
import * as Ddl from "./Ddl.ts"
import { executeManyEncoded, executeManyRows, SEAM_ORACLEDB_VERSION, seamInfo, wireOrder } from "./EncodedBinds.ts"
import { fromRowError } from "./Errors.ts"
import { addEncoded, addRows, callRows, type EncodedCall, joinsEncoded, joinsRows, joinedRows, type PendingCall, type RowsCall } from "./IngestCalls.ts"
import { type StringLimit, stringLimitOfType } from "./IngestBytes.ts"
import { batchEncoders, type EncodePlan, encodeRows } from "./IngestEncoder.ts"
import { tableSchema } from "./Metadata.ts"
import * as Opt from "./OracleOptions.ts"
import { bindRows, ingestColumns } from "./Params.ts"
import * as ParseAhead from "./ParseAhead.ts"
import { TYPE_NAME_METADATA } from "./ReadTypes.ts"
import { ingestColumnType, isCompatible } from "./WriteTypes.ts"

/**
 * The state of one ingest, from its `describeTarget` to its `finishInsert`.
 *
 * @category models
 * @since 0.1.0
 */
export interface IngestContext {
  /** Per target: its string columns' limits (NVARCHAR2(2000) when ingest created it, else as described). */
  readonly stringLimits: Map<string, Map<string, StringLimit>>
  /** The ingest rows gathered for the next database call (IngestCalls.ts), sent once it holds insert_batch_rows. */
  pending: PendingCall | undefined
  /** The encoded call sent and not joined yet (its fiber answers the rows it inserted). */
  inFlight: Fiber.Fiber<number, AdbcError> | undefined
}

/** A new ingest's context: no limits known, no rows held, no call in flight. @category constructors @since 0.1.0 */
export const makeIngestContext = (): IngestContext => ({ stringLimits: new Map(), pending: undefined, inFlight: undefined })

/** The bind definitions of an encoded call's columns. @category ingest @since 0.1.0 */
export const encodedBindDefs = (call: EncodedCall) =>
  call.types.map((type, i) => ({
    type: DbPatches.oracledb[`DB_TYPE_${type}`]!,
    dir: DbPatches.oracledb.BIND_IN,
    ...(type === "VARCHAR" || type === "RAW" ? { maxSize: call.maxSizes[i]! } : {})
  }))

/**
 * The target table's schema, or undefined when it does not exist; its string columns' limits are kept in the
 * ingest's context.
 *
 * @category operations
 * @since 0.1.0
 */
export const describeTarget = (ctx: ConnectionContext, ingest: IngestContext, target: IngestTarget): Effect.Effect<Arrow.Schema | undefined, AdbcError> =>
  tableSchema(ctx, undefined, target.dbSchema, target.table).pipe(
    Effect.tap((schema) =>
      Effect.sync(() => {
        const limits = new Map<string, StringLimit>()
        for (const f of schema.fields) {
          const limit = stringLimitOfType(f.metadata.get(TYPE_NAME_METADATA) ?? "")
          if (limit !== undefined) limits.set(f.name, limit)
        }
        ingest.stringLimits.set(Ddl.qualifiedTarget(target), limits)
      })),
    Effect.map((schema): Arrow.Schema | undefined => schema),
    Effect.catchIf((e) => e.status === "NOT_FOUND", () => Effect.succeed(undefined))
  )

/**
 * `CREATE TABLE` of an ingest target; the created string columns' limits are kept in the ingest's context.
 *
 * @category operations
 * @since 0.1.0
 */
export const createTableSql = (ingest: IngestContext, target: IngestTarget, columns: ReadonlyArray<IngestColumn>, options: ResolvedOptions) => {
  ingest.stringLimits.set(
    Ddl.qualifiedTarget(target),
    new Map(columns.flatMap((c) => {
      const limit = stringLimitOfType(c.sqlType)
      return limit === undefined ? [] : [[c.field.name, limit] as const]
    }))
  )
  return Ddl.createTableSql(target, columns, options.get(Opt.IngestTablespace))
}

/** `DROP TABLE` of an ingest target, whose limits the ingest's context forgets. @category operations @since 0.1.0 */
export const dropTableSql = (ingest: IngestContext, target: IngestTarget) => {
  ingest.stringLimits.delete(Ddl.qualifiedTarget(target))
  return Ddl.dropTableSql(target)
}

/**
 * Sends the gathered rows in one executeMany (if any); returns the rows inserted.
 *
 * @category operations
 * @since 0.1.0
 */
export const sendPending = (ctx: ConnectionContext, ingest: IngestContext): Effect.Effect<number, AdbcError> => Effect.suspend(() => {
  const call = ingest.pending
  ingest.pending = undefined
  return call === undefined ? Effect.succeed(0) : sendCall(ctx, call)
})

/**
 * Sends one call's rows in one executeMany; returns the rows inserted. `onWritten` is called once the encoded rows
 * are in oracledb's packets (fast path only).
 *
 * @category operations
 * @since 0.1.0
 */
export const sendCall = (ctx: ConnectionContext, call: PendingCall, onWritten?: () => void): Effect.Effect<number, AdbcError> => Effect.suspend(() => {
  const { connection } = ctx
  const rows = callRows(call)
  const named = (e: unknown) => Promise.reject(fromRowError(e, call.firstRow))
  if (call._tag === "Encoded") {
    const seam = seamInfo(connection, DbPatches.oracledb.versionString)!
    const bindDefs = encodedBindDefs(call)
    return Effect.map(
      DbCalls.callExecute(connection, call.sql, () =>
        executeManyEncoded(connection, call.sql, joinedRows(call), bindDefs, seam.maxStringSize, { autoCommit: ctx.autocommit }, onWritten)
          .catch(named)),
      (result) => result.rowsAffected ?? rows
    )
  }
  return Effect.map(
    DbCalls.callExecute(connection, call.sql, () =>
      executeManyRows(connection, call.sql, call.rows, { autoCommit: ctx.autocommit, bindDefs: call.defs }).catch(named)),
    (result) => result.rowsAffected ?? rows
  )
})

/**
 * All rows of a batch of IN parameters of `sql` as one encoded call (IngestEncoder.ts), with its bind definitions;
 * undefined where the fast path does not take the batch (no seam, a column it refuses or cannot encode, parameter
 * metadata), so that oracledb's encoder binds it.
 *
 * @category operations
 * @since 0.1.0
 */
export const encodedCall = (ctx: ConnectionContext, sql: string, batch: Arrow.RecordBatch) => {
  const seam = seamInfo(ctx.connection, DbPatches.oracledb.versionString)
  if (seam === undefined || batch.numRows === 0 || batch.schema.fields.some((f) => f.metadata.size > 0)) return undefined
  const plan = batchEncoders(batch, () => undefined, seam.utf8Database, 0)
  if (Result.isFailure(plan) || plan.success._tag !== "Encoded") return undefined
  const encoders = plan.success.encoders
  const types = encoders.map((e) => e.type)
  const maxSizes = encoders.map((e) => (e.type === "VARCHAR" || e.type === "RAW" ? e.maxSize : 0))
  const long = maxSizes.map((m) => m > seam.maxStringSize)
  const wire = wireOrder(maxSizes, seam.maxStringSize).map((i) => encoders[i]!)
  const call: EncodedCall = { _tag: "Encoded", sql, firstRow: 0, rows: 0, segments: [], types, maxSizes: maxSizes.map(() => 0), long }
  try {
    addEncoded(call, encodeRows(wire, 0, batch.numRows), maxSizes)
  } catch {
    return undefined
  }
  return { call, bindDefs: encodedBindDefs(call), maxStringSize: seam.maxStringSize }
}

/**
 * Starts sending the gathered encoded rows in a fiber of its own, kept as the ingest's call in flight, and returns
 * once oracledb has written them (or the call ended): the caller encodes the next call's rows while the server
 * inserts these, as the HANA driver does (layers/hana/EncodedInsert.ts `insertEncoded`), and joins the call
 * ({@link joinInFlight}) before its next one. Encoding before the rows are written would hold up oracledb's own
 * writing, which runs on the same thread. The fiber is detached: it outlives the batch that started it, and only
 * a join or {@link stopInsert} ends it.
 *
 * @category operations
 * @since 0.1.0
 */
export const startPending = (ctx: ConnectionContext, ingest: IngestContext): Effect.Effect<void> =>
  Effect.uninterruptibleMask((restore) =>
    Effect.gen(function*() {
      const call = ingest.pending
      ingest.pending = undefined
      if (call === undefined) return
      const written = Deferred.makeUnsafe<void>()
      ingest.inFlight = yield* Effect.forkDetach(tracked(ctx,
        Effect.ensuring(sendCall(ctx, call, () => Deferred.doneUnsafe(written, Effect.void)), Deferred.succeed(written, undefined))
      ))
      yield* restore(Deferred.await(written))
    })
  )

/**
 * Joins the ingest's call in flight: the rows it inserted (0 without one), or its error. An interrupted join leaves
 * the call in flight, for {@link stopInsert} to break.
 *
 * @category operations
 * @since 0.1.0
 */
export const joinInFlight = (ingest: IngestContext): Effect.Effect<number, AdbcError> =>
  Effect.suspend(() => {
    const fiber = ingest.inFlight
    if (fiber === undefined) return Effect.succeed(0)
    return Effect.flatMap(Effect.exit(Fiber.join(fiber)), (exit) => {
      if (ingest.inFlight === fiber) ingest.inFlight = undefined
      return exit
    })
  })

/**
 * Ends an ingest that stopped early, before the core's rollback: its held rows are dropped, and its call in flight is
 * broken on the server when `interrupted` (DbCalls.ts `call`: a break, bounded, the connection dropped when the
 * server does not answer), else awaited, failing with its error (its rows come before whatever stopped the ingest).
 *
 * @category operations
 * @since 0.1.0
 */
export const stopInsert = (ingest: IngestContext, interrupted: boolean): Effect.Effect<void, AdbcError> =>
  Effect.suspend(() => {
    ingest.pending = undefined
    const fiber = ingest.inFlight
    if (fiber === undefined) return Effect.void
    if (!interrupted) return Effect.asVoid(joinInFlight(ingest))
    ingest.inFlight = undefined
    return Effect.asVoid(Fiber.interrupt(fiber))
  })

/**
 * Adds a batch's rows to the gathered call, sending each call as it reaches `insert_batch_rows` rows (a batch may
 * fill several, or none); returns the rows inserted by the calls sent. A failing batch drops the held rows, as
 * does the first batch of an ingest; {@link finishInsert} sends the rest.
 *
 * @category operations
 * @since 0.1.0
 */
export const insertBatch = (
  ctx: ConnectionContext,
  ingest: IngestContext,
  target: IngestTarget,
  batch: Arrow.RecordBatch,
  options: ResolvedOptions,
  firstRow: number
) =>
  tracked(ctx, Effect.onError(insertRows(ctx, ingest, target, batch, options, firstRow), () =>
    Effect.sync(() => {
      ingest.pending = undefined
    })))

/** {@link insertBatch}'s work. @category operations @since 0.1.0 */
export const insertRows = (
  ctx: ConnectionContext,
  ingest: IngestContext,
  target: IngestTarget,
  batch: Arrow.RecordBatch,
  options: ResolvedOptions,
  firstRow: number
) =>
  Effect.gen(function*() {
    const { connection } = ctx
    if (firstRow === 0) ingest.pending = undefined
    if (batch.numRows === 0) return 0
    const limits = ingest.stringLimits.get(Ddl.qualifiedTarget(target))
    const limitOf = (column: string) => limits?.get(column)
    const sql = Ddl.insertSql(target, batch.schema.fields.map((f) => f.name))
    yield* ParseAhead.openCursor(connection, sql)
    const perCall = options.value(Opt.InsertBatchRows)
    const seam = seamInfo(connection, DbPatches.oracledb.versionString)
    const plan: EncodePlan = seam === undefined
      ? { _tag: "Fallback", reason: `the ingest seam needs node-oracledb ${SEAM_ORACLEDB_VERSION} in thin mode (this is ${DbPatches.oracledb.versionString})` }
      : yield* Effect.fromResult(batchEncoders(batch, limitOf, seam.utf8Database, firstRow))
    yield* Effect.logDebug(
      plan._tag === "Encoded"
        ? "oracle: ingest batch encoded from Arrow columns"
        : `oracle: ingest batch bound through oracledb's encoder: ${plan.reason}`
    ).pipe(Effect.annotateLogs({ "oracle.ingest.path": plan._tag === "Encoded" ? "encoded" : "oracledb", "oracle.ingest.rows": batch.numRows }))
    let total = 0
    if (seam !== undefined && plan._tag === "Encoded") {
      // the fast path: bind rows encoded from the Arrow buffers (IngestEncoder.ts, EncodedBinds.ts)
      const encoders = plan.encoders
      const types = encoders.map((e) => e.type)
      const maxSizes = encoders.map((e) => (e.type === "VARCHAR" || e.type === "RAW" ? e.maxSize : 0))
      const long = maxSizes.map((m) => m > seam.maxStringSize)
      const wire = wireOrder(maxSizes, seam.maxStringSize).map((i) => encoders[i]!)
      if (ingest.pending !== undefined && !joinsEncoded(ingest.pending, sql, types, long)) {
        total += yield* joinInFlight(ingest)
        total += yield* sendPending(ctx, ingest)
      }
      // Each full call is sent in flight (startPending) and joined only when the next one is full, by finishInsert or
      // by stopInsert, so the next rows, of this batch or the next ones, are encoded while the server inserts it.
      for (let start = 0; start < batch.numRows;) {
        const call: EncodedCall = ingest.pending !== undefined && joinsEncoded(ingest.pending, sql, types, long)
          ? ingest.pending
          : { _tag: "Encoded", sql, firstRow: firstRow + start, rows: 0, segments: [], types, maxSizes: maxSizes.map(() => 0), long }
        ingest.pending = call
        const end = Math.min(batch.numRows, start + perCall - call.rows)
        addEncoded(call, encodeRows(wire, start, end), maxSizes)
        start = end
        if (call.rows < perCall) continue
        total += yield* joinInFlight(ingest)
        yield* startPending(ctx, ingest)
      }
      return total
    }
    const structType = options.value(Opt.IngestStructType)
    const columns = yield* Effect.fromResult(ingestColumns(batch, structType, limitOf, firstRow))
    const defs = columns.map((c) => c.def)
    total += yield* joinInFlight(ingest)
    if (ingest.pending !== undefined && !joinsRows(ingest.pending, sql, defs)) total += yield* sendPending(ctx, ingest)
    for (let start = 0; start < batch.numRows;) {
      const call: RowsCall = ingest.pending !== undefined && joinsRows(ingest.pending, sql, defs)
        ? ingest.pending
        : { _tag: "Rows", sql, firstRow: firstRow + start, rows: [], defs: [...defs] }
      ingest.pending = call
      const end = Math.min(batch.numRows, start + perCall - call.rows.length)
      addRows(call, bindRows(columns, start, end), defs)
      start = end
      if (call.rows.length >= perCall) total += yield* sendPending(ctx, ingest)
    }
    return total
  })

/**
 * Joins the call in flight and sends the rows of the last call of an ingest whose batches held `rows` rows: held rows
 * that do not end there are a failed ingest's (this one passed no batch), dropped unsent.
 *
 * @category operations
 * @since 0.1.0
 */
export const finishInsert = (ctx: ConnectionContext, ingest: IngestContext, _target: IngestTarget, rows: number) =>
  tracked(ctx, Effect.gen(function*() {
    const joined = yield* joinInFlight(ingest)
    if (ingest.pending !== undefined && ingest.pending.firstRow + callRows(ingest.pending) !== rows) ingest.pending = undefined
    return joined + (yield* sendPending(ctx, ingest))
  }))

/**
 * The ingest part of the driver connection. Each ingest gets a new {@link IngestContext} when the core describes its
 * target (its first step), which its later steps share.
 *
 * @category constructors
 * @since 0.1.0
 */
export const makeIngest = (ctx: ConnectionContext): DriverIngest => {
  let ingest = makeIngestContext()
  return {
    columnType: (field, options) => Effect.fromResult(ingestColumnType(field, options.value(Opt.IngestStructType))),
    createTableSql: (target, columns, options) => createTableSql(ingest, target, columns, options),
    dropTableSql: (target) => dropTableSql(ingest, target),
    describeTarget: (target) =>
      Effect.suspend(() => {
        // a call a stopped ingest left in flight (the core stops it first; this is the driver's own guard) is broken
        const previous = ingest
        ingest = makeIngestContext()
        return Effect.andThen(Effect.ignore(stopInsert(previous, true)), describeTarget(ctx, ingest, target))
      }),
    isCompatible,
    // Oracle DDL commits implicitly: the core builds a new table and renames it into place.
    ddl: { _tag: "BuildAndSwap", renameTableSql: Ddl.renameTableSql },
    insertBatch: (target, batch, options, firstRow) => insertBatch(ctx, ingest, target, batch, options, firstRow),
    finishInsert: (target, _options, rows) => finishInsert(ctx, ingest, target, rows),
    stopInsert: (interrupted) => Effect.suspend(() => stopInsert(ingest, interrupted))
  }
}
