import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Fiber, Stream } from "effect"
import { adbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import { fromTable, type IngestData } from "../../src/Ingest.ts"
import { failure } from "../support/exits.ts"
import { realHana, useServer, withConnection } from "./support.ts"

// A failed ingest leaves the target exactly as it was, in every mode, whatever the failure.
const server = useServer()

const batchOf = (from: number, count: number) =>
  Arrow.tableFromArrays({ ID: Int32Array.from({ length: count }, (_, i) => from + i) }).batches[0]!
const schema = batchOf(0, 1).schema

/** Batches of 100 rows, then a failure from the source after `goodBatches` of them. */
const failingSource = (goodBatches: number): IngestData => ({
  schema,
  batches: Stream.concat(
    Stream.fromIterable(Array.from({ length: goodBatches }, (_, i) => batchOf(i * 100, 100))),
    Stream.fail(adbcError("IO", "source stream broke"))
  )
})

const contents = (table: string) =>
  withConnection(server.uri, Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const exists = yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS N FROM SYS.TABLES WHERE TABLE_NAME = '${table}'`))
    if (Number(exists[0]!.getChild("N")!.get(0)) === 0) return "no table"
    const rows = yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS N, SUM(ID) AS S FROM "${table}"`))
    return `${rows[0]!.getChild("N")!.get(0)} rows, sum ${rows[0]!.getChild("S")!.get(0)}`
  }))

const seed = (table: string) =>
  withConnection(server.uri, Effect.gen(function*() {
    const conn = yield* Connection.Connection
    yield* conn.execute(`CREATE TABLE "${table}" (ID INTEGER)`)
    yield* conn.execute(`INSERT INTO "${table}" VALUES (7)`)
    yield* conn.execute(`INSERT INTO "${table}" VALUES (8)`)
  }))

const ingest = (data: IngestData, table: string, mode: "create" | "append" | "replace" | "create_append") =>
  Effect.flatMap(Connection.Connection, (conn) => conn.ingest(data, { targetTable: table, mode }))

describe.skipIf(realHana)("ingest is atomic (HANA: DDL inside the transaction)", () => {
  it.effect.each(["replace", "append", "create_append"] as const)("%s: a source stream error keeps the old table and rows", (mode) =>
    Effect.gen(function*() {
      const table = `ATOMIC_SRC_${mode.toUpperCase()}`
      yield* seed(table)
      const error = yield* Effect.flip(withConnection(server.uri, ingest(failingSource(3), table, mode)))
      expect(error.message).toContain("source stream broke")
      expect(yield* contents(table)).toBe("2 rows, sum 15")
    }))

  it.effect.each(["create", "replace", "create_append"] as const)("%s into a missing table: a failure leaves no table", (mode) =>
    Effect.gen(function*() {
      const table = `ATOMIC_NEW_${mode.toUpperCase()}`
      yield* Effect.flip(withConnection(server.uri, ingest(failingSource(2), table, mode)))
      expect(yield* contents(table)).toBe("no table")
    }))

  it.effect("replace: a value the new column cannot hold keeps the old table", () =>
    Effect.gen(function*() {
      yield* seed("ATOMIC_BADVAL")
      const long = Arrow.tableFromArrays({ ID: Int32Array.from([1, 2]) })
      // the second batch's schema differs: a text column the created INTEGER table does not have
      const data: IngestData = {
        schema: long.schema,
        batches: Stream.make(long.batches[0]!, Arrow.tableFromArrays({ ID: Int32Array.from([3]), X: ["x"] }).batches[0]!)
      }
      const error = yield* Effect.flip(withConnection(server.uri, ingest(data, "ATOMIC_BADVAL", "replace")))
      expect(error.status).not.toBe("UNKNOWN")
      expect(yield* contents("ATOMIC_BADVAL")).toBe("2 rows, sum 15")
    }))

  it.effect("replace: a connection dropped mid-ingest keeps the old table and rows", () =>
    Effect.gen(function*() {
      yield* seed("ATOMIC_DROP")
      const many: IngestData = {
        schema,
        batches: Stream.fromIterable(Array.from({ length: 20 }, (_, i) => batchOf(i * 100, 100)))
      }
      server.server!.faults.dropAfterReplies = 8
      const error = yield* Effect.flip(withConnection(server.uri, ingest(many, "ATOMIC_DROP", "replace"))).pipe(
        Effect.ensuring(Effect.sync(() => {
          server.server!.faults.dropAfterReplies = undefined
        }))
      )
      expect(error.status).toBe("IO")
      expect(yield* contents("ATOMIC_DROP")).toBe("2 rows, sum 15")
    }))

  it.live("replace: an interrupted ingest keeps the old table and rows", () =>
    Effect.gen(function*() {
      yield* seed("ATOMIC_INTR")
      const slow: IngestData = {
        schema,
        batches: Stream.fromIterable(Array.from({ length: 50 }, (_, i) => batchOf(i * 100, 100))).pipe(
          Stream.tap(() => Effect.sleep("20 millis"))
        )
      }
      const fiber = yield* Effect.forkChild(withConnection(server.uri, ingest(slow, "ATOMIC_INTR", "replace")))
      yield* Effect.sleep("300 millis")
      yield* Fiber.interrupt(fiber)
      expect(yield* contents("ATOMIC_INTR")).toBe("2 rows, sum 15")
    }))
})

