import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Layer, Stream } from "effect"
import { type AdbcError, adbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import * as Database from "../../src/Database.ts"
import { Driver } from "../../src/Driver.ts"
import { fromTable, type IngestData } from "../../src/Ingest.ts"
import { failure } from "../support/exits.ts"
import { memoryDriver, MemoryServer } from "../support/MemoryDriver.ts"

const setup = (server: MemoryServer) =>
  Connection.layer().pipe(
    Layer.provideMerge(Database.layer({ uri: "mem://local" })),
    Layer.provide(Layer.succeed(Driver, memoryDriver(server)))
  )

const data = (n: number, offset = 0) =>
  new Arrow.Table({
    id: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => i + offset), new Arrow.Int32()),
    v: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => i / 2), new Arrow.Float64())
  })
const strings = (name: string, values: Array<string>) => new Arrow.Table({ [name]: Arrow.vectorFromArray(values, new Arrow.Utf8()) })


const run = <A>(server: MemoryServer, f: (conn: Connection.ConnectionShape) => Effect.Effect<A, AdbcError>) =>
  Effect.flatMap(Connection.Connection, f).pipe(Effect.provide(setup(server)))

describe("ingest modes", () => {
  it.effect("create makes the table and reports rows; create again is ALREADY_EXISTS", () => {
    const server = new MemoryServer()
    return run(server, (conn) =>
      Effect.gen(function*() {
        expect(yield* conn.ingest(fromTable(data(5)), { targetTable: "T" })).toBe(5)
        expect(server.tables.get("MAIN.T")!.rows).toHaveLength(5)
        const again = failure(yield* Effect.exit(conn.ingest(fromTable(data(1)), { targetTable: "T" })))
        expect(again.status).toBe("ALREADY_EXISTS")
        expect(server.tables.get("MAIN.T")!.rows).toHaveLength(5)
      }))
  })

  it.effect("append to a missing table is NOT_FOUND; append adds rows", () => {
    const server = new MemoryServer()
    return run(server, (conn) =>
      Effect.gen(function*() {
        const missing = failure(yield* Effect.exit(conn.ingest(fromTable(data(1)), { targetTable: "T", mode: "append" })))
        expect(missing.status).toBe("NOT_FOUND")
        expect(server.tables.size).toBe(0)
        yield* conn.ingest(fromTable(data(2)), { targetTable: "T" })
        expect(yield* conn.ingest(fromTable(data(3, 2)), { targetTable: "T", mode: "append" })).toBe(3)
        expect(server.tables.get("MAIN.T")!.rows.map((r) => r[0])).toEqual([0, 1, 2, 3, 4])
      }))
  })

  it.effect("append or create_append with an incompatible schema is ALREADY_EXISTS", () => {
    const server = new MemoryServer()
    return run(server, (conn) =>
      Effect.gen(function*() {
        yield* conn.ingest(fromTable(data(2)), { targetTable: "T" })
        const other = new Arrow.Table({ id: Arrow.vectorFromArray(["a"], new Arrow.Utf8()), v: Arrow.vectorFromArray([1], new Arrow.Float64()) })
        for (const mode of ["append", "create_append"] as const) {
          const error = failure(yield* Effect.exit(conn.ingest(fromTable(other), { targetTable: "T", mode })))
          expect(error.status).toBe("ALREADY_EXISTS")
          expect(error.message).toContain("id")
        }
        const extra = Arrow.tableFromArrays({ id: Int32Array.from([1]), v: Float64Array.from([1]), w: Float64Array.from([1]) })
        expect(failure(yield* Effect.exit(conn.ingest(fromTable(extra), { targetTable: "T", mode: "append" }))).status).toBe("ALREADY_EXISTS")
        expect(server.tables.get("MAIN.T")!.rows).toHaveLength(2)
      }))
  })

  it.effect("create_append creates when missing and appends when present", () => {
    const server = new MemoryServer()
    return run(server, (conn) =>
      Effect.gen(function*() {
        yield* conn.ingest(fromTable(data(2)), { targetTable: "T", mode: "create_append" })
        yield* conn.ingest(fromTable(data(2, 2)), { targetTable: "T", mode: "create_append" })
        expect(server.tables.get("MAIN.T")!.rows).toHaveLength(4)
      }))
  })

  it.effect("replace drops and recreates with the new schema", () => {
    const server = new MemoryServer()
    return run(server, (conn) =>
      Effect.gen(function*() {
        yield* conn.ingest(fromTable(data(4)), { targetTable: "T" })
        const next = strings("name", ["x", "y"])
        expect(yield* conn.ingest(fromTable(next), { targetTable: "T", mode: "replace" })).toBe(2)
        expect(server.tables.get("MAIN.T")!.schema.fields.map((f) => f.name)).toEqual(["name"])
        expect(server.tables.get("MAIN.T")!.rows).toEqual([["x"], ["y"]])
      }))
  })

  it.effect("an empty stream creates an empty table", () => {
    const server = new MemoryServer()
    const empty: IngestData = { schema: data(0).schema, batches: Stream.empty }
    return run(server, (conn) =>
      Effect.gen(function*() {
        expect(yield* conn.ingest(empty, { targetTable: "E" })).toBe(0)
        expect(server.tables.get("MAIN.E")!.rows).toHaveLength(0)
      }))
  })

  it.effect("target schema and temporary tables reach the driver; target catalog is NOT_IMPLEMENTED", () => {
    const server = new MemoryServer()
    return run(server, (conn) =>
      Effect.gen(function*() {
        yield* conn.ingest(fromTable(data(1)), { targetTable: "T", targetDbSchema: "S2" })
        expect(server.tables.has("S2.T")).toBe(true)
        // temporary: the target schema is ignored (as the HANA driver does)
        yield* conn.ingest(fromTable(data(1)), { targetTable: "tmp", temporary: true, targetDbSchema: "S2" })
        expect(server.statements.some((s) => s.includes(`"key":"#tmp"`))).toBe(true)
        const catalog = failure(yield* Effect.exit(conn.ingest(fromTable(data(1)), { targetTable: "T", targetCatalog: "c" })))
        expect(catalog.status).toBe("NOT_IMPLEMENTED")
      }))
  })

  it.effect("names like `create` and `a\"b` are passed through untouched", () => {
    const server = new MemoryServer()
    return run(server, (conn) =>
      Effect.gen(function*() {
        yield* conn.ingest(fromTable(data(1)), { targetTable: "create" })
        yield* conn.ingest(fromTable(data(1)), { targetTable: `a"b` })
        expect([...server.tables.keys()].sort()).toEqual(["MAIN.a\"b", "MAIN.create"])
      }))
  })

  it.effect("an unsupported column type fails before any I/O", () => {
    const server = new MemoryServer()
    return run(server, (conn) =>
      Effect.gen(function*() {
        const nested = new Arrow.Table({ d: Arrow.vectorFromArray([new Date(0)], new Arrow.DateMillisecond()) })
        const error = failure(yield* Effect.exit(conn.ingest(fromTable(nested), { targetTable: "N" })))
        expect(error.status).toBe("NOT_IMPLEMENTED")
        expect(error.message).toContain("d")
        expect(server.statements).toHaveLength(0)
      }))
  })
})

