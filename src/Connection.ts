/**
 * An open database connection: options, statements, catalog queries, transactions and bulk ingest.
 *
 * Lifetime: a connection lives in a Scope, and its readers are always released first: when the connection's scope
 * closes, every reader still open on it (even one held by an outer scope) has its cursor closed before the connection,
 * and such a reader's next pull fails INVALID_STATE. The explicit, ADBC-style {@link ConnectionShape.close} fails with
 * `cannot close connection while a statement reader is active` while a reader is still open.
 *
 * The main way to read is {@link query}: a Stream that opens its cursor when it runs and releases it when it ends,
 * fails or is interrupted. {@link executeQuery} opens a reader in the caller's Scope, for those who need the schema
 * before the first batch. The accessors below need a {@link Connection} in context, so a statement cannot be run
 * without one.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Cause, Context, Effect, Exit, Layer, Scope, Stream } from "effect"
import {
  type AdbcError,
  adbcError,
  fromUnknown,
  invalidArgument,
  invalidState,
  READER_ACTIVE_MESSAGE
} from "./AdbcError.ts"
import {
  AdbcVersion,
  buildGetInfo,
  buildGetObjects,
  buildTableTypes,
  type ObjectDepth,
  type GetObjectsFilters,
  InfoCode,
  InfoValue,
  isCatalogError,
  isObjectDepth
} from "./catalog/index.ts"
import { Database } from "./Database.ts"
import { unsupported } from "./Driver.ts"
import type { IngestData, IngestOptions } from "./Ingest.ts"
import * as Ingest from "./Ingest.ts"
import * as IngestRun from "./internal/ingest.ts"
import { makeSession, type Session } from "./internal/session.ts"
import { connectedTelemetry, connectionTelemetry, traced } from "./internal/telemetry.ts"
import { ARROW_VERSION } from "./internal/versions.ts"
import { getRaw, OptionStore } from "./Options.ts"
import { type ReaderShape, toTable } from "./Reader.ts"
import * as Std from "./StandardOptions.ts"
import * as Statement from "./Statement.ts"
import { makeStatement } from "./internal/statement.ts"

/**
 * Arguments of GetObjects.
 *
 * @category models
 * @since 0.1.0
 */
export interface GetObjectsArgs extends GetObjectsFilters {
  readonly depth: ObjectDepth
}

/**
 * An open connection.
 *
 * @category models
 * @since 0.1.0
 */
