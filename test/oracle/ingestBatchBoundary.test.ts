/**
 * An ingest whose Arrow batches each fill one executeMany (insert_batch_rows = batch rows), through the real oracledb
 * client against the test server: a call that fails after a batch boundary names its row of the whole ingest and
 * leaves the table with its earlier rows only, and a source that fails after calls were sent leaves nothing behind
 * (no row lost, none committed). These hold whether or not a call stays in flight across a batch boundary (the
 * overlap issue #25 asks for), so they guard any change that keeps one in flight.
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
