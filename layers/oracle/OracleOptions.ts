/**
 * The Oracle driver's own option keys (`redo.*`), exactly as the Oracle driver specification's query option and
 * bulk-ingest option tables name them, each with its default and accepted values, plus the `timezone` connection
 * option (the session time zone). The core resolves precedence (statement, then connection, then database).
 *
 * @since 0.1.0
 */
import { ALL_LEVELS, CONNECT_LEVELS, option, OptionSchemas } from "../../src/Options.ts"

/** Mapping of INTERVAL DAY TO SECOND. @category options @since 0.1.0 */
export const DayTimeIntervalType = option({
  key: "redo.query.day_time_interval_type",
  schema: OptionSchemas.literals(["auto", "duration", "monthdaynano", "string"] as const),
  accepted: "`auto`, `duration`, `monthdaynano` or `string`",
  levels: ALL_LEVELS,
  default: "auto"
})
/** Mapping of INTERVAL YEAR TO MONTH. @category options @since 0.1.0 */
export const YearMonthIntervalType = option({
  key: "redo.query.year_month_interval_type",
  schema: OptionSchemas.literals(["auto", "monthdaynano", "string"] as const),
  accepted: "`auto`, `monthdaynano` or `string`",
  levels: ALL_LEVELS,
  default: "auto"
})
/** Mapping of NUMBER without precision and scale, FLOAT(b), REAL and DOUBLE PRECISION. @category options @since 0.1.0 */
export const UnboundedNumberType = option({
  key: "redo.query.unbounded_number_type",
  schema: OptionSchemas.literals(["float64", "string", "int64"] as const),
  accepted: "`float64`, `string` or `int64`",
  levels: ALL_LEVELS,
  default: "float64"
})
/** Mapping of DATE (`date32` is the day only; `timestamp` keeps the time of day). @category options @since 0.1.0 */
export const DateType = option({
  key: "redo.query.date_type",
  schema: OptionSchemas.literals(["date32", "timestamp"] as const),
  accepted: "`date32` or `timestamp`",
  levels: ALL_LEVELS,
  default: "date32"
})
/** Annotate result columns with Arrow extension types. @category options @since 0.1.0 */
export const UseExtensionType = option({
  key: "redo.use_extension_type",
  schema: OptionSchemas.boolean,
  accepted: "`true` or `false`",
  levels: ALL_LEVELS,
  default: false
})
/** Decimal (true) versus double mapping of bounded NUMBER. @category options @since 0.1.0 */
export const UseHighPrecision = option({
  key: "redo.use_high_precision",
  schema: OptionSchemas.boolean,
  accepted: "`true` or `false`",
  levels: ALL_LEVELS,
  default: true
})
/** How results are parsed internally. @category options @since 0.1.0 */
export const ExecutionMode = option({
  key: "redo.statement.execution_mode",
  schema: OptionSchemas.literals(["row", "batch"] as const),
  accepted: "`row` or `batch`",
  levels: ALL_LEVELS,
  default: "row"
})
/** Bytes fetched on initial execution (whole rows that fit). @category options @since 0.1.0 */
export const PrefetchBytes = option({
  key: "redo.statement.prefetch_bytes",
  schema: OptionSchemas.positiveInt,
  accepted: "a positive integer",
  levels: ALL_LEVELS
})
/** Rows fetched on initial execution. @category options @since 0.1.0 */
export const PrefetchRows = option({
  key: "redo.statement.prefetch_rows",
  schema: OptionSchemas.positiveInt,
  accepted: "a positive integer",
  levels: ALL_LEVELS,
  default: 1
})
/** Rows per server round trip (100 is node-oracledb's own default). @category options @since 0.1.0 */
export const FetchArraySize = option({
  key: "redo.statement.fetch_array_size",
  schema: OptionSchemas.positiveInt,
  accepted: "a positive integer",
  levels: ALL_LEVELS,
  default: 100
})
/**
 * Approximate byte limit per Arrow batch, counted in the batch's Arrow buffers: values, offsets and validity
 * (0: no limit). It is checked row by row, also inside one fetched page, in both execution modes: a batch ends
 * after the row with which it reaches the limit, or before a row that would take it past the limit, so a batch of
 * several rows holds at most the limit plus one row (best effort: below twice the limit), and a row larger than the
 * limit alone is a batch of its own. `redo.statement.read_batch_rows` applies as well, whichever is reached first.
 *
 * @category options
 * @since 0.1.0
 */
