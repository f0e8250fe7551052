/**
 * An `effect/sql` `SqlClient` on an effect-adbc driver: a pool of ADBC connections, statements compiled for the
 * database, parameters bound as one Arrow batch, results read as Arrow batches and handed out as rows
 * (`Rows.ts`), transactions on the ADBC connection's own `withTransaction` (savepoints when nested, rollback and
 * server-call cancellation on interruption), errors as `SqlError`s with the database's reasons. Arrow stays one call
 * away on the same connection and in the same transaction: `arrow` streams a statement's record batches, `ingest`
 * bulk-loads Arrow data, `withConnection` hands out the ADBC connection itself.
 *
 * `HanaClient` and `OracleClient` are this client with their driver, compiler and error table.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Context, Effect, Layer, Redacted, Scope, Stream } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient, type SqlConnection, type SqlError, Statement } from "effect/sql"
import { AdbcError } from "../AdbcError.ts"
import type { ConnectionShape } from "../Connection.ts"
import * as ConnectionPool from "../ConnectionPool.ts"
import * as Database from "../Database.ts"
import { Driver, type DriverShape } from "../Driver.ts"
import * as Ingest from "../Ingest.ts"
import { type DialectSpec, guardDialect, json } from "./Compiler.ts"
import { type ErrorTable, toSqlError } from "./Errors.ts"
import { TransactionalDdl } from "./Migrator.ts"
import { parameterBatch, UnsupportedParameter } from "./Params.ts"
import { parseReturning, type ReturningMode, runReturning } from "./Returning.ts"
import { batchToArrays, batchToObjects } from "./Rows.ts"

/**
 * What a client connects with: the driver's own configuration. `uri`, `username`, `password` and `options` (ADBC
 * keys: `dba.*` for HANA, `redo.*` for Oracle, `adbc.*`) go through the same Schemas as the ADBC options, before any
 * network I/O.
 *
 * @category models
 * @since 0.1.0
 */
export interface ClientConfig {
  /** The connection URI (`hdb://…`, `oracle://…`); may hold credentials, hence `Redacted` is accepted. */
  readonly uri: string | Redacted.Redacted<string>
  readonly username?: string | undefined
  readonly password?: Redacted.Redacted<string> | undefined
  /** More ADBC options at database level (`dba.statement.fetch_size`, `redo.query.date_type`, …). */
  readonly options?: Readonly<Record<string, string>> | undefined
  /** Connections open at most (default 4). */
  readonly poolSize?: number | undefined
  /** Extra span attributes on every statement and transaction span. */
  readonly spanAttributes?: Readonly<Record<string, unknown>> | undefined
  /** Renames result columns (e.g. `fromDatabaseName`: `ORDER_ID` → `orderId`). */
  readonly transformResultNames?: ((name: string) => string) | undefined
  /** Renames identifiers written with `sql(name)` and helper keys (e.g. `toDatabaseName`: `orderId` → `ORDER_ID`). */
  readonly transformQueryNames?: ((name: string) => string) | undefined
}

/**
 * Options of {@link ArrowAccess.ingest}: the ADBC ingest options (`targetTable`, `mode`, …).
 *
 * @category models
 * @since 0.1.0
 */
export type IngestOptions = Ingest.IngestOptions

/**
 * Arrow access on the client's connection (the transaction's inside `withTransaction`).
 *
 * @category models
 * @since 0.1.0
 */
