/**
 * The core ends the driver's insert in flight (`DriverIngest.stopInsert`) before it rolls back a failed or
 * interrupted ingest, so that a rollback never queues behind the reply of a call the driver keeps in flight across
 * batches (the Oracle driver does): broken after an interruption, awaited after a failure, whose own error (an
 * earlier row) then wins. The memory driver, wrapped to record the order of stop and rollback.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Layer, Stream } from "effect"
import { type AdbcError, adbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import * as Database from "../../src/Database.ts"
import { Driver, type DriverShape } from "../../src/Driver.ts"
import { fromTable, type IngestData } from "../../src/Ingest.ts"
import { failure } from "../support/exits.ts"
import { memoryDriver, MemoryServer } from "../support/MemoryDriver.ts"

const data = (n: number, offset = 0) =>
  new Arrow.Table({ id: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => i + offset), new Arrow.Int32()) })

/** The memory driver whose connections record `stop:<interrupted>` and `rollback`; `stopFails` makes a stop after a failure fail. */
const recording = (server: MemoryServer, events: Array<string>, stopFails?: AdbcError): DriverShape => {
  const driver = memoryDriver(server)
  return {
    ...driver,
    connect: (options) =>
      Effect.map(driver.connect(options), (connection) => ({
        ...connection,
        rollback: Effect.andThen(Effect.sync(() => void events.push("rollback")), connection.rollback),
        ingest: {
          ...connection.ingest,
          stopInsert: (interrupted: boolean) =>
            Effect.andThen(
              Effect.sync(() => void events.push(`stop:${interrupted}`)),
              !interrupted && stopFails !== undefined ? Effect.fail(stopFails) : Effect.void
            )
        }
      }))
  }
}

const run = <A>(driver: DriverShape, f: (conn: Connection.ConnectionShape) => Effect.Effect<A, AdbcError>) =>
  Effect.flatMap(Connection.Connection, f).pipe(
    Effect.provide(Connection.layer().pipe(
      Layer.provideMerge(Database.layer({ uri: "mem://local" })),
      Layer.provide(Layer.succeed(Driver, driver))
    ))
  )

const failingAfter = (rows: number, error: AdbcError): IngestData => ({
  schema: data(0).schema,
  batches: Stream.concat(Stream.make(data(rows).batches[0]!), Stream.fail(error))
})

describe("the core stops the driver's insert in flight before its rollback", () => {
  it.live("an interrupted ingest: the insert is stopped as interrupted, then rolled back; the table is as before", () => {
    const server = new MemoryServer()
    const events: Array<string> = []
    const endless: IngestData = { schema: data(0).schema, batches: Stream.concat(Stream.make(data(5).batches[0]!), Stream.never) }
    return run(recording(server, events), (conn) =>
      Effect.gen(function*() {
        yield* conn.ingest(fromTable(data(3)), { targetTable: "T" })
        events.length = 0
        const exit = yield* Effect.exit(Effect.timeout(conn.ingest(endless, { targetTable: "T", mode: "append" }), "50 millis"))
        expect(exit._tag).toBe("Failure")
        expect(events).toEqual(["stop:true", "rollback"])
        expect(server.tables.get("MAIN.T")!.rows).toHaveLength(3)
      }))
  })

  it.effect("a failed ingest: the insert is awaited (stopped as not interrupted), then rolled back; the ingest's error stands", () => {
    const server = new MemoryServer()
    const events: Array<string> = []
    return run(recording(server, events), (conn) =>
      Effect.gen(function*() {
        yield* conn.ingest(fromTable(data(3)), { targetTable: "T" })
        events.length = 0
        const error = failure(yield* Effect.exit(conn.ingest(failingAfter(4, adbcError("IO", "source broke")), { targetTable: "T", mode: "append" })))
        expect(error.message).toContain("source broke")
        expect(events).toEqual(["stop:false", "rollback"])
        expect(server.tables.get("MAIN.T")!.rows).toHaveLength(3)
      }))
  })

  it.effect("a call in flight that failed too: its error (an earlier row) is the ingest's", () => {
    const server = new MemoryServer()
    const events: Array<string> = []
    const earlier = adbcError("INTEGRITY", "row 2: NOT NULL")
    return run(recording(server, events, earlier), (conn) =>
      Effect.gen(function*() {
        yield* conn.ingest(fromTable(data(3)), { targetTable: "T" })
        events.length = 0
        const error = failure(yield* Effect.exit(conn.ingest(failingAfter(4, adbcError("IO", "source broke")), { targetTable: "T", mode: "append" })))
        expect(error.message).toContain("row 2: NOT NULL")
        expect(events).toEqual(["stop:false", "rollback"])
        expect(server.tables.get("MAIN.T")!.rows).toHaveLength(3)
      }))
  })
})
