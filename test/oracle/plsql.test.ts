import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Duration, Effect, Fiber, Result, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import type { DriverConnection } from "../../src/Driver.ts"
import { OptionRegistry, OptionStore, ResolvedOptions } from "../../src/Options.ts"
import { StandardOptions } from "../../src/StandardOptions.ts"
import { BatchAssembler } from "../../src/arrow/index.ts"
import { OracleDriver } from "../../layers/oracle/index.ts"
import { uniqueName, useServer, withConnection } from "./support.ts"

const server = useServer()

const batchOf = (fields: ReadonlyArray<Arrow.Field>, vectors: ReadonlyArray<Arrow.Vector>) =>
  new Arrow.RecordBatch(new Arrow.Schema([...fields]), Arrow.makeData({
    type: new Arrow.Struct([...fields]),
    length: vectors[0]!.length,
    nullCount: 0,
    children: vectors.map((v) => v.data[0]!)
  }))

const block = (table: string) => `DECLARE c1 SYS_REFCURSOR; c2 SYS_REFCURSOR; BEGIN
  OPEN c1 FOR SELECT ID FROM ${table} ORDER BY ID; DBMS_SQL.RETURN_RESULT(c1);
  OPEN c2 FOR SELECT COUNT(*) AS N FROM ${table}; DBMS_SQL.RETURN_RESULT(c2);
END;`

describe("PL/SQL", () => {
  it.effect("implicit result sets: batch mode reads the first cursor; row mode is NOT_IMPLEMENTED", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("IMPL")
      yield* conn.execute(`CREATE TABLE ${t} (ID NUMBER(10))`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1)`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (2)`)
      const batches = yield* Stream.runCollect(conn.query(block(t), { "redo.statement.execution_mode": "batch" }))
      const table = new Arrow.Table(batches)
      expect(table.schema.fields.map((f) => f.name)).toEqual(["ID"])
      expect(table.toArray().map((r) => r.toJSON()["ID"])).toEqual([1n, 2n])
      const rowMode = yield* Effect.flip(Stream.runCollect(conn.query(block(t))))
      expect(rowMode.status).toBe("NOT_IMPLEMENTED")
      expect(rowMode.message).toContain("redo.statement.execution_mode=batch")
    })))

  it.effect("runs control flow and exception handlers as a statement: drop-if-exists, a loop building rows, RAISE_APPLICATION_ERROR", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("LOOPS")
      const dropIfExists = `BEGIN EXECUTE IMMEDIATE 'DROP TABLE ${t}'; EXCEPTION WHEN OTHERS THEN IF SQLCODE <> -942 THEN RAISE; END IF; END;`
      // the table does not exist yet: the handler passes over ORA-00942
      yield* conn.execute(dropIfExists)
      yield* conn.execute(`CREATE TABLE ${t} (N NUMBER(10), SQ NUMBER(10))`)
      yield* conn.execute(`BEGIN FOR i IN 1..5 LOOP INSERT INTO ${t} VALUES (i, i * i); END LOOP; END;`)
      const rows = yield* conn.queryTable(`SELECT SUM(SQ) AS TOTAL, COUNT(*) AS N FROM ${t}`)
      expect(rows.get(0)!.toJSON()).toEqual({ TOTAL: 55, N: 5 })
      const raised = yield* Effect.flip(conn.execute(`DECLARE n NUMBER; BEGIN SELECT COUNT(*) INTO n FROM ${t}; IF n > 3 THEN RAISE_APPLICATION_ERROR(-20007, 'too many: ' || n); END IF; END;`))
      expect(raised.vendorCode).toBe(20007)
      expect(raised.message).toContain("ORA-20007: too many: 5")
      yield* conn.execute(dropIfExists)
      const gone = yield* Effect.flip(conn.execute(`SELECT * FROM ${t}`))
      expect(gone.vendorCode).toBe(942)
    })))

  it.effect("OUT and IN OUT parameters declared by ORACLE:parameter_type come back as columns of the first row", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const stmt = yield* conn.statement()
      // Positional binds follow the placeholders' first appearance in the text.
      yield* stmt.setSqlQuery("DECLARE v NUMBER := :1; BEGIN :2 := v * 2; :3 := :3 + 1; END;")
      const fields = [
        new Arrow.Field("x", new Arrow.Int32()),
        new Arrow.Field("doubled", new Arrow.Int32(), true, new Map([["ORACLE:parameter_type", "out"]])),
        new Arrow.Field("counter", new Arrow.Int32(), true, new Map([["ORACLE:parameter_type", "inout"]]))
      ]
      yield* stmt.bind(batchOf(fields, [
        Arrow.vectorFromArray([21], new Arrow.Int32()),
        Arrow.vectorFromArray([null], new Arrow.Int32()),
        Arrow.vectorFromArray([41], new Arrow.Int32())
      ]))
      const batches = yield* Effect.scoped(Effect.flatMap(stmt.executeQuery, (r) => Stream.runCollect(r.batches)))
      const table = new Arrow.Table(batches)
      expect(table.schema.fields.map((f) => f.name)).toEqual(["doubled", "counter"])
      expect(table.toArray().map((r) => r.toJSON())).toEqual([{ doubled: 42, counter: 42 }])
      const update = yield* Effect.flip(stmt.executeUpdate)
      expect(update.status).toBe("NOT_IMPLEMENTED")
      expect(update.message).toContain("parameter 2 \"doubled\" is OUT")
      expect(update.message).toContain("executeQuery")
      const bad = yield* Effect.flip(stmt.bind(batchOf([new Arrow.Field("y", new Arrow.Int32(), true, new Map([["ORACLE:parameter_type", "sideways"]]))], [
        Arrow.vectorFromArray([1], new Arrow.Int32())
      ])).pipe(Effect.andThen(Effect.scoped(stmt.executeQuery))))
      expect(bad.status).toBe("INVALID_ARGUMENT")
      expect(bad.message).toContain("in, out or inout")
    })))
})

