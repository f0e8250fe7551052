/**
 * The close and cancelled-read body both drivers' cursors share: a cursor closes once (its cancel token released,
 * its current result set closed on the server, then whatever else the cursor holds), and a read that a cancel came
 * before closes the current result set and fails with the driver's cancel error instead of reading on. The driver
 * supplies how its current result set closes and what its cancel error is.
 *
 * @since 0.2.0
 */
import { Effect } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import type { CancelToken } from "./Cancellation.ts"

/** A cursor's close and cancelled read. @category models @since 0.2.0 */
export interface CursorLifecycle {
  /** Whether {@link CursorLifecycle.close} ran. */
  readonly closed: () => boolean
  /** A read a cancel came before: the current result set is closed, then the driver's cancel error. */
  readonly failCancelled: Effect.Effect<never, AdbcError>
  /** Closes the cursor: the token released, the current result set closed, then `onClose` (even if that failed). Idempotent. */
  readonly close: Effect.Effect<void>
}

/**
 * The lifecycle of one cursor.
 *
 * @category constructors
 * @since 0.2.0
 */
export const makeCursorLifecycle = (options: {
  /** The cursor's view of its connection's cancels. */
  readonly token: CancelToken
  /** Closes the result set being read, if any (on the server when it is still open there). Never fails. */
  readonly closeCurrent: Effect.Effect<void>
  /** The driver's error of a cancelled read. */
  readonly cancelledError: () => AdbcError
  /** Runs after the result set is closed on close (e.g. dropping the prepared statement). */
  readonly onClose?: Effect.Effect<void> | undefined
}): CursorLifecycle => {
  let closed = false
  return {
    closed: () => closed,
    failCancelled: Effect.andThen(options.closeCurrent, Effect.failSync(options.cancelledError)),
    close: Effect.suspend(() => {
      if (closed) return Effect.void
      closed = true
      options.token.close()
      return options.onClose === undefined ? options.closeCurrent : options.closeCurrent.pipe(Effect.ensuring(options.onClose))
    })
  }
}
