/**
 * Frictions a first-day user hits: what String(error) shows, a misspelt option key, a missing HANA_URI, an empty
 * result collected into a Table, (the test servers' release: testkit-release.test.ts).
 */
import * as Arrow from "apache-arrow"
import { Cause, ConfigProvider, Effect, Exit, Layer } from "effect"
import { describe, expect, it } from "vitest"
import * as Hana from "../../layers/hana/index.ts"
import { adbcError, type AdbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import * as Database from "../../src/Database.ts"
import { Driver } from "../../src/Driver.ts"
import { fromTable } from "../../src/Ingest.ts"
import * as Reader from "../../src/Reader.ts"
import { startHanaTestServer } from "../../testkit/hana/index.ts"
import { memoryDriver, MemoryServer } from "../support/MemoryDriver.ts"

const failure = <A>(exit: Exit.Exit<A, unknown>): AdbcError => {
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const error = exit.cause.reasons.find((reason) => reason._tag === "Fail")
  if (error === undefined || error._tag !== "Fail") throw new Error(`expected a typed failure: ${String(exit.cause)}`)
  return error.error as AdbcError
}

describe("first-day frictions", () => {
  it("String(error), error.message and Cause.pretty show the ADBC status, the vendor code and the SQLSTATE", async () => {
    const error = adbcError("NOT_FOUND", "invalid column name: NOPE", { vendorCode: 260, sqlState: "HY000" })
    expect(String(error)).toBe("AdbcError [NOT_FOUND]: invalid column name: NOPE (vendor code 260, SQLSTATE HY000)")
    expect(error.message).toBe("invalid column name: NOPE [NOT_FOUND, vendor code 260, SQLSTATE HY000]")
    expect(error.text).toBe("invalid column name: NOPE")
    const exit = await Effect.runPromiseExit(Effect.fail(error))
    expect(Exit.isFailure(exit) && Cause.pretty(exit.cause).split("\n")[0]).toBe(
      "effect-adbc/AdbcError: invalid column name: NOPE [NOT_FOUND, vendor code 260, SQLSTATE HY000]"
    )
    expect(String(adbcError("TIMEOUT", "connecting timed out"))).toBe("AdbcError [TIMEOUT]: connecting timed out")
    expect(adbcError("TIMEOUT", "connecting timed out").message).toBe("connecting timed out [TIMEOUT]")
    // re-wrapping (fromUnknown, a decoded error) does not repeat the suffix
    expect(adbcError(error.status, error.message, error).message).toBe(error.message)
  })

  it("an unknown option key names the closest known key", () => {
    const registry = Database.registryFor(Hana.HanaDriver)
    const misspelt = registry.validate("statement", "dba.statement.fetchsize", "10")
    expect(misspelt._tag === "Failure" && misspelt.failure.text).toBe(
      "unknown option dba.statement.fetchsize; did you mean dba.statement.fetch_size?"
    )
    const bare = registry.validate("connection", "autocommit", "true")
    expect(bare._tag === "Failure" && bare.failure.text).toBe(
      "unknown option autocommit; did you mean adbc.connection.autocommit?"
    )
    const unrelated = registry.validate("database", "color", "blue")
    expect(unrelated._tag === "Failure" && unrelated.failure.text).toBe("unknown option color")
  })

  it("a missing uri from layerDatabaseConfig names the environment variable it read", async () => {
    const exit = await Effect.runPromiseExit(
      Effect.scoped(Layer.build(Hana.layerDatabaseConfig("MYAPP_HANA_"))).pipe(
        Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: {} })))
      )
    )
    const error = failure(exit)
    expect(error.status).toBe("INVALID_ARGUMENT")
    expect(error.message).toContain("the environment variable MYAPP_HANA_URI is not set")
  })

  it("Connection.queryTable keeps the schema of a result without rows (memory driver)", async () => {
    const server = new MemoryServer()
    const empty = new Arrow.Table({
      ID: Arrow.vectorFromArray([] as Array<number>, new Arrow.Int32()),
      NAME: Arrow.vectorFromArray([] as Array<string>, new Arrow.Utf8())
    })
    const [none, some] = await Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.ingest(fromTable(empty), { targetTable: "EMPTY_T" })
      const none = yield* Connection.queryTable("SELECT * FROM MAIN.EMPTY_T")
      yield* conn.ingest(fromTable(new Arrow.Table({
        ID: Arrow.vectorFromArray([7], new Arrow.Int32()),
        NAME: Arrow.vectorFromArray(["seven"], new Arrow.Utf8())
      })), { targetTable: "EMPTY_T", mode: "append" })
      return [none, yield* conn.queryTable("SELECT * FROM MAIN.EMPTY_T")] as const
    }).pipe(
      Effect.provide(Connection.layer().pipe(
        Layer.provideMerge(Database.layer({ uri: "mem://local" })),
        Layer.provide(Layer.succeed(Driver, memoryDriver(server)))
      )),
      Effect.runPromise
    )
    expect(none.numRows).toBe(0)
    expect(none.schema.fields.map((field) => `${field.name}: ${field.type}`)).toEqual(["ID: Int32", "NAME: Utf8"])
    expect(some.numRows).toBe(1)
    expect(some.toArray().map((row) => row.toJSON())).toEqual([{ ID: 7, NAME: "seven" }])
  })

  it("Connection.queryTable and Reader.toTable keep the schema of a result without rows (HANA)", async () => {
    const server = await startHanaTestServer({})
    try {
      const table = await Effect.gen(function*() {
        const conn = yield* Connection.Connection
        yield* conn.execute(`CREATE TABLE "EMPTY_T" ("ID" INTEGER, "NAME" NVARCHAR(10))`)
        const viaReader = yield* Effect.scoped(Effect.flatMap(conn.executeQuery(`SELECT * FROM "EMPTY_T"`), Reader.toTable))
        expect(viaReader.schema.fields.map((field) => `${field.name}: ${field.type}`)).toEqual(["ID: Int32", "NAME: Utf8"])
        return yield* Connection.queryTable(`SELECT * FROM "EMPTY_T"`)
      }).pipe(
        Effect.provide(Connection.layer().pipe(Layer.provide(Hana.layerDatabase({ uri: server.uri })))),
        Effect.runPromise
      )
      expect(table.numRows).toBe(0)
      expect(table.schema.fields.map((field) => `${field.name}: ${field.type}`)).toEqual(["ID: Int32", "NAME: Utf8"])
    } finally {
      await server.close()
    }
  })
})
