/**
 * The per-connection state the Oracle driver's role modules share (Execute.ts, Ingest.ts, Metadata.ts,
 * Connection.ts): the oracledb connection, the options it was opened with, the cancellation of running calls and
 * open readers, and the autocommit flag; and the plain execute every role runs SQL with. Created once per connection
 * by Connection.ts; its own module so that the role modules can take it without importing Connection.ts back.
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import type { ResolvedOptions } from "../../src/Options.ts"
import { type Cancellation, makeCancellation } from "../common/Cancellation.ts"
import * as DbCalls from "./DbCalls.ts"
import type * as DbTypes from "./DbTypes.ts"

/**
 * One connection's shared state.
 *
 * @category models
 * @since 0.1.0
 */
export interface ConnectionContext {
  readonly connection: DbTypes.OracleConnection
  /** The options the connection was opened with (a table's schema is described with them). */
  readonly connectOptions: ResolvedOptions
  /** The connection's cancel state (Connection.cancel), which its cursors share. */
  readonly cancellation: Cancellation
  /** Whether the session commits each statement (as last set by setAutocommit). */
  autocommit: boolean
}

/** A new connection's context. @category constructors @since 0.1.0 */
export const makeConnectionContext = (connection: DbTypes.OracleConnection, connectOptions: ResolvedOptions): ConnectionContext => ({
  connection,
  connectOptions,
  cancellation: makeCancellation(),
  autocommit: true
})

/**
 * Runs a call so that Connection.cancel can cancel it (a break of the running call).
 *
 * @category operations
 * @since 0.1.0
 */
export const tracked = <A, E, R>(ctx: ConnectionContext, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  ctx.cancellation.running(effect)

/**
 * One oracledb execute of `sql` with the session's autocommit (unless `options` say otherwise); result sets an
 * interruption keeps from their caller are closed (DbCalls.ts `callExecute`).
 *
 * @category operations
 * @since 0.1.0
 */
export const run = (ctx: ConnectionContext, sql: string, binds: unknown, options: Record<string, unknown>) =>
  DbCalls.callExecute(ctx.connection, sql, () => ctx.connection.execute(sql, binds, { autoCommit: ctx.autocommit, ...options }), DbCalls.closeResults)

/**
 * {@link run} whose result sets are closed when the scope closes, in case an interruption stops them from reaching a
 * cursor (a cursor closes them itself, once).
 *
 * @category operations
 * @since 0.1.0
 */
export const runScoped = (ctx: ConnectionContext, sql: string, binds: unknown, options: Record<string, unknown>) =>
  Effect.acquireRelease(run(ctx, sql, binds, options), (result) => DbCalls.releaseResults(ctx.connection, result), {
    interruptible: true
  })
