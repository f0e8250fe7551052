/**
 * The driver port's hooks as the core uses them, through the MemoryDriver and its feature switches: call intent,
 * OUT-parameter columns, implicit result sets, batch caps from option defaults, and optional feature groups whose
 * absence the core reports as NOT_IMPLEMENTED naming the feature and the driver.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Layer, type Scope, Stream } from "effect"
import { type AdbcError, adbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import * as Database from "../../src/Database.ts"
import { type BatchCapMode, Driver } from "../../src/Driver.ts"
import * as Ingest from "../../src/Ingest.ts"
import { fromTable } from "../../src/Ingest.ts"
import * as Reader from "../../src/Reader.ts"
import { memoryDriver, type MemoryFeatures, MemoryServer, PARAMETER_TYPE_KEY } from "../support/MemoryDriver.ts"
import { failure, numbers } from "./harness.ts"

const setup = (
  server: MemoryServer,
  mode: BatchCapMode = "best-effort",
  dbOptions: Record<string, string> = {},
  features: MemoryFeatures = {}
) =>
  Connection.layer().pipe(
    Layer.provideMerge(Database.layer({ uri: "mem://local", ...dbOptions })),
    Layer.provide(Layer.succeed(Driver, memoryDriver(server, mode, features)))
  )

/** Runs `program` on a fresh MemoryServer with a connection (and a scope for readers). */
const withMemory = <A>(
  program: (server: MemoryServer) => Effect.Effect<A, AdbcError, Connection.Connection | Database.Database | Scope.Scope>,
  options: { readonly mode?: BatchCapMode; readonly features?: MemoryFeatures } = {}
) => {
  const server = new MemoryServer()
  return program(server).pipe(Effect.scoped, Effect.provide(setup(server, options.mode, {}, options.features)))
}

const seed = (rows: number, table = "T") =>
  Effect.flatMap(Connection.Connection, (conn) => conn.ingest(fromTable(numbers(rows)), { targetTable: table }))

const column = (batches: ReadonlyArray<Arrow.RecordBatch>, name: string) =>
  batches.flatMap((b) => [...b.getChild(name)!] as Array<unknown>)

const directed = (name: string, type: Arrow.DataType, direction: "out" | "inout" | "in") =>
  new Arrow.Field(name, type, true, new Map([[PARAMETER_TYPE_KEY, direction]]))

/** One parameter row: a = 1 (IN), b = "x" (OUT), c = 7 (IN/OUT). */
const outBinding = () => {
  const a = Arrow.vectorFromArray([1], new Arrow.Int32())
  const b = Arrow.vectorFromArray(["x"], new Arrow.Utf8())
  const c = Arrow.vectorFromArray([7], new Arrow.Int32())
  const schema = new Arrow.Schema([
    directed("a", new Arrow.Int32(), "in"),
    directed("b", new Arrow.Utf8(), "out"),
    directed("c", new Arrow.Int32(), "inout")
  ])
  return new Arrow.RecordBatch(schema, Arrow.makeData({
    type: new Arrow.Struct(schema.fields),
    length: 1,
    children: [a.data[0]!, b.data[0]!, c.data[0]!]
  }))
}

