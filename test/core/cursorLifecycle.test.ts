import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { adbcError } from "../../src/AdbcError.ts"
import { makeCancellation } from "../../layers/common/Cancellation.ts"
import { makeCursorLifecycle } from "../../layers/common/CursorLifecycle.ts"

// layers/common/CursorLifecycle.ts: the close / cancelled-read body the drivers' cursors share.
const setup = () => {
  const cancellation = makeCancellation()
  const events: Array<string> = []
  const lifecycle = makeCursorLifecycle({
    token: cancellation.reader(),
    closeCurrent: Effect.sync(() => events.push("closeCurrent")),
    cancelledError: () => adbcError("CANCELLED", "cancelled"),
    onClose: Effect.sync(() => events.push("onClose"))
  })
  return { cancellation, events, lifecycle }
}

describe("CursorLifecycle", () => {
  it.effect("close closes the result set, then runs onClose, once; the token no longer counts the reader", () =>
    Effect.gen(function*() {
      const { cancellation, events, lifecycle } = setup()
      expect(lifecycle.closed()).toBe(false)
      yield* lifecycle.close
      yield* lifecycle.close
      expect(events).toEqual(["closeCurrent", "onClose"])
      expect(lifecycle.closed()).toBe(true)
      // no reader open and no call running: a cancel has nothing to reach
      const cancel = yield* Effect.exit(cancellation.cancel(Effect.void))
      expect(Exit.isFailure(cancel)).toBe(true)
    }))

  it.effect("onClose runs even when closing the result set dies", () =>
    Effect.gen(function*() {
      const events: Array<string> = []
      const lifecycle = makeCursorLifecycle({
        token: makeCancellation().reader(),
        closeCurrent: Effect.die("socket gone"),
        cancelledError: () => adbcError("CANCELLED", "cancelled"),
        onClose: Effect.sync(() => events.push("onClose"))
      })
      yield* Effect.exit(lifecycle.close)
      expect(events).toEqual(["onClose"])
    }))

  it.effect("a cancelled read closes the result set and fails with the driver's error, without closing the cursor", () =>
    Effect.gen(function*() {
      const { events, lifecycle } = setup()
      const error = yield* Effect.flip(lifecycle.failCancelled)
      expect(error.status).toBe("CANCELLED")
      expect(events).toEqual(["closeCurrent"])
      expect(lifecycle.closed()).toBe(false)
    }))
})
