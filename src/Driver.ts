/**
 * The driver port (v2): the operations a database driver supplies. The core turns them into ADBC behaviour (option
 * precedence, readers with row and byte caps, OUT-parameter columns, catalog results, ingest modes, transactions),
 * so a driver only says how to talk to its database.
 *
 * Required hooks are what every relational database has. Optional features are optional members
 * (`parameterSchema`, `savepoints`, `readOnly`, `isolationLevel`, `setCurrentCatalog`, `describe`, ingest `targets`,
 * `outParameters`): a driver leaves out what its database lacks, and the core answers NOT_IMPLEMENTED naming the
 * feature and the driver. No driver writes a NOT_IMPLEMENTED stub.
 *
 * @since 0.1.0
 */
import type * as Arrow from "apache-arrow"
import { Context } from "effect"
import type { Effect, Scope } from "effect"
import { type AdbcError, notImplemented } from "./AdbcError.ts"
import type { Page } from "./arrow/index.ts"
import type { CatalogRows, GetObjectsFilters, InfoValue, ObjectDepth } from "./catalog/index.ts"
import type { OptionSpec, OptionWithDefault, ResolvedOptions } from "./Options.ts"

/**
 * How a reader caps the rows of each Arrow batch.
 * - `best-effort`: whole fetched pages are appended; a batch may exceed the cap by less than one page (HANA).
 * - `hard`: no batch ever exceeds the cap (Oracle's `read_batch_rows`).
 *
 * @category models
 * @since 0.1.0
 */
export type BatchCapMode = "best-effort" | "hard"

/**
 * What the caller asked for: `query` (ADBC ExecuteQuery: a result is read) or `update` (ExecuteUpdate: rows affected
 * only). Drivers use it to pick the client call (a cursor or not, prefetch or not); a query that returns no rows
 * under `query` is still a valid empty result.
 *
 * @category models
 * @since 0.1.0
 */
export type CallIntent = "query" | "update"

/**
 * The direction of a bound parameter.
 *
 * @category models
 * @since 0.1.0
 */
export type ParameterDirection = "in" | "out" | "inout"

/**
 * An open server-side result: a schema and its pages of rows.
 *
 * @category models
 * @since 0.1.0
 */
export interface DriverCursor {
  readonly schema: Arrow.Schema
  /** The next page of rows, or undefined when the result is exhausted. */
  readonly nextPage: Effect.Effect<Page | undefined, AdbcError>
  /** Releases the server cursor. Called exactly once, also after exhaustion, failure or interruption. */
  readonly close: Effect.Effect<void>
}

/**
 * Values of OUT and IN/OUT parameters after a call: one field and one value per such parameter, in bind order.
 * Values are what `Arrow.vectorFromArray([value], field.type)` accepts.
 *
 * @category models
 * @since 0.1.0
 */
export interface OutValues {
  readonly schema: Arrow.Schema
  readonly values: ReadonlyArray<unknown>
}

/**
 * A result with rows. `more` holds further result sets the call produced (Oracle's implicit result sets beyond the
 * first); the core exposes `cursor` only and closes every cursor of `more` unread when the reader is released.
 * `out` holds OUT-parameter values, which the core appends to the result as columns: the first row holds them,
 * later rows hold NULL.
 *
 * @category models
 * @since 0.1.0
 */
export interface DriverRows {
  readonly _tag: "Rows"
  readonly cursor: DriverCursor
  readonly more?: ReadonlyArray<DriverCursor> | undefined
  readonly out?: OutValues | undefined
}

/**
 * A result without rows: the number of rows affected (-1 when unknown) and OUT-parameter values, if any. Under
 * ExecuteQuery, OUT values become a one-row result.
 *
 * @category models
 * @since 0.1.0
 */
export interface DriverCount {
  readonly _tag: "Count"
  readonly rowsAffected: number
  readonly out?: OutValues | undefined
}

/**
 * The outcome of running one SQL statement.
 *
 * @category models
 * @since 0.1.0
 */
export type DriverResult = DriverRows | DriverCount

/**
 * Parameters bound to a statement: Arrow record batches whose columns are the parameters in order.
 *
 * @category models
 * @since 0.1.0
 */
