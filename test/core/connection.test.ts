import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Exit, Fiber, Layer, Scope, Stream } from "effect"
import { READER_ACTIVE_MESSAGE } from "../../src/AdbcError.ts"
import { GET_INFO_SCHEMA, GET_OBJECTS_SCHEMA, InfoCode, ObjectDepth } from "../../src/catalog/index.ts"
import * as Connection from "../../src/Connection.ts"
import * as Database from "../../src/Database.ts"
import { type BatchCapMode, Driver } from "../../src/Driver.ts"
import * as Ingest from "../../src/Ingest.ts"
import { fromTable } from "../../src/Ingest.ts"
import * as Reader from "../../src/Reader.ts"
import { failure } from "../support/exits.ts"
import { memoryDriver, MemoryServer } from "../support/MemoryDriver.ts"

const numbers = (n: number) =>
  new Arrow.Table({
    id: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => i), new Arrow.Int32()),
    name: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => `row ${i}`), new Arrow.Utf8())
  })

const setup = (server: MemoryServer, mode: BatchCapMode = "best-effort", dbOptions: Record<string, string> = {}) =>
  Connection.layer().pipe(
    Layer.provideMerge(Database.layer({ uri: "mem://local", ...dbOptions })),
    Layer.provide(Layer.succeed(Driver, memoryDriver(server, mode)))
  )

const seed = (rows: number) =>
  Effect.gen(function*() {
    const conn = yield* Connection.Connection
    yield* conn.ingest(fromTable(numbers(rows)), { targetTable: "T", targetDbSchema: "MAIN" })
  })


describe("readers", () => {
  it.effect("best-effort cap appends whole pages; batches sum to the result", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      yield* seed(23)
      const conn = yield* Connection.Connection
      // pages of 4 rows, cap 10: batches of 12, 11 (whole pages appended until the cap is reached)
      const batches = yield* Stream.runCollect(conn.query("SELECT * FROM MAIN.T", { "mem.read_batch_rows": "10" }))
      expect(batches.map((b) => b.numRows)).toEqual([12, 11])
      const ids = batches.flatMap((b) => [...b.getChild("id")!.toArray()])
      expect(ids).toEqual(Array.from({ length: 23 }, (_, i) => i))
      expect(server.openCursors).toBe(0)
      expect(server.closedCursors).toBe(1)
    }).pipe(Effect.provide(setup(server)))
  })

  it.effect("hard cap never exceeds the cap; statement option beats connection and database", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      yield* seed(23)
      const conn = yield* Connection.Connection
      yield* conn.setOption("mem.read_batch_rows", "7")
      const connLevel = yield* Stream.runCollect(conn.query("SELECT * FROM MAIN.T"))
      expect(connLevel.map((b) => b.numRows)).toEqual([7, 7, 7, 2])
      const stmtLevel = yield* Stream.runCollect(conn.query("SELECT * FROM MAIN.T", { "mem.read_batch_rows": "5" }))
      expect(stmtLevel.map((b) => b.numRows)).toEqual([5, 5, 5, 5, 3])
    }).pipe(Effect.provide(setup(server, "hard", { "mem.read_batch_rows": "9" })))
  })

  it.effect("a byte cap cuts batches before the row cap is reached", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      yield* seed(40)
      const conn = yield* Connection.Connection
      const unbounded = yield* Stream.runCollect(conn.query("SELECT * FROM MAIN.T", { "mem.read_batch_rows": "40" }))
      expect(unbounded.map((b) => b.numRows)).toEqual([40])
      // one page of 4 rows already holds more than 16 bytes: every page becomes its own batch
      const capped = yield* Stream.runCollect(conn.query("SELECT * FROM MAIN.T", { "mem.read_batch_rows": "40", "mem.read_batch_bytes": "16" }))
      expect(capped.map((b) => b.numRows)).toEqual(Array.from({ length: 10 }, () => 4))
    }).pipe(Effect.provide(setup(server, "hard")))
  })

  it.effect("the database level applies when nothing narrower is set", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      yield* seed(20)
      const conn = yield* Connection.Connection
      const batches = yield* Stream.runCollect(conn.query("SELECT * FROM MAIN.T"))
      expect(batches.map((b) => b.numRows)).toEqual([9, 9, 2])
    }).pipe(Effect.provide(setup(server, "hard", { "mem.read_batch_rows": "9" })))
  })

  it.effect("the cursor is released when the stream is interrupted early", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      yield* seed(40)
      const conn = yield* Connection.Connection
      const first = yield* Stream.runCollect(conn.query("SELECT * FROM MAIN.T", { "mem.read_batch_rows": "4" }).pipe(Stream.take(1)))
      expect(first).toHaveLength(1)
      expect(server.openCursors).toBe(0)
      const fiber = yield* Stream.runDrain(conn.query("SELECT * FROM MAIN.T").pipe(Stream.tap(() => Effect.never))).pipe(Effect.forkChild)
      yield* Effect.yieldNow
      yield* Effect.yieldNow
      yield* Fiber.interrupt(fiber)
      expect(server.openCursors).toBe(0)
      expect(server.closedCursors).toBe(2)
    }).pipe(Effect.provide(setup(server)))
  })

  it.effect("a zero-row result yields the schema and no rows", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      yield* seed(0)
      const conn = yield* Connection.Connection
      const reader = yield* conn.executeQuery("SELECT * FROM MAIN.T")
      expect(reader.schema.fields.map((f) => f.name)).toEqual(["id", "name"])
      const batches = yield* Stream.runCollect(reader.batches)
      expect(batches.reduce((n, b) => n + b.numRows, 0)).toBe(0)
    }).pipe(Effect.scoped, Effect.provide(setup(server)))
  })

  it.effect("query errors keep the vendor code and SQLSTATE", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const error = failure(yield* Effect.exit(Stream.runCollect(conn.query("SELECT * FROM MAIN.NOPE"))))
      expect(error.status).toBe("NOT_FOUND")
      expect(error.vendorCode).toBe(259)
      expect(error.sqlState).toBe("42S02")
    }).pipe(Effect.provide(setup(server)))
  })

  it.effect("a value that does not fit its column fails INVALID_DATA and releases the cursor", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const error = failure(yield* Effect.exit(Stream.runCollect(conn.query("SELECT OVERFLOW"))))
      expect(error.status).toBe("INVALID_DATA")
      expect(error.message).toContain("d")
      expect(server.openCursors).toBe(0)
      yield* conn.close
    }).pipe(Effect.provide(setup(server)))
  })

  it.effect("bound parameters reach the driver", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery("SELECT PARAMS")
      yield* stmt.bind(numbers(3))
      const reader = yield* stmt.executeQuery
      const rows = yield* Stream.runCollect(reader.batches)
      expect(rows.flatMap((b) => [...b.getChild("name")!.toArray()])).toEqual(["row 0", "row 1", "row 2"])
    }).pipe(Effect.scoped, Effect.provide(setup(server)))
  })
})

