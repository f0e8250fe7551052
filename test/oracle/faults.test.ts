import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Fiber, Layer, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import * as DbCalls from "../../layers/oracle/DbCalls.ts"
import * as DbPatches from "../../layers/oracle/DbPatches.ts"
import { connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS } from "../../layers/oracle/OracleDriver.ts"
import { failure } from "../conformance/harness.ts"
import { uncaughtDuring } from "../conformance/rules/faults.ts"
import { connectionLayer, realOracle, uniqueName, useServer, withConnection } from "./support.ts"

// Faults the Oracle test server injects, met through the driver: every one fails the call in flight with a typed IO
// error, never a hang or a process crash, and a silent server cannot hold a close.
const server = useServer()
const faults = () => server.server!.faults

const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const started = Date.now()
    const exit = yield* Effect.exit(effect)
    return { exit, ms: Date.now() - started }
  })

/** A fresh table of `rows` rows (N), filled on a connection of its own. */
const seeded = (rows: number) =>
  withConnection(server.uri, Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const table = uniqueName("FLT")
    const data = new Arrow.Table({ N: Arrow.vectorFromArray(Array.from({ length: rows }, (_, i) => i), new Arrow.Int32()) })
    yield* conn.ingest(fromTable(data), { targetTable: table })
    return table
  }))

const noFault = Effect.sync(() => {
  const f = faults()
  delete f.dropOn
  delete f.dropMidResult
  delete f.dropAfterReplies
  delete f.reset
  f.replyDelayMs = 0
})