export interface ConnectionShape {
  readonly driverName: string
  readonly setOption: (key: string, value: string) => Effect.Effect<void, AdbcError>
  readonly getOption: (key: string) => Effect.Effect<string, AdbcError>
  /**
   * A new statement with optional statement-level options. It holds no server resource between calls: each
   * execution acquires and releases its own, and a reader it opens lives in the caller's Scope.
   */
  readonly statement: (options?: Readonly<Record<string, string>>) => Effect.Effect<Statement.StatementShape, AdbcError>
  /** Runs a query and opens a reader in the current scope (the schema is known before the first batch). */
  readonly executeQuery: (
    sql: string,
    options?: Readonly<Record<string, string>>
  ) => Effect.Effect<ReaderShape, AdbcError, Scope.Scope>
  /** Runs a query as a stream of batches: the cursor is opened when the stream runs and released when it ends. */
  readonly query: (
    sql: string,
    options?: Readonly<Record<string, string>>
  ) => Stream.Stream<Arrow.RecordBatch, AdbcError>
  /**
   * Runs a query and collects the whole result into an Arrow Table that carries the result's schema, also when no
   * row comes back (`new Arrow.Table(batches)` has no schema to give an empty batch list). The cursor is released
   * before the Table is returned.
   */
  readonly queryTable: (sql: string, options?: Readonly<Record<string, string>>) => Effect.Effect<Arrow.Table, AdbcError>
  /** Runs a statement that returns no rows; returns rows affected (-1 when unknown). */
  readonly execute: (sql: string, options?: Readonly<Record<string, string>>) => Effect.Effect<number, AdbcError>
  /** Bulk-ingests Arrow data; returns rows inserted. */
  readonly ingest: (data: IngestData, options: IngestOptions) => Effect.Effect<number, AdbcError>
  readonly getInfo: (codes?: ReadonlyArray<number>) => Effect.Effect<Arrow.RecordBatch, AdbcError>
  readonly getObjects: (args: GetObjectsArgs) => Effect.Effect<Arrow.RecordBatch, AdbcError>
  readonly getTableTypes: Effect.Effect<Arrow.RecordBatch, AdbcError>
  readonly getTableSchema: (
    catalog: string | undefined,
    dbSchema: string | undefined,
    table: string
  ) => Effect.Effect<Arrow.Schema, AdbcError>
  readonly commit: Effect.Effect<void, AdbcError>
  readonly rollback: Effect.Effect<void, AdbcError>
  /**
   * Runs `effect` as one transaction that holds the connection: other fibers' statements wait until it ends. It
   * commits when `effect` succeeds and rolls back when it fails or is interrupted, then switches autocommit back on.
   * Inside another transaction (or with autocommit already off) it joins that transaction and, where the driver has
   * savepoints, undoes only its own work on failure; the enclosing transaction decides the commit.
   */
  readonly withTransaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | AdbcError, R>
  /**
   * Stops the statement running on this connection and cancels its open readers (their next read fails CANCELLED);
   * INVALID_STATE when nothing runs and no reader is open (drivers say which of these they reach).
   */
  readonly cancel: Effect.Effect<void, AdbcError>
  /** Whether the connection is open and its session usable (checked without I/O); pools discard it when not. */
  readonly isUsable: Effect.Effect<boolean>
  /** Closes the connection now; fails while a reader is active. Further use fails INVALID_STATE. */
  readonly close: Effect.Effect<void, AdbcError>
}

/**
 * The connection in use.
 *
 * @category services
 * @since 0.1.0
 */
export class Connection extends Context.Service<Connection, ConnectionShape>()("effect-adbc/Connection") {}

const ADBC_VERSION = AdbcVersion.V1_1_0

/**
 * Opens a connection on `database` with connection-level options. Closed when the scope closes.
 *
 * @category constructors
 * @since 0.1.0
 */
