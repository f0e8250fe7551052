/**
 * The commands that read from one database: `query`, `info`, `objects`, `table-schema`, `table-types`.
 */
import { readFile } from "node:fs/promises"
import * as Arrow from "apache-arrow"
import { Effect, Option, Stream } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { type AdbcError, adbcError, invalidArgument } from "../../src/AdbcError.ts"
import { InfoCode, ObjectDepth } from "../../src/catalog/index.ts"
import { Connection } from "../../src/Connection.ts"
import { OptionSchemas } from "../../src/Options.ts"
import { rowsOf } from "../cells.ts"
import { connectionFlags, connectionOf } from "../connect.ts"
import { envName, integerFlag, withEnvDefault, withEnvOptional } from "../flags.ts"
import { openSink, OutputFormat, writeResult } from "../output.ts"

/** `--format`, `--output`, `--max-rows`, `--max-width`: how results are written. */
const outputFlags = {
  format: Flag.Literals("format", OutputFormat.literals).pipe(
    withEnvDefault(
      envName("format"),
      OptionSchemas.literals(OutputFormat.literals),
      "table",
      "table (aligned, first rows), csv, jsonl, arrow (IPC file) or arrows (IPC stream)"
    )
  ),
  output: Flag.String("output").pipe(
    Flag.withAlias("o"),
    withEnvOptional(envName("output"), OptionSchemas.nonEmptyString, "write to this file instead of stdout")
  ),
  maxRows: integerFlag(
    "max-rows",
    OptionSchemas.positiveInt,
    envName("max-rows"),
    100,
    "rows the table format shows; the rest are counted"
  ),
  maxWidth: integerFlag(
    "max-width",
    OptionSchemas.positiveInt,
    envName("max-width"),
    40,
    "widest column of the table format, in characters"
  )
}

type OutputArgs = {
  readonly format: OutputFormat
  readonly output: Option.Option<string>
  readonly maxRows: number
  readonly maxWidth: number
}

/** Writes one result (schema + batches) as the output flags say. */
const emit = (args: OutputArgs, schema: Arrow.Schema, batches: Stream.Stream<Arrow.RecordBatch, AdbcError>) =>
  Effect.gen(function*() {
    const sink = yield* openSink(Option.getOrUndefined(args.output))
    return yield* writeResult(args.format, schema, batches, sink, args)
  })

/** Writes a catalog result (one batch). */
const emitBatch = (args: OutputArgs, batch: Arrow.RecordBatch) => emit(args, batch.schema, Stream.make(batch))

/** `adbc query SQL | --file F`. */
export const query = Command.make(
  "query",
  {
    sql: Argument.String("sql").pipe(Argument.optional, Argument.withDescription("the SQL to run")),
    file: Flag.String("file").pipe(
      Flag.withAlias("f"),
      withEnvOptional(envName("query", "file"), OptionSchemas.nonEmptyString, "read the SQL from this file")
    ),
    ...outputFlags,
    ...connectionFlags()
  },
  (args) =>
    Effect.gen(function*() {
      const file = Option.getOrUndefined(args.file)
      const sql = Option.isSome(args.sql)
        ? args.sql.value
        : file !== undefined
        ? yield* Effect.tryPromise({
          try: () => readFile(file, "utf8"),
          catch: (cause) => adbcError("IO", `cannot read ${file}: ${(cause as Error).message}`)
        })
        : yield* Effect.fail(invalidArgument("no SQL: give it as the argument or with --file FILE"))
      const conn = yield* Connection
      const reader = yield* conn.executeQuery(sql.trim().replace(/;\s*$/, ""))
      yield* emit(args, reader.schema, reader.batches)
    }).pipe(Effect.scoped, Effect.provide(connectionOf(args)))
).pipe(Command.withDescription("Run a query and print its result (streamed) as a table, CSV, JSON lines or Arrow IPC"))

const infoNames = new Map(Object.entries(InfoCode).map(([name, code]) => [code as number, name]))

/** `adbc info`. */
export const info = Command.make(
  "info",
  { ...outputFlags, ...connectionFlags() },
  (args) =>
    Effect.gen(function*() {
      const conn = yield* Connection
      const batch = yield* conn.getInfo()
      const codes = [...(batch.getChild("info_name") ?? [])] as Array<number>
      const values = [...(batch.getChild("info_value") ?? [])].map((v) => (v === null ? null : String(v)))
      const table = new Arrow.Table({
        info_name: Arrow.vectorFromArray(codes.map((c) => infoNames.get(c) ?? String(c)), new Arrow.Utf8()),
        info_code: Arrow.vectorFromArray(codes, new Arrow.Uint32()),
        info_value: Arrow.vectorFromArray(values, new Arrow.Utf8())
      })
      yield* emit(args, table.schema, Stream.fromIterable(table.batches))
    }).pipe(Effect.scoped, Effect.provide(connectionOf(args)))
).pipe(Command.withDescription("Print the driver's and database's GetInfo values"))

