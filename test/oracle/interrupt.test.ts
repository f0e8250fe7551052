import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Cause, Effect, Exit, Fiber, Stream } from "effect"
import * as Connection from "../../src/Connection.ts"
import { fromTable } from "../../src/Ingest.ts"
import { LobPrefetchLength } from "../../layers/oracle/OracleOptions.ts"
import { failure } from "../conformance/harness.ts"
import { realOracle, uniqueName, useServer, withConnection } from "./support.ts"

// Interruption is cancellation: the server call is broken (break/reset, ORA-01013 on the server side) and the fiber
// returns within a second. Silent servers (stall after handshake, stall mid-result) are conformance rules
// (test/conformance/rules/faults.ts).
const server = useServer()

const elapsed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const start = Date.now()
    const exit = yield* Effect.exit(effect)
    return { exit, ms: Date.now() - start }
  })

/** A table of 3000 numbers (N) and a query over it that runs for a long time (a three-way cartesian product). */
const longRunning = Effect.gen(function*() {
  const conn = yield* Connection.Connection
  const table = uniqueName("BIG")
  const data = new Arrow.Table({ N: Arrow.vectorFromArray(Array.from({ length: 3000 }, (_, i) => i), new Arrow.Int32()) })
  yield* conn.ingest(fromTable(data), { targetTable: table })
  return { table, sql: `SELECT COUNT(*) AS C FROM ${table} a, ${table} b, ${table} c WHERE a.N + b.N + c.N < 0` }
})