describe.skipIf(realOracle)("faults met through the driver", () => {
  it.live("oracledb 26.0.0 thin keeps the seam abort drops a session through (NetworkSession.forceDisconnect): a call in flight on a silent server fails IO at once", () =>
    Effect.gen(function*() {
      expect(DbPatches.oracledb.versionString).toBe("26.0.0")
      const s = server.server!
      const connection = yield* DbCalls.connect({ user: s.user, password: s.password, connectString: s.connectString }, 10_000)
      expect(typeof connection._impl?.nscon?.forceDisconnect).toBe("function")
      faults().replyDelayMs = 10_000
      const pending = yield* Effect.forkChild(DbCalls.call(connection, () => connection.execute("SELECT 1 FROM DUAL", [], {})))
      yield* Effect.sleep("100 millis")
      const { ms } = yield* timed(DbCalls.abort(connection))
      const joined = yield* timed(Fiber.join(pending))
      expect(ms + joined.ms).toBeLessThan(1000)
      expect(failure(joined.exit).status).toBe("IO")
      expect(connection.isHealthy()).toBe(false)
      yield* DbCalls.disconnect(connection)
    }).pipe(Effect.ensuring(noFault)), 30_000)

  it.live("closing a connection whose server went silent returns within about a second (it waited about 20 s)", () =>
    Effect.gen(function*() {
      const closed = yield* timed(Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(connectionLayer(server.uri))
        const conn = yield* Effect.provide(Connection.Connection, context)
        expect(yield* Stream.runCollect(conn.query("SELECT 1 AS X FROM DUAL"))).toHaveLength(1)
        faults().replyDelayMs = 10_000
      })))
      expect(closed.exit._tag).toBe("Success")
      // the 800 ms answer budget plus a margin for a loaded machine
      expect(closed.ms).toBeLessThan(2500)
    }).pipe(Effect.ensuring(noFault)), 30_000)

  for (const reset of [false, true]) {
    const how = reset ? "reset (ECONNRESET)" : "closed"

    it.live(`a connection ${how} in the middle of an execute fails it with IO; the connection is then unusable; no crash`, () =>
      Effect.gen(function*() {
        const table = yield* seeded(10)
        const { value: error, uncaught } = yield* uncaughtDuring(withConnection(server.uri, Effect.gen(function*() {
          const conn = yield* Connection.Connection
          faults().reset = reset
          faults().dropOn = "execute"
          const error = failure(yield* Effect.exit(Stream.runCollect(conn.query(`SELECT * FROM ${table}`))))
          expect(yield* conn.isUsable).toBe(false)
          return error
        })))
        expect(error.status).toBe("IO")
        expect(faults().dropOn).toBeUndefined()
        expect(uncaught.map(String)).toEqual([])
      }).pipe(Effect.ensuring(noFault)), 30_000)

    it.live(`a connection ${how} in the middle of a fetch fails the stream with IO, not a short success; no crash`, () =>
      Effect.gen(function*() {
        const table = yield* seeded(500)
        const { value: error, uncaught } = yield* uncaughtDuring(withConnection(server.uri, Effect.gen(function*() {
          const conn = yield* Connection.Connection
          let batches = 0
          const stream = conn.query(`SELECT * FROM ${table}`, { "redo.statement.fetch_array_size": "20", "redo.statement.prefetch_rows": "20", "redo.statement.read_batch_rows": "20" }).pipe(
            Stream.tap(() =>
              Effect.sync(() => {
                batches++
                faults().reset = reset
                faults().dropOn = "fetch"
              })
            )
          )
          const error = failure(yield* Effect.exit(Stream.runDrain(stream)))
          expect(batches).toBeGreaterThan(0)
          return error
        })))
        expect(error.status).toBe("IO")
        expect(faults().dropOn).toBeUndefined()
        expect(uncaught.map(String)).toEqual([])
      }).pipe(Effect.ensuring(noFault)), 30_000)

    it.live(`a connection ${how} in the middle of a 200 KB CLOB value (read by one LOB read call) fails IO; no crash`, () =>
      Effect.gen(function*() {
        const table = uniqueName("FLOB")
        yield* withConnection(server.uri, Effect.gen(function*() {
          const conn = yield* Connection.Connection
          yield* conn.execute(`CREATE TABLE ${table} (C CLOB)`)
          yield* conn.execute(`INSERT INTO ${table} VALUES (RPAD('x', 200000, 'x'))`)
          expect(Number((yield* Stream.runCollect(conn.query(`SELECT LENGTH(C) AS L FROM ${table}`)))[0]!.getChild("L")!.get(0))).toBe(200000)
        }))
        const { value: error, uncaught } = yield* uncaughtDuring(withConnection(server.uri, Effect.gen(function*() {
          const conn = yield* Connection.Connection
          faults().reset = reset
          faults().dropMidResult = true
          return failure(yield* Effect.exit(Stream.runCollect(conn.query(`SELECT C FROM ${table}`))))
        })))
        expect(error.status).toBe("IO")
        expect(uncaught.map(String)).toEqual([])
      }).pipe(Effect.ensuring(noFault)), 30_000)
  }

  it.live("a reset while the connection is idle (the socket's error event comes between calls): no crash, isUsable turns false, the next statement fails IO", () =>
    Effect.gen(function*() {
      const { value, uncaught } = yield* uncaughtDuring(withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        // run once first: a new text's first run is two calls (parse, then execute on the parsed cursor)
        expect(yield* Stream.runCollect(conn.query("SELECT 1 AS X FROM DUAL"))).toHaveLength(1)
        faults().reset = true
        faults().dropAfterReplies = 1
        expect(yield* Stream.runCollect(conn.query("SELECT 1 AS X FROM DUAL"))).toHaveLength(1)
        yield* Effect.sleep("100 millis")
        const usable = yield* conn.isUsable
        return { usable, next: failure(yield* Effect.exit(Stream.runCollect(conn.query("SELECT 2 AS X FROM DUAL")))) }
      })))
      expect(value.usable).toBe(false)
      expect(value.next.status).toBe("IO")
      expect(uncaught.map(String)).toEqual([])
    }).pipe(Effect.ensuring(noFault)), 30_000)
})

describe("connect time limit", () => {
  it("a URI without connectTimeout gets the default (30 s); connectTimeout=N gets N", () => {
    expect(connectTimeoutMs(undefined)).toBe(DEFAULT_CONNECT_TIMEOUT_MS)
    expect(DEFAULT_CONNECT_TIMEOUT_MS).toBe(30_000)
    expect(connectTimeoutMs(1500)).toBe(1500)
  })

  it.live.skipIf(realOracle)("a server silent during the handshake: connecting fails TIMEOUT within the URI's connectTimeout", () =>
    Effect.gen(function*() {
      faults().replyDelayMs = 10_000
      const { exit, ms } = yield* timed(withConnection(`${server.uri}?connectTimeout=500ms`, Connection.Connection))
      expect(failure(exit).status).toBe("TIMEOUT")
      expect(ms).toBeLessThan(2500)
    }).pipe(Effect.ensuring(noFault)), 30_000)
})
