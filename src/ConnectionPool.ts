/**
 * A pool of connections on a Database (Effect's `Pool`), so that concurrent fibers use one connection each instead
 * of queueing on one session. A connection is checked on checkout (discarded and replaced when its session is gone)
 * and discarded when an operation on it failed with IO. Its connections, their states and the waits for one are
 * recorded in OpenTelemetry's connection metrics (`db.client.connection.*`, see `Telemetry`).
 *
 * @since 0.1.0
 */
import { Context, Effect, Exit, Fiber, Layer, Metric, Pool, Scope } from "effect"
import { type AdbcError, adbcError, invalidArgument } from "./AdbcError.ts"
import * as Connection from "./Connection.ts"
import { Database } from "./Database.ts"
import { Attr, connectionTelemetry } from "./internal/telemetry.ts"
import { connectionCount, connectionMax, connectionWaitTime } from "./Telemetry.ts"

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
  /**
   * The pool's `db.client.connection.pool.name` in metrics; by default `server.address:server.port/db.namespace` of
   * the database (what OpenTelemetry suggests for a pool without a name).
   */
  readonly name?: string | undefined
  readonly connectionOptions?: Readonly<Record<string, string>> | undefined
}

/** Connections a pool opens at most when no size is given. @category constants @since 0.1.0 */
export const DEFAULT_POOL_SIZE = 4

const POOL_NAME = "db.client.connection.pool.name"
const STATE = "db.client.connection.state"

/** OpenTelemetry's suggestion for a pool without a name: `server.address:server.port/db.namespace`. */
const poolName = (database: Database["Service"]): string => {
  const attributes = connectionTelemetry(database.driver, database.options()).attributes
  const port = attributes[Attr.serverPort]
  const namespace = attributes[Attr.namespace]
  return `${attributes[Attr.serverAddress] ?? attributes[Attr.systemName]}${port === undefined ? "" : `:${port}`}${
    namespace === undefined ? "" : `/${namespace}`
  }`
}

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
  const name = options.name ?? poolName(database)
  const poolAttributes = { [POOL_NAME]: name }
  const idle = Metric.withAttributes(connectionCount, { ...poolAttributes, [STATE]: "idle" })
  const used = Metric.withAttributes(connectionCount, { ...poolAttributes, [STATE]: "used" })
  const waitTime = Metric.withAttributes(connectionWaitTime, poolAttributes)
  const max = Metric.withAttributes(connectionMax, poolAttributes)
  yield* Metric.update(max, size)
  yield* Effect.addFinalizer(() => Metric.update(max, -size))
  // A connection counts as idle from its opening until it is closed, except while it is borrowed (below).
  const opened = Connection.make(database, options.connectionOptions).pipe(
    Effect.tap(() =>
      Effect.andThen(Metric.update(idle, 1), Effect.addFinalizer(() => Metric.update(idle, -1)))
    )
  )
  const pool = yield* Pool.makeWithTTL({
    acquire: opened,
    min: 0,
    max: size,
    timeToLive: "5 minutes"
  })
  // The pool's shutdown waits for its borrowed connections. A fiber still borrowing one when the pool's scope closes
  // (a child forked by a program that failed, whose children are interrupted only after this scope is closed) would
  // hold that wait until its server call returns: interrupt the borrowers first, which cancels their server calls
  // and gives their connections back. Added after the pool, so it runs before the pool's own finalizer.
  const borrowers = new Map<object, Fiber.Fiber<unknown, unknown>>()
  yield* Effect.addFinalizer(() =>
    Effect.withFiber((self) =>
      Fiber.interruptAll(new Set([...borrowers.values()].filter((fiber) => fiber !== self)))
    )
  )

  // Each attempt borrows in its own scope, so a discarded connection goes back to the pool (and is closed) at once.
  const get: Effect.Effect<Connection.ConnectionShape, AdbcError, Scope.Scope> = Effect.gen(function*() {
    const outer = yield* Effect.scope
    const start = performance.now()
    for (let attempt = 0; attempt <= size; attempt++) {
      const borrow = yield* Scope.make()
      const connection = yield* Pool.get(pool).pipe(
        Scope.provide(borrow),
        Effect.onError(() => Scope.close(borrow, Exit.void))
      )
      if (yield* connection.isUsable) {
        yield* Metric.update(waitTime, (performance.now() - start) / 1000)
        yield* Effect.andThen(Metric.update(idle, -1), Metric.update(used, 1))
        yield* Scope.addFinalizer(borrow, Effect.andThen(Metric.update(used, -1), Metric.update(idle, 1)))
        const borrowed = {}
        borrowers.set(borrowed, yield* Effect.fiber)
        yield* Scope.addFinalizer(borrow, Effect.sync(() => borrowers.delete(borrowed)))
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
