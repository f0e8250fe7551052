import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { realHana, useServer, withConnection } from "./support.ts"

// Interruption is cancellation: the server is asked to stop and the fiber returns within a second (HANA SQL that
// sleeps on the server). Silent servers (stall after handshake, stall mid-result) are conformance rules
// (test/conformance/rules/faults.ts).
const server = useServer()

const elapsed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const start = Date.now()
    const exit = yield* Effect.exit(effect)
    return { exit, ms: Date.now() - start }
  })

describe.skipIf(realHana)("interruption cancels on the server", () => {
  it.live("Effect.timeout on SELECT SLEEP_SECONDS(15) returns within 1 s and the next query runs at once", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const { exit, ms } = yield* elapsed(
        Stream.runCollect(conn.query("SELECT SLEEP_SECONDS(15) AS X FROM DUMMY")).pipe(Effect.timeout("300 millis"))
      )
      expect(exit._tag).toBe("Failure")
      expect(ms).toBeLessThan(1300)
      const next = yield* elapsed(Stream.runCollect(conn.query("SELECT 1 AS X FROM DUMMY")))
      expect(next.exit._tag).toBe("Success")
      expect(next.ms).toBeLessThan(1000)
    })), 30_000)

  it.live("an interrupted INSERT ... SLEEP_SECONDS never commits its row", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.execute("CREATE TABLE INTR_INS (X INTEGER)")
      const fiber = yield* Effect.forkChild(conn.execute("INSERT INTO INTR_INS SELECT 1 FROM DUMMY WHERE SLEEP_SECONDS(3) IS NOT NULL"))
      yield* Effect.sleep("300 millis")
      const { ms } = yield* elapsed(Fiber.interrupt(fiber))
      expect(ms).toBeLessThan(1000)
      yield* Effect.sleep("3500 millis")
      const rows = yield* Stream.runCollect(conn.query("SELECT COUNT(*) AS N FROM INTR_INS"))
      expect(Number(rows[0]!.getChild("N")!.get(0))).toBe(0)
    })), 30_000)
})
