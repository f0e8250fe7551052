/**
 * Internal: runs a bulk ingest in the four ADBC modes (see src/Ingest.ts for the public side). The core decides
 * what each mode does and keeps the work atomic; the driver supplies the type mapping, the DDL text and the insert path.
 */
import * as Arrow from "apache-arrow"
import { Cause, Effect, Exit, Result, Stream } from "effect"
import { type AdbcError, alreadyExists, invalidArgument, invalidState, notFound } from "../AdbcError.ts"
import { type IngestColumn, type IngestTarget, unsupported } from "../Driver.ts"
import { valueChecker } from "./ingestChecks.ts"
import type { Session } from "./session.ts"
import { Attr, batchBytes, type BatchTracker, currentBatchTracker, measured, type SpanAttributes, spanName, traced } from "./telemetry.ts"
import { decodeOption, type OptionSpec, type ResolvedOptions } from "../Options.ts"
import * as Std from "../StandardOptions.ts"
import type { IngestData, IngestOptions } from "../Ingest.ts"

/**
 * Internal: one ingest, typed: where the rows go and in which ADBC mode. {@link IngestOptions} and the
 * `adbc.ingest.*` statement options both become one.
 *
 * @category internals
 * @since 0.1.0
 * @internal
 */
export interface IngestRequest {
  readonly target: IngestTarget
  readonly mode: Std.IngestMode
}

/** `value` checked as `spec` would check its string form, so both paths fail alike on a bad value. */
const checked = <A>(spec: OptionSpec<A>, value: A, text: string): Result.Result<A, AdbcError> =>
  Result.map(decodeOption(spec, text), () => value)

/**
 * Internal: the request {@link IngestOptions} describe; a bad value fails INVALID_ARGUMENT naming its
 * `adbc.ingest.*` key and what is accepted.
 *
 * @category internals
 * @since 0.1.0
 * @internal
 */
export const requestOf = (options: IngestOptions): Result.Result<IngestRequest, AdbcError> =>
  Result.gen(function*() {
    const table = yield* checked(Std.IngestTargetTable, options.targetTable, options.targetTable)
    const mode = options.mode === undefined
      ? Std.IngestMode.default
      : yield* decodeOption(Std.IngestMode, `adbc.ingest.mode.${options.mode}`)
    const temporary = options.temporary ?? Std.IngestTemporary.default
    const dbSchema = options.targetDbSchema === undefined
      ? undefined
      : yield* checked(Std.IngestTargetDbSchema, options.targetDbSchema, options.targetDbSchema)
    const catalog = options.targetCatalog === undefined
      ? undefined
      : yield* checked(Std.IngestTargetCatalog, options.targetCatalog, options.targetCatalog)
    return { target: { table, dbSchema: temporary ? undefined : dbSchema, catalog, temporary }, mode }
  })

/**
 * Internal: the request a statement's `adbc.ingest.*` options describe (values were checked when set).
 *
 * @category internals
 * @since 0.1.0
 * @internal
 */
export const requestFromOptions = (options: ResolvedOptions): Result.Result<IngestRequest, AdbcError> => {
  const table = options.get(Std.IngestTargetTable)
  if (table === undefined) return Result.fail(invalidArgument(`bulk ingest needs option ${Std.IngestTargetTable.key}`))
  const temporary = options.value(Std.IngestTemporary)
  const dbSchema = temporary ? undefined : options.get(Std.IngestTargetDbSchema)
  const catalog = options.get(Std.IngestTargetCatalog)
  return Result.succeed({ target: { table, dbSchema, catalog, temporary }, mode: options.value(Std.IngestMode) })
}

const describeTarget = (target: IngestTarget): string =>
  (target.dbSchema !== undefined ? `${target.dbSchema}.` : "") + target.table

const checkCompatible = (target: IngestTarget, incoming: Arrow.Schema, existing: Arrow.Schema, session: Session) => {
  const byName = new Map(existing.fields.map((f) => [f.name, f]))
  const problems: Array<string> = []
  for (const field of incoming.fields) {
    const column = byName.get(field.name)
    if (column === undefined) problems.push(`column ${field.name} does not exist`)
    else if (!session.connection.ingest.isCompatible(field, column)) {
      problems.push(`column ${field.name} is ${column.type}, incoming data is ${field.type}`)
    }
    byName.delete(field.name)
  }
  for (const rest of byName.values()) {
    if (!rest.nullable) problems.push(`NOT NULL column ${rest.name} is missing from the data`)
  }
  return problems.length === 0
    ? Effect.void
    : Effect.fail(
      alreadyExists(`table ${describeTarget(target)} exists with an incompatible schema: ${problems.join("; ")}`)
    )
}

