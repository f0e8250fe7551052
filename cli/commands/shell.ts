/**
 * `adbc shell`: an interactive SQL session on one connection (`cli/shell/session.ts`).
 */
import { Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { Connection } from "../../src/Connection.ts"
import { OptionSchemas } from "../../src/Options.ts"
import { connectionFlags, connectionOf } from "../connect.ts"
import { envName, withEnvDefault, withEnvOptional } from "../flags.ts"
import { outputFlags } from "./database.ts"
import { defaultHistoryFile } from "../shell/history.ts"
import { shellFormats } from "../shell/run.ts"
import { runShell } from "../shell/session.ts"

/** `adbc shell`. */
export const shell = Command.make(
  "shell",
  {
    format: Flag.Literals("format", shellFormats).pipe(
      withEnvDefault(
        envName("shell", "format"),
        OptionSchemas.literals(shellFormats),
        "table",
        "table (aligned, first rows), csv or jsonl; \\format switches it in the session"
      )
    ),
    maxRows: outputFlags.maxRows,
    maxWidth: outputFlags.maxWidth,
    history: Flag.String("history").pipe(
      withEnvOptional(
        envName("shell", "history"),
        OptionSchemas.nonEmptyString,
        "the file that keeps the line history between sessions (default ~/.adbc_history; the last 1,000 lines)"
      )
    ),
    ...connectionFlags()
  },
  (args) =>
    Effect.gen(function*() {
      const conn = yield* Connection
      yield* runShell(conn, {
        name: conn.driverName,
        format: args.format,
        maxRows: args.maxRows,
        maxWidth: args.maxWidth,
        historyFile: Option.getOrElse(args.history, defaultHistoryFile)
      })
    }).pipe(Effect.scoped, Effect.provide(connectionOf(args)))
).pipe(Command.withDescription(
  "An interactive SQL session on one connection: line editing and history, statements ending with ; over several lines, \\d / \\dt / \\d TABLE, \\timing, \\format, \\q; Ctrl-C cancels the running statement"
))