export interface BoundParameters {
  readonly schema: Arrow.Schema
  readonly batches: ReadonlyArray<Arrow.RecordBatch>
}

/**
 * One call of {@link DriverConnection.execute}.
 *
 * @category models
 * @since 0.1.0
 */
export interface ExecuteRequest {
  readonly sql: string
  readonly parameters: BoundParameters | undefined
  readonly options: ResolvedOptions
  readonly intent: CallIntent
}

/**
 * Where ingested rows go. `catalog` is set only when the driver declares {@link DriverIngest.targets} `catalog`.
 *
 * @category models
 * @since 0.1.0
 */
export interface IngestTarget {
  readonly table: string
  readonly dbSchema?: string | undefined
  readonly catalog?: string | undefined
  readonly temporary: boolean
}

/**
 * A column of a table the core is about to create.
 *
 * @category models
 * @since 0.1.0
 */
export interface IngestColumn {
  readonly field: Arrow.Field
  /** The database type, from {@link DriverIngest.columnType}. */
  readonly sqlType: string
  readonly nullable: boolean
}

/**
 * How a driver keeps the DDL of an ingest atomic with its rows, so that a failed ingest leaves the target as it was.
 * - `Transactional`: DDL can run inside a transaction once `enable` ran (HANA: `SET TRANSACTION AUTOCOMMIT DDL OFF`);
 *   the core drops and creates inside the ingest's transaction and one rollback undoes all of it. `restore` switches
 *   the session back afterwards.
 * - `BuildAndSwap`: DDL commits implicitly (Oracle); the core fills a new table and renames it into place at the end
 *   (`renameTableSql` renames a table of the target's schema to another name in it).
 *
 * @category models
 * @since 0.1.0
 */
export type IngestDdl =
  | {
    readonly _tag: "Transactional"
    readonly enable: Effect.Effect<void, AdbcError>
    readonly restore: Effect.Effect<void, AdbcError>
  }
  | { readonly _tag: "BuildAndSwap"; readonly renameTableSql: (from: IngestTarget, toTable: string) => string }

/**
 * The driver's part of bulk ingest: type mapping, DDL text and the bulk insert path. The core decides what happens
 * in each mode, keeps the work atomic and counts rows.
 *
 * @category models
 * @since 0.1.0
 */
export interface DriverIngest {
  /** The database column type for an Arrow field, or a failure naming the field when it cannot be created. */
  readonly columnType: (field: Arrow.Field, options: ResolvedOptions) => Effect.Effect<string, AdbcError>
  /** SQL creating the target table. */
  readonly createTableSql: (target: IngestTarget, columns: ReadonlyArray<IngestColumn>, options: ResolvedOptions) => string
  /** SQL dropping the target table. */
  readonly dropTableSql: (target: IngestTarget) => string
  /** The columns of the existing target table as an Arrow schema, or undefined when it does not exist. */
  readonly describeTarget: (target: IngestTarget) => Effect.Effect<Arrow.Schema | undefined, AdbcError>
  /** Whether an Arrow field can be appended into an existing column of the given Arrow type. */
  readonly isCompatible: (incoming: Arrow.Field, existing: Arrow.Field) => boolean
  /** How ingest DDL is made atomic; without it a failed create or replace may leave the table created or dropped. */
  readonly ddl?: IngestDdl | undefined
  /**
   * Inserts one batch whose first row is row `firstRow` (0-based) of the whole ingest; returns rows inserted. A
   * driver with {@link finishInsert} may hold rows back to send them with the next batches' in one call.
   */
  readonly insertBatch: (
    target: IngestTarget,
    batch: Arrow.RecordBatch,
    options: ResolvedOptions,
    firstRow: number
  ) => Effect.Effect<number, AdbcError>
  /**
   * Inserts the rows {@link insertBatch} held back, after the last batch of an ingest (inside its atomic unit), whose
   * batches held `rows` rows in all; returns how many it inserted. A failed or interrupted ingest never calls it, and
   * the next ingest starts at `firstRow` 0 (or, with no rows at all, calls it with `rows` 0): rows held back by a
   * failed ingest must never be sent.
   */
  readonly finishInsert?:
    | ((target: IngestTarget, options: ResolvedOptions, rows: number) => Effect.Effect<number, AdbcError>)
    | undefined
  /**
   * Ends what {@link insertBatch} left running when an ingest stops early, before the core rolls back (so that the
   * rollback never queues behind a call's reply): a driver that keeps a call in flight across batches drops its held
   * rows and, when `interrupted`, breaks the call on the server (bounded by the driver: a server that does not answer
   * gets the connection dropped; never fails); after a failure it lets the call end and fails with the call's error
   * when it failed, since that call's rows come before whatever stopped the ingest.
   */
  readonly stopInsert?: ((interrupted: boolean) => Effect.Effect<void, AdbcError>) | undefined
  /**
   * Optional targets: `temporary` (ADBC `adbc.ingest.temporary`), `catalog` (`adbc.ingest.target_catalog`). Absent
   * ones fail NOT_IMPLEMENTED in the core before any I/O.
   */
  readonly targets?: { readonly temporary?: boolean | undefined; readonly catalog?: boolean | undefined } | undefined
}

