/**
 * The commands that read from one database: `query`, `info`, `objects`, `table-schema`, `table-types`.
 */
import { readFile } from "node:fs/promises"
import { text } from "node:stream/consumers"
import * as Arrow from "apache-arrow"
import { Effect, Option, Stream } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { type AdbcError, adbcError, invalidArgument } from "../../src/AdbcError.ts"
import { InfoCode, ObjectDepth } from "../../src/catalog/index.ts"
import { Connection } from "../../src/Connection.ts"
import { OptionSchemas } from "../../src/Options.ts"
import { rowsOf } from "../cells.ts"
import { connectionFlags, connectionOf } from "../connect.ts"
import { envName, integerFlag, nullFlag, quietFlag, withEnvDefault, withEnvOptional } from "../flags.ts"
import { openSink, OutputFormat, writeResult } from "../output.ts"
import * as Progress from "../progress.ts"
import { formatCount } from "../progress.ts"
import { scriptStatements, statementVerb } from "../script.ts"
import { CliStdio } from "../stdio.ts"

/** `--format`, `--output`, `--max-rows`, `--max-width`: how results are written. */
export const outputFlags = {
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
  readonly nullText?: string
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

/** The SQL text of `adbc query`: the argument, a file, or standard input (`-f -`), read before connecting. */
const sqlText = (sql: Option.Option<string>, file: string | undefined) =>
  Option.isSome(sql)
    ? Effect.succeed(sql.value)
    : file === "-"
    ? Effect.flatMap(CliStdio, (stdio) =>
      Effect.tryPromise({
        try: () => text(stdio.stdin),
        catch: (cause) => adbcError("IO", `cannot read standard input: ${(cause as Error).message}`)
      }))
    : file !== undefined
    ? Effect.tryPromise({
      try: () => readFile(file, "utf8"),
      catch: (cause) => adbcError("IO", `cannot read ${file}: ${(cause as Error).message}`)
    })
    : Effect.fail(invalidArgument("no SQL: give it as the argument, with --file FILE, or --file - to read standard input"))

/** What a statement without a result set did: `INSERT: 3 rows affected`, `CREATE TABLE: done`. */
export const statusLine = (sql: string, rowsAffected: number | undefined): string => {
  const verb = statementVerb(sql)
  return rowsAffected !== undefined && rowsAffected >= 0 && !/^(CREATE|DROP|ALTER|TRUNCATE|GRANT|REVOKE)\b/.test(verb)
    ? `${verb}: ${formatCount(rowsAffected)} row${rowsAffected === 1 ? "" : "s"} affected`
    : `${verb}: done`
}

/** `adbc query SQL | --file F`. */
export const query = Command.make(
  "query",
  {
    sql: Argument.String("sql").pipe(Argument.optional, Argument.withDescription("the SQL to run")),
    file: Flag.String("file").pipe(
      Flag.withAlias("f"),
      withEnvOptional(
        envName("query", "file"),
        OptionSchemas.nonEmptyString,
        "run the script in this file (- for standard input): statements end with ; and a PL/SQL or SQLScript block with a line holding only /"
      )
    ),
    nullText: nullFlag("query"),
    quiet: quietFlag("query"),
    ...outputFlags,
    ...connectionFlags()
  },
  (args) =>
    Effect.gen(function*() {
      const file = Option.getOrUndefined(args.file)
      const text = yield* sqlText(args.sql, file)
      // An argument is one statement (its trailing ; dropped); a file is a script of several.
      const statements = Option.isSome(args.sql)
        ? [{ sql: text.trim().replace(/;\s*$/, ""), line: 1 }]
        : scriptStatements(text)
      if (statements.length === 0) return yield* invalidArgument(`no SQL: ${file === "-" ? "standard input" : file} holds no statement`)
      const toFile = Option.isSome(args.output)
      if (toFile && statements.length > 1 && (args.format === "arrow" || args.format === "arrows")) {
        return yield* invalidArgument(`--format ${args.format} writes one result: run one statement per file, not ${statements.length}`)
      }
      yield* Effect.gen(function*() {
        const conn = yield* Connection
        const stdio = yield* CliStdio
        for (const statement of statements) {
          yield* Effect.scoped(Effect.gen(function*() {
            const reader = yield* conn.executeQuery(statement.sql)
            if (reader.schema.fields.length === 0) {
              yield* Stream.runDrain(reader.batches)
              const line = `${statusLine(statement.sql, reader.rowsAffected)}\n`
              // Results on stdout stay clean in a data format: the status goes where the user sees it.
              yield* Effect.sync(() => void (args.format === "table" ? stdio.stdout : stdio.stderr).write(line))
              return
            }
            const write = emit(args, reader.schema, reader.batches)
            yield* toFile && !args.quiet
              ? Effect.provide(Progress.tracked("query", { operation: "fetch", onFinish: () => {} })(write), Progress.layerTerminalOnly)
              : write
          }))
        }
      }).pipe(Effect.provide(connectionOf(args)))
    })
).pipe(Command.withDescription(
  "Run SQL and print its result (streamed) as a table, CSV, JSON lines or Arrow IPC; -f FILE (or -f - for standard input) runs a script of several statements"
))

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
              const nullable = column["xdbc_is_nullable"] === "NO" ? " NOT NULL" : ""
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
