/**
 * The telemetry scenarios every driver passes, against its test server over real sockets (or a real database when
 * the driver's URI variable is set): connect, query, ingest and failure spans with their attributes, events, log
 * lines and progress, and no password, URI or bound value anywhere in them.
 */
import { expect, it } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, type Layer, Stream } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import type * as Database from "../../src/Database.ts"
import type { DriverEndpoint, DriverShape } from "../../src/Driver.ts"
import { fromTable } from "../../src/Ingest.ts"
import { OptionRegistry, OptionStore, ResolvedOptions } from "../../src/Options.ts"
import { StandardOptions } from "../../src/StandardOptions.ts"
import * as Telemetry from "../../src/Telemetry.ts"
import type { Progress } from "../../src/Telemetry.ts"
import { failure } from "../support/exits.ts"
import { collectProgress, eventsOf, expectGrowing, makeRecorder, numberedTable } from "./support.ts"

/** What differs between drivers. */
export interface DriverCase {
  /** The server state of the test file (`useServer()` of the driver's test support). */
  readonly server: { readonly uri: string }
  readonly layer: (
    uri: string,
    databaseOptions?: Record<string, string>,
    connectionOptions?: Record<string, string>
  ) => Layer.Layer<Connection.Connection | Database.Database, AdbcError>
  readonly systemName: string
  /** The namespace the test server's URI names, if any. */
  readonly namespace: string | undefined
  /** Options that make reads come back in batches of at most `rows` rows. */
  readonly smallBatches: (rows: number) => Record<string, string>
  /** The bind placeholder of parameter 1. */
  readonly placeholder: string
  /** `db.response.status_code` of a query on a table that does not exist. */
  readonly missingTableCode: string
  readonly uniqueName: (prefix: string) => string
}

const BOUND_SECRET = "bound-Secret-0815"

/** The endpoint a driver reports for a database URI, read without connecting. */
export const endpointOf = (driver: DriverShape, uri: string): DriverEndpoint | undefined => {
  const store = OptionStore.make(new OptionRegistry(StandardOptions), "database", { uri })
  if (store._tag !== "Success") throw new Error(`options rejected: ${uri}`)
  return driver.telemetry?.endpoint(new ResolvedOptions([store.success]))
}

/** Registers the scenarios for one driver in the current `describe`. */
export const telemetryScenarios = (c: DriverCase) => {
  const secretsOf = () => {
    const url = new URL(c.server.uri)
    return [c.server.uri, decodeURIComponent(url.password), `:${url.password}@`]
  }
  const expectNoSecrets = (text: string) => {
    for (const secret of secretsOf()) expect(text).not.toContain(secret)
    expect(text).not.toContain(BOUND_SECRET)
  }

  it.effect("connect: a CLIENT span with system, server address and port, namespace; debug lines; no password", () => {
    const recorder = makeRecorder()
    const url = new URL(c.server.uri)
    return Effect.gen(function*() {
      yield* Connection.Connection
      const [span] = recorder.named("connect")
      expect(span?.kind).toBe("client")
      expect(span?.attributes.get("db.system.name")).toBe(c.systemName)
      expect(span?.attributes.get("server.address")).toBe(url.hostname)
      expect(span?.attributes.get("server.port")).toBe(Number(url.port))
      expect(span?.attributes.get("db.namespace")).toBe(c.namespace)
      const connected = recorder.logs.find((l) => l.message === "adbc: connect finished")
      expect(connected?.annotations["server.port"]).toBe(Number(url.port))
      expect(connected?.level).toBe("Debug")
      expectNoSecrets(recorder.dump())
    }).pipe(Effect.provide(c.layer(c.server.uri)), Effect.provide(recorder.layer))
  })

  it.effect("ingest and read back: spans per operation, an event per batch, progress growing, opt-in query text", () => {
    const recorder = makeRecorder()
    const table = c.uniqueName("TEL")
    const total = 5_000
    const ingested: Array<Progress> = []
    const fetched: Array<Progress> = []
    const sql = `SELECT ID, NAME FROM ${table} WHERE NAME <> ${c.placeholder} ORDER BY ID`
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const rows = yield* conn.ingest(fromTable(numberedTable(total, 1_000)), { targetTable: table }).pipe(
        Telemetry.withProgress(collectProgress(ingested))
      )
      expect(rows).toBe(total)
      expectGrowing(ingested, total, 5)
      const [ingest] = recorder.named(`ingest ${table}`)
      expect(ingest?.kind).toBe("client")
      expect(ingest?.attributes.get("db.system.name")).toBe(c.systemName)
      expect(ingest?.attributes.get("db.collection.name")).toBe(table)
      expect(ingest?.attributes.get("db.operation.name")).toBe("ingest")
      expect(ingest?.attributes.get("adbc.response.affected_rows")).toBe(total)
      expect(eventsOf(ingest!, "adbc.ingest.batch").map((e) => e["adbc.batch.rows"])).toEqual([1000, 1000, 1000, 1000, 1000])
      expect(recorder.logs.filter((l) => l.message === "adbc: ingest batch")).toHaveLength(5)

      const read = yield* Effect.scoped(Effect.gen(function*() {
        const stmt = yield* conn.statement({ ...c.smallBatches(1_000), "telemetry.query_text": "true" })
        yield* stmt.setSqlQuery(sql)
        yield* stmt.bind(new Arrow.Table({ p: Arrow.vectorFromArray([BOUND_SECRET], new Arrow.Utf8()) }))
        const reader = yield* stmt.executeQuery
        return yield* Stream.runFold(reader.batches, () => 0, (n, batch) => n + batch.numRows)
      })).pipe(Telemetry.withProgress(collectProgress(fetched)))
      expect(read).toBe(total)
      expectGrowing(fetched, total, 4)
      const [select] = recorder.named("SELECT")
      expect(select?.attributes.get("db.operation.name")).toBe("SELECT")
      expect(select?.attributes.get("db.query.text")).toBe(sql)
      expect(select?.attributes.get("server.port")).toBe(Number(new URL(c.server.uri).port))
      const [fetch] = recorder.named("fetch")
      expect(fetch?.attributes.get("db.response.returned_rows")).toBe(total)
      const batchEvents = eventsOf(fetch!, "adbc.fetch.batch")
      expect(batchEvents.length).toBe(fetched.length - 1)
      expect(batchEvents.reduce((n, e) => n + Number(e["adbc.batch.rows"]), 0)).toBe(total)
      expectNoSecrets(recorder.dump())
    }).pipe(Effect.provide(c.layer(c.server.uri)), Effect.provide(recorder.layer))
  }, 60_000)

  it.effect("a failed query: error.type is the ADBC status, db.response.status_code the vendor code", () => {
    const recorder = makeRecorder()
    const missing = c.uniqueName("NO_SUCH")
    return Effect.gen(function*() {
      const conn = yield* Connection.Connection
      const error = failure(yield* Effect.exit(Effect.scoped(conn.executeQuery(`SELECT * FROM ${missing}`))))
      const [span] = recorder.named("SELECT")
      expect(span?.attributes.get("error.type")).toBe(error.status)
      expect(span?.attributes.get("db.response.status_code")).toBe(c.missingTableCode)
      expect(span?.attributes.has("db.query.text")).toBe(false)
      const failed = recorder.logs.find((l) => l.message === "adbc: SELECT failed")
      expect(failed?.annotations["db.response.status_code"]).toBe(c.missingTableCode)
      expectNoSecrets(recorder.dump())
    }).pipe(Effect.provide(c.layer(c.server.uri)), Effect.provide(recorder.layer))
  })
}
