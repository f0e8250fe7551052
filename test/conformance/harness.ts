/**
 * The conformance harness: one record of quirks per driver ({@link ConformanceDriver}) and the helpers every rule
 * uses. A rule file exports a function taking the driver record and registering its `describe` blocks; a driver's
 * test file (`memory.test.ts`, `hana.test.ts`) calls {@link runConformance} with its record.
 */
import { afterAll, beforeAll } from "@effect/vitest"
import * as Arrow from "apache-arrow"
import { Effect, Exit, Layer, Stream } from "effect"
import type { AdbcError } from "../../src/AdbcError.ts"
import * as Connection from "../../src/Connection.ts"
import type * as Database from "../../src/Database.ts"
import type { BatchCapMode } from "../../src/Driver.ts"

/** The layers a rule runs its program with: a connection and its database. */
export type ConformanceLayer = Layer.Layer<Connection.Connection | Database.Database, AdbcError>

/**
 * Fault switches of a started test server; they act on every session of the server. Which faults a server can inject
 * is declared on the driver record (`ConformanceDriver.faults`), because rules are registered before the server
 * starts; a rule needing a fault is registered only where it is declared.
 */
export interface ConformanceFaults {
  /** The server closes the socket in the middle of a result (`true`) or stops doing so (`false`). */
  readonly dropMidFetch?: ((on: boolean) => void) | undefined
  /**
   * The server closes a session's socket once it sent `replies` replies after login (`undefined` turns it off); the
   * rules open a fresh connection with it on and start an ingest, so the drop comes in the middle of the ingest.
   */
  readonly dropMidIngest?: ((replies: number | undefined) => void) | undefined
  /** The server stops answering open sessions (`true`) after they logged in, or answers again (`false`). */
  readonly stallAfterHandshake?: ((on: boolean) => void) | undefined
  /** The server stops answering (`true`); the rules switch it on once the first batch of a result arrived. */
  readonly stallMidResult?: ((on: boolean) => void) | undefined
}

/** A started test server (or in-memory store) for one test file. */
export interface ConformanceEnv {
  /** Connection + Database layers on this server, with extra database and connection options. */
  readonly layer: (
    databaseOptions?: Readonly<Record<string, string>>,
    connectionOptions?: Readonly<Record<string, string>>
  ) => ConformanceLayer
  /** Server cursors (result sets) open right now across all sessions, where the server can count them. */
  readonly openCursors?: (() => number) | undefined
  /** Sessions open right now on the server. */
  readonly openSessions: () => number
  readonly faults: ConformanceFaults
  readonly close: () => Promise<void>
}

/** The error a driver reports for one known failing statement. */
export interface ExpectedError {
  readonly status: AdbcError["status"]
  readonly vendorCode?: number | undefined
  readonly sqlState?: string | undefined
}

/**
 * Everything the conformance rules need to know about a driver. Document new fields in test/conformance/README.md.
 */