/** A field with a dictionary-encoded type replaced by its value type (other fields unchanged). */
const valueField = (field: Arrow.Field): Arrow.Field =>
  Arrow.DataType.isDictionary(field.type)
    ? new Arrow.Field(field.name, field.type.dictionary, field.nullable, field.metadata)
    : field

/** The schema ingest creates and checks against: dictionary-encoded columns count as their value type. */
const valueSchema = (schema: Arrow.Schema): Arrow.Schema =>
  schema.fields.some((f) => Arrow.DataType.isDictionary(f.type))
    ? new Arrow.Schema(schema.fields.map(valueField), schema.metadata)
    : schema

/**
 * A batch checked against the declared schema (same column names in the same order, same types once dictionaries
 * are decoded), with its dictionary-encoded columns decoded; a mismatch fails INVALID_ARGUMENT naming the column.
 */
const checkedBatch = (declared: Arrow.Schema, batch: Arrow.RecordBatch): Result.Result<Arrow.RecordBatch, AdbcError> => {
  const fields = batch.schema.fields
  for (let i = 0; i < Math.max(fields.length, declared.fields.length); i++) {
    const want = declared.fields[i]
    const got = fields[i]
    if (want === undefined) {
      return Result.fail(invalidArgument(`a batch has column ${got!.name}, which the declared schema does not have`))
    }
    if (got === undefined || got.name !== want.name) {
      return Result.fail(invalidArgument(
        `a batch has ${got === undefined ? "no" : `column ${got.name} instead of`} column ${want.name} at position ${i + 1}; batches must have the declared schema`
      ))
    }
    if (!Arrow.util.compareTypes(valueField(got).type, want.type)) {
      return Result.fail(invalidArgument(
        `column ${want.name}: a batch holds ${valueField(got).type}, the declared schema says ${want.type}`
      ))
    }
  }
  if (!fields.some((f) => Arrow.DataType.isDictionary(f.type))) return Result.succeed(batch)
  const children = fields.map((field, i) => {
    const column = batch.getChildAt(i)!
    if (!Arrow.DataType.isDictionary(field.type)) return column.data[0]!
    const builder = Arrow.makeBuilder({ type: field.type.dictionary, nullValues: [null, undefined] })
    for (const value of column) builder.append(value)
    return builder.finish().flush()
  })
  return Result.succeed(
    new Arrow.RecordBatch(declared, Arrow.makeData({ type: new Arrow.Struct(declared.fields), length: batch.numRows, nullCount: 0, children }))
  )
}

/**
 * Internal: runs an ingest with the options in force (the driver's own, such as its insert batch size). The ingest holds the connection for its whole duration, so
 * no other fiber's statement runs inside its transaction.
 *
 * @category internals
 * @since 0.1.0
 * @internal
 */
export const runIngest = (
  session: Session,
  options: ResolvedOptions,
  request: IngestRequest,
  data: IngestData
): Effect.Effect<number, AdbcError> => {
  const collection = collectionName(request.target)
  const attributes: SpanAttributes = {
    ...session.telemetry.attributes,
    [Attr.operationName]: "ingest",
    [Attr.ingestMode]: request.mode,
    ...(collection !== undefined ? { [Attr.collectionName]: collection } : {})
  }
  return traced(
    session.telemetry,
    spanName(attributes, collection),
    attributes,
    measured(
      session.telemetry,
      attributes,
      Effect.flatMap(currentBatchTracker({ operation: "ingest", target: collection }, undefined, attributes), (tracker) =>
        session.exclusive(ingestHoldingConnection(session, options, request, data, tracker)).pipe(Effect.tap(() => tracker.done)))
    ),
    (rows): SpanAttributes => ({ [Attr.affectedRows]: rows })
  )
}

/** The target table as telemetry names it: `schema.table` when a schema is given (and the table is not temporary). */
const collectionName = (target: IngestTarget): string =>
  target.dbSchema === undefined ? target.table : `${target.dbSchema}.${target.table}`

/** How long the background drop of a side table left by a dropped session may try. */
const SIDE_TABLE_DROP_MS = 30_000

/** Drops `table` from a new connection of the same driver and options; never fails. */
const dropOnNewConnection = (session: Session, options: ResolvedOptions, table: IngestTarget) =>
  Effect.scoped(
    Effect.flatMap(session.driver.connect(session.options()), (connection) =>
      Effect.scoped(
        connection.execute({ sql: connection.ingest.dropTableSql(table), parameters: undefined, options, intent: "update" })
      ))
  ).pipe(Effect.timeout(SIDE_TABLE_DROP_MS), Effect.ignore)

