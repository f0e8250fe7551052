/**
 * The state one open connection shares with its statements and readers: the driver session, a lock that keeps one
 * request in flight per client (or one whole transaction or ingest, see {@link Session.exclusive}), the count of
 * active readers, and the secrets to keep out of errors.
 */
import { Context, Effect, Semaphore } from "effect"
import { type AdbcError, fromUnknown, invalidState } from "../AdbcError.ts"
import type { DriverConnection, DriverShape } from "../Driver.ts"
import type { OptionRegistry, ResolvedOptions } from "../Options.ts"
import type { ConnectionTelemetry } from "./telemetry.ts"

/** Internal: one open connection. */
export interface Session {
  readonly driver: DriverShape
  readonly connection: DriverConnection
  readonly registry: OptionRegistry
  /** Connection and database options, narrowest first. */
  readonly options: () => ResolvedOptions
  /** What spans and log lines say about this connection. */
  readonly telemetry: ConnectionTelemetry
  /** Runs one driver request: fails if the connection is closed, serialises requests, redacts secrets. */
  readonly request: <A, R>(effect: Effect.Effect<A, AdbcError, R>) => Effect.Effect<A, AdbcError, R>
  /**
   * Runs `effect` holding the connection for its whole duration: requests of other fibers wait until it ends, the
   * effect's own requests (and those of fibers it forks) run without waiting. A transaction or an ingest that
   * switches autocommit off runs here, so no other fiber's statement lands inside it.
   */
  readonly exclusive: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Redacts secrets from errors of an effect that does not take the lock. */
  readonly guard: <A, R>(effect: Effect.Effect<A, AdbcError, R>) => Effect.Effect<A, AdbcError, R>
  readonly readers: {
    readonly acquire: () => void
    readonly release: () => void
    readonly active: () => number
  }
  readonly state: { autocommit: boolean; closed: boolean }
}

/** The sessions the current fiber holds exclusively (inherited by the fibers it forks). */
const HeldSessions = Context.Reference<ReadonlySet<object>>("effect-adbc/internal/session/HeldSessions", {
  defaultValue: () => new Set()
})

/** Internal: builds a {@link Session}. */
export const makeSession = (input: {
  readonly driver: DriverShape
  readonly connection: DriverConnection
  readonly registry: OptionRegistry
  readonly options: () => ResolvedOptions
  readonly telemetry: ConnectionTelemetry
}): Session => {
  const lock = Semaphore.makeUnsafe(1)
  const state = { autocommit: true, closed: false }
  let readers = 0
  const guard = <A, R>(effect: Effect.Effect<A, AdbcError, R>): Effect.Effect<A, AdbcError, R> =>
    effect.pipe(
      Effect.catchDefect((defect) => Effect.fail(fromUnknown(defect, "INTERNAL"))),
      Effect.mapError((error) => fromUnknown(error, "UNKNOWN", input.options().secrets()))
    )
  const token = {}
  const locked = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(HeldSessions, (held) => held.has(token) ? effect : lock.withPermit(effect))
  const request = <A, R>(effect: Effect.Effect<A, AdbcError, R>): Effect.Effect<A, AdbcError, R> =>
    guard(
      Effect.suspend(() => state.closed ? Effect.fail(invalidState("connection is closed")) : locked(effect))
    )
  const exclusive = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(HeldSessions, (held) =>
      held.has(token)
        ? effect
        : lock.withPermit(Effect.provideService(effect, HeldSessions, new Set([...held, token]))))
  return {
    ...input,
    request,
    exclusive,
    guard,
    readers: {
      acquire: () => {
        readers++
      },
      release: () => {
        readers--
      },
      active: () => readers
    },
    state
  }
}
