import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Layer } from "effect"
import * as Connection from "../../src/Connection.ts"
import * as Database from "../../src/Database.ts"
import { Driver } from "../../src/Driver.ts"
import { fromTable } from "../../src/Ingest.ts"
import { memoryDriver, type MemoryFeatures, MemoryServer } from "../support/MemoryDriver.ts"

// withTransaction inside a transaction (nested, or with autocommit already off): a savepoint where the driver has
// them, so an inner failure undoes only the inner work and the enclosing transaction decides the commit.
const setup = (server: MemoryServer, features: MemoryFeatures = {}) =>
  Connection.layer().pipe(
    Layer.provideMerge(Database.layer({ uri: "mem://local" })),
    Layer.provide(Layer.succeed(Driver, memoryDriver(server, "best-effort", features)))
  )

const rows = (from: number, n: number) =>
  fromTable(new Arrow.Table({ id: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => from + i), new Arrow.Int32()) }))

const append = (from: number, n: number) =>
  Effect.flatMap(Connection.Connection, (conn) => conn.ingest(rows(from, n), { targetTable: "T", mode: "append" }))

const ids = (server: MemoryServer) => server.tables.get("MAIN.T")!.rows.map((r) => r[0])

describe("nested withTransaction", () => {
  it.effect("an inner failure rolls back to the inner savepoint; the outer transaction commits the rest", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.ingest(rows(0, 0), { targetTable: "T" })
      yield* Connection.withTransaction(Effect.gen(function*() {
        yield* append(1, 2)
        const inner = yield* Effect.flip(Connection.withTransaction(Effect.andThen(append(10, 3), Effect.fail("inner" as const))))
        expect(inner).toBe("inner")
        yield* append(3, 1)
      }))
      expect(ids(server)).toEqual([1, 2, 3])
      expect(server.savepoints).toContain("rollback:ADBC_TX_1")
      expect(yield* conn.getOption("adbc.connection.autocommit")).toBe("true")
    }).pipe(Effect.provide(setup(server)))
  })

  it.effect("with autocommit already off it joins the session's transaction: the caller's commit decides", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.ingest(rows(0, 0), { targetTable: "T" })
      yield* conn.setOption("adbc.connection.autocommit", "false")
      yield* Connection.withTransaction(append(1, 2))
      expect(ids(server)).toEqual([])
      yield* conn.commit
      expect(ids(server)).toEqual([1, 2])
      yield* conn.setOption("adbc.connection.autocommit", "true")
    }).pipe(Effect.provide(setup(server)))
  })

  it.effect("without savepoints an inner failure is the enclosing transaction's to handle: it rolls back all", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.ingest(rows(0, 0), { targetTable: "T" })
      const outer = yield* Effect.flip(Connection.withTransaction(Effect.gen(function*() {
        yield* append(1, 2)
        return yield* Connection.withTransaction(Effect.andThen(append(10, 3), Effect.fail("inner" as const)))
      })))
      expect(outer).toBe("inner")
      expect(ids(server)).toEqual([])
    }).pipe(Effect.provide(setup(server, { savepoints: false })))
  })
})
