/**
 * The state one open connection shares with its statements and readers: the driver session, a lock that keeps one
 * request in flight per client (or one whole transaction or ingest, see {@link Session.exclusive}), the count of
 * active readers, and the secrets to keep out of errors.
 */
import { Context, Effect, Fiber, Option, Semaphore } from "effect"
import { type AdbcError, fromUnknown, invalidState } from "../AdbcError.ts"
import type { DriverConnection, DriverShape } from "../Driver.ts"
import type { OptionRegistry, ResolvedOptions } from "../Options.ts"
import * as Std from "../StandardOptions.ts"
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
  /**
   * Holds the connection for the calling fiber (and the fibers it forks from now on) until {@link Session.unclaim}
   * or until that fiber ends, when `onAbandon` runs first (it rolls back what was left open). Autocommit switched
   * off through an option claims the session this way. A no-op when the fiber already holds it.
   */
  readonly claim: (onAbandon: Effect.Effect<void>) => Effect.Effect<void>
  /** Ends the calling fiber's {@link Session.claim}; a no-op when it holds none. */
  readonly unclaim: Effect.Effect<void>
  /** Redacts secrets from errors of an effect that does not take the lock. */
  readonly guard: <A, R>(effect: Effect.Effect<A, AdbcError, R>) => Effect.Effect<A, AdbcError, R>
  /** The open readers: each registers the effect that releases it, so the connection can release them all first. */
  readonly readers: {
    readonly acquire: (release: Effect.Effect<void>) => void
    readonly release: (release: Effect.Effect<void>) => void
    readonly active: () => number
    /** Releases every open reader (the connection's finalizer runs it before the connection closes). */
    readonly releaseAll: Effect.Effect<void>
  }
  /**
   * Runs cleanup after a failure or an interruption (a rollback, switching a session setting back) within a time
   * budget, also when the calling fiber is interrupted and uninterruptible: the cleanup runs in a fiber of its own.
   * When the server has not answered in time the session is given up: the driver's `abort` closes it and later
   * requests fail INVALID_STATE. Never fails.
   */
  readonly settle: (cleanup: Effect.Effect<unknown, AdbcError>, interrupted: boolean) => Effect.Effect<void>
  /** `broken`: why the session was given up, when it was (see {@link Session.settle}). */
  readonly state: { autocommit: boolean; closed: boolean; broken: string | undefined }
  /** Marks the session closed and ends any claim, so fibers waiting for the connection fail instead of hanging. */
  readonly markClosed: Effect.Effect<void>
}

/**
 * How long cleanup after an interruption may wait for the server: an interrupted fiber returns within a second even
 * when the server stopped answering.
 */
export const SETTLE_AFTER_INTERRUPT_MS = 800

/**
 * How long cleanup after a failure may wait: long enough for the rollback of a large transaction, bounded so that a
 * silent server cannot hold the fiber forever.
 */
