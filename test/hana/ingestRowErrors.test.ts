/**
 * A row the server rejects during an ingest is named in the error, counted across the ingest (1-based), with the
 * server's status, vendor code and SQLSTATE kept, whether the batch was encoded or bound through hdb's writer; the
 * table is left as it was.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { failure } from "../support/exits.ts"
import { makeRecorder } from "../telemetry/support.ts"
import { useServer, withConnection } from "./support.ts"

const server = useServer()

/** 40,000 rows in one Arrow batch, sent as several EXECUTE parts (packet size splits it), V NULL only in 0-based row `nullAt`. */
const tableWithNullAt = (nullAt: number) =>
  new Arrow.Table({
    ID: Arrow.vectorFromArray(Array.from({ length: 40_000 }, (_, i) => i + 100), new Arrow.Int32()),
    V: Arrow.vectorFromArray(Array.from({ length: 40_000 }, (_, i) => (i === nullAt ? null : i)), new Arrow.Int32())
  })

const rowsWithNullAt = (nullAt: number) => fromTable(tableWithNullAt(nullAt))

const contents = (table: string) =>
  Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const rows = yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS N, SUM(ID) AS S FROM "${table}"`))
    return `${rows[0]!.getChild("N")!.get(0)} rows, sum ${rows[0]!.getChild("S")!.get(0)}`
  })

describe("a row the server rejects during a fast-path ingest", () => {
  it.live("a NULL into a NOT NULL column deep in the second part names its row; the table is unchanged", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.execute(`CREATE TABLE "ROWERR_NN" (ID INTEGER, V INTEGER NOT NULL)`)
      yield* conn.execute(`INSERT INTO "ROWERR_NN" VALUES (7, 1)`)
      const before = yield* contents("ROWERR_NN")

      const exit = yield* Effect.exit(conn.ingest(rowsWithNullAt(36_000), { targetTable: "ROWERR_NN", mode: "append" }))
      const error = failure(exit)
      expect(error.status).toBe("INTEGRITY")
      expect(error.vendorCode).toBe(287)
      expect(error.sqlState).toBe("23000")
      expect(error.message).toMatch(/^row 36001: \[287\] cannot insert NULL/)
      expect(error.message).toMatch(/cannot insert NULL or update to NULL: V\b/)
      expect(yield* contents("ROWERR_NN")).toBe(before)

      // The same violation in the first part: the row is counted from the ingest's start there too.
      const first = failure(yield* Effect.exit(conn.ingest(rowsWithNullAt(12_344), { targetTable: "ROWERR_NN", mode: "append" })))
      expect(first.message).toMatch(/^row 12345: \[287\]/)
      expect(yield* contents("ROWERR_NN")).toBe(before)

      // Several Arrow batches: the row is counted across the whole ingest, not from its batch's start.
      const whole = tableWithNullAt(36_000)
      const twoBatches = new Arrow.Table([...whole.slice(0, 20_000).batches, ...whole.slice(20_000).batches])
      expect(twoBatches.batches.map((b) => b.numRows)).toEqual([20_000, 20_000])
      const split = fromTable(twoBatches)
      const across = failure(yield* Effect.exit(conn.ingest(split, { targetTable: "ROWERR_NN", mode: "append" })))
      expect(across.message).toMatch(/^row 36001: \[287\]/)
      expect(yield* contents("ROWERR_NN")).toBe(before)
    })))

  it.live("a duplicate key names its row, whether it repeats a stored key or an earlier row of the ingest; the table is unchanged", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.execute(`CREATE COLUMN TABLE "ROWERR_PK" (ID INTEGER PRIMARY KEY, V INTEGER)`)
      yield* conn.execute(`INSERT INTO "ROWERR_PK" VALUES (7, 1)`)
      const before = yield* contents("ROWERR_PK")
      /** 40,000 rows with keys 100.. except 0-based row `at`, whose key is `key`. */
      const rowsWithKeyAt = (at: number, key: number) =>
        fromTable(
          new Arrow.Table({
            ID: Arrow.vectorFromArray(Array.from({ length: 40_000 }, (_, i) => (i === at ? key : i + 100)), new Arrow.Int32()),
            V: Arrow.vectorFromArray(Array.from({ length: 40_000 }, (_, i) => i), new Arrow.Int32())
          })
        )

      // Row 36,001 repeats the stored key 7 (in the second part or later).
      const stored = failure(yield* Effect.exit(conn.ingest(rowsWithKeyAt(36_000, 7), { targetTable: "ROWERR_PK", mode: "append" })))
      expect(stored.status).toBe("INTEGRITY")
      expect(stored.vendorCode).toBe(301)
      expect(stored.sqlState).toBe("23000")
      expect(stored.message).toMatch(/^row 36001: \[301\] unique constraint violated/)
      expect(yield* contents("ROWERR_PK")).toBe(before)

      // Row 30,001 repeats the key of row 5 of the same ingest, sent in an earlier part.
      const earlier = failure(yield* Effect.exit(conn.ingest(rowsWithKeyAt(30_000, 105), { targetTable: "ROWERR_PK", mode: "append" })))
      expect(earlier.vendorCode).toBe(301)
      expect(earlier.message).toMatch(/^row 30001: \[301\]/)
      expect(yield* contents("ROWERR_PK")).toBe(before)
    })))
})

describe("a row the server rejects during an ingest bound through hdb's writer", () => {
  it.effect("a NULL into a NOT NULL column of a batch with an NCLOB column names its row across batches and packets; the table is unchanged", () => {
    const recorder = makeRecorder()
    return withConnection(
      server.uri,
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        yield* conn.execute(`CREATE TABLE "ROWERR_LOB" (ID INTEGER, V INTEGER NOT NULL, T NCLOB)`)
        yield* conn.execute(`INSERT INTO "ROWERR_LOB" VALUES (7, 1, 'kept')`)
        const before = yield* contents("ROWERR_LOB")
        // 5,000 rows of about 110 bytes: hdb's writer needs several packets for the second batch's 3,000 rows, so
        // row 3,211 is neither in the first batch nor in the first packet of its own.
        const whole = new Arrow.Table({
          ID: Arrow.vectorFromArray(Array.from({ length: 5_000 }, (_, i) => i + 100), new Arrow.Int32()),
          V: Arrow.vectorFromArray(Array.from({ length: 5_000 }, (_, i) => (i === 3_210 ? null : i)), new Arrow.Int32()),
          T: Arrow.vectorFromArray(Array.from({ length: 5_000 }, (_, i) => `${"x".repeat(100)}${i}`), new Arrow.Utf8())
        })
        const twoBatches = new Arrow.Table([...whole.slice(0, 2_000).batches, ...whole.slice(2_000).batches])
        expect(twoBatches.batches.map((b) => b.numRows)).toEqual([2_000, 3_000])

        const error = failure(yield* Effect.exit(conn.ingest(fromTable(twoBatches), { targetTable: "ROWERR_LOB", mode: "append" })))
        expect(error.status).toBe("INTEGRITY")
        expect(error.vendorCode).toBe(287)
        expect(error.sqlState).toBe("23000")
        expect(error.message).toMatch(/^row 3211: \[287\] cannot insert NULL or update to NULL: ROWERR_LOB\.V\b/)
        const paths = recorder.logs.map((l) => l.annotations["hana.ingest.path"]).filter((p) => p !== undefined)
        expect(paths).toEqual(["hdb", "hdb"])
        expect(yield* contents("ROWERR_LOB")).toBe(before)
      })
    ).pipe(Effect.provide(recorder.layer))
  })
})
