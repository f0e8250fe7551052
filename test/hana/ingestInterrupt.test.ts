/**
 * Interrupting a large fast-path ingest while its rows are on the wire (hdb against the test server): the fiber
 * returns promptly, the target is exactly as before (an append adds no row, a create leaves no table), the same
 * connection either answers the next statement or was dropped and says so, and the server stops receiving rows, ends
 * a dropped session and keeps no cursor open.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Exit, Stream } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import * as Large from "../support/interruptedIngest.ts"
import { makeRecorder } from "../telemetry/support.ts"
import { realHana, uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

/** What the target holds: its row count and id sum, or "no table". */
const targetState = (table: string) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.matchEffect(conn.getTableSchema(undefined, undefined, table), {
      onFailure: (e): Effect.Effect<string, AdbcError> => e.status === "NOT_FOUND" ? Effect.succeed("no table") : Effect.fail(e),
      onSuccess: () =>
        Effect.map(Stream.runCollect(conn.query(`SELECT COUNT(*) AS N, SUM("ID") AS T FROM "${table}"`)), (batches) => {
          const t = new Arrow.Table([...batches])
          return `${Number(t.getChild("N")!.get(0))} rows, id sum ${Number(t.getChild("T")!.get(0))}`
        })
    }))

/**
 * Runs an ingest into a fresh target (append: an existing table of three rows; create: no table), interrupts it once
 * the server is receiving its rows, and checks the target from a fresh connection. Returns how the same connection
 * answered its next statement.
 */
const interruptedIngest = (mode: "append" | "create", holdReplies: boolean) => {
  const recorder = makeRecorder()
  const target = uniqueName("INTR_ING")
  return Effect.gen(function*() {
    const { stats, faults, sessionCount, openResultSets } = server.server!
    const sessionsBefore = sessionCount()
    const next = yield* withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      if (mode === "append") {
        yield* conn.execute(`CREATE COLUMN TABLE "${target}" ("ID" INTEGER, "V" DOUBLE, "S" NVARCHAR(40))`)
        yield* conn.execute(`INSERT INTO "${target}" VALUES (1, 0.5, 'one')`)
        yield* conn.execute(`INSERT INTO "${target}" VALUES (2, 1.5, 'two')`)
        yield* conn.execute(`INSERT INTO "${target}" VALUES (3, 2.5, 'three')`)
      }
      const before = yield* targetState(target)
      expect(before).toBe(mode === "append" ? "3 rows, id sum 6" : "no table")

      const received = stats.insertRows
      const fiber = yield* Effect.forkChild(
        conn.ingest(Large.largeIngest(), { targetTable: target, mode }).pipe(
          Effect.provide(recorder.layer)
        )
      )
      // Interrupt only once the server is receiving the ingest's rows, not after a guessed delay.
      expect(yield* Large.eventually(() => stats.insertRows > received, 60_000)).toBe(true)
      // Holding every reply from now on: the cancel's side session and the rollback get no answer in time.
      if (holdReplies) faults.replyDelayMs = 5_000
      expect(fiber.pollUnsafe()).toBeUndefined()

      const ms = yield* Large.timedInterrupt(fiber)
      faults.replyDelayMs = 0
      const sent = stats.insertRows - received
      console.log(`hana ${mode} (${holdReplies ? "server holding its replies" : "server at full speed"}): interrupt returned in ${ms} ms; the server had received ${sent} of ${Large.BATCHES * Large.BATCH_ROWS} rows`)
      expect(ms).toBeLessThan(Large.INTERRUPT_BOUND_MS)
      expect(sent).toBeLessThan(Large.BATCHES * Large.BATCH_ROWS)
      expect(recorder.logs.some((l) => l.annotations["hana.ingest.path"] === "encoded")).toBe(true)
      expect(recorder.logs.some((l) => l.annotations["hana.ingest.path"] === "hdb")).toBe(false)
      yield* Large.expectNoMoreRows(stats)
      // The same connection answers (with the target as before), or was dropped and says so.
      const next = yield* Effect.exit(targetState(target))
      console.log(`hana ${mode}: the same connection then ${Exit.isSuccess(next) ? "answered" : `failed: ${JSON.stringify(next)}`}`)
      if (Exit.isSuccess(next)) expect(next.value).toBe(before)
      return next
    }))
    // A fresh connection sees the target exactly as before; the server ended the session and holds no cursor.
    expect(yield* withConnection(server.uri, targetState(target))).toBe(mode === "append" ? "3 rows, id sum 6" : "no table")
    expect(yield* Large.eventually(() => sessionCount() === sessionsBefore, 5_000)).toBe(true)
    expect(openResultSets()).toBe(0)
    return next
  })
}

/** A dropped connection's next statement fails IO (hdb's closed socket) or INVALID_STATE (the session given up). */
const expectDropped = (next: Exit.Exit<string, AdbcError>) => {
  expect(Exit.isFailure(next)).toBe(true)
  expect(JSON.stringify(next)).toMatch(/EHDBCLOSE|connection is broken/)
}

describe.skipIf(realHana)("interrupting a large fast-path ingest", () => {
  for (const mode of ["append", "create"] as const) {
    it.live(`${mode}, server at full speed: ${Large.BATCHES * Large.BATCH_ROWS} rows interrupted mid-write return within ${Large.INTERRUPT_BOUND_MS} ms; the target is as before; the connection goes on or was dropped`, () =>
      Effect.gen(function*() {
        const next = yield* interruptedIngest(mode, false)
        // The cancel runs on a side session that must log in within 800 ms; on a loaded machine it may not, and
        // then the session is dropped (the server rolls back), which is the other allowed outcome.
        if (Exit.isFailure(next)) expectDropped(next)
      }), 120_000)

    it.live(`${mode}, server holding its replies: an interrupted ingest returns within ${Large.INTERRUPT_BOUND_MS} ms; the target is as before; the dropped connection says so`, () =>
      Effect.gen(function*() {
        expectDropped(yield* interruptedIngest(mode, true))
      }), 120_000)
  }
})
