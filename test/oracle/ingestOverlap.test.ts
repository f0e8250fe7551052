/**
 * The fast-path ingest encodes the next call's rows while the server works on the current executeMany (as the HANA
 * ingest does), through the real oracledb client against the test server. The server holds the reply to the first
 * insert call (OracleFaults.holdReplies) until the test lets it go: the second call's rows must be encoded while that
 * call is still open, and the second call must not have started. Then the ingest ends with every row stored once.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Fiber, Stream } from "effect"
import { ingestCallsMade } from "../../layers/oracle/EncodedBinds.ts"
import { rowsEncoded } from "../../layers/oracle/IngestEncoder.ts"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { eventually } from "../support/interruptedIngest.ts"
import { realOracle, uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

/** Rows per call (redo.statement.insert_batch_rows) and calls in the ingest's one Arrow batch. */
const PER_CALL = 2_000
const CALLS = 3

const table = (rows: number) =>
  new Arrow.Table({
    id: Arrow.makeVector(Int32Array.from({ length: rows }, (_, i) => i)),
    name: Arrow.vectorFromArray(Array.from({ length: rows }, (_, i) => `n${i}`), new Arrow.Utf8())
  })

describe.skipIf(realOracle)("Oracle ingest overlaps encoding with the server's work", () => {
  it.live(`the second call's ${PER_CALL} rows are encoded while the first executeMany waits for its reply`, () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const { stats, faults } = server.server!
      const target = uniqueName("OVERLAP")
      const received = stats.insertRows
      const encodedBefore = rowsEncoded()
      const callsBefore = ingestCallsMade()
      let release: () => void = () => undefined
      const gate = new Promise<void>((resolve) => {
        release = resolve
      })
      let holding = false
      // the first reply sent after the server inserted rows is the first insert call's: hold it
      faults.holdReplies = () => {
        if (stats.insertRows === received) return undefined
        faults.holdReplies = undefined
        holding = true
        return gate
      }
      const fiber = yield* Effect.forkChild(
        conn.ingest(fromTable(table(PER_CALL * CALLS)), { targetTable: target })
      )
      const outcome = yield* Effect.gen(function*() {
        expect(yield* eventually(() => holding, 60_000)).toBe(true)
        // while the first call is held open: the second call's rows get encoded, and no second call starts
        const encodedWhileHeld = yield* eventually(() => rowsEncoded() - encodedBefore >= 2 * PER_CALL, 30_000)
        return {
          encodedWhileHeld,
          callsWhileHeld: ingestCallsMade() - callsBefore,
          insertedWhileHeld: stats.insertRows - received
        }
      }).pipe(Effect.ensuring(Effect.sync(() => {
        faults.holdReplies = undefined
        release()
      })))
      expect(outcome).toEqual({ encodedWhileHeld: true, callsWhileHeld: 1, insertedWhileHeld: PER_CALL })
      expect(yield* Fiber.join(fiber)).toBe(PER_CALL * CALLS)
      const stored = new Arrow.Table(
        yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS C, SUM("id") AS S FROM "${target}"`))
      ).get(0)!.toJSON()
      const rows = PER_CALL * CALLS
      expect([Number(stored["C"]), Number(stored["S"])]).toEqual([rows, (rows * (rows - 1)) / 2])
    }), { "redo.statement.insert_batch_rows": String(PER_CALL) }), 120_000)
})
