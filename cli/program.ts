/**
 * The `adbc` command tree and the Effect program that runs one command line. It writes only through
 * {@link CliStdio} and Effect's Console, so `adbc.ts` runs it on the process's streams and the tests run it
 * in-process with the output captured.
 */
import { Effect } from "effect"
import { Command, Flag, GlobalFlag } from "effect/cli"
import { info, objects, query, tableSchema, tableTypes } from "./commands/database.ts"
import { demo } from "./commands/demo.ts"
import { testkit } from "./commands/testkit.ts"
import { copy, ingest } from "./commands/transfer.ts"
import { type CliStdio, layerConsole } from "./stdio.ts"

/** `--verbose`: errors also print their cause (read from the arguments before parsing, so usage errors get it too). */
export const Verbose = GlobalFlag.Setting("verbose")({
  flag: Flag.Boolean("verbose").pipe(Flag.withDefault(false), Flag.withDescription("on failure, also print the cause"))
})

/** The `adbc` command and its subcommands. */
export const adbc = Command.make("adbc").pipe(
  Command.withDescription("Arrow-native database connectivity for HANA and Oracle, from the shell"),
  Command.withGlobalFlags([Verbose]),
  Command.withSubcommands([query, ingest, copy, objects, info, tableSchema, tableTypes, testkit, demo])
)

/** Whether the arguments ask for the cause on failure. */
export const isVerbose = (argv: ReadonlyArray<string>): boolean => argv.includes("--verbose")

/** Runs `adbc ...argv` with its Console on the {@link CliStdio} streams; the caller maps the exit to a code. */
export const runAdbc = (argv: ReadonlyArray<string>, version: string) =>
  Command.runWith(adbc, { version })(argv).pipe(Effect.provide(layerConsole))
