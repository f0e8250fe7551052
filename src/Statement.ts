/**
 * A statement: SQL (or a bulk ingest), its options, and bound Arrow parameters. Statement options override the
 * connection's and the database's for this statement only.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Context, Effect, Stream } from "effect"
import type { Scope } from "effect"
import { type AdbcError, invalidState, notImplemented } from "./AdbcError.ts"
import type { BoundParameters } from "./Driver.ts"
import { runIngest } from "./Ingest.ts"
import type { Session } from "./internal/session.ts"
import { getRaw, OptionStore, type ResolvedOptions } from "./Options.ts"
import { fromCursor, type ReaderShape } from "./Reader.ts"
import * as Std from "./StandardOptions.ts"

/**
 * A statement on an open connection.
 *
 * @category models
 * @since 0.1.0
 */
export interface StatementShape {
  readonly setSqlQuery: (sql: string) => Effect.Effect<void>
  readonly setOption: (key: string, value: string) => Effect.Effect<void, AdbcError>
  readonly getOption: (key: string) => Effect.Effect<string, AdbcError>
  /** Checks the SQL with the database (parameter and result metadata become available). */
  readonly prepare: Effect.Effect<void, AdbcError>
  /** Binds one batch (or a table) of parameter rows: column i is parameter i. */
  readonly bind: (data: Arrow.RecordBatch | Arrow.Table) => Effect.Effect<void, AdbcError>
  /** Binds a stream of parameter batches (for ingest, streamed; for execution, read when executed). */
  readonly bindStream: (
    schema: Arrow.Schema,
    batches: Stream.Stream<Arrow.RecordBatch, AdbcError>
  ) => Effect.Effect<void>
  /** Runs the statement and opens a reader over its result. The reader lives in the current scope. */
  readonly executeQuery: Effect.Effect<ReaderShape, AdbcError, Scope.Scope>
  /** Runs the statement (or the bulk ingest when `adbc.ingest.target_table` is set); returns rows affected, -1 if unknown. */
  readonly executeUpdate: Effect.Effect<number, AdbcError>
  /** The result schema without running the statement. */
  readonly executeSchema: Effect.Effect<Arrow.Schema, AdbcError>
  /** The schema of the statement's parameters. */
  readonly getParameterSchema: Effect.Effect<Arrow.Schema, AdbcError>
  /** Stops the statement running on this connection. */
  readonly cancel: Effect.Effect<void, AdbcError>
}

/**
 * The statement in use, for programs that provide it as a service.
 *
 * @category services
 * @since 0.1.0
 */
export class Statement extends Context.Service<Statement, StatementShape>()("effect-adbc/Statement") {}

type Bound =
  | { readonly _tag: "Batches"; readonly schema: Arrow.Schema; readonly batches: ReadonlyArray<Arrow.RecordBatch> }
  | {
    readonly _tag: "Stream"
    readonly schema: Arrow.Schema
    readonly batches: Stream.Stream<Arrow.RecordBatch, AdbcError>
  }

/**
 * Internal: a statement of `session` with initial statement-level options.
 *
 * @category constructors
 * @since 0.1.0
 */
export const make = (
  session: Session,
  initial: Readonly<Record<string, string>> = {}
): Effect.Effect<StatementShape, AdbcError> =>
  Effect.gen(function*() {
    const store = yield* Effect.fromResult(OptionStore.make(session.registry, "statement", initial))
    let sql: string | undefined
    let bound: Bound | undefined
    const options = (): ResolvedOptions => session.options().narrow(store)

    const requireSql = Effect.suspend(() =>
      sql === undefined ? Effect.fail(invalidState("no SQL query set on the statement")) : Effect.succeed(sql)
    )
    const isIngest = () => store.raw(Std.IngestTargetTable.key) !== undefined

    const parameters: Effect.Effect<BoundParameters | undefined, AdbcError> = Effect.suspend(() => {
      if (bound === undefined) return Effect.succeed(undefined)
      if (bound._tag === "Batches") return Effect.succeed({ schema: bound.schema, batches: bound.batches })
      const schema = bound.schema
      return Effect.map(Stream.runCollect(bound.batches), (batches) => ({ schema, batches }))
    })

    const batchCap = () => {
      const { bytesOption, defaultRows, mode, option } = session.driver.batchCap
      const resolved = options()
      return {
        rows: resolved.getOr(option, defaultRows),
        mode,
        bytes: bytesOption === undefined ? 0 : resolved.getOr(bytesOption, 0)
      }
    }

    const executeQuery = Effect.gen(function*() {
      if (isIngest()) return yield* invalidState("bulk ingest runs with executeUpdate, not executeQuery")
      const text = yield* requireSql
      const params = yield* parameters
      const result = yield* session.request(session.connection.execute(text, params, options()))
      if (result._tag === "Count") {
        return {
          schema: new Arrow.Schema([]),
          batches: Stream.empty
        } satisfies ReaderShape
      }
      return yield* fromCursor(session, result.cursor, batchCap())
    })

    const executeUpdate = Effect.gen(function*() {
      if (isIngest()) {
        if (bound === undefined) return yield* invalidState("bulk ingest needs data: bind a batch or a stream first")
        const data = bound._tag === "Batches"
          ? { schema: bound.schema, batches: Stream.fromIterable(bound.batches) }
          : bound
        return yield* runIngest(session, options(), data)
      }
      const text = yield* requireSql
      const params = yield* parameters
      return yield* Effect.scoped(
        Effect.gen(function*() {
          const result = yield* session.request(session.connection.execute(text, params, options()))
          if (result._tag === "Count") return result.rowsAffected
          yield* result.cursor.close
          return -1
        })
      )
    })

    const statement: StatementShape = {
      setSqlQuery: (text) =>
        Effect.sync(() => {
          sql = text
        }),
      setOption: (key, value) => Effect.fromResult(store.setSync(key, value)),
      getOption: (key) => getRaw(options(), key),
      prepare: Effect.gen(function*() {
        const text = yield* requireSql
        yield* session.request(session.connection.describe(text, options()))
      }),
      bind: (data) =>
        Effect.sync(() => {
          bound = data instanceof Arrow.Table
            ? { _tag: "Batches", schema: data.schema, batches: data.batches }
            : { _tag: "Batches", schema: data.schema, batches: [data] }
        }),
      bindStream: (schema, batches) =>
        Effect.sync(() => {
          bound = { _tag: "Stream", schema, batches }
        }),
      executeQuery: executeQuery.pipe(Effect.withSpan("adbc.execute_query", { attributes: { "db.system.name": session.driver.name } })),
      executeUpdate: executeUpdate.pipe(Effect.withSpan("adbc.execute_update", { attributes: { "db.system.name": session.driver.name } })),
      executeSchema: Effect.gen(function*() {
        const text = yield* requireSql
        return yield* session.request(session.connection.describe(text, options()))
      }),
      getParameterSchema: Effect.gen(function*() {
        if (!session.driver.capabilities.parameterSchema) {
          return yield* notImplemented(`the ${session.driver.name} driver cannot describe statement parameters`)
        }
        const text = yield* requireSql
        return yield* session.request(session.connection.parameterSchema(text, options()))
      }),
      cancel: session.guard(session.connection.cancel)
    }
    return statement
  })
