import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { ConfigProvider, Effect, Layer, Result, Stream } from "effect"
import { createRequire } from "node:module"
import * as Connection from "../../src/Connection.ts"
import { OptionRegistry } from "../../src/Options.ts"
import { StandardOptions } from "../../src/StandardOptions.ts"
import { layerDatabaseConfig } from "../../layers/oracle/index.ts"
import * as Opt from "../../layers/oracle/OracleOptions.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

/** The options oracledb's `execute` receives for each SQL text (a spy that calls through, on the real client). */
const executeOptions = (() => {
  const OracleConnection = createRequire(import.meta.url)("oracledb/lib/connection.js") as {
    prototype: { execute: (sql: string, binds: unknown, options: Record<string, unknown>) => Promise<unknown> }
  }
  const seen = new Map<string, Record<string, unknown>>()
  const original = OracleConnection.prototype.execute
  OracleConnection.prototype.execute = function(sql, binds, options) {
    seen.set(sql, { ...options })
    return original.call(this, sql, binds, options)
  }
  return seen
})()

const fill = (conn: Connection.Connection["Service"], table: string, rows: number) =>
  Effect.gen(function*() {
    yield* conn.execute(`CREATE TABLE ${table} (ID NUMBER(10))`)
    const insert = yield* conn.statement()
    yield* insert.setSqlQuery(`INSERT INTO ${table} VALUES (:1)`)
    yield* insert.bind(new Arrow.Table({ id: Arrow.vectorFromArray(Array.from({ length: rows }, (_, i) => i), new Arrow.Int32()) }).batches[0]!)
    yield* insert.executeUpdate
  })

const batchSizes = (conn: Connection.Connection["Service"], sql: string, options?: Record<string, string>) =>
  Effect.map(Stream.runCollect(conn.query(sql, options)), (batches) => batches.map((b) => b.numRows))

describe("option levels through the driver", () => {
  it.effect("a statement option beats the connection's, which beats the database's (read_batch_rows 7 / 20 / 50)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("LVL")
      yield* fill(conn, t, 60)
      const sql = `SELECT ID FROM ${t}`
      expect(yield* batchSizes(conn, sql, { "redo.statement.read_batch_rows": "7" })).toEqual([7, 7, 7, 7, 7, 7, 7, 7, 4])
      expect(yield* batchSizes(conn, sql)).toEqual([20, 20, 20])
      yield* conn.setOption("redo.statement.read_batch_rows", "30")
      expect(yield* batchSizes(conn, sql)).toEqual([30, 30])
    }), { "redo.statement.read_batch_rows": "50" }, { "redo.statement.read_batch_rows": "20" }))

  it.effect("the database level applies when nothing narrower is set", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("LVD")
      yield* fill(conn, t, 60)
      expect(yield* batchSizes(conn, `SELECT ID FROM ${t}`)).toEqual([50, 10])
    }), { "redo.statement.read_batch_rows": "50" }))

  it.effect("prefetch_rows defaults to 1 on the query's execute; a set value is passed instead", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("PFD")
      yield* fill(conn, t, 5)
      const sql = `SELECT ID FROM ${t}`
      expect((yield* batchSizes(conn, sql)).reduce((a, b) => a + b, 0)).toBe(5)
      expect(Opt.DEFAULT_PREFETCH_ROWS).toBe(1)
      expect(executeOptions.get(sql)?.["prefetchRows"]).toBe(1)
      const sql2 = `SELECT ID FROM ${t} WHERE ID >= 0`
      yield* batchSizes(conn, sql2, { "redo.statement.prefetch_rows": "3" })
      expect(executeOptions.get(sql2)?.["prefetchRows"]).toBe(3)
    })))
})

describe("redo.query.date_type", () => {
  it("accepts date32 and timestamp at every level and rejects anything else naming the option and the values", () => {
    const registry = new OptionRegistry([...StandardOptions, ...Opt.OracleOptions])
    for (const level of ["database", "connection", "statement"] as const) {
      for (const value of ["date32", "timestamp"]) expect(Result.isSuccess(registry.validate(level, "redo.query.date_type", value))).toBe(true)
    }
    const bad = registry.validate("statement", "redo.query.date_type", "date64")
    if (Result.isSuccess(bad)) throw new Error("expected a failure")
    expect(bad.failure.status).toBe("INVALID_ARGUMENT")
    expect(bad.failure.message).toContain("redo.query.date_type")
    expect(bad.failure.message).toContain("timestamp")
  })
})

describe("configuration from the environment", () => {
  it.effect("layerDatabaseConfig('ORACLE_') connects with ORACLE_URI and applies ORACLE_REDO_* options", () =>
    Effect.gen(function*() {
      const t = uniqueName("ENV")
      const env = { ORACLE_URI: server.uri, ORACLE_REDO_STATEMENT_READ_BATCH_ROWS: "4" }
      const sizes = yield* Effect.gen(function*() {
        const conn = yield* Connection.Connection
        yield* fill(conn, t, 10)
        return yield* batchSizes(conn, `SELECT ID FROM ${t}`)
      }).pipe(
        Effect.provide(Connection.layer().pipe(Layer.provideMerge(layerDatabaseConfig("ORACLE_")))),
        Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env })))
      )
      expect(sizes).toEqual([4, 4, 2])
      const bad = yield* Effect.flip(
        Effect.scoped(Layer.build(layerDatabaseConfig())).pipe(
          Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { ...env, ORACLE_REDO_STATEMENT_EXECUTION_MODE: "arrow" } })))
        )
      )
      expect(String(bad)).toContain("redo.statement.execution_mode")
      const missing = yield* Effect.flip(
        Effect.scoped(Layer.build(layerDatabaseConfig())).pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: {} }))))
      )
      expect(String(missing)).toContain("ORACLE_URI")
    }))
})