/** The driver port itself, through the real client (the core's own cancel path is in the last test). */
const driverConnection = (uri: string) =>
  Effect.gen(function*() {
    const store = OptionStore.make(new OptionRegistry([...StandardOptions, ...OracleDriver.options]), "database", { uri })
    if (Result.isFailure(store)) return yield* store.failure
    return yield* OracleDriver.connect(new ResolvedOptions([store.success]))
  })

describe("PL/SQL through the driver port", () => {
  it.live("implicit result sets beyond the first come back as port v2's `more`; OUT values as `out`", () =>
    Effect.scoped(Effect.gen(function*() {
      const connection = yield* driverConnection(server.uri)
      const t = uniqueName("MORE")
      const none = new ResolvedOptions([])
      yield* connection.execute({ sql: `CREATE TABLE ${t} (ID NUMBER(10))`, parameters: undefined, options: none, intent: "update" })
      yield* connection.execute({ sql: `INSERT INTO ${t} VALUES (7)`, parameters: undefined, options: none, intent: "update" })
      const store = OptionStore.make(new OptionRegistry([...StandardOptions, ...OracleDriver.options]), "statement", {
        "redo.statement.execution_mode": "batch"
      })
      if (Result.isFailure(store)) return yield* store.failure
      const batch = new ResolvedOptions([store.success])
      const result = yield* connection.execute({ sql: block(t), parameters: undefined, options: batch, intent: "query" })
      if (result._tag !== "Rows") throw new Error("expected rows")
      expect(result.cursor.schema.fields.map((f) => f.name)).toEqual(["ID"])
      expect(result.more?.map((c) => c.schema.fields.map((f) => f.name))).toEqual([["N"]])
      const readAll = (cursor: NonNullable<typeof result.more>[number]) =>
        Effect.gen(function*() {
          const page = yield* cursor.nextPage
          const assembler = new BatchAssembler(cursor.schema, { maxRows: 100, mode: "hard" })
          if (page !== undefined) assembler.push(page)
          return assembler.flush()?.toArray().map((r) => r.toJSON())
        })
      expect(yield* readAll(result.more![0]!)).toEqual([{ N: 1 }])
      expect(yield* readAll(result.cursor)).toEqual([{ ID: 7n }])
      yield* result.cursor.close
      yield* result.more![0]!.close

      const fields = [
        new Arrow.Field("x", new Arrow.Int32()),
        new Arrow.Field("when", new Arrow.Timestamp(Arrow.TimeUnit.NANOSECOND), true, new Map([["ORACLE:parameter_type", "out"]]))
      ]
      const params = batchOf(fields, [Arrow.vectorFromArray([5], new Arrow.Int32()), Arrow.vectorFromArray([null], fields[1]!.type)])
      const outs = yield* connection.execute({
        sql: "DECLARE v NUMBER := :1; BEGIN :2 := TIMESTAMP '2024-02-29 12:34:56.123456789'; END;",
        parameters: { schema: params.schema, batches: [params] },
        options: none,
        intent: "query"
      })
      expect(outs._tag).toBe("Count")
      expect(outs.out?.schema.fields.map((f) => f.name)).toEqual(["when"])
      expect(outs.out?.values).toEqual(["2024-02-29 12:34:56.123456789"])
    })))
})