/** A name for a table that lives only during one ingest (build-and-swap), unlikely to clash with any other. */
const sideTableName = (table: string, role: "NEW" | "OLD") =>
  `${table}__ADBC_${role}_${Math.random().toString(36).slice(2, 8).toUpperCase()}`

const ingestHoldingConnection = Effect.fnUntraced(function*(
  session: Session,
  options: ResolvedOptions,
  { mode, target }: IngestRequest,
  data: IngestData,
  tracker: BatchTracker
): Effect.fn.Return<number, AdbcError> {
  const { driver, connection } = session
  if (target.catalog !== undefined && connection.ingest.targets?.catalog !== true) {
    return yield* unsupported(driver, `ingest with a target catalog (${Std.IngestTargetCatalog.key})`)
  }
  if (target.temporary && connection.ingest.targets?.temporary !== true) {
    return yield* unsupported(driver, `ingest into a temporary table (${Std.IngestTemporary.key})`)
  }

  // Type mapping first: an unsupported column fails before any I/O.
  const schema = valueSchema(data.schema)
  const columns: Array<IngestColumn> = []
  for (const field of schema.fields) {
    const sqlType = yield* connection.ingest.columnType(field, options)
    // a null-typed column holds nothing but NULLs, whatever its field says (apache-arrow marks such fields non-nullable)
    columns.push({ field, sqlType, nullable: field.nullable || Arrow.DataType.isNull(field.type) })
  }

  const existing = yield* session.request(connection.ingest.describeTarget(target))
  const exec = (sql: string) =>
    session.request(Effect.scoped(connection.execute({ sql, parameters: undefined, options, intent: "update" })))

  let create = false
  let dropFirst = false
  let appendTo: Arrow.Schema | undefined
  switch (mode) {
    case "adbc.ingest.mode.create":
      if (existing !== undefined) return yield* alreadyExists(`table ${describeTarget(target)} already exists`)
      create = true
      break
    case "adbc.ingest.mode.append":
      if (existing === undefined) return yield* notFound(`table ${describeTarget(target)} does not exist`)
      yield* checkCompatible(target, schema, existing, session)
      appendTo = existing
      break
    case "adbc.ingest.mode.replace":
      dropFirst = existing !== undefined
      create = true
      break
    case "adbc.ingest.mode.create_append":
      if (existing === undefined) create = true
      else {
        yield* checkCompatible(target, schema, existing, session)
        appendTo = existing
      }
      break
  }

  const ddl = connection.ingest.ddl
  if (create && ddl?._tag === "BuildAndSwap" && !session.state.autocommit) {
    // Its CREATE and RENAME would commit the caller's open transaction (its earlier work included) and could not be
    // rolled back with it.
    return yield* invalidState(
      `the ${driver.name} driver cannot run a ${mode.replace("adbc.ingest.mode.", "")} ingest into ${describeTarget(target)} ` +
        `inside an open transaction: its DDL (CREATE, RENAME) commits implicitly, which would commit the transaction's ` +
        `earlier work and could not be rolled back; ingest outside the transaction, or create the table first and use ` +
        `mode append`
    )
  }

  /**
   * `insert`, whose driver call still in flight (if any) is ended before the rollback of {@link atomically}: awaited
   * after a failure (its own error, an earlier row, wins), broken after an interruption or a defect.
   */
  const stoppingInsert = <A>(insert: Effect.Effect<A, AdbcError>): Effect.Effect<A, AdbcError> => {
    const stop = connection.ingest.stopInsert
    if (stop === undefined) return insert
    return insert.pipe(
      Effect.catch((error) => Effect.andThen(session.guard(stop(false)), Effect.fail(error))),
      Effect.onError((cause) =>
        Cause.hasInterrupts(cause) || Cause.hasDies(cause) ? Effect.ignore(session.guard(stop(true))) : Effect.void
      )
    )
  }

  // Values the target would store changed (lost digits, invalid UTF-8) fail before their batch is sent.
  const checkValues = valueChecker(schema, appendTo)
  const insertAll = (into: IngestTarget) =>
    Stream.runFoldEffect(
      data.batches,
      () => ({ rows: 0, inserted: 0 }),
      (seen, raw) =>
        raw.numRows === 0
          ? Effect.succeed(seen)
          : Effect.fromResult(checkedBatch(schema, raw)).pipe(
            Effect.tap((batch) => Effect.fromResult(checkValues(batch, seen.rows))),
            Effect.flatMap((batch) =>
              session.request(connection.ingest.insertBatch(into, batch, options, seen.rows)).pipe(
                Effect.tap(() => tracker.batch(raw.numRows, batchBytes(batch)))
              )
            ),
            Effect.map((n) => ({ rows: seen.rows + raw.numRows, inserted: seen.inserted + n }))
          )
    ).pipe(
      Effect.flatMap((seen) => {
        const finish = connection.ingest.finishInsert
        return finish === undefined
          ? Effect.succeed(seen.inserted)
          : Effect.map(session.request(finish(into, options, seen.rows)), (n) => seen.inserted + n)
      }),
      stoppingInsert
    )

  /**
   * Runs `work` so that its writes commit together or not at all (running `undo` too on failure). Cleanup is bounded
   * ({@link Session.settle}): on a silent server the session is dropped, which rolls back on the server.
   */
  const atomically = <A>(work: Effect.Effect<A, AdbcError>, undo: Effect.Effect<unknown, AdbcError> = Effect.void) => {
    const undone = (rollback: Effect.Effect<unknown, AdbcError>) => (cause: Cause.Cause<AdbcError>) =>
      Effect.andThen(
        session.settle(rollback, Cause.hasInterrupts(cause)),
        session.settle(undo, Cause.hasInterrupts(cause))
      )
    if (session.state.autocommit) {
      // Our own transaction: commit all at once, or nothing.
      return session.request(connection.setAutocommit(false)).pipe(
        Effect.andThen(work),
        Effect.tap(() => session.request(connection.commit)),
        Effect.onError(undone(session.request(connection.rollback))),
        Effect.onExit((exit) => session.settle(session.request(connection.setAutocommit(true)), Exit.hasInterrupts(exit)))
      )
    }
    // Inside the caller's transaction: undo only our own work.
    const savepoint = "ADBC_INGEST"
    const savepoints = connection.savepoints
    const rollback = savepoints !== undefined
      ? session.request(savepoints.rollbackTo(savepoint))
      : session.request(connection.rollback)
    return (savepoints !== undefined ? session.request(savepoints.create(savepoint)) : Effect.void).pipe(
      Effect.andThen(work),
      Effect.onError(undone(rollback))
    )
  }

  if (!create) return yield* atomically(insertAll(target))

  if (ddl?._tag === "Transactional") {
    // DROP, CREATE and the rows share one transaction: a rollback restores the old table or removes the new one.
    return yield* session.request(ddl.enable).pipe(
      Effect.andThen(atomically(
        Effect.gen(function*() {
          if (dropFirst) yield* exec(connection.ingest.dropTableSql(target))
          yield* exec(connection.ingest.createTableSql(target, columns, options))
          return yield* insertAll(target)
        })
      )),
      Effect.onExit((exit) => session.settle(session.request(ddl.restore), Exit.hasInterrupts(exit)))
    )
  }

  if (ddl?._tag === "BuildAndSwap" && !target.temporary) {
    const table = target.table
    // DDL commits implicitly: fill a new table, then rename it into place; the target is untouched until then.
    const fresh: IngestTarget = { ...target, table: sideTableName(table, "NEW") }
    let freshDropped = false
    const dropFresh = Effect.ignore(exec(connection.ingest.dropTableSql(fresh)).pipe(Effect.tap(() =>
      Effect.sync(() => {
        freshDropped = true
      })
    )))
    yield* exec(connection.ingest.createTableSql(fresh, columns, options))
    const rows = yield* atomically(insertAll(fresh), dropFresh).pipe(
      // The session was dropped before it could drop the committed side table (a silent server): a new connection
      // drops it in the background, so that an interrupted caller still returns promptly.
      Effect.onError(() => freshDropped ? Effect.void : Effect.forkDetach(dropOnNewConnection(session, options, fresh)))
    )
    const swap = Effect.gen(function*() {
      if (!dropFirst) {
        return yield* exec(ddl.renameTableSql(fresh, table)).pipe(Effect.onError(() => dropFresh))
      }
      const old = sideTableName(table, "OLD")
      yield* exec(ddl.renameTableSql(target, old)).pipe(Effect.onError(() => dropFresh))
      yield* exec(ddl.renameTableSql(fresh, table)).pipe(
        Effect.onError(() =>
          Effect.ignore(exec(ddl.renameTableSql({ ...target, table: old }, table))).pipe(Effect.andThen(dropFresh))
        )
      )
      yield* Effect.ignore(exec(connection.ingest.dropTableSql({ ...target, table: old })))
    })
    yield* Effect.uninterruptible(swap)
    return rows
  }

  // No atomic DDL known for this driver: DDL runs on its own, undone by hand on failure (see docs/reliability.md).
  if (dropFirst) yield* exec(connection.ingest.dropTableSql(target))
  yield* exec(connection.ingest.createTableSql(target, columns, options))
  return yield* atomically(insertAll(target), exec(connection.ingest.dropTableSql(target)))
})