export interface ArrowAccess {
  /**
   * Runs a statement (a `sql` template or SQL text) and streams its result as Arrow record batches, read by the
   * driver straight from the wire; `options` are ADBC statement options (`dba.statement.fetch_size`,
   * `adbc.statement.batch_rows`, …). The server cursor is released when the stream ends, fails or is interrupted.
   */
  readonly arrow: (
    statement: Statement.Statement<unknown> | string,
    options?: Readonly<Record<string, string>>
  ) => Stream.Stream<Arrow.RecordBatch, SqlError.SqlError>
  /** Bulk-loads Arrow data (a Table, or a schema and a stream of batches) into a table; returns the rows loaded. */
  readonly ingest: (
    data: Arrow.Table | Ingest.IngestData,
    options: IngestOptions
  ) => Effect.Effect<number, SqlError.SqlError>
  /** Runs `f` with the ADBC connection in use (the transaction's, or one borrowed from the pool). */
  readonly withConnection: <A, E, R>(
    f: (connection: ConnectionShape) => Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  /** `value` bound as JSON (see the database's compiler). */
  readonly json: (value: unknown) => Statement.Fragment
}

/**
 * What makes a client for one database.
 *
 * @category models
 * @since 0.1.0
 */
export interface ClientSpec {
  readonly driver: DriverShape
  /**
   * Statements switching DDL into the transaction and back (HANA: `SET TRANSACTION AUTOCOMMIT DDL OFF` / `ON`), run
   * around a top-level transaction on its connection when `TransactionalDdl` is set.
   */
  readonly transactionalDdl?: { readonly enable: string; readonly restore: string } | undefined
  readonly dialect: DialectSpec
  readonly errors: ErrorTable
  readonly makeCompiler: (transform?: ((name: string) => string) | undefined) => Statement.Compiler
  /** How DML with `RETURNING` gives back its rows (see `Returning.ts`). */
  readonly returning: ReturningMode
}

/** The first keyword of a statement, after comments and opening parentheses. */
const LEADING = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/|\()*([A-Za-z]+)/

const returnsRows = (sql: string): boolean => {
  const keyword = LEADING.exec(sql)?.[1]?.toUpperCase()
  return keyword === "SELECT" || keyword === "WITH" || keyword === "VALUES" || keyword === "CALL"
}

const adbcOf = new WeakMap<SqlConnection.Connection, ConnectionShape>()

let transactionIds = 0

/**
 * Creates the client of `spec`'s database; connections open on demand (one is opened at once to check the
 * configuration and credentials) and close with the scope.
 *
 * @category constructors
 * @since 0.1.0
 */
export const make = Effect.fnUntraced(function*(
  spec: ClientSpec,
  config: ClientConfig
): Effect.fn.Return<SqlClient.SqlClient & ArrowAccess, SqlError.SqlError, Scope.Scope | Reactivity.Reactivity> {
  const sqlError = (operation: string) => toSqlError(spec.errors, operation)
  const options: Record<string, string> = {
    ...config.options,
    uri: Redacted.isRedacted(config.uri) ? Redacted.value(config.uri) : config.uri,
    ...(config.username !== undefined ? { username: config.username } : {}),
    ...(config.password !== undefined ? { password: Redacted.value(config.password) } : {})
  }
  const database = yield* Database.make(options).pipe(
    Effect.provideService(Driver, spec.driver),
    Effect.mapError(sqlError("configure"))
  )
  const pool = yield* ConnectionPool.make(database, { size: config.poolSize }).pipe(Effect.mapError(sqlError("configure")))
  yield* pool.use(() => Effect.void).pipe(Effect.mapError(sqlError("connect")))

  const endpoint = spec.driver.telemetry?.endpoint(database.options())
  const spanAttributes: Array<readonly [string, unknown]> = [
    ["db.system.name", spec.driver.telemetry?.systemName ?? spec.driver.name],
    ...(endpoint?.address !== undefined ? [["server.address", endpoint.address] as const] : []),
    ...(endpoint?.port !== undefined ? [["server.port", endpoint.port] as const] : []),
    ...(endpoint?.namespace !== undefined ? [["db.namespace", endpoint.namespace] as const] : []),
    ...Object.entries(endpoint?.attributes ?? {}),
    ...Object.entries(config.spanAttributes ?? {})
  ]

  /** Binds `params` (when there are any) on a new statement for `sql`. */
  const prepare = (
    connection: ConnectionShape,
    sql: string,
    params: ReadonlyArray<unknown>,
    entries?: Readonly<Record<string, string>>
  ) =>
    Effect.gen(function*() {
      const batch = yield* Effect.try({
        try: () => parameterBatch(params),
        catch: (e) => e instanceof UnsupportedParameter ? e : new UnsupportedParameter(String(e))
      })
      const statement = yield* connection.statement(entries)
      yield* statement.setSqlQuery(sql)
      if (batch !== undefined) yield* statement.bind(batch)
      return statement
    })

  /** Runs `sql`, handing each result batch to `onBatch`; a statement without rows hands none. */
  const run = (
    connection: ConnectionShape,
    sql: string,
    params: ReadonlyArray<unknown>,
    operation: string,
    onBatch: (batch: Arrow.RecordBatch) => void
  ): Effect.Effect<number, SqlError.SqlError> =>
    Effect.scoped(Effect.gen(function*() {
      const returning = parseReturning(sql)
      if (returning !== undefined) {
        const batches = yield* runReturning(connection, spec.returning, returning, params, spec.dialect.placeholder)
        return batches.reduce((rows, batch) => {
          onBatch(batch)
          return rows + batch.numRows
        }, 0)
      }
      const statement = yield* prepare(connection, sql, params)
      if (!returnsRows(sql)) return yield* statement.executeUpdate
      const reader = yield* statement.executeQuery
      let rows = 0
      yield* Stream.runForEach(reader.batches, (batch) =>
        Effect.sync(() => {
          rows += batch.numRows
          onBatch(batch)
        }))
      return rows
    })).pipe(Effect.mapError(sqlError(operation)))

  const objects = (
    connection: ConnectionShape,
    sql: string,
    params: ReadonlyArray<unknown>,
    transformRows: (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined,
    operation: string
  ) => {
    const rows: Array<Record<string, unknown>> = []
    return Effect.map(
      run(connection, sql, params, operation, (batch) => batchToObjects(batch, rows)),
      () => transformRows === undefined ? rows : transformRows(rows)
    )
  }

  const values = (connection: ConnectionShape, sql: string, params: ReadonlyArray<unknown>) => {
    const rows: Array<Array<unknown>> = []
    return Effect.as(run(connection, sql, params, "executeValues", (batch) => batchToArrays(batch, rows)), rows)
  }

  const sqlConnectionOf = (connection: ConnectionShape): SqlConnection.Connection => {
    const sqlConnection: SqlConnection.Connection = {
      execute: (sql, params, transformRows) => objects(connection, sql, params, transformRows, "execute"),
      executeUnprepared: (sql, params, transformRows) =>
        objects(connection, sql, params, transformRows, "executeUnprepared"),
      executeValues: (sql, params) => values(connection, sql, params),
      executeValuesUnprepared: (sql, params) => values(connection, sql, params),
      // The raw result: the Arrow table of a query, `{ rowsAffected }` of any other statement.
      executeRaw: (sql, params) =>
        returnsRows(sql)
          ? Effect.scoped(Effect.gen(function*() {
            const statement = yield* prepare(connection, sql, params)
            const reader = yield* statement.executeQuery
            const batches = yield* Stream.runCollect(reader.batches)
            return batches.length === 0 ? new Arrow.Table(reader.schema) : new Arrow.Table(batches)
          })).pipe(Effect.mapError(sqlError("executeRaw")))
          : Effect.scoped(Effect.flatMap(prepare(connection, sql, params), (s) => s.executeUpdate)).pipe(
            Effect.map((rowsAffected) => ({ rowsAffected })),
            Effect.mapError(sqlError("executeRaw"))
          ),
      executeStream: (sql, params, transformRows) =>
        Stream.unwrap(Effect.gen(function*() {
          const statement = yield* prepare(connection, sql, params)
          const reader = yield* statement.executeQuery
          return Stream.flattenIterable(Stream.map(reader.batches, (batch) => {
            const rows = batchToObjects(batch)
            return transformRows === undefined ? rows : transformRows(rows)
          }))
        })).pipe(Stream.mapError(sqlError("stream")))
    }
    adbcOf.set(sqlConnection, connection)
    return sqlConnection
  }
  const wrapped = new WeakMap<ConnectionShape, SqlConnection.Connection>()
  const wrap = (connection: ConnectionShape): SqlConnection.Connection => {
    let found = wrapped.get(connection)
    if (found === undefined) {
      found = sqlConnectionOf(connection)
      wrapped.set(connection, found)
    }
    return found
  }

  const acquirer: SqlConnection.Acquirer = Effect.map(pool.get, wrap).pipe(Effect.mapError(sqlError("acquire")))
  const borrower: SqlConnection.Borrower = (f) =>
    pool.use((connection) => f(wrap(connection))).pipe(
      Effect.mapError((e) => (e instanceof AdbcError ? sqlError("acquire")(e) : e))
    )

  const transactionService = Context.Service<SqlClient.TransactionConnection, SqlClient.TransactionConnection.Service>(
    `effect-adbc/sql/TransactionConnection/${transactionIds++}`
  )

  /** The ADBC connection of the current transaction, or one borrowed from the pool for `f`. */
  const withConnection = <A, E, R>(
    f: (connection: ConnectionShape) => Effect.Effect<A, E, R>
  ): Effect.Effect<A, E | SqlError.SqlError, R> =>
    Effect.flatMap(Effect.serviceOption(transactionService), (current) =>
      current._tag === "Some"
        ? f(adbcOf.get(current.value[0])!)
        : pool.use(f).pipe(Effect.mapError((e) => (e instanceof AdbcError ? sqlError("acquire")(e) : e))))

  /** `afterCommit` callbacks of each open transaction level, run when the outermost level commits. */
  const afterCommitBuffers = new WeakMap<SqlClient.TransactionConnection.Service, Array<Effect.Effect<void>>>()
  /** `reactivity` whose invalidations (also `mutation`'s) are kept like `afterCommit` callbacks. */
  const deferInvalidations = (reactivity: Reactivity.Reactivity): Reactivity.Reactivity => {
    const invalidate = (keys: Parameters<Reactivity.Reactivity["invalidate"]>[0]) =>
      afterCommit(Effect.sync(() => reactivity.invalidateUnsafe(keys)))
    const mutation = <A, E, R>(keys: Parameters<typeof invalidate>[0], effect: Effect.Effect<A, E, R>) =>
      Effect.tap(effect, invalidate(keys))
    return { ...reactivity, invalidate, mutation }
  }
  /** Runs `effect` as transaction level `level`; its callbacks go to `parent` (or run) when it succeeds. */
  const asLevel = <A, E, R>(
    effect: Effect.Effect<A, E, R>,
    level: SqlClient.TransactionConnection.Service,
    parent: Array<Effect.Effect<void>> | undefined,
    run: (inner: Effect.Effect<A, E, R>) => Effect.Effect<A, E | AdbcError, R>
  ): Effect.Effect<A, E | AdbcError, R> => {
    const callbacks: Array<Effect.Effect<void>> = []
    afterCommitBuffers.set(level, callbacks)
    // Reactivity invalidations wait for the commit too, as effect/sql's own transactions make them wait
    const inner = Effect.withFiber<A, E, R>((fiber) => {
      const reactivity = Context.getOrUndefined(fiber.context, Reactivity.Reactivity)
      const provided = Effect.provideService(effect, transactionService, level)
      return reactivity === undefined ? provided : Effect.provideService(provided, Reactivity.Reactivity, deferInvalidations(reactivity))
    })
    return run(inner).pipe(
      Effect.tap(() =>
        parent !== undefined
          ? Effect.sync(() => parent.push(...callbacks))
          : Effect.forEach(callbacks, (callback) => Effect.ignoreCause(callback), { discard: true })
      ),
      Effect.ensuring(Effect.sync(() => afterCommitBuffers.delete(level)))
    )
  }

  const withTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError.SqlError, R> =>
    Effect.flatMap(Effect.serviceOption(transactionService), (current) => {
      if (current._tag === "Some") {
        const [sqlConnection, depth] = current.value
        const connection = adbcOf.get(sqlConnection)!
        return asLevel(
          effect,
          [sqlConnection, depth + 1],
          afterCommitBuffers.get(current.value),
          (inner) => connection.withTransaction(inner)
        ).pipe(Effect.mapError((e) => (e instanceof AdbcError ? sqlError("savepoint")(e) : e)))
      }
      return Effect.flatMap(TransactionalDdl, (ddl) => {
        const session = ddl ? spec.transactionalDdl : undefined
        return pool.use((connection) => {
          const transaction = asLevel(effect, [wrap(connection), 0], undefined, (inner) => connection.withTransaction(inner))
          return session === undefined ? transaction : Effect.acquireUseRelease(
            connection.execute(session.enable),
            () => transaction,
            () => Effect.ignore(connection.execute(session.restore))
          )
        })
      }).pipe(Effect.mapError((e) => (e instanceof AdbcError ? sqlError("transaction")(e) : e)))
    }).pipe(Effect.withSpan("sql.transaction", { kind: "internal", attributes: Object.fromEntries(spanAttributes) }))

  /** Inside a transaction: kept until the outermost level commits (dropped on rollback); outside: run at once. */
  const afterCommit = <R>(effect: Effect.Effect<void, never, R>): Effect.Effect<void, never, R> =>
    Effect.withFiber((fiber) => {
      const level = Context.getOrUndefined(fiber.context, transactionService)
      const buffer = level === undefined ? undefined : afterCommitBuffers.get(level)
      if (buffer === undefined) return Effect.ignoreCause(effect)
      buffer.push(Effect.provideContext(effect, Context.omit(transactionService)(fiber.context) as Context.Context<R>))
      return Effect.void
    })

  const compiler = spec.makeCompiler(config.transformQueryNames)
  const transformRows = config.transformResultNames
    ? Statement.defaultTransforms(config.transformResultNames).array
    : undefined
  const client = yield* SqlClient.make({
    acquirer,
    borrower,
    compiler,
    driver: spec.dialect.name,
    spanAttributes,
    transactionService,
    transformRows
  })

  const arrow: ArrowAccess["arrow"] = (statement, entries) => {
    const [sql, params] = typeof statement === "string" ? [statement, []] as const : statement.compile()
    return Stream.unwrap(Effect.gen(function*() {
      const current = yield* Effect.serviceOption(transactionService)
      const connection = current._tag === "Some" ? adbcOf.get(current.value[0])! : yield* pool.get
      const prepared = yield* prepare(connection, sql, params, entries)
      const reader = yield* prepared.executeQuery
      return reader.batches
    })).pipe(Stream.mapError(sqlError("arrow")))
  }
  const extras: ArrowAccess = {
    arrow,
    ingest: (data, ingestOptions) =>
      withConnection((connection) =>
        connection.ingest(Array.isArray(data.batches) ? Ingest.fromTable(data as Arrow.Table) : data as Ingest.IngestData, ingestOptions)
      ).pipe(Effect.mapError((e) => (e instanceof AdbcError ? sqlError("ingest")(e) : e))),
    withConnection,
    json
  }
  const result = Object.assign(client, { withTransaction, afterCommit }, extras)
  guardDialect(result, spec.dialect)
  const withoutTransforms = result.withoutTransforms.bind(result)
  return Object.assign(result, {
    withoutTransforms: () => {
      const plain = withoutTransforms()
      return plain === result
        ? result
        : guardDialect(Object.assign(plain, { withTransaction, afterCommit }, extras), spec.dialect)
    }
  })
})

/**
 * A layer of the client service `tag` that is also the `SqlClient`.
 *
 * @category layers
 * @since 0.1.0
 */
export const layerFrom = <I, C extends SqlClient.SqlClient>(
  tag: Context.Key<I, C>,
  acquire: Effect.Effect<C, SqlError.SqlError | unknown, Scope.Scope | Reactivity.Reactivity>
) =>
  Layer.effectContext(
    Effect.map(acquire, (client) => Context.make(tag, client).pipe(Context.add(SqlClient.SqlClient, client)))
  ).pipe(Layer.provide(Reactivity.layer))