/**
 * Savepoints inside a transaction (used by ingest within the caller's transaction to undo only its own rows).
 *
 * @category models
 * @since 0.1.0
 */
export interface DriverSavepoints {
  readonly create: (name: string) => Effect.Effect<void, AdbcError>
  readonly rollbackTo: (name: string) => Effect.Effect<void, AdbcError>
}

/**
 * One open database session.
 *
 * @category models
 * @since 0.1.0
 */
export interface DriverConnection {
  /** Runs SQL (with optional bound parameters); returns rows or a count. Cursors live in the given scope. */
  readonly execute: (request: ExecuteRequest) => Effect.Effect<DriverResult, AdbcError, Scope.Scope>
  /** The result schema of `sql` without running it (Prepare, ExecuteSchema). Optional. */
  readonly describe?: ((sql: string, options: ResolvedOptions) => Effect.Effect<Arrow.Schema, AdbcError>) | undefined
  /** The parameter schema of `sql` (GetParameterSchema). Optional. */
  readonly parameterSchema?:
    | ((sql: string, options: ResolvedOptions) => Effect.Effect<Arrow.Schema, AdbcError>)
    | undefined
  /**
   * Optional: the `db.namespace` the server reported while connecting (no extra round trip); it replaces the
   * endpoint's namespace on the spans after the connect span.
   */
  readonly namespace?: string | undefined
  readonly setAutocommit: (enabled: boolean) => Effect.Effect<void, AdbcError>
  readonly commit: Effect.Effect<void, AdbcError>
  readonly rollback: Effect.Effect<void, AdbcError>
  /** Optional savepoints. */
  readonly savepoints?: DriverSavepoints | undefined
  /** Optional read-only sessions (`adbc.connection.readonly`); without it only `false` is accepted. */
  readonly setReadOnly?: ((readOnly: boolean) => Effect.Effect<void, AdbcError>) | undefined
  /** Optional isolation levels (`adbc.connection.transaction.isolation_level`); fails for levels the database lacks. */
  readonly setIsolationLevel?: ((level: string) => Effect.Effect<void, AdbcError>) | undefined
  readonly currentCatalog: Effect.Effect<string, AdbcError>
  /** Optional: switching catalogs (`adbc.connection.catalog`); without it the catalog is read-only. */
  readonly setCurrentCatalog?: ((catalog: string) => Effect.Effect<void, AdbcError>) | undefined
  readonly currentDbSchema: Effect.Effect<string, AdbcError>
  readonly setCurrentDbSchema: (schema: string) => Effect.Effect<void, AdbcError>
  /** Info values this connection knows (vendor name and version, ...). */
  readonly info: Effect.Effect<ReadonlyMap<number, InfoValue>, AdbcError>
  /** Catalog rows for GetObjects; the core filters them again and builds the Arrow result. */
  readonly catalogRows: (
    depth: ObjectDepth,
    filters: GetObjectsFilters
  ) => Effect.Effect<CatalogRows, AdbcError>
  /** The Arrow schema of an existing table; NOT_FOUND when there is none. */
  readonly tableSchema: (
    catalog: string | undefined,
    dbSchema: string | undefined,
    table: string
  ) => Effect.Effect<Arrow.Schema, AdbcError>
  readonly tableTypes: ReadonlyArray<string>
  readonly ingest: DriverIngest
  /**
   * Stops the call running on this session (an execute or a fetch) and marks the session's open cursors cancelled, so
   * that their next `nextPage` fails CANCELLED and releases the server cursor; INVALID_STATE with neither.
   */
  readonly cancel: Effect.Effect<void, AdbcError>
  /** Whether the session can still be used, judged without I/O (its socket is open); a pool discards it when not. */
  readonly isUsable?: (() => boolean) | undefined
  /**
   * Optional: gives the session up at once without asking the server (closes its socket), so requests in flight fail
   * IO and the server rolls back what was open. The core calls it when a rollback after an interruption or a failure
   * got no answer in time; without it the session is only marked broken until its scope closes.
   */
  readonly abort?: Effect.Effect<void> | undefined
}