describe.skipIf(realHana)("a connection dropped mid-ingest, many times", () => {
  it.live("25 drops at different points: the process survives, each fails IO, the table is unchanged", () =>
    Effect.gen(function*() {
      yield* seed("ATOMIC_DROPS")
      const crashes: Array<unknown> = []
      const onCrash = (e: unknown) => crashes.push(e)
      process.on("uncaughtException", onCrash)
      const many: IngestData = {
        schema,
        batches: Stream.fromIterable(Array.from({ length: 30 }, (_, i) => batchOf(i * 100, 100)))
      }
      const statuses: Array<string> = []
      for (let run = 0; run < 25; run++) {
        // login takes two replies; the ingest then needs about 40 more
        server.server!.faults.dropAfterReplies = 3 + run
        const mode = run % 2 === 0 ? "replace" : "append"
        const exit = yield* Effect.exit(withConnection(server.uri, ingest(many, "ATOMIC_DROPS", mode)))
        server.server!.faults.dropAfterReplies = undefined
        statuses.push(exit._tag === "Failure" ? "failed" : "succeeded")
        if (exit._tag === "Failure") expect(failure(exit).status).toBe("IO")
        // let any late callback of the client fire before looking
        yield* Effect.sleep("20 millis")
        expect(yield* contents("ATOMIC_DROPS")).toBe("2 rows, sum 15")
      }
      process.off("uncaughtException", onCrash)
      expect(crashes).toEqual([])
      expect(statuses.filter((s) => s === "failed")).toHaveLength(25)
    }), 120_000)
})

describe.skipIf(realHana)("a connection dropped during multi-packet EXECUTEs", () => {
  it.live("20 drops while batches larger than one packet are sent: no process crash, IO, table unchanged", () =>
    Effect.gen(function*() {
      yield* withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        yield* conn.execute(`CREATE TABLE "ATOMIC_BIG" (ID INTEGER, S NVARCHAR(1000))`)
        yield* conn.execute(`INSERT INTO "ATOMIC_BIG" VALUES (7, 'a')`)
        yield* conn.execute(`INSERT INTO "ATOMIC_BIG" VALUES (8, 'b')`)
      }))
      const crashes: Array<unknown> = []
      const onCrash = (e: unknown) => crashes.push(e)
      process.on("uncaughtException", onCrash)
      const text = "x".repeat(600)
      const big = new Arrow.Table({
        ID: Arrow.vectorFromArray(Array.from({ length: 4000 }, (_, i) => i), new Arrow.Int32()),
        S: Arrow.vectorFromArray(Array.from({ length: 4000 }, () => text), new Arrow.Utf8())
      })
      const data: IngestData = { schema: big.schema, batches: Stream.fromIterable([...big.batches, ...big.batches]) }
      for (let run = 0; run < 20; run++) {
        server.server!.faults.dropAfterReplies = 4 + run
        const exit = yield* Effect.exit(withConnection(server.uri, ingest(data, "ATOMIC_BIG", run % 2 === 0 ? "replace" : "append")))
        server.server!.faults.dropAfterReplies = undefined
        if (exit._tag === "Failure") expect(failure(exit).status).toBe("IO")
        yield* Effect.sleep("20 millis")
        expect(yield* contents("ATOMIC_BIG")).toBe("2 rows, sum 15")
      }
      process.off("uncaughtException", onCrash)
      expect(crashes.map(String)).toEqual([])
    }), 120_000)
})

describe.skipIf(realHana)("dictionary-encoded columns", () => {
  it.effect("tableFromArrays / tableFromJSON strings create and append as NVARCHAR and read back", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.ingest(fromTable(Arrow.tableFromArrays({ NAME: ["a", "b", null] })), { targetTable: "DICT_T" })
      yield* conn.ingest(fromTable(Arrow.tableFromJSON([{ NAME: "c" }])), { targetTable: "DICT_T", mode: "append" })
      const batches = yield* Stream.runCollect(conn.query(`SELECT NAME FROM "DICT_T"`))
      expect(batches.flatMap((b) => [...b.getChild("NAME")!])).toEqual(["a", "b", null, "c"])
    })))
})
