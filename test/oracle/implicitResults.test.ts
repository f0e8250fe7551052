import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Exit, Fiber, Result, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import type { DriverCursor } from "../../src/Driver.ts"
import { OptionRegistry, OptionStore, ResolvedOptions } from "../../src/Options.ts"
import { StandardOptions } from "../../src/StandardOptions.ts"
import { BatchAssembler } from "../../src/arrow/index.ts"
import { OracleDriver } from "../../layers/oracle/index.ts"
import { realOracle, uniqueName, useServer, withConnection } from "./support.ts"

// A PL/SQL block bound to several parameter rows runs once per row; the k-th implicit result set of every run
// (DBMS_SQL.RETURN_RESULT), in row order, makes the k-th result: the first the statement's result, the others the
// driver port's `more`, as for one run. oracledb's executeMany returns no implicit results, so a block sent through
// it would lose them without an error.
const server = useServer()

/** A statement of `sql` with statement `options`, bound to `params`. */
const boundStatement = (sql: string, params: Arrow.Table, options: Record<string, string>) =>
  Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const stmt = yield* conn.statement()
    yield* stmt.setSqlQuery(sql)
    for (const [key, value] of Object.entries(options)) yield* stmt.setOption(key, value)
    yield* stmt.bind(params)
    return stmt
  })

/** Runs `sql` bound to `params` in execution `mode` and reads the whole result. */
const runBound = (sql: string, params: Arrow.Table, mode: "batch" | "row" = "batch") =>
  Effect.flatMap(boundStatement(sql, params, { "redo.statement.execution_mode": mode }), (stmt) =>
    Effect.scoped(Effect.flatMap(stmt.executeQuery, (reader) =>
      Effect.map(Stream.runCollect(reader.batches), (batches) => new Arrow.Table(reader.schema, batches)))))

const ids = (values: ReadonlyArray<number>) => new Arrow.Table({ id: Arrow.vectorFromArray([...values], new Arrow.Int32()) })

/** Each run logs its parameter and returns two cursors: (K, X) rows for the parameter, then a count. */
const logAndReturn = (log: string) => `DECLARE c1 SYS_REFCURSOR; c2 SYS_REFCURSOR; v NUMBER := :1; BEGIN
  INSERT INTO ${log} VALUES (v);
  OPEN c1 FOR SELECT K, K * 10 AS X FROM ${log} WHERE K >= v ORDER BY K; DBMS_SQL.RETURN_RESULT(c1);
  OPEN c2 FOR SELECT COUNT(*) AS N FROM ${log}; DBMS_SQL.RETURN_RESULT(c2);
END;`

/** Creates a table of numbers (K, the primary key) for a test's blocks to log to. */
const logTable = (prefix: string) =>
  Effect.gen(function*() {
    const conn = yield* Connection.Connection
    const log = uniqueName(prefix)
    yield* conn.execute(`CREATE TABLE ${log} (K NUMBER(10) PRIMARY KEY)`)
    return log
  })

const rowsOf = (table: Arrow.Table) => table.toArray().map((r) => r.toJSON() as Record<string, unknown>)

/** Rows of `table`'s column K, in order. */
const keysIn = (table: string) =>
  Effect.map(Connection.query(`SELECT K FROM ${table} ORDER BY K`).pipe(Stream.runCollect), (batches) =>
    rowsOf(new Arrow.Table(batches)).map((r) => Number(r["K"])))

/** Driver-port options of `scope` ("database", "statement") from `values`. */
const portOptions = (scope: "database" | "statement", values: Record<string, string>) =>
  Effect.gen(function*() {
    const store = OptionStore.make(new OptionRegistry([...StandardOptions, ...OracleDriver.options]), scope, values)
    if (Result.isFailure(store)) return yield* store.failure
    return new ResolvedOptions([store.success])
  })

/** Every row `cursor` gives, as JSON objects. */
const readAll = (cursor: DriverCursor) =>
  Effect.gen(function*() {
    const assembler = new BatchAssembler(cursor.schema, { maxRows: 1000, mode: "hard" })
    for (let page = yield* cursor.nextPage; page !== undefined; page = yield* cursor.nextPage) assembler.push(page)
    return (assembler.flush()?.toArray() ?? []).map((r) => r.toJSON() as Record<string, unknown>)
  })

/**
 * Through the driver port: a fresh log table, then `logAndReturn` over it run in batch mode with one parameter row per
 * key; the Rows result (its `cursor` and `more`).
 */
const portRows = (logPrefix: string, keys: ReadonlyArray<number>) =>
  Effect.gen(function*() {
    const connection = yield* OracleDriver.connect(yield* portOptions("database", { uri: server.uri }))
    const log = uniqueName(logPrefix)
    yield* connection.execute({ sql: `CREATE TABLE ${log} (K NUMBER(10) PRIMARY KEY)`, parameters: undefined, options: new ResolvedOptions([]), intent: "update" })
    const params = ids(keys).batches[0]!
    const result = yield* connection.execute({
      sql: logAndReturn(log),
      parameters: { schema: params.schema, batches: [params] },
      options: yield* portOptions("statement", { "redo.statement.execution_mode": "batch" }),
      intent: "query"
    })
    if (result._tag !== "Rows") throw new Error("expected rows")
    return result
  })

