/**
 * The backslash commands of `adbc shell`: `\d` / `\dt` (tables of the current schema, through GetObjects), `\d NAME`
 * (a table's columns), `\timing`, `\format`, `\q` and `\?`. Each reads and changes the session's settings and
 * writes through the shell's output.
 */
import * as Arrow from "apache-arrow"
import { Effect } from "effect"
import { type AdbcError, invalidArgument } from "../../src/AdbcError.ts"
import { ObjectDepth } from "../../src/catalog/index.ts"
import type { ConnectionShape } from "../../src/Connection.ts"
import { rowsOf } from "../cells.ts"
import type { OutputClosed } from "../output.ts"
import { type ShellFormat, shellFormats, type ShellOutput, writeTable } from "./run.ts"

/** The settings a session changes with backslash commands. */
export interface ShellSettings {
  format: ShellFormat
  timing: boolean
}

/** What a backslash command asks of the session. */
export type CommandOutcome = "continue" | "quit"

/** The help `\?` prints. */
export const HELP = [
  "Statements end with ; (a BEGIN/DECLARE or CREATE PROCEDURE/FUNCTION/… block with a line holding only /).",
  "  \\d, \\dt [PATTERN]      list the tables of the current schema (PATTERN: SQL LIKE, % and _)",
  "  \\d NAME                describe table NAME (SCHEMA.NAME for another schema)",
  "  \\timing [on|off]       print the time each statement takes",
  `  \\format ${shellFormats.join("|")}  switch the output format`,
  "  \\q                     quit (also Ctrl-D, or Ctrl-C twice at an empty prompt)",
  "  \\?                     this help",
  "Ctrl-C cancels a running statement; at the prompt it clears the line."
].join("\n")

const text = (values: ReadonlyArray<string | null>) => Arrow.vectorFromArray(values, new Arrow.Utf8())

/** The current schema, or none when the driver cannot say (then every schema is listed). */
const currentSchema = (conn: ConnectionShape) =>
  conn.getOption("adbc.connection.db_schema").pipe(Effect.map((s): string | undefined => s), Effect.orElseSucceed(() => undefined))

/** `\d` / `\dt [PATTERN]`: the tables (and views) of the current schema. */
const listTables = (conn: ConnectionShape, pattern: string | undefined, output: ShellOutput) =>
  Effect.gen(function*() {
    const schema = yield* currentSchema(conn)
    const batch = yield* conn.getObjects({ depth: ObjectDepth.TABLES, dbSchema: schema, tableName: pattern })
    const rows: Array<[string | null, string, string]> = []
    for (const catalog of rowsOf(batch)) {
      for (const dbSchema of rowsOf(catalog["catalog_db_schemas"])) {
        for (const table of rowsOf(dbSchema["db_schema_tables"])) {
          rows.push([dbSchema["db_schema_name"] as string | null, String(table["table_name"]), String(table["table_type"])])
        }
      }
    }
    rows.sort((a, b) => `${a[0]}.${a[1]}`.localeCompare(`${b[0]}.${b[1]}`))
    yield* writeTable(
      new Arrow.Table({ schema: text(rows.map((r) => r[0])), name: text(rows.map((r) => r[1])), type: text(rows.map((r) => r[2])) }),
      output
    )
  })

/** `\d NAME`: the columns of table NAME (`SCHEMA.NAME`), as the database names their types. */
const describeTable = (conn: ConnectionShape, name: string, output: ShellOutput) =>
  Effect.gen(function*() {
    const dot = name.indexOf(".")
    const schema = dot < 0 ? yield* currentSchema(conn) : name.slice(0, dot)
    const table = dot < 0 ? name : name.slice(dot + 1)
    const find = (schemaName: string | undefined, tableName: string) =>
      Effect.map(
        conn.getObjects({ depth: ObjectDepth.COLUMNS, dbSchema: schemaName, tableName }),
        (batch) =>
          rowsOf(batch).flatMap((c) => rowsOf(c["catalog_db_schemas"])).flatMap((s) =>
            rowsOf(s["db_schema_tables"]).map((t): Record<string, unknown> => ({ ...t, db_schema_name: s["db_schema_name"] }))
          )
            // The filter is a LIKE pattern: `_` in a name matches any character.
            .filter((t) => t["table_name"] === tableName)
      )
    // Unquoted names are upper case in HANA and Oracle: `\d t` finds table T when there is no table t.
    let found = yield* find(schema, table)
    if (found.length === 0 && table !== table.toUpperCase()) {
      found = yield* find(schema === undefined || dot < 0 ? schema : schema.toUpperCase(), table.toUpperCase())
    }
    const [first] = found
    if (first === undefined) return yield* invalidArgument(`no table ${name}${schema === undefined ? "" : ` in schema ${schema}`}; \\d lists them`)
    const columns = rowsOf(first["table_columns"])
    const owner = first["db_schema_name"]
    yield* output.out.write(`${String(first["table_type"]).toLowerCase()} ${owner == null ? "" : `${String(owner)}.`}${String(first["table_name"])}\n`)
    yield* writeTable(
      new Arrow.Table({
        column: text(columns.map((c) => String(c["column_name"]))),
        type: text(columns.map((c) => (c["xdbc_type_name"] ?? null) as string | null)),
        nullable: text(columns.map((c) => (c["xdbc_is_nullable"] === "NO" ? "NO" : "YES")))
      }),
      output
    )
  })

/**
 * Runs backslash command `line` (it starts with `\`). An unknown command or a bad argument fails INVALID_ARGUMENT
 * naming what is accepted; the session prints it and goes on.
 */
export const runBackslash = (
  line: string,
  conn: ConnectionShape,
  settings: ShellSettings,
  output: ShellOutput
): Effect.Effect<CommandOutcome, AdbcError | OutputClosed> => {
  const [command = "", ...args] = line.trim().replace(/;$/, "").split(/\s+/)
  const arg = args[0]
  const say = (message: string) => Effect.as(output.out.write(`${message}\n`), "continue" as const)
  switch (command) {
    case "\\q":
    case "\\quit":
      return Effect.succeed("quit")
    case "\\?":
    case "\\help":
      return say(HELP)
    case "\\d":
      return Effect.as(arg === undefined ? listTables(conn, undefined, output) : describeTable(conn, arg, output), "continue")
    case "\\dt":
      return Effect.as(listTables(conn, arg, output), "continue")
    case "\\timing": {
      if (arg !== undefined && arg !== "on" && arg !== "off") {
        return Effect.fail(invalidArgument(`\\timing takes on or off, not ${arg}`))
      }
      settings.timing = arg === undefined ? !settings.timing : arg === "on"
      return say(`Timing is ${settings.timing ? "on" : "off"}.`)
    }
    case "\\format": {
      if (arg === undefined) return say(`Output format is ${settings.format}.`)
      const format = shellFormats.find((f) => f === arg)
      if (format === undefined) return Effect.fail(invalidArgument(`\\format takes ${shellFormats.join(", ")}, not ${arg}`))
      settings.format = format
      return say(`Output format is ${format}.`)
    }
    default:
      return Effect.fail(invalidArgument(`unknown command ${command}; \\? lists the commands`))
  }
}
