import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { ConfigProvider, Effect, Layer, Result, Stream } from "effect"
import { createRequire } from "node:module"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { OptionRegistry } from "../../src/Options.ts"
import { StandardOptions } from "../../src/StandardOptions.ts"
import { tablespaceName } from "../../layers/oracle/Ddl.ts"
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

/** The rows of each `executeMany` call, per SQL text (a spy that calls through, on the real client). */
const executeManyRows = (() => {
  const OracleConnection = createRequire(import.meta.url)("oracledb/lib/connection.js") as {
    prototype: { executeMany: (sql: string, binds: unknown, options: Record<string, unknown>) => Promise<unknown> }
  }
  const seen = new Map<string, Array<number>>()
  const original = OracleConnection.prototype.executeMany
  OracleConnection.prototype.executeMany = function(sql, binds, options) {
    // oracledb's path sends an array of rows; the ingest fast path a row count (its rows are encoded ahead)
    seen.set(sql, [...(seen.get(sql) ?? []), Array.isArray(binds) ? binds.length : Number(binds)])
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
      expect(Opt.PrefetchRows.default).toBe(1)
      expect(executeOptions.get(sql)?.["prefetchRows"]).toBe(1)
      const sql2 = `SELECT ID FROM ${t} WHERE ID >= 0`
      yield* batchSizes(conn, sql2, { "redo.statement.prefetch_rows": "3" })
      expect(executeOptions.get(sql2)?.["prefetchRows"]).toBe(3)
    })))
})

