/**
 * A statement: SQL (or a bulk ingest), its options, and bound Arrow parameters. Statement options override the
 * connection's and the database's for this statement only.
 *
 * @since 0.1.0
 */
import * as Arrow from "apache-arrow"
import { Context, Effect, Stream } from "effect"
import type { Scope } from "effect"
import { type AdbcError } from "./AdbcError.ts"
import type { ReaderShape } from "./Reader.ts"

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
  /** Connection.cancel of its connection: stops what runs there and cancels its open readers. */
  readonly cancel: Effect.Effect<void, AdbcError>
}

/**
 * The statement in use, for programs that provide it as a service.
 *
 * @category services
 * @since 0.1.0
 */
export class Statement extends Context.Service<Statement, StatementShape>()("effect-adbc/Statement") {}
