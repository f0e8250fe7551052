/**
 * The commands that write: `ingest` (a file into a table) and `copy` (a query's result from one database into a
 * table on another). Both stream Arrow batches with a progress bar and are atomic: a failed or interrupted run
 * leaves the target table as it was.
 */
import type * as Arrow from "apache-arrow"
import { Config, Console, Context, Effect, Layer, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { type AdbcError, invalidArgument } from "../../src/AdbcError.ts"
import { Connection } from "../../src/Connection.ts"
import * as Std from "../../src/StandardOptions.ts"
import { OptionSchemas } from "../../src/Options.ts"
import { connectionFlags, connectionOf, driverFlag, optionFlag, uriFlag } from "../connect.ts"
import { copyQuery } from "../copy.ts"
import { envConfig, envName, integerFlag, nullFlag, quietFlag, withEnvDefault, withEnvOptional } from "../flags.ts"
import { csvType, formatOfPath, InputFormats, readArrow, readCsv, readParquet } from "../files.ts"
import * as Progress from "../progress.ts"
import { formatCount } from "../progress.ts"

/** Ingest modes, as the ADBC `adbc.ingest.mode.*` values name them. */
const modes = Std.IngestModes.map((m) => m.slice("adbc.ingest.mode.".length)) as Array<
  "create" | "append" | "replace" | "create_append"
>

/** `--table`, `--mode`, `--temporary`, `--schema` of `command` (their variables: `ADBC_INGEST_TABLE`, …). */
const targetFlags = (command: string) => ({
  table: Flag.String("table").pipe(
    Flag.withSchema(OptionSchemas.nonEmptyString),
    Flag.withFallbackConfig(envConfig(envName(command, "table"), OptionSchemas.nonEmptyString)),
    Flag.withDescription(`target table (env ${envName(command, "table")})`)
  ),
  mode: Flag.Literals("mode", modes).pipe(
    withEnvDefault(
      envName(command, "mode"),
      OptionSchemas.literals(modes),
      "create",
      "create (fails if it exists), append, replace, or create_append"
    )
  ),
  temporary: Flag.Boolean("temporary").pipe(
    withEnvDefault(envName(command, "temporary"), OptionSchemas.boolean, false, "create a temporary table")
  ),
  dbSchema: Flag.String("schema").pipe(
    withEnvOptional(envName(command, "schema"), OptionSchemas.nonEmptyString, "target schema")
  )
})

/** The values of {@link targetFlags}. */
interface TargetArgs {
  readonly table: string
  readonly mode: (typeof modes)[number]
  readonly temporary: boolean
  readonly dbSchema: Option.Option<string>
}

/**
 * Rejects target flags that cannot work together, before any I/O: ADBC's `adbc.ingest.temporary` excludes a target
 * schema (a temporary table lives where the session keeps its own), and every `adbc` run opens a new session, in
 * which no temporary table exists yet to append to.
 */
const checkTarget = (args: TargetArgs): Effect.Effect<void, AdbcError> =>
  args.temporary && Option.isSome(args.dbSchema)
    ? Effect.fail(invalidArgument(
      `--temporary and --schema ${args.dbSchema.value} cannot be combined: a temporary table is created where the session keeps its own, not in a named schema`
    ))
    : args.temporary && args.mode === "append"
    ? Effect.fail(invalidArgument(
      `--temporary with --mode append: a temporary table lives only in its session and each adbc run opens a new one, so there is none to append to; use --mode create`
    ))
    : Effect.void

/** How the target is named in the command's last line: `S.T`, or `T (temporary, gone when the session ended)`. */
const targetName = (args: TargetArgs): string =>
  args.temporary
    ? `${args.table} (temporary, gone when the session ended)`
    : Option.isSome(args.dbSchema)
    ? `${args.dbSchema.value}.${args.table}`
    : args.table

const ingestOptions = (args: TargetArgs) => ({
  targetTable: args.table,
  mode: args.mode,
  ...(args.temporary ? { temporary: true } : {}),
  ...(Option.isSome(args.dbSchema) ? { targetDbSchema: args.dbSchema.value } : {})
})

/** `adbc ingest FILE --table T`. */
export const ingest = Command.make(
  "ingest",
  {
    file: Argument.String("file").pipe(Argument.withDescription("Arrow IPC (file or stream), Parquet or CSV file")),
    format: Flag.Literals("format", InputFormats).pipe(
      withEnvOptional(
        envName("ingest", "format"),
        OptionSchemas.literals(InputFormats),
        "file format; default from the extension (.arrow/.arrows/.feather/.ipc, .parquet/.pq, .csv/.tsv/.txt)"
      )
    ),
    column: Flag.String("column").pipe(
      Flag.atLeast(0),
      Flag.withDescription("CSV column type NAME:TYPE (repeatable; int32, int64, float64, decimal(P,S), bool, date, timestamp, utf8); others inferred")
    ),
    delimiter: Flag.String("delimiter").pipe(
      withEnvOptional(
        envName("ingest", "delimiter"),
        OptionSchemas.nonEmptyString,
        "CSV field delimiter (\\t or tab for a tab); default a tab for .tsv, else a comma"
      )
    ),
    batchRows: integerFlag(
      "batch-rows",
      OptionSchemas.positiveInt,
      envName("ingest", "batch-rows"),
      10_000,
      "rows per Arrow batch read from CSV and Parquet"
    ),
    nullText: nullFlag("ingest"),
    quiet: quietFlag("ingest"),
    ...targetFlags("ingest"),
    ...connectionFlags()
  },
  (args) =>
    Effect.gen(function*() {
      yield* checkTarget(args)
      const format = Option.getOrUndefined(args.format) ?? formatOfPath(args.file)
      if (format === undefined) {
        return yield* invalidArgument(`cannot tell the format of ${args.file} from its extension: pass --format ${InputFormats.join("|")}`)
      }
      const columns: Record<string, Arrow.DataType> = {}
      for (const spec of args.column) {
        const at = spec.lastIndexOf(":")
        const type = at > 0 ? csvType(spec.slice(at + 1)) : `expected NAME:TYPE`
        if (typeof type === "string") return yield* invalidArgument(`--column ${spec}: ${type}`)
        columns[spec.slice(0, at)] = type
      }
      // The file is opened (and its schema read) before connecting: a bad file fails without network I/O.
      const data = format === "arrow"
        ? yield* readArrow(args.file)
        : format === "parquet"
        ? yield* readParquet(args.file, { batchRows: args.batchRows })
        : yield* readCsv(args.file, {
          columns,
          batchRows: args.batchRows,
          delimiter: Option.getOrUndefined(args.delimiter),
          nullText: args.nullText
        })
      const rows = yield* Effect.flatMap(Connection, (conn) => conn.ingest(data, ingestOptions(args))).pipe(
        Progress.tracked(`ingest ${args.file}`, { operation: "ingest", onFinish: () => {} }),
        Effect.provide(connectionOf(args))
      )
      yield* Console.log(`${formatCount(rows)} rows ingested into ${targetName(args)}`)
    }).pipe(Effect.scoped, Effect.provide(args.quiet ? Progress.layerSilent : Progress.layerStdout))
).pipe(Command.withDescription("Bulk-ingest an Arrow IPC, Parquet or CSV file into a table, streamed in batches (atomic)"))

/** `adbc copy --from-uri … --query SQL --to-uri … --table T`. */
export const copy = Command.make(
  "copy",
  {
    query: Flag.String("query").pipe(
      Flag.withAlias("q"),
      Flag.withFallbackConfig(Config.String(envName("copy", "query"))),
      Flag.withDescription(`the query whose rows are copied (env ${envName("copy", "query")})`)
    ),
    ...targetFlags("copy"),
    fromDriver: driverFlag("from-"),
    fromUri: uriFlag("from-"),
    fromOption: optionFlag("from-"),
    toDriver: driverFlag("to-"),
    toUri: uriFlag("to-"),
    toOption: optionFlag("to-"),
    quiet: quietFlag("copy")
  },
  (args) =>
    Effect.gen(function*() {
      yield* checkTarget(args)
      const from = yield* Layer.build(connectionOf({ driver: args.fromDriver, uri: args.fromUri, option: args.fromOption }))
      const to = yield* Layer.build(connectionOf({ driver: args.toDriver, uri: args.toUri, option: args.toOption }))
      const rows = yield* copyQuery(
        Context.get(from, Connection),
        Context.get(to, Connection),
        args.query,
        ingestOptions(args),
        { step: `copy into ${args.table}`, onFinish: () => {}, callerOptions: { from: args.fromOption, to: args.toOption } }
      )
      yield* Console.log(`${formatCount(rows)} rows copied into ${targetName(args)}`)
    }).pipe(Effect.scoped, Effect.provide(args.quiet ? Progress.layerSilent : Progress.layerStdout))
).pipe(Command.withDescription("Copy a query's result from one database into a table on another, streamed as Arrow batches (atomic)"))
