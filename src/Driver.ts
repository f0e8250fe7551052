/**
 * The driver port: the small set of operations a database driver supplies. The core turns it into ADBC behaviour
 * (option precedence, readers with row caps, catalog results, ingest modes, transactions), so a driver only says
 * how to talk to its database.
 *
 * @since 0.1.0
 */
import type * as Arrow from "apache-arrow"
import { Context } from "effect"
import type { Effect, Scope } from "effect"
import type { AdbcError } from "./AdbcError.ts"
import type { Page } from "./arrow/index.ts"
import type { CatalogRows, ObjectDepth, GetObjectsFilters, InfoValue } from "./catalog/index.ts"
import type { OptionSpec, ResolvedOptions } from "./Options.ts"

/**
 * How a reader caps the rows of each Arrow batch.
 * - `best-effort`: whole fetched pages are appended; a batch may slightly exceed the cap (seed A).
 * - `hard`: no batch ever exceeds the cap (seed B).
 *
 * @category models
 * @since 0.1.0
 */
export type BatchCapMode = "best-effort" | "hard"

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
 * The outcome of running one SQL statement.
 *
 * @category models
 * @since 0.1.0
 */
export type DriverResult =
  | { readonly _tag: "Rows"; readonly cursor: DriverCursor }
  | { readonly _tag: "Count"; readonly rowsAffected: number }

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
 * Where ingested rows go.
 *
 * @category models
 * @since 0.1.0
 */
export interface IngestTarget {
  readonly table: string
  readonly dbSchema?: string | undefined
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
 * @since 0.2.0
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
  readonly columnType: (field: Arrow.Field) => Effect.Effect<string, AdbcError>
  /** SQL creating the target table. */
  readonly createTableSql: (target: IngestTarget, columns: ReadonlyArray<IngestColumn>) => string
  /** SQL dropping the target table. */
  readonly dropTableSql: (target: IngestTarget) => string
  /** The columns of the existing target table as an Arrow schema, or undefined when it does not exist. */
  readonly describeTarget: (target: IngestTarget) => Effect.Effect<Arrow.Schema | undefined, AdbcError>
  /** Whether an Arrow field can be appended into an existing column of the given Arrow type. */
  readonly isCompatible: (incoming: Arrow.Field, existing: Arrow.Field) => boolean
  /** How ingest DDL is made atomic; without it a failed create or replace may leave the table created or dropped. */
  readonly ddl?: IngestDdl | undefined
  /** Inserts one batch; returns rows inserted. */
  readonly insertBatch: (
    target: IngestTarget,
    batch: Arrow.RecordBatch,
    options: ResolvedOptions
  ) => Effect.Effect<number, AdbcError>
}

/**
 * Optional features a driver declares.
 *
 * @category models
 * @since 0.1.0
 */
export interface DriverCapabilities {
  readonly ingestTemporary: boolean
  readonly ingestTargetCatalog: boolean
  readonly parameterSchema: boolean
  readonly savepoints: boolean
}

/**
 * One open database session.
 *
 * @category models
 * @since 0.1.0
 */
export interface DriverConnection {
  /** Runs SQL (with optional bound parameters); returns rows or a count. Cursors live in the given scope. */
  readonly execute: (
    sql: string,
    parameters: BoundParameters | undefined,
    options: ResolvedOptions
  ) => Effect.Effect<DriverResult, AdbcError, Scope.Scope>
  /** The result schema of `sql` without running it; NOT_IMPLEMENTED where the database cannot tell. */
  readonly describe: (sql: string, options: ResolvedOptions) => Effect.Effect<Arrow.Schema, AdbcError>
  /** The parameter schema of `sql`. */
  readonly parameterSchema: (sql: string, options: ResolvedOptions) => Effect.Effect<Arrow.Schema, AdbcError>
  readonly setAutocommit: (enabled: boolean) => Effect.Effect<void, AdbcError>
  readonly commit: Effect.Effect<void, AdbcError>
  readonly rollback: Effect.Effect<void, AdbcError>
  readonly savepoint: (name: string) => Effect.Effect<void, AdbcError>
  readonly rollbackToSavepoint: (name: string) => Effect.Effect<void, AdbcError>
  readonly setReadOnly: (readOnly: boolean) => Effect.Effect<void, AdbcError>
  readonly setIsolationLevel: (level: string) => Effect.Effect<void, AdbcError>
  readonly currentCatalog: Effect.Effect<string, AdbcError>
  readonly setCurrentCatalog: (catalog: string) => Effect.Effect<void, AdbcError>
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
  /** Stops the statement currently running on this session, if any. */
  readonly cancel: Effect.Effect<void, AdbcError>
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
  /** The driver's own option keys (`dba.*`, `redo.*`). */
  readonly options: ReadonlyArray<OptionSpec<any>>
  readonly capabilities: DriverCapabilities
  /** How readers cap batch rows, and the option that sets the cap with its default. */
  readonly batchCap: {
    readonly mode: BatchCapMode
    readonly option: OptionSpec<number>
    readonly defaultRows: number
    /** The option setting an approximate byte cap per batch (0 or unset: none), where the driver has one. */
    readonly bytesOption?: OptionSpec<number> | undefined
  }
  /** Checks option combinations before any network I/O (URI shape, authentication pairs, ...). */
  readonly validate: (options: ResolvedOptions) => Effect.Effect<void, AdbcError>
  /** Opens a session; closed when the scope closes. */
  readonly connect: (options: ResolvedOptions) => Effect.Effect<DriverConnection, AdbcError, Scope.Scope>
}

/**
 * The driver in use, provided by a driver Layer (`layers/hana`, `layers/oracle`).
 *
 * @category services
 * @since 0.1.0
 */
export class Driver extends Context.Service<Driver, DriverShape>()("effect-adbc/Driver") {}
