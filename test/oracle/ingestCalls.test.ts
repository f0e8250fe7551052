/**
 * redo.statement.insert_batch_rows is the number of rows per database call, whatever the sizes of the Arrow batches:
 * small batches are sent together, large ones split, on the fast path and on oracledb's own encoder (a struct column),
 * counted by the test server (one per executeMany request it receives, `stats.insertCalls`), so that the driver's
 * own counter (layers/oracle/EncodedBinds.ts `ingestCallsMade`) cannot agree with the driver on a mistake; against a
 * real database (ORACLE_URI), which has no such counter, the driver's count stands in.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import { adbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { encodedRowsSent, ingestCallsMade } from "../../layers/oracle/EncodedBinds.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

/** executeMany requests the server has received (the driver's count against a real database). */
const served = (): number => server.server?.stats.insertCalls ?? ingestCallsMade()
/** Rows those requests carried, when the server is ours. */
const servedRows = (): number | undefined => server.server?.stats.insertRows

/** `rows` rows in Arrow batches of `batchRows` (the last one shorter), ids 0.., with a struct column when `doc`. */
const batched = (rows: number, batchRows: number, doc = false) => {
  const tables: Array<Arrow.Table> = []
  for (let from = 0; from < rows; from += batchRows) {
    const n = Math.min(batchRows, rows - from)
    const columns: Record<string, Arrow.Vector> = {
      id: Arrow.makeVector(Int32Array.from({ length: n }, (_, k) => from + k)),
      name: Arrow.vectorFromArray(Array.from({ length: n }, (_, k) => `n${from + k}`), new Arrow.Utf8())
    }
    if (doc) {
      columns["doc"] = Arrow.vectorFromArray(
        Array.from({ length: n }, (_, k) => ({ k: from + k })),
        new Arrow.Struct([new Arrow.Field("k", new Arrow.Int32())])
      )
    }
    tables.push(new Arrow.Table(columns))
  }
  return new Arrow.Table(tables.flatMap((t) => t.batches))
}

/** Ingests `data` into a new table; returns the rows reported, the calls made, the rows through the fast path and the stored ids. */
const ingestCounted = (data: Arrow.Table) =>
  Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const target = uniqueName("CALLS")
    const calls = served()
    const rowsBefore = servedRows()
    const driverCalls = ingestCallsMade()
    const encoded = encodedRowsSent()
    const rows = yield* conn.ingest(fromTable(data), { targetTable: target })
    const made = served() - calls
    // the server saw every row once, and the driver counted the calls the server received
    if (rowsBefore !== undefined) expect(servedRows()! - rowsBefore).toBe(data.numRows)
    expect(ingestCallsMade() - driverCalls).toBe(made)
    const fast = encodedRowsSent() - encoded
    const stored = new Arrow.Table(yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS C, SUM("id") AS S FROM "${target}"`)))
    return { rows, calls: made, fast, count: Number(stored.get(0)!.toJSON()["C"]), sum: Number(stored.get(0)!.toJSON()["S"]) }
  })

const sumTo = (n: number) => (n * (n - 1)) / 2

describe("redo.statement.insert_batch_rows: rows per database call", () => {
  it.effect("150,000 rows in 10,000-row batches make 3 calls at the default of 65,536 (fast path), every row stored once", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const r = yield* ingestCounted(batched(150_000, 10_000))
      expect(r).toEqual({ rows: 150_000, calls: 3, fast: 150_000, count: 150_000, sum: sumTo(150_000) })
    })), 120_000)

  it.effect("small batches combined and a large one split at 2,500 rows per call (fast path)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      // 7 batches of 1,000 then one of 6,000: 13,000 rows = 5 full calls and one of 500
      const data = new Arrow.Table([...batched(7_000, 1_000).batches, ...batched(6_000, 6_000).batches])
      const r = yield* ingestCounted(data)
      expect(r.calls).toBe(6)
      expect([r.rows, r.count]).toEqual([13_000, 13_000])
    }), { "redo.statement.insert_batch_rows": "2500" }))

  it.effect("on oracledb's own encoder (a struct column) small batches are combined too: 12 batches of 700 rows at 3,000 per call make 3 calls", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const r = yield* ingestCounted(batched(8_400, 700, true))
      expect(r).toEqual({ rows: 8_400, calls: 3, fast: 0, count: 8_400, sum: sumTo(8_400) })
    }), { "redo.statement.insert_batch_rows": "3000", "redo.ingest.struct_type": "nvarchar2" }))
  it.effect("on oracledb's own encoder one large Arrow batch is split: 3,500 rows at 1,000 per call are 4 executeMany requests at the server", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const r = yield* ingestCounted(batched(3_500, 3_500, true))
      expect(r).toEqual({ rows: 3_500, calls: 4, fast: 0, count: 3_500, sum: sumTo(3_500) })
    }), { "redo.statement.insert_batch_rows": "1000", "redo.ingest.struct_type": "nvarchar2" }))
  it.effect("bound DML: 5 parameter batches of 200 rows at 1,000 per call make one executeMany; every row inserted", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("DMLCALLS")
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(10), NAME NVARCHAR2(20))`)
      const stmt = yield* conn.statement({ "redo.statement.insert_batch_rows": "1000" })
      yield* stmt.setSqlQuery(`INSERT INTO ${t} VALUES (:1, :2)`)
      yield* stmt.bind(batched(1_000, 200))
      const calls = served()
      expect(yield* stmt.executeUpdate).toBe(1_000)
      expect(served() - calls).toBe(1)
      const stored = new Arrow.Table(yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS C, SUM(ID) AS S FROM ${t}`)))
      expect([Number(stored.get(0)!.toJSON()["C"]), Number(stored.get(0)!.toJSON()["S"])]).toEqual([1_000, sumTo(1_000)])
    })))
  it.effect("rows held back by an ingest that failed (its source stream broke after a batch) are never sent, not even by a next ingest of no rows", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("HELD")
      yield* conn.ingest(fromTable(batched(3, 3)), { targetTable: t })
      const data = batched(500, 250)
      const broken = {
        schema: data.schema,
        batches: Stream.concat(Stream.fromIterable(data.batches), Stream.fail(adbcError("IO", "the source broke")))
      }
      const error = yield* Effect.flip(conn.ingest(broken, { targetTable: t, mode: "append" }))
      expect(error.message).toContain("the source broke")
      const calls = served()
      expect(yield* conn.ingest(fromTable(batched(1, 1).slice(0, 0)), { targetTable: t, mode: "append" })).toBe(0)
      expect(served() - calls).toBe(0)
      const stored = new Arrow.Table(yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS C FROM "${t}"`)))
      expect(Number(stored.get(0)!.toJSON()["C"])).toBe(3)
    })))
})