describe("port: batch caps", () => {
  it.effect("best-effort appends whole pages until the cap (the cap's default comes from the option spec)", () =>
    withMemory((server) =>
      Effect.gen(function*() {
        yield* seed(23)
        const conn = yield* Connection.Connection
        // pages of 4 rows, default cap 10: whole pages are appended until the cap is reached
        const batches = yield* Stream.runCollect(conn.query("SELECT * FROM MAIN.T"))
        expect(batches.map((b) => b.numRows)).toEqual([12, 11])
        expect(column(batches, "id")).toEqual(Array.from({ length: 23 }, (_, i) => i))
      })))

  it.effect("an approximate byte cap cuts batches before the hard row cap is reached", () =>
    withMemory((server) =>
      Effect.gen(function*() {
        yield* seed(40)
        const conn = yield* Connection.Connection
        const unbounded = yield* Stream.runCollect(conn.query("SELECT * FROM MAIN.T", { "mem.read_batch_rows": "40" }))
        expect(unbounded.map((b) => b.numRows)).toEqual([40])
        // rows take 9 to 18 bytes (id, offset, text, validity), pages hold 4: a 100-byte budget is met by cutting
        // inside pages, in batches of several rows each, none far above the budget
        const capped = yield* Stream.runCollect(
          conn.query("SELECT * FROM MAIN.T", { "mem.read_batch_rows": "40", "mem.read_batch_bytes": "100" })
        )
        expect(capped.reduce((n, b) => n + b.numRows, 0)).toBe(40)
        expect(capped.length).toBeGreaterThan(4)
        expect(capped.some((b) => b.numRows % 4 !== 0)).toBe(true)
        for (const b of capped.slice(0, -1)) expect(b.numRows).toBeGreaterThanOrEqual(3)
        for (const b of capped) expect(b.data.children.reduce((n, d) => n + d.byteLength, 0)).toBeLessThanOrEqual(2 * 100)
      }), { mode: "hard" }))

  it.effect("a value that does not fit its column fails INVALID_DATA naming it and releases the cursor", () =>
    withMemory((server) =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const error = failure(yield* Effect.exit(Stream.runCollect(conn.query("SELECT OVERFLOW"))))
        expect(error.status).toBe("INVALID_DATA")
        expect(error.message).toContain("d")
        expect(server.openCursors).toBe(0)
      })))
})

describe("port: call intent", () => {
  it.effect("executeQuery calls with intent query, executeUpdate and ingest DDL with intent update", () =>
    withMemory((server) =>
      Effect.gen(function*() {
        yield* seed(1)
        const conn = yield* Connection.Connection
        server.intents.length = 0
        yield* Stream.runDrain(conn.query("SELECT * FROM MAIN.T"))
        expect(yield* conn.execute("UPDATE 3")).toBe(3)
        expect(server.intents).toEqual(["query", "update"])
        // ingest DDL: a replace builds a new table and swaps it in (CREATE, RENAME, RENAME, DROP)
        server.statements.length = 0
        server.intents.length = 0
        yield* conn.ingest(fromTable(numbers(2)), { targetTable: "T", mode: "replace" })
        const ddl = server.statements.flatMap((sql, i) => /^(CREATE|DROP|RENAME) /.test(sql) ? [`${sql.split(" ")[0]} ${server.intents[i]}`] : [])
        expect(ddl).toEqual(["CREATE update", "RENAME update", "RENAME update", "DROP update"])
      })))
})

describe("port: ingest DDL kinds", () => {
  const failingReplace = {
    schema: numbers(0).schema,
    batches: Stream.concat(Stream.fromIterable(numbers(3, 100).batches), Stream.fail(adbcError("IO", "source broke")))
  }
  for (const kind of ["buildAndSwap", "transactional"] as const) {
    it.effect(`${kind}: a failed replace keeps the old table and rows; a successful one replaces them`, () =>
      withMemory((server) =>
        Effect.gen(function*() {
          const conn = yield* Connection.Connection
          yield* seed(2)
          server.statements.length = 0
          server.settings.length = 0
          failure(yield* Effect.exit(conn.ingest(failingReplace, { targetTable: "T", mode: "replace" })))
          expect(server.tables.get("MAIN.T")!.rows).toEqual([[0, null], [1, "row 1"]])
          expect(yield* conn.ingest(fromTable(numbers(3, 10)), { targetTable: "T", mode: "replace" })).toBe(3)
          expect(server.tables.get("MAIN.T")!.rows.map((row) => row[0])).toEqual([10, 11, 12])
          expect([...server.tables.keys()]).toEqual(["MAIN.T"])
          const verbs = server.statements.map((sql) => sql.split(" ")[0])
          if (kind === "transactional") {
            // DROP and CREATE of the target inside the ingest's transaction, DDL mode switched and restored twice
            expect(verbs).toEqual(["DROP", "CREATE", "DROP", "CREATE"])
            expect(server.settings).toEqual(["ddl:transactional", "ddl:autocommit", "ddl:transactional", "ddl:autocommit"])
          } else {
            expect(verbs).toEqual(["CREATE", "DROP", "CREATE", "RENAME", "RENAME", "DROP"])
          }
        }), { features: { ingestDdl: kind } }))
  }
})