export const ReadBatchApproxBytes = option({
  key: "redo.statement.read_batch_approx_bytes",
  schema: OptionSchemas.nonNegativeInt,
  accepted: "a nonnegative integer",
  levels: ALL_LEVELS,
  default: 0
})
/** Hard limit of rows per Arrow batch. @category options @since 0.1.0 */
export const ReadBatchRows = option({
  key: "redo.statement.read_batch_rows",
  schema: OptionSchemas.positiveInt,
  accepted: "a positive integer",
  levels: ALL_LEVELS,
  default: 65_536
})
/**
 * Rows per database call of bulk ingest and of a statement bound to many parameter rows (executeMany), whatever the
 * Arrow batch sizes: small batches are sent together, large ones split.
 *
 * @category options
 * @since 0.1.0
 */
export const InsertBatchRows = option({
  key: "redo.statement.insert_batch_rows",
  schema: OptionSchemas.positiveInt,
  accepted: "a positive integer",
  levels: ALL_LEVELS,
  default: 65_536
})
/** Database type of ingested struct and list columns (`object` is not implemented). @category options @since 0.1.0 */
export const IngestStructType = option({
  key: "redo.ingest.struct_type",
  schema: OptionSchemas.literals(["blob", "json", "nvarchar2", "object"] as const),
  accepted: "`blob`, `json`, `nvarchar2` or `object`",
  levels: ALL_LEVELS,
  default: "object"
})
/**
 * Tablespace in which ingest creates its table, named as in SQL: `users` is USERS, a name in
 * double quotes (`"Mixed"`) is kept exactly.
 *
 * @category options
 * @since 0.1.0
 */
export const IngestTablespace = option({
  key: "redo.ingest.tablespace",
  schema: OptionSchemas.nonEmptyString,
  accepted: "a tablespace name",
  levels: ALL_LEVELS
})
/**
 * Characters (CLOB, NCLOB) or bytes (BLOB) of each LOB value the server sends with its locator: a
 * LOB no longer than this needs no LOB read round trip. `0` turns LOB prefetch off: every non-empty LOB is read
 * through its locator, as node-oracledb itself does. Set at connect. Beyond the Oracle driver specification.
 *
 * @category options
 * @since 0.1.0
 */
export const LobPrefetchLength = option({
  key: "redo.connection.lob_prefetch_length",
  schema: OptionSchemas.nonNegativeInt,
  accepted: "a non-negative integer (0 turns LOB prefetch off)",
  levels: CONNECT_LEVELS,
  default: 4000
})
/**
 * The session time zone (`UTC`, an offset such as `-05:00`, or a region such as `Europe/Paris`): set by an `ALTER
 * SESSION SET TIME_ZONE` right after logon, so TIMESTAMP WITH LOCAL TIME ZONE values and CURRENT_TIMESTAMP-like
 * functions use it. UTC is recommended, and is the session zone when neither this option nor the URI parameter is
 * set (never the Node process's zone, which oracledb's logon would otherwise send).
 *
 * @category options
 * @since 0.1.0
 */
export const TimeZone = option({
  key: "timezone",
  schema: OptionSchemas.nonEmptyString,
  accepted: "a time zone: UTC, an offset such as -05:00, or a region name",
  levels: CONNECT_LEVELS
})

/**
 * Every option this driver declares.
 *
 * @category constants
 * @since 0.1.0
 */
export const OracleOptions = [
  DayTimeIntervalType,
  YearMonthIntervalType,
  UnboundedNumberType,
  DateType,
  UseExtensionType,
  UseHighPrecision,
  ExecutionMode,
  PrefetchBytes,
  PrefetchRows,
  FetchArraySize,
  ReadBatchApproxBytes,
  ReadBatchRows,
  InsertBatchRows,
  IngestStructType,
  IngestTablespace,
  LobPrefetchLength,
  TimeZone
] as const
