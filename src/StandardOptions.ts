/**
 * The standard ADBC option keys used by both drivers (names as in `adbc.h`, ADBC 1.1.0).
 *
 * @since 0.1.0
 */
import { ALL_LEVELS, CONNECT_LEVELS, DATABASE_LEVEL, option, OptionSchemas, STATEMENT_LEVEL } from "./Options.ts"

/** Connection URI. @category options @since 0.1.0 */
export const Uri = option({ key: "uri", schema: OptionSchemas.nonEmptyString, accepted: "a connection URI", levels: DATABASE_LEVEL, secret: true })
/** Basic-authentication user. @category options @since 0.1.0 */
export const Username = option({ key: "username", schema: OptionSchemas.string, accepted: "a user name", levels: DATABASE_LEVEL })
/** Basic-authentication password. @category options @since 0.1.0 */
export const Password = option({ key: "password", schema: OptionSchemas.string, accepted: "a password", levels: DATABASE_LEVEL, secret: true })

/** Autocommit. @category options @since 0.1.0 */
export const Autocommit = option({ key: "adbc.connection.autocommit", schema: OptionSchemas.boolean, accepted: "`true` or `false`", levels: CONNECT_LEVELS, default: true })
/** Read-only connection. @category options @since 0.1.0 */
export const ReadOnly = option({ key: "adbc.connection.readonly", schema: OptionSchemas.boolean, accepted: "`true` or `false`", levels: CONNECT_LEVELS })
/** Current catalog. @category options @since 0.1.0 */
export const CurrentCatalog = option({ key: "adbc.connection.catalog", schema: OptionSchemas.string, accepted: "a catalog name", levels: CONNECT_LEVELS })
/** Current schema. @category options @since 0.1.0 */
export const CurrentDbSchema = option({ key: "adbc.connection.db_schema", schema: OptionSchemas.nonEmptyString, accepted: "a schema name", levels: CONNECT_LEVELS })

/**
 * The ADBC isolation level values.
 *
 * @category constants
 * @since 0.1.0
 */
export const IsolationLevels = [
  "adbc.connection.transaction.isolation.default",
  "adbc.connection.transaction.isolation.read_uncommitted",
  "adbc.connection.transaction.isolation.read_committed",
  "adbc.connection.transaction.isolation.repeatable_read",
  "adbc.connection.transaction.isolation.snapshot",
  "adbc.connection.transaction.isolation.serializable",
  "adbc.connection.transaction.isolation.linearizable"
] as const
/** Transaction isolation level. @category options @since 0.1.0 */
export const IsolationLevel = option({
  key: "adbc.connection.transaction.isolation_level",
  schema: OptionSchemas.literals(IsolationLevels),
  accepted: IsolationLevels.join(", "),
  levels: CONNECT_LEVELS
})

/**
 * The ADBC ingest modes.
 *
 * @category constants
 * @since 0.1.0
 */
export const IngestModes = [
  "adbc.ingest.mode.create",
  "adbc.ingest.mode.append",
  "adbc.ingest.mode.replace",
  "adbc.ingest.mode.create_append"
] as const
/** An ingest mode value. @category models @since 0.1.0 */
export type IngestMode = (typeof IngestModes)[number]

/** Ingest target table. @category options @since 0.1.0 */
export const IngestTargetTable = option({ key: "adbc.ingest.target_table", schema: OptionSchemas.nonEmptyString, accepted: "a table name", levels: STATEMENT_LEVEL })
/** Ingest mode. @category options @since 0.1.0 */
export const IngestMode = option({
  key: "adbc.ingest.mode",
  schema: OptionSchemas.literals(IngestModes),
  accepted: IngestModes.join(", "),
  levels: STATEMENT_LEVEL,
  default: "adbc.ingest.mode.create"
})
/** Ingest target schema. @category options @since 0.1.0 */
export const IngestTargetDbSchema = option({ key: "adbc.ingest.target_db_schema", schema: OptionSchemas.nonEmptyString, accepted: "a schema name", levels: STATEMENT_LEVEL })
/** Ingest target catalog. @category options @since 0.1.0 */
export const IngestTargetCatalog = option({ key: "adbc.ingest.target_catalog", schema: OptionSchemas.nonEmptyString, accepted: "a catalog name", levels: STATEMENT_LEVEL })
/** Ingest into a temporary table. @category options @since 0.1.0 */
export const IngestTemporary = option({
  key: "adbc.ingest.temporary",
  schema: OptionSchemas.boolean,
  accepted: "`true` or `false`",
  levels: STATEMENT_LEVEL,
  default: false
})

/** Incremental execution (partitions only; accepted, only `false` is supported). @category options @since 0.1.0 */
export const ExecIncremental = option({ key: "adbc.statement.exec.incremental", schema: OptionSchemas.boolean, accepted: "`true` or `false`", levels: ALL_LEVELS })

/**
 * Every standard key.
 *
 * @category constants
 * @since 0.1.0
 */
export const StandardOptions = [
  Uri,
  Username,
  Password,
  Autocommit,
  ReadOnly,
  CurrentCatalog,
  CurrentDbSchema,
  IsolationLevel,
  IngestTargetTable,
  IngestMode,
  IngestTargetDbSchema,
  IngestTargetCatalog,
  IngestTemporary,
  ExecIncremental
] as const
