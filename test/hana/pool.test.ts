import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Schedule, Stream } from "effect"
import * as Hana from "../../layers/hana/index.ts"
import * as Connection from "../../src/Connection.ts"
import * as ConnectionPool from "../../src/ConnectionPool.ts"
import { realHana, useServer, withConnection } from "./support.ts"

// The pool rules for every driver are in test/conformance/rules/pool.ts; here: a session the HANA server closed
// (ALTER SYSTEM DISCONNECT SESSION) makes the HANA driver report its connection unusable, so the pool replaces it.
const server = useServer()

const poolLayer = (size: number) =>
  ConnectionPool.layer({ size }).pipe(Layer.provide(Hana.layerDatabase({ uri: server.uri })))

const connectionId = (conn: Connection.ConnectionShape) =>
  Effect.map(Stream.runCollect(conn.query("SELECT CURRENT_CONNECTION AS C FROM DUMMY")), (b) => Number(b[0]!.getChild("C")!.get(0)))

describe.skipIf(realHana)("connection pool", () => {
  it.live("a connection whose session was closed by the server is discarded on checkout and replaced", () =>
    Effect.gen(function*() {
      const pool = yield* ConnectionPool.ConnectionPool
      let pooled: Connection.ConnectionShape | undefined
      const first = yield* pool.use((conn) => {
        pooled = conn
        return connectionId(conn)
      })
      yield* withConnection(server.uri, Effect.flatMap(Connection.Connection, (conn) => conn.execute(`ALTER SYSTEM DISCONNECT SESSION '${first}'`)))
      // the client learns that its session is gone when the server's close of the socket reaches it: wait for that
      const usable = yield* pooled!.isUsable.pipe(
        Effect.repeat({ until: (u) => !u, schedule: Schedule.spaced("10 millis") }),
        Effect.timeout("10 seconds")
      )
      expect(usable).toBe(false)
      const second = yield* pool.use(connectionId)
      expect(second).not.toBe(first)
    }).pipe(Effect.provide(poolLayer(1))))
})