describe("port: isUsable", () => {
  it.effect("Connection.isUsable answers the driver's hook", () =>
    withMemory((server) =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        expect(yield* conn.isUsable).toBe(true)
        server.usable = false
        expect(yield* conn.isUsable).toBe(false)
      })))
})

describe("port: OUT parameters", () => {
  it.effect("a call without a result set returns one row of OUT values (IN parameters are not columns)", () =>
    withMemory((server) =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const stmt = yield* conn.statement()
        yield* stmt.setSqlQuery("CALL")
        yield* stmt.bind(outBinding())
        const reader = yield* stmt.executeQuery
        expect(reader.schema.fields.map((f) => f.name)).toEqual(["b", "c"])
        const batches = yield* Stream.runCollect(reader.batches)
        expect(batches.reduce((n, b) => n + b.numRows, 0)).toBe(1)
        expect(column(batches, "b")).toEqual(["x"])
        expect(column(batches, "c")).toEqual([7])
      })))

  it.effect("with a result set, OUT values are appended as columns: the first row holds them, later rows NULL", () =>
    withMemory((server) =>
      Effect.gen(function*() {
        yield* seed(9)
        const conn = yield* Connection.Connection
        const stmt = yield* conn.statement({ "mem.read_batch_rows": "4" })
        yield* stmt.setSqlQuery("CALL MAIN.T")
        yield* stmt.bind(outBinding())
        const reader = yield* stmt.executeQuery
        expect(reader.schema.fields.map((f) => f.name)).toEqual(["id", "name", "b", "c"])
        const batches = yield* Stream.runCollect(reader.batches)
        expect(batches.length).toBeGreaterThan(1)
        expect(column(batches, "id")).toEqual(Array.from({ length: 9 }, (_, i) => i))
        expect(column(batches, "b")).toEqual(["x", ...Array.from({ length: 8 }, () => null)])
        expect(column(batches, "c")).toEqual([7, ...Array.from({ length: 8 }, () => null)])
      }), { mode: "hard" }))

  it.effect("with a result set and OUT values, the byte cap holds inside a page whose rows grow", () =>
    withMemory(() =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const texts = Array.from({ length: 200 }, (_, i) => (i < 150 ? "s" : "L".repeat(1_500)))
        yield* conn.ingest(
          fromTable(new Arrow.Table({
            id: Arrow.vectorFromArray(texts.map((_, i) => i), new Arrow.Int32()),
            name: Arrow.vectorFromArray(texts, new Arrow.Utf8())
          })),
          { targetTable: "V" }
        )
        const stmt = yield* conn.statement({ "mem.page_rows": "1000", "mem.read_batch_bytes": "2000" })
        yield* stmt.setSqlQuery("CALL MAIN.V")
        yield* stmt.bind(outBinding())
        const batches = yield* Stream.runCollect((yield* stmt.executeQuery).batches)
        for (const b of batches) {
          const bytes = b.data.children.reduce((n, d) => n + d.byteLength, 0)
          if (b.numRows > 1) expect(bytes, `${b.numRows} rows`).toBeLessThanOrEqual(2 * 2000)
        }
        expect(column(batches, "id")).toEqual(texts.map((_, i) => i))
        expect(column(batches, "name")).toEqual(texts)
        expect(column(batches, "b")).toEqual(["x", ...texts.slice(1).map(() => null)])
      }), { mode: "hard" }))

  it.effect("with an empty result set, the OUT values still come back in one row", () =>
    withMemory((server) =>
      Effect.gen(function*() {
        yield* seed(0)
        const conn = yield* Connection.Connection
        const stmt = yield* conn.statement()
        yield* stmt.setSqlQuery("CALL MAIN.T")
        yield* stmt.bind(outBinding())
        const batches = yield* Stream.runCollect((yield* stmt.executeQuery).batches)
        expect(column(batches, "id")).toEqual([null])
        expect(column(batches, "b")).toEqual(["x"])
      })))

  it.effect("executeUpdate with OUT parameters fails NOT_IMPLEMENTED naming the parameter, before any call", () =>
    withMemory((server) =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const stmt = yield* conn.statement()
        yield* stmt.setSqlQuery("CALL")
        yield* stmt.bind(outBinding())
        server.intents.length = 0
        const error = failure(yield* Effect.exit(stmt.executeUpdate))
        expect(error.status).toBe("NOT_IMPLEMENTED")
        expect(error.message).toContain("parameter 2 \"b\" is OUT")
        expect(error.message).toContain("executeQuery")
        expect(server.intents).toEqual([])
      })))

  it.effect("a driver without OUT-parameter support treats every bound field as IN", () =>
    withMemory((server) =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const stmt = yield* conn.statement()
        yield* stmt.setSqlQuery("UPDATE 1")
        yield* stmt.bind(outBinding())
        expect(yield* stmt.executeUpdate).toBe(1)
      }), { features: { outParameters: false } }))
})