export const make = Effect.fnUntraced(function*(
  database: Database["Service"],
  initial: Readonly<Record<string, string>> = {}
): Effect.fn.Return<ConnectionShape, AdbcError, Scope.Scope> {
  const { driver, registry } = database
  const store = yield* Effect.fromResult(OptionStore.make(registry, "connection", initial))
  const options = () => database.options().narrow(store)
  yield* driver.validate(options())

  const outer = yield* Effect.scope
  const inner = yield* Scope.fork(outer, "sequential")
  const telemetry = connectionTelemetry(driver, options())
  const driverConnection = yield* traced(
    telemetry,
    "connect",
    telemetry.attributes,
    driver.connect(options()).pipe(
      Effect.mapError((error) => fromUnknown(error, "IO", options().secrets())),
      Scope.provide(inner),
      Effect.onError(() => Scope.close(inner, Exit.void))
    )
  )
  const session: Session = makeSession({
    driver,
    connection: driverConnection,
    registry,
    options,
    telemetry: connectedTelemetry(telemetry, driverConnection.namespace)
  })
  // Readers first: a reader still held by an outer scope has its cursor closed before the connection is.
  yield* Effect.addFinalizer(() => Effect.andThen(session.readers.releaseAll, session.markClosed))

  const setAutocommit = (enabled: boolean) =>
    session.request(driverConnection.setAutocommit(enabled)).pipe(
      Effect.tap(() =>
        Effect.sync(() => {
          session.state.autocommit = enabled
        })
      )
    )
  /**
   * What a fiber that switched autocommit off and ended without switching it back leaves: nothing uncommitted. Bounded
   * like every cleanup: a server that does not answer gets the session dropped rather than a hang.
   */
  const abandonTransaction = session.settle(
    session.request(driverConnection.rollback).pipe(Effect.andThen(setAutocommit(true))),
    true
  )

  // Connection-level options that change the session are applied once connected (`byFiber`: set by a running
  // fiber through setOption, rather than when connecting).
  const applyOption = (key: string, value: string, byFiber: boolean): Effect.Effect<void, AdbcError> => {
    switch (key) {
      case Std.Autocommit.key: {
        const enabled = value === "true"
        if (enabled) {
          return Effect.andThen(enabled === session.state.autocommit ? Effect.void : setAutocommit(true), session.unclaim)
        }
        // Manual commit mode set by a fiber holds the connection for that fiber until it switches autocommit back
        // on (or ends): other fibers' statements wait rather than land inside its transaction.
        const switchOff = session.state.autocommit ? setAutocommit(false) : Effect.void
        if (!byFiber) return switchOff
        return session.claim(abandonTransaction).pipe(
          Effect.andThen(switchOff),
          Effect.onError(() => session.unclaim)
        )
      }
      case Std.ReadOnly.key: {
        const hook = driverConnection.setReadOnly
        if (hook !== undefined) return session.request(hook(value === "true"))
        return value === "true" ? Effect.fail(unsupported(driver, `read-only connections (${key})`)) : Effect.void
      }
      case Std.IsolationLevel.key: {
        const hook = driverConnection.setIsolationLevel
        if (hook === undefined) return Effect.fail(unsupported(driver, `setting the isolation level (${key})`))
        return session.request(hook(value))
      }
      case Std.CurrentCatalog.key: {
        const hook = driverConnection.setCurrentCatalog
        if (hook === undefined) return Effect.fail(unsupported(driver, `switching catalogs (${key} is read-only)`))
        return session.request(hook(value))
      }
      case Std.CurrentDbSchema.key:
        return session.request(driverConnection.setCurrentDbSchema(value))
      default:
        return Effect.void
    }
  }
  for (const [key, value] of store.entries()) yield* applyOption(key, value, false)

  const statement = (entries: Readonly<Record<string, string>> = {}) => makeStatement(session, entries)

  let savepointDepth = 0
  const withTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | AdbcError, R> =>
    session.exclusive(Effect.uninterruptibleMask((restore) =>
      Effect.suspend((): Effect.Effect<A, E | AdbcError, R> => {
        if (!session.state.autocommit) return nestedTransaction(restore(effect))
        // an interrupted fiber returns promptly even from a silent server: the session is dropped instead
        const rollback = (exit: Exit.Exit<unknown, unknown>) =>
          session.settle(session.request(driverConnection.rollback), Exit.hasInterrupts(exit))
        return Effect.gen(function*() {
          yield* setAutocommit(false)
          const exit = yield* Effect.exit(restore(effect))
          const ended = Exit.isSuccess(exit)
            ? yield* Effect.exit(restore(session.request(driverConnection.commit)).pipe(
              Effect.onExit((committed) => Exit.isFailure(committed) ? rollback(committed) : Effect.void)
            ))
            : yield* Effect.andThen(rollback(exit), Effect.exit(Effect.void))
          yield* session.settle(setAutocommit(true), Exit.hasInterrupts(exit) || Exit.hasInterrupts(ended))
          if (Exit.isFailure(ended)) return yield* Effect.failCause(ended.cause)
          return yield* exit
        })
      })
    ))
  /** A transaction inside another: a savepoint where the driver has them, so a failure undoes only its own work. */
  const nestedTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | AdbcError, R> => {
    const savepoints = driverConnection.savepoints
    if (savepoints === undefined) return effect
    const name = `ADBC_TX_${++savepointDepth}`
    return session.request(savepoints.create(name)).pipe(
      Effect.andThen(effect),
      Effect.onError((cause) => session.settle(session.request(savepoints.rollbackTo(name)), Cause.hasInterrupts(cause))),
      Effect.ensuring(Effect.sync(() => {
        savepointDepth--
      }))
    )
  }

  const executeQuery = (sql: string, entries: Readonly<Record<string, string>> = {}) =>
    Effect.gen(function*() {
      const stmt = yield* statement(entries)
      yield* stmt.setSqlQuery(sql)
      return yield* stmt.executeQuery
    })

  const connection: ConnectionShape = {
    driverName: driver.name,
    setOption: (key, value) =>
      Effect.gen(function*() {
        const previous = store.raw(key)
        yield* store.set(key, value)
        yield* applyOption(key, value, true).pipe(
          Effect.onError(() => Effect.sync(() => store.restore(key, previous)))
        )
      }),
    getOption: (key) => {
      switch (key) {
        case Std.Autocommit.key:
          return Effect.succeed(String(session.state.autocommit))
        case Std.CurrentCatalog.key:
          return session.request(driverConnection.currentCatalog)
        case Std.CurrentDbSchema.key:
          return session.request(driverConnection.currentDbSchema)
        default:
          return getRaw(options(), key)
      }
    },
    statement,
    executeQuery,
    query: (sql, entries) => Stream.unwrap(Effect.map(executeQuery(sql, entries), (reader) => reader.batches)),
    queryTable: (sql, entries) => Effect.scoped(Effect.flatMap(executeQuery(sql, entries), toTable)),
    execute: (sql, entries = {}) =>
      Effect.gen(function*() {
        const stmt = yield* statement(entries)
        yield* stmt.setSqlQuery(sql)
        return yield* stmt.executeUpdate
      }),
    ingest: (data, ingestOptions) =>
      Effect.flatMap(
        Effect.fromResult(IngestRun.requestOf(ingestOptions)),
        (request) => IngestRun.runIngest(session, session.options(), request, data)
      ),
    getInfo: (codes) =>
      Effect.gen(function*() {
        const driverInfo = yield* session.request(driverConnection.info)
        const values = new Map(driverInfo)
        values.set(InfoCode.DRIVER_NAME, InfoValue.string(`effect-adbc ${driver.name}`))
        values.set(InfoCode.DRIVER_VERSION, InfoValue.string(driver.version))
        values.set(InfoCode.DRIVER_ARROW_VERSION, InfoValue.string(ARROW_VERSION))
        values.set(InfoCode.DRIVER_ADBC_VERSION, InfoValue.int64(ADBC_VERSION))
        values.set(InfoCode.VENDOR_SQL, InfoValue.bool(true))
        values.set(InfoCode.VENDOR_SUBSTRAIT, InfoValue.bool(false))
        return buildGetInfo(values, codes)
      }),
    getObjects: (args) =>
      Effect.gen(function*() {
        const { depth, ...filters } = args
        if (!isObjectDepth(depth)) {
          return yield* invalidArgument(`unknown GetObjects depth ${String(depth)}: expected 0 (all), 1, 2 or 3`)
        }
        const rows = yield* session.request(driverConnection.catalogRows(depth, filters))
        return yield* Effect.try({
          try: () => buildGetObjects(depth, filters, rows),
          catch: (e) =>
            isCatalogError(e) && e.kind === "invalid-argument"
              ? invalidArgument(e.message)
              : adbcError("INTERNAL", `the ${driver.name} driver returned catalog rows the result cannot hold: ${String(e)}`)
        })
      }),
    getTableTypes: Effect.sync(() => buildTableTypes(driverConnection.tableTypes)),
    getTableSchema: (catalog, dbSchema, table) =>
      session.request(driverConnection.tableSchema(catalog, dbSchema, table)),
    commit: Effect.suspend(() =>
      session.state.autocommit
        ? Effect.fail(invalidState("cannot commit: autocommit is enabled"))
        : session.request(driverConnection.commit)
    ),
    rollback: Effect.suspend(() =>
      session.state.autocommit
        ? Effect.fail(invalidState("cannot roll back: autocommit is enabled"))
        : session.request(driverConnection.rollback)
    ),
    withTransaction,
    cancel: session.guard(driverConnection.cancel),
    isUsable: Effect.sync(() => !session.state.closed && (driverConnection.isUsable?.() ?? true)),
    close: Effect.suspend(() => {
      if (session.state.closed) return Effect.void
      if (session.readers.active() > 0) return Effect.fail(invalidState(READER_ACTIVE_MESSAGE))
      return Effect.andThen(session.markClosed, Scope.close(inner, Exit.void))
    })
  }
  return connection
})

