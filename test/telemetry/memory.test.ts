import { describe, expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Fiber, Layer, Stream, SubscriptionRef } from "effect"
import * as Connection from "../../src/Connection.ts"
import * as Database from "../../src/Database.ts"
import { Driver } from "../../src/Driver.ts"
import { fromTable } from "../../src/Ingest.ts"
import { operationName } from "../../src/internal/telemetry.ts"
import * as Telemetry from "../../src/Telemetry.ts"
import type { Progress } from "../../src/Telemetry.ts"
import { failure } from "../support/exits.ts"
import { memoryDriver, MemoryServer } from "../support/MemoryDriver.ts"
import { collectProgress, eventsOf, expectGrowing, makeRecorder, numberedTable } from "./support.ts"

const PASSWORD = "pw-Tel3metry!"
const uri = `mem://scott:${encodeURIComponent(PASSWORD)}@dbhost:1`
const BOUND_SECRET = "bound-value-4711-secret"

const setup = (server: MemoryServer, options: Record<string, string> = {}) =>
  Connection.layer().pipe(
    Layer.provideMerge(Database.layer({ uri, "mem.page_rows": "1000", ...options })),
    Layer.provide(Layer.succeed(Driver, memoryDriver(server)))
  )

describe("telemetry on the memory driver", () => {
  it("the operation name is the statement's first keyword as written, after comments and parentheses", () => {
    expect(operationName("  select 1 from dual")).toBe("select")
    expect(operationName("-- note\n/* c */ (SELECT 1) UNION (SELECT 2)")).toBe("SELECT")
    expect(operationName("BEGIN NULL; END;")).toBe("BEGIN")
    expect(operationName("  ")).toBeUndefined()
  })

  it.effect("an update runs in a CLIENT span named after its operation, with rows affected and no query text", () => {
    const recorder = makeRecorder()
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      expect(yield* conn.execute("UPDATE 7")).toBe(7)
      const [span] = recorder.named("UPDATE")
      expect(span?.kind).toBe("client")
      expect(span?.attributes.get("db.system.name")).toBe("memory")
      expect(span?.attributes.get("db.operation.name")).toBe("UPDATE")
      expect(span?.attributes.get("adbc.response.affected_rows")).toBe(7)
      expect(span?.attributes.has("db.query.text")).toBe(false)
      const [connect] = recorder.named("connect")
      expect(connect?.kind).toBe("client")
      expect(recorder.logs.map((l) => l.message)).toEqual(expect.arrayContaining([
        "adbc: connect started",
        "adbc: connect finished",
        "adbc: UPDATE started",
        "adbc: UPDATE finished"
      ]))
      const finished = recorder.logs.find((l) => l.message === "adbc: UPDATE finished")
      expect(finished?.level).toBe("Debug")
      expect(finished?.annotations["adbc.response.affected_rows"]).toBe(7)
      expect(recorder.dump()).not.toContain(PASSWORD)
      expect(recorder.dump()).not.toContain("mem://")
    }).pipe(Effect.provide(setup(new MemoryServer())), Effect.provide(recorder.layer))
  })

  it.effect("query text appears only when opted in, and bound values never do", () => {
    const recorder = makeRecorder()
    const params = new Arrow.Table({ p: Arrow.vectorFromArray([BOUND_SECRET], new Arrow.Utf8()) })
    const run = (options: Record<string, string>) =>
      Effect.gen(function*() {
        const conn = yield* Connection.Connection
        const stmt = yield* conn.statement(options)
        yield* stmt.setSqlQuery("SELECT PARAMS ?")
        yield* stmt.bind(params)
        const reader = yield* stmt.executeQuery
        const batches = yield* Stream.runCollect(reader.batches)
        expect(batches[0]?.getChildAt(0)?.get(0)).toBe(BOUND_SECRET)
      }).pipe(Effect.scoped)
    return Effect.gen(function*() {
      yield* run({})
      expect(recorder.named("SELECT")[0]?.attributes.has("db.query.text")).toBe(false)
      yield* run({ "telemetry.query_text": "true" })
      const spans = recorder.named("SELECT")
      expect(spans[1]?.attributes.get("db.query.text")).toBe("SELECT PARAMS ?")
      expect(recorder.logs.some((l) => l.annotations["db.query.text"] === "SELECT PARAMS ?")).toBe(true)
      expect(recorder.dump()).not.toContain(BOUND_SECRET)
      expect(recorder.dump()).not.toContain(PASSWORD)
    }).pipe(Effect.provide(setup(new MemoryServer())), Effect.provide(recorder.layer))
  })

  it.effect("a failed statement's span and log line carry error.type", () => {
    const recorder = makeRecorder()
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const error = failure(yield* Effect.exit(conn.execute("FAIL the disk is full")))
      const [span] = recorder.named("FAIL")
      expect(span?.attributes.get("error.type")).toBe(error.status)
      expect(span?.status._tag === "Ended" && span.status.exit._tag).toBe("Failure")
      const failed = recorder.logs.find((l) => l.message === "adbc: FAIL failed")
      expect(failed?.annotations["error.type"]).toBe(error.status)
    }).pipe(Effect.provide(setup(new MemoryServer())), Effect.provide(recorder.layer))
  })

  it.effect("a failed connect ends its span with error.type and logs it, naming no secret", () => {
    const recorder = makeRecorder()
    const server = new MemoryServer()
    server.connectFailure = `login refused for password ${PASSWORD}`
    return Effect.gen(function*() {
      const error = failure(yield* Effect.exit(Layer.build(setup(server)).pipe(Effect.scoped)))
      const [span] = recorder.named("connect")
      expect(span?.attributes.get("error.type")).toBe(error.status)
      expect(recorder.logs.find((l) => l.message === "adbc: connect failed")?.annotations["error.type"]).toBe(error.status)
      expect(recorder.dump()).not.toContain(PASSWORD)
    }).pipe(Effect.provide(recorder.layer))
  })

  it.effect("a read cut short still ends its fetch span, with the rows it returned", () => {
    const recorder = makeRecorder()
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      yield* conn.ingest(fromTable(numberedTable(50, 50)), { targetTable: "SHORT" })
      const smallBatches = { "mem.read_batch_rows": "10", "mem.page_rows": "5" }
      const first = yield* Stream.runCollect(conn.query("SELECT * FROM MAIN.SHORT", smallBatches).pipe(Stream.take(1)))
      expect(first[0]?.numRows).toBe(10)
      const [fetch] = recorder.named("fetch")
      expect(fetch?.attributes.get("db.response.returned_rows")).toBe(10)
      expect(recorder.spans.filter((s) => s.status._tag !== "Ended")).toEqual([])
    }).pipe(Effect.provide(setup(new MemoryServer())), Effect.provide(recorder.layer))
  })

  it.effect("an ingest of 1M rows reports progress batch by batch; the read back does too", () => {
    const recorder = makeRecorder()
    const total = 1_000_000
    const ingested: Array<Progress> = []
    const fetched: Array<Progress> = []
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const rows = yield* conn.ingest(fromTable(numberedTable(total, 50_000)), { targetTable: "BIG" }).pipe(
        Telemetry.withProgress(collectProgress(ingested))
      )
      expect(rows).toBe(total)
      expectGrowing(ingested, total, 20)
      expect(ingested.every((p) => p.operation === "ingest" && p.target === "BIG")).toBe(true)
      const [ingest] = recorder.named("ingest BIG")
      expect(ingest?.attributes.get("db.collection.name")).toBe("BIG")
      expect(ingest?.attributes.get("db.operation.name")).toBe("ingest")
      expect(ingest?.attributes.get("adbc.response.affected_rows")).toBe(total)
      const events = eventsOf(ingest!, "adbc.ingest.batch")
      expect(events).toHaveLength(20)
      expect(events[0]).toMatchObject({ "adbc.batch.rows": 50_000 })
      expect(Number(events[0]!["adbc.batch.bytes"])).toBeGreaterThan(50_000 * 4)

      const read = yield* Stream.runFold(
        conn.query("SELECT * FROM MAIN.BIG", { "mem.read_batch_rows": "100000", "mem.page_rows": "10000" }),
        () => 0,
        (n, batch) => n + batch.numRows
      ).pipe(Telemetry.withProgress(collectProgress(fetched)))
      expect(read).toBe(total)
      expectGrowing(fetched, total, 10)
      const [fetch] = recorder.named("fetch")
      expect(fetch?.attributes.get("db.response.returned_rows")).toBe(total)
      expect(fetch?.attributes.get("db.operation.name")).toBe("SELECT")
      expect(eventsOf(fetch!, "adbc.fetch.batch")).toHaveLength(10)
      const batchLines = recorder.logs.filter((l) => l.message === "adbc: fetch batch")
      expect(batchLines).toHaveLength(10)
      expect(batchLines.at(-1)?.annotations["adbc.rows_so_far"]).toBe(total)
    }).pipe(Effect.provide(setup(new MemoryServer())), Effect.provide(recorder.layer))
  }, 120_000)

  it.effect("a progress bar can follow a SubscriptionRef while an ingest runs in another fiber", () =>
    Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const initial: Progress = { operation: "ingest", rows: 0, bytes: 0, batches: 0, done: false }
      const ref = yield* SubscriptionRef.make(initial)
      const seen = yield* SubscriptionRef.changes(ref).pipe(
        Stream.takeUntil((p) => p.done),
        Stream.runCollect,
        Effect.forkChild
      )
      yield* Effect.yieldNow
      yield* conn.ingest(fromTable(numberedTable(10_000, 1_000)), { targetTable: "WATCHED" }).pipe(
        Telemetry.withProgress((p) => SubscriptionRef.set(ref, p))
      )
      const observed = yield* Fiber.join(seen)
      expect(observed.at(-1)).toMatchObject({ rows: 10_000, batches: 10, done: true, target: "WATCHED" })
      expect(observed.filter((p) => p.rows > 0 && p.rows < 10_000).length).toBeGreaterThan(1)
    }).pipe(Effect.provide(setup(new MemoryServer()))))
})