describe.skipIf(realOracle)("interruption cancels on the server", () => {
  it.live("Effect.timeout on a long query returns within 1 s and the next query runs at once", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const { sql } = yield* longRunning
      const { exit, ms } = yield* elapsed(Stream.runCollect(conn.query(sql)).pipe(Effect.timeout("300 millis")))
      expect(exit._tag).toBe("Failure")
      // the contract says 1 s after the interrupt; the margin is for a loaded machine
      expect(ms).toBeLessThan(1800)
      const next = yield* elapsed(Stream.runCollect(conn.query("SELECT 1 AS X FROM DUAL")))
      expect(next.exit._tag).toBe("Success")
      expect(next.ms).toBeLessThan(1000)
      expect(server.server!.openResultSets()).toBe(0)
    })), 30_000)

  it.live("an interrupted INSERT ... SELECT never commits its rows", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const { table } = yield* longRunning
      const target = uniqueName("INTR")
      yield* conn.execute(`CREATE TABLE ${target} (C NUMBER)`)
      const fiber = yield* Effect.forkChild(
        conn.execute(`INSERT INTO ${target} SELECT COUNT(*) FROM ${table} a, ${table} b, ${table} c WHERE a.N + b.N + c.N < 0`)
      )
      yield* Effect.sleep("300 millis")
      const { ms } = yield* elapsed(Fiber.interrupt(fiber))
      expect(ms).toBeLessThan(1500)
      const rows = yield* Stream.runCollect(conn.query(`SELECT COUNT(*) AS N FROM ${target}`))
      expect(Number(rows[0]!.getChild("N")!.get(0))).toBe(0)
    })), 30_000)

  it.live("a query cancelled on the server (Connection.cancel) fails the stream reading it with ORA-01013, status CANCELLED; the connection stays usable", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const { sql } = yield* longRunning
      const reading = yield* Effect.forkChild(Stream.runCollect(conn.query(sql)))
      yield* Effect.sleep("300 millis")
      yield* conn.cancel
      const error = failure(yield* Fiber.await(reading))
      expect(error.status).toBe("CANCELLED")
      expect(error.vendorCode).toBe(1013)
      expect(error.message).toMatch(/^ORA-01013/)
      expect(yield* Stream.runCollect(conn.query("SELECT 1 AS X FROM DUAL"))).toHaveLength(1)
    })), 30_000)

  it.live("40 interrupts around a short query's reply: the next statement always succeeds and no result stays open on the server", () =>
    withConnection(server.uri, Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const failures: Array<string> = []
      let interrupted = 0
      for (let run = 0; run < 40; run++) {
        // a short query and a timeout around its own duration: the interrupt comes before, during or after the execute
        const exit = yield* Effect.exit(
          Stream.runCollect(conn.query("SELECT 1 AS X FROM DUAL")).pipe(Effect.timeout(`${run % 4} millis`))
        )
        if (Exit.isFailure(exit) && Cause.hasFails(exit.cause)) interrupted++
        const next = yield* Effect.exit(Stream.runCollect(conn.query("SELECT 2 AS X FROM DUAL")))
        if (Exit.isFailure(next)) failures.push(`run ${run}: ${failure(next).message}`)
      }
      expect(failures).toEqual([])
      expect(interrupted).toBeGreaterThan(0)
      expect(server.server!.openResultSets()).toBe(0)
    })), 60_000)

  describe("a break that crosses the first execute of a new SQL text leaves no server cursor the client does not know", () => {
    /** Server cursors of this session whose text starts with `prefix` (V$OPEN_CURSOR keeps 60 characters). */
    const cursorsFor = (prefix: string) =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const rows = yield* Stream.runCollect(
          conn.query(`SELECT COUNT(*) AS N FROM V$OPEN_CURSOR WHERE SQL_TEXT LIKE '${prefix.slice(0, 50).replaceAll("'", "''")}%'`)
        )
        return Number(rows[0]!.getChild("N")!.get(0))
      })

    /**
     * Runs `work` with every reply delayed by `delayMs` (300 ms) and interrupts it `afterMs` in: at 150 ms the first
     * reply (a new text's parse) is on its way; at 450 ms the execute's.
     */
    const interruptedWhileHeld = (work: Effect.Effect<unknown, unknown, Connection.Connection>, afterMs: number, delayMs = 300) =>
      Effect.gen(function*() {
        const faults = server.server!.faults
        faults.replyDelayMs = delayMs
        const fiber = yield* Effect.forkChild(work)
        yield* Effect.sleep(`${afterMs} millis`)
        const { ms } = yield* elapsed(Fiber.interrupt(fiber))
        faults.replyDelayMs = 0
        expect(ms).toBeLessThan(1500)
        // the interruption met the work in flight (a delay the server no longer applied would let it finish first)
        expect(Exit.isSuccess(yield* Fiber.await(fiber))).toBe(false)
      }).pipe(Effect.ensuring(Effect.sync(() => {
        server.server!.faults.replyDelayMs = 0
      })))

    /** {@link interruptedWhileHeld}, then runs `work` again, to the end, and counts the cursors of its text. */
    const interruptedThenRun = (work: Effect.Effect<unknown, unknown, Connection.Connection>, prefix: string, afterMs: number, delayMs = 300) =>
      Effect.gen(function*() {
        yield* interruptedWhileHeld(work, afterMs, delayMs)
        yield* work
        // the text's cursor is the one the client caches; a cursor whose id the client never learned would be a second
        return yield* cursorsFor(prefix)
      })

    for (const afterMs of [150, 450]) {
      it.live(`a query, a query with CLOB and JSON columns and an INSERT, interrupted ${afterMs} ms in`, () =>
        withConnection(server.uri, Effect.gen(function*() {
          const conn = yield* Connection.Connection
          const t = uniqueName("ORPH")
          yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(10), C CLOB, J JSON)`)
          yield* conn.execute(`INSERT INTO ${t} VALUES (1, 'text', '{"a":1}')`)
          const query = `SELECT K, 1 AS ${uniqueName("Q")} FROM ${t}`
          expect(yield* interruptedThenRun(Stream.runCollect(conn.query(query)), query, afterMs)).toBe(1)
          // LOB and JSON columns need a define before their cursor is executed
          const lob = `SELECT C, J, 2 AS ${uniqueName("L")} FROM ${t}`
          expect(yield* interruptedThenRun(Stream.runCollect(conn.query(lob)), lob, afterMs)).toBe(1)
          const insert = `INSERT INTO ${t} (K) VALUES (${afterMs})`
          expect(yield* interruptedThenRun(conn.execute(insert), insert, afterMs)).toBe(1)
          expect(server.server!.openResultSets()).toBe(0)
        })), 30_000)
    }

    it.live("a LOB query interrupted while its LOB values are read (one LOB read call per LOB longer than the prefetch length, inside the fetch)", () =>
      withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueName("ORPHR")
        yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(10), C CLOB, B BLOB)`)
        // longer than the LOB prefetch length, so that each CLOB is read through its locator (the BLOBs come whole)
        const text = (k: number) => `text ${k} `.padEnd(LobPrefetchLength.default + 10, "x")
        for (let k = 0; k < 6; k++) {
          yield* conn.execute(`INSERT INTO ${t} VALUES (${k}, TO_CLOB('text ${k} ') || RPAD('x', 2000, 'x') || RPAD('x', ${LobPrefetchLength.default + 3 - 2000}, 'x'), HEXTORAW('0${k}'))`)
        }
        const lob = `SELECT C, B, 6 AS ${uniqueName("LR")} FROM ${t}`
        // with replies held 300 ms: parse and define, execute, then six LOB reads: 1,500 ms in, the reads run
        expect(yield* interruptedThenRun(Stream.runCollect(conn.query(lob)), lob, 1500)).toBe(1)
        expect(server.server!.openResultSets()).toBe(0)
        const rows = yield* Stream.runCollect(conn.query(`SELECT C FROM ${t} ORDER BY K`))
        expect(Array.from(rows[0]!.getChild("C")!)).toEqual([0, 1, 2, 3, 4, 5].map(text))
      })), 30_000)

    /** A statement of `sql` bound to one row of `values`, run to the end of its result. */
    const bound = (sql: string, values: ReadonlyArray<number>) =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const stmt = yield* conn.statement()
        yield* stmt.setSqlQuery(sql)
        yield* stmt.bind(new Arrow.Table(Object.fromEntries(values.map((v, i) => [`p${i}`, Arrow.vectorFromArray([v], new Arrow.Int32())]))))
        return yield* Effect.scoped(Effect.flatMap(stmt.executeQuery, (reader) => Stream.runCollect(reader.batches)))
      })

    /** Counts rows of `sql`'s first column's COUNT(*). */
    const countOf = (sql: string) =>
      Effect.map(Connection.query(sql).pipe(Stream.runCollect), (rows) => Number(rows[0]!.getChild("N")!.get(0)))

    it.live("a LOB query interrupted during its parse, with replies of 350 ms: its define is left to the next run, so the interruption never outlasts its budget and drops the session", () =>
      withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueName("ORPHL")
        yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(10), C CLOB)`)
        const lob = `SELECT C, 5 AS ${uniqueName("LD")} FROM ${t}`
        // parse and define in one awaited call ended at 700 ms, past the 550 ms the interruption waits: the break then
        // met the define, and the ping after it was answered at about 1050 ms, past the budget, so the session was dropped
        expect(yield* interruptedThenRun(Stream.runCollect(conn.query(lob)), lob, 150, 350)).toBe(1)
        expect(server.server!.openResultSets()).toBe(0)
      })), 30_000)

    // A bound statement is parsed first (its execute parses anew: see Db.statementInfo), so 150 ms in meets the parse
    // and 450 ms the execute; DDL, an unbound PL/SQL block and every text without a statement cache take one call,
    // which 150 ms in meets.
    for (const afterMs of [150, 450]) {
      it.live(`a bound query and a bound PL/SQL block, interrupted ${afterMs} ms in: no orphan cursor, the block rolled back`, () =>
        withConnection(server.uri, Effect.gen(function*() {
          const conn = yield* Connection.Connection
          const t = uniqueName("ORPHB")
          yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(10))`)
          yield* conn.execute(`INSERT INTO ${t} VALUES (1)`)
          const query = `SELECT K, 3 AS ${uniqueName("BQ")} FROM ${t} WHERE K >= :1`
          expect(yield* interruptedThenRun(bound(query, [0]), query, afterMs)).toBe(1)
          // each run of the block inserts two rows: the interrupted run (under autocommit) is rolled back whole
          const block = `BEGIN INSERT INTO ${t} (K) VALUES (:1); INSERT INTO ${t} (K) VALUES (:1 + 1); END;`
          expect(yield* interruptedThenRun(bound(block, [10]), block, afterMs)).toBe(1)
          expect(yield* countOf(`SELECT COUNT(*) AS N FROM ${t} WHERE K IN (10, 11)`)).toBe(2)
          expect(server.server!.openResultSets()).toBe(0)
        })), 30_000)
    }

    it.live("a PL/SQL block returning an implicit result set, interrupted while its reply is held: no orphan cursor, rolled back", () =>
      withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueName("ORPHP")
        yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(10))`)
        const block = `DECLARE c1 SYS_REFCURSOR; BEGIN INSERT INTO ${t} (K) VALUES (7); INSERT INTO ${t} (K) VALUES (7);
  OPEN c1 FOR SELECT K FROM ${t}; DBMS_SQL.RETURN_RESULT(c1); END;`
        const read = Stream.runCollect(conn.query(block, { "redo.statement.execution_mode": "batch" }))
        expect(yield* interruptedThenRun(read, block, 150)).toBe(1)
        // the interrupted run is rolled back whole; the second run's two rows stay
        expect(yield* countOf(`SELECT COUNT(*) AS N FROM ${t}`)).toBe(2)
        // the implicit result set of the interrupted run is no orphan either
        expect(yield* cursorsFor(`SELECT K FROM ${t}`)).toBe(0)
        expect(server.server!.openResultSets()).toBe(0)
      })), 30_000)

    it.live("a long-running bound query and PL/SQL block are still broken on the server: prompt return, nothing committed, no orphan", () =>
      withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const { table } = yield* longRunning
        const target = uniqueName("ORPHL")
        yield* conn.execute(`CREATE TABLE ${target} (C NUMBER)`)
        const query = `SELECT COUNT(*) AS C FROM ${table} a, ${table} b, ${table} c WHERE a.N + b.N + c.N < :1`
        const block = `BEGIN INSERT INTO ${target} SELECT COUNT(*) FROM ${table} a, ${table} b, ${table} c WHERE a.N + b.N + c.N < :1; END;`
        for (const sql of [query, block]) {
          const fiber = yield* Effect.forkChild(bound(sql, [0]))
          yield* Effect.sleep("300 millis")
          const { ms } = yield* elapsed(Fiber.interrupt(fiber))
          expect(ms).toBeLessThan(10_000)
          expect(yield* cursorsFor(sql)).toBe(0)
        }
        expect(yield* countOf(`SELECT COUNT(*) AS N FROM ${target}`)).toBe(0)
        expect(server.server!.openResultSets()).toBe(0)
      })), 30_000)

    it.live("DDL, interrupted while its reply is held: no orphan cursor, the table created whole or not at all", () =>
      withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const source = uniqueName("ORPHS")
        yield* conn.execute(`CREATE TABLE ${source} (K NUMBER(10))`)
        yield* conn.execute(`INSERT INTO ${source} VALUES (1)`)
        yield* conn.execute(`INSERT INTO ${source} VALUES (2)`)
        const target = uniqueName("ORPHD")
        const ddl = `CREATE TABLE ${target} AS SELECT K FROM ${source}`
        yield* interruptedWhileHeld(conn.execute(ddl), 150)
        const exists = yield* countOf(`SELECT COUNT(*) AS N FROM USER_TABLES WHERE TABLE_NAME = '${target}'`)
        if (exists === 1) expect(yield* countOf(`SELECT COUNT(*) AS N FROM ${target}`)).toBe(2)
        expect(yield* cursorsFor(ddl)).toBe(0)
        expect(server.server!.openResultSets()).toBe(0)
      })), 30_000)

    it.live("with stmtCacheSize=0, a query and an INSERT interrupted while their reply is held leave no cursor", () =>
      withConnection(`${server.uri}?stmtCacheSize=0`, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueName("ORPHZ")
        yield* conn.execute(`CREATE TABLE ${t} (K NUMBER(10))`)
        const query = `SELECT K, 4 AS ${uniqueName("ZQ")} FROM ${t}`
        // without a statement cache the client closes every cursor after its statement: none stays
        expect(yield* interruptedThenRun(Stream.runCollect(conn.query(query)), query, 150)).toBe(0)
        const insert = `INSERT INTO ${t} (K) VALUES (150)`
        expect(yield* interruptedThenRun(conn.execute(insert), insert, 150)).toBe(0)
        expect(server.server!.openResultSets()).toBe(0)
      })), 30_000)

    it.live("an ingest's INSERT, interrupted while its first executeMany is answered", () =>
      withConnection(server.uri, Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const t = uniqueName("ORPHI")
        yield* conn.execute(`CREATE TABLE "${t}" ("id" NUMBER(10))`)
        const data = new Arrow.Table({ id: Arrow.vectorFromArray([1, 2, 3], new Arrow.Int32()) })
        const append = conn.ingest(fromTable(data), { targetTable: t, mode: "append" })
        expect(yield* interruptedThenRun(append, `INSERT INTO "${t}"`, 450)).toBe(1)
      })), 30_000)
  })
})
