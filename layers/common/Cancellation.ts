/**
 * What an ADBC cancel of one connection reaches, in both drivers: the server call running now (an execute, a fetch,
 * an ingest batch) and the readers still open. A running call is stopped by the driver's own means (a break, a
 * cancel from a second session); an open reader is marked cancelled, so that its next read fails CANCELLED and
 * releases its server cursor instead of reading on. A cancel with neither is INVALID_STATE.
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import { type AdbcError, invalidState } from "../../src/AdbcError.ts"

/** One open reader's view of the cancels of its connection. @category models @since 0.1.0 */
export interface CancelToken {
  /** Whether a cancel came since the reader was opened, or since the call that opened it began. */
  readonly cancelled: () => boolean
  /** The reader is closed: later cancels no longer count it. Idempotent. */
  readonly close: () => void
}

/** The cancel state of one connection. @category models @since 0.1.0 */
export interface Cancellation {
  /** Runs `effect` as a server call: a cancel meanwhile stops it (see {@link Cancellation.cancel}). May nest. */
  readonly running: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Registers a reader being opened; close its token when the reader closes. */
  readonly reader: () => CancelToken
  /**
   * A cancel: every open reader is marked cancelled and a running call is stopped with `stopCall`. Fails
   * INVALID_STATE when no call runs and no reader is open.
   */
  readonly cancel: (stopCall: Effect.Effect<void, AdbcError>) => Effect.Effect<void, AdbcError>
}

/**
 * The cancel state of a new connection.
 *
 * @category constructors
 * @since 0.1.0
 */
export const makeCancellation = (): Cancellation => {
  let cancels = 0
  let calls = 0
  /** `cancels` when the outermost running call began: a reader it opens counts cancels from then. */
  let callSince = 0
  let readers = 0
  return {
    running: (effect) =>
      Effect.suspend(() => {
        if (calls++ === 0) callSince = cancels
        return Effect.ensuring(effect, Effect.sync(() => {
          calls--
        }))
      }),
    reader: () => {
      const since = calls > 0 ? callSince : cancels
      let open = true
      readers++
      return {
        cancelled: () => cancels !== since,
        close: () => {
          if (!open) return
          open = false
          readers--
        }
      }
    },
    cancel: (stopCall) =>
      Effect.suspend(() => {
        if (calls === 0 && readers === 0) {
          return Effect.fail(invalidState("no statement is running and no result is being read on this connection"))
        }
        cancels++
        return calls > 0 ? stopCall : Effect.void
      })
  }
}