export interface ConformanceDriver {
  /** Shown in test names. */
  readonly name: string
  /** Starts a fresh server for one test file. */
  readonly start: () => Promise<ConformanceEnv>
  /** SQL spellings. `table` is a name created by ingest into the connection's current schema. */
  readonly sql: {
    /** Every column of `table`, ordered by `orderBy` when given. */
    readonly selectAll: (table: string, orderBy?: string) => string
    /** The number of rows of `table` in one column (any name), one row. */
    readonly count: (table: string) => string
    /** A query returning its `n` bound parameters as one row per parameter row. */
    readonly selectParameters: (n: number) => string
    /** A statement that fails, and the error the driver reports for it. */
    readonly failing: { readonly sql: string; readonly error: ExpectedError }
    /** A query over a table that does not exist, and the error. */
    readonly missingTable: { readonly sql: string; readonly error: ExpectedError }
  }
  /** The option setting the row cap of reader batches, and how the driver applies it. */
  readonly batchRows: { readonly key: string; readonly mode: BatchCapMode }
  /** The option setting the approximate byte cap of reader batches, where the driver has one. */
  readonly batchBytes?: { readonly key: string } | undefined
  /** Database options that make the server send small pages (a few rows each), so caps have pages to combine. */
  readonly smallPages: Readonly<Record<string, string>>
  /**
   * Database options that make an ingest send its rows in many calls of a few rows (a driver that gathers rows across
   * batches would otherwise send the fault rules' small ingest in one call), where the driver has them.
   */
  readonly smallIngestCalls?: Readonly<Record<string, string>> | undefined
  /** A driver option key (any level) with a value it rejects. */
  readonly badOption: { readonly key: string; readonly value: string }
  /** The Arrow types (as printed) the `numbers` table's columns read back as after ingest. */
  readonly ingestedTypes: { readonly id: string; readonly name: string }
  /** Table types GetTableTypes returns, in order. */
  readonly tableTypes: ReadonlyArray<string>
  /** The catalog name the connection reports. */
  readonly catalog: string
  /**
   * Whether the started env counts the server's open cursors (`ConformanceEnv.openCursors`); rules that need the
   * count are registered only where this is `true`.
   */
  readonly countsCursors: boolean
  /**
   * Where Connection.cancel reaches the readers of the connection, the error a read it cancelled fails with (a cancel
   * with nothing running and no reader open is then INVALID_STATE); the rules of `rules/cancel.ts` are registered only
   * where this is set.
   */
  readonly cancelledRead?: ExpectedError | undefined
  /**
   * Whether statements run as calls to a server over a socket, so that a timer can interrupt one in the middle
   * (an in-process driver finishes a read before a millisecond timer fires).
   */
  readonly overSocket: boolean
  /** Faults the driver's test server can inject (the switches themselves are on the started env). */
  readonly faults: { readonly [K in keyof ConformanceFaults]-?: boolean }
  /**
   * What an ingest that needs DDL (create, replace, create_append into a missing table) does inside the caller's
   * transaction: `rolls back` (its DDL joins the transaction: HANA) or `refused` (its DDL would commit the
   * transaction, so it fails INVALID_STATE before any DDL: build-and-swap drivers).
   */
  readonly ddlInTransaction: "rolls back" | "refused"
  /** Optional features; rules for missing features check the NOT_IMPLEMENTED error instead. */
  readonly capabilities: {
    readonly parameterSchema: boolean
    readonly ingestTemporary: boolean
    readonly ingestTargetCatalog: boolean
  }
}

/** A test server reached over a socket by a driver's real client. */
export interface SocketServer {
  readonly uri: string
  readonly sessionCount: () => number
  /** Result sets (server cursors) open right now across all sessions, where the server counts them. */
  readonly openResultSets?: (() => number) | undefined
  readonly faults: { dropMidResult?: boolean | undefined; dropAfterReplies?: number | undefined }
  readonly close: () => Promise<void>
}

/** How long a stalled test server stays silent: far beyond the 1 second within which interruption must return. */
export const STALL_MS = 10_000

/**
 * The environment of a socket test server: Connection + Database layers from the driver's `layerDatabase`, its
 * session and open-cursor counts and its fault switches (`delayReplies` sets the server's reply delay in ms).
 */
export const socketEnv = (
  server: SocketServer,
  layerDatabase: (options: Readonly<Record<string, string>>) => Layer.Layer<Database.Database, AdbcError>,
  delayReplies: (ms: number) => void
): ConformanceEnv => ({
  layer: (databaseOptions = {}, connectionOptions = {}) =>
    Connection.layer(connectionOptions).pipe(
      Layer.provideMerge(layerDatabase({ uri: server.uri, ...databaseOptions }))
    ),
  openCursors: server.openResultSets,
  openSessions: () => server.sessionCount(),
  faults: {
    dropMidFetch: (on) => {
      server.faults.dropMidResult = on
    },
    dropMidIngest: (replies) => {
      server.faults.dropAfterReplies = replies
    },
    stallAfterHandshake: (on) => delayReplies(on ? STALL_MS : 0),
    stallMidResult: (on) => delayReplies(on ? STALL_MS : 0)
  },
  close: () => server.close()
})