describe("implicit result sets with several parameter rows", () => {
  it.live("through the driver port: the k-th result set of every run, in row order, makes the k-th result (`cursor`, then `more`)", () =>
    Effect.scoped(Effect.gen(function*() {
      const result = yield* portRows("IMPMORE", [30, 10, 20])
      expect(result.more?.map((c) => c.schema.fields.map((f) => f.name))).toEqual([["N"]])
      // every run's second cursor: the log's size after each run
      expect((yield* readAll(result.more![0]!)).map((r) => Number(r["N"]))).toEqual([1, 2, 3])
      expect((yield* readAll(result.cursor)).map((r) => [Number(r["K"]), Number(r["X"])])).toEqual([[30, 300], [10, 100], [30, 300], [20, 200], [30, 300]])
      yield* result.cursor.close
      yield* result.more![0]!.close
      if (!realOracle) expect(server.server!.openResultSets()).toBe(0)
    })))

  it.live.skipIf(realOracle)("through the driver port: a `more` cursor closed unread closes every run's result set of it", () =>
    Effect.scoped(Effect.gen(function*() {
      const result = yield* portRows("IMPMORECL", [1, 2, 3])
      yield* result.more![0]!.close
      // the three runs' first cursors stay open for `cursor`, the second ones are closed
      expect(server.server!.openResultSets()).toBe(3)
      expect((yield* readAll(result.cursor)).length).toBe(3)
      yield* result.cursor.close
      expect(server.server!.openResultSets()).toBe(0)
    })))

  it.effect("runs returning different numbers of result sets fail INVALID_DATA naming the rows, before anything is read", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const log = yield* logTable("IMPCOUNT")
      // parameter 2 returns a third cursor
      const sql = logAndReturn(log).replace("END;", "IF v = 2 THEN OPEN c2 FOR SELECT 1 AS Z FROM DUAL; DBMS_SQL.RETURN_RESULT(c2); END IF;\nEND;")
      const error = yield* Effect.flip(runBound(sql, ids([1, 2, 3])))
      expect(error.status).toBe("INVALID_DATA")
      expect(error.message).toContain("parameter row 2 of the PL/SQL block returned 3 implicit result sets, parameter row 1 returned 2")
      expect(yield* keysIn(log)).toEqual([])
      if (!realOracle) expect(server.server!.openResultSets()).toBe(0)
    })))

  it.effect("3 parameter rows, each returning cursors: the first cursor of every run, in row order, one schema", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const log = yield* logTable("IMPLOG")
      const table = yield* runBound(logAndReturn(log), ids([30, 10, 20]))
      expect(table.schema.fields.map((f) => f.name)).toEqual(["K", "X"])
      // run 1 sees 30; run 2 sees 10 and 30; run 3 sees 20 and 30
      expect(rowsOf(table).map((r) => [Number(r["K"]), Number(r["X"])])).toEqual([[30, 300], [10, 100], [30, 300], [20, 200], [30, 300]])
      expect(yield* keysIn(log)).toEqual([10, 20, 30])
      if (!realOracle) expect(server.server!.openResultSets()).toBe(0)
    })))

  it.effect.skipIf(realOracle)("a reader released after its first batch leaves none of the runs' result sets open", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const log = yield* logTable("IMPTAKE")
      const stmt = yield* boundStatement(logAndReturn(log), ids([30, 10, 20]), {
        "redo.statement.execution_mode": "batch",
        "redo.statement.read_batch_rows": "1"
      })
      const first = yield* Effect.scoped(Effect.flatMap(stmt.executeQuery, (reader) => Stream.runCollect(Stream.take(reader.batches, 1))))
      expect(first.map((b) => b.numRows)).toEqual([1])
      expect(server.server!.openResultSets()).toBe(0)
      // every run happened (and was committed) before the first row was returned
      expect(yield* keysIn(log)).toEqual([10, 20, 30])
    })))

  it.effect("an error in row 2 fails the statement with the database's error; nothing is returned and row 1 is undone", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const log = yield* logTable("IMPERR")
      yield* Connection.execute(`INSERT INTO ${log} VALUES (5)`)
      const error = yield* Effect.flip(runBound(logAndReturn(log), ids([1, 5, 7])))
      expect(error.vendorCode).toBe(1)
      expect(error.message).toContain("ORA-00001")
      expect(error.message).toContain("parameter row 2")
      expect(yield* keysIn(log)).toEqual([5])
      if (!realOracle) expect(server.server!.openResultSets()).toBe(0)
    })))

  it.effect("runs whose first cursors differ in schema fail INVALID_DATA naming the rows, rather than mixing them", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const t = uniqueName("IMPSHAPE")
      const v = uniqueName("IMPVIEW")
      yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(10))`)
      yield* conn.execute(`INSERT INTO ${t} VALUES (1)`)
      yield* conn.execute(`CREATE VIEW ${v} AS SELECT K FROM ${t}`)
      // run 1 returns (K), then redefines the view, so run 2 returns (K, EXTRA)
      const sql = `DECLARE c1 SYS_REFCURSOR; v NUMBER := :1; BEGIN
  OPEN c1 FOR SELECT * FROM ${v}; DBMS_SQL.RETURN_RESULT(c1);
  EXECUTE IMMEDIATE 'CREATE OR REPLACE VIEW ${v} AS SELECT K, ''x'' AS EXTRA FROM ${t}';