describe("ingest atomicity", () => {
  const batches = (count: number, size: number): IngestData => ({
    schema: data(0).schema,
    batches: Stream.fromIterable(Array.from({ length: count }, (_, i) => data(size, i * size).batches[0]!))
  })

  it.effect("a failure mid-stream in create mode leaves no table and no rows", () => {
    const server = new MemoryServer()
    server.failInsertBatch = 3
    return run(server, (conn) =>
      Effect.gen(function*() {
        const error = failure(yield* Effect.exit(conn.ingest(batches(5, 10), { targetTable: "T" })))
        expect(error.status).toBe("IO")
        expect(server.tables.has("MAIN.T")).toBe(false)
        expect(yield* conn.getOption("adbc.connection.autocommit")).toBe("true")
      }))
  })

  it.effect("a failure mid-stream in append mode leaves the table as it was", () => {
    const server = new MemoryServer()
    return run(server, (conn) =>
      Effect.gen(function*() {
        yield* conn.ingest(fromTable(data(3)), { targetTable: "T" })
        server.insertBatches = 0
        server.failInsertBatch = 2
        const error = failure(yield* Effect.exit(conn.ingest(batches(4, 10), { targetTable: "T", mode: "append" })))
        expect(error.status).toBe("IO")
        expect(server.tables.get("MAIN.T")!.rows).toHaveLength(3)
      }))
  })

  it.effect("a failing source stream also rolls back", () => {
    const server = new MemoryServer()
    const broken: IngestData = {
      schema: data(0).schema,
      batches: Stream.concat(Stream.make(data(5).batches[0]!), Stream.fail(adbcError("IO", "source broke")))
    }
    return run(server, (conn) =>
      Effect.gen(function*() {
        const error = failure(yield* Effect.exit(conn.ingest(broken, { targetTable: "T" })))
        expect(error.message).toBe("source broke")
        expect(server.tables.has("MAIN.T")).toBe(false)
      }))
  })
})