describe("service conveniences", () => {
  it.effect("Ingest from Connection.layerIngest and Reader.collect reach the same rows as the connection", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      const ingest = yield* Ingest.Ingest
      expect(yield* ingest.ingest(fromTable(numbers(6)), { targetTable: "S", targetDbSchema: "MAIN" })).toBe(6)
      const conn = yield* Connection.Connection
      const batches = yield* Reader.collect(yield* conn.executeQuery("SELECT * FROM MAIN.S"))
      expect(batches.flatMap((b) => [...b.getChild("id")!.toArray()])).toEqual([0, 1, 2, 3, 4, 5])
    }).pipe(Effect.scoped, Effect.provide(Connection.layerIngest.pipe(Layer.provideMerge(setup(server)))))
  })
})

describe("connection close and reader state", () => {
  it.effect("close fails while a reader is active, succeeds once it is released", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      yield* seed(10)
      const conn = yield* Connection.Connection
      const readerScope = yield* Scope.make()
      yield* conn.executeQuery("SELECT * FROM MAIN.T").pipe(Scope.provide(readerScope))
      const error = failure(yield* Effect.exit(conn.close))
      expect(error.status).toBe("INVALID_STATE")
      expect(error.message).toBe(READER_ACTIVE_MESSAGE)
      expect(server.openConnections).toBe(1)
      // the connection still works
      expect(yield* conn.execute("UPDATE 2")).toBe(2)
      yield* Scope.close(readerScope, Exit.void)
      expect(server.openCursors).toBe(0)
      yield* conn.close
      expect(server.openConnections).toBe(0)
      const after = failure(yield* Effect.exit(conn.execute("UPDATE 1")))
      expect(after.status).toBe("INVALID_STATE")
    }).pipe(Effect.provide(setup(server)))
  })

  it.effect("a fully read reader no longer blocks close", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      yield* seed(5)
      const conn = yield* Connection.Connection
      const reader = yield* conn.executeQuery("SELECT * FROM MAIN.T")
      yield* Stream.runDrain(reader.batches)
      yield* conn.close
      expect(server.openConnections).toBe(0)
    }).pipe(Effect.scoped, Effect.provide(setup(server)))
  })

  it.effect("the layer closes the connection when released", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      yield* Effect.scoped(Layer.build(setup(server)).pipe(Effect.tap(() => Effect.sync(() => expect(server.openConnections).toBe(1)))))
      expect(server.openConnections).toBe(0)
    })
  })
})

