/**
 * The per-connection state the HANA driver's role modules share (Cursor.ts, Execute.ts, Ingest.ts, Metadata.ts,
 * Connection.ts): the client, its connect options (for the side session of a cancel), the prepared INSERT cache,
 * the cancellation of running requests and open readers, and the autocommit flag. Created once per connection by
 * Connection.ts; its own module so that the role modules can take it without importing Connection.ts back.
 *
 * @since 0.2.0
 */
import { Effect } from "effect"
import { type AdbcError, notImplemented } from "../../src/AdbcError.ts"
import { type Cancellation, makeCancellation } from "../common/Cancellation.ts"
import * as Hdb from "./DbCalls.ts"
import type { HdbClient, HdbStatement } from "./DbTypes.ts"

/**
 * One connection's shared state.
 *
 * @category models
 * @since 0.2.0
 */
export interface ConnectionContext {
  readonly client: HdbClient
  /** The options the client was opened with; a cancel opens its side session with them. */
  readonly hdbOptions: Record<string, unknown>
  /** Prepared INSERT statements of ingest, by SQL text; cleared by any DDL. */
  readonly inserts: Map<string, HdbStatement>
  /** Connection.cancel cancels the running request on the server, and marks the open readers cancelled. */
  readonly cancellation: Cancellation
  /** Whether the session commits each statement (as last set by setAutocommit). */
  autocommit: boolean
}

/** A new connection's context. @category constructors @since 0.2.0 */
export const makeConnectionContext = (client: HdbClient, hdbOptions: Record<string, unknown>): ConnectionContext => ({
  client,
  hdbOptions,
  inserts: new Map(),
  cancellation: makeCancellation(),
  autocommit: true
})

/** Drops every cached INSERT statement (after DDL or a schema change). @category operations @since 0.2.0 */
export const clearInserts = (ctx: ConnectionContext): Effect.Effect<void> =>
  Effect.suspend(() => {
    const statements = [...ctx.inserts.values()]
    ctx.inserts.clear()
    return Effect.forEach(statements, Hdb.dropStatement, { discard: true })
  })

/**
 * Asks the server, from a second session, to cancel the statement this session is running.
 *
 * @category operations
 * @since 0.2.0
 */
// The side session connects within the answer budget itself: acquireRelease connects uninterruptibly.
export const cancelOnServer = (ctx: ConnectionContext): Effect.Effect<void, AdbcError> =>
  Effect.suspend(() => {
    const id = ctx.client._connection.connectOptions?.connectionId
    if (id === undefined) return Effect.fail(notImplemented("the session id is unknown; cannot cancel"))
    return Effect.scoped(
      Effect.gen(function*() {
        const side = yield* Effect.acquireRelease(Hdb.connect({ ...ctx.hdbOptions }, Hdb.ANSWER_BUDGET_MS), Hdb.disconnect)
        yield* Hdb.executeDirect(side, `ALTER SYSTEM CANCEL SESSION '${id}'`)
      })
    )
  })

/** Resolves once hdb has no request running or queued on this session. */
const idle = (client: HdbClient): Effect.Effect<void> =>
  Effect.suspend(function poll(): Effect.Effect<void> {
    return client._connection.isIdle() || client.readyState === "closed"
      ? Effect.void
      : Effect.andThen(Effect.sleep(5), Effect.suspend(poll))
  })

/**
 * An interrupted request: the server is asked to cancel it and its answer awaited, all within the answer budget;
 * a server that does not answer in time gets the socket closed (the connection is broken, later calls fail IO).
 */
const stopInterrupted = (ctx: ConnectionContext): Effect.Effect<void> =>
  Effect.suspend(() =>
    ctx.client._connection.isIdle()
      ? Effect.void
      : Hdb.withinBudget(ctx.client, Effect.andThen(Effect.ignore(cancelOnServer(ctx)), idle(ctx.client)))
  )

/**
 * Runs a request so that Connection.cancel can cancel it, and an interrupt cancels it on the server.
 *
 * @category operations
 * @since 0.2.0
 */
export const tracked = <A, E, R>(ctx: ConnectionContext, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  ctx.cancellation.running(Effect.onInterrupt(effect, () => stopInterrupted(ctx)))
