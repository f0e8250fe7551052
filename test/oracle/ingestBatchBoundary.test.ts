/**
 * An ingest whose Arrow batches each fill one executeMany (insert_batch_rows = batch rows), through the real oracledb
 * client against the test server: a call that fails after a batch boundary names its row of the whole ingest and
 * leaves the table with its earlier rows only, and a source that fails after calls were sent leaves nothing behind
 * (no row lost, none committed). The driver keeps a call in flight across batch boundaries (issue #25): the last
 * call's failure is seen only when the ingest ends, and a call's failure comes before a later failure of the source.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import { ingestCallsMade } from "../../layers/oracle/EncodedBinds.ts"
import { type AdbcError, adbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import type { IngestData } from "../../src/Ingest.ts"
import { realOracle, uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

/** Rows per call (redo.statement.insert_batch_rows) = rows per Arrow batch: each batch fills one call exactly. */
const PER_CALL = 2_000
const BATCHES = 4

/** Batch `index`: ids `index * PER_CALL …`, a name per row (NULL at row `nullAt` of the whole ingest). */
const batchAt = (index: number, nullAt = -1): Arrow.RecordBatch => {
  const from = index * PER_CALL
  return new Arrow.Table({
    id: Arrow.makeVector(Int32Array.from({ length: PER_CALL }, (_, k) => from + k)),
    name: Arrow.vectorFromArray(Array.from({ length: PER_CALL }, (_, k) => (from + k === nullAt ? null : `n${from + k}`)), new Arrow.Utf8())
  }).batches[0]!
}

const data = (batches: Stream.Stream<Arrow.RecordBatch, AdbcError>): IngestData => ({ schema: batchAt(0).schema, batches })

const count = (t: string) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(
      Stream.runCollect(conn.query(`SELECT COUNT(*) AS C, SUM("id") AS S FROM "${t}"`)),
      (batches) => {
        const row = new Arrow.Table(batches).get(0)!.toJSON()
        return [Number(row["C"]), Number(row["S"] ?? 0)]
      }
    ))

const options = { "redo.statement.insert_batch_rows": String(PER_CALL) }

describe.skipIf(realOracle)("Oracle ingest failures after a batch boundary", () => {
  it.effect("a call failing after a batch boundary names its row of the whole ingest; the table keeps only its earlier rows", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("ACROSSERR")
      yield* Effect.asVoid(Stream.runDrain(conn.query(`CREATE TABLE "${t}" ("id" NUMBER(10) NOT NULL, "name" NVARCHAR2(50) NOT NULL)`)))
      yield* conn.ingest(fromTable(new Arrow.Table([batchAt(100)])), { targetTable: t, mode: "append" })
      // the third call (the third batch's rows) fails at its row 1,234, after two calls succeeded
      const bad = 2 * PER_CALL + 1_234
      const batches = Stream.fromIterable(Array.from({ length: BATCHES }, (_, i) => i)).pipe(Stream.map((i) => batchAt(i, bad)))
      const error = yield* Effect.flip(conn.ingest(data(batches), { targetTable: t, mode: "append" }))
      expect(error.vendorCode).toBe(1400)
      expect(error.message).toMatch(new RegExp(`^row ${bad + 1}, column "name": ORA-01400`))
      const earlier = 100 * PER_CALL
      expect(yield* count(t)).toEqual([PER_CALL, PER_CALL * earlier + (PER_CALL * (PER_CALL - 1)) / 2])
    }), options), 120_000)

  it.effect("the last call failing (only the end of the ingest can see it) names its row; no row of the ingest stays", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("LASTERR")
      yield* Effect.asVoid(Stream.runDrain(conn.query(`CREATE TABLE "${t}" ("id" NUMBER(10) NOT NULL, "name" NVARCHAR2(50) NOT NULL)`)))
      yield* conn.ingest(fromTable(new Arrow.Table([batchAt(100)])), { targetTable: t, mode: "append" })
      // the fourth and last call (the last batch's rows) fails: three calls succeeded before it, none committed
      const bad = 3 * PER_CALL + 567
      const batches = Stream.fromIterable(Array.from({ length: BATCHES }, (_, i) => i)).pipe(Stream.map((i) => batchAt(i, bad)))
      const error = yield* Effect.flip(conn.ingest(data(batches), { targetTable: t, mode: "append" }))
      expect(error.message).toMatch(new RegExp(`^row ${bad + 1}, column "name": ORA-01400`))
      const earlier = 100 * PER_CALL
      expect(yield* count(t)).toEqual([PER_CALL, PER_CALL * earlier + (PER_CALL * (PER_CALL - 1)) / 2])
    }), options), 120_000)

  it.effect("a call failing while the source fails after it: the call's row is named (it comes first); nothing stays", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("CALLSRC")
      yield* Effect.asVoid(Stream.runDrain(conn.query(`CREATE TABLE "${t}" ("id" NUMBER(10) NOT NULL, "name" NVARCHAR2(50) NOT NULL)`)))
      // the third batch's call fails at its row 99; right after that batch the source fails
      const bad = 2 * PER_CALL + 99
      const batches = Stream.concat(
        Stream.fromIterable([0, 1, 2]).pipe(Stream.map((i) => batchAt(i, bad))),
        Stream.fail(adbcError("IO", "source broke"))
      )
      const error = yield* Effect.flip(conn.ingest(data(batches), { targetTable: t, mode: "append" }))
      expect(error.message).toMatch(new RegExp(`^row ${bad + 1}, column "name": ORA-01400`))
      expect(yield* count(t)).toEqual([0, 0])
      // the connection is usable and nothing of the failed ingest arrives later
      yield* conn.ingest(fromTable(new Arrow.Table([batchAt(5)])), { targetTable: t, mode: "append" })
      expect(yield* count(t)).toEqual([PER_CALL, PER_CALL * 5 * PER_CALL + (PER_CALL * (PER_CALL - 1)) / 2])
    }), options), 120_000)

  it.effect("a source failing after two calls were sent leaves the table as it was", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("ACROSSSRC")
      yield* Effect.asVoid(Stream.runDrain(conn.query(`CREATE TABLE "${t}" ("id" NUMBER(10) NOT NULL, "name" NVARCHAR2(50))`)))
      const callsBefore = ingestCallsMade()
      // two batches (two calls sent), then the source fails
      const batches = Stream.concat(
        Stream.fromIterable([0, 1]).pipe(Stream.map((i) => batchAt(i))),
        Stream.fail(adbcError("IO", "source broke"))
      )
      const error = yield* Effect.flip(conn.ingest(data(batches), { targetTable: t, mode: "append" }))
      expect(String(error.message)).toContain("source broke")
      expect(ingestCallsMade() - callsBefore).toBe(2)
      expect(yield* count(t)).toEqual([0, 0])
      // the connection is usable and nothing of the failed ingest arrives later
      yield* conn.ingest(fromTable(new Arrow.Table([batchAt(5)])), { targetTable: t, mode: "append" })
      expect(yield* count(t)).toEqual([PER_CALL, PER_CALL * 5 * PER_CALL + (PER_CALL * (PER_CALL - 1)) / 2])
    }), options), 120_000)
})