END;`
      const error = yield* Effect.flip(runBound(sql, ids([1, 2])))
      expect(error.status).toBe("INVALID_DATA")
      expect(error.message).toContain("parameter row 2")
      expect(error.message).toContain("EXTRA")
      if (!realOracle) expect(server.server!.openResultSets()).toBe(0)
    })))

  it.live.skipIf(realOracle)("interrupted at row 2 (the server holding its reply): prompt, no cursor left open, row 1 undone, the session usable", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const log = yield* logTable("IMPINT")
      const faults = server.server!.faults
      // every reply takes 300 ms: the parse, row 1 and row 2 are answered at about 300, 600 and 900 ms
      faults.replyDelayMs = 300
      // the server asks holdReplies before each reply (faults.ts): the third time, row 2's reply is being delayed
      let replies = 0
      let rowTwoHeld!: () => void
      const atRowTwo = new Promise<void>((r) => (rowTwoHeld = r))
      faults.holdReplies = () => {
        if (++replies === 3) rowTwoHeld()
        return undefined
      }
      const fiber = yield* Effect.forkChild(runBound(logAndReturn(log), ids([1, 2, 3])))
      // synchronised on the server, not on a 750 ms timer that a loaded machine can outrun or fall behind
      yield* Effect.promise(() => atRowTwo)
      delete faults.holdReplies
      const started = Date.now()
      yield* Fiber.interrupt(fiber)
      const ms = Date.now() - started
      faults.replyDelayMs = 0
      expect(ms).toBeLessThan(10_000)
      expect(Exit.isSuccess(yield* Fiber.await(fiber))).toBe(false)
      expect(yield* keysIn(log)).toEqual([])
      expect(server.server!.openResultSets()).toBe(0)
    }).pipe(Effect.ensuring(Effect.sync(() => {
      server.server!.faults.replyDelayMs = 0
      delete server.server!.faults.holdReplies
    })))), 30_000)

  it.effect("row mode: NOT_IMPLEMENTED, whatever the number of parameter rows, and under autocommit nothing stays written", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const log = yield* logTable("IMPROW")
      for (const params of [ids([1]), ids([2, 3, 4])]) {
        const error = yield* Effect.flip(runBound(logAndReturn(log), params, "row"))
        expect(error.status).toBe("NOT_IMPLEMENTED")
        expect(error.message).toContain("redo.statement.execution_mode=batch")
      }
      // the same block without parameters (its value fixed in the text)
      const unbound = Connection.query(logAndReturn(log).replace(":1", "9")).pipe(Stream.runCollect)
      expect((yield* Effect.flip(unbound)).status).toBe("NOT_IMPLEMENTED")
      expect(yield* keysIn(log)).toEqual([])
      if (!realOracle) expect(server.server!.openResultSets()).toBe(0)
    })))

})

describe("several parameter rows are one statement", () => {
  it.effect("bound DML failing in row 2, or in its second executeMany chunk, under autocommit leaves nothing written, also after the next statement", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const log = yield* logTable("IMPDMLERR")
      yield* Connection.execute(`INSERT INTO ${log} VALUES (5)`)
      for (const [params, options] of [[ids([1, 5, 7]), {}], [ids([1, 2, 3, 5, 7]), { "redo.statement.insert_batch_rows": "2" }]] as const) {
        const stmt = yield* boundStatement(`INSERT INTO ${log} (K) VALUES (:1)`, params, options)
        const error = yield* Effect.flip(stmt.executeUpdate)
        expect(error.message).toContain("ORA-00001")
      }
      yield* Connection.execute(`INSERT INTO ${log} VALUES (9)`)
      expect(yield* keysIn(log)).toEqual([5, 9])
    })))

  it.effect("a block without implicit results (DML) runs for every parameter row", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const log = yield* logTable("IMPDML")
      const stmt = yield* boundStatement(`BEGIN INSERT INTO ${log} VALUES (:1); END;`, ids([1, 2, 3, 4, 5]), {})
      yield* stmt.executeUpdate
      expect(yield* keysIn(log)).toEqual([1, 2, 3, 4, 5])
    })))
})