const depths = {
  all: ObjectDepth.ALL,
  catalogs: ObjectDepth.CATALOGS,
  db_schemas: ObjectDepth.DB_SCHEMAS,
  tables: ObjectDepth.TABLES,
  columns: ObjectDepth.COLUMNS
} as const
const depthNames = Object.keys(depths) as Array<keyof typeof depths>
const pattern = (name: string, what: string) =>
  Flag.String(name).pipe(
    withEnvOptional(envName("objects", name), OptionSchemas.string, `${what} name pattern (SQL LIKE: % and _)`)
  )

/** `adbc objects`. */
export const objects = Command.make(
  "objects",
  {
    depth: Flag.Literals("depth", depthNames).pipe(
      withEnvDefault(
        envName("objects", "depth"),
        OptionSchemas.literals(depthNames),
        "all",
        "how deep to list: all (= columns), catalogs, db_schemas, tables"
      )
    ),
    catalog: pattern("catalog", "catalog"),
    dbSchema: pattern("schema", "schema"),
    table: pattern("table", "table"),
    column: pattern("column", "column"),
    json: Flag.Boolean("json").pipe(
      withEnvDefault(envName("objects", "json"), OptionSchemas.boolean, false, "print GetObjects' nested result as JSON lines")
    ),
    ...connectionFlags()
  },
  (args) =>
    Effect.gen(function*() {
      const conn = yield* Connection
      const batch = yield* conn.getObjects({
        depth: depths[args.depth],
        catalog: Option.getOrUndefined(args.catalog),
        dbSchema: Option.getOrUndefined(args.dbSchema),
        tableName: Option.getOrUndefined(args.table),
        columnName: Option.getOrUndefined(args.column)
      })
      const sink = yield* openSink(undefined)
      if (args.json) {
        yield* writeResult("jsonl", batch.schema, Stream.make(batch), sink, { maxRows: 0, maxWidth: 0 })
        return
      }
      const lines: Array<string> = []
      for (const catalog of rowsOf(batch)) {
        lines.push(`catalog ${catalog["catalog_name"] ?? "(none)"}`)
        for (const schema of rowsOf(catalog["catalog_db_schemas"])) {
          lines.push(`  schema ${schema["db_schema_name"] ?? "(none)"}`)
          for (const table of rowsOf(schema["db_schema_tables"])) {
            lines.push(`    ${String(table["table_type"]).toLowerCase()} ${table["table_name"]}`)
            for (const column of rowsOf(table["table_columns"])) {
              const nullable = column["is_nullable"] === "NO" ? " NOT NULL" : ""
              lines.push(`      ${column["column_name"]} ${column["xdbc_type_name"] ?? ""}${nullable}`)
            }
          }
        }
      }
      yield* sink.write(`${lines.join("\n")}\n`)
    }).pipe(Effect.scoped, Effect.provide(connectionOf(args)))
).pipe(Command.withDescription("List catalogs, schemas, tables and columns (GetObjects)"))

/** `adbc table-schema TABLE`. */
export const tableSchema = Command.make(
  "table-schema",
  {
    table: Argument.String("table").pipe(Argument.withDescription("the table's name (exact, not a pattern)")),
    catalog: Flag.String("catalog").pipe(
      withEnvOptional(envName("table-schema", "catalog"), OptionSchemas.nonEmptyString, "the table's catalog")
    ),
    dbSchema: Flag.String("schema").pipe(
      withEnvOptional(envName("table-schema", "schema"), OptionSchemas.nonEmptyString, "the table's schema")
    ),
    ...outputFlags,
    ...connectionFlags()
  },
  (args) =>
    Effect.gen(function*() {
      const conn = yield* Connection
      const schema = yield* conn.getTableSchema(Option.getOrUndefined(args.catalog), Option.getOrUndefined(args.dbSchema), args.table)
      const table = new Arrow.Table({
        column: Arrow.vectorFromArray(schema.fields.map((f) => f.name), new Arrow.Utf8()),
        arrow_type: Arrow.vectorFromArray(schema.fields.map((f) => String(f.type)), new Arrow.Utf8()),
        nullable: Arrow.vectorFromArray(schema.fields.map((f) => f.nullable), new Arrow.Bool()),
        metadata: Arrow.vectorFromArray(
          schema.fields.map((f) => [...f.metadata].map(([k, v]) => `${k}=${v}`).join(" ")),
          new Arrow.Utf8()
        )
      })
      yield* emit(args, table.schema, Stream.fromIterable(table.batches))
    }).pipe(Effect.scoped, Effect.provide(connectionOf(args)))
).pipe(Command.withDescription("Print a table's Arrow schema (GetTableSchema)"))

/** `adbc table-types`. */
export const tableTypes = Command.make(
  "table-types",
  { ...outputFlags, ...connectionFlags() },
  (args) =>
    Effect.gen(function*() {
      const conn = yield* Connection
      yield* emitBatch(args, yield* conn.getTableTypes)
    }).pipe(Effect.scoped, Effect.provide(connectionOf(args)))
).pipe(Command.withDescription("List the table types the database has (GetTableTypes)"))
