/**
 * The state one open connection shares with its statements and readers: the driver session, a lock that keeps one
 * request in flight per client, the count of active readers, and the secrets to keep out of errors.
 */
import { Effect, Semaphore } from "effect"
import { type AdbcError, fromUnknown, invalidState } from "../AdbcError.ts"
import type { DriverConnection, DriverShape } from "../Driver.ts"
import type { OptionRegistry, ResolvedOptions } from "../Options.ts"

/** Internal: one open connection. */
export interface Session {
  readonly driver: DriverShape
  readonly connection: DriverConnection
  readonly registry: OptionRegistry
  /** Connection and database options, narrowest first. */
  readonly options: () => ResolvedOptions
  /** Runs one driver request: fails if the connection is closed, serialises requests, redacts secrets. */
  readonly request: <A, R>(effect: Effect.Effect<A, AdbcError, R>) => Effect.Effect<A, AdbcError, R>
  /** Redacts secrets from errors of an effect that does not take the lock. */
  readonly guard: <A, R>(effect: Effect.Effect<A, AdbcError, R>) => Effect.Effect<A, AdbcError, R>
  readonly readers: {
    readonly acquire: () => void
    readonly release: () => void
    readonly active: () => number
  }
  readonly state: { autocommit: boolean; closed: boolean }
}

/** Internal: builds a {@link Session}. */
export const makeSession = (input: {
  readonly driver: DriverShape
  readonly connection: DriverConnection
  readonly registry: OptionRegistry
  readonly options: () => ResolvedOptions
}): Session => {
  const lock = Semaphore.makeUnsafe(1)
  const state = { autocommit: true, closed: false }
  let readers = 0
  const guard = <A, R>(effect: Effect.Effect<A, AdbcError, R>): Effect.Effect<A, AdbcError, R> =>
    effect.pipe(
      Effect.catchDefect((defect) => Effect.fail(fromUnknown(defect, "INTERNAL"))),
      Effect.mapError((error) => fromUnknown(error, "UNKNOWN", input.options().secrets()))
    )
  const request = <A, R>(effect: Effect.Effect<A, AdbcError, R>): Effect.Effect<A, AdbcError, R> =>
    guard(
      Effect.suspend(() => state.closed ? Effect.fail(invalidState("connection is closed")) : lock.withPermit(effect))
    )
  return {
    ...input,
    request,
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
