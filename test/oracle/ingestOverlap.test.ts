/**
 * The fast-path ingest encodes the next call's rows while the server works on the current executeMany (as the HANA
 * ingest does), through the real oracledb client against the test server. The server holds the reply to the first
 * insert call (OracleFaults.holdReplies) until the test lets it go: the second call's rows must be encoded while that
 * call is still open, and the second call must not have started, whether those rows come from the same Arrow batch
 * or from the next one (the call stays in flight across batches). Then the ingest ends with every row stored once.
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

/** `batches` Arrow batches of `rows` rows each, ids running on across them. */
const batched = (batches: number, rows: number) =>
  new Arrow.Table(Array.from({ length: batches }, (_, b) =>
    new Arrow.Table({
      id: Arrow.makeVector(Int32Array.from({ length: rows }, (_, i) => b * rows + i)),
      name: Arrow.vectorFromArray(Array.from({ length: rows }, (_, i) => `n${b * rows + i}`), new Arrow.Utf8())
    }).batches[0]!))

/**
 * Holds the reply to the first insert call until the returned `release` runs; `holding()` tells once it is held.
 * The first reply sent after the server inserted rows is the first insert call's.
 */
const holdFirstInsertReply = (stats: { readonly insertRows: number }, faults: { holdReplies?: (() => Promise<void> | undefined) | undefined }) => {
  const received = stats.insertRows
  let release: () => void = () => undefined
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  let held = false
  faults.holdReplies = () => {
    if (stats.insertRows === received) return undefined
    faults.holdReplies = undefined
    held = true
    return gate
  }
  return {
    holding: () => held,
    release: () => {
      faults.holdReplies = undefined
      release()
    }
  }
}

/**
 * Ingests `data` (ids 0 … PER_CALL * CALLS - 1) while the server holds the first insert call's reply: the second
 * call's rows must be encoded meanwhile and no second call start; then every row is stored once.
 */
const overlapWhileHeld = (prefix: string, data: Arrow.Table) =>
  withConnection(server.uri, Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const { stats, faults } = server.server!
    const target = uniqueName(prefix)
    const received = stats.insertRows
    const encodedBefore = rowsEncoded()
    const callsBefore = ingestCallsMade()
    const hold = holdFirstInsertReply(stats, faults)
    const fiber = yield* Effect.forkChild(conn.ingest(fromTable(data), { targetTable: target }))
    const outcome = yield* Effect.gen(function*() {
      expect(yield* eventually(hold.holding, 60_000)).toBe(true)
      // while the first call is held open: the second call's rows get encoded, and no second call starts
      const encodedWhileHeld = yield* eventually(() => rowsEncoded() - encodedBefore >= 2 * PER_CALL, 30_000)
      return {
        encodedWhileHeld,
        callsWhileHeld: ingestCallsMade() - callsBefore,
        insertedWhileHeld: stats.insertRows - received
      }
    }).pipe(Effect.ensuring(Effect.sync(hold.release)))
    expect(outcome).toEqual({ encodedWhileHeld: true, callsWhileHeld: 1, insertedWhileHeld: PER_CALL })
    expect(yield* Fiber.join(fiber)).toBe(PER_CALL * CALLS)
    const stored = new Arrow.Table(
      yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS C, SUM("id") AS S FROM "${target}"`))
    ).get(0)!.toJSON()
    const rows = PER_CALL * CALLS
    expect([Number(stored["C"]), Number(stored["S"])]).toEqual([rows, (rows * (rows - 1)) / 2])
  }), { "redo.statement.insert_batch_rows": String(PER_CALL) })

describe.skipIf(realOracle)("Oracle ingest overlaps encoding with the server's work", () => {
  it.live(`the second call's ${PER_CALL} rows are encoded while the first executeMany waits for its reply`, () =>
    overlapWhileHeld("OVERLAP", table(PER_CALL * CALLS)), 120_000)

  it.live(`across Arrow batches: the next batch's ${PER_CALL} rows are encoded while the previous batch's call waits for its reply`, () =>
    // each Arrow batch fills one call exactly: the overlap has to cross the batch boundary
    overlapWhileHeld("OVERLAPB", batched(CALLS, PER_CALL)), 120_000)
})