export const SETTLE_AFTER_FAILURE_MS = 30_000

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
  const state: Session["state"] = { autocommit: Std.Autocommit.default, closed: false, broken: undefined }
  const readers = new Set<Effect.Effect<void>>()
  const guard = <A, R>(effect: Effect.Effect<A, AdbcError, R>): Effect.Effect<A, AdbcError, R> =>
    effect.pipe(
      Effect.catchDefect((defect) => Effect.fail(fromUnknown(defect, "INTERNAL"))),
      Effect.mapError((error) => fromUnknown(error, "UNKNOWN", input.options().secrets()))
    )
  /** The token of whoever holds the lock now (an exclusive region or a claim); fibers carrying it pass. */
  let holder: object | undefined
  let claimed: { readonly fiber: number; readonly detach: () => void } | undefined
  const holds = (fiber: Fiber.Fiber<unknown, unknown>) =>
    holder !== undefined && (fiber.getRef(HeldSessions).has(holder) || claimed?.fiber === fiber.id)
  const locked = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withFiber((fiber) => holds(fiber) ? effect : lock.withPermit(effect))
  const closedError = () =>
    invalidState(state.broken === undefined ? "connection is closed" : `connection is broken: ${state.broken}`)
  const request = <A, R>(effect: Effect.Effect<A, AdbcError, R>): Effect.Effect<A, AdbcError, R> =>
    guard(
      Effect.suspend(() =>
        state.closed
          ? Effect.fail(closedError())
          // a request that waited for the lock may find the connection closed meanwhile
          : locked(Effect.suspend(() => state.closed ? Effect.fail(closedError()) : effect))
      )
    )
  const exclusive = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withFiber((fiber) => {
      if (holds(fiber)) return effect
      const token = {}
      return lock.withPermit(
        Effect.suspend(() => {
          holder = token
          return Effect.provideService(effect, HeldSessions, new Set([...fiber.getRef(HeldSessions), token]))
        }).pipe(Effect.ensuring(Effect.sync(() => {
          holder = undefined
        })))
      )
    })
  const releaseClaim = Effect.suspend(() => {
    if (claimed === undefined) return Effect.void
    claimed.detach()
    claimed = undefined
    holder = undefined
    return Effect.asVoid(lock.release(1))
  })
  const claim = (onAbandon: Effect.Effect<void>): Effect.Effect<void> =>
    Effect.withFiber((fiber) => {
      if (holds(fiber)) return Effect.void
      return Effect.uninterruptibleMask((restore) => Effect.andThen(restore(lock.take(1)), Effect.sync(() => {
        const token = {}
        holder = token
        // fibers forked from now on inherit the token and share the claim
        fiber.setContext(Context.add(fiber.context, HeldSessions, new Set([...fiber.getRef(HeldSessions), token])))
        const detach = fiber.addObserver(() => {
          if (claimed?.fiber !== fiber.id) return
          const abandon = state.closed ? Effect.void : Effect.provideService(onAbandon, HeldSessions, new Set([token]))
          Effect.runFork(Effect.ensuring(abandon, releaseClaim))
        })
        claimed = { fiber: fiber.id, detach }
      })))
    })
  const giveUp = (ms: number) =>
    Effect.suspend(() => {
      if (state.closed) return Effect.void
      state.closed = true
      state.broken = `the server did not answer a rollback or reset within ${ms} ms, so the session was dropped`
      return Effect.andThen(Effect.ignore(input.connection.abort ?? Effect.void), releaseClaim)
    })
  const settle = (cleanup: Effect.Effect<unknown, AdbcError>, interrupted: boolean): Effect.Effect<void> =>
    Effect.suspend(() => {
      if (state.closed) return Effect.void
      const ms = interrupted ? SETTLE_AFTER_INTERRUPT_MS : SETTLE_AFTER_FAILURE_MS
      // A fresh fiber (it inherits the held-session token): a timeout inside the interrupted caller would interrupt
      // the cleanup at once, or never fire where the caller is uninterruptible.
      return Effect.forkDetach(Effect.timeoutOption(Effect.exit(cleanup), ms)).pipe(
        Effect.flatMap(Fiber.join),
        Effect.flatMap((answered) => Option.isNone(answered) ? giveUp(ms) : Effect.void)
      )
    })
  const unclaim = Effect.withFiber((fiber) => claimed?.fiber === fiber.id ? releaseClaim : Effect.void)
  return {
    ...input,
    request,
    exclusive,
    claim,
    unclaim,
    settle,
    guard,
    readers: {
      acquire: (release) => {
        readers.add(release)
      },
      release: (release) => {
        readers.delete(release)
      },
      active: () => readers.size,
      releaseAll: Effect.suspend(() => Effect.forEach([...readers], (release) => release, { discard: true }))
    },
    state,
    markClosed: Effect.suspend(() => {
      state.closed = true
      return releaseClaim
    })
  }
}