describe("ingest atomicity by build-and-swap (a driver whose DDL commits at once)", () => {
  const batches = (count: number, size: number): IngestData => ({
    schema: data(0).schema,
    batches: Stream.fromIterable(Array.from({ length: count }, (_, i) => data(size, i * size).batches[0]!))
  })
  const onlyTables = (server: MemoryServer) => [...server.tables.keys()].sort()

  it.effect("a failed replace keeps the old table and rows, and leaves no side table", () => {
    const server = new MemoryServer()
    return run(server, (conn) =>
      Effect.gen(function*() {
        yield* conn.ingest(fromTable(data(3)), { targetTable: "T" })
        server.insertBatches = 0
        server.failInsertBatch = 2
        const error = failure(yield* Effect.exit(conn.ingest(batches(4, 10), { targetTable: "T", mode: "replace" })))
        expect(error.status).toBe("IO")
        expect(server.tables.get("MAIN.T")!.rows.map((r) => r[0])).toEqual([0, 1, 2])
        expect(onlyTables(server)).toEqual(["MAIN.T"])
      }))
  })

  it.live("an interrupted replace keeps the old table and rows", () => {
    const server = new MemoryServer()
    const endless: IngestData = {
      schema: data(0).schema,
      batches: Stream.concat(Stream.make(data(5).batches[0]!), Stream.never)
    }
    return run(server, (conn) =>
      Effect.gen(function*() {
        yield* conn.ingest(fromTable(data(3)), { targetTable: "T" })
        const exit = yield* Effect.exit(Effect.timeout(conn.ingest(endless, { targetTable: "T", mode: "replace" }), "50 millis"))
        expect(exit._tag).toBe("Failure")
        expect(server.tables.get("MAIN.T")!.rows).toHaveLength(3)
        expect(onlyTables(server)).toEqual(["MAIN.T"])
      }))
  })

  it.effect("the target is untouched until the swap: a successful replace renames the filled table into place", () => {
    const server = new MemoryServer()
    return run(server, (conn) =>
      Effect.gen(function*() {
        yield* conn.ingest(fromTable(data(3)), { targetTable: "T" })
        server.statements.length = 0
        expect(yield* conn.ingest(batches(2, 5), { targetTable: "T", mode: "replace" })).toBe(10)
        expect(server.tables.get("MAIN.T")!.rows).toHaveLength(10)
        expect(onlyTables(server)).toEqual(["MAIN.T"])
        const verbs = server.statements.map((s) => s.split(" ")[0])
        expect(verbs.indexOf("RENAME")).toBeGreaterThan(verbs.indexOf("CREATE"))
        expect(server.statements.filter((s) => s.startsWith("DROP MAIN.T ") || s === "DROP MAIN.T")).toHaveLength(0)
      }))
  })

  it.effect("a failed create leaves no table at all", () => {
    const server = new MemoryServer()
    server.failInsertBatch = 2
    return run(server, (conn) =>
      Effect.gen(function*() {
        yield* Effect.exit(conn.ingest(batches(3, 10), { targetTable: "NEW", mode: "create" }))
        expect(onlyTables(server)).toEqual([])
      }))
  })
})

describe("ingest checks each batch against the declared schema", () => {
  it.effect("a batch whose column type differs fails INVALID_ARGUMENT naming the column; nothing is written", () => {
    const server = new MemoryServer()
    const declared = data(0).schema
    const other = new Arrow.Table({
      id: Arrow.vectorFromArray([1.9], new Arrow.Float64()),
      v: Arrow.vectorFromArray([1], new Arrow.Float64())
    })
    const mixed: IngestData = { schema: declared, batches: Stream.make(data(2).batches[0]!, other.batches[0]!) }
    return run(server, (conn) =>
      Effect.gen(function*() {
        const error = failure(yield* Effect.exit(conn.ingest(mixed, { targetTable: "T" })))
        expect(error.status).toBe("INVALID_ARGUMENT")
        expect(error.message).toContain("column id")
        expect(error.message).toContain("Float64")
        expect(server.tables.has("MAIN.T")).toBe(false)
      }))
  })

  it.effect("a batch missing a column fails INVALID_ARGUMENT naming it", () => {
    const server = new MemoryServer()
    const short = new Arrow.Table({ id: Arrow.vectorFromArray([1], new Arrow.Int32()) })
    return run(server, (conn) =>
      Effect.gen(function*() {
        const error = failure(yield* Effect.exit(conn.ingest({ schema: data(0).schema, batches: Stream.make(short.batches[0]!) }, { targetTable: "T" })))
        expect(error.status).toBe("INVALID_ARGUMENT")
        expect(error.message).toContain("column v")
      }))
  })

  it.effect("dictionary-encoded columns (tableFromArrays / tableFromJSON) are ingested as their value type", () => {
    const server = new MemoryServer()
    const fromArrays = Arrow.tableFromArrays({ name: ["a", "b", "a", null] })
    const fromJson = Arrow.tableFromJSON([{ name: "x" }, { name: "y" }])
    expect(Arrow.DataType.isDictionary(fromArrays.schema.fields[0]!.type)).toBe(true)
    return run(server, (conn) =>
      Effect.gen(function*() {
        expect(yield* conn.ingest(fromTable(fromArrays), { targetTable: "D" })).toBe(4)
        expect(yield* conn.ingest(fromTable(fromJson), { targetTable: "D", mode: "append" })).toBe(2)
        const table = server.tables.get("MAIN.D")!
        expect(String(table.schema.fields[0]!.type)).toBe("Utf8")
        expect(table.rows.map((r) => r[0])).toEqual(["a", "b", "a", null, "x", "y"])
      }))
  })
})
