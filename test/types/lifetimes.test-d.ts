/**
 * Lifetimes the type system enforces. Checked by `npm run typecheck` and by vitest's typecheck (`npx vitest run`):
 * every `@ts-expect-error` below must be an error, or the check fails.
 */
import type * as Arrow from "apache-arrow"
import { Effect, type Scope, Stream } from "effect"
import { describe, expectTypeOf, it } from "vitest"
import type { AdbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import type * as Database from "../../src/Database.ts"
import type * as Reader from "../../src/Reader.ts"
import type * as Statement from "../../src/Statement.ts"

declare const connection: Connection.ConnectionShape
declare const statement: Statement.StatementShape
declare const reader: Reader.ReaderShape

describe("streams are the main API", () => {
  it("query is a Stream needing only a Connection: the cursor's lifetime is the stream's run", () => {
    expectTypeOf(Connection.query("SELECT 1")).toEqualTypeOf<
      Stream.Stream<Arrow.RecordBatch, AdbcError, Connection.Connection>
    >()
    expectTypeOf(connection.query("SELECT 1")).toEqualTypeOf<Stream.Stream<Arrow.RecordBatch, AdbcError>>()
  })

  it("a reader's batches need nothing more: they are read inside the scope that opened the reader", () => {
    expectTypeOf(reader.batches).toEqualTypeOf<Stream.Stream<Arrow.RecordBatch, AdbcError>>()
    expectTypeOf(reader.schema).toEqualTypeOf<Arrow.Schema>()
  })
})

describe("a reader needs a Scope", () => {
  it("executeQuery requires Scope (and the accessor a Connection too)", () => {
    expectTypeOf(connection.executeQuery("SELECT 1")).toEqualTypeOf<
      Effect.Effect<Reader.ReaderShape, AdbcError, Scope.Scope>
    >()
    expectTypeOf(statement.executeQuery).toEqualTypeOf<Effect.Effect<Reader.ReaderShape, AdbcError, Scope.Scope>>()
    expectTypeOf(Connection.executeQuery("SELECT 1")).toEqualTypeOf<
      Effect.Effect<Reader.ReaderShape, AdbcError, Connection.Connection | Scope.Scope>
    >()
  })

  it("running a reader without a Scope does not compile", () => {
    const misuse = () => {
      // @ts-expect-error a reader opened outside any Scope: Scope is missing from the context
      Effect.runPromise(connection.executeQuery("SELECT 1"))
      // @ts-expect-error the same for a statement's reader
      Effect.runPromise(statement.executeQuery)
    }
    const fine = () => Effect.runPromise(Effect.scoped(connection.executeQuery("SELECT 1")))
    expectTypeOf(misuse).toBeFunction()
    expectTypeOf(fine).returns.toEqualTypeOf<Promise<Reader.ReaderShape>>()
  })
})

describe("a statement needs a Connection in context", () => {
  it("the accessors require Connection", () => {
    expectTypeOf(Connection.execute("UPDATE T SET A = 1")).toEqualTypeOf<
      Effect.Effect<number, AdbcError, Connection.Connection>
    >()
    expectTypeOf(Connection.statement()).toEqualTypeOf<
      Effect.Effect<Statement.StatementShape, AdbcError, Connection.Connection>
    >()
  })

  it("running a statement without a Connection does not compile", () => {
    const misuse = () => {
      // @ts-expect-error no Connection in context
      Effect.runPromise(Connection.execute("UPDATE T SET A = 1"))
      // @ts-expect-error no Connection in context
      Effect.runPromise(Connection.statement())
      // @ts-expect-error no Connection in context
      Effect.runPromise(Stream.runCollect(Connection.query("SELECT 1")))
      // @ts-expect-error no Connection (and no Scope) in context
      Effect.runPromise(Effect.scoped(Connection.executeQuery("SELECT 1")))
    }
    expectTypeOf(misuse).toBeFunction()
  })
})

describe("a connection lives in a Scope", () => {
  it("opening a connection requires a Scope, and its layer a Database", () => {
    const misuse = (database: Database.Database["Service"]) => {
      // @ts-expect-error a connection opened outside any Scope: nothing would close it
      Effect.runPromise(Connection.make(database))
      // @ts-expect-error the connection layer without a Database below it
      Effect.runPromise(Effect.provide(Stream.runCollect(Connection.query("SELECT 1")), Connection.layer()))
    }
    const fine = (database: Database.Database["Service"]) =>
      Effect.runPromise(Effect.scoped(Effect.flatMap(Connection.make(database), (conn) => Stream.runCollect(conn.query("SELECT 1")))))
    expectTypeOf(misuse).toBeFunction()
    expectTypeOf(fine).returns.toEqualTypeOf<Promise<Array<Arrow.RecordBatch>>>()
  })
})