/** SQL spellings with double-quoted identifiers, for drivers whose SQL quotes that way. */
export const quotedSql = (input: {
  /** The FROM clause of a query without a table (` FROM DUMMY`, ` FROM DUAL`). */
  readonly fromNothing: string
  /** Placeholder `i` (0-based). */
  readonly placeholder: (i: number) => string
}): Pick<ConformanceDriver["sql"], "selectAll" | "count" | "selectParameters"> => {
  const quote = (name: string) => `"${name.replaceAll("\"", "\"\"")}"`
  return {
    selectAll: (table, orderBy) =>
      `SELECT * FROM ${quote(table)}${orderBy === undefined ? "" : ` ORDER BY ${quote(orderBy)}`}`,
    count: (table) => `SELECT COUNT(*) AS C FROM ${quote(table)}`,
    selectParameters: (n) =>
      `SELECT ${Array.from({ length: n }, (_, i) => `${input.placeholder(i)} AS P${i}`).join(", ")}${input.fromNothing}`
  }
}

/** Starts the driver's server before a file's tests and closes it after; read `env()` inside tests. */
export const useEnv = (driver: ConformanceDriver): () => ConformanceEnv => {
  let env: ConformanceEnv | undefined
  beforeAll(async () => {
    env = await driver.start()
  })
  afterAll(async () => {
    await env?.close()
  })
  return () => {
    if (env === undefined) throw new Error(`the ${driver.name} conformance server is not started`)
    return env
  }
}

let counter = 0
/** A table name unique within the run (upper case, so unquoted and quoted spellings agree). */
export const uniqueTable = (prefix: string): string => `${prefix}_${Date.now().toString(36)}_${counter++}`.toUpperCase()

/** `n` rows of (id Int32, name Utf8 with a null every 7th row), ids starting at `offset`. */
export const numbers = (n: number, offset = 0): Arrow.Table =>
  new Arrow.Table({
    id: Arrow.vectorFromArray(Array.from({ length: n }, (_, i) => i + offset), new Arrow.Int32()),
    name: Arrow.vectorFromArray(
      Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : `row ${i + offset}`)),
      new Arrow.Utf8()
    )
  })

/** `count` batches of 100 rows of (id, name), ids starting at `offset`, as an ingest source stream. */
export const hundreds = (count: number, offset = 0): Stream.Stream<Arrow.RecordBatch> => {
  const rows = numbers(count * 100, offset)
  return Stream.fromIterable(Array.from({ length: count }, (_, i) => rows.slice(i * 100, (i + 1) * 100).batches).flat())
}

/** All rows of a query, as one Arrow table. */
export const rowsOf = (sql: string, options?: Readonly<Record<string, string>>) =>
  Effect.flatMap(Connection.Connection, (conn) =>
    Effect.map(Stream.runCollect(conn.query(sql, options)), (batches) => batches))

/** The ids (column `id`, numbers) of batches. */
export const idsOf = (batches: ReadonlyArray<Arrow.RecordBatch>): Array<number> =>
  batches.flatMap((b) => Array.from(b.getChild("id")!.toArray() as ArrayLike<number>, Number))

/** The count a driver's `count` SQL returns. */
export const countOf = (driver: ConformanceDriver, table: string) =>
  Effect.map(rowsOf(driver.sql.count(table)), (batches) => Number(batches[0]!.getChildAt(0)!.get(0)))

/** The typed failure of an exit; throws (failing the test) on success or on a defect. */
export const failure = <A>(exit: Exit.Exit<A, AdbcError>): AdbcError => {
  if (Exit.isSuccess(exit)) throw new Error("expected a failure, got a success")
  const reason = exit.cause.reasons.find((r) => r._tag === "Fail")
  if (reason === undefined || reason._tag !== "Fail") throw new Error(`expected a typed failure: ${exit.cause}`)
  return reason.error
}
