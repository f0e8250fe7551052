import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Deferred, Effect, Fiber, Stream } from "effect"
import { adbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import type { IngestData } from "../../src/Ingest.ts"
import { realHana, useServer, withConnection } from "./support.ts"

// One connection shared by several fibers: an ingest's transaction holds the connection, so neighbours' statements
// never land inside it.
const server = useServer()

const batchOf = (from: number, count: number) =>
  Arrow.tableFromArrays({ ID: Int32Array.from({ length: count }, (_, i) => from + i) }).batches[0]!

/** 10 batches of 100 rows, slowly, then a failure; `inside` opens once the first batch is inserted. */
const slowFailing = (inside: Deferred.Deferred<void>): IngestData => ({
  schema: batchOf(0, 1).schema,
  batches: Stream.fromIterable(Array.from({ length: 10 }, (_, i) => batchOf(i * 100, 100))).pipe(
    Stream.tap((batch) =>
      Effect.andThen(batch.get(0)!["ID"] === 100 ? Deferred.succeed(inside, undefined) : Effect.void, Effect.sleep("30 millis"))
    ),
    Stream.concat(Stream.fail(adbcError("IO", "source broke")))
  )
})

const count = (conn: Connection.ConnectionShape, table: string) =>
  Effect.map(Stream.runCollect(conn.query(`SELECT COUNT(*) AS N FROM ${table}`)), (b) => Number(b[0]!.getChild("N")!.get(0)))

describe.skipIf(realHana)("sharing one connection between fibers", () => {
  it.live("a neighbour's INSERT during a failing ingest is not rolled back with it", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.execute("CREATE TABLE SHARE_NEIGHBOUR (X INTEGER)")
      yield* conn.execute("CREATE TABLE SHARE_TARGET (ID INTEGER)")
      const inside = yield* Deferred.make<void>()
      const ingest = yield* Effect.forkChild(Effect.flip(conn.ingest(slowFailing(inside), { targetTable: "SHARE_TARGET", mode: "append" })))
      yield* Deferred.await(inside)
      // acknowledged while the ingest runs (it waits for the ingest to end)
      expect(yield* conn.execute("INSERT INTO SHARE_NEIGHBOUR VALUES (1)")).toBe(1)
      const error = yield* Fiber.join(ingest)
      expect(error.message).toContain("source broke")
      expect(yield* count(conn, "SHARE_NEIGHBOUR")).toBe(1)
      expect(yield* count(conn, "SHARE_TARGET")).toBe(0)
    })))

  it.live("a neighbour's COMMIT during a failing ingest does not commit the ingest's partial rows", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.execute("CREATE TABLE SHARE_COMMIT (ID INTEGER)")
      const inside = yield* Deferred.make<void>()
      const ingest = yield* Effect.forkChild(Effect.flip(conn.ingest(slowFailing(inside), { targetTable: "SHARE_COMMIT", mode: "append" })))
      yield* Deferred.await(inside)
      yield* conn.execute("COMMIT")
      yield* Fiber.join(ingest)
      expect(yield* count(conn, "SHARE_COMMIT")).toBe(0)
      // and from another session too
      const seen = yield* withConnection(server.uri, Effect.flatMap(Connection.Connection, (other) => count(other, "SHARE_COMMIT")))
      expect(seen).toBe(0)
    })))
})
