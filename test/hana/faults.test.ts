import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { realHana, useServer, withConnection } from "./support.ts"

// Network faults are injected by the test server; a real HANA cannot be asked to drop a socket.
const server = useServer()

describe.skipIf(realHana)("network faults and cancel", () => {
  it.effect("connect to a closed port is IO; refused login is UNAUTHENTICATED", () =>
    Effect.gen(function*() {
      const closed = yield* Effect.flip(withConnection("hdb://SYSTEM:Manager1@127.0.0.1:1", Effect.void))
      expect(closed.status).toBe("IO")
      server.server!.faults.refuseLogins = true
      const refused = yield* Effect.flip(withConnection(server.uri, Effect.void))
      server.server!.faults.refuseLogins = false
      expect(refused.status).toBe("UNAUTHENTICATED")
      expect(refused.vendorCode).toBe(10)
      expect(refused.message).not.toContain("Manager1")
    }))

  it.effect("cancel with nothing running is INVALID_STATE", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const error = yield* Effect.flip(conn.cancel)
      expect(error.status).toBe("INVALID_STATE")
    })))

  it.effect("the URI timeout bounds connecting", () =>
    Effect.gen(function*() {
      server.server!.faults.replyDelayMs = 3000
      const sep = server.uri.includes("?") ? "&" : "?"
      const start = Date.now()
      const error = yield* Effect.flip(withConnection(`${server.uri}${sep}timeout=1`, Effect.void))
      server.server!.faults.replyDelayMs = 0
      expect(error.status).toBe("TIMEOUT")
      expect(Date.now() - start).toBeLessThan(2900)
    }))

  it.live("pingInterval pings an idle session (observed through the server's reply count)", () =>
    Effect.gen(function*() {
      const sep = server.uri.includes("?") ? "&" : "?"
      const idleThenQuery = Effect.flatMap(Connection.Connection, (conn) =>
        Effect.promise(() => new Promise((r) => setTimeout(r, 3500))).pipe(
          Effect.andThen(Stream.runCollect(conn.query("SELECT 1 AS X FROM DUMMY")))
        ))
      // Login takes two replies (AUTHENTICATE, CONNECT); the server closes the socket after the 4th.
      server.server!.faults.dropAfterReplies = 4
      const quiet = yield* Effect.exit(withConnection(server.uri, idleThenQuery))
      const pinging = yield* Effect.flip(withConnection(`${server.uri}${sep}pingInterval=1`, idleThenQuery))
      server.server!.faults.dropAfterReplies = undefined
      expect(quiet._tag).toBe("Success")
      expect(pinging.status).toBe("IO")
    }), 20_000)

  it.live("cancel stops a running statement (ALTER SYSTEM CANCEL SESSION from a second session)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const running = yield* Effect.forkChild(Effect.flip(conn.execute(
        "SELECT SUM(A.GENERATED_PERIOD_START * B.GENERATED_PERIOD_START) AS S FROM SERIES_GENERATE_INTEGER(1, 0, 200000) A, SERIES_GENERATE_INTEGER(1, 0, 200000) B"
      )))
      yield* Effect.sleep("500 millis")
      yield* conn.cancel
      const error = yield* Fiber.join(running).pipe(Effect.timeout("20 seconds"))
      expect(error.status).toBe("CANCELLED")
      expect(error.vendorCode).toBe(139)
      // the session is still usable
      const after = yield* Stream.runCollect(conn.query("SELECT 1 AS X FROM DUMMY"))
      expect(after.length).toBe(1)
    })), 30_000)
})
