import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Cause, Effect, Exit, Layer, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import * as Database from "../../src/Database.ts"
import { Driver } from "../../src/Driver.ts"
import { fromTable } from "../../src/Ingest.ts"
import { memoryDriver, MemoryServer } from "../support/MemoryDriver.ts"

// A reader stops for good at its first failure: pulling it again must not hand out the rows the core had already
// taken from the driver (a partial tail reported as data), nor read on from the driver.
const setup = (server: MemoryServer) =>
  Connection.layer().pipe(
    Layer.provideMerge(Database.layer({ uri: "mem://local" })),
    Layer.provide(Layer.succeed(Driver, memoryDriver(server, "hard")))
  )

const ids = (n: number) =>
  fromTable(new Arrow.Table({ id: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => i), new Arrow.Int32()) }))

describe("a reader after a failed pull", () => {
  it.effect("every later pull fails with the same error and yields no rows, even once the driver would read on", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.ingest(ids(20), { targetTable: "T" })
      yield* Effect.scoped(Effect.gen(function*() {
        const stmt = yield* conn.statement()
        yield* stmt.setSqlQuery("SELECT * FROM MAIN.T")
        // pages of 3 rows, batches of 4: the first batch leaves rows 4 and 5 buffered in the core
        yield* stmt.setOption("mem.page_rows", "3")
        yield* stmt.setOption("mem.read_batch_rows", "4")
        const reader = yield* stmt.executeQuery
        const pull = yield* Stream.toPull(reader.batches)
        expect((yield* pull).map((batch) => batch.numRows)).toEqual([4])
        server.failNextPage = true
        const first = yield* Effect.exit(pull)
        server.failNextPage = false
        expect(Exit.isFailure(first)).toBe(true)
        const error = Exit.isFailure(first) ? Cause.squash(first.cause) : undefined
        expect(error).toMatchObject({ status: "IO" })
        for (let again = 0; again < 3; again++) {
          const later = yield* Effect.exit(pull)
          expect(Exit.isFailure(later) ? Cause.squash(later.cause) : later.value.map((batch) => batch.toArray())).toBe(error)
        }
      }))
      expect(server.openCursors).toBe(0)
    }).pipe(Effect.provide(setup(server)))
  })
})