describe("transactions", () => {
  it.effect("autocommit is on by default; commit and rollback then fail INVALID_STATE", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      expect(yield* conn.getOption("adbc.connection.autocommit")).toBe("true")
      expect(failure(yield* Effect.exit(conn.commit)).status).toBe("INVALID_STATE")
      expect(failure(yield* Effect.exit(conn.rollback)).status).toBe("INVALID_STATE")
    }).pipe(Effect.provide(setup(server)))
  })

  it.effect("autocommit off, then rollback discards; commit keeps", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      yield* seed(0)
      const conn = yield* Connection.Connection
      yield* conn.setOption("adbc.connection.autocommit", "false")
      expect(yield* conn.getOption("adbc.connection.autocommit")).toBe("false")
      yield* conn.ingest(fromTable(numbers(3)), { targetTable: "T", targetDbSchema: "MAIN", mode: "append" })
      yield* conn.rollback
      expect(server.tables.get("MAIN.T")!.rows).toHaveLength(0)
      yield* conn.ingest(fromTable(numbers(2)), { targetTable: "T", targetDbSchema: "MAIN", mode: "append" })
      yield* conn.commit
      expect(server.tables.get("MAIN.T")!.rows).toHaveLength(2)
    }).pipe(Effect.provide(setup(server)))
  })
})

describe("connection options", () => {
  it.effect("unknown key: NOT_IMPLEMENTED on set, NOT_FOUND on get; db_schema round-trips through the driver", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      expect(failure(yield* Effect.exit(conn.setOption("mem.nope", "1"))).status).toBe("NOT_IMPLEMENTED")
      expect(failure(yield* Effect.exit(conn.getOption("mem.nope"))).status).toBe("NOT_FOUND")
      expect(failure(yield* Effect.exit(conn.getOption("adbc.connection.readonly"))).status).toBe("NOT_FOUND")
      yield* conn.setOption("adbc.connection.db_schema", "OTHER")
      expect(yield* conn.getOption("adbc.connection.db_schema")).toBe("OTHER")
      expect(yield* conn.getOption("adbc.connection.catalog")).toBe("mem")
      const catalog = failure(yield* Effect.exit(conn.setOption("adbc.connection.catalog", "x")))
      expect(catalog.status).toBe("NOT_IMPLEMENTED")
    }).pipe(Effect.provide(setup(server)))
  })

  it.effect("a bad database option fails before any connection is attempted", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      const exit = yield* Effect.exit(Layer.build(setup(server, "best-effort", { "mem.page_rows": "0" })).pipe(Effect.scoped))
      expect(failure(exit).status).toBe("INVALID_ARGUMENT")
      expect(server.openConnections).toBe(0)
      const noUri = yield* Effect.exit(
        Database.make({}).pipe(Effect.provideService(Driver, memoryDriver(server)))
      )
      expect(failure(noUri).message).toContain("uri")
    })
  })
})

describe("catalog through the connection", () => {
  it.effect("GetInfo and GetObjects have the ADBC schemas and the driver's values", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      yield* seed(1)
      const conn = yield* Connection.Connection
      const info = yield* conn.getInfo([InfoCode.VENDOR_NAME, InfoCode.DRIVER_NAME, 9999])
      expect(info.schema.fields.map(String)).toEqual(GET_INFO_SCHEMA.fields.map(String))
      expect(info.numRows).toBe(2)
      const values = new Map(Array.from({ length: info.numRows }, (_, i) => [info.getChild("info_name")!.get(i), info.getChild("info_value")!.get(i)]))
      expect(values.get(InfoCode.VENDOR_NAME)).toBe("Memory")
      expect(values.get(InfoCode.DRIVER_NAME)).toBe("effect-adbc memory")
      const objects = yield* conn.getObjects({ depth: ObjectDepth.ALL, tableName: "T" })
      expect(objects.schema.fields.map(String)).toEqual(GET_OBJECTS_SCHEMA.fields.map(String))
      const catalog = objects.get(0)!.toJSON() as { catalog_name: string; catalog_db_schemas: Arrow.Vector }
      expect(catalog.catalog_name).toBe("mem")
      const badDepth = failure(yield* Effect.exit(conn.getObjects({ depth: 7 as ObjectDepth })))
      expect(badDepth.status).toBe("INVALID_ARGUMENT")
      const types = yield* conn.getTableTypes
      expect([...types.getChild("table_type")!.toArray()]).toEqual(["TABLE", "VIEW"])
      const schema = yield* conn.getTableSchema(undefined, "MAIN", "T")
      expect(schema.fields.map((f) => f.name)).toEqual(["id", "name"])
    }).pipe(Effect.provide(setup(server)))
  })
})
