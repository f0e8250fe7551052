import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Stream } from "effect"
import * as Hana from "../../layers/hana/index.ts"
import * as Connection from "../../src/Connection.ts"
import * as ConnectionPool from "../../src/ConnectionPool.ts"
import { realHana, useServer, withConnection } from "./support.ts"

// A pool gives each concurrent fiber its own connection and replaces connections whose session is gone.
const server = useServer()

const poolLayer = (size: number) =>
  ConnectionPool.layer({ size }).pipe(Layer.provide(Hana.layerDatabase({ uri: server.uri })))

const connectionId = (conn: Connection.ConnectionShape) =>
  Effect.map(Stream.runCollect(conn.query("SELECT CURRENT_CONNECTION AS C FROM DUMMY")), (b) => Number(b[0]!.getChild("C")!.get(0)))

describe.skipIf(realHana)("connection pool", () => {
  it.live("three concurrent fibers use three different connections", () =>
    Effect.gen(function*() {
      const pool = yield* ConnectionPool.ConnectionPool
      const ids = yield* Effect.all(
        [1, 2, 3].map(() => pool.use((conn) => Effect.andThen(Effect.sleep("200 millis"), connectionId(conn)))),
        { concurrency: "unbounded" }
      )
      expect(new Set(ids).size).toBe(3)
    }).pipe(Effect.provide(poolLayer(3))))

  it.live("a size of 1 makes fibers wait for the one connection, never share it", () =>
    Effect.gen(function*() {
      const pool = yield* ConnectionPool.ConnectionPool
      let inUse = 0
      let most = 0
      yield* Effect.all(
        [1, 2, 3].map(() =>
          pool.use((conn) =>
            Effect.gen(function*() {
              inUse++
              most = Math.max(most, inUse)
              yield* Effect.sleep("50 millis")
              yield* connectionId(conn)
              inUse--
            })
          )
        ),
        { concurrency: "unbounded" }
      )
      expect(most).toBe(1)
    }).pipe(Effect.provide(poolLayer(1))))

  it.live("a connection whose session was closed by the server is discarded on checkout and replaced", () =>
    Effect.gen(function*() {
      const pool = yield* ConnectionPool.ConnectionPool
      const first = yield* pool.use(connectionId)
      yield* withConnection(server.uri, Effect.flatMap(Connection.Connection, (conn) => conn.execute(`ALTER SYSTEM DISCONNECT SESSION '${first}'`)))
      yield* Effect.sleep("200 millis")
      const second = yield* pool.use(connectionId)
      expect(second).not.toBe(first)
    }).pipe(Effect.provide(poolLayer(1))))

  it.effect("a size below 1 fails INVALID_ARGUMENT naming what is accepted", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(Layer.build(poolLayer(0)).pipe(Effect.scoped))
      expect(error.status).toBe("INVALID_ARGUMENT")
      expect(error.message).toContain("positive integer")
    }))
})
