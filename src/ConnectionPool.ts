/**
 * A pool of connections on a Database (Effect's `Pool`), so that concurrent fibers use one connection each instead
 * of queueing on one session. A connection is checked on checkout (discarded and replaced when its session is gone)
 * and discarded when an operation on it failed with IO.
 *
 * @since 0.1.0
 */
import { Context, Effect, Exit, Layer, Pool, Scope } from "effect"
import { type AdbcError, adbcError, invalidArgument } from "./AdbcError.ts"
import * as Connection from "./Connection.ts"
import { Database } from "./Database.ts"

/**
 * Connections of a pool.
 *
 * @category models
 * @since 0.1.0
 */
export interface ConnectionPoolShape {
  /** Borrows a usable connection until the current scope closes. */
  readonly get: Effect.Effect<Connection.ConnectionShape, AdbcError, Scope.Scope>
  /** Runs `f` with a borrowed connection, given back when `f` ends (discarded when `f` failed with IO). */
  readonly use: <A, E, R>(
    f: (connection: Connection.ConnectionShape) => Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | AdbcError, R>
}

/**
 * The connection pool in use.
 *
 * @category services
 * @since 0.1.0
 */
export class ConnectionPool extends Context.Service<ConnectionPool, ConnectionPoolShape>()("effect-adbc/ConnectionPool") {}

/**
 * Pool settings: the most connections open at once (default {@link DEFAULT_POOL_SIZE}) and the connection-level
 * options each connection is opened with.
 *
 * @category models
 * @since 0.1.0
 */
export interface PoolOptions {
  readonly size?: number | undefined
  readonly connectionOptions?: Readonly<Record<string, string>> | undefined
}

/** Connections a pool opens at most when no size is given. @category constants @since 0.1.0 */
export const DEFAULT_POOL_SIZE = 4

const isIo = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { status?: unknown }).status === "IO"

/**
 * Creates a pool on `database`, closed with the current scope. Connections are opened on demand.
 *
 * @category constructors
 * @since 0.1.0
 */
export const make = Effect.fnUntraced(function*(
  database: Database["Service"],
  options: PoolOptions = {}
): Effect.fn.Return<ConnectionPoolShape, AdbcError, Scope.Scope> {
  const size = options.size ?? DEFAULT_POOL_SIZE
  if (!Number.isInteger(size) || size < 1) {
    return yield* invalidArgument(`pool size ${size} is not accepted: expected a positive integer`)
  }
  const pool = yield* Pool.makeWithTTL({
    acquire: Connection.make(database, options.connectionOptions),
    min: 0,
    max: size,
    timeToLive: "5 minutes"
  })

  // Each attempt borrows in its own scope, so a discarded connection goes back to the pool (and is closed) at once.
  const get: Effect.Effect<Connection.ConnectionShape, AdbcError, Scope.Scope> = Effect.gen(function*() {
    const outer = yield* Effect.scope
    for (let attempt = 0; attempt <= size; attempt++) {
      const borrow = yield* Scope.make()
      const connection = yield* Pool.get(pool).pipe(
        Scope.provide(borrow),
        Effect.onError(() => Scope.close(borrow, Exit.void))
      )
      if (yield* connection.isUsable) {
        yield* Scope.addFinalizer(outer, Scope.close(borrow, Exit.void))
        return connection
      }
      yield* Pool.invalidate(pool, connection)
      yield* Scope.close(borrow, Exit.void)
    }
    return yield* Effect.fail(adbcError("IO", `no usable connection after ${size + 1} attempts`))
  })

  return {
    get,
    use: (f) =>
      Effect.scoped(
        Effect.flatMap(get, (connection) =>
          f(connection).pipe(
            Effect.tapError((error) => isIo(error) ? Pool.invalidate(pool, connection) : Effect.void)
          ))
      )
  }
})

/**
 * A layer providing a {@link ConnectionPool} on the {@link Database}, closed when the layer is released.
 *
 * @category layers
 * @since 0.1.0
 */
export const layer = (options: PoolOptions = {}): Layer.Layer<ConnectionPool, AdbcError, Database> =>
  Layer.effect(ConnectionPool, Effect.flatMap(Database, (database) => make(database, options)))
