/**
 * The `adbc` command tree and the Effect program that runs one command line. It writes only through
 * {@link CliStdio} and Effect's Console, so `adbc.ts` runs it on the process's streams and the tests run it
 * in-process with the output captured.
 */
import { Console, Effect } from "effect"
import { CliOutput, Command, Flag, GlobalFlag } from "effect/cli"
import { info, objects, query, tableSchema, tableTypes } from "./commands/database.ts"
import { demo } from "./commands/demo.ts"
import { shell } from "./commands/shell.ts"
import { testkit } from "./commands/testkit.ts"
import { copy, ingest } from "./commands/transfer.ts"
import { maskUris, oneLine } from "./errors.ts"
import { type CliStdio, layerConsole } from "./stdio.ts"

/** `--verbose`: errors also print their cause (read from the arguments before parsing, so usage errors get it too). */
export const Verbose = GlobalFlag.Setting("verbose")({
  flag: Flag.Boolean("verbose").pipe(Flag.withDefault(false), Flag.withDescription("on failure, also print the cause"))
})

/** The `adbc` command and its subcommands. */
export const adbc = Command.make("adbc").pipe(
  Command.withDescription("Arrow-native database connectivity for HANA and Oracle, from the shell"),
  Command.withGlobalFlags([Verbose]),
  Command.withSubcommands([query, shell, ingest, copy, objects, info, tableSchema, tableTypes, testkit, demo])
)

/** Whether the arguments ask for the cause on failure. */
export const isVerbose = (argv: ReadonlyArray<string>): boolean => argv.includes("--verbose")

/**
 * One usage error's text. A flag's environment variable that its Schema rejects (effect/cli reports the value as
 * "config") is told by the variable's own message: its name, its value and what is accepted.
 */
const usageMessage = (error: { readonly message: string }): string => {
  const invalid = error as { readonly _tag?: unknown; readonly value?: unknown; readonly expected?: unknown }
  if (invalid._tag === "InvalidValue" && invalid.value === "config" && typeof invalid.expected === "string") {
    const env = /environment variable .*/s.exec(invalid.expected)
    if (env !== null) return env[0]
  }
  return error.message.replace(/Schema validation failed: /g, "").replace(/Expected: Expected /g, "Expected: ")
}

/**
 * What a bad command line prints: one line per error (flag, value, what is accepted) and where the flags are listed,
 * on stderr; effect/cli's default prints the whole help text on stdout first, burying the error under it.
 */
export const usageErrorLines = (commandPath: ReadonlyArray<string>, errors: ReadonlyArray<{ readonly message: string }>): Array<string> => [
  ...errors.map((error) => `error: ${maskUris(oneLine(usageMessage(error)))}`),
  `hint: ${[...commandPath, "--help"].join(" ")} lists every ${commandPath.length > 1 ? "flag" : "command"}`
]

/** effect/cli's output: help and version as its default prints them, usage errors as {@link usageErrorLines}. */
const presenter = CliOutput.layerPresenter({
  present: (event) =>
    event._tag === "InvalidInvocation"
      ? Console.error(usageErrorLines(event.commandPath, event.errors).join("\n"))
      : CliOutput.defaultPresenter.present(event)
})

/** Runs `adbc ...argv` with its Console on the {@link CliStdio} streams; the caller maps the exit to a code. */
export const runAdbc = (argv: ReadonlyArray<string>, version: string) =>
  Command.runWith(adbc, { version })(argv).pipe(Effect.provide(presenter), Effect.provide(layerConsole))