describe("port: implicit result sets", () => {
  it.effect("the first result set is exposed; the others are closed unread when the reader is released", () =>
    withMemory((server) =>
      Effect.gen(function*() {
        yield* seed(3, "A")
        yield* seed(5, "B")
        const conn = yield* Connection.Connection
        const batches = yield* Stream.runCollect(conn.query("SELECT MANY MAIN.A, MAIN.B"))
        expect(column(batches, "id")).toEqual([0, 1, 2])
        expect(server.openCursors).toBe(0)
        // also when the reader is never read
        yield* Effect.scoped(conn.executeQuery("SELECT MANY MAIN.A, MAIN.B"))
        expect(server.openCursors).toBe(0)
        // and by executeUpdate
        expect(yield* conn.execute("SELECT MANY MAIN.A, MAIN.B")).toBe(-1)
        expect(server.openCursors).toBe(0)
      })))
})

describe("port: optional feature groups", () => {
  it.effect("present groups are used: catalog switch, read-only, isolation level, savepoints of ingest in a transaction", () =>
    withMemory((server) =>
      Effect.gen(function*() {
        yield* seed(0)
        const conn = yield* Connection.Connection
        yield* conn.setOption("adbc.connection.catalog", "other")
        expect(yield* conn.getOption("adbc.connection.catalog")).toBe("other")
        yield* conn.setOption("adbc.connection.readonly", "true")
        yield* conn.setOption("adbc.connection.transaction.isolation_level", "adbc.connection.transaction.isolation.serializable")
        expect(server.settings).toEqual(["readonly:true", "isolation:adbc.connection.transaction.isolation.serializable"])
        yield* conn.setOption("adbc.connection.autocommit", "false")
        yield* conn.ingest(fromTable(numbers(2)), { targetTable: "T", mode: "append" })
        server.failInsertBatch = 1
        server.insertBatches = 0
        failure(yield* Effect.exit(conn.ingest(fromTable(numbers(3)), { targetTable: "T", mode: "append" })))
        server.failInsertBatch = 0
        expect(server.savepoints).toEqual(["create:ADBC_INGEST", "create:ADBC_INGEST", "rollback:ADBC_INGEST"])
        yield* conn.commit
        // the failed ingest's savepoint rollback kept the first ingest's rows
        expect(server.tables.get("MAIN.T")!.rows).toHaveLength(2)
      })))

  it.effect("absent groups fail NOT_IMPLEMENTED naming the feature and the driver", () => {
    const none: MemoryFeatures = {
      describe: false,
      parameterSchema: false,
      savepoints: false,
      readOnly: false,
      isolationLevel: false,
      setCatalog: false,
      ingestTemporary: false,
      ingestCatalog: false
    }
    return withMemory((server) =>
      Effect.gen(function*() {
        yield* seed(1)
        const conn = yield* Connection.Connection
        const stmt = yield* conn.statement()
        yield* stmt.setSqlQuery("SELECT * FROM MAIN.T")
        const errors = [
          failure(yield* Effect.exit(stmt.getParameterSchema)),
          failure(yield* Effect.exit(stmt.executeSchema)),
          failure(yield* Effect.exit(stmt.prepare)),
          failure(yield* Effect.exit(conn.setOption("adbc.connection.readonly", "true"))),
          failure(yield* Effect.exit(conn.setOption("adbc.connection.transaction.isolation_level", "adbc.connection.transaction.isolation.serializable"))),
          failure(yield* Effect.exit(conn.setOption("adbc.connection.catalog", "x"))),
          failure(yield* Effect.exit(conn.ingest(fromTable(numbers(1)), { targetTable: "TMP", temporary: true }))),
          failure(yield* Effect.exit(conn.ingest(fromTable(numbers(1)), { targetTable: "C", targetCatalog: "mem" })))
        ]
        for (const error of errors) {
          expect(error.status).toBe("NOT_IMPLEMENTED")
          expect(error.message).toContain("the memory driver does not support")
        }
        expect(errors.map((e) => e.message).join("\n")).toMatch(/parameters[\s\S]*result schema[\s\S]*read-only[\s\S]*isolation[\s\S]*catalog[\s\S]*temporary[\s\S]*target_catalog/)
        // read-only false needs no support; the failed settings kept their previous values
        yield* conn.setOption("adbc.connection.readonly", "false")
        expect(yield* conn.getOption("adbc.connection.catalog")).toBe("mem")
        expect(server.tables.has("MAIN.C")).toBe(false)
        // without savepoints, a failed ingest inside a transaction rolls the transaction back
        yield* conn.setOption("adbc.connection.autocommit", "false")
        server.failInsertBatch = 1
        server.insertBatches = 0
        failure(yield* Effect.exit(conn.ingest(fromTable(numbers(3)), { targetTable: "T", mode: "append" })))
        expect(server.savepoints).toEqual([])
      }), { features: none })
  })
})

