import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Cause, Effect, Exit, Layer, Scope, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import * as Database from "../../src/Database.ts"
import { Driver } from "../../src/Driver.ts"
import { fromTable } from "../../src/Ingest.ts"
import { memoryDriver, MemoryServer } from "../support/MemoryDriver.ts"

// Readers are released before their connection: when a connection's scope closes under a reader that an outer scope
// still holds, the connection's finalizer closes the reader's cursor first, and the reader's next pull fails
// INVALID_STATE saying so (never a short result, never a read on a closed session).
const setup = (server: MemoryServer) =>
  Database.layer({ uri: "mem://local" }).pipe(Layer.provide(Layer.succeed(Driver, memoryDriver(server, "hard"))))

describe("a connection's scope closing under an open reader", () => {
  it.effect("releases the reader first; the reader's next pull fails INVALID_STATE", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      const database = yield* Database.Database
      const connectionScope = yield* Scope.make()
      const conn = yield* Scope.provide(Connection.make(database), connectionScope)
      yield* conn.ingest(
        fromTable(new Arrow.Table({ id: Arrow.vectorFromArray([1, 2, 3], new Arrow.Int32()) })),
        { targetTable: "T" }
      )
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery("SELECT * FROM MAIN.T")
      const reader = yield* stmt.executeQuery // held by the test's own (outer) scope
      expect(server.openCursors).toBe(1)

      yield* Scope.close(connectionScope, Exit.void)
      expect(server.openCursors).toBe(0)

      const pulled = yield* Effect.exit(Stream.runCollect(reader.batches))
      expect(Exit.isFailure(pulled) ? Cause.squash(pulled.cause) : pulled.value).toMatchObject({
        status: "INVALID_STATE",
        message: expect.stringContaining("connection was closed")
      })
    }).pipe(Effect.scoped, Effect.provide(setup(server)))
  })
})