describe("redo.statement.insert_batch_rows", () => {
  const seven = new Arrow.Table({ id: Arrow.vectorFromArray([1, 2, 3, 4, 5, 6, 7], new Arrow.Int32()) })
  /** The executeMany rows of the ingest into `table` (built under a temporary name, then renamed into place). */
  const ingestRows = (table: string) =>
    [...executeManyRows].filter(([sql]) => sql.startsWith(`INSERT INTO "${table}`)).flatMap(([, rows]) => rows)

  it.effect("ingest (fast path and oracledb's encoder) and bound DML send at most that many rows per executeMany; 65536 by default", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const fast = uniqueName("IBR")
      expect(yield* conn.ingest(fromTable(seven), { targetTable: fast })).toBe(7)
      expect(ingestRows(fast)).toEqual([3, 3, 1])
      // a struct column sends the batch through oracledb's own encoder
      const nested = uniqueName("IBRS")
      const withStruct = new Arrow.Table({
        id: seven.getChild("id")!,
        s: Arrow.vectorFromArray([1, 2, 3, 4, 5, 6, 7].map((x) => ({ x })), new Arrow.Struct([new Arrow.Field("x", new Arrow.Int32())]))
      })
      expect(yield* conn.ingest(fromTable(withStruct), { targetTable: nested })).toBe(7)
      expect(ingestRows(nested)).toEqual([3, 3, 1])
      const dml = uniqueName("IBRD")
      yield* conn.execute(`CREATE TABLE ${dml} (ID NUMBER(10))`)
      const insert = yield* conn.statement()
      yield* insert.setSqlQuery(`INSERT INTO ${dml} VALUES (:1)`)
      yield* insert.bind(seven.batches[0]!)
      expect(yield* insert.executeUpdate).toBe(7)
      expect(executeManyRows.get(`INSERT INTO ${dml} VALUES (:1)`)).toEqual([3, 3, 1])
    }), {}, { "redo.statement.insert_batch_rows": "3", "redo.ingest.struct_type": "nvarchar2" }))

  it.effect("unset, a batch goes whole (the default, 65536, is above it)", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("IBRU")
      expect(yield* conn.ingest(fromTable(seven), { targetTable: t })).toBe(7)
      expect(ingestRows(t)).toEqual([7])
      expect(Opt.InsertBatchRows.default).toBe(65536)
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

describe("redo.ingest.tablespace", () => {
  it("is read as Oracle reads a name in SQL: unquoted upper-cased, double-quoted kept exactly", () => {
    expect(tablespaceName("users")).toBe('"USERS"')
    expect(tablespaceName("Users")).toBe('"USERS"')
    expect(tablespaceName('"Mixed Case"')).toBe('"Mixed Case"')
    expect(tablespaceName('"a""b"')).toBe('"a""b"')
  })

  it.effect("ingest creates its table in the tablespace named (lower case too); an unknown one fails ORA-00959", () =>
    Effect.gen(function*() {
      const data = () => fromTable(new Arrow.Table({ id: Arrow.vectorFromArray([1, 2], new Arrow.Int32()) }))
      const ingestWith = (tablespace: string, table: string) =>
        withConnection(server.uri, Effect.flatMap(Connection.Connection, (conn) => conn.ingest(data(), { targetTable: table })), {
          "redo.ingest.tablespace": tablespace
        })
      const t = uniqueName("TBS")
      expect(yield* ingestWith("users", t)).toBe(2)
      const where = yield* withConnection(server.uri, Effect.flatMap(Connection.Connection, (conn) =>
        conn.queryTable(`SELECT TABLESPACE_NAME AS TS FROM USER_TABLES WHERE TABLE_NAME = '${t}'`)))
      expect(where.get(0)!.toJSON()["TS"]).toBe("USERS")
      const unknown = yield* Effect.flip(ingestWith("no_such_space", uniqueName("TBX")))
      expect([unknown.status, unknown.vendorCode]).toEqual(["INVALID_ARGUMENT", 959])
      expect(unknown.message).toContain("NO_SUCH_SPACE")
    }))
})

describe("redo.ingest.struct_type blob and json (struct, list and large_list columns)", () => {
  const nested = () => {
    const doc = Arrow.vectorFromArray([{ a: 1, b: "x" }, null, { a: -2, b: "ü" }], new Arrow.Struct([
      new Arrow.Field("a", new Arrow.Int32()),
      new Arrow.Field("b", new Arrow.Utf8())
    ]))
    const xs = Arrow.vectorFromArray([[1, 2], [], [3]], new Arrow.List(new Arrow.Field("item", new Arrow.Int32())))
    // a LargeList (64-bit offsets) is stored like a List
    const ls = Arrow.vectorFromArray([["a"], null, ["b", "c"]], new Arrow.LargeList(new Arrow.Field("item", new Arrow.Utf8())))
    return fromTable(new Arrow.Table({ id: Arrow.vectorFromArray([1, 2, 3], new Arrow.Int32()), doc, xs, ls }))
  }

  for (const [storage, typeName] of [["blob", "BLOB"], ["json", "JSON"]] as const) {
    it.effect(`${storage}: struct and list columns are created as ${typeName} and read back as their JSON`, () =>
      withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueName(`ST${storage.toUpperCase()}`)
        expect(yield* conn.ingest(nested(), { targetTable: t })).toBe(3)
        const schema = yield* conn.getTableSchema(undefined, undefined, t)
        expect(schema.fields.filter((f) => f.name !== "id").map((f) => f.metadata.get("oracle.type-name"))).toEqual([typeName, typeName, typeName])
        const back = yield* conn.queryTable(`SELECT "doc", "xs", "ls" FROM "${t}" ORDER BY "id"`)
        const parse = (v: unknown) => (v === null ? null : JSON.parse(typeof v === "string" ? v : new TextDecoder().decode(v as Uint8Array)))
        expect(back.getChild("doc")!.toArray().map(parse)).toEqual([{ a: 1, b: "x" }, null, { a: -2, b: "ü" }])
        expect(back.getChild("xs")!.toArray().map(parse)).toEqual([[1, 2], [], [3]])
        expect(back.getChild("ls")!.toArray().map(parse)).toEqual([["a"], null, ["b", "c"]])
      }), { "redo.ingest.struct_type": storage }))
  }
})