const fill = (connection: DriverConnection, table: string) =>
  Effect.gen(function*() {
    const options = new ResolvedOptions([])
    yield* connection.execute({ sql: `CREATE TABLE ${table} (N NUMBER(10))`, parameters: undefined, options, intent: "update" })
    const rows = new Arrow.Table({ n: Arrow.vectorFromArray(Array.from({ length: 3000 }, (_, i) => i), new Arrow.Int32()) })
    yield* connection.execute({ sql: `INSERT INTO ${table} VALUES (:1)`, parameters: { schema: rows.schema, batches: rows.batches }, options, intent: "update" })
  })

describe("cancellation", () => {
  it.live("interrupting the fiber breaks the running query on the server; the connection stays usable", () =>
    Effect.scoped(Effect.gen(function*() {
      const connection = yield* driverConnection(server.uri)
      const t = uniqueName("BIG")
      yield* fill(connection, t)
      const started = Date.now()
      const fiber = yield* Effect.forkChild(
        Effect.scoped(connection.execute({ sql: `SELECT COUNT(*) FROM ${t} a, ${t} b, ${t} c WHERE a.N + b.N + c.N < 0`, parameters: undefined, options: new ResolvedOptions([]), intent: "query" }))
      )
      yield* Effect.sleep(Duration.millis(300))
      yield* Fiber.interrupt(fiber)
      expect(Date.now() - started).toBeLessThan(15_000)
      const result = yield* Effect.scoped(Effect.flatMap(
        connection.execute({ sql: `SELECT COUNT(*) AS C FROM ${t}`, parameters: undefined, options: new ResolvedOptions([]), intent: "query" }),
        (r) => r._tag === "Rows" ? r.cursor.nextPage : Effect.succeed(undefined)
      ))
      expect(result).toBeDefined()
    })))

  it.live("cancel breaks a running query on the server: it fails with ORA-01013 as CANCELLED", () =>
    Effect.scoped(Effect.gen(function*() {
      const connection = yield* driverConnection(server.uri)
      const t = uniqueName("BRK")
      yield* fill(connection, t)
      const fiber = yield* Effect.forkChild(
        Effect.scoped(connection.execute({ sql: `SELECT COUNT(*) FROM ${t} a, ${t} b, ${t} c WHERE a.N + b.N + c.N < 0`, parameters: undefined, options: new ResolvedOptions([]), intent: "query" }))
      )
      yield* Effect.sleep(Duration.millis(300))
      yield* connection.cancel
      const error = yield* Effect.flip(Fiber.join(fiber))
      expect(error.status).toBe("CANCELLED")
      expect(error.vendorCode).toBe(1013)
      expect(error.message).toContain("ORA-01013")
      expect((yield* Effect.flip(connection.cancel)).status).toBe("INVALID_STATE")
    })))

  it.live("through the core: interrupting a reader's stream cancels the query and the connection stays usable", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("CORE")
      yield* conn.execute(`CREATE TABLE ${t} (N NUMBER(10))`)
      const stmt = yield* conn.statement()
      yield* stmt.setSqlQuery(`INSERT INTO ${t} VALUES (:1)`)
      yield* stmt.bind(new Arrow.Table({ n: Arrow.vectorFromArray(Array.from({ length: 3000 }, (_, i) => i), new Arrow.Int32()) }).batches[0]!)
      yield* stmt.executeUpdate
      const started = Date.now()
      const fiber = yield* Effect.forkChild(Stream.runCollect(conn.query(`SELECT COUNT(*) FROM ${t} a, ${t} b, ${t} c WHERE a.N + b.N + c.N < 0`)))
      yield* Effect.sleep(Duration.millis(300))
      yield* Fiber.interrupt(fiber)
      expect(Date.now() - started).toBeLessThan(15_000)
      const after = new Arrow.Table(yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS C FROM ${t}`)))
      expect(Number(after.getChild("C")!.get(0))).toBe(3000)
    })))
})
