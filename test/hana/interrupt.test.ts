import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { realHana, useServer, withConnection } from "./support.ts"

// Interruption is cancellation: the server is asked to stop, the fiber returns within a second, a silent server
// gets its connection closed instead of a hang.
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

  it.live("a server that stops answering mid-result: interrupting returns within 1 s and closing the connection does not hang", () =>
    Effect.gen(function*() {
      const outcome = yield* withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        yield* conn.execute("CREATE TABLE INTR_STALL AS (SELECT GENERATED_PERIOD_START AS I FROM SERIES_GENERATE_INTEGER(1, 0, 5000))")
        const stream = conn.query("SELECT * FROM INTR_STALL", { "dba.statement.fetch_size": "100", "dba.statement.read_batch_rows": "100" }).pipe(
          Stream.tap((batch) =>
            Effect.sync(() => {
              // the server goes silent once the first page arrived
              server.server!.faults.replyDelayMs = 60_000
              return batch
            })
          )
        )
        const { exit, ms } = yield* elapsed(Stream.runCollect(stream).pipe(Effect.timeout("200 millis")))
        return { exit, ms }
      })).pipe(
        Effect.ensuring(Effect.sync(() => {
          server.server!.faults.replyDelayMs = 0
        })),
        elapsed
      )
      expect(outcome.ms).toBeLessThan(4000)
      expect(outcome.exit._tag).toBe("Success")
      if (outcome.exit._tag === "Success") {
        expect(outcome.exit.value.exit._tag).toBe("Failure")
        expect(outcome.exit.value.ms).toBeLessThan(1300)
      }
    }), 30_000)


  it.live("a server that answers the handshake then goes silent: Effect.timeout on a statement returns within 1 s, closing does not hang", () =>
    Effect.gen(function*() {
      const { ms, exit } = yield* elapsed(withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        server.server!.faults.replyDelayMs = 60_000
        return yield* elapsed(conn.execute("SELECT 1 AS X FROM DUMMY").pipe(Effect.timeout("200 millis")))
      })).pipe(Effect.ensuring(Effect.sync(() => {
        server.server!.faults.replyDelayMs = 0
      }))))
      expect(exit._tag).toBe("Success")
      if (exit._tag === "Success") {
        expect(exit.value.exit._tag).toBe("Failure")
        expect(exit.value.ms).toBeLessThan(1300)
      }
      expect(ms).toBeLessThan(3000)
    }), 30_000)
})