describe("port: validation", () => {
  it.effect("the driver's validate hook runs before any connection: a database without uri fails naming it", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      const noUri = yield* Effect.exit(Database.make({}).pipe(Effect.provideService(Driver, memoryDriver(server))))
      expect(failure(noUri).message).toContain("uri")
      expect(server.openConnections).toBe(0)
    })
  })
})

describe("port: services", () => {
  it.effect("Ingest from Connection.layerIngest and Reader.collect reach the same rows as the connection", () => {
    const server = new MemoryServer()
    return Effect.gen(function*() {
      const ingest = yield* Ingest.Ingest
      expect(yield* ingest.ingest(fromTable(numbers(6)), { targetTable: "S", targetDbSchema: "MAIN" })).toBe(6)
      const conn = yield* Connection.Connection
      const batches = yield* Reader.collect(yield* conn.executeQuery("SELECT * FROM MAIN.S"))
      expect(column(batches, "id")).toEqual([0, 1, 2, 3, 4, 5])
      yield* conn.setOption("adbc.connection.db_schema", "OTHER")
      expect(yield* conn.getOption("adbc.connection.db_schema")).toBe("OTHER")
    }).pipe(Effect.scoped, Effect.provide(Connection.layerIngest.pipe(Layer.provideMerge(setup(server)))))
  })
})
