import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Layer, Stream } from "effect"
import { type AdbcError, adbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import * as Database from "../../src/Database.ts"
import { Driver, type DriverShape } from "../../src/Driver.ts"
import { fromTable, type IngestData } from "../../src/Ingest.ts"
import { decimals, rawUtf8 } from "../support/arrowVectors.ts"
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
        expect(error.text).toBe("source broke")
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

/** The memory driver, naming decimal columns and accepting numbers of any numeric type into a numeric column on append (as SQL databases do). */
const numericAppendDriver = (server: MemoryServer): DriverShape => {
  const driver = memoryDriver(server)
  const numeric = (type: Arrow.DataType) =>
    Arrow.DataType.isInt(type) || Arrow.DataType.isFloat(type) || Arrow.DataType.isDecimal(type)
  return {
    ...driver,
    connect: (options) =>
      Effect.map(driver.connect(options), (connection) => ({
        ...connection,
        ingest: {
          ...connection.ingest,
          columnType: (field, options) =>
            Arrow.DataType.isDecimal(field.type)
              ? Effect.succeed(`DECIMAL(${field.type.precision},${field.type.scale})`)
              : connection.ingest.columnType(field, options),
          isCompatible: (incoming, existing) =>
            (numeric(incoming.type) && numeric(existing.type)) || connection.ingest.isCompatible(incoming, existing)
        }
      }))
  }
}

const runNumericAppend = <A>(server: MemoryServer, f: (conn: Connection.ConnectionShape) => Effect.Effect<A, AdbcError>) =>
  Effect.flatMap(Connection.Connection, f).pipe(
    Effect.provide(
      Connection.layer().pipe(
        Layer.provideMerge(Database.layer({ uri: "mem://local" })),
        Layer.provide(Layer.succeed(Driver, numericAppendDriver(server)))
      )
    )
  )

const utf8 = (text: string) => Array.from(new TextEncoder().encode(text))

describe("ingest refuses values the column would store changed", () => {
  it.effect("Float64 1.9 appended into an Int32 column fails INVALID_DATA naming column and row; 2.0 is accepted", () => {
    const server = new MemoryServer()
    return runNumericAppend(server, (conn) =>
      Effect.gen(function*() {
        yield* conn.ingest(fromTable(data(2)), { targetTable: "T" })
        const floats = (ids: Array<number>) =>
          new Arrow.Table({ id: Arrow.vectorFromArray(ids, new Arrow.Float64()), v: Arrow.vectorFromArray(ids.map(() => 0), new Arrow.Float64()) })
        for (const mode of ["append", "create_append"] as const) {
          const error = failure(yield* Effect.exit(conn.ingest(fromTable(floats([2, 1.9])), { targetTable: "T", mode })))
          expect(error.status).toBe("INVALID_DATA")
          expect(error.message).toContain("column id, row 2")
          expect(error.message).toContain("1.9")
          expect(error.message).toContain("Int32")
        }
        expect(server.tables.get("MAIN.T")!.rows).toHaveLength(2)
        expect(yield* conn.ingest(fromTable(floats([2, -7])), { targetTable: "T", mode: "append" })).toBe(2)
      }))
  })

  it.effect("a value out of the Int32 column's range fails INVALID_DATA naming column and row", () => {
    const server = new MemoryServer()
    return runNumericAppend(server, (conn) =>
      Effect.gen(function*() {
        yield* conn.ingest(fromTable(data(2)), { targetTable: "T" })
        const wide = new Arrow.Table({
          id: Arrow.vectorFromArray([5n, 2147483647n, 2147483648n], new Arrow.Int64()),
          v: Arrow.vectorFromArray([0, 0, 0], new Arrow.Float64())
        })
        const error = failure(yield* Effect.exit(conn.ingest(fromTable(wide), { targetTable: "T", mode: "append" })))
        expect(error.status).toBe("INVALID_DATA")
        expect(error.message).toContain("column id, row 3")
        expect(error.message).toContain("2147483648 is out of range")
        expect(server.tables.get("MAIN.T")!.rows).toHaveLength(2)
      }))
  })

  it.effect("an Int64 beyond 2^53 appended into a Float64 column fails INVALID_DATA; exact integers pass", () => {
    const server = new MemoryServer()
    const rows = (values: Array<bigint>) =>
      new Arrow.Table({ id: Arrow.vectorFromArray(values.map(() => 1), new Arrow.Int32()), v: Arrow.vectorFromArray(values, new Arrow.Int64()) })
    return runNumericAppend(server, (conn) =>
      Effect.gen(function*() {
        yield* conn.ingest(fromTable(data(2)), { targetTable: "T" })
        const error = failure(yield* Effect.exit(conn.ingest(fromTable(rows([1n, 2n ** 53n + 1n])), { targetTable: "T", mode: "append" })))
        expect(error.status).toBe("INVALID_DATA")
        expect(error.message).toContain("column v, row 2")
        expect(error.message).toContain("9007199254740993 would lose digits")
        expect(server.tables.get("MAIN.T")!.rows).toHaveLength(2)
        expect(yield* conn.ingest(fromTable(rows([2n ** 53n, -5n])), { targetTable: "T", mode: "append" })).toBe(2)
      }))
  })

  it.effect("DECIMAL(10,4) values appended into DECIMAL(10,2) fail INVALID_DATA when they have more places; others pass", () => {
    const server = new MemoryServer()
    const priceSchema = new Arrow.Schema([new Arrow.Field("price", new Arrow.Decimal(2, 10, 128), true)])
    server.tables.set("MAIN.P", { schema: priceSchema, rows: [] })
    const prices = (unscaled: Array<bigint>) => new Arrow.Table({ price: decimals(10, 4, unscaled) })
    return runNumericAppend(server, (conn) =>
      Effect.gen(function*() {
        const error = failure(yield* Effect.exit(conn.ingest(fromTable(prices([12300n, -12345n])), { targetTable: "P", mode: "append" })))
        expect(error.status).toBe("INVALID_DATA")
        expect(error.message).toContain("column price, row 2")
        expect(error.message).toContain("-1.2345 would lose decimal places")
        expect(error.message).toContain("DECIMAL(10,2)")
        expect(server.tables.get("MAIN.P")!.rows).toHaveLength(0)
        expect(yield* conn.ingest(fromTable(prices([12300n, -10000n])), { targetTable: "P", mode: "append" })).toBe(2)
        const tooBig = failure(yield* Effect.exit(conn.ingest(fromTable(new Arrow.Table({ price: decimals(12, 2, [10n ** 10n]) })), { targetTable: "P", mode: "append" })))
        expect(tooBig.status).toBe("INVALID_DATA")
        expect(tooBig.message).toContain("100000000.00 is out of range")
        expect(server.tables.get("MAIN.P")!.rows).toHaveLength(2)
      }))
  })

  it.effect("invalid UTF-8 in a utf8 column fails INVALID_DATA naming column and row (counted across batches); nothing is written", () => {
    const server = new MemoryServer()
    const first = new Arrow.Table({ name: rawUtf8([utf8("a"), utf8("é")]) })
    const bad = new Arrow.Table({ name: rawUtf8([utf8("ok"), [0x61, 0xff, 0x62]]) })
    // Valid as a whole, but the value boundary splits "é" (C3 A9) in two: each value is invalid on its own.
    const split = new Arrow.Table({ name: rawUtf8([utf8("x"), [0xc3], [0xa9]]) })
    return run(server, (conn) =>
      Effect.gen(function*() {
        const error = failure(yield* Effect.exit(conn.ingest({ schema: first.schema, batches: Stream.make(first.batches[0]!, bad.batches[0]!) }, { targetTable: "S" })))
        expect(error.status).toBe("INVALID_DATA")
        expect(error.message).toContain("column name, row 4")
        expect(error.message).toContain("UTF-8")
        expect(server.tables.has("MAIN.S")).toBe(false)
        const splitError = failure(yield* Effect.exit(conn.ingest(fromTable(split), { targetTable: "S" })))
        expect(splitError.message).toContain("column name, row 2")
        expect(server.tables.has("MAIN.S")).toBe(false)
        expect(yield* conn.ingest(fromTable(first), { targetTable: "S" })).toBe(2)
        expect(server.tables.get("MAIN.S")!.rows.map((r) => r[0])).toEqual(["a", "é"])
      }))
  })
})
