/** ADBC rules of statements: errors carry status, vendor code and SQLSTATE; bound parameters; parameter schema. */
import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Stream } from "effect"
import * as Connection from "../../../src/Connection.ts"
import { type ConformanceDriver, type ConformanceEnv, type ExpectedError, failure } from "../harness.ts"
import type { AdbcError } from "../../../src/AdbcError.ts"

const expectError = (error: AdbcError, expected: ExpectedError) => {
  expect(error.status).toBe(expected.status)
  if (expected.vendorCode !== undefined) expect(error.vendorCode).toBe(expected.vendorCode)
  if (expected.sqlState !== undefined) expect(error.sqlState).toBe(expected.sqlState)
}

export const statementRules = (driver: ConformanceDriver, env: () => ConformanceEnv) =>
  describe(`${driver.name}: statements`, () => {
    it.effect("a failing statement's error keeps status, vendor code and SQLSTATE, from execute and from query", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        expectError(failure(yield* Effect.exit(conn.execute(driver.sql.failing.sql))), driver.sql.failing.error)
        expectError(
          failure(yield* Effect.exit(Stream.runCollect(conn.query(driver.sql.missingTable.sql)))),
          driver.sql.missingTable.error
        )
        // the session survives a failed statement
        expect(failure(yield* Effect.exit(conn.execute(driver.sql.failing.sql))).status).toBe(driver.sql.failing.error.status)
      }).pipe(Effect.provide(env().layer())))

    it.effect("bound parameter rows reach the query in order", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const stmt = yield* conn.statement()
        yield* stmt.setSqlQuery(driver.sql.selectParameters(2))
        yield* stmt.bind(
          new Arrow.Table({
            a: Arrow.vectorFromArray([1, 2, 3], new Arrow.Int32()),
            b: Arrow.vectorFromArray(["x", "y", "z"], new Arrow.Utf8())
          })
        )
        const reader = yield* stmt.executeQuery
        const batches = yield* Stream.runCollect(reader.batches)
        const rows = batches.flatMap((b) =>
          Array.from({ length: b.numRows }, (_, r) => [Number(b.getChildAt(0)!.get(r)), String(b.getChildAt(1)!.get(r))])
        )
        expect(rows).toEqual([[1, "x"], [2, "y"], [3, "z"]])
      }).pipe(Effect.scoped, Effect.provide(env().layer())))

    it.effect("a statement without SQL fails INVALID_STATE", () =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const stmt = yield* conn.statement()
        expect(failure(yield* Effect.exit(stmt.executeUpdate)).status).toBe("INVALID_STATE")
      }).pipe(Effect.provide(env().layer())))

    it.effect(
      driver.capabilities.parameterSchema
        ? "the parameter schema has one field per placeholder"
        : "the parameter schema fails NOT_IMPLEMENTED naming the driver",
      () =>
        Effect.gen(function*() {
          const conn = yield* Connection.Connection
          const stmt = yield* conn.statement()
          yield* stmt.setSqlQuery(driver.sql.selectParameters(2))
          const exit = yield* Effect.exit(stmt.getParameterSchema)
          if (driver.capabilities.parameterSchema) {
            expect(exit._tag).toBe("Success")
            if (exit._tag === "Success") expect(exit.value.fields).toHaveLength(2)
          } else {
            const error = failure(exit)
            expect(error.status).toBe("NOT_IMPLEMENTED")
            expect(error.message).toContain(driver.name)
          }
        }).pipe(Effect.provide(env().layer()))
    )
  })