/**
 * A layer providing a {@link Connection} on the {@link Database}, closed when the layer is released.
 *
 * @category layers
 * @since 0.1.0
 */
export const layer = (
  options: Readonly<Record<string, string>> = {}
): Layer.Layer<Connection, AdbcError, Database> =>
  Layer.effect(Connection, Effect.flatMap(Database, (db) => make(db, options)))

/**
 * A layer providing {@link Ingest.Ingest} on the current {@link Connection}.
 *
 * @category layers
 * @since 0.1.0
 */
export const layerIngest: Layer.Layer<Ingest.Ingest, never, Connection> = Layer.effect(
  Ingest.Ingest,
  Effect.map(Connection, (connection) => ({ ingest: connection.ingest }))
)

/**
 * Runs a query on the {@link Connection} in context as a stream of Arrow batches. The cursor is opened when the
 * stream runs and released when it ends, fails or is interrupted; each run executes the query again.
 *
 * @category accessors
 * @since 0.1.0
 */
export const query = (
  sql: string,
  options?: Readonly<Record<string, string>>
): Stream.Stream<Arrow.RecordBatch, AdbcError, Connection> =>
  Stream.unwrap(Effect.map(Connection, (connection) => connection.query(sql, options)))

/**
 * Runs a query on the {@link Connection} in context and collects it into an Arrow Table with the result's schema,
 * which a result without rows keeps (zero rows, every column named and typed). For results that fit in memory; use
 * {@link query} to stream larger ones.
 *
 * @category accessors
 * @since 0.1.0
 */
