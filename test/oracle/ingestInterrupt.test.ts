/**
 * Interrupting a large fast-path ingest while its rows are on the wire (oracledb thin against the test server): the
 * fiber returns promptly, the target is exactly as before (an append adds no row, a create leaves no table) with no
 * side table left, the same connection either answers the next statement or was dropped and says so, and the server
 * stops receiving rows, ends a dropped session and keeps no cursor with unread rows.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Exit, Stream } from "effect"
import { encodedRowsSent } from "../../layers/oracle/EncodedBinds.ts"
import * as Connection from "../../src/Connection.ts"
import * as Large from "../support/interruptedIngest.ts"
import { realOracle, uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const column = (sql: string, name: string) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(Stream.runCollect(conn.query(sql)), (batches) =>
      new Arrow.Table([...batches]).toArray().map((r) => String(r.toJSON()[name]))))

/**
 * Runs an ingest into a fresh target (append: an existing table of three rows; create: no table), interrupts it once
 * the server has rows of it, and checks the target and its side tables from a fresh connection. Returns how the same
 * connection answered its next statement.
 */
const interruptedIngest = (mode: "append" | "create", holdReplies: boolean) => {
  const target = uniqueName("INTR_ING")
  const ids = column(`SELECT "ID" FROM "${target}" ORDER BY "ID"`, "ID")
  // the target and any build-and-swap side table (TARGET__ADBC_NEW_...)
  const tables = column(`SELECT TABLE_NAME FROM USER_TABLES WHERE TABLE_NAME LIKE '${target}%'`, "TABLE_NAME")
  const state = Effect.map(Effect.all([tables, Effect.exit(ids)]), ([names, rows]) =>
    names.length === 0 ? "no table" : `${names.join(",")}: ${Exit.isSuccess(rows) ? rows.value.join(",") : "unreadable"}`)
  const expected = mode === "append" ? `${target}: 1,2,3` : "no table"
  return Effect.gen(function*() {
    const { stats, faults, sessionCount, openResultSets } = server.server!
    const sessionsBefore = sessionCount()
    const next = yield* withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      if (mode === "append") {
        yield* conn.execute(`CREATE TABLE "${target}" ("ID" NUMBER(10), "V" BINARY_DOUBLE, "S" NVARCHAR2(40))`)
        yield* conn.execute(`INSERT INTO "${target}" VALUES (1, 0.5, 'one')`)
        yield* conn.execute(`INSERT INTO "${target}" VALUES (2, 1.5, 'two')`)
        yield* conn.execute(`INSERT INTO "${target}" VALUES (3, 2.5, 'three')`)
      }
      expect(yield* state).toBe(expected)

      const received = stats.insertRows
      const seamBefore = encodedRowsSent()
      // Holding every reply: once the server has inserted the first batch's rows, the client is certainly inside
      // that executeMany, waiting for its answer, when the fiber is interrupted.
      if (holdReplies) faults.replyDelayMs = 5_000
      const fiber = yield* Effect.forkChild(
        conn.ingest(Large.largeIngest(), { targetTable: target, mode })
      )
      // Interrupt only once the server has rows of the ingest (the test server counts an executeMany's rows when it
      // has inserted them; the seam counts its rows when the executeMany ends), not after a guessed delay.
      const flowing = () => stats.insertRows > received && (holdReplies || encodedRowsSent() > seamBefore)
      expect(yield* Large.eventually(flowing, 60_000)).toBe(true)
      expect(fiber.pollUnsafe()).toBeUndefined()

      const ms = yield* Large.timedInterrupt(fiber)
      faults.replyDelayMs = 0
      const sent = stats.insertRows - received
      console.log(`oracle ${mode} (${holdReplies ? "server holding its reply" : "server at full speed"}): interrupt returned in ${ms} ms; the server had inserted ${sent} of ${Large.BATCHES * Large.BATCH_ROWS} rows`)
      expect(ms).toBeLessThan(Large.INTERRUPT_BOUND_MS)
      // the seam counts the rows it wrote when its executeMany ends, interrupted or not: the fast path ran
      expect(encodedRowsSent() - seamBefore).toBeGreaterThanOrEqual(Large.BATCH_ROWS)
      expect(encodedRowsSent() - seamBefore).toBeLessThan(Large.BATCHES * Large.BATCH_ROWS)
      yield* Large.expectNoMoreRows(stats)
      // The same connection answers the next statement (with the target as before), or was dropped and says so.
      const next = yield* Effect.exit(state)
      if (Exit.isSuccess(next)) expect(next.value).toBe(expected)
      return next
    }))
    // A fresh connection sees exactly the original rows, and no __ADBC_NEW_ table is left behind (a dropped session's
    // side table is dropped from a new connection in the background: allow it a few seconds); the server ended the
    // session and holds no cursor with unread rows.
    let seen = ""
    const deadline = Date.now() + 10_000
    do seen = yield* withConnection(server.uri, state)
    while (seen !== expected && Date.now() < deadline && (yield* Effect.sleep("200 millis"), true))
    expect(seen).toBe(expected)
    expect(yield* Large.eventually(() => sessionCount() === sessionsBefore, 5_000)).toBe(true)
    expect(openResultSets()).toBe(0)
    return next
  })
}

describe.skipIf(realOracle)("interrupting a large fast-path ingest", () => {
  for (const mode of ["append", "create"] as const) {
    it.live(`${mode}, server at full speed: ${Large.BATCHES * Large.BATCH_ROWS} rows interrupted mid-ingest return within ${Large.INTERRUPT_BOUND_MS} ms; the target is as before, no side table; the connection goes on`, () =>
      Effect.gen(function*() {
        const next = yield* interruptedIngest(mode, false)
        // the in-band break is answered: the same connection goes on (its answer was checked against the target)
        expect(Exit.isSuccess(next)).toBe(true)
      }), 120_000)

    it.live(`${mode}, server holding its reply: an ingest interrupted inside its executeMany returns within ${Large.INTERRUPT_BOUND_MS} ms; the target is as before, no side table; the dropped connection fails IO`, () =>
      Effect.gen(function*() {
        const next = yield* interruptedIngest(mode, true)
        expect(Exit.isFailure(next)).toBe(true)
        expect(JSON.stringify(next)).toContain("dropped the connection")
      }), 120_000)
  }
})