/**
 * How readers cut batches: the row cap (an option carrying its default) applied `mode`-wise, and optionally an
 * approximate byte cap (0 or unset: none).
 *
 * @category models
 * @since 0.1.0
 */
export interface DriverBatchCap {
  readonly mode: BatchCapMode
  readonly rows: OptionWithDefault<number>
  readonly bytes?: OptionWithDefault<number> | undefined
}

/**
 * OUT and IN/OUT parameters: how the driver reads a bound field's direction (Oracle: field metadata
 * `<prefix>:parameter_type` = `out` / `inout`). Without it every bound field is an IN parameter.
 *
 * @category models
 * @since 0.1.0
 */
export interface DriverOutParameters {
  readonly direction: (field: Arrow.Field) => ParameterDirection
}

/**
 * Where a connection goes, for telemetry (OpenTelemetry `server.address`, `server.port`, `db.namespace`). Read from
 * the options without I/O; never holds a user name, a password or the URI itself.
 *
 * @category models
 * @since 0.1.0
 */
export interface DriverEndpoint {
  readonly address?: string | undefined
  readonly port?: number | undefined
  readonly namespace?: string | undefined
  /** The database's own span attributes (`oracle.db.service`), on every span of the connection. */
  readonly attributes?: Readonly<Record<string, string>> | undefined
}

/**
 * What a driver tells telemetry about its database: the OpenTelemetry `db.system.name`, the endpoint of a
 * connection, and how a vendor code reads as `db.response.status_code` (default: the number as decimal text).
 *
 * @category models
 * @since 0.1.0
 */
export interface DriverTelemetry {
  readonly systemName: string
  readonly endpoint: (options: ResolvedOptions) => DriverEndpoint
  readonly statusCode?: ((vendorCode: number) => string) | undefined
}

/**
 * A database driver.
 *
 * @category models
 * @since 0.1.0
 */
export interface DriverShape {
  /** Driver-manager name (`hana`, `oracle`). */
  readonly name: string
  readonly version: string
  /** The driver's own option keys (`dba.*`, `redo.*`), each with its default where it has one. */
  readonly options: ReadonlyArray<OptionSpec<any>>
  readonly batchCap: DriverBatchCap
  /** Optional OUT-parameter support. */
  readonly outParameters?: DriverOutParameters | undefined
  /** Checks option combinations before any network I/O (URI shape, authentication pairs, ...). */
  readonly validate: (options: ResolvedOptions) => Effect.Effect<void, AdbcError>
  /** Optional: telemetry facts; without it spans carry the driver's name as `db.system.name` and no endpoint. */
  readonly telemetry?: DriverTelemetry | undefined
  /** Opens a session; closed when the scope closes. */
  readonly connect: (options: ResolvedOptions) => Effect.Effect<DriverConnection, AdbcError, Scope.Scope>
}

/**
 * The NOT_IMPLEMENTED error the core returns for an optional feature a driver leaves out, naming both.
 *
 * @category errors
 * @since 0.1.0
 */
export const unsupported = (driver: Pick<DriverShape, "name">, feature: string): AdbcError =>
  notImplemented(`the ${driver.name} driver does not support ${feature}`)

/**
 * The driver in use, provided by a driver Layer (`layers/hana`, `layers/oracle`).
 *
 * @category services
 * @since 0.1.0
 */
export class Driver extends Context.Service<Driver, DriverShape>()("effect-adbc/Driver") {}