export const queryTable = (
  sql: string,
  options?: Readonly<Record<string, string>>
): Effect.Effect<Arrow.Table, AdbcError, Connection> =>
  Effect.flatMap(Connection, (connection) => connection.queryTable(sql, options))

/**
 * Runs a query on the {@link Connection} in context and opens a reader in the caller's Scope. The reader's stream
 * runs once, inside that Scope.
 *
 * @category accessors
 * @since 0.1.0
 */
export const executeQuery = (
  sql: string,
  options?: Readonly<Record<string, string>>
): Effect.Effect<ReaderShape, AdbcError, Connection | Scope.Scope> =>
  Effect.flatMap(Connection, (connection) => connection.executeQuery(sql, options))

/**
 * Runs a statement that returns no rows on the {@link Connection} in context; returns rows affected (-1 if unknown).
 *
 * @category accessors
 * @since 0.1.0
 */
export const execute = (
  sql: string,
  options?: Readonly<Record<string, string>>
): Effect.Effect<number, AdbcError, Connection> =>
  Effect.flatMap(Connection, (connection) => connection.execute(sql, options))

/**
 * A new statement on the {@link Connection} in context.
 *
 * @category accessors
 * @since 0.1.0
 */
export const statement = (
  options?: Readonly<Record<string, string>>
): Effect.Effect<Statement.StatementShape, AdbcError, Connection> =>
  Effect.flatMap(Connection, (connection) => connection.statement(options))

/**
 * Runs `effect` as one transaction on the {@link Connection} in context: it holds the connection (other fibers'
 * statements wait), commits on success, rolls back on failure or interruption. See
 * {@link ConnectionShape.withTransaction}.
 *
 * @category accessors
 * @since 0.1.0
 */
export const withTransaction = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E | AdbcError, R | Connection> =>
  Effect.flatMap(Connection, (connection) => connection.withTransaction(effect))
